"""Session transcripts in the Postgres store: each transcript's read state, and applying the deltas
that index.sessions reads (the same steps as index.sqlite.sessions).

Session entries are chunks with role and kind 'session' and path 'sessions/<file name>', with ids
from the workspace's counter like any entry, so recall, filters and vectors need nothing of their
own. Their words are counted in `session_lexemes` and the workspace's session counters, apart from
the Markdown's, as SQLite keeps them in `sessions_fts`: a recall of one source ranks with that
source's counts, and the same scores come out of both stores. `session_files` remembers how far
each transcript was read. Deltas are read and applied under the workspace's indexer lock, one
transcript per transaction, so readers see a transcript's new messages all at once.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..records import ReadDeltas, SessionReport, SessionState
from ..rows import context_text, path_words, text_hash
from ..sessions import apply_delta
from .sync import (
    CHUNK_COLUMNS,
    WORD_TABLES,
    chunk_row,
    chunk_words,
    copy_rows,
    count_words,
    delete_paths,
    next_ids,
    recount,
)

if TYPE_CHECKING:
    from .connection import Database

WORDS = WORD_TABLES[1]  # session_lexemes
# SessionState field -> session_files column, where they differ ("offset" is a reserved word).
_COLUMNS = {"key": "path", "offset": "read_to", "digest": "head"}


def session_states(db: Database, ws_id: int) -> dict[str, SessionState]:
    """Every transcript's stored read state, by key."""
    cols = ", ".join(_COLUMNS.get(f.name, f.name) for f in fields(SessionState))
    return {row[0]: SessionState(*row) for row in db.conn.execute(
        f"SELECT {cols} FROM session_files WHERE workspace_id = %s", (ws_id,))}


def apply_sessions(db: Database, ws_id: int, read: ReadDeltas, *, wait: float | None) -> SessionReport:
    """Take the workspace's indexer lock, read the deltas from the stored states and apply them."""
    report = SessionReport()
    with db.index_lock(ws_id, wait) as held:
        if not held:
            report.busy = True
            return report
        for delta in read(session_states(db, ws_id)):
            if delta.pending:
                report.pending += 1
                continue
            with db.transaction():
                apply_delta(_Writer(db, ws_id), delta, report)
        if report.dirty:
            with db.transaction():
                recount(db, ws_id)
    return report


class _Writer:
    """index.sessions.SessionWriter over one workspace of the Postgres store."""

    def __init__(self, db: Database, ws_id: int) -> None:
        self.conn, self.db, self.ws_id = db.conn, db, ws_id

    def forget(self, key: str) -> list[int]:
        removed = delete_paths(self.db, self.ws_id, [key], words=WORDS)
        self.conn.execute("DELETE FROM session_files WHERE workspace_id = %s AND path = %s", (self.ws_id, key))
        return removed

    def read_to(self, key: str) -> int:
        row = self.conn.execute("SELECT read_to FROM session_files WHERE workspace_id = %s AND path = %s",
                                (self.ws_id, key)).fetchone()
        return row[0] if row else 0

    def last_entry(self, key: str) -> tuple[int, str] | None:
        return self.conn.execute("SELECT id, text FROM chunks WHERE workspace_id = %s AND path = %s"
                                 " ORDER BY id DESC LIMIT 1", (self.ws_id, key)).fetchone()

    def next_id(self) -> int:
        return self.conn.execute("SELECT (%s::bigint << 32) + next_chunk_id FROM workspaces WHERE workspace_id = %s",
                                 (self.ws_id, self.ws_id)).fetchone()[0]

    def insert(self, rows: list[dict]) -> list[int]:
        first = next_ids(self.conn, self.ws_id, len(rows))
        copy_rows(self.conn, "chunks", CHUNK_COLUMNS,
                  [chunk_row(self.ws_id, first + i, row) for i, row in enumerate(rows)])
        count_words(self.conn, self.ws_id, first, first + len(rows), +1, WORDS)
        return list(range(first, first + len(rows)))

    def save(self, state: SessionState) -> None:
        values = {_COLUMNS.get(k, k): v for k, v in asdict(state).items()} | {"indexed_at": datetime.now(UTC)}
        cols = ", ".join(values)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in values if c != "path")
        self.conn.execute(f"INSERT INTO session_files (workspace_id, {cols})"
                          f" VALUES (%s, {', '.join(['%s'] * len(values))})"
                          f" ON CONFLICT (workspace_id, path) DO UPDATE SET {updates}", (self.ws_id, *values.values()))


# ------------------------------------------------------------------------------------------ purge


def count_hits(db: Database, ws_id: int, pattern: str) -> int:
    """How many session entries hold `pattern` (what a purge would rewrite)."""
    return db.conn.execute("SELECT count(*) FROM chunks WHERE workspace_id = %s AND role = 'session'"
                           " AND strpos(text, %s) > 0", (ws_id, pattern)).fetchone()[0]


def rewrite(db: Database, ws_id: int, pattern: str, replacement: str) -> int:
    """Replace `pattern` in the session entries that hold it, and in the next entry's context (its
    words and the hash of its context text), as index.sqlite.purge does; their stored vectors go
    (made again from the new texts). Returns the entries rewritten. Inside the caller's transaction."""
    conn = db.conn
    hits = conn.execute("SELECT id, text FROM chunks WHERE workspace_id = %s AND role = 'session'"
                        " AND strpos(text, %s) > 0", (ws_id, pattern)).fetchall()
    if not hits:
        return 0
    near = sorted({i for cid, _ in hits for i in (cid, cid + 1)})  # each entry after a hit has it as context
    touched = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE workspace_id = %s AND id = ANY(%s)"
                                          " AND role = 'session' ORDER BY id", (ws_id, near))]
    for cid in touched:  # their words leave the counts here, and come back as they are rewritten below
        count_words(conn, ws_id, cid, cid + 1, -1, WORDS)
    for cid, text in hits:
        new = text.replace(pattern, replacement)
        conn.execute("UPDATE chunks SET text = %s, text_hash = %s WHERE workspace_id = %s AND id = %s",
                     (new, text_hash(new), ws_id, cid))
    for cid in touched:
        _refresh_words(db, ws_id, cid)
        count_words(conn, ws_id, cid, cid + 1, +1, WORDS)
    conn.execute("DELETE FROM chunk_vectors WHERE workspace_id = %s AND chunk_id = ANY(%s)", (ws_id, touched))
    return len(hits)


def _refresh_words(db: Database, ws_id: int, cid: int) -> None:
    """One session entry's words and context hash, from the texts now in `chunks`."""
    row = db.conn.execute(
        "SELECT c.text, c.path, c.ctx_hash, p.text FROM chunks c LEFT JOIN chunks p ON p.workspace_id = c.workspace_id"
        " AND p.id = c.id - 1 AND p.path = c.path WHERE c.workspace_id = %s AND c.id = %s AND c.role = 'session'",
        (ws_id, cid)).fetchone()
    if row is None:
        return
    text, path, ctx_hash, previous = row
    context = previous if ctx_hash and previous is not None else ""
    words, n_tokens = chunk_words({"search_text": text, "path_text": path_words(path), "context_text": context})
    db.conn.execute("UPDATE chunks SET words = %s, n_tokens = %s, ctx_hash = %s WHERE workspace_id = %s AND id = %s",
                    (words, n_tokens, text_hash(context_text(context, text)) if context else ctx_hash, ws_id, cid))
