"""Which fact a person means: "memory forget 'Lives in Vienna'" or "memory forget memory/2025-11-10.md#L9".

A citation (`path#L9`, `path#L9-L10`, `path:9`) names the fact whose bullet covers that line.
Text names the facts whose bullet or content contains it (case and spacing ignored, `@` too);
when one of them *is* that text, only those count. Exactly one fact must remain: none or
several is a UserError that lists what it found (or the closest facts), so the person can
repeat the command with a citation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import UserError
from ..fuzzy import SAME_TOPIC
from .model import Fact

_CITATION_RE = re.compile(r"^(?P<path>[^\s#]+\.md)(?:#L(?P<a>\d+)(?:-L?\d+)?|:(?P<b>\d+))$")
SHOWN = 5


def _norm(text: str) -> str:
    return " ".join(text.replace("@", "").split()).casefold()


def select_fact(facts: Sequence[Fact], target: str, *, invalid: bool) -> Fact:
    """The one fact `target` names among the valid facts (or, with `invalid`, the struck ones)."""
    target = target.strip()
    if not target:
        raise UserError("say which fact: its text or a citation such as memory/2025-11-10.md#L9")
    # "valid facts" / "facts marked invalid": not "no no longer valid fact" (forget --undo run twice)
    noun = "facts marked invalid" if invalid else "valid facts"
    pool = [f for f in facts if f.valid != invalid]
    m = _CITATION_RE.match(target)
    if m:
        line = int(m["a"] or m["b"])
        found = [f for f in pool if f.path == m["path"] and f.line <= line <= (f.end_line or f.line)]
        if found:
            return found[0]
        other = [f for f in facts if f.path == m["path"] and f.line <= line <= (f.end_line or f.line)]
        if other:
            raise UserError(f"{target} is {'still valid' if invalid else 'already marked invalid'}"
                            f"{'' if invalid else ' (memory forget --undo takes the mark back)'}")
        raise UserError(f"no Retain fact at {target}")
    needle = _norm(target)
    found = [f for f in pool if needle in _norm(f.bullet or f.content) or needle in _norm(f.content)]
    exact = [f for f in found if needle in (_norm(f.bullet), _norm(f.content))]
    found = exact or found
    if len(found) == 1:
        return found[0]
    if found:
        listed = "; ".join(f"{f.source} \"{_short(f.content)}\"" for f in found[:SHOWN])
        more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        raise UserError(f"{len(found)} {noun} contain {target!r}: {listed}{more}; give a citation")
    if invalid and any(needle in _norm(f.bullet or f.content) for f in facts if f.valid):
        raise UserError(f"{target!r} is in a fact that is valid (not marked invalid): there is nothing to undo")
    raise UserError(f"no {noun[:-1] if not invalid else 'fact marked invalid'} contains {target!r}"
                    f"{_closest(pool, needle)}")


def _closest(pool: Sequence[Fact], needle: str) -> str:
    from rapidfuzz import fuzz, process

    choices = {i: _norm(f.content) for i, f in enumerate(pool)}
    best = process.extract(needle, choices, scorer=fuzz.partial_ratio, limit=3, score_cutoff=SAME_TOPIC)
    if not best:
        return ""
    return "; closest: " + "; ".join(f"{pool[i].source} \"{_short(pool[i].content)}\"" for _, _, i in best)


def _short(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
