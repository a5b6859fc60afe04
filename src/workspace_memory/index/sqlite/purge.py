"""Purging text from the SQLite store (`memory forget --purge`): no copy of it may survive in `.memory/`.

The caller has already rewritten the Markdown and synced, so Markdown entries hold the new text.
What is left is everything a plain DELETE leaves behind:

1. session entries (their transcripts are not ours to rewrite): the text, its FTS rows, the next
   entry's context column and the hashes of the embedded texts are rewritten in place
   (index.sessions.rewrite_sessions, through the SqliteWriter);
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

from ..sessions import rewrite_sessions
from . import journal
from .connection import CORRUPT_DIR, transaction, writer_lock
from .writer import SqliteWriter, bump_generation

PURGE_WAIT = 60.0  # seconds to wait for another writer of the index


def purge(conn: sqlite3.Connection, state_dir: Path, pattern: str, replacement: str) -> tuple[int, bool]:
    """Steps 1-5 of the module docstring; returns how many session entries were rewritten, and
    whether the write-ahead log was emptied (not while another process kept reading for the whole
    busy timeout)."""
    with writer_lock(state_dir, wait=PURGE_WAIT):
        conn.execute("PRAGMA secure_delete = ON")
        try:
            with transaction(conn):
                rewritten = rewrite_sessions(SqliteWriter(conn, state_dir), pattern, replacement)
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


def _remove_derived_files(state_dir: Path) -> None:
    """Step 5: the HNSW files and their sidecars, and old damaged copies of the index."""
    for folder in (state_dir / "vectors", state_dir / CORRUPT_DIR):
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
