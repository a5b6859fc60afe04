"""One result per entry, and no result that repeats a better-ranked one."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Set
from typing import Any

from ..facts.similarity import partial_ratio_below, ratio_at_least
from ..fuzzy import COPY
from .candidates import Candidate

_WORD_RE = re.compile(r"\w+")
Bound = Callable[[str, str, float], "bool | None"]  # facts.similarity.ratio_at_least's shape
PartialBound = Callable[[str, str, float], bool]  # facts.similarity.partial_ratio_below's shape


def dedupe(ranked: list[Candidate], limit: int) -> list[Candidate]:
    """The first `limit` candidates that neither cite an entry already kept nor repeat a kept text.

    One result per entry: a long entry is split into pieces (index rows that share `path` and
    `entry_start`), and a result whose lines overlap a better one's cites the same text; the best
    piece stands for the entry, cited with the lines that hold it (DESIGN §3: the unit of recall
    is an entry). Repeats are (nearly) the same text, or one text contained in the other: a fact
    copied by hand into a bank page says nothing new next to the fact itself. Texts under 40
    characters only count when (nearly) identical. Word sets prefilter the pairs, so only likely
    repeats pay for a fuzzy comparison, and facts.similarity's bounds settle most of those without
    importing rapidfuzz. When a fact repeats a copy that ranked above it, the fact takes the copy's
    place: a bank page's copy never outranks the fact itself.
    """
    kept: list[tuple[Candidate, str, frozenset[str]]] = []
    entries: set[tuple[tuple[str, str], int]] = set()
    spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for cand in ranked:
        row = cand.row
        # A view over several workspaces (Postgres) holds the same paths once per workspace.
        path, first, last = (row.get("workspace", ""), row["path"]), row["start_line"], row["end_line"]
        entry = (path, row.get("entry_start") or first)
        if entry in entries or any(a <= last and first <= b for a, b in spans.get(path, ())):
            continue
        text = _comparable(row)
        words = _words(text)
        # (_repeats's first test inline: most pairs share few words, and a call each costs more than the test.)
        copied = next((n for n, (_, other, other_words) in enumerate(kept)
                       if (fewer := min(len(words), len(other_words))) and len(words & other_words) >= 0.8 * fewer
                       and _repeats(text, words, other, other_words)), None)
        if copied is not None:
            # The fact itself takes the place of a copy that ranked above it (a bank page's opinion
            # or a hand copy): the copy says nothing the fact does not, and the fact is the source.
            if row.get("fact_content") and not kept[copied][0].row.get("fact_content"):
                kept[copied] = (cand, text, words)
                entries.add(entry)
                spans.setdefault(path, []).append((first, last))
            continue
        kept.append((cand, text, words))
        entries.add(entry)
        spans.setdefault(path, []).append((first, last))
        if len(kept) == limit:
            break
    return [cand for cand, _, _ in kept]


@functools.lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """The lower-case words of a text (kept: a long-lived process compares the same entries question
    after question)."""
    return frozenset(_WORD_RE.findall(text.lower()))


def _comparable(row: dict[str, Any]) -> str:
    text = row.get("fact_content") or row["text"]
    _, sep, rest = text.partition(": ")
    # "Peter: Prefers tea" (a fact) and "- Prefers tea (2025-11-28)" (a copy of it)
    return rest if sep and row.get("fact_content") else text


def _repeats(a: str, a_words: Set[str], b: str, b_words: Set[str], bound: Bound = ratio_at_least,
             partial_below: PartialBound = partial_ratio_below) -> bool:
    """True when one text (nearly) repeats the other (see dedupe). `bound` and `partial_below` may
    settle rapidfuzz's ratio and partial_ratio without rapidfuzz (facts.similarity); bounds that
    never do (None, False) leave every decision to rapidfuzz, which is how a test checks that the
    bounds change none."""
    small, large = (a_words, b_words) if len(a_words) <= len(b_words) else (b_words, a_words)
    if not small or len(small & large) < 0.8 * len(small):
        return False
    short, long = sorted((a, b), key=len)
    # ratio >= COPY needs lengths within (100 - COPY)% of their sum (an edit per character of
    # difference), so only such pairs pay for rapidfuzz; an exact containment needs no fuzzy comparison.
    near_length = len(a) > 20 and len(long) - len(short) <= (100 - COPY) / 100 * (len(a) + len(b))
    contained = len(short) >= 40
    if contained and short in long:
        return True
    if not (near_length or contained):
        return False
    if near_length and _copy_by_ratio(a, b, bound):
        return True
    if not contained or partial_below(short, long, COPY):
        return False
    from rapidfuzz import fuzz  # lazy: most recalls never get here

    return fuzz.partial_ratio(short, long) >= COPY


def _copy_by_ratio(a: str, b: str, bound: Bound) -> bool:
    same = bound(a, b, COPY)
    if same is None:
        from rapidfuzz import fuzz

        same = fuzz.ratio(a, b) >= COPY
    return same
