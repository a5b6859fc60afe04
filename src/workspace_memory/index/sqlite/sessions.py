"""Session transcripts in the SQLite index: the stored read state, and applying deltas (index.sessions).

Session entries are ordinary chunks (role and kind 'session', path 'sessions/<file name>'), so
FTS5, vectors, filters and recall need nothing of their own; `session_files` remembers how far
each transcript was read. Deltas are read and applied under the writer lock, one transcript per
transaction, so readers see a transcript's new messages all at once and never wait.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import asdict, fields
from datetime import UTC, datetime
from pathlib import Path

from ..records import ReadDeltas, SessionReport, SessionState
from ..sessions import apply_delta
from .connection import transaction, writer_lock
from .sync import bump_generation, delete_paths, insert_chunks

_COLUMNS = {"key": "path", "digest": "head"}  # SessionState field -> session_files column, where they differ


def session_states(conn: sqlite3.Connection) -> dict[str, SessionState]:
    """Every transcript's stored read state, by key."""
    names = [f.name for f in fields(SessionState)]
    cols = ", ".join(_COLUMNS.get(n, n) for n in names)
    return {row[0]: SessionState(*row) for row in conn.execute(f"SELECT {cols} FROM session_files")}


def apply_sessions(conn: sqlite3.Connection, state_dir: Path, read: ReadDeltas, *,
                   wait: float | None) -> SessionReport:
    """Take the writer lock, read the deltas from the stored states and apply them (see module docstring)."""
    report = SessionReport()
    with writer_lock(state_dir, wait=wait) as held:
        if not held:
            report.busy = True
            return report
        for delta in read(session_states(conn)):
            if delta.pending:
                report.pending += 1
                continue
            with transaction(conn):
                apply_delta(_Writer(conn), delta, report)
        if report.dirty:
            bump_generation(conn)
    return report


class _Writer:
    """index.sessions.SessionWriter over the SQLite index."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def forget(self, key: str) -> list[int]:
        removed = delete_paths(self.conn, [key])
        self.conn.execute("DELETE FROM session_files WHERE path = ?", (key,))
        return removed

    def read_to(self, key: str) -> int:
        row = self.conn.execute("SELECT offset FROM session_files WHERE path = ?", (key,)).fetchone()
        return row[0] if row else 0

    def last_entry(self, key: str) -> tuple[int, str] | None:
        return self.conn.execute("SELECT id, text FROM chunks WHERE path = ? ORDER BY id DESC LIMIT 1",
                                 (key,)).fetchone()

    def next_id(self) -> int:
        return self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM chunks").fetchone()[0]

    def insert(self, rows: list[dict]) -> list[int]:
        return insert_chunks(self.conn, [(row, None, ()) for row in rows])

    def save(self, state: SessionState) -> None:
        values = asdict(state)
        cols = [_COLUMNS.get(k, k) for k in values]
        self.conn.execute(f"INSERT OR REPLACE INTO session_files({', '.join(cols)}, indexed_at) VALUES "
                          f"({', '.join('?' * len(cols))}, ?)",
                          (*values.values(), datetime.now(UTC).isoformat(timespec="seconds")))


def session_totals(conn: sqlite3.Connection) -> Mapping[str, int] | None:
    """Transcripts, messages, skipped lines and entries, for `memory status` (None without sessions)."""
    files, messages, other, malformed = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(messages), 0), COALESCE(SUM(other), 0), COALESCE(SUM(malformed), 0)"
        " FROM session_files").fetchone()
    if not files:
        return None
    entries = conn.execute("SELECT COUNT(*) FROM chunks WHERE role = 'session'").fetchone()[0]
    return {"files": files, "messages": messages, "other": other, "malformed": malformed, "entries": entries}
