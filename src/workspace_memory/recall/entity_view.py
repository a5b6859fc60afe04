"""`memory entity NAME`: everything memory holds about one entity ("tell me about X").

The entity's page (bank/entities/<Slug>.md) when there is one, then its facts newest
first (superseded ones marked), then its opinions with confidence, each with its source.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..errors import UserError
from ..facts.entities import resolve_entity
from .pack import source_ref
from .supersession import superseded_among

MAX_FACTS = 200


def entity_report(conn: sqlite3.Connection, name: str) -> dict[str, Any]:
    """Build the report; `page` is the page's path (the caller, which owns I/O, reads it)."""
    key = resolve_entity(conn, name)
    if key is None:
        raise UserError(f"no entity called {name!r} (known entities: `memory status --json`)")
    slug, display, page, aliases, count = conn.execute(
        "SELECT slug, name, page_path, aliases, fact_count FROM entities WHERE key = ?", (key,)
    ).fetchone()
    facts = []
    for fid, path, line, kind, content, confidence, day, start, end in conn.execute(
        "SELECT f.id, f.path, f.line, f.kind, f.content, f.confidence, f.day, f.occurred_start, f.occurred_end"
        " FROM facts f JOIN mentions m ON m.chunk_id = f.id WHERE m.entity_key = ?"
        " ORDER BY f.day IS NULL, f.day DESC, f.path DESC, f.line DESC LIMIT ?",
        (key, MAX_FACTS),
    ):
        facts.append({
            "id": fid, "kind": kind, "content": content, "timestamp": day, "confidence": confidence,
            "occurred": [start, end] if start or end else None,
            "source": source_ref(path, line, line), "path": path, "line": line,
        })
    rows = {f["id"]: {"kind": f["kind"], "entity_keys": [key]} for f in facts}
    replaced = superseded_among(conn, rows)
    by_id = {f["id"]: f for f in facts}
    for fact in facts:
        if fact["id"] in replaced:
            newer = by_id.get(replaced[fact["id"]])
            fact["superseded_by"] = newer["source"] if newer else replaced[fact["id"]]
    import json

    return {
        "entity": display, "slug": slug, "aliases": json.loads(aliases or "[]"), "fact_count": count,
        "page": page,
        "facts": [f for f in facts if f["kind"] != "opinion"],
        "opinions": [f for f in facts if f["kind"] == "opinion"],
    }
