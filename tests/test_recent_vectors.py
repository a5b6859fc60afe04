"""The recent file (index/sqlite/recent_file.py): a small edit's vectors go beside the HNSW file
instead of into it, and whatever the files hold, a new process's vector store equals SQLite's
vectors (the deterministic fake provider; each test opens the store as a new process would)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pytest

import recall_ws as R
from workspace_memory.api import Memory
from workspace_memory.index.sqlite.vectors import recent_file
from workspace_memory.index.sqlite.vectors import sync as vector_sync


@pytest.fixture(autouse=True)
def _library_only(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith("MEMORY_") and key != "MEMORY_CACHE_DIR":
            monkeypatch.delenv(key)


def index(ws: Path) -> None:
    mem = Memory.open(str(ws), R.NOW)
    try:
        mem.index()
    finally:
        mem.close()


def vector_files(ws: Path) -> tuple[Path, Path]:
    (hnsw,) = sorted((ws / ".memory" / "vectors").glob("*.hnsw"))
    return hnsw, recent_file.path_for(hnsw)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_store_matches_sqlite(ws: Path) -> int:
    """Open the vector store as a new process would: its labels and vectors are SQLite's. Returns the count."""
    mem = Memory.open(str(ws), R.NOW)
    try:
        embedder = mem.embedder()[0]
        store = mem.store.vectors(embedder)._opened()
        labels, vectors = vector_sync._all_vectors(mem.store.conn, embedder)
        held = store.labels()
        assert sorted(held.tolist()) == sorted(labels.tolist())
        want = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        for label, vector in zip(labels.tolist(), want, strict=True):
            assert np.allclose(store.vectors([label])[0], vector, atol=1e-6), label
        return len(labels)
    finally:
        mem.close()


def edit(ws: Path, name: str, old: str, new: str) -> None:
    day = ws / "memory" / name
    text = day.read_text(encoding="utf-8")
    assert old in text
    day.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = R.build(tmp_path / "ws", toml=R.FAKE_TOML)
    index(root)
    return root


def test_a_small_edit_goes_to_the_recent_file_and_the_hnsw_file_stays(ws: Path) -> None:
    hnsw, recent = vector_files(ws)
    before = digest(hnsw)
    assert not recent.exists()
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    index(ws)
    assert digest(hnsw) == before, "the HNSW file is neither rewritten nor replaced"
    assert recent.exists()
    assert_store_matches_sqlite(ws)
    answer = R.recall(ws, "I paired with Mara on the invoice PDF watermark", "--explain", mode="semantic",
                      env={"MEMORY_EMBED_PROVIDER": None})
    assert answer["notices"] == []
    top = answer["results"][0]
    assert "watermark" in top["content"] and top["explain"]["channels"]["cosine"] > 0.8


def test_edits_add_up_and_a_new_process_sees_sqlites_vectors(ws: Path) -> None:
    hnsw, recent = vector_files(ws)
    before = digest(hnsw)
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    index(ws)
    edit(ws, "2025-12-02.md", "invoice PDF watermark", "invoice PDF margins")  # replaces what the file added
    index(ws)
    (ws / "memory" / "2025-12-09.md").write_text("# 2025-12-09\n\n- Tried the new espresso grinder.\n",
                                                 encoding="utf-8")
    index(ws)
    removed = sorted((ws / "memory").glob("2025-11-*.md"))[0]
    removed.unlink()
    index(ws)
    assert digest(hnsw) == before and recent.exists()
    count = assert_store_matches_sqlite(ws)
    assert count > 20
    kept = recent_file.read(recent, *_dim_identity(ws))
    assert kept is not None and len(kept.labels) and len(kept.deleted)


def _dim_identity(ws: Path) -> tuple[int, str]:
    mem = Memory.open(str(ws), R.NOW)
    try:
        embedder = mem.embedder()[0]
        return embedder.dim, embedder.identity()
    finally:
        mem.close()


