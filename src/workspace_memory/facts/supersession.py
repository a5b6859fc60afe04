"""Which world facts a newer fact replaces ("lives in Vienna" -> "moved to London"). Pure; recall may reuse it.

The rule, deterministic and the same in every language the model reads:

1. Only facts of the given kinds (world facts by default) that name an entity take part; a
   fact is *about* its primary entity, the first @mention.
2. Each fact states zero or more *attributes* of its entity, read from its own words with each
   language's table (`lang/stance/<code>.py`, ATTRIBUTES; every language with data is read, so a
   note in any of them, or in several, is understood):
   - residence:    where someone lives ("lives in", "wohnt", "vive en", "habite", "住在");
   - whereabouts:  where someone is for a while (a visit, a trip, a stay with its dates, "back in");
   - employer:     where or for whom someone works ("works at", "arbeitet bei", "trabaja en", "入职");
   - relationship: whom someone is with ("dating", "verheiratet", "rompió con", "分手");
   - role:         someone's role or title ("promoted", "Teamleiterin", "jefa de", "升任");
   - status:       a project's state ("in beta", "paused", "gestoppt", "en pausa", "暂停");
   - date:         when something is planned ("planned for", "verschoben", "aplazó", "推迟").
   A claim is read in its own languages: those whose small words it holds most (languages_of), so
   "The movers from Umzug Blitz" is English and its German "Umzug" (a move) is a name here.
   A move ("moved", "umgezogen", "se mudó", "a déménagé", "搬到") states residence and whereabouts:
   whoever moved lives and is there now; unless the fact also states a date ("the release moved to
   Dec 8": what moved is a date).
3. An older fact A is superseded when every attribute A states is stated again by newer facts
   about the same primary entity. A maps to the *earliest* newer fact that restates A's first attribute.
4. Independently, a newer fact B with a change cue (each table's CHANGE: "no longer", "left",
   "nicht mehr", "ya no", "不再") supersedes an older fact A about the same primary entity when
   their claims match (textmatch.similarity >= NEGATION_MATCH with the cue words ignored).
5. "Newer" means a later written day, then a later position (path, line) on the same day.
   Undated (evergreen) facts count as oldest.
6. A newer fact that states a time after today is a plan ("Moves to Lyon on Dec 12" written on
   Nov 30): it replaces nothing until that day comes, so on Dec 5 "Lives in Paris" still holds.
   Only a reader who knows today applies this (recall, entity pages, reflect: `in_effect`); the
   store keeps the pairs of rules 3-4, which do not depend on the day.

So "W @Peter: Lives in Vienna and works for Acme" is not superseded by "moved to London"
alone (the employer is not restated), but is by "moved to London" plus "joined Initech".
A temporary stay ("In Marrakech (Nov 27-Dec 1)", "Visited Vienna") is whereabouts and does not
replace where someone lives; "Back in Vienna" replaces the stay. `why` says what matched, for
`--explain`, the entity pages and bank/world.md. A language with no table states no attribute:
the rule is then neutral (nothing is superseded by rule 3), never the English one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from functools import lru_cache
from typing import Protocol

from ..fuzzy import SAME_CLAIM
from ..markdown.names import display_name

NEGATION_MATCH = SAME_CLAIM
ATTRIBUTE_ORDER = ("residence", "whereabouts", "employer", "relationship", "role", "status", "date")


class FactLike(Protocol):
    """What supersession needs from a fact (facts.model.Fact satisfies it)."""

    id: int
    kind: str
    content: str
    entities: tuple[str, ...]

    @property
    def order(self) -> tuple[str, str, int]: ...


def _join(patterns) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.I)


class _Either:
    """Patterns searched as one pattern that joins them with "|" in their order would be: the leftmost
    match, the earlier pattern's where two start at one place (at a place, "|" takes its first
    alternative that matches; each pattern is itself such a join)."""

    __slots__ = ("patterns", "_joined")

    def __init__(self, patterns: list[re.Pattern[str]]) -> None:
        self.patterns = patterns
        self._joined: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        best = None
        for pattern in self.patterns:
            match = pattern.search(text)
            if match is not None and (best is None or match.start() < best.start()):
                best = match
        return best

    def sub(self, repl: str, text: str) -> str:
        """Every match replaced, as the joined pattern replaces them (compiled on first use: only a
        change cue's claim is compared without its cue)."""
        if self._joined is None:
            self._joined = _join(p.pattern for p in self.patterns)
        return self._joined.sub(repl, text)


@lru_cache(maxsize=16)  # one entry a language with stance data
def _language(code: str) -> tuple[dict[str, re.Pattern[str]], re.Pattern[str] | None]:
    """One language's attribute patterns, joined per attribute, and its change cues."""
    from .. import lang

    table = lang.table("stance", code)
    attributes = {a: _join(ps) for a, ps in getattr(table, "ATTRIBUTES", {}).items() if ps}
    change = getattr(table, "CHANGE", ())
    return attributes, (_join(change) if change else None)


@lru_cache(maxsize=64)
def _tables(codes: tuple[str, ...] = ()) -> tuple[dict[str, _Either], _Either | None]:
    """The attribute patterns of the languages `codes` (all with data when empty), per attribute, and
    their change cues. Each language's are compiled once and shared by every set of languages that
    holds it: a recall that reads one claim as English and another as any language compiles English
    once (a cold recall's slots and stale core lines cost 10-15 ms of compiling otherwise)."""
    per_language = [_language(code) for code in codes or _codes()]
    attributes: dict[str, list[re.Pattern[str]]] = {}
    for patterns, _ in per_language:
        for attribute, pattern in patterns.items():
            attributes.setdefault(attribute, []).append(pattern)
    change = [cue for _, cue in per_language if cue is not None]
    return {a: _Either(ps) for a, ps in attributes.items()}, (_Either(change) if change else None)


_WORDS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1)
def _codes() -> tuple[str, ...]:
    """The languages with stance data (read from the package folder once)."""
    from .. import lang

    return lang.available("stance")


