"""A cheap bound on rapidfuzz's `fuzz.ratio`, so that comparisons that cannot reach a threshold
need no rapidfuzz (importing it costs a cold recall 20-30 ms, more than the comparisons).

`fuzz.ratio(a, b)` is the normalised Indel similarity, 100 * 2 * LCS(a, b) / (len(a) + len(b)).
A common subsequence uses each character once, so LCS(a, b) is at most the characters the two
strings share, counted with multiplicity: that gives an upper bound on the score from two
character counts. When the bound is below the threshold, rapidfuzz could only say "below" too;
otherwise rapidfuzz is asked. Equal strings score 100. The scoring itself is rapidfuzz's.
"""

from __future__ import annotations

from collections import Counter

_MARGIN = 1e-6  # keeps the bound's float on the safe side of rapidfuzz's own rounding


def ratio_at_least(a: str, b: str, threshold: float) -> bool | None:
    """True or False when `fuzz.ratio(a, b) >= threshold` is certain without rapidfuzz, else None."""
    if a == b:
        return True
    total = len(a) + len(b)
    shared = sum((Counter(a) & Counter(b)).values())
    if 200.0 * shared / total < threshold - _MARGIN:
        return False
    return None
