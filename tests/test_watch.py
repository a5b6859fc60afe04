"""File events instead of stat scans: the Watcher with real inotify events, sync(only=keys), and the
`memory watch` process (create, modify, an editor's atomic rename, delete; SIGTERM and SIGINT)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import NOW, clean_env, index_db, memory_executable, recall_json, run_ok
from pg_fixtures import store_env
from workspace_memory.api import Memory
from workspace_memory.index.indexer import sync
from workspace_memory.workspace.layout import Workspace
from workspace_memory.workspace.watch import Changes, Watcher


def settled(watcher: Watcher) -> Changes:
    assert watcher.settle(timeout=5)
    return watcher.take()


def test_watcher_sees_creates_modifies_renames_and_deletes(workspace: Path) -> None:
    watcher = Watcher(Workspace.open(workspace))
    watcher.start()
    try:
        settled(watcher)
        new = workspace / "memory" / "2025-12-01.md"
        new.write_text("# 2025-12-01\n")
        assert settled(watcher).keys == {"memory/2025-12-01.md"}
        with (workspace / "MEMORY.md").open("a") as fh:
            fh.write("- more\n")
        assert settled(watcher).keys == {"MEMORY.md", "memory.md"}  # either core name may be the indexed one
        tmp = workspace / "bank" / ".world.md.tmp"  # an editor's save: temp file, then rename over
        tmp.write_text("# World\n")
        os.replace(tmp, workspace / "bank" / "world.md")
        assert settled(watcher).keys == {"bank/world.md"}
        new.unlink()
        assert settled(watcher).keys == {"memory/2025-12-01.md"}
        (workspace / ".memory").mkdir(exist_ok=True)
        (workspace / ".memory" / "x.md").write_text("state")  # hidden: never a change
        (workspace / "memory" / "notes.txt").write_text("not Markdown")
        assert not settled(watcher)
        (workspace / "memory" / "2026").mkdir()  # a new folder: everything is rescanned once
        assert settled(watcher).rescan
    finally:
        watcher.stop()
    assert not watcher.running and watcher.settle() is False


def test_a_marker_posted_as_a_request_arrives_is_the_one_its_search_waits_for(workspace: Path) -> None:
    """The MCP server posts the marker when a tools/call line arrives (Watcher.post): the search's
    settle() waits on that one, writes none of its own, and still sees every edit made before it."""
    watcher = Watcher(Workspace.open(workspace))
    watcher.start()
    try:
        settled(watcher)
        sent = watcher._marker_sent
        (workspace / "memory" / "2025-12-02.md").write_text("# 2025-12-02\n")
        watcher.post()
        assert settled(watcher).keys == {"memory/2025-12-02.md"}
        assert watcher._marker_sent == sent + 1  # the posted marker was the settle's
        # Two requests at once: the second finds the first's marker in flight, or already seen; either
        # way each settle waits on a marker written after its request, and no third is written.
        watcher.post()
        watcher.post()
        (workspace / "memory" / "2025-12-03.md").write_text("# 2025-12-03\n")
        assert watcher.settle(timeout=5)
        assert watcher._marker_sent == sent + 3
        assert settled(watcher).keys == {"memory/2025-12-03.md"}
    finally:
        watcher.stop()


def test_a_marker_still_in_flight_is_waited_for_before_another_is_written(workspace: Path) -> None:
    """A marker whose event has not come (a settle that timed out) is never overtaken: its event
    would read the newer number and release a settle before that settle's own event came."""
    watcher = Watcher(Workspace.open(workspace))
    watcher.start()
    try:
        settled(watcher)
        with watcher._cond:
            watcher._marker_sent += 1  # a marker whose event never comes
        watcher.post()  # not written over it
        assert watcher._posted is None
        assert watcher.settle(timeout=0.3) is False  # the caller then scans everything
    finally:
        watcher.stop()


def test_sync_limited_to_keys_matches_a_full_sync(indexed_workspace: Path) -> None:
    ws = Workspace.open(indexed_workspace)
    mem = Memory(ws)
    (indexed_workspace / "memory" / "2025-12-01.md").write_text("# 2025-12-01\n\n- A note about kumquats.\n")
    (indexed_workspace / "memory" / "2025-11-10.md").unlink()
    (indexed_workspace / "memory" / "notes" / "coffee.md").write_text("# Coffee\n\nNow 19 g in.\n")
    report = sync(ws, mem.store.writer(), only={"memory/2025-12-01.md", "memory/2025-11-10.md", "memory/notes/coffee.md",
                                      "memory/.hidden.md", "../outside.md"})
    assert (report.added, report.changed, report.removed) == (1, 1, 1)
    assert sync(ws, mem.store.writer()).dirty is False  # the full scan finds nothing left to do
    assert list(ws.files_for_keys({"memory/.hidden.md", "../outside.md"})) == []


def test_a_watched_memory_syncs_only_what_changed(indexed_workspace: Path) -> None:
    mem = Memory.open(str(indexed_workspace), NOW)
    mem.start_watching()
    try:
        mem.refresh()  # the first refresh after starting scans everything once
        (indexed_workspace / "memory" / "2025-12-01.md").write_text("# 2025-12-01\n\n- The gnu escaped.\n")
        from workspace_memory.recall.query import RecallRequest

        hits = mem.recall(RecallRequest("gnu", mode="lexical"))["results"]
        assert [h["path"] for h in hits] == ["memory/2025-12-01.md"]
        assert mem.refresh() == []  # nothing changed since: nothing is looked at
    finally:
        mem.stop_watching()


