"""VectorStore: search, upsert/delete, persistence, automatic rebuilds, filters, HNSW recall."""

from __future__ import annotations

import json

import numpy as np
import pytest

from workspace_memory.index.sqlite.vectors.hnsw import EXACT_THRESHOLD, HNSW_EF_SEARCH, VectorStore

DIM = 16


def unit(rng: np.random.Generator, n: int, dim: int = DIM) -> np.ndarray:
    x = rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(7)


def brute(vecs: np.ndarray, labels: np.ndarray, q: np.ndarray, k: int) -> list[int]:
    return [int(labels[i]) for i in np.argsort(-(vecs @ q), kind="stable")[:k]]


def test_graph_is_built_only_when_needed(tmp_path, rng):
    store = VectorStore(tmp_path / "v.hnsw", DIM)
    store.upsert(np.arange(10), unit(rng, 10))
    store.search(unit(rng, 1)[0], 3)
    assert store._index is None  # small store: exact search, no graph
    store.save()
    assert store._index is not None


def test_add_search_returns_cosine_best_first(tmp_path, rng):
    store = VectorStore(tmp_path / "v.hnsw", DIM, "fake/x/16")
    vecs = unit(rng, 50)
    labels = np.arange(100, 150)
    store.upsert(labels, vecs * 3.0)  # scaled input is normalised on the way in
    assert len(store) == 50 and 120 in store and 99 not in store
    hits = store.search(vecs[7], 5)
    assert hits[0][0] == 107 and hits[0][1] == pytest.approx(1.0, abs=1e-5) and hits[0][1] <= 1.0
    assert [h[0] for h in hits] == brute(vecs, labels, vecs[7], 5)
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True)
    assert store.search(vecs[0], 0) == []
    assert len(store.search(vecs[0], 500)) == 50


def test_upsert_replaces_and_delete_removes(tmp_path, rng):
    store = VectorStore(tmp_path / "v.hnsw", DIM)
    vecs = unit(rng, 20)
    store.upsert(np.arange(20), vecs)
    store.upsert([3], vecs[10:11])  # label 3 now looks like label 10
    assert len(store) == 20
    assert {label for label, _ in store.search(vecs[10], 2)} == {3, 10}
    assert store.delete([3, 5, 999]) == 2
    assert len(store) == 18 and 3 not in store
    assert 3 not in [label for label, _ in store.search(vecs[10], 20)]
    assert 5 not in [label for label, _ in store.search(vecs[5], 20)]
    # Re-adding a deleted label revives it with the new vector.
    store.upsert([5], vecs[0:1])
    assert {label for label, _ in store.search(vecs[0], 2)} == {0, 5}
    # Repeats within one call: the last vector wins.
    store.upsert([7, 7], vecs[1:3])
    assert store.search(vecs[2], 1)[0][0] in {2, 7}
    assert {label for label, _ in store.search(vecs[2], 2)} == {2, 7}


def test_hnsw_path_handles_deletes_reuse_and_growth(tmp_path, rng):
    store = VectorStore(tmp_path / "v.hnsw", DIM, exact_threshold=0)  # force HNSW
    vecs = unit(rng, 3000)
    store.upsert(np.arange(1500), vecs[:1500])
    assert store.search(vecs[0], 1)[0][0] == 0  # builds the graph; what follows maintains it
    store.delete(np.arange(0, 1500, 2))
    store.upsert(np.arange(1500, 3000), vecs[1500:])  # fills deleted slots, then grows past 1024*2
    store.upsert([4], vecs[4:5])  # a deleted label whose slot may have been reused
    assert len(store) == 750 + 1500 + 1
    for probe in (1, 4, 2999, 1501):
        assert store.search(vecs[probe], 1)[0][0] == probe
    assert store.search(vecs[2], 1)[0][0] != 2
    store.save()
    again = VectorStore(tmp_path / "v.hnsw", DIM, exact_threshold=0)
    assert again.load(lambda: pytest.fail("must not rebuild")) == []
    assert len(again) == len(store) and sorted(again.labels()) == sorted(store.labels())
    assert again.search(vecs[2999], 1)[0][0] == 2999


