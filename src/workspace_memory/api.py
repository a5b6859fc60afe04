"""The library API: one object per workspace that the CLI and the MCP server both call.

    mem = Memory.open("~/.openclaw/workspace", now="2025-11-30")
    mem.index()
    mem.recall(RecallRequest("where does Peter live", k=5))

Nothing here prints or exits; errors are the typed exceptions of `errors.py`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, date, datetime
from functools import cached_property
from typing import Any

from .clock import parse_now, workspace_tz
from .errors import ProviderUnavailable, UserError
from .index.store import connect, ensure_schema, writer_lock
from .index.sync import SyncReport, generation, sync
from .recall.query import RecallRequest
from .workspace import Workspace


class Memory:
    """A workspace plus its derived index, opened lazily."""

    def __init__(self, workspace: Workspace, now: datetime | None = None) -> None:
        self.workspace = workspace
        self.tz = workspace_tz(workspace.config)
        self.now = now or datetime.now(self.tz)

    @classmethod
    def open(cls, root: str | None = None, now: str | None = None) -> Memory:
        """Open the workspace at `root` (or $MEMORY_WORKSPACE / the default) with an optional fixed now."""
        ws = Workspace.open(root)
        return cls(ws, parse_now(now, workspace_tz(ws.config)))

    @property
    def today(self) -> date:
        return self.now.date()

    @cached_property
    def conn(self) -> sqlite3.Connection:
        """The index connection (schema created or migrated on first use)."""
        if not self.workspace.root.is_dir():
            raise UserError(f"no workspace at {self.workspace.root} (run `memory init` or pass --workspace)")
        conn = connect(self.workspace.index_path)
        ensure_schema(conn, self.workspace.state_dir)
        return conn

    def close(self) -> None:
        if "conn" in self.__dict__:
            self.conn.close()
            del self.__dict__["conn"]

    # -- embeddings --------------------------------------------------------------------
    @cached_property
    def embedding_config(self):  # noqa: ANN201 - embed.EmbeddingConfig, imported lazily
        from .embed.config import EmbeddingConfig

        try:
            cfg = EmbeddingConfig.from_mapping(self.workspace.config.get("embedding"), os.environ)
        except ValueError as exc:
            raise UserError(f"memory.toml [embedding]: {exc}") from None
        # Trigger: no model named in the settings, and the index was built with another local model
        # than today's default. Why: a new default must not silently re-embed (inside a recall) or
        # change the results of an existing workspace. Outcome: the index keeps its model until
        # `memory index --rebuild`, and `embedder()` adds a notice saying so.
        if not cfg.model_set and cfg.provider in ("auto", "local"):
            from dataclasses import replace

            from .index.vector_sync import built_with

            built = built_with(self.conn)
            if built is not None and built.lower() != cfg.model.lower():
                cfg = replace(cfg, model=built)
        return cfg

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

            embedder, notices = resolve_embedder(self.embedding_config, self.workspace.state_dir)
            kept = self._kept_model_notice()
            self._embedder = embedder, ([kept] if kept and embedder is not None else []) + notices
        embedder, notices = self._embedder
        if embedder is None and required:
            reason = notices[0] if notices else "embedding provider is 'none'"
            raise ProviderUnavailable(f"semantic recall unavailable: {reason}")
        return embedder, list(notices)

    def _kept_model_notice(self) -> str | None:
        """The notice when the index keeps a model other than today's default (see embedding_config)."""
        cfg = self.embedding_config
        if cfg.model_set or cfg.provider not in ("auto", "local") or cfg.model.lower() == cfg.default_model.lower():
            return None
        return (f"this index was built with {cfg.model}; the default model is now {cfg.default_model} "
                "(`memory index --rebuild` switches to it)")

    def _vectors(self, embedder, *, encode=None, progress=None, wait: float = 0):  # noqa: ANN001, ANN202
        """Embed chunks that have no vector yet and open the up-to-date vector store.

        Only the holder of the writer lock saves the HNSW file (`memory index` waits for
        it; a recall does not, and keeps its up-to-date copy in memory).
        """
        from .index.vector_sync import built_with, embed_missing, open_store, record_model

        embed_missing(self.conn, embedder, encode=encode, progress=progress)
        with writer_lock(self.workspace.state_dir, wait=wait) as held:
            if held and built_with(self.conn) is None:
                record_model(self.conn, embedder)  # the first vectors of this index (`index` re-records)
            return open_store(self.conn, self.workspace.state_dir, embedder, persist=held)

    # -- index -------------------------------------------------------------------------
    def index(self, rebuild: bool = False, progress=None) -> SyncReport:  # noqa: ANN001
        """Bring the index up to date (waiting for another writer if needed), vectors included."""
        import time

        started = time.perf_counter()
        if rebuild:
            from .index.vector_sync import forget_model

            # A rebuild also re-chooses the embedding model: the settings (or today's default) decide.
            forget_model(self.conn)
            for cached in ("embedding_config", "_embedder"):
                self.__dict__.pop(cached, None)
        report = sync(self.workspace, self.conn, rebuild=rebuild, progress=progress)
        embedder, notices = self.embedder()
        from .embed import NOTICE_SLOW_QUERY

        report.notices += [n for n in notices if n != NOTICE_SLOW_QUERY]  # indexing builds the fast encoder
        if embedder is None:
            return report
        try:
            store, more = self._vectors(embedder, progress=progress, wait=60)
        except ProviderUnavailable as exc:
            if self.embedding_config.explicit:
                raise
            report.notices.append(f"{exc}; the index has no vectors yet")
            return report
        report.notices += more
        from .index.vector_sync import record_model

        record_model(self.conn, embedder)  # what this index is built with, until the next --rebuild
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
        if report.busy:
            return ["the index is being updated by another process; results may be a moment behind"]
        return report.notices

    # -- recall ------------------------------------------------------------------------
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
        # encoder when it exists, so a recall after an edit does not load torch.
        fast = getattr(embedder, "query_encoder", lambda: None)()
        store, notices = self._vectors(embedder, encode=fast.encode if fast is not None else None)
        self._store, self._store_generation = store, generation(self.conn)
        return store, notices

    # -- status ------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """Counts, warnings with path:line, index age and available search modes."""
        notices = self.refresh()
        conn = self.conn
        count = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        last_sync = conn.execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()
        age = None
        if last_sync:
            age = round((datetime.now(UTC) - datetime.fromisoformat(last_sync[0])).total_seconds(), 1)
        embedding, model_notices = self._embedding()
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
            "modes": ["lexical", "semantic", "hybrid"] if embedding else ["lexical"],
            "embedding": embedding,
            "notices": notices + model_notices,
        }

    def _embedding(self) -> tuple[str | None, list[str]]:
        """("provider/model" of the embedder recall would use, or None; its notices about the model)."""
        try:
            embedder, _ = self.embedder()
        except ProviderUnavailable:
            return None, []
        if embedder is None:
            return None, []
        kept = self._kept_model_notice()
        return f"{embedder.provider}/{embedder.model}", [kept] if kept else []

    def entity(self, name: str) -> dict[str, Any]:
        """Everything memory holds about one entity: its page, facts and opinions."""
        from .recall.entity_view import entity_report

        self.refresh()
        report = entity_report(self.conn, name)
        if report["page"]:
            report["page"] = self.get(report["page"], 1, 200).to_dict()
        return report

    def entities(self) -> list[dict[str, Any]]:
        """Known entities, most facts first."""
        return [
            {"slug": s, "name": n, "page": p, "aliases": json.loads(a or "[]"), "facts": c}
            for s, n, p, a, c in self.conn.execute(
                "SELECT slug, name, page_path, aliases, fact_count FROM entities ORDER BY fact_count DESC, slug"
            )
        ]

    # -- Markdown reads and writes -------------------------------------------------------
    def get(self, path: str, start: int = 1, lines: int | None = None, max_chars: int | None = None):  # noqa: ANN201
        """A paged read of one workspace Markdown file (see `pages.read_page`)."""
        from .pages import read_page

        return read_page(self.workspace, path, start, lines, max_chars)

    def retain(self, bullet: str, day: date | None = None):  # noqa: ANN201
        """Append a validated Retain bullet to a day's log (see `journal.retain`)."""
        from .journal import retain

        return retain(self.workspace, bullet, day or self.today)

    # -- reflect -------------------------------------------------------------------------
    def reflect(self, since: str = "7d", *, dry_run: bool = False, apply_core: bool = False,
                use_model: bool = True):  # noqa: ANN201 - reflect.ReflectReport
        """Rewrite entity pages, opinions, curated lists and core proposals (see reflect.run)."""
        from .reflect import reflect

        return reflect(self, since, dry_run=dry_run, apply_core=apply_core, use_model=use_model)

    def opinions(self, entity: str | None = None) -> list[dict[str, Any]]:
        """The opinions in bank/opinions.md (statement, confidence, history, evidence)."""
        from .reflect import list_opinions

        return list_opinions(self, entity)

    def init(self):  # noqa: ANN201
        """Lay out a new workspace from the bank templates (never overwrites)."""
        from .templates import init_workspace

        return init_workspace(self.workspace, self.today)
