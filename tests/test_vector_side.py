"""A cold reader maps its vectors (issue 27, index/sqlite/vectors/int8_copy.py): the int8 copy beside the
HNSW file, scanned and released block by block, and the float32 vectors of a few candidates read
and checked one by one. The answers are the exact search's; nothing is copied into memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from workspace_memory.index.sqlite.vectors import hnsw
from workspace_memory.index.sqlite.vectors import int8_copy as vector_side
from workspace_memory.index.sqlite.vectors.hnsw import VectorStore

DIM = 64


def clustered(rng: np.random.Generator, n: int, dim: int = DIM) -> np.ndarray:
    """Unit vectors in tight clusters: many near-ties, as real embeddings of similar notes have."""
    centres = rng.normal(size=(max(1, n // 50), dim))
    vecs = centres[rng.integers(0, len(centres), n)] + 0.15 * rng.normal(size=(n, dim))
    return (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)


def saved(path: Path, vecs: np.ndarray) -> VectorStore:
    store = VectorStore(path, vecs.shape[1], "test")
    store.upsert(np.arange(len(vecs)) * 2, vecs)  # labels as chunk ids make them: even and odd
    store.save()
    return store


def opened(path: Path, dim: int = DIM, fetch=None) -> VectorStore:
    store = VectorStore(path, dim, "test")
    notices = store.load(fetch or (lambda: pytest.fail("must not rebuild")), check=lambda labels, vectors: True)
    assert notices == []
    return store


def same(found: list[tuple[int, float]], want: list[tuple[int, float]]) -> bool:
    """The same labels in the same order, the same cosines up to float32 rounding (another BLAS path)."""
    return [x for x, _ in found] == [x for x, _ in want] and np.allclose(
        [c for _, c in found], [c for _, c in want], atol=1e-6)


@pytest.fixture
def mapped_from_any_size(monkeypatch):
    monkeypatch.setattr(vector_side, "MAP_FROM_BYTES", 0)
    monkeypatch.setattr(hnsw, "MAPPED_BEFORE_GRAPH", 10**9)  # these tests are about the mapped search


def test_a_process_that_keeps_searching_loads_the_graph(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(vector_side, "MAP_FROM_BYTES", 0)
    rng = np.random.default_rng(5)
    vecs = clustered(rng, 6000)
    saved(tmp_path / "v.hnsw", vecs)
    store = opened(tmp_path / "v.hnsw")
    queries = clustered(rng, hnsw.MAPPED_BEFORE_GRAPH + 2)
    first = [store.search(q, 10) for q in queries[: hnsw.MAPPED_BEFORE_GRAPH]]
    assert store._mapped is not None and store._index is None  # a recall's few searches: the map
    rest = [store.search(q, 10) for q in queries[hnsw.MAPPED_BEFORE_GRAPH :]]
    assert store._mapped is None and store._index is not None and store._n == 6000  # then the graph
    exact = saved(tmp_path / "w.hnsw", vecs)
    for query, found in zip(queries, first + rest, strict=True):
        want = exact._exact(query, 10, None)
        assert len({x for x, _ in found} & {x for x, _ in want}) >= 9  # HNSW: approximate, near exact
    assert store.search(vecs[7], 1) == [(14, pytest.approx(1.0, abs=1e-6))]


def test_a_mapped_store_answers_as_the_exact_search(tmp_path, mapped_from_any_size) -> None:
    rng = np.random.default_rng(27)
    vecs = clustered(rng, 6000)
    exact = saved(tmp_path / "v.hnsw", vecs)
    store = opened(tmp_path / "v.hnsw")
    assert store._mapped is not None and store._vecs.size == 0 and not store._pos  # nothing copied in
    assert len(store) == 6000 and 10 in store and 11 not in store
    for query in [*clustered(rng, 20), *vecs[:5]]:
        for k in (1, 10, 40):
            assert same(store.search(query, k), exact._exact(query, k, None))
        small = set(range(0, 400, 2))  # a filter leaving few rows: scored in float32 directly
        big = set(range(0, 12000, 4))  # one leaving many: through the int8 copy
        for allowed in (small, big):
            rows = np.fromiter((exact._pos[a] for a in allowed), dtype=np.int64)
            assert same(store.search(query, 10, allowed), exact._exact(query, 10, rows))
    np.testing.assert_allclose(store.vectors([8, 4]), exact.vectors([8, 4]), rtol=1e-6)


def test_changes_to_a_mapped_store_are_those_of_a_loaded_one(tmp_path, mapped_from_any_size) -> None:
    rng = np.random.default_rng(3)
    vecs = clustered(rng, 3000)
    saved(tmp_path / "v.hnsw", vecs)
    loaded = VectorStore(tmp_path / "v.hnsw", DIM, "test")
    loaded.load(lambda: pytest.fail("must not rebuild"))
    store = opened(tmp_path / "v.hnsw")
    for s in (store, loaded):
        assert s.delete([0, 2, 4, 999_999]) == 3
    query = vecs[1]
    assert same(store.search(query, 10), loaded.search(query, 10))
    assert sorted(store.labels()) == sorted(loaded.labels())
    new = clustered(rng, 5)
    for s in (store, loaded):
        s.upsert([7001, 7003, 7005, 7007, 7009], new)  # a change: the mapped store copies its vectors out
    assert store._mapped is None
    assert same(store.search(new[0], 10), loaded.search(new[0], 10))
    store.save()
    again = opened(tmp_path / "v.hnsw")
    assert sorted(again.labels()) == sorted(loaded.labels())
    assert same(again.search(new[2], 10), loaded.search(new[2], 10))


def test_a_damaged_vector_is_found_when_read_and_the_store_rebuilt(tmp_path, mapped_from_any_size) -> None:
    rng = np.random.default_rng(5)
    vecs = clustered(rng, 2000)
    exact = saved(tmp_path / "v.hnsw", vecs)
    store = opened(tmp_path / "v.hnsw", fetch=lambda: (np.arange(2000) * 2, vecs.copy()))
    target = store._mapped.positions([100])[0]
    record = int(store._mapped.record[target])
    at = vector_side.RECORDS_AT + record * store._mapped.rows.dtype.itemsize + store._mapped.rows.dtype.fields[
        "vector"][1]
    with open(tmp_path / "v.hnsw", "r+b") as fh:  # bit rot in the vector of label 100, after the map
        fh.seek(at)
        fh.write(b"\x7f" * 16)
    assert same(store.search(vecs[50], 10), exact._exact(vecs[50], 10, None))
    assert store._mapped is None
    assert any("rebuilt" in n and "corrupt" in n for n in store.late_notices), store.late_notices


def test_a_copy_of_another_file_or_a_small_file_is_not_mapped(tmp_path, monkeypatch) -> None:
    rng = np.random.default_rng(9)
    saved(tmp_path / "v.hnsw", clustered(rng, 500))
    assert not vector_side.path_for(tmp_path / "v.hnsw").exists()  # under MAP_FROM_BYTES: no copy
    monkeypatch.setattr(vector_side, "MAP_FROM_BYTES", 0)
    saved(tmp_path / "v.hnsw", clustered(rng, 500))
    assert opened(tmp_path / "v.hnsw")._mapped is not None
    monkeypatch.setattr(vector_side, "MAP_FROM_BYTES", 64 * 2**20)
    assert opened(tmp_path / "v.hnsw")._mapped is None  # a small file is read whole, as before
    monkeypatch.setattr(vector_side, "MAP_FROM_BYTES", 0)
    meta = json.loads((tmp_path / "v.hnsw.json").read_text())
    side = vector_side.path_for(tmp_path / "v.hnsw")
    data = bytearray(side.read_bytes())
    data[24] ^= 0xFF  # the digest of the HNSW file it copies: now another file's
    side.write_bytes(bytes(data))
    assert not vector_side.current(tmp_path / "v.hnsw", DIM, meta["sha256"])
    assert opened(tmp_path / "v.hnsw")._mapped is None


# As the CLI runs (cli/app.py): OpenBLAS on one thread, whose per-thread buffers would be counted too.
CLI_ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
# The child's own peak: VmHWM, of this process's memory only. ru_maxrss would not do: Linux keeps
# it across exec, so a child of a big pytest process starts at its parent's peak.
PEAK = "def peak():\n    return int(next(x for x in open('/proc/self/status') if x.startswith('VmHWM')).split()[1])\n"
CHILD = textwrap.dedent("""
    import json, sys
    import numpy as np
    from workspace_memory.index.sqlite.vectors import hnsw
    from workspace_memory.index.sqlite.vectors import int8_copy as vector_side
    from workspace_memory.index.sqlite.vectors.hnsw import VectorStore
    vector_side.MAP_FROM_BYTES, vector_side.BLOCK = 0, 2048
    before = peak()
    store = VectorStore(sys.argv[1], int(sys.argv[2]), "test")
    assert store.load(lambda: 1 / 0, check=lambda labels, vectors: True) == []
    rng = np.random.default_rng(1)
    for _ in range(3):
        store.search(rng.normal(size=int(sys.argv[2])).astype(np.float32), 10)
    print(json.dumps({"mapped": store._mapped is not None, "grew_kib": peak() - before}))
