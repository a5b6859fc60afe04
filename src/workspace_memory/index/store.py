"""Opening the index: WAL, busy timeouts and one writer at a time.

Readers never wait for writers (WAL). Writers take an exclusive `flock` on
`.memory/index.lock` before writing, so two `memory index` processes (or an index and
a recall that found a changed file) take turns instead of failing with "database is
locked"; a recall that cannot get the lock at once reads the index as it is.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from ..errors import IndexBusy
from ..locks import file_lock
from .schema import SCHEMA_VERSION, current_version, migrate

BUSY_TIMEOUT_MS = 30_000


class IndexConnection(sqlite3.Connection):
    """A sqlite3 connection that can carry per-connection caches (e.g. recall's term counts)."""


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) the index database with WAL and a generous busy timeout."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False, factory=IndexConnection)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = OFF")
    return conn


@contextlib.contextmanager
def writer_lock(state_dir: Path, *, wait: float | None = 60.0) -> Iterator[bool]:
    """Hold the single-writer lock. Yields True when held, False when `wait=0` and it is busy.

    `wait=None` waits forever; otherwise IndexBusy is raised after `wait` seconds.
    """
    with file_lock(state_dir / "index.lock", wait) as held:
        if not held and wait != 0:
            raise IndexBusy(f"another process has been writing the index for over {wait:.0f}s")
        yield held


def ensure_schema(conn: sqlite3.Connection, state_dir: Path) -> None:
    """Create or upgrade the schema (under the writer lock, so concurrent first runs agree)."""
    if current_version(conn) == SCHEMA_VERSION:
        return
    with writer_lock(state_dir):
        migrate(conn)


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error).

    Connections run in autocommit mode (isolation_level=None), where `with conn:` would
    commit every statement on its own; this makes a file's rows appear all at once.
    """
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextlib.contextmanager
def snapshot(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN DEFERRED ... COMMIT: every read inside sees the index as of its first read.

    In autocommit mode each statement sees the latest commit; a recall runs a dozen
    statements, and a sync committing between two of them would hand it chunk ids that
    the next statement no longer finds. (Writes to temp tables are allowed inside.)
    """
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")
