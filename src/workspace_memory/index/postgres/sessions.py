"""Session transcripts in the Postgres store, and purging text from them (`memory forget --purge`).

Session entries are chunks with role and kind 'session' and path 'sessions/<file name>', with ids
from the workspace's counter like any entry, so recall, filters and vectors need nothing of their
own. Their words are counted in `session_lexemes` and the workspace's session counters, apart from
the Markdown's, as SQLite keeps them in `sessions_fts`: a recall of one source ranks with that
source's counts, and the same scores come out of both stores. `session_files` remembers how far
each transcript was read. Deltas are applied by index.sessions.apply_sessions through the
IndexWriter (index.postgres.writer), as on every store; what is left here is the purge's rewrite.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rows import context_text, path_words, text_hash
from .writer import WORD_TABLES, chunk_words, count_words

if TYPE_CHECKING:
    from .connection import Database

WORDS = WORD_TABLES[1]  # session_lexemes


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
