"""Superseded facts in recall: "lives in Vienna" ranks below a newer "moved to London".

The rule itself (which newer world fact replaces which older one) lives in
reflect.supersede, so recall, entity pages and bank/world.md agree. Here we load the
world facts about the entities of the candidates and ask that rule.

For a present-tense question a superseded fact's relevance is multiplied by
SUPERSEDED_FACTOR; when the question names a time ("where did Peter live in March?")
nothing is demoted, since the old fact may be exactly what was true then.
"""

from __future__ import annotations

import sqlite3
from datetime import date

SUPERSEDED_FACTOR = 0.6


def superseded_among(conn: sqlite3.Connection, rows: dict[int, dict]) -> dict[int, int]:
    """For candidate world facts, {superseded chunk id: id of the fact that replaced it}."""
    from ..reflect.facts import Fact
    from ..reflect.supersede import superseded_ids

    keys = sorted({k for r in rows.values() if r["kind"] == "world" for k in r["entity_keys"][:1]})
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    facts: dict[int, list] = {}
    for fid, path, line, content, confidence, day, key in conn.execute(
        "SELECT f.id, f.path, f.line, f.content, f.confidence, f.day, m.entity_key FROM facts f"
        " JOIN mentions m ON m.chunk_id = f.id"
        f" WHERE f.kind = 'world' AND f.id IN (SELECT chunk_id FROM mentions WHERE entity_key IN ({marks}))"
        " ORDER BY f.id, m.rowid",
        keys,
    ):
        facts.setdefault(fid, [path, line, content, confidence, day, []])[5].append(key)
    built = [
        Fact(fid, path, line, "world", content, confidence, date.fromisoformat(day) if day else None, tuple(ents))
        for fid, (path, line, content, confidence, day, ents) in facts.items()
    ]
    replaced = superseded_ids(built)
    return {cid: replaced[cid] for cid in rows if cid in replaced}
