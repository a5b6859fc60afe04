"""File events instead of stat scans: a watchdog observer that collects changed workspace keys.

A long-lived process (the MCP server, `memory watch`) keeps one `Watcher`. Its watchdog observer
watches the workspace recursively (and each extra path outside it) for files created, modified,
deleted and moved (editors save by writing a temporary file and renaming it over the old one:
the rename's destination is the change). Events on Markdown files mark their key dirty; a folder
created, deleted or moved asks for one full rescan. Hidden paths (`.memory/`, `.git/`, swap files)
and other files are ignored.

- `memory watch` waits until the events have been quiet for DEBOUNCE_SECONDS (at most
  MAX_BATCH_SECONDS after the first), then syncs the batch.
- A search in the MCP server first calls `settle()`: it writes a marker file under `.memory/`
  and waits until the observer has delivered that write's event. inotify reports events in the
  order they happened, so every edit made before the search is marked by then: the edit is
  visible to the next search, without a stat of 4,000 files. If the marker does not come back
  within SETTLE_TIMEOUT (an overloaded or broken observer), the caller falls back to a full scan.
- Every RECONCILE_SECONDS a full (stat) rescan is asked for anyway, as a safety net for events
  the kernel dropped (an overflowing inotify queue is not reported to handlers).

Why one recursive watch of the whole workspace (hidden folders included, their events dropped
here) rather than watches of memory/ and bank/ alone: watchdog runs one emitter thread per watch,
and only within one emitter do events keep their order; the settle marker relies on that order.
The price is one inotify watch per folder of the workspace. Extra paths outside the workspace get
watches of their own, so settle() does not order their events (a search may see such an edit one
search late).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)

from ..files import ensure_state_dir
from .layout import ANY_MEDIA_SUFFIX, CORE_NAME, LEGACY_CORE_NAME, MEDIA_SUFFIXES, Workspace

DEBOUNCE_SECONDS = 1.5
MAX_BATCH_SECONDS = 10.0
SETTLE_TIMEOUT = 0.5
RECONCILE_SECONDS = 300.0
SESSION_POLL_SECONDS = 5.0  # how often a long-lived process compares the transcripts' sizes
SESSION_REST_SECONDS = 60.0  # lines left under the thresholds are indexed after this long anyway
MARKER_NAME = "watch.marker"  # under .memory/: written by settle(), never indexed
_CORE_NAMES = (CORE_NAME, LEGACY_CORE_NAME)
# follow(rest) -> index.records.SessionReport | None: index the transcripts that grew (all their
# new lines with `rest`); None when no transcript is configured (api.Memory.follow_sessions).
FollowSessions = Callable[[bool], Any]
# Every media suffix: the sync keeps only those `[media]` enables (Workspace.files_for_keys).
_MEDIA = ANY_MEDIA_SUFFIX
_TRANSCRIPTS = (".vtt", ".srt", ".txt")  # an audio file's transcript sidecars


@dataclass(frozen=True)
class Changes:
    """What changed since the last `take()`: workspace keys, or a full rescan."""

    keys: frozenset[str] = field(default_factory=frozenset)
    rescan: bool = False

    def __bool__(self) -> bool:
        return self.rescan or bool(self.keys)


class Watcher:
    """Collects changed Markdown keys of one workspace from watchdog events (thread-safe)."""

    def __init__(self, ws: Workspace, *, reconcile_every: float = RECONCILE_SECONDS) -> None:
        self.ws = ws
        self.reconcile_every = reconcile_every
        self._root = str(ws.root) + os.sep
        self._marker = ws.state_dir / MARKER_NAME
        self._cond = threading.Condition()
        self._keys: set[str] = set()
        self._rescan = False
        self._first_event: float | None = None
        self._last_event = 0.0
        self._last_full = time.monotonic()
        self._marker_fd: int | None = None
        self._marker_sent = 0
        self._marker_seen = 0
        self._posted: int | None = None  # a marker post() wrote for the next settle()
        self._settle_lock = threading.Lock()
        self._observer = None

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> None:
        """Start observing. Raises OSError when the system refuses (e.g. the inotify watch limit)."""
        from watchdog.observers import Observer

        ensure_state_dir(self.ws.state_dir)
        self._marker_fd = os.open(self._marker, os.O_RDWR | os.O_CREAT, 0o644)
        # Opened/closed events are left out (indexing reads files; that is not a change), and so are
        # folder "modified" events, which only say that a file inside was created or deleted.
        kinds = list(_EVENT_KINDS)
        observer = Observer()
        handler = _Handler(self)
        observer.schedule(handler, str(self.ws.root), recursive=True, event_filter=kinds)
        for extra in self.ws.extra_roots():
            if not extra.is_relative_to(self.ws.root) and extra.exists():
                folder = extra if extra.is_dir() else extra.parent
                observer.schedule(handler, str(folder), recursive=extra.is_dir(), event_filter=kinds)
        try:
            observer.start()
        except Exception:
            self.stop()
            raise
        self._observer = observer

    def stop(self) -> None:
        """Stop the observer thread and close the marker file (safe to call twice)."""
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join(timeout=5)
        if self._marker_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._marker_fd)
            self._marker_fd = None

    @property
    def running(self) -> bool:
        return self._observer is not None and self._observer.is_alive()

    # -- events (observer thread) ----------------------------------------------------------------
    def _on_path(self, path: str, is_directory: bool) -> None:
        if path == str(self._marker):
            self._on_marker()
            return
        if path.startswith(self._root):
            rel = path[len(self._root):].replace(os.sep, "/")
            if any(part.startswith(".") for part in rel.split("/")):
                return  # .memory/, .memory-repair/, .git/, editors' swap and temp files
            key = rel
        else:
            key = Path(path).as_posix()  # an extra path outside the workspace: keys are absolute
        if is_directory:
            self._mark(rescan=True)
        elif key in _CORE_NAMES:
            for name in _CORE_NAMES:  # MEMORY.md appearing retires an indexed memory.md, and back
                self._mark(key=name)
        elif key.lower().endswith((".md", *_MEDIA)):
            self._mark(key=key)
            if key.lower()[:-3].endswith(_MEDIA):  # photo.png.md describes photo.png: both are synced
                self._mark(key=key[:-3])
        elif key.lower().endswith(_TRANSCRIPTS):  # a voice note's transcript: the voice note changed
            stem, stem_path = key.rsplit(".", 1)[0], path.rsplit(".", 1)[0]
            if stem.lower().endswith(_MEDIA):
                self._mark(key=stem)  # voice.m4a.vtt
            for suffix in MEDIA_SUFFIXES["audio"]:  # voice.vtt beside voice.m4a
                if os.path.exists(stem_path + suffix):
                    self._mark(key=stem + suffix)

    def _mark(self, key: str | None = None, rescan: bool = False) -> None:
        with self._cond:
            if key is not None:
                self._keys.add(key)
            self._rescan = self._rescan or rescan
            now = time.monotonic()
            self._first_event = self._first_event or now
            self._last_event = now
            self._cond.notify_all()

    def _on_marker(self) -> None:
        if self._marker_fd is None:
            return
        try:
            seen = int(os.pread(self._marker_fd, 20, 0) or b"0")
        except (OSError, ValueError):
            return
        with self._cond:
            self._marker_seen = max(self._marker_seen, seen)
            self._cond.notify_all()

    # -- consumers -------------------------------------------------------------------------------
    def take(self) -> Changes:
        """The changes collected since the last call (a due reconcile counts as a rescan)."""
        with self._cond:
            now = time.monotonic()
            rescan = self._rescan or now - self._last_full >= self.reconcile_every
            changes = Changes(frozenset(self._keys), rescan)
            self._keys, self._rescan, self._first_event = set(), False, None
            if rescan:
                self._last_full = now
            return changes

    def put_back(self, changes: Changes) -> None:
        """Return changes that could not be applied (the index was busy), for the next take()."""
        with self._cond:
            self._keys |= changes.keys
            self._rescan = self._rescan or changes.rescan

    def wait(self, quiet: float = DEBOUNCE_SECONDS, longest: float = MAX_BATCH_SECONDS,
             poll: float = 1.0) -> Changes | None:
        """Block up to `poll` seconds for a batch: changes quiet for `quiet` seconds (or pending `longest`).

        Returns None when no batch is ready yet, so the caller can check for a stop request.
        """
        deadline = time.monotonic() + poll
        with self._cond:
            while True:
                now = time.monotonic()
                pending = bool(self._keys) or self._rescan
                if pending and (now - self._last_event >= quiet or now - (self._first_event or now) >= longest):
                    break
                if not pending and now - self._last_full >= self.reconcile_every:
                    break
                left = deadline - now
                if left <= 0:
                    return None
                wake = min(left, quiet - (now - self._last_event)) if pending else left
                self._cond.wait(max(wake, 0.01))
        return self.take()

    def post(self) -> None:
        """Write a marker now, for the next `settle()` to wait on instead of writing its own.

        A server calls this the moment a request arrives (mcp/stdio.py): the marker's event then
        travels through the observer's threads while the request is parsed and handed to a worker,
        and the search's settle() finds it seen, or nearly. Only when no marker is in flight: one
        written before this request cannot stand for it (and a second would make the first's event
        read the newer number), so then the posted marker is dropped and settle() writes its own.
        """
        if self._marker_fd is None or not self.running:
            return
        with self._cond:
            if self._marker_seen < self._marker_sent:
                self._posted = None
                return
            self._marker_sent += 1
            target = self._posted = self._marker_sent
        try:
            os.pwrite(self._marker_fd, f"{target:020d}".encode(), 0)
        except OSError:
            with self._cond:
                self._posted = None

    def settle(self, timeout: float = SETTLE_TIMEOUT) -> bool:
        """Wait until every file event that happened before this call (or before the `post()` that
        announced it) has been collected.

        Writes a new number to the marker file (or takes the one `post()` wrote) and waits for the
        observer to report that write: events arrive in order, so everything before it has been
        seen. False on timeout (or when the watcher is not running); the caller should then scan
        everything.
        """
        if self._marker_fd is None or not self.running:
            return False
        end = time.monotonic() + timeout
        with self._settle_lock:  # one marker in flight: a late event of one marker never releases another
            with self._cond:
                target, self._posted = self._posted, None
                if target is None:
                    while self._marker_seen < self._marker_sent:  # one still in flight (a settle that timed out)
                        left = end - time.monotonic()
                        if left <= 0:
                            return False
                        self._cond.wait(left)
                    self._marker_sent += 1
                    target = self._marker_sent
                    write = True
                else:
                    write = False
            if write:
                try:
                    os.pwrite(self._marker_fd, f"{target:020d}".encode(), 0)
                except OSError:
                    return False
            with self._cond:
                while self._marker_seen < target:
                    left = end - time.monotonic()
                    if left <= 0:
                        return False
                    self._cond.wait(left)
        return True


_EVENT_KINDS = (FileCreatedEvent, FileModifiedEvent, FileDeletedEvent, FileMovedEvent,
                DirCreatedEvent, DirDeletedEvent, DirMovedEvent)


class _Handler(FileSystemEventHandler):
    """The watchdog event handler: forwards the paths of each event to the Watcher."""

    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def dispatch(self, event: FileSystemEvent) -> None:
        is_dir = event.is_directory
        for path in (event.src_path, getattr(event, "dest_path", "")):
            if path:
                self.watcher._on_path(os.fsdecode(path), is_dir)


class SessionFollower:
    """When a long-lived process indexes session transcripts (they live outside the workspace).

    Transcripts only grow, and an agent appends to them with every message, so they are not
    watched by events: every SESSION_POLL_SECONDS `tick()` lets `follow(rest)` (the façade's
    `Memory.follow_sessions`) compare sizes and read the transcripts past OpenClaw's thresholds
    (about 100 KB or 50 lines); what stays under them is read SESSION_REST_SECONDS later (`rest`),
    and by `finish()` when the process stops. `follow` returns None when no transcript is configured.
    """

    def __init__(self, follow: FollowSessions, clock: Callable[[], float] = time.monotonic) -> None:
        self.follow = follow
        self.clock = clock
        self._polled = self._rested = clock()
        self.enabled = True

    def tick(self):  # index.records.SessionReport | None
        """Index what is due; the report when something was looked at, else None."""
        now = self.clock()
        if not self.enabled or now - self._polled < SESSION_POLL_SECONDS:
            return None
        self._polled = now
        rest = now - self._rested >= SESSION_REST_SECONDS
        report = self.follow(rest)
        if report is None:
            self.enabled = False  # no [sessions] paths: nothing to follow in this process
        elif rest and not report.busy:
            self._rested = now
        return report

    def finish(self):  # index.records.SessionReport | None
        return self.follow(True) if self.enabled else None


def watch_loop(watcher: Watcher, index_changes: Callable[[Changes], Any], follow: FollowSessions,
               on_batch: Callable[[Any], None], stop: threading.Event,
               on_sessions: Callable[[Any], None] | None = None) -> None:
    """`memory watch`: index each debounced batch of changes of a started `watcher` until `stop` is set.

    `index_changes(changes)` indexes a batch (the façade's `Memory.index_changes`) and `on_batch`
    gets its SyncReport; `follow` is SessionFollower's, and `on_sessions(report)` gets each session
    sync. The loop wakes at least once a second to notice `stop` (a signal handler sets it).
    """
    sessions = SessionFollower(follow)
    while not stop.is_set():
        changes = watcher.wait()
        if changes is not None and not stop.is_set():
            on_batch(index_changes(changes))
        report = sessions.tick()
        if report is not None and on_sessions is not None:
            on_sessions(report)
    report = sessions.finish()
    if report is not None and on_sessions is not None:
        on_sessions(report)
