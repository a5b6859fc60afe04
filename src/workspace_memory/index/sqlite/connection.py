"""Opening the index: WAL, busy timeouts and one writer at a time.

Readers never wait for writers (WAL). Writers take an exclusive `flock` on
`.memory/index.lock` before writing, so two `memory index` processes (or an index and
a recall that found a changed file) take turns instead of failing with "database is
locked"; a recall that cannot get the lock at once reads the index as it is.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from ...errors import IndexBusy
from ..base import INDEX_WAIT
from .schema import MIGRATIONS, SCHEMA_VERSION, current_version

BUSY_TIMEOUT_MS = 30_000
PAGE_SIZE = 8192  # bytes, for a new index file
# What SQLite says when the file itself is damaged (as opposed to busy, full or read-only).
_CORRUPTION_MARKERS = ("not a database", "malformed", "corrupt", "disk image")
CORRUPT_DIR = "corrupt"  # under .memory/: the last damaged index, kept for a post-mortem


class IndexConnection(sqlite3.Connection):
    """A sqlite3 connection that can carry per-connection caches (e.g. recall's term counts)."""


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) the index database with WAL and a generous busy timeout."""
    if not path.parent.is_dir():  # a new index: its folder (a recall of an existing one imports nothing more)
        from ...files import ensure_state_dir

        ensure_state_dir(path.parent)
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False, factory=IndexConnection)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        # A new index (page size is fixed once the first table exists): 8 KiB pages hold three
        # 2 KB vectors of the embedding cache where 4 KiB pages hold one (docs/benchmarks.md,
        # "Size of .memory/"). An existing index keeps its pages.
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = OFF")
    return conn


@contextlib.contextmanager
def writer_lock(state_dir: Path, *, wait: float | None = INDEX_WAIT) -> Iterator[bool]:
    """Hold the single-writer lock. Yields True when held, False when `wait=0` and it is busy.

    `wait=None` waits forever; otherwise IndexBusy is raised after `wait` seconds.
    """
    from ...files import ensure_state_dir  # lazy: a recall whose files are unchanged takes no lock
    from ...locks import file_lock

    ensure_state_dir(state_dir)
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


def is_corruption(exc: BaseException) -> bool:
    """True when `exc` says the index file is damaged (garbage, truncated, malformed pages)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    message = str(exc).lower()
    return any(marker in message for marker in _CORRUPTION_MARKERS)


def quarantine(index_path: Path) -> Path:
    """Move a damaged index (and its -wal/-shm files) aside to `.memory/corrupt/`; return where.

    Only the latest damaged copy is kept: the index is derived data, and a disk filling up
    with copies of it would be a second failure.
    """
    folder = index_path.parent / CORRUPT_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        with contextlib.suppress(OSError):
            old.unlink()
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = folder / f"{index_path.stem}-{stamp}{index_path.suffix}"
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{index_path}{suffix}")
        if source.exists():
            with contextlib.suppress(OSError):
                os.replace(source, f"{target}{suffix}")
    return target


def open_index(path: Path, state_dir: Path) -> tuple[sqlite3.Connection, list[str]]:
    """Connect and migrate; a damaged file is moved aside and a new, empty index created.

    Returns the connection and notices (what was repaired). The caller's next sync refills
    the new index from Markdown.
    """
    damaged = file_id(path)
    conn = None
    try:
        conn = connect(path)
        ensure_schema(conn, state_dir)
        conn.execute("SELECT COUNT(*) FROM meta").fetchone()
        return conn, []
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise
        if conn is not None:
            conn.close()
        return recreate_index(path, state_dir, str(exc), damaged)


def recreate_index(path: Path, state_dir: Path, reason: str,
                   damaged: tuple[int, int] | None) -> tuple[sqlite3.Connection, list[str]]:
    """Move the damaged index aside under the writer lock and open a new one (see open_index).

    `damaged` identifies the file found damaged (device, inode): when another process has
    already replaced it by the time we hold the lock, its new index is used as it is.
    """
    with writer_lock(state_dir):
        if damaged is not None and file_id(path) not in (damaged, None):
            return connect(path), []
        moved = quarantine(path)
        conn = connect(path)
        migrate(conn)
    where = moved.relative_to(state_dir.parent) if moved.is_relative_to(state_dir.parent) else moved
    return conn, [f"the index was damaged ({reason}); moved it to {where} and rebuilt it from Markdown"]


def file_id(path: Path) -> tuple[int, int] | None:
    """(device, inode) of a file, or None when it does not exist: tells a replaced file from the old one."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration the database has not seen yet; return the new version."""
    version = current_version(conn)
    for number, migration in enumerate(MIGRATIONS[version:], start=version + 1):
        with transaction(conn):
            migration(conn)
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)", (str(number),)
            )
    return SCHEMA_VERSION