def test_persistence_round_trip(tmp_path, rng):
    path = tmp_path / "state" / "vectors.hnsw"
    store = VectorStore(path, DIM, "fake/x/16")
    vecs = unit(rng, 100)
    store.upsert(np.arange(100), vecs)
    store.delete([10, 11])
    store.save()
    assert path.is_file() and (tmp_path / "state" / "vectors.hnsw.json").is_file()
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    meta = json.loads((tmp_path / "state" / "vectors.hnsw.json").read_text())
    # Deleted before the graph existed: the graph was built from live vectors only.
    assert (meta["dim"], meta["count"], meta["identity"], meta["deleted"]) == (DIM, 98, "fake/x/16", [])

    loaded = VectorStore(path, DIM, "fake/x/16")
    assert loaded.load(lambda: pytest.fail("must not rebuild")) == []
    assert len(loaded) == 98 and 10 not in loaded and 12 in loaded
    for q in vecs[:5]:
        got, want = loaded.search(q, 5), store.search(q, 5)
        assert [label for label, _ in got] == [label for label, _ in want]
        assert [s for _, s in got] == pytest.approx([s for _, s in want])
    # A loaded store keeps working: grow it, delete from it, save, and load again.
    loaded.upsert([200, 12], unit(rng, 2))
    loaded.delete([13])
    loaded.save()
    assert json.loads((tmp_path / "state" / "vectors.hnsw.json").read_text())["deleted"] == [13]
    again = VectorStore(path, DIM, "fake/x/16")
    assert again.load(lambda: pytest.fail("must not rebuild")) == []
    assert len(again) == 98 and 200 in again and 13 not in again and 10 not in again


def test_loading_falls_back_when_the_file_layout_is_unexpected(tmp_path, rng, monkeypatch):
    import workspace_memory.index.sqlite.vectors.hnsw_file as vectors

    path = tmp_path / "v.hnsw"
    store = VectorStore(path, DIM)
    vecs = unit(rng, 40)
    store.upsert(np.arange(40), vecs)
    store.save()
    store.delete([0, 39])  # deleted in the graph: flagged in the file
    store.save()
    fast = VectorStore(path, DIM)
    fast.load(lambda: pytest.fail("must not rebuild"))

    def unknown_layout(data, dim):
        raise ValueError("layout mismatch")

    monkeypatch.setattr(vectors, "parse_level0", unknown_layout)
    slow = VectorStore(path, DIM)
    assert slow.load(lambda: pytest.fail("must not rebuild")) == []
    assert sorted(slow.labels()) == sorted(fast.labels()) == list(range(1, 39))
    for label in (1, 20, 38):
        np.testing.assert_array_equal(slow._vecs[slow._pos[label]], fast._vecs[fast._pos[label]])
        np.testing.assert_allclose(fast._vecs[fast._pos[label]], vecs[label], rtol=1e-6)


def sqlite_like(rng, n=30):
    labels, vecs = np.arange(n, dtype=np.int64), unit(rng, n)
    return labels, vecs, lambda: (labels, vecs)


def test_missing_file_is_rebuilt_with_a_notice(tmp_path, rng):
    labels, vecs, fetch = sqlite_like(rng)
    path = tmp_path / "v.hnsw"
    reader = VectorStore(path, DIM, "id")
    assert reader.load(fetch) == ["vector index rebuilt from SQLite (file missing)"]
    assert len(reader) == 30 and reader.search(vecs[3], 1)[0][0] == 3
    assert not path.exists()  # readers do not write by default
    store = VectorStore(path, DIM, "id")
    assert store.load(fetch, persist=True) == ["vector index rebuilt from SQLite (file missing)"]
    assert path.is_file()
    assert VectorStore(path, DIM, "id").load(lambda: pytest.fail("must not rebuild")) == []
    path.unlink()
    assert VectorStore(path, DIM, "id").load(fetch) == ["vector index rebuilt from SQLite (file missing)"]


