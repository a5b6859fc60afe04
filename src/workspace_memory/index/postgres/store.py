"""PostgresStore: many workspaces in one database (index.base.Store), or a view over several of them.

A store is opened for one workspace (its name in the store, `[store] workspace`) and syncs that
workspace's rows. `across(names)` gives a read-only view over several workspaces of the same
database (a recall with --workspace-name / --all-workspaces): the same reads over a list of
workspace ids, whose rows also name their workspace. Entry ids are unique across the database
(workspace_id << 32 | a per-workspace counter), so the recall pipeline runs unchanged on a view.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ...errors import UserError
from ..base import INDEX_WAIT, Filters, Term
from ..lexical_plan import candidates
from . import lexical
from .connection import Database, guarded
from .reads import PostgresReads
from .writer import PostgresWriter

if TYPE_CHECKING:
    from ...embed.base import Embedder
    from ...facts.model import EntityInfo
    from ..records import SessionState
    from .vectors import PostgresVectors


class PostgresStore(PostgresReads):
    """The derived index of workspace `name` in the Postgres database at `url` (see index.base)."""

    path = None  # a server holds the index: no file of ours to name or move aside

    def __init__(self, url: str, name: str, *, db: Database | None = None,
                 view: tuple[str, ...] | None = None) -> None:
        self.db = db or Database(url)
        self.name = name
        self.view = view  # None: the one workspace `name`; else the names this read-only view spans
        self._id: int | None = None
        self._view_ids: dict[int, str] | None = None
        self._df: tuple[Any, dict[tuple[str | None, str], tuple[int, int]]] = ((), {})
        self._entities: tuple[Any, list[EntityInfo]] = ((), [])
        self._stats: lexical.Stats | None = None
        self._vectors: dict[str, PostgresVectors] = {}
        self._notices: list[str] = []

    # -- life cycle and identity -------------------------------------------------------------
    def describe(self) -> str:
        where = f"workspace {self.name!r}" if self.view is None else f"workspaces {', '.join(self.view)}"
        return f"postgresql {self.db.where} ({where})"

    def close(self) -> None:
        self.db.close()
        self._vectors.clear()

    def take_notices(self) -> list[str]:
        notices, self._notices = self._notices, []
        return notices

    def is_damage(self, exc: BaseException) -> bool:
        del exc
        return False  # the server keeps its own files whole; a lost server is StoreUnavailable

    def repair(self, reason: str) -> None:
        """Never asked for (is_damage is always False): there is no file of ours to move aside."""
        raise AssertionError(f"a Postgres store is never repaired by moving a file aside ({reason})")

    @guarded
    def own_id(self, create: bool = True) -> int | None:
        """This store's workspace id (registered on first use when `create`); None for a view."""
        if self.view is not None:
            return None
        if self._id is None:
            conn = self.db.conn
            row = conn.execute("SELECT workspace_id FROM workspaces WHERE name = %s", (self.name,)).fetchone()
            if row is None and create:
                row = conn.execute("INSERT INTO workspaces(name) VALUES (%s) ON CONFLICT (name) DO UPDATE"
                                   " SET name = EXCLUDED.name RETURNING workspace_id", (self.name,)).fetchone()
            self._id = row[0] if row else None
        return self._id

    @property
    def ids(self) -> list[int]:
        """The workspace ids this store reads."""
        if self.view is None:
            own = self.own_id(create=False)
            return [own] if own is not None else []
        return list(self._names())

    def _names(self) -> dict[int, str]:
        if self._view_ids is None:
            rows = self.db.conn.execute("SELECT workspace_id, name FROM workspaces ORDER BY name").fetchall()
            known = {name: wid for wid, name in rows}
            wanted = self.view or ()
            missing = [n for n in wanted if n not in known]
            if missing:
                listed = ", ".join(sorted(known)) or "none yet"
                raise UserError(f"no workspace named {missing[0]!r} in {self.db.where} (known: {listed})")
            self._view_ids = {known[n]: n for n in wanted}
        return self._view_ids

    @guarded
    def workspace_names(self) -> list[str]:
        """Every workspace of the database, by name."""
        return [r[0] for r in self.db.conn.execute('SELECT name FROM workspaces ORDER BY name COLLATE "C"')]

    @guarded
    def exists(self) -> bool:
        """True when the database holds this workspace (a store-only Memory needs it to)."""
        return self.own_id(create=False) is not None

    def across(self, names: Sequence[str] | None) -> PostgresStore:
        """A read-only view over the workspaces `names` of this database (None: all of them)."""
        chosen = tuple(dict.fromkeys(names)) if names is not None else tuple(self.workspace_names())
        return PostgresStore(self.db.url, self.name, db=self.db, view=chosen)

    # -- keeping up with the Markdown ----------------------------------------------------------
    @guarded
    def built_with(self) -> str | None:
        """The local model this workspace's vectors were made with (recorded by `record_model`), or None."""
        ws_id = self.own_id(create=False)
        if ws_id is None:
            return None
        row = self.db.conn.execute("SELECT model FROM workspaces WHERE workspace_id = %s", (ws_id,)).fetchone()
        return (row[0] or None) if row else None

    @guarded
    def record_model(self, model: str | None) -> None:
        """Remember `model` for this workspace's vectors; None forgets it (a rebuild lets the settings decide)."""
        if self.view is not None:
            raise UserError("a view over several workspaces is read-only")
        if model is None and self.built_with() is None:
            return
        with self.db.conn.transaction():
            self.db.conn.execute("UPDATE workspaces SET model = %s WHERE workspace_id = %s", (model or "", self.own_id()))

    def damaged(self) -> str | None:
        """None: a server's tables are never a half-written file (an unreachable server is StoreUnavailable)."""
        return None

    def writer(self) -> PostgresWriter:
        """The IndexWriter port (index.ports) over this workspace (registered on first use); a view
        over several workspaces has none."""
        if self.view is not None:
            raise UserError("a view over several workspaces is read-only")
        self._stats = None  # what it writes changes the counters
        return PostgresWriter(self.db, self.own_id())

    @guarded
    def generation(self) -> int:
        return sum(self.stats().generations)

    # -- recall ---------------------------------------------------------------------------------
    _STATS = ("SELECT COALESCE(sum(chunk_count), 0)::bigint, COALESCE(sum(token_count), 0)::bigint,"
              " COALESCE(sum(next_chunk_id - 1), 0)::bigint, COALESCE(array_agg(generation ORDER BY workspace_id),"
              " '{}'), COALESCE(sum(invalid_count), 0)::bigint, COALESCE(sum(session_count), 0)::bigint,"
              " COALESCE(sum(session_tokens), 0)::bigint,"
              " COALESCE(jsonb_agg(languages) FILTER (WHERE languages IS NOT NULL), '[]')"
              " FROM workspaces WHERE workspace_id = ANY(%s)")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """One consistent read (REPEATABLE READ); the view's counters come in BEGIN's round trip."""
        with self.db.guard():
            ids = self.ids
            with self.db.snapshot((self._STATS, (ids,))) as rows:
                self._stats = self._to_stats(rows[0])
                yield
            self._stats = None

    @staticmethod
    def _to_stats(row: tuple) -> lexical.Stats:
        languages: dict[str, int] = {}
        for counts in row[7]:  # one object a workspace of the view
            for code, n in counts.items():
                languages[code] = languages.get(code, 0) + int(n)
        return lexical.Stats(row[0], row[1], row[2], tuple(row[3]), row[4], row[5], row[6],
                             tuple(sorted(languages.items())))

    def stats(self) -> lexical.Stats:
        """The view's counters (read once per snapshot)."""
        if self._stats is None or self.db.conn.info.transaction_status == 0:
            self._stats = self._to_stats(self.db.conn.execute(self._STATS, (self.ids,)).fetchone())
        return self._stats

    def scoped(self, filters: Filters) -> Filters:
        """The filters without the clauses that cannot exclude anything in this view (Filters.scoped)."""
        stats = self.stats()
        return filters.scoped(bool(stats.sessions), bool(stats.invalid))

    @guarded
    def lexical_pool(self, terms: Sequence[Term], limit: int, filters: Filters) -> dict[int, float]:
        if not terms:
            return {}
        filters = self.scoped(filters)
        dfs: dict[str | None, dict[str, tuple[int, int]]] = {
            source: self._frequencies(terms, source) for source in lexical.sources(filters, self.stats())}
        dfs[None] = self._frequencies([t for t in terms if t.cjk])
        return candidates(lexical.TsSearch(self.db.conn, self.ids, dfs, self.stats(), filters), terms, limit, filters)

    @guarded
    def term_matches(self, terms: Sequence[Term], ids: Sequence[int],
                     context_share: float) -> dict[str, dict[int, float]]:
        if not ids:
            return {t.label: {} for t in terms}
        return lexical.term_matches(self.db.conn, self.ids, terms, ids, context_share)

    @guarded
    def document_frequencies(self, terms: Sequence[Term]) -> dict[str, int]:
        return {label: main for label, (main, _) in self._frequencies(terms).items()}

    def _state(self) -> tuple:
        """What the cached reads depend on: the view's workspaces and their generations (a sync
        that changes rows bumps its workspace's generation)."""
        return tuple(self.ids), self.stats().generations

    def _frequencies(self, terms: Sequence[Term], source: str | None = None) -> dict[str, tuple[int, int]]:
        """(text/path, anywhere) counts per term among one source's entries (None: all), cached while
        the view's generations stay the same."""
        state = self._state()
        if state != self._df[0]:
            self._df = (state, {})
        counts = self._df[1]
        todo = [t for t in terms if (source, t.label) not in counts]
        if todo:
            for label, value in lexical.frequencies(self.db.conn, self.ids, todo, source).items():
                counts[source, label] = value
        return {t.label: counts[source, t.label] for t in terms}

    @guarded
    def entry_count(self) -> int:
        return self.stats().max_id or 1

    def languages(self) -> dict[str, int]:
        return dict(self.stats().languages)

    def vectors(self, embedder: Embedder) -> PostgresVectors:
        from .vectors import PostgresVectors

        key = embedder.identity()
        if key not in self._vectors:
            self._vectors[key] = PostgresVectors(self, embedder)
        return self._vectors[key]

    # -- reflect and views ----------------------------------------------------------------------
    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the workspace's indexer lock and one snapshot: reflect never sees a sync half done."""
        with self.db.guard():
            own = self.own_id()
            with self.db.index_lock(own, INDEX_WAIT), self.db.snapshot():
                yield

    @guarded
    def health(self) -> list[dict[str, Any]]:
        from .health import findings

        return findings(self.db)

    # -- session transcripts and forgetting -------------------------------------------------------
    @guarded
    def session_states(self) -> dict[str, SessionState]:
        """How far each transcript of this workspace was read."""
        own = self.own_id(create=False)
        return PostgresWriter(self.db, own).session_states() if own is not None else {}

    @guarded
    def purge(self, pattern: str, replacement: str, *, dry_run: bool = False) -> int:
        """After the caller's sync replaced the rows of the purged Markdown: rewrite the session
        entries that hold `pattern` (index.sessions.rewrite_sessions), and drop the cached vectors
        that no entry of any workspace uses any more. Returns the session entries rewritten."""
        from ..sessions import rewrite_sessions

        own = self.own_id(create=False)
        if self.view is not None or own is None:
            return 0
        writer = PostgresWriter(self.db, own)
        if dry_run:
            return len(writer.session_hits(pattern))
        with self.db.transaction():
            rewritten = rewrite_sessions(writer, pattern, replacement)
            if rewritten:
                from .writer import recount

                recount(self.db, own)
            self.db.conn.execute(
                "DELETE FROM embedding_cache e WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.text_hash = e.hash)"
                " AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.ctx_hash = e.hash)")
        self._notices.append("Postgres keeps old row versions in its files until they are vacuumed and their "
                             "space reused: for no copy of the purged text to remain, have the server's "
                             "administrator run VACUUM FULL on the workspace_memory tables (and mind backups "
                             "and replicas)")
        self._stats = None
        return rewritten
