"""Purging text from the SQLite store (`memory forget --purge`): no copy of it may survive in `.memory/`.

The caller has already rewritten the Markdown and synced, so Markdown entries hold the new text.
What is left is everything a plain DELETE leaves behind:

1. session entries (their transcripts are not ours to rewrite): the text, its FTS rows, the next
   entry's context column and the hashes of the embedded texts are rewritten in place;
2. cached vectors of texts no entry uses any more (the old entries' vectors);
3. FTS5 keeps deleted terms in old segments until they merge: 'optimize' merges them all;
4. SQLite keeps deleted bytes in free pages, and the write-ahead log keeps old page images:
   `secure_delete` zeroes what is freed, VACUUM rewrites the file, a TRUNCATE checkpoint empties
   the log;
5. the HNSW files (hnswlib keeps a deleted vector's bytes in the file) are deleted, with their
   `vectors:*` marks, so the next search rebuilds them from SQLite; a damaged index kept for a
   post-mortem in `.memory/corrupt/` is deleted too.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from ..rows import context_text, text_hash
from . import journal
from .connection import CORRUPT_DIR, transaction, writer_lock
from .writer import bump_generation

PURGE_WAIT = 60.0  # seconds to wait for another writer of the index


def purge(conn: sqlite3.Connection, state_dir: Path, pattern: str, replacement: str) -> tuple[int, bool]:
    """Steps 1-5 of the module docstring; returns how many session entries were rewritten, and
    whether the write-ahead log was emptied (not while another process kept reading for the whole
    busy timeout)."""
    with writer_lock(state_dir, wait=PURGE_WAIT):
        conn.execute("PRAGMA secure_delete = ON")
        try:
            with transaction(conn):
                rewritten = _rewrite_sessions(conn, pattern, replacement)
                journal.reset(conn)  # it holds copies of deleted rows: the purged text among them
                conn.execute("DELETE FROM embedding_cache WHERE hash NOT IN (SELECT text_hash FROM chunks"
                             " WHERE text_hash IS NOT NULL UNION SELECT ctx_hash FROM chunks WHERE ctx_hash IS NOT NULL)")
                conn.execute("DELETE FROM meta WHERE key LIKE 'vectors:%'")
                for table in ("chunks_fts", "sessions_fts", "chunks_trigram"):
                    conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
                if rewritten:
                    bump_generation(conn)
            _remove_derived_files(state_dir)
            conn.execute("VACUUM")
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        finally:
            conn.execute("PRAGMA secure_delete = OFF")
    return rewritten, not busy


def count_session_hits(conn: sqlite3.Connection, pattern: str) -> int:
    """How many session entries hold `pattern` (what a purge would rewrite)."""
    return conn.execute("SELECT COUNT(*) FROM chunks WHERE role = 'session' AND instr(text, ?) > 0",
                        (pattern,)).fetchone()[0]


def _rewrite_sessions(conn: sqlite3.Connection, pattern: str, replacement: str) -> int:
    """Step 1: new text in the session entries that hold `pattern`, and in their neighbours' context."""
    hits = conn.execute("SELECT id, text FROM chunks WHERE role = 'session' AND instr(text, ?) > 0",
                        (pattern,)).fetchall()
    for cid, text in hits:
        new = text.replace(pattern, replacement)
        conn.execute("UPDATE chunks SET text = ?, text_hash = ? WHERE id = ?", (new, text_hash(new), cid))
    # Each entry after a rewritten one has it as context; each rewritten entry has a new text.
    for entry in sorted({i for hit, _ in hits for i in (hit, hit + 1)}):
        _refresh_search_rows(conn, entry)
    return len(hits)


def _refresh_search_rows(conn: sqlite3.Connection, cid: int) -> None:
    """Rewrite one session entry's FTS rows and context hash from the texts now in `chunks`."""
    row = conn.execute(
        "SELECT c.text, c.path, c.ctx_hash, p.text FROM chunks c LEFT JOIN chunks p ON p.id = c.id - 1"
        " AND p.path = c.path WHERE c.id = ? AND c.role = 'session'", (cid,)).fetchone()
    if row is None:
        return
    text, path, ctx_hash, previous = row
    context = previous if ctx_hash and previous is not None else ""
    if context:
        conn.execute("UPDATE chunks SET ctx_hash = ? WHERE id = ?", (text_hash(context_text(context, text)), cid))
    path_text = conn.execute("SELECT path_text FROM sessions_fts WHERE rowid = ?", (cid,)).fetchone()
    conn.execute("DELETE FROM sessions_fts WHERE rowid = ?", (cid,))
    conn.execute("INSERT INTO sessions_fts(rowid, search_text, path_text, context_text) VALUES (?, ?, ?, ?)",
                 (cid, text, path_text[0] if path_text else path, context))
    if conn.execute("DELETE FROM chunks_trigram WHERE rowid = ?", (cid,)).rowcount:
        conn.execute("INSERT INTO chunks_trigram(rowid, text) VALUES (?, ?)", (cid, text))


def _remove_derived_files(state_dir: Path) -> None:
    """Step 5: the HNSW files and their sidecars, and old damaged copies of the index."""
    for folder in (state_dir / "vectors", state_dir / CORRUPT_DIR):
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