def test_first_build_of_an_empty_store_is_silent(tmp_path):
    store = VectorStore(tmp_path / "v.hnsw", DIM)
    empty = (np.zeros(0, np.int64), np.zeros((0, DIM), np.float32))
    assert store.load(lambda: empty) == []
    assert len(store) == 0 and store.search(np.ones(DIM), 3) == []
    store.save()
    assert VectorStore(tmp_path / "v.hnsw", DIM).load(lambda: pytest.fail("must not rebuild")) == []


@pytest.mark.parametrize("damage", ["garbage", "truncate", "flip", "sidecar"])
def test_corrupt_file_is_rebuilt_not_an_error(tmp_path, rng, damage):
    labels, vecs, fetch = sqlite_like(rng)
    path = tmp_path / "v.hnsw"
    store = VectorStore(path, DIM, "id")
    store.upsert(labels, vecs)
    store.save()
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"not an index" * 10)
    elif damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flip":  # same size, one byte of vector data changed: only the checksum sees it
        pos = len(data) - 40
        path.write_bytes(data[:pos] + bytes([data[pos] ^ 0xFF]) + data[pos + 1 :])
    else:
        (tmp_path / "v.hnsw.json").write_text("{")
    fresh = VectorStore(path, DIM, "id")
    assert fresh.load(fetch, persist=True) == ["vector index rebuilt from SQLite (file corrupt)"]
    assert len(fresh) == 30 and fresh.search(vecs[9], 1)[0][0] == 9
    assert VectorStore(path, DIM, "id").load(lambda: pytest.fail("must not rebuild")) == []


def test_other_identity_dimension_or_stale_count_rebuilds(tmp_path, rng):
    labels, vecs, fetch = sqlite_like(rng)
    path = tmp_path / "v.hnsw"
    store = VectorStore(path, DIM, "model-a")
    store.upsert(labels[:20], vecs[:20])
    store.save()
    assert VectorStore(path, DIM, "model-b").load(fetch) == [
        "vector index rebuilt from SQLite (embedding model changed)"
    ]
    other_dim = VectorStore(path, 8, "model-a")
    notice = other_dim.load(lambda: (np.arange(2), unit(rng, 2, 8)))
    assert notice == ["vector index rebuilt from SQLite (dimension changed from 16 to 8)"]
    stale = VectorStore(path, DIM, "model-a")
    assert stale.load(fetch, expected_count=30) == [
        "vector index rebuilt from SQLite (stale: 20 vectors in file, 30 in SQLite)"
    ]
    assert len(stale) == 30


def test_allowed_filters_results_on_both_paths(tmp_path, rng):
    vecs = unit(rng, 400)
    labels = np.arange(400)
    allowed = set(range(0, 400, 7)) | {10_000}  # unknown labels are ignored
    for threshold in (EXACT_THRESHOLD, 0, 30):  # exact; HNSW with a filter; exact on a small subset
        store = VectorStore(tmp_path / f"v{threshold}.hnsw", DIM, exact_threshold=threshold)
        store.upsert(labels, vecs)
        hits = store.search(vecs[3], 10, allowed=allowed)
        assert len(hits) == 10 and {label for label, _ in hits} <= allowed
        subset = np.array(sorted(allowed - {10_000}))
        assert [label for label, _ in hits] == brute(vecs[subset], subset, vecs[3], 10)
    assert store.search(vecs[3], 5, allowed=set()) == []
    assert store.search(vecs[3], 5, allowed={10_000}) == []


def test_hnsw_recall_against_exact_on_5k_random_384d_vectors(tmp_path):
    rng = np.random.default_rng(0)
    dim, n, k = 384, 5000, 10
    vecs, queries = unit(rng, n, dim), unit(rng, 50, dim)
    store = VectorStore(tmp_path / "v.hnsw", dim, exact_threshold=0)
    store.upsert(np.arange(n), vecs)
    assert k <= HNSW_EF_SEARCH
    hits = 0
    for q in queries:
        approx = {label for label, _ in store.search(q, k)}
        hits += len(approx & set(brute(vecs, np.arange(n), q, k)))
    assert hits / (k * len(queries)) >= 0.95


