"""Entity slugs and the names they read as: `@The-Castle` is "The Castle".

Kept apart from the Retain grammar (markdown.retain) so that reading names costs no pattern
compilation: recall, the index and the entity views need these, not the grammar. The word and
mention patterns built on CJK and WORD_NOT_CJK are ScriptPatterns: their class of CJK ranges is
compiled only for a text that may hold CJK (docs/architecture.md, the cold path's rule 3).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Scripts written without spaces between words (kana, CJK ideographs, Hangul, half-width kana): a
# mention or a name stands right beside their characters ("在@Fernwerk工作"), so they end it.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
# A letter, digit or "_" of a script that spaces its words: what may not stand right before an "@"
# (e-mail addresses: a@b.com) nor continue a name.
WORD_NOT_CJK = f"[^\\W{CJK}]"
# A slug: a letter, then letters, digits, "_" and inner "-" of spaced scripts ("The-Castle"); or a
# run of CJK characters ("@王伟"). Either ends where the other kind begins ("@Lea休假" is Lea).
SLUG = f"(?:[^\\W\\d_{CJK}](?:(?:{WORD_NOT_CJK}|-)*{WORD_NOT_CJK})?|[{CJK}]+)"
# SLUG on text without CJK characters (ScriptPattern's spaced form): WORD_NOT_CJK is then \w.
SLUG_SPACED = r"(?:[^\W\d_](?:(?:\w|-)*\w)?)"


def may_hold_cjk(text: str) -> bool:
    """False when every character of `text` lies below U+3040, where CJK's first block begins: the
    text then holds none (Latin, accents, Cyrillic, Greek, typographic punctuation all lie below)."""
    return not text.isascii() and max(text) >= "\u3040"


class ScriptPattern:
    """A pattern in two forms that find the same in text without CJK characters: `spaced`, written
    without the CJK class, and `full`, with it. Each is compiled on first use, `full` only for a
    text that may hold CJK (may_hold_cjk).

    Why: `re` compiles a class of CJK ranges beside \\w ([^\\W{CJK}], WORD_NOT_CJK) in 2-10 ms; a
    cold `memory recall` of an English question compiled three of them for nothing, a third of its
    CPU time (docs/benchmarks.md, 2026-12-06). tests/test_names_patterns.py checks that both forms
    find the same on random text mixing scripts, and tests/test_recall_lexical.py that a Latin-only
    lexical recall compiles no CJK class.
    """

    __slots__ = ("_spaced_source", "_full_source", "_flags", "_spaced", "_full")

    def __init__(self, spaced: str, full: str, flags: int = 0) -> None:
        self._spaced_source, self._full_source, self._flags = spaced, full, flags
        self._spaced: re.Pattern[str] | None = None
        self._full: re.Pattern[str] | None = None

    def for_text(self, text: str) -> re.Pattern[str]:
        """The form to use on `text` (the same text must then be searched)."""
        if may_hold_cjk(text):
            if self._full is None:
                self._full = re.compile(self._full_source, self._flags)
            return self._full
        if self._spaced is None:
            self._spaced = re.compile(self._spaced_source, self._flags)
        return self._spaced

    def spaced(self) -> re.Pattern[str]:
        """The form without the CJK class (right on text without CJK characters only)."""
        return self.for_text("")

    def full(self) -> re.Pattern[str]:
        """The CJK-aware form (right on any text)."""
        return self.for_text("\u3040")

    def findall(self, text: str) -> list:
        return self.for_text(text).findall(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.for_text(text).search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.for_text(text).finditer(text)

    def sub(self, repl: str, text: str) -> str:
        return self.for_text(text).sub(repl, text)


def display_name(slug: str) -> str:
    """How a slug reads in prose: ``"The-Castle"`` -> ``"The Castle"``."""
    return " ".join(slug.replace("-", " ").split())


def slugify(name: str) -> str:
    """A slug for a name: ``"The Castle"`` -> ``"The-Castle"``; the inverse of display_name for simple names.

    Apostrophes are dropped ("Peter's" -> "Peters"), other runs of non-word characters become one "-",
    and leading characters that are not letters are removed (a slug starts with a letter). Returns ""
    when nothing usable is left.
    """
    cleaned = re.sub(r"['’]", "", name)
    slug = "-".join(re.findall(r"[^\W_]+(?:_+[^\W_]+)*", cleaned))
    while slug and not slug[0].isalpha():
        slug = slug[1:]
    return slug.strip("-")
