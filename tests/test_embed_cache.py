"""Embedding cache: hits and misses, blob format, and indexing that spares the embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import index_db
from workspace_memory.embed.fake import FakeEmbedder
from workspace_memory.index.indexer import sync as index_sync
from workspace_memory.index.rows import text_hash
from workspace_memory.index.sqlite.connection import connect, migrate
from workspace_memory.index.sqlite.vectors.embedding_cache import EmbeddingCache
from workspace_memory.index.sqlite.vectors.sync import embed_missing
from workspace_memory.index.sqlite.writer import SqliteWriter
from workspace_memory.workspace.layout import Workspace


@pytest.fixture
def conn(tmp_path):
    """A migrated index connection (autocommit, WAL), like the store's own."""
    conn = connect(tmp_path / "index.sqlite")
    migrate(conn)
    yield conn
    conn.close()


def test_text_hash_is_truncated_sha256():
    h = text_hash("Peter moved to London.")
    assert len(h) == 32 and int(h, 16) >= 0
    assert text_hash("a") != text_hash("b")


def test_table_shape_and_round_trip(conn):
    cache = EmbeddingCache(conn)
    cols = {r[1]: r[2] for r in conn.execute("PRAGMA table_info(embedding_cache)")}
    assert cols == {"provider": "TEXT", "model": "TEXT", "hash": "TEXT", "dim": "INTEGER", "vector": "BLOB"}
    pks = [r[1] for r in sorted(conn.execute("PRAGMA table_info(embedding_cache)"), key=lambda r: r[5]) if r[5]]
    assert pks == ["provider", "model", "hash"]

    v = np.array([0.6, 0.8, 0.0], dtype=np.float32)
    cache.put_many("fake", "m", {"h1": v})
    blob = conn.execute("SELECT vector FROM embedding_cache").fetchone()[0]
    assert blob == v.astype("<f4").tobytes()  # little-endian float32

    got = cache.get_many("fake", "m", ["h1", "h2"])
    assert set(got) == {"h1"}
    np.testing.assert_array_equal(got["h1"], v)
    assert cache.get_many("fake", "other-model", ["h1"]) == {}
    assert cache.get_many("other", "m", ["h1"]) == {}
    assert cache.get_many("fake", "m", ["h1"], dim=4) == {}  # another length is a miss
    assert cache.count() == 1 and cache.count("fake", "m") == 1 and cache.count("fake", "x") == 0


def test_many_hashes_are_fetched_in_batches(conn):
    cache = EmbeddingCache(conn)
    items = {f"h{i}": np.full(4, i, dtype=np.float32) for i in range(1500)}
    cache.put_many("fake", "m", items)
    got = cache.get_many("fake", "m", list(items) + ["missing"])
    assert len(got) == 1500 and got["h1499"][0] == 1499


def test_put_joins_an_open_transaction_instead_of_committing_it(conn):
    cache = EmbeddingCache(conn)
    conn.execute("BEGIN")
    cache.put_many("fake", "m", {"h": np.ones(2, dtype=np.float32)})
    assert conn.in_transaction
    conn.execute("ROLLBACK")
    assert cache.count() == 0


def sync(ws: Workspace, conn) -> None:
    """The one indexer, writing into this test's SQLite connection."""
    index_sync(ws, SqliteWriter(conn, ws.state_dir))


def _workspace(root: Path) -> Workspace:
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2025-11-27.md").write_text(
        "# 2025-11-27\n\n- alpha beta\n- gamma\n- alpha beta\n- delta\n", encoding="utf-8")
    return Workspace.open(root)


def test_indexing_embeds_only_misses_and_never_twice(tmp_path, conn):
    ws = _workspace(tmp_path / "ws")
    sync(ws, conn)
    emb = FakeEmbedder()
    done, left = embed_missing(conn, emb)
    texts = emb.texts_embedded
    assert (done, left) == (texts, 0) and texts > 0
    # The same texts twice are one cache row each (alone, and after the previous entry).
    assert EmbeddingCache(conn).count("fake") == texts

    again = FakeEmbedder()
    assert embed_missing(conn, again) == (0, 0) and again.calls == 0  # everything came from the cache

    (tmp_path / "ws" / "memory" / "2025-11-27.md").write_text(
        "# 2025-11-27\n\n- alpha beta\n- gamma\n- alpha beta\n- delta\n- epsilon\n", encoding="utf-8")
    sync(ws, conn)
    third = FakeEmbedder()
    embed_missing(conn, third)
    assert third.texts_embedded == 2  # "epsilon" alone, and after "delta"


