"""Cheap bounds on rapidfuzz's `fuzz.ratio` and `fuzz.partial_ratio`, so that comparisons whose
answer the bounds already settle need no rapidfuzz (importing it costs a cold recall 20-30 ms,
more than the comparisons). The scoring itself is always rapidfuzz's: a function here returns None
whenever its bounds cannot settle a threshold, and the caller then asks rapidfuzz.

`fuzz.ratio(a, b)` is the normalised Indel similarity, 100 * 2 * LCS(a, b) / (len(a) + len(b)).

- Above: a common subsequence uses each character once, so LCS(a, b) is at most the characters
  the two strings share, counted with multiplicity.
- Below: a common prefix and a common suffix (taken from what the prefix leaves) are common
  subsequences, and so is any one character repeated as often as both middles hold it; their
  lengths add up to a common subsequence of a and b.

`fuzz.partial_ratio(short, long)` is the best `fuzz.ratio` of `short` against a substring w of
`long` no longer than `short` (with equal lengths, also the other way round). LCS(short, w) is at
most len(w) and at most the characters `short` shares with w, which are at most those it shares
with the window of len(short) characters of `long` that holds w. With H the most any such window
shares, every score is at most 200 * min(H, len(w)) / (len(short) + len(w)) <= 200 * H /
(len(short) + H): below the threshold, rapidfuzz could only say "below" too.
"""

from __future__ import annotations

from collections import Counter
from os.path import commonprefix  # of any strings, not only paths

_MARGIN = 1e-6  # keeps a bound's float on the safe side of rapidfuzz's own rounding
# Beyond this many characters sliding the window in Python costs more than importing rapidfuzz.
MAX_WINDOW_TEXT = 4000


def ratio_at_least(a: str, b: str, threshold: float) -> bool | None:
    """True or False when `fuzz.ratio(a, b) >= threshold` is certain without rapidfuzz, else None."""
    if a == b:
        return True
    total = len(a) + len(b)
    shared = sum((Counter(a) & Counter(b)).values())
    if 200.0 * shared / total < threshold - _MARGIN:
        return False
    if 200.0 * _common_subsequence(a, b) / total >= threshold + _MARGIN:
        return True
    return None


def _common_subsequence(a: str, b: str) -> int:
    """The length of a common subsequence of a and b (a lower bound on their LCS, see the module)."""
    prefix = len(commonprefix((a, b)))
    a, b = a[prefix:], b[prefix:]
    suffix = len(commonprefix((a[::-1], b[::-1])))
    middle = (Counter(a[:len(a) - suffix]) & Counter(b[:len(b) - suffix])).values()
    return prefix + suffix + max(middle, default=0)


def partial_ratio_below(short: str, long: str, threshold: float) -> bool:
    """True when `fuzz.partial_ratio(short, long) < threshold` is certain without rapidfuzz
    (len(short) <= len(long)); False when only rapidfuzz can tell."""
    n = len(short)
    if not n or n > len(long) or len(long) > MAX_WINDOW_TEXT:
        return False
    wanted = Counter(short)
    if _below(sum((wanted & Counter(long)).values()), n, threshold):
        return True  # what the whole of `long` shares already bounds every window (no loop needed)
    held: Counter[str] = Counter()
    shared = best = 0
    # Slide a window of n characters along `long`, keeping how many characters it shares with short.
    for i, ch in enumerate(long):
        if held[ch] < wanted[ch]:
            shared += 1
        held[ch] += 1
        if i >= n:
            gone = long[i - n]
            held[gone] -= 1
            if held[gone] < wanted[gone]:
                shared -= 1
        best = max(best, shared)
    return _below(best, n, threshold)


def _below(shared: int, n: int, threshold: float) -> bool:
    """200 * shared / (n + shared), the bound of the module docstring, is under the threshold."""
    return 200.0 * shared / (n + shared) < threshold - _MARGIN