def test_bad_shapes_are_value_errors(tmp_path, rng):
    store = VectorStore(tmp_path / "v.hnsw", DIM)
    with pytest.raises(ValueError, match="expected vectors of shape"):
        store.upsert([1, 2], unit(rng, 3))
    with pytest.raises(ValueError, match="non-negative"):
        store.upsert([-1], unit(rng, 1))
    store.upsert([1], unit(rng, 1))
    with pytest.raises(ValueError, match="query has dimension 4"):
        store.search(np.ones(4), 1)



# -- the graph left on disk (load with a layout check) ---------------------------------------------


def _saved(tmp_path, rng, n: int = 400):
    store = VectorStore(tmp_path / "v.hnsw", DIM, "fake/x/16", exact_threshold=50)
    labels, vecs = np.arange(n), unit(rng, n)
    store.upsert(labels, vecs)
    store.delete([3, 4])  # deleted in the file (flagged in the graph, listed in the sidecar)
    store.save()
    return labels, vecs


def _changed(store, rng) -> None:
    """The same changes on any store: deletes, an update in place, a revived label, new labels."""
    store.delete([10, 11, 12])
    store.upsert([20], unit(rng, 1))
    store.upsert([3], unit(rng, 1))  # deleted in the file, live again
    store.upsert(np.arange(1000, 1040), unit(rng, 40))


def _loaded(tmp_path, check):
    store = VectorStore(tmp_path / "v.hnsw", DIM, "fake/x/16", exact_threshold=50)
    assert store.load(lambda: (np.zeros(0, np.int64), np.zeros((0, DIM), np.float32)), check=check) == []
    return store


def test_a_checked_load_leaves_the_graph_on_disk_until_searches_need_it(tmp_path, rng):
    _saved(tmp_path, rng)
    store = _loaded(tmp_path, lambda labels, vectors: True)
    assert store._index is None and len(store) == 398 and 3 not in store
    queries = unit(rng, 5)
    for q in queries[:3]:
        store.search(q, 5)
        assert store._index is None, "the first searches are exact"
    store.search(queries[3], 5)
    assert store._index is not None, "then the graph is loaded from the file"


def test_changes_made_before_the_graph_is_loaded_reach_it(tmp_path, rng):
    _saved(tmp_path, rng)
    seed = rng.integers(1 << 30)
    eager = _loaded(tmp_path, None)
    lazy = _loaded(tmp_path, lambda labels, vectors: True)
    assert eager._index is not None and lazy._index is None
    _changed(eager, np.random.default_rng(seed))
    _changed(lazy, np.random.default_rng(seed))
    assert sorted(lazy.labels().tolist()) == sorted(eager.labels().tolist())
    queries = unit(rng, 20)
    lazy._exact_searches = 3  # past the exact searches: the graph comes from the file, with the changes
    for q in queries:
        assert lazy.search(q, 8) == eager.search(q, 8)
    assert lazy._index is not None
    assert sorted(lazy._index.get_ids_list()) == sorted(eager._index.get_ids_list())
    assert lazy._deleted == eager._deleted
    lazy.save()  # and what is saved reloads as the same store
    again = _loaded(tmp_path, None)
    assert sorted(again.labels().tolist()) == sorted(eager.labels().tolist())
    for q in queries[:5]:
        assert again.search(q, 8) == eager.search(q, 8)


def test_a_file_replaced_since_the_vectors_were_read_is_not_used_for_the_graph(tmp_path, rng):
    labels, vecs = _saved(tmp_path, rng)
    lazy = _loaded(tmp_path, lambda labels, vectors: True)
    other = VectorStore(tmp_path / "v.hnsw", DIM, "fake/x/16", exact_threshold=50)
    other.upsert(np.arange(5000, 5100), unit(rng, 100))
    other.save()  # another writer's file now
    lazy._exact_searches = 3
    hits = lazy.search(vecs[100], 3)
    assert hits[0][0] == 100, "the graph was built from the vectors this store holds"
    assert set(lazy._index.get_ids_list()) == set(lazy.labels().tolist())


def test_a_failed_layout_check_loads_the_graph_as_before(tmp_path, rng):
    _saved(tmp_path, rng)
    asked = []
    store = _loaded(tmp_path, lambda labels, vectors: asked.append(len(labels)) or False)
    assert asked and store._index is not None and len(store) == 398
