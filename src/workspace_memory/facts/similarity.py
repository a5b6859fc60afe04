"""Exact answers to "is rapidfuzz's score at least T?" that need no rapidfuzz when the answer is clear.

recall.dedupe asks whether two texts are (nearly) the same: `fuzz.ratio(a, b) >= 95`, or
`fuzz.partial_ratio(short, long) >= 95`; facts.entities whether a capitalised word of a question
is close to a name (`fuzz.ratio >= 88`). Importing rapidfuzz costs a cold recall more than the
comparisons themselves, and the usual answers are plain: the texts are identical, or they differ
by far more than the threshold allows. These functions decide such cases from exact edit distances and return
None when only rapidfuzz can tell (a score on the threshold itself, or texts too long to be quick
here), so a caller that asks rapidfuzz then gets exactly rapidfuzz's decision in every case.

- `fuzz.ratio(a, b)` is the normalised Indel similarity, 100 * 2 * LCS(a, b) / (len(a) + len(b)).
  The longest common subsequence is computed exactly, bit-parallel (Allison-Dix / Hyyrö), so the
  score is known as a fraction; only a fraction equal to the threshold is left to rapidfuzz,
  whose floating-point rounding decides it.
- `fuzz.partial_ratio(short, long)` is the ratio of `short` against some substring w of `long`
  (the best one for short needles, one near a long common block for long ones; with equal
  lengths, also the other way round). Whatever w it picks, its Indel distance to `short` is at
  least D, the smallest Levenshtein distance from `short` to any substring of `long` (Myers'
  bit-parallel search), and at least the length difference; so every such score is at most
  100 * (1 - D / (2 * len(short) + D)). Below the threshold by a margin, the answer is "no";
  otherwise rapidfuzz is asked (this side gives no "yes").
"""

from __future__ import annotations

# Beyond this many characters the pure-Python loops cost more than importing rapidfuzz.
MAX_CHARS = 4000


def lcs_length(a: str, b: str) -> int:
    """The length of the longest common subsequence of a and b (bit-parallel, O(len(b)) big-int steps)."""
    if len(a) < len(b):
        a, b = b, a
    masks: dict[str, int] = {}
    bit = 1
    for ch in a:
        masks[ch] = masks.get(ch, 0) | bit
        bit <<= 1
    full = bit - 1
    v = full  # a 0 bit marks a position of `a` matched so far
    for ch in b:
        match = masks.get(ch)
        if match:
            u = v & match
            v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def best_substring_distance(pattern: str, text: str) -> int:
    """The smallest Levenshtein distance from `pattern` to any substring of `text` (Myers 1999)."""
    m = len(pattern)
    if not m:
        return 0
    peq: dict[str, int] = {}
    for i, ch in enumerate(pattern):
        peq[ch] = peq.get(ch, 0) | (1 << i)
    full = (1 << m) - 1
    top = 1 << (m - 1)
    pv, mv, score = full, 0, m
    best = m
    for ch in text:
        eq = peq.get(ch, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        # A substring may start anywhere: the top row of the table is all zeros, so nothing is
        # shifted in (a global distance would shift in a 1 here).
        ph = (ph << 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
        if score < best:
            best = score
    return best


def ratio_at_least(a: str, b: str, threshold: int) -> bool | None:
    """Whether `fuzz.ratio(a, b) >= threshold` (an integer percentage); None when rapidfuzz must tell."""
    if a == b:
        return True  # rapidfuzz gives exactly 100
    total = len(a) + len(b)
    if 200 * min(len(a), len(b)) < threshold * total:
        return False  # even a common subsequence as long as the shorter text scores too little
    if max(len(a), len(b)) > MAX_CHARS:
        return None
    # score >= threshold  <=>  200 * lcs / total >= threshold, in integers; a nonzero margin keeps
    # the score at least 1 / total away from the threshold, far above rounding.
    margin = 200 * lcs_length(a, b) - threshold * total
    return None if margin == 0 else margin > 0


def partial_ratio_below(short: str, long: str, threshold: int) -> bool:
    """True when `fuzz.partial_ratio(short, long) < threshold` for certain; False means "ask rapidfuzz"."""
    m = len(short)
    if not m or len(long) > MAX_CHARS or m > len(long):
        return False
    distance = best_substring_distance(short, long)
    if m == len(long):  # rapidfuzz then also aligns long within short
        distance = min(distance, best_substring_distance(long, short))
    # Every score is at most 100 * (1 - D / (2m + D)); below threshold  <=>  100 * D > (100 - t) * (2m + D).
    # When it holds, the bound is below the threshold by at least 1 / (2m + D), far above rounding.
    return 100 * distance > (100 - threshold) * (2 * m + distance)
