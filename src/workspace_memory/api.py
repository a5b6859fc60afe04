"""The library API: one object per workspace that the CLI and the MCP server both call.

    mem = Memory.open("~/.openclaw/workspace", now="2025-11-30")
    mem.index()
    mem.recall(RecallRequest("where does Peter live", k=5))

Nothing here prints or exits; errors are the typed exceptions of `errors.py`.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
from collections.abc import Callable
from datetime import UTC, date, datetime
from functools import cached_property
from typing import Any, TypeVar

from .clock import parse_now, workspace_tz
from .errors import ProviderUnavailable, UserError
from .index.sqlite.connection import file_id, is_corruption, open_index, recreate_index, writer_lock
from .index.sqlite.sync import SyncReport, generation, sync
from .recall.query import RecallRequest
from .workspace.layout import Workspace

_T = TypeVar("_T", bound=Callable[..., Any])
# Seconds a recall may spend embedding new entries before it answers (the rest: `memory index`).
RECALL_EMBED_BUDGET = 1.0


def _repairing(method: _T) -> _T:
    """Run a public method; if the index turns out damaged, rebuild it and run the method again.

    The index is derived data: a garbage or truncated file is moved aside (with a notice) and
    refilled from Markdown by the retried call's sync, instead of stopping the program.
    """

    @functools.wraps(method)
    def wrapper(self: Memory, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            if not is_corruption(exc) or self._repaired:
                raise
            self._repair(str(exc))
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class Memory:
    """A workspace plus its derived index, opened lazily."""

    def __init__(self, workspace: Workspace, now: datetime | None = None) -> None:
        self.workspace = workspace
        self.tz = workspace_tz(workspace.config)
        self.now = now or datetime.now(self.tz)
        self._repairs: list[str] = []  # notices of repairs not reported yet
        self._repaired = False  # one repair per Memory: a second failure is reported, not looped on

    @classmethod
    def open(cls, root: str | None = None, now: str | None = None, *, create: bool = False) -> Memory:
        """Open the workspace at `root` (or $MEMORY_WORKSPACE / the default) with an optional fixed now.

        A folder that is not a workspace is refused unless `create` (what `init` passes).
        """
        ws = Workspace.open(root)
        if not create:
            ws.require()
        return cls(ws, parse_now(now, workspace_tz(ws.config)))

    @property
    def today(self) -> date:
        return self.now.date()

    @cached_property
    def conn(self) -> sqlite3.Connection:
        """The index connection (schema created or migrated on first use)."""
        self.workspace.require()
        conn, repairs = open_index(self.workspace.index_path, self.workspace.state_dir)
        self._repairs += repairs
        self._repaired = self._repaired or bool(repairs)
        return conn

    def _repair(self, reason: str) -> None:
        """The index failed mid-operation as damaged: move it aside and start a new one."""
        damaged = file_id(self.workspace.index_path)
        self.close()
        conn, repairs = recreate_index(self.workspace.index_path, self.workspace.state_dir, reason, damaged)
        self.__dict__["conn"] = conn
        self.__dict__.pop("_store", None)
        self._repairs += repairs
        self._repaired = True

    def take_repairs(self) -> list[str]:
        """Notices of repairs made since the last call (a damaged index rebuilt, ...)."""
        repairs, self._repairs = self._repairs, []
        return repairs

    def close(self) -> None:
        if "conn" in self.__dict__:
            self.conn.close()
            del self.__dict__["conn"]

    # -- embeddings --------------------------------------------------------------------
    @cached_property
    def embedding_config(self):  # noqa: ANN201 - embed.EmbeddingConfig, imported lazily
        from .embed.config import EmbeddingConfig

        try:
            return EmbeddingConfig.from_mapping(self.workspace.config.get("embedding"), os.environ)
        except ValueError as exc:
            raise UserError(f"memory.toml [embedding]: {exc}") from None

    @cached_property
    def recall_settings(self):  # noqa: ANN201 - recall.settings.RecallSettings, imported lazily
        """The `[recall]` table of memory.toml, checked."""
        from .recall.settings import RecallSettings

        try:
            return RecallSettings.from_mapping(self.workspace.config.get("recall"))
        except ValueError as exc:
            raise UserError(f"memory.toml [recall]: {exc}") from None

    def embedder(self, required: bool = False):  # noqa: ANN201 - (Embedder | None, notices)
        """The configured embedder, or None with a notice when `auto` finds no model.

        `required` (an explicit --mode semantic/hybrid) turns "no model" into an error.
        An explicitly configured provider that cannot load always raises ProviderUnavailable.
        """
        if "_embedder" not in self.__dict__:
            from .embed import resolve_embedder

            self._embedder = resolve_embedder(self.embedding_config, self.workspace.state_dir)
        embedder, notices = self._embedder
        if embedder is None and required:
            reason = notices[0] if notices else "embedding provider is 'none'"
            raise ProviderUnavailable(f"semantic recall unavailable: {reason}")
        return embedder, list(notices)

    def _vectors(self, embedder, *, encode=None, embed: bool = True, progress=None,  # noqa: ANN001, ANN202
                 wait: float = 0, budget: float | None = None):
        """Embed chunks that have no vector yet and open the up-to-date vector store.

        Returns (store, notices, complete). Only the holder of the writer lock saves the HNSW
        file (`memory index` waits for it; a recall does not, and keeps its up-to-date copy in
        memory). With `budget` (a recall), embedding stops after that many seconds, and with
        `embed=False` nothing is embedded; the rest waits for `memory index`.
        """
        from .index.sqlite.vector_sync import embed_missing, missing_vectors, open_store

        if embed:
            done, left = embed_missing(self.conn, embedder, encode=encode, progress=progress, budget=budget)
        else:
            done, left = 0, len(missing_vectors(self.conn, embedder))
        with writer_lock(self.workspace.state_dir, wait=wait) as held:
            store, notices = open_store(self.conn, self.workspace.state_dir, embedder, persist=held,
                                        complete=not left)
        if left:
            why = (f"{done} embedded within the recall's {budget:g} s budget" if embed and budget is not None
                   else "no fast encoder in this process")
            notices.append(f"{left} new text(s) not embedded yet ({why}); they are found by keywords "
                           "until `memory index` embeds them")
        return store, notices, not left

    # -- index -------------------------------------------------------------------------
    @_repairing
    def index(self, rebuild: bool = False, progress=None) -> SyncReport:  # noqa: ANN001
        """Bring the index up to date (waiting for another writer if needed), vectors included."""
        import time

        started = time.perf_counter()
        report = sync(self.workspace, self.conn, rebuild=rebuild, progress=progress)
        report.notices[:0] = self.take_repairs()
        embedder, notices = self.embedder()
        from .embed import NOTICE_SLOW_QUERY

        report.notices += [n for n in notices if n != NOTICE_SLOW_QUERY]  # indexing builds the fast encoder
        if embedder is None:
            return report
        try:
            store, more, _ = self._vectors(embedder, progress=progress, wait=60)
        except ProviderUnavailable as exc:
            if self.embedding_config.explicit:
                raise
            report.notices.append(f"{exc}; the index has no vectors yet")
            return report
        report.notices += more
        from .embed import ensure_query_encoder

        try:
            ensure_query_encoder(embedder, self.workspace.state_dir)
        except Exception as exc:  # noqa: BLE001 - the fast path is an optimisation, never a failure
            report.notices.append(f"fast query encoder not built: {exc}")
        self._store, self._store_generation = store, generation(self.conn)
        report.seconds = time.perf_counter() - started
        return report

    def refresh(self) -> list[str]:
        """The cheap sync a read does first; never waits for another writer. Returns notices."""
        report = sync(self.workspace, self.conn, wait=0, rebuild_if_stale=False)
        notices = self.take_repairs()
        if report.busy:
            return [*notices, "the index is being updated by another process; results may be a moment behind"]
        return notices + report.notices

    # -- recall ------------------------------------------------------------------------
    @_repairing
    def recall(self, request: RecallRequest) -> dict[str, Any]:
        """Answer a query with cited results (the JSON contract of DESIGN §3)."""
        from .recall.engine import recall

        notices = self.refresh()
        semantic = None
        if request.mode != "lexical":
            semantic, more = self._semantic_channel(request.mode)
            notices += more
        return recall(self.conn, request, now=self.now, semantic=semantic, notices=notices,
                      settings=self.recall_settings)

    def _semantic_channel(self, mode: str):  # noqa: ANN202 - (channel | None, notices)
        """The vector channel for this recall, or None (lexical) with the reason in notices."""
        from .recall.semantic import semantic_channel

        required = mode in ("semantic", "hybrid")
        embedder, notices = self.embedder(required=required)
        if embedder is None:
            return None, notices
        try:
            store, more = self._store_for_recall(embedder)
        except ProviderUnavailable as exc:
            if required or self.embedding_config.explicit:
                raise
            return None, [*notices, f"{exc}; using lexical search"]
        channel = semantic_channel(self.conn, store, embedder, semantic_only=mode == "semantic",
                                   settings=self.recall_settings)
        return channel, notices + more

    def _store_for_recall(self, embedder):  # noqa: ANN001, ANN202
        cached = self.__dict__.get("_store")
        if cached is not None and self.__dict__.get("_store_generation") == generation(self.conn):
            return cached, []
        # New or changed chunks since the last `memory index`: embed them with the fast
        # encoder when it exists (a recall never loads torch), for at most RECALL_EMBED_BUDGET
        # seconds; what is left is found by keywords and embedded by `memory index`.
        fast = getattr(embedder, "query_encoder", lambda: None)()
        heavy = fast is None and callable(getattr(embedder, "sentence_transformer", None))  # would load torch
        store, notices, complete = self._vectors(embedder, encode=fast.encode if fast is not None else None,
                                                 embed=not heavy, budget=RECALL_EMBED_BUDGET)
        self._store, self._store_generation = store, generation(self.conn) if complete else None
        return store, notices

    # -- status ------------------------------------------------------------------------
    @_repairing
    def status(self) -> dict[str, Any]:
        """Counts, warnings with path:line, index age and available search modes."""
        notices = self.refresh()
        conn = self.conn
        count = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        last_sync = conn.execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()
        age = None
        if last_sync:
            age = round((datetime.now(UTC) - datetime.fromisoformat(last_sync[0])).total_seconds(), 1)
        warnings = [
            {"path": p, "line": line, "message": m}
            for p, line, m in conn.execute("SELECT path, line, message FROM warnings ORDER BY path, line")
        ]
        return {
            "workspace": str(self.workspace.root),
            "index": str(self.workspace.index_path),
            "files": count("SELECT COUNT(*) FROM files"),
            "chunks": count("SELECT COUNT(*) FROM chunks"),
            "facts": count("SELECT COUNT(*) FROM facts"),
            "facts_by_kind": dict(conn.execute("SELECT kind, COUNT(*) FROM facts GROUP BY kind ORDER BY kind")),
            "entities": count("SELECT COUNT(*) FROM entities"),
            "warnings": warnings,
            "last_sync": last_sync[0] if last_sync else None,
            "index_age_seconds": age,
            "modes": self._modes(),
            "notices": notices,
        }

    def _modes(self) -> list[str]:
        try:
            embedder, _ = self.embedder()
        except ProviderUnavailable:
            return ["lexical"]
        return ["lexical", "semantic", "hybrid"] if embedder is not None else ["lexical"]

    @_repairing
    def entity(self, name: str) -> dict[str, Any]:
        """Everything memory holds about one entity: its page, facts and opinions."""
        from .recall.entity_view import entity_report

        self.refresh()
        report = entity_report(self.conn, name)
        if report["page"]:
            report["page"] = self.get(report["page"], 1, 200).to_dict()
        return report

    @_repairing
    def entities(self) -> list[dict[str, Any]]:
        """Known entities, most facts first."""
        return [
            {"slug": s, "name": n, "page": p, "aliases": json.loads(a or "[]"), "facts": c}
            for s, n, p, a, c in self.conn.execute(
                "SELECT slug, name, page_path, aliases, fact_count FROM entities ORDER BY fact_count DESC, slug"
            )
        ]

    def timeline(self) -> list[dict[str, Any]]:
        """Days with a daily log, oldest first: files, note entries and facts (by kind) of each."""
        from .index.sqlite.timeline import day_counts

        self.refresh()
        return day_counts(self.conn)

    # -- Markdown reads and writes -------------------------------------------------------
    def get(self, path: str, start: int = 1, lines: int | None = None, max_chars: int | None = None):  # noqa: ANN201
        """A paged read of one workspace Markdown file (see `pages.read_page`)."""
        from .workspace.paging import read_page

        return read_page(self.workspace, path, start, lines, max_chars)

    def retain(self, bullet: str, day: date | None = None):  # noqa: ANN201
        """Append a validated Retain bullet to a day's log (see `journal.retain`)."""
        from .workspace.retain_writer import retain

        return retain(self.workspace, bullet, day or self.today)

    # -- reflect -------------------------------------------------------------------------
    @_repairing
    def reflect(self, since: str = "7d", *, dry_run: bool = False, apply_core: bool = False,
                use_model: bool = True):  # noqa: ANN201 - reflect.ReflectReport
        """Rewrite entity pages, opinions, curated lists and core proposals (see reflect.run)."""
        from .reflect import reflect

        self.conn  # noqa: B018 - opens (and if need be repairs) the index first
        report = reflect(self, since, dry_run=dry_run, apply_core=apply_core, use_model=use_model)
        report.notices[:0] = self.take_repairs()
        return report

    @_repairing
    def opinions(self, entity: str | None = None) -> list[dict[str, Any]]:
        """The opinions in bank/opinions.md (statement, confidence, history, evidence)."""
        from .reflect import list_opinions

        return list_opinions(self, entity)

    def init(self):  # noqa: ANN201
        """Lay out a new workspace from the bank templates (never overwrites)."""
        from .workspace.init_templates import init_workspace

        return init_workspace(self.workspace, self.today)
