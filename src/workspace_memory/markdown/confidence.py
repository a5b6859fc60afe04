"""How a person writes a confidence by hand on bank/opinions.md, read as a Retain bullet's c= is read.

A confidence is a number in [0, 1] ("0.85", ".85", "0,85"), or a percentage written with its sign
("85%", "85 %"). A bare number is never a percentage: "1.7" is a typo for something at most 1, not
1.7 %, so it is clamped to 1.0 with a warning, as `O(c=1.7)` is in a Retain bullet; "-0.2" to 0.0;
"150%" to 1.0. The warning names path:line (the indexer records it; status and doctor show it) and
reflect reads the clamped value.

Pure functions: reflect.opinions_md reads each opinion's confidence with `read_confidence`, and
the indexer (index.rows) turns `page_warnings` into the page's warnings.
"""

from __future__ import annotations

import re

OPINIONS_PAGE = "bank/opinions.md"
_NUMBER_RE = re.compile(r"^([-+]?\d*[.,]?\d+)\s*(%?)")
_FIELD_RE = re.compile(r"^\s*[-*]\s+confidence\s*:\s*(.*?)\s*$", re.I)
_FENCE_RE = re.compile(r"^\s*(```|~~~)")
_REGION_RE = re.compile(r"^<!--\s*reflect:(begin|end)\s+(\w+)")


def read_confidence(text: str | None) -> tuple[float | None, str | None]:
    """(the confidence in [0, 1], or None when `text` holds no number; a warning when it was clamped)."""
    if not text:
        return None, None
    m = _NUMBER_RE.match(text.strip())
    if not m:
        return None, None
    number = m[1].replace(",", ".")
    value = float(number) / (100.0 if m[2] else 1.0)
    clamped = min(1.0, max(0.0, value))
    if clamped == value:
        return value, None
    shown = number + m[2]
    return clamped, (f"confidence {shown} is outside 0..1 (a percentage is written with %, e.g. 70%); "
                     f"read as {clamped:.1f}")


def page_warnings(text: str) -> list[tuple[int, str]]:
    """(line, message) for every `confidence:` line of bank/opinions.md whose value is outside [0, 1]
    (outside code fences and reflect's generated regions, where no person writes one)."""
    out: list[tuple[int, str]] = []
    fenced = False
    region: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE_RE.match(line):
            fenced = not fenced
            continue
        marker = _REGION_RE.match(line.strip())
        if marker:
            region = marker[2] if marker[1] == "begin" else None
            continue
        if fenced or region is not None:
            continue
        field = _FIELD_RE.match(line)
        if field:
            _, warning = read_confidence(field[1])
            if warning:
                out.append((number, warning))
    return out
