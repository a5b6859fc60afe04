"""One token estimate for the whole engine (chunk sizes and --budget packing).

all-MiniLM-L6-v2 sees 256 word pieces. English averages about 4 characters a word
piece; CJK scripts are about one piece per character. The estimate is
`ceil(other_chars / 4) + cjk_chars`: cheap, deterministic and slightly pessimistic,
so a chunk under CHUNK_TOKENS is seen whole by the model.
"""

from __future__ import annotations

import re

_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]")

# The largest chunk we make, in estimated word pieces (the model's limit is 256;
# headings and dates added to the embedded text need some room).
CHUNK_TOKENS = 200


def has_cjk(text: str) -> bool:
    """True when the text contains Chinese, Japanese or Korean characters."""
    return _CJK_RE.search(text) is not None


def estimate_tokens(text: str) -> int:
    """Estimated word pieces in `text` (see the module docstring for the rule)."""
    cjk = len(_CJK_RE.findall(text))
    other = len(text) - cjk
    return cjk + -(-other // 4)


def fit_chars(text: str, tokens: int) -> int:
    """The longest prefix length of `text` whose estimate is at most `tokens` (binary search)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid]) <= tokens:
            lo = mid
        else:
            hi = mid - 1
    return lo
