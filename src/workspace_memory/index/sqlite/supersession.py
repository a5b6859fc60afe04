"""Which world facts a newer one replaced, computed when the index changes (facts.superseded_by).

The rule is reflect.supersede's (pure, shared with entity pages and bank/world.md). Running
it at query time meant reading every world fact of every entity in the candidates, which at
100,000 chunks cost more than the rest of a recall; a sync recomputes it only for the
entities whose facts changed.
"""

from __future__ import annotations

import sqlite3
from datetime import date

from ..rows import key_scope


def update_superseded(conn: sqlite3.Connection, keys: set[str] | None = None) -> None:
    """Recompute facts.superseded_by for world facts whose primary entity is in `keys` (None: all)."""
    from ...facts.model import Fact
    from ...facts.supersession import superseded_ids

    if keys is not None and not keys:
        return
    scope, params = key_scope(keys, "f.id IN (SELECT chunk_id FROM mentions WHERE entity_key IN ({}))")
    facts: dict[int, list] = {}
    for fid, path, line, content, confidence, day, key in conn.execute(
        "SELECT f.id, f.path, f.line, f.content, f.confidence, f.day, m.entity_key FROM facts f"
        f" JOIN mentions m ON m.chunk_id = f.id WHERE f.kind = 'world'{scope} ORDER BY f.id, m.rowid",
        params,
    ):
        facts.setdefault(fid, [path, line, content, confidence, day, []])[5].append(key)
    built = [
        Fact(fid, path, line, "world", content, confidence, date.fromisoformat(day) if day else None, tuple(ents))
        for fid, (path, line, content, confidence, day, ents) in facts.items()
    ]
    # A fact takes part only through its primary (first) entity; facts of other entities
    # pulled in by a secondary mention are judged with their own group's full set later.
    if keys is not None:
        built = [f for f in built if f.entities and f.entities[0] in keys]
    replaced = superseded_ids(built)
    ids = [f.id for f in built]
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        conn.execute(f"UPDATE facts SET superseded_by = NULL WHERE id IN ({','.join('?' * len(part))})", part)
    conn.executemany("UPDATE facts SET superseded_by = ? WHERE id = ?", [(new, old) for old, new in replaced.items()])
