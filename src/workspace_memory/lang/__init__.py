"""Per-language data: one place for the words every rule that reads words needs.

The model reads 16 languages; a rule that reads words (stop and frame words, question kinds,
labels that are not speakers, evaluative and negation words, time phrases) reads them from here,
per language, never from an English list applied to every language. Where a language has no data
for a concern, `table()` returns None and the rule is neutral (factor 1.0), never the English one.

Layout: one module per concern and language, `lang/<concern>/<code>.py` (ISO 639-1 codes), each
holding plain module-level constants (frozensets, dicts, tuples of strings). Concerns:

- `words`: stop and frame words, question kinds, labels, evaluative and negation words
  (recall's question understanding, reflect's stance);
- `timewords`: month and weekday names, relative time phrases, ordinals, habits (time phrases);
- `stance`: words of change and stance: the attributes a fact states and a question asks about
  (where someone lives, works, ...), change cues, negation, evaluative polarity, degree words
  (supersession, changed minds, reflect's opinion evidence, stale core lines).

A module is imported on first use and kept, so an English question never loads another
language's data, and nothing is read at import of this package (the cold path's rule 4,
docs/architecture.md).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

# The default model's languages (use-multilingual-v3): ar, de, en, es, fr, it, ja, ko, nl, pl, pt,
# ru, th, tr, zh (zh-cn and zh-tw share "zh"). A code outside this set has no data of its own.
MODEL_LANGUAGES = ("ar", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "th", "tr", "zh")
CONCERNS = ("words", "timewords", "stance")

_loaded: dict[tuple[str, str], ModuleType | None] = {}


def table(concern: str, code: str) -> ModuleType | None:
    """The data module for `concern` in language `code`, or None when that language has none.

    Imported on first use and kept. An unknown concern is a programming error (ValueError)."""
    if concern not in CONCERNS:
        raise ValueError(f"unknown language concern {concern!r}; known: {', '.join(CONCERNS)}")
    key = (concern, code)
    if key not in _loaded:
        module: ModuleType | None = None
        if code.isascii() and code.isalpha() and code.islower() and len(code) in (2, 3):
            try:
                module = importlib.import_module(f"{__name__}.{concern}.{code}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{concern}.{code}":
                    raise  # a data module that itself fails to import is a bug, not a missing language
        _loaded[key] = module
    return _loaded[key]


def available(concern: str) -> tuple[str, ...]:
    """The languages that have data for `concern` (for docs and status; reads the package folder)."""
    if concern not in CONCERNS:
        raise ValueError(f"unknown language concern {concern!r}; known: {', '.join(CONCERNS)}")
    package = importlib.import_module(f"{__name__}.{concern}")
    try:  # the folder itself: importlib.resources costs a cold recall that names someone ~6 ms to import
        names = [name for folder in package.__path__ for name in os.listdir(folder)]
    except OSError:  # not a folder on disk (a zipped install)
        from importlib import resources

        names = [entry.name for entry in resources.files(package).iterdir()]
    return tuple(sorted(n[:-3] for n in names if n.endswith(".py") and not n.startswith("_")))
