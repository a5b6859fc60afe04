"""Which world facts a newer one replaced, computed when the index changes (facts.superseded_by).

The rule is facts.supersession's (pure, shared with entity pages and bank/world.md). Running
it at query time meant reading every world fact of every entity in the candidates, which at
100,000 chunks cost more than the rest of a recall; a sync recomputes it only for the
entities whose facts changed.
"""

from __future__ import annotations

import sqlite3

from ..base import in_batches
from ..rows import key_scope
from ..sync_plan import superseded_changes


def update_superseded(conn: sqlite3.Connection, keys: set[str] | None = None) -> None:
    """Recompute facts.superseded_by for world facts whose primary entity is in `keys` (None: all)."""
    if keys is not None and not keys:
        return
    scope, params = key_scope(keys, "f.id IN (SELECT chunk_id FROM mentions WHERE entity_key IN ({}))")
    rows = conn.execute(
        "SELECT f.id, f.path, f.line, f.content, f.confidence, f.day, m.entity_key FROM facts f"
        f" JOIN mentions m ON m.chunk_id = f.id WHERE f.kind = 'world'{scope} ORDER BY f.id, m.rowid",
        params,
    ).fetchall()
    judged, replaced = superseded_changes(rows, keys)
    for part in in_batches(judged):
        conn.execute(f"UPDATE facts SET superseded_by = NULL WHERE id IN ({','.join('?' * len(part))})", part)
    conn.executemany("UPDATE facts SET superseded_by = ? WHERE id = ?", [(new, old) for old, new in replaced.items()])
