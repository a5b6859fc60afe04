"""Is a question about now? In the languages other than English (recall.query reads English itself).

The present-state rules (a superseded fact and a changed mind rank below the current one) apply
to a question about now, whatever its language. Each language's table (`lang/stance/<code>.py`)
holds its words of now (NOW: "jetzt", "ahora", "maintenant", "现在"), of the past (PAST, PAST_PHRASES
and PAST_ENDINGS: "früher", "antes", "vivía", "以前") and its question words (QUESTION).

The rule: the question is read in the language whose words it holds most (question words, words of
now and of the past, its small words); a word of the past there says "not now"; a word of now, or
a question at all (a question word or a question mark), says "now". A language with no table
says nothing (the rule is neutral). A time phrase in the question ("im Oktober") is handled before
this (recall.query: a question with a window is never about now).
"""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[\w']+")


@lru_cache(maxsize=1)
def _languages() -> list:
    from .. import lang

    tables = [lang.table("stance", code) for code in lang.available("stance") if code != "en"]
    return [t for t in tables if t is not None and hasattr(t, "NOW")]


def _held(table, words: set[str], text: str, entry: str) -> bool:
    """`entry` (a word, or a phrase, or a CJK word) is in the question."""
    if " " in entry or _cjk(entry):
        return entry in text
    return entry in words


def _cjk(entry: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in entry)


def _hits(table, words: set[str], text: str, name: str) -> int:
    return sum(_held(table, words, text, entry) for entry in getattr(table, name, ()))


def about_now(question: str) -> bool:
    """True when the question, read in its language (module docstring), asks how things are now."""
    text = question.casefold().replace("’", "'")
    words = set(_WORD.findall(text))
    best, best_score = None, 0
    for table in _languages():
        score = sum(_hits(table, words, text, name) for name in ("QUESTION", "NOW", "PAST", "PAST_PHRASES"))
        score += len(words & getattr(table, "STOP", frozenset()))
        if score > best_score:
            best, best_score = table, score
    if best is None:
        return False
    endings = getattr(best, "PAST_ENDINGS", ())
    if _hits(best, words, text, "PAST") or _hits(best, words, text, "PAST_PHRASES") or any(
            len(w) >= 5 and w.endswith(endings) for w in words if endings):
        return False
    if _hits(best, words, text, "NOW"):
        return True
    return "?" in text or "？" in text or bool(_hits(best, words, text, "QUESTION"))
