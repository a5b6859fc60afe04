"""One token estimate for the whole engine (chunk sizes and --budget packing).

all-MiniLM-L6-v2 sees 256 word pieces. English averages about 4 characters a word
piece; CJK scripts are about one piece per character. The estimate is
`ceil(other_chars / 4) + cjk_chars`: cheap, deterministic and slightly pessimistic,
so a chunk under CHUNK_TOKENS is seen whole by the model.
"""

from __future__ import annotations

import re

_CJK = "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]"
_cjk_re: re.Pattern[str] | None = None  # compiled on first non-ASCII text: the class costs milliseconds

# The largest chunk we make, in estimated word pieces (the model's limit is 256;
# headings and dates added to the embedded text need some room).
CHUNK_TOKENS = 200


def _cjk() -> re.Pattern[str]:
    global _cjk_re
    if _cjk_re is None:
        _cjk_re = re.compile(_CJK)
    return _cjk_re


def _may_hold_cjk(text: str) -> bool:
    # Latin text, accents and typographic punctuation ("–", "’") lie below the first CJK block.
    return not text.isascii() and max(text) >= "\u3040"


def has_cjk(text: str) -> bool:
    """True when the text contains Chinese, Japanese or Korean characters."""
    return _may_hold_cjk(text) and _cjk().search(text) is not None


def estimate_tokens(text: str) -> int:
    """Estimated word pieces in `text` (see the module docstring for the rule)."""
    cjk = len(_cjk().findall(text)) if _may_hold_cjk(text) else 0
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