@lru_cache(maxsize=1)
def _stops() -> tuple[tuple[str, frozenset[str]], ...]:
    from .. import lang

    return tuple((code, getattr(lang.table("stance", code), "STOP", frozenset())) for code in _codes())


def languages_of(text: str) -> tuple[str, ...]:
    """The languages a short text is most likely written in, by the small words of each table
    (lang/stance STOP; Han characters: zh). A word of another language inside it ("the movers from
    Umzug Blitz": a German word in an English sentence, a company's name) is then not read as that
    language's. Empty when nothing tells: every table is read."""
    words = [w.casefold() for w in _WORDS.findall(text)]
    counts: dict[str, int] = {}
    for code, stop in _stops():
        if code == "zh":
            count = sum(any("\u3400" <= ch <= "\u9fff" for ch in w) for w in words)
        else:
            count = sum(w in stop for w in words)
        if count:
            counts[code] = count
    if not counts:
        return ()
    best = max(counts.values())
    return tuple(sorted(code for code, count in counts.items() if count == best))


def _claim_text(fact: FactLike) -> str:
    """The text after an opening "Name:" (facts read "Peter: Lives in Vienna")."""
    head, sep, rest = fact.content.partition(":")
    if sep and fact.entities and head.strip().casefold() in {display_name(e).casefold() for e in fact.entities}:
        return rest.strip()
    return fact.content.strip()


def attributes(text: str) -> dict[str, str]:
    """{attribute: the words that state it} for a claim, in ATTRIBUTE_ORDER (rule 2), read in the
    claim's languages (languages_of)."""
    return dict(_attributes(text))


