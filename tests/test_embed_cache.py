"""Embedding cache: hits and misses, blob format, and `embed_texts` sparing the embedder."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
import sqlite_utils

from workspace_memory.embed import embed_texts
from workspace_memory.embed.fake import FakeEmbedder
from workspace_memory.index.sqlite.embedding_cache import EmbeddingCache, text_hash


@pytest.fixture
def db(tmp_path):
    # Autocommit, like the index's own connections (index/store.py).
    conn = sqlite3.connect(str(tmp_path / "index.sqlite"), isolation_level=None)
    yield sqlite_utils.Database(conn)
    conn.close()


def test_text_hash_is_truncated_sha256_and_matches_the_index_rows():
    from workspace_memory.index.rows import text_hash as rows_text_hash

    h = text_hash("Peter moved to London.")
    assert len(h) == 32 and int(h, 16) >= 0
    assert h == rows_text_hash("Peter moved to London.")
    assert text_hash("a") != text_hash("b")


def test_table_shape_and_round_trip(db):
    cache = EmbeddingCache(db)
    EmbeddingCache(db)  # idempotent
    cols = {c.name: c.type for c in db["embedding_cache"].columns}
    assert cols == {"provider": "TEXT", "model": "TEXT", "hash": "TEXT", "dim": "INTEGER", "vector": "BLOB"}
    assert db["embedding_cache"].pks == ["provider", "model", "hash"]

    v = np.array([0.6, 0.8, 0.0], dtype=np.float32)
    cache.put_many("fake", "m", {"h1": v})
    blob = db.execute("SELECT vector FROM embedding_cache").fetchone()[0]
    assert blob == v.astype("<f4").tobytes()  # little-endian float32

    got = cache.get_many("fake", "m", ["h1", "h2"])
    assert set(got) == {"h1"}
    np.testing.assert_array_equal(got["h1"], v)
    assert cache.get_many("fake", "other-model", ["h1"]) == {}
    assert cache.get_many("other", "m", ["h1"]) == {}
    assert cache.get_many("fake", "m", ["h1"], dim=4) == {}  # another length is a miss
    assert cache.count() == 1 and cache.count("fake", "m") == 1 and cache.count("fake", "x") == 0


def test_many_hashes_are_fetched_in_chunks(db):
    cache = EmbeddingCache(db)
    items = {f"h{i}": np.full(4, i, dtype=np.float32) for i in range(1500)}
    cache.put_many("fake", "m", items)
    got = cache.get_many("fake", "m", list(items) + ["missing"])
    assert len(got) == 1500 and got["h1499"][0] == 1499


def test_put_joins_an_open_transaction_instead_of_committing_it(db):
    cache = EmbeddingCache(db)
    db.conn.execute("BEGIN")
    cache.put_many("fake", "m", {"h": np.ones(2, dtype=np.float32)})
    assert db.conn.in_transaction
    db.conn.execute("ROLLBACK")
    assert cache.count() == 0


def test_embed_texts_embeds_only_misses_and_never_twice(db):
    emb, cache = FakeEmbedder(), EmbeddingCache(db)
    texts = ["alpha beta", "gamma", "alpha beta", "delta"]
    first = embed_texts(emb, cache, texts)
    assert first.shape == (4, 64) and first.dtype == np.float32
    assert (emb.calls, emb.texts_embedded) == (1, 3)  # the duplicate is embedded once
    np.testing.assert_array_equal(first[0], first[2])
    np.testing.assert_array_equal(first, emb.embed_documents(texts))

    emb2 = FakeEmbedder()
    second = embed_texts(emb2, cache, texts)
    assert emb2.calls == 0  # everything came from the cache
    np.testing.assert_array_equal(first, second)

    third = embed_texts(emb2, cache, ["gamma", "epsilon"])
    assert (emb2.calls, emb2.texts_embedded) == (1, 1)
    np.testing.assert_array_equal(third[0], first[1])


def test_embed_texts_without_cache_and_with_nothing(db):
    emb = FakeEmbedder()
    assert embed_texts(emb, None, []).shape == (0, 64)
    assert embed_texts(emb, None, ["x", "y"]).shape == (2, 64)
    assert emb.calls == 1


def test_cached_vectors_of_another_length_are_re_embedded(db):
    cache = EmbeddingCache(db)
    cache.put_many("fake", "hash-trigram", {text_hash("old"): np.ones(3, dtype=np.float32)})
    emb = FakeEmbedder()
    out = embed_texts(emb, cache, ["old", "new"])
    assert out.shape == (2, 64)
    assert emb.texts_embedded == 2
    assert cache.get_many("fake", "hash-trigram", [text_hash("old")])[text_hash("old")].shape == (64,)
