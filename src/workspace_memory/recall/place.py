"""A "where" question asks for a place: entries that name one are preferred over those that name none.

"Where was Lena during March?" is answered by "W @Lena: In Porto (Mar 3–9)", not by "Lena is
travelling less this spring", which shares a word and a time but names no place. So for a question
that holds one of its language's `WHERE_WORDS` ("where", "wo", "dónde", "où", "哪里", "どこ";
recall.query sets `Understood.where`), an entry that names no place gets the factor PLACE_MISS (a
gentle one: a place is what the answer holds, not proof that an entry is the answer).

What names a place, read in the question's language (lang/words/<code>.py):

- `LOCATIVES`: a preposition of place ("in", "at", "from", "nach", "en", "à", "em", "naar") right
  before a capitalised name ("in Porto", "nach Lissabon", "à Lyon", "from Sweden"), with no article
  in between (an article before a capitalised word is a common noun in German: "im Meeting", "in
  der Stadt"; a place name stands bare). The name is no month, weekday or label of the language
  ("in March", "im März", "Monday:"), and holds no digit ("in Q3");
- `LOCATIVES_CJK` (Chinese, Japanese): a character of place beside a name written in Latin letters
  ("在Porto", "去Lissabon", "Portoで"), before it (Chinese) or after it (Japanese). A place written in
  CJK characters ("在北京") is not told from "在公司" (at the company) by any character of the pattern,
  so it is not read: the rule then does nothing for the entry (a miss), as for any entry without a
  place it can see.

An entry is read in the question's language and in each of the workspace's (`[time] languages` and
those its notes are written in: lang.identify.workspace_languages), since notes and questions need not
share one. A language whose table has no `WHERE_WORDS` or no locatives leaves the rule out (neutral).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .. import lang

PLACE_MISS = 0.8  # the factor on an entry that names no place, for a "where" question (docs/change.md)

_patterns: dict[str, tuple[tuple[re.Pattern[str], ...], frozenset[str]]] = {}


def names_place(text: str, codes: str | Sequence[str | None] | None) -> bool:
    """Whether `text` names a place as the module docstring says, read with the words of any of the
    languages `codes` (the question's, then the workspace's: a German question about an English note,
    "Wo wohnt Anke?" of "Works remotely from Leipzig", reads the note's "from"); one code alone too."""
    for code in dict.fromkeys((codes,) if codes is None or isinstance(codes, str) else codes):
        if not code:
            continue
        patterns, not_places = _patterns_of(code)
        for pattern in patterns:
            for match in pattern.finditer(text):
                name = match.group("name")
                if name[:1].isupper() and name.lower() not in not_places and not any(ch.isdigit() for ch in name):
                    return True
    return False


# A name after a preposition: letters and digits (a digit is then refused: "in Q3"); beside CJK
# characters, Latin letters only (CJK characters run on without a space: "在Porto参加", "Portoで").
_NAME = r"@?(?P<name>[^\W\d_][^\W_]*)"
_LATIN_NAME = r"@?(?P<name>[A-Za-z\u00c0-\u024f]+)"


def _patterns_of(code: str) -> tuple[tuple[re.Pattern[str], ...], frozenset[str]]:
    """The language's place patterns (none: no locatives) and the capitalised words that are no place."""
    if code not in _patterns:
        words = lang.table("words", code)
        times = lang.table("timewords", code)
        before = sorted(getattr(words, "LOCATIVES", ()), key=len, reverse=True)
        cjk_before = "".join(getattr(words, "LOCATIVES_CJK", ()))
        cjk_after = "".join(getattr(words, "LOCATIVES_CJK_AFTER", ()))
        patterns = []
        if before:
            spelled = "|".join(re.escape(w) for w in before)
            # The preposition as a word, any case ("In Porto" heads a line); the name right after it.
            patterns.append(re.compile(rf"(?<![^\W\d_])(?i:{spelled})\s+{_NAME}"))
        if cjk_before:
            patterns.append(re.compile(rf"[{re.escape(cjk_before)}]\s*{_LATIN_NAME}"))
        if cjk_after:
            patterns.append(re.compile(rf"{_LATIN_NAME}\s*[{re.escape(cjk_after)}]"))
        not_places = frozenset(getattr(words, "LABELS", ())) | frozenset(getattr(times, "MONTHS", ())) | \
            frozenset(getattr(times, "WEEKDAYS", ()))
        _patterns[code] = (tuple(patterns), frozenset(w.lower() for w in not_places))
    return _patterns[code]
