"""A recall candidate and the rows it is ranked and packed from."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Candidate:
    chunk_id: int
    relevance: float
    channels: dict[str, float] = field(default_factory=dict)
    factors: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    row: dict[str, Any] = field(default_factory=dict)
    found_by: list[str] = field(default_factory=list)  # the pools it came from, for --explain


def fetch_rows(conn: sqlite3.Connection, ids: list[int]) -> dict[int, dict[str, Any]]:
    marks = ",".join("?" * len(ids))
    """The rows of these chunks, with their fact's content and confidence and their entities."""
    cur = conn.execute(
        "SELECT c.id, c.path, c.start_line, c.end_line, c.kind, c.heading, c.text, c.role, c.day, c.t_start,"
        " c.t_end,"
        " f.content AS fact_content, f.confidence FROM chunks c LEFT JOIN facts f ON f.id = c.id"
        f" WHERE c.id IN ({marks})",
        ids,
    )
    names = [d[0] for d in cur.description]
    rows = {r[0]: dict(zip(names, r, strict=True)) for r in cur}
    for row in rows.values():
        row["entity_keys"], row["entity_names"] = [], []
        if row["path"].startswith("bank/entities/"):
            row["entity_keys"].append(row["path"].rsplit("/", 1)[-1][:-3].lower())  # on the entity's page
    for cid, key, name in conn.execute(
        "SELECT m.chunk_id, m.entity_key, COALESCE(e.name, m.slug) FROM mentions m"
        f" LEFT JOIN entities e ON e.key = m.entity_key WHERE m.chunk_id IN ({marks}) ORDER BY m.rowid",
        ids,
    ):
        rows[cid]["entity_keys"].append(key)
        rows[cid]["entity_names"].append(name)
    return rows
