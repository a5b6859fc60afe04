"""The façade's file watching: a long-lived process follows file events (a mixin of Memory)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import ProviderUnavailable
from ..index.base import INDEX_WAIT, SyncReport
from .repair import _everything, _repairing

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

    from ..index.records import SessionReport
    from ..workspace.watch import Changes, Watcher

RECALL_EMBED_BUDGET = 1.0  # seconds a recall may spend embedding new entries (the rest: `memory index`)


class Following:
    """start_watching / stop_watching, and what a watched process syncs and embeds per change."""

    def start_watching(self) -> Watcher:
        """Follow file events from now on: reads sync only what changed (see workspace/watch.py).

        Raises OSError when the system refuses to watch (e.g. the inotify watch limit).
        """
        from ..workspace.watch import Watcher

        if self._watcher is None:
            watcher = Watcher(self.workspace)
            watcher.start()
            watcher.put_back(_everything())  # what changed while nobody watched: one full sync first
            self._watcher = watcher
        return self._watcher

    def request_arrived(self) -> None:
        """A long-lived server calls this as a request arrives: the file-event check its read does
        first starts now, while the request is parsed and handed over (Watcher.post)."""
        watcher = self._watcher
        if watcher is not None:
            watcher.post()

    def stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()

    def watch(self, on_batch: Callable[[SyncReport], None], stop: threading.Event,
              on_sessions: Callable[[SessionReport], None] | None = None) -> None:
        """`memory watch`: index each batch of file changes, and the transcripts as they grow, until
        `stop` is set (workspace.watch.watch_loop). Raises OSError when the system refuses to watch."""
        from ..workspace.watch import watch_loop

        watcher = self.start_watching()
        try:
            watch_loop(watcher, self.index_changes, self.follow_sessions, on_batch, stop, on_sessions)
        finally:
            self.stop_watching()

    @_repairing
    def index_changes(self, changes: Changes) -> SyncReport:
        """Index a batch of changes seen by the watcher (`memory watch`), embedding new text when it can."""
        report = self._sync_changes(changes, wait=INDEX_WAIT, extract_media=True)
        if report.dirty:
            report.notices += self._embed_new_text()
        return report

    @_repairing
    def _refresh_watched(self) -> list[str]:
        from ..workspace.watch import Changes

        watcher = self._watcher
        settled = watcher.settle()
        changes = watcher.take()
        if not settled:  # the observer did not confirm in time: scan everything rather than miss an edit
            changes = Changes(changes.keys, rescan=True)
        if not changes:
            return self.store.take_notices()
        report = self._sync_changes(changes, wait=0)
        if report.busy:
            return [*report.notices, "the index is being updated by another process; results may be a moment behind"]
        return report.notices

    def _sync_changes(self, changes: Changes, wait: float, extract_media: bool = False) -> SyncReport:
        """Sync the changed keys (or everything), then bring the vectors kept in memory along.
        `extract_media`: the watcher's own sync reads new media files' text; a read's never does."""
        before = self.store.generation()
        report = self._sync(wait=wait, rebuild_if_stale=False, only=None if changes.rescan else set(changes.keys),
                            extract_media=extract_media)
        report.notices[:0] = self.store.take_notices()
        if report.busy and self._watcher is not None:
            self._watcher.put_back(changes)  # retried by the next read
        elif report.dirty:
            self._follow_vectors(report, before)
        return report

    def _follow_vectors(self, report: SyncReport, before: int) -> None:
        """Apply a sync's entry changes to the vectors a recall loaded, instead of reopening them.

        Only when the embedder is loaded already and this sync was the one change since (else the
        next recall reopens the vectors as usual).
        """
        embedder = self.vector_space.loaded
        if embedder is None:
            return
        if getattr(embedder, "needs_torch", lambda: False)():
            return  # embedding would load torch inside a search; let the recall path decide
        self.store.vectors(embedder).follow(before, report.new_chunk_ids, report.removed_chunk_ids,
                                            budget=RECALL_EMBED_BUDGET)

    def _embed_new_text(self) -> list[str]:
        """Embed entries without vectors into the cache (not the HNSW file: its next reader adds them)."""
        try:
            embedder, _ = self.embedder()
        except ProviderUnavailable as exc:
            return [str(exc)]
        if embedder is None:
            return []
        try:
            self.store.vectors(embedder).embed_new()
        except ProviderUnavailable as exc:
            return [f"{exc}; new text is found by keywords until `memory index`"]
        return []
