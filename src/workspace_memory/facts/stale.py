"""Is a line of MEMORY.md stale? The clause rule, shared by reflect (proposals, doctor) and recall
(a stale core line ranks below the fact that superseded it, for a question about now). Pure.

A line is cut into clauses at ", " and "; ". A clause is *stale* against a pair (an older fact,
the newer fact that superseded it; facts.supersession) when the clause states an attribute both
facts state, repeats a value of the older fact (a name, a number, a pair of Han characters:
"Hamburg") and none of the values the newer one brings ("Leipzig", "Plagwitz"). So "lives in
Hamburg" is stale after "Moved from Hamburg to Leipzig", "lives in Leipzig" is not, and a line that
names no superseded value is never touched. The replacement keeps the rest of the line byte for
byte and puts the newer fact's claim in the stale clause's place.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .supersession import attributes

_VALUE_RE = re.compile(r"(?<![\w@])[A-ZÀ-ÖØ-Þ][\w]+|\d[\d.:/]*")
_CLAUSE_RE = re.compile(r"(, |; |；|，)")
# DOTALL: recall passes a core entry as indexed, which may span lines (a bullet and its continuation).
_BULLET_RE = re.compile(r"^(\s*(?:[-*+]\s+)?)(.*?)(\s*)$", re.S)


def values(text: str) -> set[str]:
    """The words that carry a fact's value: names and numbers (not the first word), Han character pairs."""
    found = {m.group(0).casefold() for m in _VALUE_RE.finditer(text) if m.start() > 0}
    if not text.isascii() and max(text) >= "\u3400":  # may hold Han: only then is the class compiled
        for run in _han_runs().findall(text):
            found.update(run[i:i + 2] for i in range(len(run) - 1))
    return found


@lru_cache(maxsize=1)
def _han_runs() -> re.Pattern[str]:
    return re.compile(r"[\u3400-\u9fff]{2,}")


def replace_stale(raw: str, pairs: list[tuple[str, str]], claim_of, names_the_entity) -> tuple[str, int] | None:
    """(the line with its stale clauses replaced, the index in `pairs` of the last pair that made
    one stale), or None when no clause is stale. `pairs` are (older fact's text, newer fact's text);
    `claim_of(i)` is the newer fact's claim without its entity label; `names_the_entity(text)` says
    whether a clause's label ("Jonas Weber: ...") names the entity."""
    lead, body, tail = _BULLET_RE.match(raw).groups()  # type: ignore[union-attr]
    parts = _CLAUSE_RE.split(body)
    hit = None
    for index in range(0, len(parts), 2):
        clause = parts[index]
        stated = set(attributes(clause))
        for i, (old, new) in enumerate(pairs):
            if not stated & set(attributes(old)) or not stated & set(attributes(new)):
                continue
            mine, before, after = values(clause), values(old), values(new) - values(old)
            if mine & before and not mine & after:
                claim = claim_of(i).rstrip(".")
                label, sep, _ = clause.partition(": ")
                head = f"{label}: " if sep and names_the_entity(label) else clause[: len(clause) - len(clause.lstrip())]
                ending = "." if clause.rstrip().endswith(".") else ""
                parts[index] = head + (claim[:1].lower() + claim[1:] if index else claim) + ending
                hit = i
                break
    return None if hit is None else (lead + "".join(parts) + tail, hit)
