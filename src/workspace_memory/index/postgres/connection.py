"""One connection to the store's database: opened lazily, migrated once, reopened after a failure.

psycopg (v3) is imported here and nowhere else in the package's lower layers, so that SQLite
users never load it. Every driver failure that means "the server is not there" (refused,
closed mid-query, shut down, authentication) becomes `StoreUnavailable` with one line that
names the server without credentials: "cannot reach postgresql://db:5432/memory: connection
refused". The broken connection is dropped, so the next call connects again: a long-lived
process (MCP server, web UI) recovers when the server comes back.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from ...errors import IndexBusy, StoreUnavailable
from ..store_config import redact
from .schema import SCHEMA, migrate

if TYPE_CHECKING:
    import psycopg

CONNECT_TIMEOUT = 10  # seconds; a server that does not answer is reported, not waited on forever
# Advisory lock class id (the first of the two int4 keys) of indexers of a workspace (the second
# key is the workspace id); schema.LOCK_SCHEMA is the other, for migrations and new vector spaces.
LOCK_INDEX = 0x574D0001
_T = TypeVar("_T", bound=Callable[..., Any])


def _driver():  # the psycopg module
    try:
        import psycopg
    except ImportError:
        raise StoreUnavailable("the Postgres store needs psycopg: pip install 'workspace-memory[postgres]'") from None
    return psycopg


def reason(exc: BaseException) -> str:
    """The useful part of a libpq message, on one line: 'connection refused', 'server closed the connection ...'."""
    text = " ".join(str(exc).split("\n")[0].split()) or type(exc).__name__
    text = re.sub(r"^connection (?:failed|to server .*? failed):\s*", "", text)
    text = text.split(" failed: ")[-1] if "connection to server" in text else text
    return (text[:1].lower() + text[1:]).rstrip(".")


class Database:
    """The store's connection (autocommit; transactions are explicit) and the guard around its use."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = redact(url)
        self._conn: psycopg.Connection | None = None
        self.migrated = False
        self._pgvector: tuple[int, ...] = ()
        # Each workspace's stored file stats, with the (generation, last sync) they were read at
        # (sync.stale_and_known): a recall would otherwise fetch thousands of rows every time.
        self.file_stats: dict[int, tuple[Any, dict[str, tuple[int, int, str]]]] = {}

    @property
    def conn(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed:
            self._conn = self._connect()
        return self._conn

    def connect_raw(self) -> psycopg.Connection:
        """A new autocommit connection with our search path, not migrated (for health checks)."""
        psycopg = _driver()
        try:
            # No server-side prepared statements: a recall runs each statement once or twice, and
            # preparing costs a round trip that planning the statement again does not.
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT,
                                   application_name="workspace-memory", prepare_threshold=None)
            conn.execute(f"SET search_path TO {SCHEMA}, public")
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot reach {self.where}: {reason(exc)}") from None
        return conn

    def _connect(self) -> psycopg.Connection:
        psycopg = _driver()
        conn = self.connect_raw()
        try:
            if not self.migrated:
                migrate(conn)
                self.migrated = True
            from pgvector.psycopg import register_vector

            register_vector(conn)
            self._pgvector = tuple(int(p) for p in re.findall(r"\d+", conn.execute(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0])[:3])
        except psycopg.Error as exc:
            conn.close()
            if self.is_lost(exc):
                raise StoreUnavailable(f"cannot reach {self.where}: {reason(exc)}") from None
            raise StoreUnavailable(f"cannot use {self.where}: {reason(exc)} (run `memory doctor`)") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def pgvector_at_least(self, *version: int) -> bool:
        """True when the server's pgvector is at least `version` (e.g. 0, 8 for iterative scans)."""
        _ = self.conn
        return self._pgvector >= version

    def close(self) -> None:
        self.file_stats.clear()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def unavailable(self, exc: BaseException) -> StoreUnavailable:
        """The one-line error for a lost server; the broken connection is dropped."""
        self.close()
        return StoreUnavailable(f"cannot reach {self.where}: {reason(exc)}")

    def is_lost(self, exc: BaseException) -> bool:
        """True when `exc` says the server or the connection is gone (not a bad query)."""
        psycopg = _driver()
        return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError) and not isinstance(
            exc, psycopg.errors.LockNotAvailable | psycopg.errors.QueryCanceled)

    @contextlib.contextmanager
    def guard(self) -> Iterator[None]:
        """Turn a lost server into StoreUnavailable for the code inside."""
        try:
            yield
        except StoreUnavailable:
            raise
        except Exception as exc:
            if self.is_lost(exc):
                raise self.unavailable(exc) from None
            raise

    # -- transactions ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def snapshot(self, first: tuple[str, Any] | None = None) -> Iterator[list[tuple]]:
        """One REPEATABLE READ, READ ONLY transaction: every read inside sees one committed state.

        `first` (sql, params) runs in the same round trip as BEGIN; its rows are yielded.
        """
        conn = self.conn
        if conn.info.transaction_status != 0:  # already inside a transaction (IDLE is 0)
            yield conn.execute(*first).fetchall() if first else []
            return
        with conn.pipeline():
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            cur = conn.execute(*first) if first else None
        rows = cur.fetchall() if cur is not None else []
        try:
            yield rows
        finally:
            if not conn.closed and conn.info.transaction_status != 0:
                conn.execute("COMMIT" if conn.info.transaction_status == 2 else "ROLLBACK")

    def transaction(self) -> contextlib.AbstractContextManager:
        """READ COMMITTED, committed at the end, rolled back on an error (a savepoint when nested)."""
        return self.conn.transaction()

    # -- locks ----------------------------------------------------------------------------------
    @contextlib.contextmanager
    def index_lock(self, workspace_id: int, wait: float | None) -> Iterator[bool]:
        """Hold the workspace's indexer lock (a session advisory lock). Yields False when `wait=0`
        and another indexer holds it; raises IndexBusy after `wait` seconds (None: forever)."""
        conn = self.conn
        if wait == 0:
            held = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_INDEX, workspace_id)).fetchone()[0]
            if not held:
                yield False
                return
        else:
            psycopg = _driver()
            timeout = "0" if wait is None else f"{int(wait * 1000)}ms"
            try:
                conn.execute(f"SET lock_timeout = '{timeout}'")
                conn.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_INDEX, workspace_id))
            except psycopg.errors.LockNotAvailable:
                raise IndexBusy(f"another process has been indexing this workspace for over {wait:.0f}s") from None
            finally:
                if not conn.closed:
                    conn.execute("SET lock_timeout = 0")
        try:
            yield True
        finally:
            if not conn.closed:
                with contextlib.suppress(Exception):
                    conn.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_INDEX, workspace_id))


def guarded(method: _T) -> _T:
    """A store method whose lost-server errors become StoreUnavailable (the store has `self.db`)."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self.db.guard():
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]