@lru_cache(maxsize=65536)
def _attributes(text: str) -> tuple[tuple[str, str], ...]:
    patterns, _ = _tables(languages_of(text))
    found: dict[str, str] = {}
    for attribute, pattern in patterns.items():
        match = pattern.search(text)
        if match:
            found[attribute] = match.group(0).strip()
    moved = found.pop("move", None)
    if moved is not None and "date" not in found:
        found.setdefault("residence", moved)
        found.setdefault("whereabouts", moved)
    return tuple((a, found[a]) for a in ATTRIBUTE_ORDER if a in found)


def slots(text: str) -> tuple[str, ...]:
    """The attributes a claim states, in ATTRIBUTE_ORDER."""
    return tuple(attributes(text))


def change_cue(text: str) -> str | None:
    """The words of a change cue ("no longer", "left", "nicht mehr"), or None."""
    _, pattern = _tables(languages_of(text))
    match = pattern.search(text) if pattern is not None else None
    return match.group(0).strip() if match else None


def why(old: str, new: str) -> str:
    """What made `new` replace `old`, in words: "residence: lives in -> moved" (or the change cue)."""
    mine, theirs = attributes(old), attributes(new)
    shared = [a for a in mine if a in theirs]
    if shared:
        a = shared[0]
        return f"{a}: {mine[a]} -> {theirs[a]}"
    cue = change_cue(new)
    return f"change: {cue}" if cue else "newer fact"


def superseded_ids(facts: Iterable[FactLike], kinds: tuple[str, ...] = ("world",),
                   today: date | None = None) -> dict[int, int]:
    """Map the id of every superseded fact to the id of the fact that replaced it (see module doc);
    with `today`, only the replacements already in effect (rule 6)."""
    by_entity: dict[str, list[FactLike]] = {}
    starts: dict[int, str | None] = {}
    for fact in facts:
        if fact.kind in kinds and fact.entities:
            by_entity.setdefault(fact.entities[0], []).append(fact)
            starts[fact.id] = getattr(fact, "occurred_start", None)
    out: dict[int, int] = {}
    for entity, group in sorted(by_entity.items()):
        group.sort(key=lambda f: f.order)
        out.update(_supersede_group(group, (display_name(entity),)))
    return in_effect(out, starts, today)


def in_effect(replaced: dict[int, int], starts: Mapping[int, str | None], today: date | None) -> dict[int, int]:
    """The pairs of `replaced` ({old id: newer id}) whose newer fact does not state a time after
    `today` (rule 6: a plan replaces nothing yet). `starts` holds each newer fact's stated start
    (ISO day; None or absent when it states none). Without `today`, every pair."""
    if today is None:
        return replaced
    day = today.isoformat()
    return {old: new for old, new in replaced.items() if not (starts.get(new) or "") > day}


def _supersede_group(group: list[FactLike], names: tuple[str, ...]) -> dict[int, int]:
    """Rules 3 and 4 for one entity's facts, oldest first; linear in the facts but for change cues."""
    texts = [_claim_text(f) for f in group]
    fact_slots = [slots(t) for t in texts]
    cue_at = [j for j, t in enumerate(texts) if change_cue(t)]
    out: dict[int, int] = {}
    nearest: dict[str, int] = {}  # slot -> index of the earliest later fact that states it
    for i in range(len(group) - 1, -1, -1):
        mine = fact_slots[i]
        if mine and all(s in nearest for s in mine):
            out[group[i].id] = group[nearest[mine[0]]].id
        else:
            later_cues = [j for j in cue_at if j > i]
            if later_cues:
                from .textmatch import analyze, similarity  # lazy: rapidfuzz, only for a change cue

                old_claim = analyze(texts[i], names)
                for j in later_cues:
                    _, cue_pattern = _tables(languages_of(texts[j]))
                    assert cue_pattern is not None
                    if similarity(old_claim, analyze(cue_pattern.sub(" ", texts[j]), names)) >= NEGATION_MATCH:
                        out[group[i].id] = group[j].id
                        break
        for s in mine:
            nearest[s] = i
    return out
