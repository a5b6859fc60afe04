"""SqliteStore: the embedded store (index.base.Store) over `.memory/index.sqlite` and `.memory/vectors/`."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import UserError
from ..base import INDEX_WAIT, Filters, Term
from ..lexical_plan import candidates
from . import lexical
from .connection import file_id, is_corruption, open_index, recreate_index, snapshot, writer_lock
from .read_cache import ReadCache
from .reads import SqliteReads
from .term_scratch import TermScratch
from .writer import SqliteWriter, generation

if TYPE_CHECKING:
    from ...embed.base import Embedder
    from ..records import SessionState
    from .vectors import SqliteVectors


class SqliteStore(SqliteReads):
    """The derived index of one workspace in SQLite (see index.base for the contract)."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / "index.sqlite"
        self._conn: sqlite3.Connection | None = None
        self._notices: list[str] = []
        self._cache = ReadCache()
        self._terms = TermScratch()  # the candidates' words, tokenized once while the index stays the same
        self._vectors: dict[str, SqliteVectors] = {}

    # -- life cycle ----------------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        """The connection (the schema created or migrated, a damaged file replaced, on first use)."""
        if self._conn is None:
            self._conn, repairs = open_index(self.path, self.state_dir)
            self._notices += repairs
        return self._conn

    def describe(self) -> str:
        return f"sqlite {self.path}"

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._vectors.clear()

    def exists(self) -> bool:
        """True when the index file is there (a sync creates it)."""
        return self.path.exists()

    def take_notices(self) -> list[str]:
        notices, self._notices = self._notices, []
        return notices

    def damaged(self) -> str | None:
        """Why the index file cannot be read (probed read-only, without repairing it), or None."""
        if not self.path.exists() or self._conn is not None:
            return None
        try:
            probe = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5)
            try:
                probe.execute("SELECT COUNT(*) FROM meta").fetchone()
                probe.execute("SELECT COUNT(*) FROM files").fetchone()
            finally:
                probe.close()
        except sqlite3.DatabaseError as exc:
            return str(exc)
        return None

    def is_damage(self, exc: BaseException) -> bool:
        """True when `exc` says the index file itself is damaged (not busy, not full)."""
        return is_corruption(exc)

    def repair(self, reason: str) -> None:
        """The index failed mid-operation as damaged: move it aside and start a new, empty one."""
        damaged = file_id(self.path)
        self.close()
        self._conn, repairs = recreate_index(self.path, self.state_dir, reason, damaged)
        self._notices += repairs

    # -- keeping up with the Markdown ----------------------------------------------------------
    def writer(self) -> SqliteWriter:
        """The IndexWriter port (index.ports) over this index: what the one indexer writes through."""
        return SqliteWriter(self.conn, self.state_dir)

    def generation(self) -> int:
        return generation(self.conn)

    # -- recall ---------------------------------------------------------------------------------
    @contextlib.contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read transaction (connection.snapshot); the read cache checks the index once in it."""
        conn = self.conn
        began = not conn.in_transaction  # a transaction of our own: our writes could move the state
        with snapshot(conn):
            if not began:
                yield conn
                return
            self._cache.fresh(conn)
            self._cache.pinned = True
            try:
                yield conn
            finally:
                self._cache.pinned = False

    def scoped(self, filters: Filters) -> Filters:
        """The filters without the clauses that cannot exclude anything here (Filters.scoped)."""
        return filters.scoped(*self._cache.holds(self.conn))

    def lexical_pool(self, terms: Sequence[Term], limit: int, filters: Filters) -> dict[int, float]:
        if not terms:
            return {}
        filters = self.scoped(filters)
        dfs = {table: self._cache.frequencies(self.conn, terms, table) for table in lexical.fts_tables(filters)}
        return candidates(lexical.FtsSearch(self.conn, dfs, self._cache), terms, limit, filters)

    def term_matches(self, terms: Sequence[Term], ids: Sequence[int],
                     context_share: float) -> dict[str, dict[int, float]]:
        conn = self.conn
        return self._terms.matches(conn, self._cache.fresh(conn).state, terms, ids, context_share)

    def document_frequencies(self, terms: Sequence[Term]) -> dict[str, int]:
        return self._cache.frequencies(self.conn, terms)

    def entry_count(self) -> int:
        # The largest id, not COUNT(*): ids are never reused, so it is an upper bound that costs nothing.
        return self.conn.execute("SELECT MAX(id) FROM chunks").fetchone()[0] or 1

    def vectors(self, embedder: Embedder) -> SqliteVectors:
        """The vectors of `embedder`, kept open (with their HNSW store) for the life of this object."""
        from .vectors import SqliteVectors

        key = embedder.identity()
        if key not in self._vectors:
            self._vectors[key] = SqliteVectors(self.conn, self.state_dir, embedder, scope=self.scoped)
        return self._vectors[key]

    def built_with(self) -> str | None:
        from .vectors import built_with

        return built_with(self.conn)

    def record_model(self, model: str | None) -> None:
        from .vectors import record_model

        record_model(self.conn, model)

    # -- reflect and views ----------------------------------------------------------------------
    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the writer lock and one read transaction: a sync may commit in several
        transactions, and reflect must never see one half done."""
        with writer_lock(self.state_dir, wait=INDEX_WAIT), snapshot(self.conn):
            yield

    # -- session transcripts and forgetting -------------------------------------------------------
    def session_states(self) -> dict[str, SessionState]:
        return self.writer().session_states()

    def purge(self, pattern: str, replacement: str, *, dry_run: bool = False) -> int:
        from .purge import purge

        if dry_run:
            return len(self.writer().session_hits(pattern))
        self._vectors.clear()  # their HNSW files are deleted: the next search rebuilds them from SQLite
        self._cache, self._terms = ReadCache(), TermScratch()
        rewritten, log_emptied = purge(self.conn, self.state_dir, pattern, replacement)
        if not log_emptied:
            self._notices.append("another process kept reading the index: its write-ahead log "
                                 "(.memory/index.sqlite-wal) may still hold old pages; run the purge again when it is done")
        return rewritten

    # -- several workspaces, kept texts, operations -----------------------------------------------
    def workspace_names(self) -> None:
        """None: one workspace per index file (its name is the folder's)."""
        return None

    def across(self, names: Sequence[str] | None) -> SqliteStore:
        """One workspace per file: recalling across workspaces needs the Postgres store."""
        del names
        raise UserError("recalling across workspaces needs a Postgres store ([store] url in memory.toml "
                        "or $MEMORY_STORE_URL)")

    def file_text(self, path: str) -> str | None:
        """The SQLite index keeps no file texts: the checkout beside it is the truth."""
        del path
        return None

    def health(self) -> list[dict[str, Any]]:
        """The SQLite library, FTS5, and the schema version of the index file."""
        from .schema import SCHEMA_VERSION, current_version

        version = current_version(self.conn)
        fts5 = "ENABLE_FTS5" in {r[0] for r in self.conn.execute("PRAGMA compile_options")}
        return [{"check": "sqlite", "ok": True, "detail": f"SQLite {sqlite3.sqlite_version} at {self.path}"},
                {"check": "fts5", "ok": fts5, "detail": "FTS5 available" if fts5 else "this SQLite has no FTS5"},
                {"check": "migrations", "ok": version == SCHEMA_VERSION,
                 "detail": f"{version} of {SCHEMA_VERSION} applied"}]
