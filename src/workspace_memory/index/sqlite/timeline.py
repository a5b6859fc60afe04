"""Days at a glance: per written day, its files, note entries and facts by kind (the UI's timeline).

A day is the day a daily log is about (memory/2025-11-27.md, memory/2025-11-27-standup.md);
evergreen files (MEMORY.md, bank pages, undated notes) belong to no day.
"""

from __future__ import annotations

import sqlite3
from typing import Any


def day_counts(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """One dict per day with a daily log, oldest first: day, files, notes, facts, facts_by_kind."""
    days: dict[str, dict[str, Any]] = {}
    for day, path in conn.execute("SELECT day, path FROM files WHERE day IS NOT NULL ORDER BY day, path"):
        days.setdefault(day, {"day": day, "files": [], "notes": 0, "facts": 0, "facts_by_kind": {}})
        days[day]["files"].append(path)
    for day, count in conn.execute(
        "SELECT day, COUNT(*) FROM chunks WHERE day IS NOT NULL AND kind = 'note' GROUP BY day"
    ):
        if day in days:
            days[day]["notes"] = count
    for day, kind, count in conn.execute(
        "SELECT day, kind, COUNT(*) FROM facts WHERE day IS NOT NULL GROUP BY day, kind ORDER BY day, kind"
    ):
        if day in days:
            days[day]["facts"] += count
            days[day]["facts_by_kind"][kind] = count
    return [days[day] for day in sorted(days)]
