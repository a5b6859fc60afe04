"""The library API: one object per workspace that the CLI, the MCP server and the web UI all call.

    mem = Memory.open("~/.openclaw/workspace", now="2025-11-30")
    mem.index()
    mem.recall(RecallRequest("where does Peter live", k=5))

`Memory` is assembled from the parts below it: the workspace (Markdown, config, writes people
see), a store (the derived index: SQLite by default, see index.base), an embedder (embed/), and
the recall and reflect pipelines. Nothing here prints or exits; errors are the typed exceptions
of `errors.py`. The class is split by concern: this module (settings, index, recall, views,
Markdown writes, reflect), `stores` (transcripts, store moves), `agent_ops` (core blocks, triggers,
flush prompt, doctor), `following` (file watching), `repair` (a damaged index rebuilt and the call
run again). The embedder and the vectors are `index.vector_space.VectorSpace`'s, which a Memory
holds (`vector_space`): a recall asks it for the vectors and hands them to the recall pipeline.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..cancel import checkpoint
from ..clock import parse_now, workspace_tz
from ..errors import PathRefused, ProviderUnavailable, UserError
from ..index.base import INDEX_WAIT, SyncReport
from ..limits import MAX_FACT_CHARS, check_recall, check_text
from ..recall.query import RecallRequest
from ..workspace.layout import Workspace
from .agent_ops import AgentOps
from .following import RECALL_EMBED_BUDGET, Following
from .repair import _repairing
from .stores import StoreOps

if TYPE_CHECKING:
    from ..embed.base import Embedder
    from ..embed.config import EmbeddingConfig
    from ..index.base import Store
    from ..index.store_config import StoreConfig
    from ..index.vector_space import VectorSpace
    from ..recall.settings import RecallSettings
    from ..reflect.run import ReflectReport
    from ..workspace.importing import ImportReport
    from ..workspace.init_templates import InitReport
    from ..workspace.paging import Page
    from ..workspace.retain_writer import RetainWrite
    from ..workspace.watch import Watcher

__all__ = ["RECALL_EMBED_BUDGET", "Memory", "RecallRequest"]


class Memory(StoreOps, AgentOps, Following):
    """A workspace plus its derived index, opened lazily."""

    def __init__(self, workspace: Workspace, now: datetime | None = None, store: Store | None = None,
                 *, checkout: bool = True) -> None:
        self.workspace = workspace
        self.tz = workspace_tz(workspace.config)
        self._now = now  # fixed by --now; None follows the clock (a long-lived server crosses midnight)
        if store is not None:
            self.__dict__["store"] = store
        # False: no Markdown here, only the workspace's rows in a Postgres store (see `open`).
        self.checkout = checkout
        self._repaired = False  # one repair per Memory: a second failure is reported, not looped on
        self._watcher: Watcher | None = None  # while a long-lived process follows file events

    @classmethod
    def open(cls, root: str | None = None, now: str | None = None, *, create: bool = False) -> Memory:
        """Open the workspace at `root` (or $MEMORY_WORKSPACE / the default) with an optional fixed now.

        A folder that is not a workspace is refused unless `create` (what `init` passes), or unless
        a Postgres store is configured in the environment and holds a workspace of that name
        ($MEMORY_STORE_WORKSPACE, else the folder's name): then the Memory is store-only. It
        reads (recall, get, entity, opinions, status) from the store, as of the last `memory
        index` anywhere, and refuses what needs the Markdown (index, retain, reflect, init).
        """
        ws = Workspace.open(root)
        tz = workspace_tz(ws.config)
        if create or ws.is_workspace():
            return cls(ws, parse_now(now, tz))
        from ..index.factory import store_config
        from ..index.store_config import redact

        config = store_config(ws)
        if config.url is None:
            ws.require()
            raise AssertionError("unreachable: require() raises for a folder that is not a workspace")
        mem = cls(ws, parse_now(now, tz), checkout=False)
        if not mem.store.exists():
            raise UserError(f"no workspace at {ws.root}, and {redact(config.url)} holds no workspace named "
                            f"{config.workspace!r}")
        return mem

    @property
    def now(self) -> datetime:
        """--now when given, else the clock in the workspace's timezone (read anew on every use)."""
        return self._now or datetime.now(self.tz)

    @now.setter
    def now(self, value: datetime | None) -> None:
        self._now = value

    @property
    def today(self) -> date:
        return self.now.date()

    @cached_property
    def store_config(self) -> StoreConfig:
        """`[store]` of memory.toml with its environment twins: which store, and this workspace's name in it."""
        from ..index.factory import store_config

        return store_config(self.workspace)

    @cached_property
    def store(self) -> Store:
        """The derived index (SQLite under `.memory/`, or Postgres when configured), opened on first use."""
        from ..index.factory import open_store

        if self.checkout and not self.store_config.postgres:
            self.workspace.require()
        return open_store(self.workspace, self.store_config)

    def _needs_checkout(self, what: str) -> None:
        if not self.checkout:
            raise UserError(f"{what} needs the workspace's Markdown, and there is no checkout at {self.workspace.root} "
                            f"(this reads workspace {self.store_config.workspace!r} from the store)")

    def close(self) -> None:
        if "store" in self.__dict__:
            self.store.close()

    # -- settings ----------------------------------------------------------------------------
    @cached_property
    def vector_space(self) -> VectorSpace:
        """The embedder and the vectors of this index (index.vector_space): what a hybrid or semantic
        recall searches and `memory index` brings up to date."""
        from ..index.vector_space import VectorSpace

        return VectorSpace(self.workspace, self.store, self.checkout, recall_budget=RECALL_EMBED_BUDGET,
                           index_wait=INDEX_WAIT)

    @property
    def embedding_config(self) -> EmbeddingConfig:
        """`[embedding]` of memory.toml with its environment twins (VectorSpace.config)."""
        return self.vector_space.config

    @cached_property
    def recall_settings(self) -> RecallSettings:
        """The `[recall]` table of memory.toml, checked."""
        from ..recall.settings import RecallSettings

        try:
            return RecallSettings.from_mapping(self.workspace.config.get("recall"))
        except ValueError as exc:
            raise UserError(f"memory.toml [recall]: {exc}") from None

    def embedder(self, required: bool = False) -> tuple[Embedder | None, list[str]]:
        """The configured embedder, or None with a notice when `auto` finds no model (VectorSpace.embedder).

        `required` (an explicit --mode semantic/hybrid) turns "no model" into an error.
        An explicitly configured provider that cannot load always raises ProviderUnavailable.
        """
        return self.vector_space.embedder(required)

    # -- index -------------------------------------------------------------------------
    @_repairing
    def index(self, rebuild: bool = False, progress=None, batch: bool = True) -> SyncReport:
        """Bring the index up to date (waiting for another writer if needed), vectors included.

        `batch=False` (`--no-batch`) never uses batch jobs (embed.batch), even for a big index."""
        import time

        self._needs_checkout("memory index")
        started = time.perf_counter()
        self.workspace.sweep_stale_temps()  # left by writers killed mid-write
        if rebuild:
            # A rebuild also re-chooses the embedding model: the settings (or today's default) decide.
            self.store.record_model(None)
            self.vector_space.forget()
        report = self._sync(rebuild=rebuild, progress=progress, wait=INDEX_WAIT, extract_media=True)
        report.notices[:0] = self.store.take_notices()
        sessions = self.sync_sessions(wait=INDEX_WAIT)
        if sessions.files or sessions.removed or sessions.notices:
            report.sessions = sessions
            report.notices += sessions.notices
        before_update = None
        if batch:
            from ..spaces import batch_jobs

            def before_update(embedder: Embedder, progress: Any) -> tuple[list[str], int]:
                return batch_jobs(self.store.writer(), self.embedding_config.batch, self.workspace.state_dir,
                                  embedder, progress)

        notices, embedded = self.vector_space.index(progress, before_update, changed=report.dirty)
        report.notices += notices
        if "media" in self.workspace.config:  # images and recordings in a space of their own, when chosen
            from ..media_space import index_space

            report.notices += index_space(self.workspace, self.embedding_config)
        if embedded is None:
            return report
        report.embedded = embedded
        report.seconds = time.perf_counter() - started
        return report

    def estimate(self) -> dict[str, Any]:
        """What `memory index` would send to the embedding provider, sending nothing (spaces.estimate)."""
        from ..spaces import estimate

        self._needs_checkout("memory index --estimate")
        self._sync(wait=INDEX_WAIT)
        return estimate(self.store.writer(), self.embedding_config, self.workspace.state_dir)

    def _sync(self, *, rebuild: bool = False, wait: float | None = INDEX_WAIT, progress=None,
              rebuild_if_stale: bool = True, only: set[str] | None = None, extract_media: bool = False) -> SyncReport:
        """The one indexer (index.indexer) over this store's writer: the rows brought up to date with
        the Markdown (`only`: just these workspace keys; `wait=0`: busy rather than wait;
        `extract_media`: read new media files' text, `memory index` and `memory watch` only)."""
        from ..index.indexer import sync

        return sync(self.workspace, self.store.writer(), rebuild=rebuild, wait=wait, progress=progress,
                    rebuild_if_stale=rebuild_if_stale, only=only, extract_media=extract_media)

    def refresh(self, only: set[str] | None = None) -> list[str]:
        """The cheap sync a read does first (`only`: just these changed keys); never waits. Returns notices.

        Store-only (no checkout): nothing to sync from; the store is read as the last index left it.
        While a watcher is attached (`start_watching`), only the files it saw change are synced.
        """
        if not self.checkout:
            return []
        if self._watcher is not None and only is None:
            return self._refresh_watched()
        report = self._sync(wait=0, rebuild_if_stale=False, only=only)
        notices = self.store.take_notices()
        if report.busy:
            return [*notices, "the index is being updated by another process; results may be a moment behind"]
        return notices + report.notices

    # -- recall ------------------------------------------------------------------------
    def warm_up(self) -> None:
        """Load the model and the vector store, HNSW graph included, before the first search (a
        long-lived process: the MCP server). A recall loads the graph only after a few searches."""
        self.recall(RecallRequest(query="warm up", k=1))
        embedder = self.vector_space.loaded
        if embedder is not None:
            self.store.vectors(embedder).load_graph()

    @_repairing
    def recall(self, request: RecallRequest) -> dict[str, Any]:
        """Answer a query with cited results (the JSON contract of DESIGN §3)."""
        from ..recall.engine import recall

        check_recall(request.query, request.k, since=request.since, until=request.until, kind=request.kind,
                     entity=request.entity)
        notices = self.refresh()
        checkpoint()  # a cancelled call stops here, after the sync, before the search
        store = self.store
        if request.workspaces or request.all_workspaces:
            # A view over several workspaces of the store: the same pipeline, rows that name their workspace.
            store = store.across(None if request.all_workspaces else list(request.workspaces))
        request, more = self._with_sources(request)
        notices += more
        semantic = None
        if request.mode != "lexical":
            semantic, more = self._semantic_channel(request.mode, store)
            notices += more
            checkpoint()
        args = {"now": self.now, "settings": self.recall_settings, "date_order": self.workspace.date_order,
                "languages": self.workspace.time_languages}
        try:
            answer = recall(store, request, semantic=semantic, notices=notices, **args)
        except ProviderUnavailable as exc:
            # Trigger: the question's vector failed or missed its deadline (a slow or dead provider).
            # Why: an agent waiting on recall must get an answer, not a hang or a stack trace.
            # Outcome: the same recall, lexical, with the reason in the notices (`--mode semantic` fails).
            from ..errors import ProviderTimeout

            cfg = self.embedding_config
            chosen = cfg.explicit and len(cfg.chain) == 1 and not isinstance(exc, ProviderTimeout)
            if semantic is None or request.mode == "semantic" or chosen:
                raise  # a provider chosen alone that fails is an error, never a silent downgrade
            notices.append(f"{exc}; using lexical search for this question")
            return recall(store, request.replace(mode="lexical"), semantic=None, notices=notices, **args)
        if semantic is not None:
            answer["space"] = semantic.embedder.identity()  # which embedding space was searched
            if semantic.media is not None and semantic.media.problem:
                answer["notices"].append(semantic.media.problem)
        return answer

    def _semantic_channel(self, mode: str, store: Store):  # (recall.semantic.SemanticChannel | None, notices)
        """The vector channel for a `mode` recall over `store`: the vectors come up from the index
        (VectorSpace.for_recall), the channel that searches them from recall/; None (lexical) with
        the reason in the notices."""
        found, notices = self.vector_space.for_recall(mode, store)
        if found is None:
            return None, notices
        from ..recall.semantic import SemanticChannel

        embedder, vectors = found
        media = None
        if "media" in self.workspace.config:  # images and recordings in their own space (media_space.py)
            from ..media_space import MediaChannel

            media = MediaChannel.open(self.workspace, self.embedding_config, store)
        return SemanticChannel(vectors, embedder, semantic_only=mode == "semantic", settings=self.recall_settings,
                               measured=self.vector_space.measured_calibration(embedder), media=media), notices

    def _with_sources(self, request: RecallRequest) -> tuple[RecallRequest, list[str]]:
        """The request with its sources spelled out ([recall] sources when it names none), and a
        notice when transcripts have messages not indexed yet (a recall never reads them itself)."""
        from ..recall.settings import parse_sources

        try:
            sources = parse_sources(request.source) if request.source else self.recall_settings.sources
        except ValueError as exc:
            raise UserError(str(exc)) from None
        request = request.replace(source=",".join(sources))
        if "sessions" not in sources:
            return request, []
        from ..index.sessions import outdated  # transcript code only for a recall that reads them
        from ..workspace.transcripts import session_paths

        configured = bool(session_paths(self.workspace.config))
        states = self.store.session_states()
        if not configured and not states:
            if sources == ("sessions",):
                raise UserError("no session transcripts are configured: add [sessions] paths = "
                                '["~/.openclaw/agents/main/sessions"] to memory.toml, then run `memory index`')
            return request, []
        files, notices = self.session_files()
        behind = outdated(files, states)
        if behind:
            notices.append(f"{behind} session transcript(s) changed since they were indexed; their new messages "
                           "are found after `memory index` (or by a running `memory watch` / MCP server)")
        return request, notices

    # -- status and views -----------------------------------------------------------------
    @_repairing
    def status(self) -> dict[str, Any]:
        """Counts, warnings with path:line, index age and available search modes."""
        notices = self.refresh()
        embedding, model_notices = self.vector_space.label()
        out = {"workspace": str(self.workspace.root) if self.checkout else None, "index": self.store.describe(),
               **self.store.status(), "modes": ["lexical", "semantic", "hybrid"] if embedding else ["lexical"],
               "embedding": embedding, "embedding_space": self.embedding_space(), "notices": notices + model_notices}
        if "media" in self.workspace.config:  # what media indexing can do here, and what to add (media.available)
            from ..media.available import report
            from ..media.settings import media_settings

            out["media"] = report(media_settings(self.workspace.config))
            out["notices"] += [f"media: {line}" for line in out["media"]["missing"]]
        return out

    def embedding_space(self) -> dict[str, Any] | None:
        """Provider, model, dimensions, chain and fallback in use, tokens sent (VectorSpace.describe);
        None when the embedder cannot be built."""
        return self.vector_space.describe()

    @_repairing
    def entity(self, name: str) -> dict[str, Any]:
        """Everything memory holds about one entity: its page, facts and opinions."""
        from ..recall.entity_view import entity_report

        check_text("name", name)
        self.refresh()
        report = entity_report(self.store, name, self.today)
        if report["page"]:
            report["page"] = self.get(report["page"], 1, 200).to_dict()
        return report

    @_repairing
    def entities(self) -> list[dict[str, Any]]:
        """Known entities, most facts first."""
        self.refresh()
        known = sorted(self.store.entities(), key=lambda e: (-e.fact_count, e.slug))
        return [{"slug": e.slug, "name": e.name, "page": e.page_path, "aliases": list(e.aliases),
                 "facts": e.fact_count} for e in known]

    def timeline(self) -> list[dict[str, Any]]:
        """Days with a daily log, oldest first: files, note entries and facts (by kind) of each."""
        self.refresh()
        return self.store.day_counts()

    # -- Markdown reads and writes -------------------------------------------------------
    def get(self, path: str, start: int | None = None, lines: int | None = None,
            max_chars: int | None = None) -> Page:
        """A paged read of one workspace Markdown file (see `workspace.paging.read_page`).

        `path` may be a citation as recall prints it: `memory/x.md#L7` reads from line 7,
        `memory/x.md#L7-L9` exactly lines 7 to 9; explicit `start` / `lines` win. Store-only,
        the text comes from the store (the file as it was last indexed).
        """
        from ..workspace.layout import ANY_MEDIA_SUFFIX
        from ..workspace.paging import page_text, parse_citation, read_page, store_key

        check_text("path", path)
        path, cited_start, cited_lines = parse_citation(path)
        start = start if start is not None else cited_start or 1
        lines = lines if lines is not None else cited_lines
        if self.checkout and "media" in self.workspace.config:
            from ..media.reading import derived_text, is_media_path

            if is_media_path(path):  # an image, PDF or voice note: its derived text, marked as such
                key, text, note = derived_text(self.workspace, path)
                page = page_text(key, text, start, lines, max_chars)
                page.derived = note
                return page
        if self.checkout:
            return read_page(self.workspace, path, start, lines, max_chars)
        key = store_key(path)
        text = self.store.file_text(key)
        if text is None:
            raise PathRefused(f"{path}: no such file in workspace {self.store_config.workspace!r} of the store")
        page = page_text(key, text, start, lines, max_chars)
        if key.lower().endswith(ANY_MEDIA_SUFFIX):  # the text the index derived from an image, PDF or voice note
            page.derived = f"text derived from this {key.rsplit('.', 1)[-1].lower()} file, as last indexed"
        return page

    def media_file(self, path: str) -> tuple[bytes, str]:
        """A media file's bytes and content type, for `memory ui` to show beside its derived text
        (media.reading.media_bytes: confined like `get`, bounded, typed by content)."""
        from ..media.reading import media_bytes

        check_text("path", path)
        self._needs_checkout("showing a media file")
        return media_bytes(self.workspace, path)

    def retain(self, bullet: str, day: date | None = None) -> RetainWrite:
        """Append a validated Retain bullet to a day's log (see `workspace.retain_writer.retain`)."""
        from ..workspace.retain_writer import retain

        check_text("bullet", bullet, MAX_FACT_CHARS)
        self._needs_checkout("memory retain")
        return retain(self.workspace, bullet, day or self.today)

    @_repairing
    def forget(self, target: str, *, reason: str | None = None, undo: bool = False,
               day: date | None = None) -> dict[str, Any]:
        """Mark the fact `target` (its text or a citation) as no longer true since `day` (default
        today), or with `undo` take the mark back; see workspace.forget. The index follows at once."""
        from ..facts.select import select_fact
        from ..workspace.forget import strike, unstrike

        self._sync(wait=INDEX_WAIT)
        fact = select_fact(self.store.facts(), target, invalid=undo)
        end = fact.end_line or fact.line
        if undo:
            written = unstrike(self.workspace, fact.path, fact.line, end, fact.bullet)
        else:
            written = strike(self.workspace, fact.path, fact.line, end, fact.bullet,
                             (day or self.today).isoformat(), reason)
        self._sync(wait=INDEX_WAIT, only={fact.path})
        return {"undone": undo, "kind": fact.kind, "content": fact.content, "source": f"{written.path}#L{written.line}",
                "path": written.path, "line": written.line, "before": written.before, "after": written.after,
                "invalid_at": None if undo else (day or self.today).isoformat(), "reason": None if undo else reason}

    @_repairing
    def purge(self, pattern: str, *, apply: bool = False) -> dict[str, Any]:
        """Remove `pattern` from the Markdown, the index (session entries too) and every derived file
        (see workspace.purge, index.sqlite.purge). Without `apply`, only say what would change."""
        from ..workspace import purge as markdown

        found = markdown.plan(self.workspace, pattern)
        self._sync(wait=INDEX_WAIT)
        result: dict[str, Any] = {
            "applied": apply, "replacement": found.replacement, "files": sorted(found.files),
            "lines": [{"path": h.path, "line": h.line, "after": h.after} for h in found.hits],
            "transcripts": {key: str(path) for key, path in sorted(found.transcripts.items())},
            "transcript_lines": [{"path": h.path, "line": h.line, "after": h.after} for h in found.transcript_hits],
            "session_entries": self.store.purge(pattern, found.replacement, dry_run=True),
            "copies": found.copies,
            "notices": ["copies outside the workspace (git history, backups) are not reached"],
        }
        media = self._purge_media(pattern, found.replacement, result, dry_run=True)
        if "media_transcripts" in result:  # with [media], its files and transcripts are read: said apart
            from ..workspace.layout import ANY_MEDIA_SUFFIX

            result["media_files"] = [c for c in found.copies if c.lower().endswith(ANY_MEDIA_SUFFIX)]
            skip = set(result["media_files"]) | set(result["media_transcripts"])
            result["copies"] = [c for c in found.copies if c not in skip]
            if result["media_entries"] or result["media_files"]:
                result["notices"].append("images, PDFs and recordings are not changed: the text derived from "
                                         "them is rewritten in the cache and the index; delete or replace a file "
                                         "that must go")
        copies = result["copies"]
        if copies:
            result["notices"].insert(0, f"{len(copies)} other file(s) of the workspace hold it; the engine "
                                        "does not read them and leaves them as they are (delete or edit them): "
                                        + ", ".join(copies[:20]) + (" …" if len(copies) > 20 else ""))
        if found.unsearched:
            result["notices"].append(f"not searched (over {markdown.MAX_SCANNED_BYTES // 1_048_576} MB): "
                                     + ", ".join(found.unsearched[:20]))
        refused = markdown.problems(found)
        if refused:
            result["refused"] = refused
        if apply:
            result["changed"] = markdown.apply(self.workspace, found)
            rebuild = media and self._purge_media(pattern, found.replacement, result, dry_run=False)
            # A media file's rows come from its cache entry, and its own bytes did not change: rebuild.
            self._sync(wait=INDEX_WAIT, rebuild=rebuild)
            result["session_entries"] = self.store.purge(pattern, found.replacement)
            result["notices"] += self.store.take_notices()
        return result

    def _purge_media(self, pattern: str, replacement: str, result: dict[str, Any], dry_run: bool) -> bool:
        """The media side of a purge (media.purge): cached derived text and voice notes' transcripts.
        True when some held the pattern (a media file's rows then come from a rewritten cache: rebuild)."""
        if not self.checkout or "media" not in self.workspace.config:
            return False
        from ..media.purge import purge_cache, purge_transcripts
        from ..media.settings import media_settings

        suffixes = media_settings(self.workspace.config).suffixes()
        cached = purge_cache(self.workspace.state_dir, pattern, replacement, dry_run)
        transcripts = purge_transcripts(self.workspace, suffixes, pattern, replacement, dry_run)
        result["media_entries"], result["media_transcripts"] = cached, transcripts
        return bool(cached or transcripts)

    def export(self, fmt: str = "jsonl", since: str | None = None) -> str | bytes:
        """Every fact (kind, entities, confidence, stated time, source, validity) as JSONL text, or a
        Markdown zip as bytes (see index.export); `since` keeps the facts whose time (index.base.entry_time)
        reaches it, as `recall --since` does."""
        from ..dates.parse import parse_since
        from ..index.export import FORMATS, fact_records, to_jsonl, to_markdown_zip

        if fmt not in FORMATS:
            raise UserError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
        try:
            since_day = parse_since(since, self.now) if since else None
        except ValueError as exc:
            raise UserError(f"--since: {exc}") from None
        self.refresh()
        records = fact_records(self.store.facts(), self.store.entities(), since_day)
        return to_jsonl(records) if fmt == "jsonl" else to_markdown_zip(records)

    def import_facts(self, lines, name: str = "FILE") -> ImportReport:  # an iterable of bytes
        """Append exported facts (JSONL lines) as Retain bullets to their days (workspace.importing)."""
        from ..workspace.importing import import_items, read_records

        return import_items(self.workspace, read_records(lines, name))

    def init(self) -> InitReport:
        """Lay out a new workspace from the bank templates (never overwrites)."""
        from ..workspace.init_templates import init_workspace

        self._needs_checkout("memory init")
        return init_workspace(self.workspace, self.today)

    # -- reflect -------------------------------------------------------------------------
    @_repairing
    def reflect(self, since: str | None = None, *, dry_run: bool = False, apply_core: bool = False,
                use_model: bool = True) -> ReflectReport:
        """Rewrite entity pages, opinions, curated lists and core proposals (see reflect.run).

        `since` None: the last 7 days, or every fact on a workspace's first reflect.
        """
        from ..reflect import embeddings_wanted, reflect

        if since is not None:
            check_text("since", since)
        self._needs_checkout("memory reflect")
        similarity, notices = None, []
        if use_model and embeddings_wanted(self.workspace.config):
            similarity, notices = self._embed_similarity()
        report = reflect(self.workspace, self.store, self.now, since, dry_run=dry_run, apply_core=apply_core,
                         use_model=use_model, embed_similarity=similarity)
        report.notices[:0] = self.store.take_notices() + notices
        return report

    def _embed_similarity(self):  # (EmbedSimilarity | None, notices)
        """Embedding similarity for opinion matching (`[reflect] embeddings = true`)."""
        from ..errors import MemoryError_
        from ..reflect.assist import embedding_similarity

        try:
            embedder, notices = self.embedder()
        except MemoryError_ as exc:
            return None, [f"embeddings for opinion matching unavailable: {exc}; lexical matching only"]
        return (embedding_similarity(embedder) if embedder is not None else None), notices

    @_repairing
    def opinions(self, entity: str | None = None) -> list[dict[str, Any]]:
        """The opinions in bank/opinions.md (statement, confidence, history, evidence)."""
        from ..reflect import list_opinions

        self.refresh()
        return list_opinions(self.workspace, self.store, entity)
