"""Dropping results that repeat a better-ranked one."""

from __future__ import annotations

import re
from typing import Any

from .candidates import Candidate


def dedupe(ranked: list[Candidate], limit: int) -> list[Candidate]:
    """The first `limit` entries that do not repeat a better-ranked one.

    Repeats are (nearly) the same text, or one text contained in the other: a fact
    copied by hand into a bank page says nothing new next to the fact itself. Texts
    under 40 characters only count when (nearly) identical. Word sets prefilter the
    pairs, so only likely repeats pay for a fuzzy comparison.
    """
    from rapidfuzz import fuzz

    kept: list[tuple[Candidate, str, set[str]]] = []
    for cand in ranked:
        text = _comparable(cand.row)
        words = set(_WORD_RE.findall(text.lower()))
        if not any(_repeats(text, words, other, other_words, fuzz) for _, other, other_words in kept):
            kept.append((cand, text, words))
            if len(kept) == limit:
                break
    return [cand for cand, _, _ in kept]


_WORD_RE = re.compile(r"\w+")


def _comparable(row: dict[str, Any]) -> str:
    text = row.get("fact_content") or row["text"]
    _, sep, rest = text.partition(": ")
    # "Peter: Prefers tea" (a fact) and "- Prefers tea (2025-11-28)" (a copy of it)
    return rest if sep and row.get("fact_content") else text


def _repeats(a: str, a_words: set[str], b: str, b_words: set[str], fuzz) -> bool:  # noqa: ANN001
    small, large = (a_words, b_words) if len(a_words) <= len(b_words) else (b_words, a_words)
    if not small or len(small & large) < 0.8 * len(small):
        return False
    if len(a) > 20 and fuzz.ratio(a, b) >= 95:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 40 and fuzz.partial_ratio(short, long) >= 95