""")


def test_a_cold_search_keeps_the_vectors_out_of_the_process(tmp_path, mapped_from_any_size) -> None:
    """The process's own peak RSS grows by less than the file (12 MB of vectors, a 14 MB file):
    bound 14 MB, for the int8 block in flight (2,048 rows at a time: 4 MB as float32), the side
    file's labels, scales and checksums, and the scores (11 MB measured). Loading the file whole, as
    before, grows it by the file and its copy (about 28 MB)."""
    dim, n = 512, 6000
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(n, dim)).astype(np.float32)
    saved(tmp_path / "v.hnsw", vecs)
    out = subprocess.run([sys.executable, "-c", PEAK + CHILD, str(tmp_path / "v.hnsw"), str(dim)], capture_output=True,
                         text=True, check=True, env=CLI_ENV).stdout
    child = json.loads(out)
    assert child["mapped"]
    assert child["grew_kib"] < 14 * 1024, child


def test_a_streamed_build_answers_as_a_rebuild(tmp_path, mapped_from_any_size) -> None:
    rng = np.random.default_rng(11)
    vecs = clustered(rng, 3000)
    labels = np.arange(3000) * 2 + 1
    built = VectorStore(tmp_path / "v.hnsw", DIM, "test")
    built.build(3000, ((labels[i : i + 700], vecs[i : i + 700].copy()) for i in range(0, 3000, 700)))
    assert built._mapped is not None and built._vecs.size == 0  # saved, then opened as a reader opens it
    rebuilt = VectorStore(tmp_path / "w.hnsw", DIM, "test")
    rebuilt.rebuild(labels, vecs.copy())
    for query in clustered(rng, 10):
        assert same(built.search(query, 10), rebuilt._exact(query, 10, None))
    assert sorted(opened(tmp_path / "v.hnsw").labels()) == labels.tolist()


BUILD_CHILD = textwrap.dedent("""
    import json, sys
    import numpy as np
    from workspace_memory.index.sqlite.vectors import hnsw
    from workspace_memory.index.sqlite.vectors import int8_copy as vector_side
    from workspace_memory.index.sqlite.vectors.hnsw import VectorStore
    vector_side.MAP_FROM_BYTES = 0  # read back as a big file is: mapped
    dim, n, step = int(sys.argv[2]), int(sys.argv[3]), 500
    def batches():  # made on the fly, as SQLite's rows are read: the whole set never exists
        for start in range(0, n, step):
            rng = np.random.default_rng(start)
            yield np.arange(start, start + step), rng.normal(size=(step, dim)).astype(np.float32)
    before = peak()
    VectorStore(sys.argv[1], dim, "test").build(n, batches())
    print(json.dumps({"grew_kib": peak() - before}))
""")


def test_a_streamed_build_holds_the_vectors_once(tmp_path) -> None:
    """hnswlib's copy (6,000 vectors of 512 dimensions: 12 MB; 21 MB with its graph and lists) and
    one batch, not an exact copy beside it; the int8 copy is made after hnswlib's is freed: the
    build's own peak RSS grows by less than 2.5 x the vectors (28 MB measured). Holding the batches
    (an exact copy, as a rebuild did) grows it by more."""
    dim, n = 512, 6000
    out = subprocess.run([sys.executable, "-c", PEAK + BUILD_CHILD, str(tmp_path / "v.hnsw"), str(dim), str(n)],
                         capture_output=True, text=True, check=True, env=CLI_ENV).stdout
    assert json.loads(out)["grew_kib"] < 2.5 * n * dim * 4 / 1024, out
