"""Which world facts a newer fact replaces ("lives in Vienna" -> "moved to London"). Pure; recall may reuse it.

The rule, deliberately simple and deterministic:

1. Only facts of the given kinds (world facts by default) that name an entity take part; a
   fact is *about* its primary entity, the first @mention.
2. Each fact states zero or more *slots*, found by keyword:
   - residence:   lives in, living in, resides, based in, settled in, moved to, relocated to, home is
   - whereabouts: a text that opens with "in <Place>" / "at <Place>" / "currently in", or contains
                  back in, back home, staying in/at, visiting, arrived in, travelling/traveling to,
                  now in, currently in
   - employer:    works at/for (also "works remotely for"), working at/for, joined, employed by/at,
                  hired by, new job at, started at
   A move ("moved to", "relocated to", "moved back to") also states whereabouts: whoever moved is there now.
3. An older fact A is superseded when every slot A states is stated again by newer facts about
   the same primary entity. A maps to the *earliest* newer fact that restates A's first slot.
4. Independently, a newer fact B with a change cue ("no longer", "not anymore", "stopped",
   "quit", "left", "moved out") supersedes an older fact A about the same primary entity when
   their claims match (textmatch.similarity >= NEGATION_MATCH with the cue words ignored).
5. "Newer" means a later written day, then a later position (path, line) on the same day.
   Undated (evergreen) facts count as oldest.

So "W @Peter: Lives in Vienna and works for Acme" is not superseded by "moved to London"
alone (the employer slot is not restated), but is by "moved to London" plus "joined Initech".
A temporary stay ("In Marrakech (Nov 27-Dec 1)") is whereabouts and does not replace where
someone lives; "Back in Vienna" replaces the stay.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from ..fuzzy import SAME_CLAIM
from ..markdown.names import display_name
from .textmatch import analyze, similarity

NEGATION_MATCH = SAME_CLAIM

_RESIDENCE = re.compile(
    r"\b(lives? in|living in|resides?|residing|based in|settled in|moved (back )?to|relocated (back )?to|"
    r"relocating to|moving to|home is)\b", re.I)
_MOVE = re.compile(r"\b(moved (back )?to|relocated (back )?to|relocating to|moving to)\b", re.I)
_WHEREABOUTS = re.compile(
    r"\b(back in|back home|staying (in|at)|visiting|arrived (in|at)|travell?ing to|now in|currently in)\b",
    re.I)
_WHEREABOUTS_OPENING = re.compile(r"^(?i:currently |now |still )?(?i:in|at) [A-Z\u00C0-\u024F]")
_EMPLOYER = re.compile(
    r"\b(works?( \w+)? (at|for)|working( \w+)? (at|for)|joined|employed (by|at)|hired by|new job at|"
    r"started at)\b", re.I)
_CHANGE_CUE = re.compile(r"\b(no longer|not anymore|not any more|stopped|quit|left|moved out)\b", re.I)


class FactLike(Protocol):
    """What supersession needs from a fact (facts.model.Fact satisfies it)."""

    id: int
    kind: str
    content: str
    entities: tuple[str, ...]

    @property
    def order(self) -> tuple[str, str, int]: ...


def _claim_text(fact: FactLike) -> str:
    """The text after an opening "Name:" (facts read "Peter: Lives in Vienna")."""
    head, sep, rest = fact.content.partition(":")
    if sep and fact.entities and head.strip().casefold() in {display_name(e).casefold() for e in fact.entities}:
        return rest.strip()
    return fact.content.strip()


def slots(text: str) -> tuple[str, ...]:
    """The slots a claim states, in a fixed order (residence, whereabouts, employer)."""
    found = []
    if _RESIDENCE.search(text):
        found.append("residence")
    if _WHEREABOUTS.search(text) or _WHEREABOUTS_OPENING.match(text) or _MOVE.search(text):
        found.append("whereabouts")
    if _EMPLOYER.search(text):
        found.append("employer")
    return tuple(found)


def superseded_ids(facts: Iterable[FactLike], kinds: tuple[str, ...] = ("world",)) -> dict[int, int]:
    """Map the id of every superseded fact to the id of the fact that replaced it (see module doc)."""
    by_entity: dict[str, list[FactLike]] = {}
    for fact in facts:
        if fact.kind in kinds and fact.entities:
            by_entity.setdefault(fact.entities[0], []).append(fact)
    out: dict[int, int] = {}
    for entity, group in sorted(by_entity.items()):
        group.sort(key=lambda f: f.order)
        out.update(_supersede_group(group, (display_name(entity),)))
    return out


def _supersede_group(group: list[FactLike], names: tuple[str, ...]) -> dict[int, int]:
    """Rules 3 and 4 for one entity's facts, oldest first; linear in the facts but for change cues."""
    texts = [_claim_text(f) for f in group]
    fact_slots = [slots(t) for t in texts]
    cue_at = [j for j, t in enumerate(texts) if _CHANGE_CUE.search(t)]
    out: dict[int, int] = {}
    nearest: dict[str, int] = {}  # slot -> index of the earliest later fact that states it
    for i in range(len(group) - 1, -1, -1):
        mine = fact_slots[i]
        if mine and all(s in nearest for s in mine):
            out[group[i].id] = group[nearest[mine[0]]].id
        else:
            later_cues = [j for j in cue_at if j > i]
            if later_cues:
                old_claim = analyze(texts[i], names)
                for j in later_cues:
                    if similarity(old_claim, analyze(_CHANGE_CUE.sub(" ", texts[j]), names)) >= NEGATION_MATCH:
                        out[group[i].id] = group[j].id
                        break
        for s in mine:
            nearest[s] = i
    return out