class Lines:
    """The lines a process writes, readable with a timeout."""

    def __init__(self, stream) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [self.queue.put(line) for line in stream], daemon=True).start()

    def wait_for(self, needle: str, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.queue.get(timeout=0.2)
            except queue.Empty:
                continue
            if needle in line:
                return line
        raise AssertionError(f"no line with {needle!r} within {timeout}s")


def chunks_of(root: Path, path: str) -> list[str]:
    with index_db(root) as conn:
        return [r[0] for r in conn.execute("SELECT text FROM chunks WHERE path = ? ORDER BY id", (path,))]


def start_watch(ws: Path) -> tuple[subprocess.Popen, Lines, Lines]:
    proc = subprocess.Popen([memory_executable(), "--workspace", str(ws), "--now", NOW, "watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=clean_env(store_env(ws)))  # the workspace's store (a test may put it on Postgres)
    return proc, Lines(proc.stdout), Lines(proc.stderr)


def test_memory_watch_stops_on_ctrl_c(workspace: Path) -> None:
    proc, _, err = start_watch(workspace)
    err.wait_for("watching")
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 0
    err.wait_for("stopped")


def test_memory_watch_keeps_the_index_fresh(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    proc, out, err = start_watch(ws)
    try:
        err.wait_for("watching")
        note = ws / "memory" / "2025-12-01.md"
        note.write_text("# 2025-12-01\n\n- Planted the walnut tree.\n")
        out.wait_for("indexed 1 added")
        assert chunks_of(ws, "memory/2025-12-01.md") == ["- Planted the walnut tree."]
        with note.open("a") as fh:  # modified in place, twice: one batch, or two on a slow machine
            fh.write("- Watered it.\n")
            fh.flush()
            fh.write("- Mulched it.\n")
        for _ in range(2):  # the batches that carry the two writes, however the debounce cut them
            out.wait_for("indexed 0 added, 1 changed")
            if chunks_of(ws, "memory/2025-12-01.md")[-1] == "- Mulched it.":
                break
        assert chunks_of(ws, "memory/2025-12-01.md")[-2:] == ["- Watered it.", "- Mulched it."]
        tmp = ws / "memory" / ".2025-12-01.md.tmp"
        tmp.write_text("# 2025-12-01\n\n- Replaced the walnut by a chestnut.\n")
        os.replace(tmp, note)
        out.wait_for("indexed 0 added, 1 changed")
        assert chunks_of(ws, "memory/2025-12-01.md") == ["- Replaced the walnut by a chestnut."]
        # other processes work meanwhile
        assert recall_json(ws, "chestnut")["results"][0]["path"] == "memory/2025-12-01.md"
        run_ok(ws, "reflect", "--since", "30d")
        note.unlink()
        out.wait_for(", 1 removed")  # reflect's page writes may come as a batch of their own first
        assert chunks_of(ws, "memory/2025-12-01.md") == []
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
    assert code == 0
    err.wait_for("stopped")


@pytest.mark.parametrize("like_minilm", [False, True])
def test_a_watched_memory_keeps_its_vector_store_current(indexed_workspace: Path, like_minilm: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """After an edit the loaded store is updated in place, and answers as a freshly opened one would.

    `like_minilm`: an embedder that could also load torch (MiniLM has sentence_transformer) but
    does not need to (its ONNX export is there) is followed the same way.
    """
    from workspace_memory.embed.fake import FakeEmbedder
    from workspace_memory.index.sqlite.vectors.live import LiveVectors
    from workspace_memory.recall.query import RecallRequest

    if like_minilm:
        monkeypatch.setattr(FakeEmbedder, "sentence_transformer", lambda self: None, raising=False)
        monkeypatch.setattr(FakeEmbedder, "needs_torch", lambda self: False, raising=False)
    monkeypatch.delenv("MEMORY_EMBED_PROVIDER", raising=False)
    ws = indexed_workspace
    (ws / "memory.toml").write_text('[embedding]\nprovider = "fake"\n')
    mem = Memory.open(str(ws), NOW)
    mem.index()
    mem.start_watching()
    query = RecallRequest("armadillo digging a tunnel", mode="semantic", k=5)
    try:
        mem.recall(query)  # loads the store
        note = ws / "memory" / "2025-12-01.md"
        note.write_text("# 2025-12-01\n\n- The armadillo dug a tunnel under the fence.\n")
        live = mem.recall(query)
        vectors = mem.store.vectors(mem.embedder()[0])
        assert isinstance(vectors._store, LiveVectors) and len(vectors._store.recent) > 0
        assert "memory/2025-12-01.md" in [r["path"] for r in live["results"]]
        fresh = Memory.open(str(ws), NOW)
        assert [r["source"] for r in fresh.recall(query)["results"]] == [r["source"] for r in live["results"]]
        note.unlink()
        assert all(r["path"] != "memory/2025-12-01.md" for r in mem.recall(query)["results"])
        assert isinstance(vectors._store, LiveVectors) and len(vectors._store.recent) == 0
    finally:
        mem.stop_watching()