def test_cached_vectors_of_another_length_are_re_embedded(tmp_path, conn):
    ws = _workspace(tmp_path / "ws")
    sync(ws, conn)
    digest = conn.execute("SELECT text_hash FROM chunks WHERE text LIKE '%gamma%'").fetchone()[0]
    EmbeddingCache(conn).put_many("fake", "hash-trigram", {digest: np.ones(3, dtype=np.float32)})
    emb = FakeEmbedder()
    embed_missing(conn, emb)
    got = EmbeddingCache(conn).get_many("fake", "hash-trigram", [digest])
    assert got[digest].shape == (emb.dim,)


def test_the_label_query_looks_each_chunk_up_in_the_cache(indexed_workspace: Path) -> None:
    """Not the cache scanned outside and every chunk inside it (quadratic: minutes at 100k chunks)."""
    from workspace_memory.index.sqlite.vectors.sync import _LABELED

    with index_db(indexed_workspace) as conn:
        for sql in (_LABELED.format(where=""), _LABELED.format(where="").replace(", e.vector", "")):
            plan = [row[-1] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, ("local", "m", 384))]
            # (SEARCH w: the previous chunk by primary key, to skip entries inside a vector window)
            scans = [step for step in plan if step.startswith(("SCAN", "SEARCH")) and not step.startswith("SEARCH w ")]
            assert scans[0] == "SCAN c" and scans[1].startswith("SEARCH e USING INDEX"), plan


def test_vectors_complete_at_this_generation_are_not_looked_for_again(tmp_path, conn, monkeypatch):
    """A cold recall skips the search for missing vectors while the index says none can be missing."""
    from workspace_memory.index.sqlite.vectors import SqliteVectors
    from workspace_memory.index.sqlite.vectors import sqlite_vectors as vectors
    from workspace_memory.index.sqlite.vectors import sync as vector_sync
    from workspace_memory.index.sqlite.writer import generation

    ws = _workspace(tmp_path / "ws")
    sync(ws, conn)
    emb = FakeEmbedder()
    first = SqliteVectors(conn, ws.state_dir, emb).update()
    assert first.embedded > 0 and first.missing == 0
    assert vector_sync.complete_at(conn, emb) == generation(conn)

    looked = []
    real = vectors.embed_missing
    monkeypatch.setattr(vectors, "embed_missing", lambda *a, **k: looked.append(1) or real(*a, **k))
    again = SqliteVectors(conn, ws.state_dir, FakeEmbedder())  # the next process
    assert again.update(budget=1.0).missing == 0 and looked == []
    query = emb.embed_query("alpha beta")
    assert again.search(query, 3, _no_filters()) == SqliteVectors(conn, ws.state_dir, emb).search(query, 3, _no_filters())

    (tmp_path / "ws" / "memory" / "2025-11-27.md").write_text(
        "# 2025-11-27\n\n- alpha beta\n- gamma\n- omega\n", encoding="utf-8")
    sync(ws, conn)  # a new generation: the new entry must be embedded
    fresh = FakeEmbedder()
    assert SqliteVectors(conn, ws.state_dir, fresh).update(budget=1.0).embedded > 0 and looked == [1]
    assert fresh.texts_embedded > 0 and vector_sync.complete_at(conn, emb) == generation(conn)


def test_completeness_is_not_recorded_when_the_chunks_changed_meanwhile(tmp_path, conn):
    from workspace_memory.index.sqlite.vectors import sync as vector_sync
    from workspace_memory.index.sqlite.writer import generation

    ws = _workspace(tmp_path / "ws")
    sync(ws, conn)
    emb = FakeEmbedder()
    embed_missing(conn, emb)
    seen = generation(conn)
    (tmp_path / "ws" / "memory" / "2025-11-27.md").write_text("# 2025-11-27\n\n- a new line\n", encoding="utf-8")
    sync(ws, conn)  # another process synced between the check and the store
    vector_sync.open_store(conn, ws.state_dir, emb, complete=True, seen=seen)
    assert vector_sync.complete_at(conn, emb) is None


def _no_filters():
    from workspace_memory.index.base import Filters

    return Filters()
