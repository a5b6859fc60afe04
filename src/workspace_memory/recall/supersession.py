"""Superseded facts in recall: "lives in Vienna" ranks below a newer "moved to London", and an
opinion below the newer one that changed it ("Rust is overhyped" below "Rust is a good fit").

The rule itself (which newer world fact replaces which older one) lives in
facts.supersession, so recall, entity pages and bank/world.md agree; the store applies
it whenever facts change and keeps the answer.

For a question about now, in any language with words for it (recall.query.asks_about_now,
lang/words), a superseded fact's relevance is
multiplied by SUPERSEDED_FACTOR; when the question names a time ("where did Peter live in
March?") or asks about the past ("Wo hat Jonas früher gewohnt?") nothing is demoted, since the
old fact may be exactly what was true then.
"""

from __future__ import annotations

import re
from datetime import date

from ..index.base import ChunkRow, Store

SUPERSEDED_FACTOR = 0.6


def superseded_among(store: Store, rows: dict[int, ChunkRow], question: str = "",
                     today: date | None = None) -> dict[int, int]:
    """For candidate world facts and opinions, {superseded chunk id: id of the entry that replaced it}.

    World facts: read from the store, which keeps the answer up to date at every sync
    (facts.supersession's rule), and for a question that asks about one slot, the slot alone
    (slot_replaced); with `today`, a newer fact that states a later time (a plan) replaces
    nothing yet (the rule's point 6). Opinions: a changed mind among the candidates (changed_minds).
    """
    replaced = store.superseded([cid for cid, row in rows.items() if row["kind"] == "world"])
    for old, new in slot_replaced(rows, question).items():
        replaced.setdefault(old, new)
    if replaced and today is not None:
        from ..facts.supersession import in_effect

        newer = rows | store.rows([new for new in set(replaced.values()) if new not in rows])
        replaced = in_effect(replaced, {cid: row.get("t_start") for cid, row in newer.items()}, today)
    for old, new in stale_core(store, rows, replaced).items():
        replaced.setdefault(old, new)
    replaced.update(changed_minds(rows))
    return replaced


def stale_core(store: Store, rows: dict[int, ChunkRow], replaced: dict[int, int]) -> dict[int, int]:
    """{a MEMORY.md entry among the candidates: the newer fact that makes it stale} (facts.stale).

    "Jonas Weber: backend freelancer, lives in Hamburg." in MEMORY.md says what the superseded
    "Lives in Hamburg-Altona" said; for a question about now it ranks below "Moved to Leipzig" the
    same way (reflect proposes the replacement line; doctor reports it)."""
    core = [cid for cid, row in rows.items() if row.get("role") == "core"]
    pairs = [(old, new) for old, new in replaced.items() if rows[old]["kind"] == "world" and rows[old]["entity_keys"]]
    if not core or not pairs:
        return {}
    from ..facts.entities import mentioned  # lazy: only a present-state question with core candidates

    newer = store.rows([new for _, new in pairs if new not in rows]) | rows
    by_entity: dict[str, list[tuple[str, str, int]]] = {}
    for old, new in pairs:
        if new in newer and newer[new].get("fact_content"):
            by_entity.setdefault(rows[old]["entity_keys"][0], []).append(
                (rows[old]["fact_content"] or rows[old]["text"], newer[new]["fact_content"], new))
    entities = [e for e in store.entities() if e.key in by_entity]
    out: dict[int, int] = {}
    for cid in core:
        for key in mentioned(entities, rows[cid]["text"]):
            newer_id = _stale_by(rows[cid]["text"], by_entity[key], next(e for e in entities if e.key == key))
            if newer_id is not None:
                out[cid] = newer_id
                break
    return out


def _stale_by(text: str, chain: list[tuple[str, str, int]], entity) -> int | None:  # EntityInfo
    """The id of the newer fact that makes a clause of `text` stale (facts.stale), or None."""
    from ..facts.entities import mentioned
    from ..facts.model import strip_entity_prefix
    from ..facts.stale import replace_stale

    names = entity.names()
    found = replace_stale(text, [(old, new) for old, new, _ in chain],
                          lambda i: strip_entity_prefix(chain[i][1], names), lambda label: bool(mentioned([entity], label)))
    return None if found is None else chain[found[1]][2]