def test_a_change_past_the_limit_is_folded_into_the_hnsw_file(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hnsw, recent = vector_files(ws)
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    index(ws)
    assert recent.exists()
    before = digest(hnsw)
    monkeypatch.setattr(recent_file, "LIMIT", 3)
    edit(ws, "2025-12-02.md", "invoice PDF watermark", "invoice PDF margins")
    index(ws)
    assert digest(hnsw) != before, "folded: the HNSW file holds the change"
    assert not recent.exists()
    mem = Memory.open(str(ws), R.NOW)
    try:
        keys = [k for (k,) in mem.store.conn.execute("SELECT key FROM meta WHERE key LIKE 'vectors:%'")]
    finally:
        mem.close()
    assert keys and not any(k.endswith(vector_sync.RECENT_KEY) for k in keys)
    assert_store_matches_sqlite(ws)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "another base", "another model", "gone"])
def test_a_recent_file_that_cannot_be_used_is_not_used(ws: Path, damage: str) -> None:
    hnsw, recent = vector_files(ws)
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    index(ws)
    data = recent.read_bytes()
    head, _, payload = data.partition(b"\n")
    if damage == "garbage":
        recent.write_bytes(b"\x00garbage" * 50)
    elif damage == "truncated":
        recent.write_bytes(data[: len(data) - 7])
    elif damage == "another base":
        recent.write_bytes(head.replace(b'"base": "', b'"base": "0') + b"\n" + payload)
    elif damage == "another model":
        recent.write_bytes(head.replace(b'"identity": "', b'"identity": "x') + b"\n" + payload)
    else:
        recent.unlink()
    notices = R.recall(ws, "invoice PDF watermark", mode="semantic", env={"MEMORY_EMBED_PROVIDER": None})["notices"]
    assert notices == ([] if damage == "gone" else
                       ["recent vector file not used (damaged, or for another vector file); its vectors come from SQLite"])
    assert_store_matches_sqlite(ws)  # what the files lacked came from SQLite
    edit(ws, "2025-12-02.md", "invoice PDF watermark", "invoice PDF margins")
    index(ws)  # a writer: never builds on the unusable file
    assert_store_matches_sqlite(ws)
    assert hnsw.exists()


def test_changed_keeps_added_vectors_and_deleted_labels_apart() -> None:
    dim = 2
    first = recent_file.changed(None, "base", 5, dim, np.array([10, 11]), np.ones((2, dim)), [2, 3])
    assert first.labels.tolist() == [10, 11] and first.deleted.tolist() == [2, 3] and first.generation == 5
    second = recent_file.changed(first, "base", 6, dim, np.array([12]), np.full((1, dim), 2.0), [11, 4])
    assert second.labels.tolist() == [10, 12], "a removed label that was added since leaves the added ones"
    assert second.deleted.tolist() == [2, 3, 4], "and is not recorded as deleted from the HNSW file"
    assert second.vectors.tolist() == [[1.0, 1.0], [2.0, 2.0]]
    replaced = recent_file.changed(second, "base", 7, dim, np.array([10]), np.full((1, dim), 3.0), [])
    assert replaced.labels.tolist() == [12, 10] and replaced.vectors.tolist() == [[2.0, 2.0], [3.0, 3.0]]


