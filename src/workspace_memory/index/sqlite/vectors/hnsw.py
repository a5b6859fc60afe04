"""The vector index: hnswlib on disk, an exact numpy copy in memory, SQLite as the source of truth.

The HNSW file is a cache. Every vector also lives in SQLite, so a missing, corrupt, stale or
foreign file (another model, another dimension) is rebuilt from there with a notice, never
reported as an error. The file is written atomically (temp + rename) next to a small JSON sidecar
holding its dimension, count, embedding identity, size and checksum; a crash between the two
renames leaves a checksum mismatch, which is just another rebuild.

Search is exact (one matrix-vector product) below `EXACT_THRESHOLD` vectors, or when a filter
leaves fewer candidates than that: below that size exact search is both faster and perfect.
Vectors are stored L2-normalised with the inner-product metric, so scores are cosine similarities.
The HNSW graph is built only when something needs it (a search above the threshold, or `save`):
building costs seconds, and a recall that rebuilt a small store from SQLite never needs it.

hnswlib details this module relies on (0.8): a deleted label cannot be re-added while
`allow_replace_deleted` is on unless it is first unmarked; `add_items(..., replace_deleted=True)`
reuses deleted slots for new labels; `get_ids_list()` lists deleted labels too, so the sidecar
records which labels are deleted.

Not thread-safe; one writer process (the indexer) saves, readers only load.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import hnswlib
import numpy as np

from ....embed.base import l2_normalize, normalize_rows
from . import int8_copy
from .currency import CURRENT, MAP, MISSING, REBUILD, WRITE, decide, hnsw_state
from .hnsw_file import SIDECAR_FORMAT, SPOT_CHECKS, file_digest, live_vectors, parse_level0

# Measured on this 2-core machine, one query at a time, OpenBLAS on one thread (2026-12-01): exact
# 0.75 / 3.5 / 5.8 / 27 ms at 5k / 14k / 20k / 100k x 512; HNSW (M=32, ef=200) about 0.8 ms at 5k
# and 1.0 ms at 14k, the same top 10. The matrix-vector product is bound by memory bandwidth: HNSW wins from about 5,000 vectors.
# (With OpenBLAS' default threads the product took 7-8 ms from 10,000 vectors on: waking the
# threads costs more than the work, so the CLI runs BLAS on one thread.)
EXACT_THRESHOLD = 5_000

# HNSW parameters. Measured recall@10 against exact search on 5k random unit vectors of dim 384
# (the hardest case: real embeddings have far lower intrinsic dimension), at ef=200:
#   M=16: 0.88   M=24: 0.97   M=32, ef_construction=100: 0.98   M=32, ef_construction=200: 0.99
# ef_construction=200 builds ~50% slower for +0.01; M=32 costs 256 bytes per vector in the graph,
# next to the 1.5 KB vector itself. ef=100 would halve query time but drops recall to 0.90.
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 100
HNSW_EF_SEARCH = 200  # raised to k when k is larger: hnswlib needs ef >= k to return k results
_INITIAL_CAPACITY = 1024
# A store loaded with a layout check reads its vectors from the file but leaves hnswlib's graph on
# disk until a search needs it: a recall process makes one or two searches, and exact search over
# 12,000 vectors (3.5 ms; 270 ms at a million) costs far less than loading the graph (about 50 ms;
# seconds at a million). The first few searches are exact; then the graph is loaded.
EXACT_BEFORE_GRAPH = 3
# A mapped store's int8 scan suits a recall process (1-2 searches), not a loop (55 ms a search at
# 100k, the graph 1-2 ms): after this many, the graph is loaded (the MCP server's warm-up does it).
MAPPED_BEFORE_GRAPH = 8

FetchAll = Callable[[], tuple[np.ndarray, np.ndarray]]
# (at most how many vectors, their (labels, vectors) batches): a rebuild streamed from SQLite.
StreamAll = Callable[[], tuple[int, Iterable[tuple[np.ndarray, np.ndarray]]]]
# Given some (labels, vectors) read from the file, whether they are the stored ones (sync
# compares them with SQLite's); it stands in for the layout check against hnswlib's own vectors.
LayoutCheck = Callable[[np.ndarray, np.ndarray], bool]


class VectorStore:
    """A persisted HNSW index of (int64 label -> unit vector), with exact search for small sets."""

    def __init__(
        self, path: Path, dim: int, identity: str = "", *, exact_threshold: int = EXACT_THRESHOLD
    ) -> None:
        """`path` is the HNSW file (e.g. `.memory/vectors.hnsw`); its sidecar is `<path>.json`.

        `identity` is the embedder's identity: a file written for another one is rebuilt.
        """
        self.path = Path(path)
        self.meta_path = self.path.with_name(self.path.name + ".json")
        self.dim = int(dim)
        self.identity = identity
        self.exact_threshold = exact_threshold
        self._index: Any = None  # hnswlib.Index, built from the exact copy when first needed
        # The exact-search copy: rows [0, _n) of _vecs are live, _labels[i] is row i's label.
        self._vecs = np.zeros((0, self.dim), dtype=np.float32)
        self._labels = np.zeros(0, dtype=np.int64)
        self._pos: dict[int, int] = {}
        self._n = 0
        # Labels deleted and not re-added. Some still occupy a (deleted) HNSW slot, some had their
        # slot reused; either way they are not live, and the sidecar needs them to say so.
        self._deleted: set[int] = set()
        self.digest: str | None = None  # the sha256 of the file this content was loaded from or saved to
        # Loaded without its graph: the file (self.digest) holds it, and what changed since.
        self._graph_on_disk = False
        self._gone_since_file: set[int] = set()
        self._put_since_file: set[int] = set()
        self._exact_searches = 0
        self._mapped_searches = 0
        # A reader's store, mapped (int8_copy): searched through the int8 copy until something
        # needs the vectors in memory (a change, the graph, a save), which copies them out then.
        self._mapped: int8_copy.MappedVectors | None = None
        self._fetch_all: FetchAll | None = None
        self.late_notices: list[str] = []  # what a search that found the mapped file damaged did
        self.rebuilt = False  # the last load rebuilt the content from SQLite (currency.REBUILD)

    def __len__(self) -> int:
        return len(self._mapped) if self._mapped is not None else self._n

    def __contains__(self, label: object) -> bool:
        if not isinstance(label, int | np.integer):
            return False
        return self._mapped.contains(int(label)) if self._mapped is not None else int(label) in self._pos

    def labels(self) -> np.ndarray:
        """The live labels (a copy), in no particular order."""
        return self._mapped.labels() if self._mapped is not None else self._labels[: self._n].copy()

    def vectors(self, labels: Iterable[int]) -> np.ndarray | None:
        """The unit vectors of those `labels` that are stored, in their order, as one (n, dim)
        array (a copy); None when none is."""
        if self._mapped is not None:
            rows = self._mapped.positions(labels)
            return self._mapped.float_rows(rows) if len(rows) else None
        rows = [row for label in labels if (row := self._pos.get(int(label))) is not None]
        return self._vecs[rows] if rows else None

    def _in_memory(self) -> None:
        """Copy a mapped store's vectors out (what the file load gives), before changing it."""
        if self._mapped is None:
            return
        mapped, self._mapped = self._mapped, None
        try:
            labels, vecs = mapped.all()
        except int8_copy.Damaged:  # read whole: the checksum finds it corrupt, SQLite rebuilds it
            self.late_notices = self.load(self._fetch_all) if self._fetch_all else []
            return
        self._take_file(None, labels, vecs, self._deleted, self.digest or "")
        self._graph_on_disk = True
        self._gone_since_file = set(mapped.gone_labels().tolist())  # still in the file's graph

    # -- loading and saving ------------------------------------------------------------------

    def load(
        self, fetch_all: FetchAll, *, expected_count: int | None = None, persist: bool = False,
        check: LayoutCheck | None = None, stream: StreamAll | None = None, first: bool = False,
    ) -> list[str]:
        """Load the file, or rebuild it from `fetch_all()` = (int64 labels, float32 vectors) from SQLite.

        Rebuilds when the file or its sidecar is missing, corrupt, for another dimension or
        identity, or (with `expected_count`, e.g. SQLite's row count) stale. Returns notices such as
        "vector index rebuilt from SQLite (file missing)"; a first build of an empty store says nothing.

        `persist` saves a rebuilt index at once. Off by default because readers must not write: a
        recall's snapshot of SQLite could overwrite a newer file the indexer just saved, and saving
        means building the HNSW graph, seconds a recall does not have. The indexer, the one writer,
        passes True (or calls `save` after its upserts).

        With `check`, the vectors are read from the file and the graph is loaded only when a
        search or a save needs it (EXACT_BEFORE_GRAPH); `check` vouches for a sample of them.
        With `persist` and `stream`, a rebuild goes straight from SQLite to the file (`build`).
        `first`: nothing was recorded for this embedder yet (a rebuild then says nothing). What is
        done is currency.decide's; `rebuilt` says whether the content was rebuilt."""
        self._fetch_all = fetch_all  # a mapped store found damaged while searching rebuilds from it
        reason = self._load_file(check)
        if reason is None and expected_count is not None and expected_count != len(self):
            reason = f"stale: {len(self)} vectors in file, {expected_count} in SQLite"
        int8 = int8_copy.state(self.path, self.dim, self.digest) if reason is None and self.digest else MISSING
        plan = decide(hnsw_state(reason), int8=int8, writer=persist, why=reason or "", first=first)
        self.rebuilt = plan.hnsw == REBUILD
        if not self.rebuilt:
            if plan.int8 == WRITE and self.digest:
                self._write_side(self.digest)  # for the next cold reader, once
            return []
        notices = list(plan.notices)
        if persist and stream is not None and self.streams(*stream()):
            return notices if len(self) or reason != "file missing" else []
        labels, vectors = fetch_all()
        self.rebuild(labels, vectors)
        if reason == "file missing" and self._n == 0:
            notices = []
        if persist:
            try:
                self.save()
            except OSError as exc:  # a read-only state dir still gets a working in-memory index
                if not first:
                    notices.append(f"vector index not saved: {exc.strerror or exc}")
        return notices

    def rebuild(self, labels: np.ndarray, vectors: np.ndarray) -> None:
        """Replace the whole content with (labels, vectors).

        Distinct labels (a rebuild from SQLite) take the array as the exact copy, normalised in
        place: 1.39M vectors of 512 dimensions are 2.8 GB, and the upsert path's copies (selection,
        normalisation, growing by doubling) once took a rebuild at 1M entries to 14 GB.
        """
        self._index = self._mapped = None
        self._vecs = np.zeros((0, self.dim), dtype=np.float32)
        self._labels = np.zeros(0, dtype=np.int64)
        self._pos = {}
        self._n = 0
        self._deleted = set()
        self.digest = None
        self._forget_file_graph()
        if not len(labels):
            return
        labels_arr = np.asarray(labels, dtype=np.int64).reshape(-1)
        vecs = np.asarray(vectors, dtype=np.float32)
        if (vecs.ndim != 2 or vecs.shape != (len(labels_arr), self.dim) or not vecs.flags.writeable
                or len(np.unique(labels_arr)) != len(labels_arr) or (labels_arr < 0).any()):
            self.upsert(labels_arr, vectors)  # checks and messages, last vector of a label wins
            return
        normalize_rows(vecs)
        self._vecs, self._labels, self._n = vecs, labels_arr.copy(), len(labels_arr)
        self._pos = dict(zip(labels_arr.tolist(), range(self._n), strict=True))

    def save(self) -> None:
        """Write the HNSW file and its sidecar atomically (each to a temp name, then os.replace).

        No fsync: a torn write after a power cut shows up as a checksum mismatch and is rebuilt.
        """
        self._in_memory()
        index = self._graph()
        # Labels whose slot was reused no longer need recording; keep the sidecar small.
        self._deleted &= set(index.get_ids_list())
        self._write(index, self._n)

    def build(self, count: int, batches: Iterable[tuple[np.ndarray, np.ndarray]]) -> None:
        """Write the HNSW file of (labels, vectors) `batches` (at most `count` vectors, distinct labels)
        without an exact copy in memory, then open it as a reader does (mapped when big enough).

        A rebuild held the vectors twice, the exact copy and hnswlib's: 650 MB at 155,000 vectors."""
        index = hnswlib.Index(space="ip", dim=self.dim)
        index.init_index(max_elements=max(_INITIAL_CAPACITY, count), M=HNSW_M,
                         ef_construction=HNSW_EF_CONSTRUCTION, allow_replace_deleted=True)
        for labels, vectors in batches:
            normalize_rows(vectors)
            index.add_items(vectors, labels)
        self.rebuild(np.zeros(0, np.int64), np.zeros((0, self.dim), np.float32))
        self._write(index, index.element_count, side=False)
        del index  # before the int8 copy is made: never both in memory
        self._write_side(self.digest or "")
        if self._load_file(lambda labels, vectors: True) is not None:  # just written: only a failing disk
            raise OSError("the vector file just written cannot be read back")

    def streams(self, count: int, batches: Iterable[tuple[np.ndarray, np.ndarray]]) -> bool:
        """`build` when the file will be mapped (MAP_FROM_BYTES); else, or when it cannot be written,
        False: the caller rebuilds in memory (a small file read back whole costs more than it saves)."""
        if count * 4 * self.dim < int8_copy.MAP_FROM_BYTES:
            return False
        try:
            self.build(count, batches)
        except OSError:
            return False
        return True

    def _write(self, index: Any, count: int, side: bool = True) -> None:
        """Save `index` (holding `count` live vectors) as the HNSW file, its sidecar and (`side`) its int8 copy."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Saves of writers killed mid-way (the one writer holds the index lock while saving).
        for stale in self.path.parent.glob(f".{self.path.name}*.tmp"):
            stale.unlink(missing_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            index.save_index(str(tmp))
            size, digest = file_digest(tmp)
            os.replace(tmp, self.path)
        finally:
            tmp.unlink(missing_ok=True)
        if side:
            self._write_side(digest)
        meta = {
            "format": SIDECAR_FORMAT,
            "dim": self.dim,
            "count": count,
            "identity": self.identity,
            "space": "ip",
            "M": HNSW_M,
            "ef_construction": HNSW_EF_CONSTRUCTION,
            "size": size,
            "sha256": digest,
            "deleted": sorted(self._deleted),
        }
        tmp_meta = self.meta_path.with_name(f".{self.meta_path.name}.{os.getpid()}.tmp")
        try:
            tmp_meta.write_text(json.dumps(meta) + "\n", encoding="utf-8")
            os.replace(tmp_meta, self.meta_path)
        finally:
            tmp_meta.unlink(missing_ok=True)
        self.digest = digest

    def _write_side(self, digest: str) -> None:
        """The int8 copy a cold reader maps (int8_copy), for a file big enough to be mapped."""
        with contextlib.suppress(OSError, ValueError):
            if self.path.stat().st_size >= int8_copy.MAP_FROM_BYTES:
                return int8_copy.write(self.path, self.dim, digest)
        int8_copy.remove(self.path)

    def _load_file(self, check: LayoutCheck | None = None) -> str | None:
        """Load from disk; None on success, else why the file cannot be used (the rebuild reason)."""
        if not self.path.is_file() or not self.meta_path.is_file():
            return "file missing"
        try:
            meta = json.loads(self.meta_path.read_text(encoding="utf-8"))
            dim, identity, count = int(meta["dim"]), str(meta["identity"]), int(meta["count"])
            size, digest, deleted = int(meta["size"]), str(meta["sha256"]), {int(x) for x in meta["deleted"]}
            if meta.get("format") != SIDECAR_FORMAT:
                return "file format changed"
        except (OSError, ValueError, KeyError, TypeError):
            return "file corrupt"
        if dim != self.dim:
            return f"dimension changed from {dim} to {self.dim}"
        if identity != self.identity:
            return "embedding model changed"
        int8 = int8_copy.state(self.path, self.dim, digest) if check is not None else MISSING
        if check is not None and decide(CURRENT, int8=int8, writer=False).int8 == MAP:  # a reader: mapped
            mapped = int8_copy.MappedVectors.open(self.path, self.dim, count, size, digest, check)
            if mapped is not None:
                self._take_file(None, np.zeros(0, np.int64), np.zeros((0, self.dim), np.float32), deleted, digest)
                self._mapped = mapped
                return None
        try:
            data = self.path.read_bytes()
            # Checked before hnswlib parses the file: its own checks catch truncation, not bit rot.
            if (len(data), hashlib.sha256(data).hexdigest()) != (size, digest):
                return "file corrupt"
            if check is not None and self._load_vectors_only(data, count, deleted, digest, check):
                return None
            index = hnswlib.Index(space="ip", dim=self.dim)
            index.load_index(str(self.path), allow_replace_deleted=True)
        except (OSError, RuntimeError, ValueError):
            return "file corrupt"
        index.set_ef(HNSW_EF_SEARCH)
        try:
            live, vecs = live_vectors(index, data, self.dim, deleted)
        except (RuntimeError, ValueError):  # a label the sidecar says is live is deleted in the file
            return "file corrupt"
        if len(live) != count:
            return "file corrupt"
        self._take_file(index, live, vecs, deleted, digest)
        return None

    def _load_vectors_only(self, data: bytes, count: int, deleted: set[int], digest: str,
                           check: LayoutCheck) -> bool:
        """Take the live vectors from the file's level-0 records, leaving the graph on disk; False
        when the layout is not the expected one (the caller then loads the graph and checks it)."""
        try:
            labels, vecs = parse_level0(data, self.dim)
        except ValueError:
            return False
        sample = np.linspace(0, len(labels) - 1, num=min(SPOT_CHECKS, len(labels))).astype(np.int64)
        if len(labels) != count or (len(sample) and not check(labels[sample], vecs[sample])):
            return False
        self._take_file(None, labels, vecs, deleted, digest)
        self._graph_on_disk = True
        return True

    def _take_file(self, index: Any, labels: np.ndarray, vecs: np.ndarray, deleted: set[int], digest: str) -> None:
        """Hold what the file `digest` holds: its graph (or None: left on disk) and its live vectors."""
        self._index = index
        self._vecs = np.ascontiguousarray(vecs, dtype=np.float32).reshape(-1, self.dim)
        self._labels = labels
        self._pos = {int(label): i for i, label in enumerate(labels)}
        self._n = len(labels)
        self._deleted = deleted
        self.digest = digest
        self._forget_file_graph()

    def _forget_file_graph(self) -> None:
        self._graph_on_disk = False
        self._gone_since_file, self._put_since_file = set(), set()
        self._exact_searches = 0

    # -- writing ------------------------------------------------------------------------------

    def upsert(self, labels: Iterable[int] | np.ndarray, vectors: np.ndarray) -> None:
        """Add or replace vectors by label (normalised here, so callers cannot get that wrong)."""
        self._in_memory()
        labels_arr = np.asarray(
            list(labels) if not isinstance(labels, np.ndarray) else labels, dtype=np.int64
        )
        labels_arr = labels_arr.reshape(-1)
        vecs = np.asarray(vectors, dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape != (len(labels_arr), self.dim):
            raise ValueError(f"expected vectors of shape ({len(labels_arr)}, {self.dim}), got {vecs.shape}")
        if not len(labels_arr):
            return
        if (labels_arr < 0).any():
            raise ValueError("vector labels must be non-negative (hnswlib stores them unsigned)")
        # A label repeated within one call: the last vector wins, as with repeated single upserts.
        _, last = np.unique(labels_arr[::-1], return_index=True)
        keep = np.sort(len(labels_arr) - 1 - last)
        labels_arr, vecs = labels_arr[keep], l2_normalize(vecs[keep])

        if self._index is not None:
            self._upsert_graph(labels_arr, vecs)
        elif self._graph_on_disk:
            self._put_since_file.update(labels_arr.tolist())
        for label, vec in zip(labels_arr.tolist(), vecs, strict=True):
            row = self._pos.get(label)
            if row is None:
                row = self._append_row(label)
            self._vecs[row] = vec

    def _upsert_graph(self, labels: np.ndarray, vecs: np.ndarray) -> None:
        """Apply an upsert to the built HNSW graph (before the exact copy changes)."""
        is_live = np.fromiter((int(x) in self._pos for x in labels), dtype=bool, count=len(labels))
        index = self._grow(self._index, self._n + int((~is_live).sum()))
        in_place = is_live.copy()
        if self._deleted:
            for i in np.flatnonzero(~is_live):
                label = int(labels[i])
                if label in self._deleted:
                    self._deleted.discard(label)
                    try:
                        # Its old slot still exists: revive it and overwrite the vector in place.
                        index.unmark_deleted(label)
                        in_place[i] = True
                    except RuntimeError:
                        pass  # its slot was reused by another label: add it as new
        if in_place.any():
            index.add_items(vecs[in_place], labels[in_place])
        if (~in_place).any():
            index.add_items(vecs[~in_place], labels[~in_place], replace_deleted=True)

    def delete(self, labels: Iterable[int] | np.ndarray) -> int:
        """Remove labels (unknown ones are ignored); returns how many were live."""
        if self._mapped is not None:
            return self._mapped.delete(np.asarray(list(labels) if not isinstance(labels, np.ndarray) else labels)
                                       .reshape(-1).tolist())
        removed = 0
        for label in np.asarray(list(labels) if not isinstance(labels, np.ndarray) else labels).reshape(-1):
            label = int(label)
            row = self._pos.pop(label, None)
            if row is None:
                continue
            if self._index is not None:
                self._index.mark_deleted(label)
                self._deleted.add(label)
            elif self._graph_on_disk:
                self._gone_since_file.add(label)
            last = self._n - 1
            if row != last:  # keep rows [0, n) dense: move the last row into the hole
                moved = int(self._labels[last])
                self._vecs[row] = self._vecs[last]
                self._labels[row] = moved
                self._pos[moved] = row
            self._n -= 1
            removed += 1
        return removed

    def _append_row(self, label: int) -> int:
        if self._n == len(self._vecs):
            grow = max(_INITIAL_CAPACITY, 2 * len(self._vecs))
            self._vecs = np.concatenate(
                [self._vecs, np.zeros((grow - len(self._vecs), self.dim), np.float32)]
            )
            self._labels = np.concatenate([self._labels, np.zeros(grow - len(self._labels), np.int64)])
        row = self._n
        self._labels[row] = label
        self._pos[label] = row
        self._n += 1
        return row

    def _graph(self) -> Any:
        """The HNSW graph: loaded from the file the vectors came from, or built from the exact copy."""
        self._in_memory()
        if self._index is None and self._graph_on_disk:
            self._index = self._graph_from_file()
            self._forget_file_graph()
        if self._index is None:
            index = hnswlib.Index(space="ip", dim=self.dim)
            index.init_index(
                max_elements=max(_INITIAL_CAPACITY, self._n),
                M=HNSW_M,
                ef_construction=HNSW_EF_CONSTRUCTION,
                allow_replace_deleted=True,
            )
            index.set_ef(HNSW_EF_SEARCH)
            if self._n:
                index.add_items(self._vecs[: self._n], self._labels[: self._n])
            self._index, self._deleted = index, set()
        return self._index

    def load_graph(self) -> None:
        """Have the graph ready now when searches will use it (a long-lived process, at start)."""
        if len(self) >= self.exact_threshold:
            self._graph()

    def _graph_from_file(self) -> Any:
        """The file's graph with the changes made since the vectors were read from it, or None when
        the file is no longer the one they came from."""
        try:
            if file_digest(self.path)[1] != self.digest:
                return None
            index = hnswlib.Index(space="ip", dim=self.dim)
            index.load_index(str(self.path), allow_replace_deleted=True)
        except (OSError, RuntimeError, ValueError):
            return None
        index.set_ef(HNSW_EF_SEARCH)
        present = set(index.get_ids_list())
        for label in sorted(self._gone_since_file - self._pos.keys()):
            if label in present and label not in self._deleted:
                index.mark_deleted(label)
                self._deleted.add(label)
        put = sorted(self._put_since_file & self._pos.keys())
        for label in put:
            if label in self._deleted:  # deleted in the file, live again: revive its slot if it has one
                self._deleted.discard(label)
                if label in present:
                    index.unmark_deleted(label)
        old = [label for label in put if label in present]
        new = [label for label in put if label not in present]
        if old:
            index.add_items(self._vecs[[self._pos[x] for x in old]], old)
        if new:
            index = self._grow(index, index.element_count + len(new))
            index.add_items(self._vecs[[self._pos[x] for x in new]], new, replace_deleted=True)
        return index

    @staticmethod
    def _grow(index: Any, live_after: int) -> Any:
        """Resize `index` so that `live_after` live vectors fit (doubling, to amortise resizes)."""
        # New labels fill deleted slots first, so slots in use never exceed max(used, live).
        need = max(index.element_count, live_after)
        if need > index.get_max_elements():
            index.resize_index(max(need, 2 * index.get_max_elements()))
        return index

    # -- searching ----------------------------------------------------------------------------

    def search(self, query: np.ndarray, k: int, allowed: set[int] | None = None) -> list[tuple[int, float]]:
        """The `k` labels most similar to `query`, best first, as (label, cosine similarity).

        `allowed` restricts results to those labels (a time window, an entity filter...).
        """
        q = l2_normalize(np.asarray(query, dtype=np.float32).reshape(-1))
        if q.shape[0] != self.dim:
            raise ValueError(f"query has dimension {q.shape[0]}, index has {self.dim}")
        if k <= 0 or len(self) == 0:
            return []
        if self._mapped is not None and self._mapped_searches >= MAPPED_BEFORE_GRAPH:
            self.load_graph()  # a long-lived process: the vectors copied out, the graph loaded
        if self._mapped is not None:
            self._mapped_searches += 1
            try:
                return self._mapped.search(q, k, None if allowed is None else self._mapped.positions(allowed))
            except int8_copy.Damaged:  # read whole: the checksum finds it corrupt, SQLite rebuilds it
                self._mapped = None
                self.late_notices = self.load(self._fetch_all)
                return self.search(query, k, allowed)
        exact_first = self._index is None and self._graph_on_disk and self._exact_searches < EXACT_BEFORE_GRAPH
        if allowed is not None:
            rows = np.fromiter((self._pos[a] for a in allowed if a in self._pos), dtype=np.int64)
            if len(rows) < self.exact_threshold:
                return self._exact(q, k, rows)
            if exact_first:
                self._exact_searches += 1
                return self._exact(q, k, rows)
            wanted = {int(a) for a in allowed}
            return self._hnsw(q, min(k, len(rows)), wanted.__contains__) or self._exact(q, k, rows)
        if self._n < self.exact_threshold:
            return self._exact(q, k, None)
        if exact_first:
            self._exact_searches += 1
            return self._exact(q, k, None)
        return self._hnsw(q, min(k, self._n), None) or self._exact(q, k, None)

    def _exact(self, q: np.ndarray, k: int, rows: np.ndarray | None) -> list[tuple[int, float]]:
        """Brute force over all live rows, or over `rows`."""
        if rows is not None and not len(rows):
            return []
        mat = self._vecs[: self._n] if rows is None else self._vecs[rows]
        labels = self._labels[: self._n] if rows is None else self._labels[rows]
        scores = mat @ q
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        order = top[np.lexsort((labels[top], -scores[top]))]  # by score, then label: a stable order for ties
        # Clipped as _cosine clips, in one step; lists: no numpy scalars.
        return list(zip(labels[order].tolist(), np.clip(scores[order], -1.0, 1.0).tolist(), strict=True))

    def _hnsw(self, q: np.ndarray, k: int, keep: Callable[[int], bool] | None) -> list[tuple[int, float]]:
        """Approximate search; [] when hnswlib cannot find k results (the caller then goes exact)."""
        index = self._graph()
        index.set_ef(max(HNSW_EF_SEARCH, k))
        try:
            # One thread: a filter is a Python callback, and a single query gains nothing from more.
            found, dists = index.knn_query(q.reshape(1, -1), k=k, num_threads=1, filter=keep)
        except RuntimeError:  # "contiguous 2D array": a tight filter or many deletions starved the walk
            return []
        return [(int(label), _cosine(1.0 - d)) for label, d in zip(found[0], dists[0], strict=True)]


def _cosine(value: float) -> float:
    """A similarity clipped to [-1, 1]: float32 rounding gives 1.0000001 for a vector and itself."""
    return min(1.0, max(-1.0, float(value)))