def _asked_patterns(codes: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    """Each attribute's question words in the languages `codes` (all with data when empty;
    lang/stance ASKED), compiled once per set of languages."""
    if codes not in _ASKED:
        from .. import lang

        sources: dict[str, list[str]] = {}
        for code in codes or lang.available("stance"):
            for attribute, patterns in getattr(lang.table("stance", code), "ASKED", {}).items():
                sources.setdefault(attribute, []).extend(patterns)
        _ASKED[codes] = {a: re.compile("|".join(f"(?:{p})" for p in ps), re.I) for a, ps in sources.items()}
    return _ASKED[codes]


_ASKED: dict[tuple[str, ...], dict[str, re.Pattern[str]]] = {}


def asked_attributes(question: str) -> tuple[str, ...]:
    """The attributes a question asks about ("where does Peter live": residence; "Wo arbeitet Sam?":
    employer), read in the question's languages (facts.supersession.languages_of)."""
    from ..facts.supersession import languages_of  # lazy: only a question about now

    return tuple(a for a, pattern in _asked_patterns(languages_of(question)).items() if pattern.search(question))


def slot_replaced(rows: dict[int, ChunkRow], question: str) -> dict[int, int]:
    """{older world fact: the newest candidate about the same entity that states the attribute asked about}.

    The store's rule supersedes a fact only when every attribute it states is stated again, so
    "Lives in Vienna and works remotely for Acme" stands beside a newer "Moved to London" (the
    employer still holds). A question that asks where Peter lives asks about the residence only:
    for it, the newer residence replaces the older one. The question's words are read with each
    language's table (lang/stance ASKED), so "Wo wohnt Jonas?" and "Jonas住在哪里？" ask it too.
    """
    asked = asked_attributes(question)
    if not asked:
        return {}
    from ..facts.supersession import slots  # lazy: only questions about an attribute

    by_entity: dict[str, list[tuple[tuple, int, tuple[str, ...]]]] = {}
    for cid, row in rows.items():
        if row["kind"] == "world" and row.get("entity_keys") and row.get("fact_content"):
            stated = tuple(s for s in slots(row["fact_content"]) if s in asked)
            if stated:
                order = (row.get("day") or "", row["path"], row["start_line"])
                by_entity.setdefault(row["entity_keys"][0], []).append((order, cid, stated))
    out: dict[int, int] = {}
    for group in by_entity.values():
        group.sort()
        for i, (_, old_id, stated) in enumerate(group):
            newer = [new_id for _, new_id, theirs in group[i + 1:] if set(stated) & set(theirs)]
            if newer:
                out[old_id] = newer[-1]
    return out


def why_replaced(old: ChunkRow, new: ChunkRow) -> str:
    """What made `new` replace `old`, for --explain: the attribute and the words of each (facts.supersession),
    or the opinion's changed stance (facts.stance)."""
    if old["kind"] == "opinion":
        from ..facts.stance import stance

        return "changed mind: " + stance(old.get("fact_content") or old["text"], new.get("fact_content") or new["text"],
                                         tuple(old.get("entity_names") or ())).describe()
    from ..facts.supersession import why

    return why(old.get("fact_content") or old["text"], new.get("fact_content") or new["text"])


def changed_minds(rows: dict[int, ChunkRow]) -> dict[int, int]:
    """{older opinion: the newest later opinion about the same entity that contradicts it}.

    "What does Sam think of Rust now?": "Rust is overhyped" (Nov 17) and "Rust is a good fit for
    backend services" (Nov 22) are both Sam's opinions on Rust, and facts.stance reads the second
    as a contradiction of the first (the rule reflect uses to supersede an opinion), so the first
    ranks below it. Only the candidates are compared: a handful of opinions, not the workspace.
    """
    by_entity: dict[str, list[tuple[tuple, int, ChunkRow]]] = {}
    for cid, row in rows.items():
        if row["kind"] == "opinion" and row.get("entity_keys") and row.get("fact_content"):
            order = (row.get("day") or "", row["path"], row["start_line"])
            by_entity.setdefault(row["entity_keys"][0], []).append((order, cid, row))
    groups = [sorted(group) for group in by_entity.values() if len(group) > 1]
    if not groups:
        return {}
    from ..facts.stance import stance  # lazy: most recalls hold no two opinions of one entity

    out: dict[int, int] = {}
    for group in groups:
        for i, (_, old_id, old) in enumerate(group):
            names = tuple(old.get("entity_names") or ())
            for _, new_id, new in reversed(group[i + 1:]):
                if stance(old["fact_content"], new["fact_content"], names).label == "contradiction":
                    out[old_id] = new_id
                    break
    return out
