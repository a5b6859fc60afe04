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
from .index.store import file_id, is_corruption, open_index, recreate_index, writer_lock
from .index.sync import SyncReport, generation, sync
from .recall.query import RecallRequest
from .workspace import Workspace

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
        self._now = now  # fixed by --now; None follows the clock (a long-lived server crosses midnight)
        self._repairs: list[str] = []  # notices of repairs not reported yet
        self._repaired = False  # one repair per Memory: a second failure is reported, not looped on
        self._watcher = None  # a watch.Watcher while a long-lived process follows file events

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
    def now(self) -> datetime:
        """--now when given, else the clock in the workspace's timezone (read anew on every use)."""
        return self._now or datetime.now(self.tz)

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
        if self._watcher is not None:  # the new index is empty: a watched refresh must scan everything
            self._watcher.put_back(_everything())

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
        from .index.vector_sync import embed_missing, missing_vectors, open_store

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
        """The cheap sync a read does first; never waits for another writer. Returns notices.

        While a watcher is attached (`start_watching`), only the files it saw change are synced.
        """
        if self._watcher is not None:
            return self._refresh_watched()
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
        self.refresh()
        return [
            {"slug": s, "name": n, "page": p, "aliases": json.loads(a or "[]"), "facts": c}
            for s, n, p, a, c in self.conn.execute(
                "SELECT slug, name, page_path, aliases, fact_count FROM entities ORDER BY fact_count DESC, slug"
            )
        ]

    # -- Markdown reads and writes -------------------------------------------------------
    def get(self, path: str, start: int | None = None, lines: int | None = None,  # noqa: ANN201
            max_chars: int | None = None):
        """A paged read of one workspace Markdown file (see `pages.read_page`).

        `path` may be a citation as recall prints it: `memory/x.md#L7` reads from line 7,
        `memory/x.md#L7-L9` exactly lines 7 to 9; explicit `start` / `lines` win.
        """
        from .pages import parse_citation, read_page

        path, cited_start, cited_lines = parse_citation(path)
        start = start if start is not None else cited_start or 1
        lines = lines if lines is not None else cited_lines
        return read_page(self.workspace, path, start, lines, max_chars)

    def retain(self, bullet: str, day: date | None = None):  # noqa: ANN201
        """Append a validated Retain bullet to a day's log (see `journal.retain`)."""
        from .journal import retain

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
        from .templates import init_workspace

        return init_workspace(self.workspace, self.today)

    # -- the agent surface: core blocks, triggers, flush prompt, doctor, file watching -------------
    @cached_property
    def core_settings(self):  # noqa: ANN201 - agent.core.CoreSettings, imported lazily
        """The `[core]` table of memory.toml, checked (block limits, read-only blocks)."""
        from .agent.core import CoreSettings

        return CoreSettings.from_mapping(self.workspace.config.get("core"))

    def core_show(self) -> dict[str, Any]:
        """The core blocks of MEMORY.md: label, chars_current, chars_limit, read_only, value; and the prompt text."""
        from .agent.core import parse_core, render_blocks
        from .agent.core_write import read_core_text

        self.workspace.require()
        path = self.workspace.core_path
        key = self.workspace.key_for(path)
        blocks = parse_core(read_core_text(path)[0], self.core_settings).blocks
        return {"path": key, "exists": path.is_file(), "blocks": [b.to_dict() for b in blocks],
                "prompt": render_blocks(blocks, key)}

    def core_append(self, label: str, text: str) -> dict[str, Any]:
        """Append lines to a core block (refused over its limit or when read-only)."""
        from .agent import core

        return self._core_edit(lambda t: core.append(t, label, text, self.core_settings))

    def core_replace(self, label: str, old: str, new: str) -> dict[str, Any]:
        """Replace the one occurrence of `old` in a core block; 0 or 2+ occurrences are refused."""
        from .agent import core

        return self._core_edit(lambda t: core.replace(t, label, old, new, self.core_settings))

    def core_insert(self, label: str, text: str, line: int) -> dict[str, Any]:
        """Insert lines at line `line` of a core block's value (1-based; -1 = at the end)."""
        from .agent import core

        return self._core_edit(lambda t: core.insert(t, label, text, line, self.core_settings))

    def core_rethink(self, label: str, text: str) -> dict[str, Any]:
        """Rewrite a core block's whole value."""
        from .agent import core

        return self._core_edit(lambda t: core.rethink(t, label, text, self.core_settings))

    def core_create(self, label: str, text: str = "") -> dict[str, Any]:
        """Add a new core block at the end of MEMORY.md (creating the file if needed)."""
        from .agent import core

        return self._core_edit(lambda t: core.create(t, label, text, self.core_settings), create=True)

    def core_delete(self, label: str) -> dict[str, Any]:
        """Remove a core block (heading and value)."""
        from .agent import core

        return self._core_edit(lambda t: core.delete(t, label, self.core_settings))

    def _core_edit(self, edit, create: bool = False) -> dict[str, Any]:  # noqa: ANN001
        from .agent.core_write import edit_core_file

        key, result = edit_core_file(self.workspace, edit, create=create)
        notices: list[str] = []
        if result.changed:  # the index follows the file at once
            from .watch import Changes

            report = self._sync_changes(Changes(frozenset({key})), wait=10)
            notices = report.notices + (["the index is busy; it will catch up on the next read"] if report.busy else [])
        return {"path": key, **result.to_dict(), "notices": notices}

    def triggers(self, message: str) -> dict[str, Any]:
        """Core entries whose `<!-- trigger: ... -->` phrases match `message` strongly (agent/triggers.py)."""
        from .agent.triggers import find_triggers
        from .files import decode_markdown

        sources = []
        for mf in self.workspace.core_and_bank_files():
            try:
                with open(mf.path, "rb") as fh:
                    sources.append((mf.key, decode_markdown(fh.read()).text))
            except OSError:
                continue
        return find_triggers(message, sources)

    def flush_prompt(self) -> dict[str, str]:
        """The system/user prompt pair a runtime sends before compacting a session (agent/flush.py)."""
        from .agent.flush import flush_prompt

        return flush_prompt(self.today, str(self.tz))

    def doctor(self, fix: bool = False):  # noqa: ANN201 - doctor.DoctorReport
        """Find (and with `fix`, repair) what is wrong with the workspace and its index (doctor.py)."""
        from .doctor import run_doctor

        return run_doctor(self, fix=fix)

    def start_watching(self):  # noqa: ANN201 - watch.Watcher
        """Follow file events from now on: reads sync only what changed (see watch.py).

        Raises OSError when the system refuses to watch (e.g. the inotify watch limit).
        """
        from .watch import Watcher

        if self._watcher is None:
            watcher = Watcher(self.workspace)
            watcher.start()
            watcher.put_back(_everything())  # what changed while nobody watched: one full sync first
            self._watcher = watcher
        return self._watcher

    def stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()

    @_repairing
    def index_changes(self, changes) -> SyncReport:  # noqa: ANN001 - watch.Changes
        """Index a batch of changes seen by the watcher (`memory watch`), embedding new text when it can."""
        report = self._sync_changes(changes, wait=60)
        if report.dirty:
            report.notices += self._embed_new_text()
        return report

    @_repairing
    def _refresh_watched(self) -> list[str]:
        watcher = self._watcher
        settled = watcher.settle()
        changes = watcher.take()
        if not settled:  # the observer did not confirm in time: scan everything rather than miss an edit
            from .watch import Changes

            changes = Changes(changes.keys, rescan=True)
        if not changes:
            return self.take_repairs()
        report = self._sync_changes(changes, wait=0)
        if report.busy:
            return [*report.notices, "the index is being updated by another process; results may be a moment behind"]
        return report.notices

    def _sync_changes(self, changes, wait: float) -> SyncReport:  # noqa: ANN001 - watch.Changes
        """Sync the changed keys (or everything), then bring an in-memory vector store along."""
        before = generation(self.conn)
        report = sync(self.workspace, self.conn, wait=wait, rebuild_if_stale=False,
                      only=None if changes.rescan else changes.keys)
        report.notices[:0] = self.take_repairs()
        if report.busy and self._watcher is not None:
            self._watcher.put_back(changes)  # retried by the next read
        elif report.dirty:
            self._follow_vectors(report, before)
        return report

    def _follow_vectors(self, report: SyncReport, before: int) -> None:
        """Apply a sync's chunk changes to the vector store kept in memory, instead of reopening it.

        Only when this sync was the one change since the store was current; otherwise the next
        recall reopens the store as usual.
        """
        from .index.live_vectors import LiveVectors, follow_changes

        store = self.__dict__.get("_store")
        if store is None or self.__dict__.get("_store_generation") != before or generation(self.conn) != before + 1:
            return
        embedder = self._embedder[0]
        fast = getattr(embedder, "query_encoder", lambda: None)()
        if fast is None and callable(getattr(embedder, "sentence_transformer", None)):
            return  # embedding would load torch inside a search; let the recall path decide
        live = store if isinstance(store, LiveVectors) else LiveVectors(store)
        if follow_changes(self.conn, live, embedder, report.new_chunk_ids, report.removed_chunk_ids,
                          encode=fast.encode if fast is not None else None, budget=RECALL_EMBED_BUDGET):
            self._store, self._store_generation = live, before + 1
        else:
            self.__dict__.pop("_store", None)  # the next recall reopens the store the usual way

    def _embed_new_text(self) -> list[str]:
        """Embed chunks without vectors into the cache (not the HNSW file: its next reader adds them)."""
        from .index.vector_sync import embed_missing

        try:
            embedder, _ = self.embedder()
        except ProviderUnavailable as exc:
            return [str(exc)]
        if embedder is None:
            return []
        fast = getattr(embedder, "query_encoder", lambda: None)()
        try:
            embed_missing(self.conn, embedder, encode=fast.encode if fast is not None else None)
        except ProviderUnavailable as exc:
            return [f"{exc}; new text is found by keywords until `memory index`"]
        return []


def _everything():  # noqa: ANN202 - watch.Changes
    from .watch import Changes

    return Changes(rescan=True)
