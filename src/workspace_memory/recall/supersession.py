"""Superseded facts in recall: "lives in Vienna" ranks below a newer "moved to London".

The rule itself (which newer world fact replaces which older one) lives in
reflect.supersede, so recall, entity pages and bank/world.md agree; the index applies
it whenever facts change and keeps the answer in facts.superseded_by.

For a present-tense question a superseded fact's relevance is multiplied by
SUPERSEDED_FACTOR; when the question names a time ("where did Peter live in March?")
nothing is demoted, since the old fact may be exactly what was true then.
"""

from __future__ import annotations

import sqlite3

SUPERSEDED_FACTOR = 0.6


def superseded_among(conn: sqlite3.Connection, rows: dict[int, dict]) -> dict[int, int]:
    """For candidate world facts, {superseded chunk id: id of the fact that replaced it}.

    Read from facts.superseded_by, which the index keeps up to date (index.supersession).
    """
    ids = [cid for cid, row in rows.items() if row["kind"] == "world"]
    out: dict[int, int] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        out.update(conn.execute(
            f"SELECT id, superseded_by FROM facts WHERE superseded_by IS NOT NULL AND id IN ({','.join('?' * len(part))})",
            part,
        ).fetchall())
    return out