def test_the_recent_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "v.hnsw.recent"
    recent = recent_file.Recent(np.array([4, 9]), np.arange(6, dtype=np.float32).reshape(2, 3), np.array([1]),
                                "abc", 12)
    recent_file.write(path, recent, 3, "fake/x")
    back = recent_file.read(path, 3, "fake/x")
    assert back is not None
    assert (back.labels.tolist(), back.deleted.tolist(), back.base, back.generation) == ([4, 9], [1], "abc", 12)
    assert back.vectors.tolist() == recent.vectors.tolist()
    assert recent_file.read(path, 4, "fake/x") is None and recent_file.read(path, 3, "fake/y") is None
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_recent_file_left_over_from_before_a_fold_is_not_used(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that died between saving the HNSW file and forgetting the recent file leaves a recent
    file (and its meta mark) that extends the old HNSW file: it must not be laid over the new one."""
    hnsw, recent = vector_files(ws)
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    index(ws)
    old_file = recent.read_bytes()
    mem = Memory.open(str(ws), R.NOW)
    try:
        (mark,) = mem.store.conn.execute("SELECT key, value FROM meta WHERE key LIKE ?",
                                         ("%" + vector_sync.RECENT_KEY,)).fetchall()
    finally:
        mem.close()
    monkeypatch.setattr(recent_file, "LIMIT", 3)
    edit(ws, "2025-12-02.md", "invoice PDF watermark", "invoice PDF margins")  # the watermark entry goes
    index(ws)
    assert not recent.exists()
    recent.write_bytes(old_file)  # as the dead writer left them
    mem = Memory.open(str(ws), R.NOW)
    try:
        mem.store.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", mark)
    finally:
        mem.close()
    assert_store_matches_sqlite(ws)


@pytest.mark.parametrize("damage", ["none", "garbage"])
def test_a_reader_without_the_lock_lays_the_changes_over_in_memory(ws: Path, damage: str) -> None:
    """A recall that cannot take the writer lock reads the HNSW and recent files, then applies what the
    chunks changed since, in memory; it writes nothing."""
    import fcntl

    hnsw, recent = vector_files(ws)
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    index(ws)
    edit(ws, "2025-12-02.md", "invoice PDF watermark", "invoice PDF margins")
    mem = Memory.open(str(ws), R.NOW)
    try:
        mem.refresh()  # a read's sync: the chunks change, the vector files do not
        embedder = mem.embedder()[0]
        mem.store.vectors(embedder).embed_new()  # the cache has the new texts' vectors
    finally:
        mem.close()
    if damage == "garbage":
        recent.write_bytes(b"\x00garbage" * 50)
    files = {p: p.read_bytes() for p in (hnsw, recent)}
    with open(ws / ".memory" / "index.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            assert_store_matches_sqlite(ws)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    assert {p: p.read_bytes() for p in (hnsw, recent)} == files, "a reader writes no vector file"


def _base_store(ws: Path):  # hnsw.VectorStore
    mem = Memory.open(str(ws), R.NOW)
    try:
        store = mem.store.vectors(mem.embedder()[0])._opened()
        return getattr(store, "base", store)
    finally:
        mem.close()


def test_a_new_process_reads_the_vectors_and_leaves_the_graph_on_disk(ws: Path) -> None:
    base = _base_store(ws)
    assert base._index is None and base._graph_on_disk and len(base) > 20


def test_vectors_that_are_not_sqlites_make_the_store_load_the_graph_and_check_it(ws: Path) -> None:
    """The layout check compares a sample with SQLite's vectors; on a mismatch the store loads
    hnswlib's graph and checks the file against it, as it always did."""
    mem = Memory.open(str(ws), R.NOW)
    try:
        rows = mem.store.conn.execute("SELECT rowid, vector FROM embedding_cache").fetchall()
        for rowid, blob in rows:
            flipped = (-np.frombuffer(blob, dtype="<f4")).astype("<f4").tobytes()
            mem.store.conn.execute("UPDATE embedding_cache SET vector = ? WHERE rowid = ?", (flipped, rowid))
    finally:
        mem.close()
    base = _base_store(ws)
    assert base._index is not None and not base._graph_on_disk


def test_a_long_lived_process_loads_the_graph_at_its_warm_up(ws: Path) -> None:
    """`Memory.warm_up` (the MCP server at start) leaves the store ready, graph included, where a
    recall alone leaves the graph on disk."""
    from workspace_memory.recall.query import RecallRequest

    mem = Memory.open(str(ws), R.NOW)
    try:
        mem.recall(RecallRequest("invoice PDF layout", mode="hybrid"))
        vectors = mem.store.vectors(mem.embedder()[0])
        base = getattr(vectors._store, "base", vectors._store)
        assert base._index is None
        base.exact_threshold = 10  # as if it were large enough for its searches to use the graph
        mem.warm_up()
        assert getattr(vectors._store, "base", vectors._store) is base and base._index is not None
    finally:
        mem.close()
