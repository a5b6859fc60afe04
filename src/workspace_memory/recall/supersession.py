"""Superseded facts in recall: "lives in Vienna" ranks below a newer "moved to London", and an
opinion below the newer one that changed it ("Rust is overhyped" below "Rust is a good fit").

The rule itself (which newer world fact replaces which older one) lives in
facts.supersession, so recall, entity pages and bank/world.md agree; the store applies
it whenever facts change and keeps the answer.

For a present-tense question a superseded fact's relevance is multiplied by
SUPERSEDED_FACTOR; when the question names a time ("where did Peter live in March?")
nothing is demoted, since the old fact may be exactly what was true then.
"""

from __future__ import annotations

from ..index.base import ChunkRow, Store

SUPERSEDED_FACTOR = 0.6


def superseded_among(store: Store, rows: dict[int, ChunkRow]) -> dict[int, int]:
    """For candidate world facts and opinions, {superseded chunk id: id of the entry that replaced it}.

    World facts: read from the store, which keeps the answer up to date at every sync
    (facts.supersession's rule). Opinions: a changed mind among the candidates (changed_minds).
    """
    replaced = store.superseded([cid for cid, row in rows.items() if row["kind"] == "world"])
    replaced.update(changed_minds(rows))
    return replaced


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
