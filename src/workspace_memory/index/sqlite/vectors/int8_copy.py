"""A cold reader's vectors: memory-mapped, never read into Python objects (issue 27).

A cold `memory recall` used to read the whole HNSW file, hash it and copy its vectors out before
its first search: at 100k entries (155,000 vectors, a 323 MB file) 4.7 s and 900 MB. Now the writer
keeps an int8 copy of the file's vectors beside it, `<name>.hnsw.i8`, and a reader maps both files:

- the int8 copy is scanned whole (one byte a dimension: 80 MB at 100k entries, a quarter of the
  float32 vectors), a block at a time converted to float32 and multiplied with the question;
- the best RESCORE rows are scored again with their float32 vectors, read from the HNSW file's
  level-0 records through the map (only their pages are touched), and the best k are returned.

Each row is quantised with its own scale (its largest component / 127), so a row's int8 score is
within dim x scale / 2 x max|q| of its cosine (under 0.01 for unit vectors of 512 dimensions, and
far less in practice, as the errors of the components cancel). With RESCORE = 256 candidates for
k <= 64, the answer is the exact search's unless more than RESCORE - k rows crowd within that error
of the k-th best: `tests/test_int8_copy.py` checks that it is on random and real-like sets.

File layout (little-endian): magic b"WMI8", version u32, count u64, dim u64, the sha256 of the HNSW
file it copies (32 bytes), 8 bytes of padding; then the level-0 record of each row in the HNSW file
(u64 x count), its label (i64 x count), its scale (f32 x count), the crc32 of its float32 vector
(u32 x count) and the codes (i8 x count x dim). The copy belongs to one HNSW file (the digest its
sidecar records): any other is ignored, and the reader goes the old way (the whole file read and
hashed). A mapped reader does not hash the whole file (0.7 s at 323 MB): it checks sizes, the
header, a sample of vectors against SQLite, and the crc32 of every float32 vector it reads; a
mismatch (Damaged) sends it the old way, which finds the file corrupt and rebuilds from SQLite.
Files under MAP_FROM_BYTES are always read whole, as before.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from .currency import CURRENT, DAMAGED, FOREIGN, MISSING
from .hnsw_file import RECORDS_AT, SPOT_CHECKS, level0_records, live_records, record_layout

MAGIC = b"WMI8"
VERSION = 1
HEADER_BYTES = 64
RESCORE = 256  # int8 candidates scored again in float32 (at least 4 k)
BLOCK = 16_384  # rows converted to float32 at a time: 32 MB at 512 dimensions
WRITE_BLOCK = 512  # rows read and quantised at a time by the writer (1 MB of float32 at 512 dimensions)
DIRECT = 2_048  # a filter leaving at most this many rows is scored in float32 directly
# Smaller HNSW files are read and hashed whole, as before (under 0.1 s): the map pays from here on.
MAP_FROM_BYTES = 64 * 2**20

LayoutCheck = Callable[[np.ndarray, np.ndarray], bool]


def path_for(hnsw_path: Path) -> Path:
    """Where the int8 copy of the HNSW file `hnsw_path` lives."""
    return hnsw_path.with_name(hnsw_path.name + ".i8")


def _header(count: int, dim: int, digest: str) -> bytes:
    head = MAGIC + VERSION.to_bytes(4, "little") + count.to_bytes(8, "little") + dim.to_bytes(8, "little")
    return (head + bytes.fromhex(digest)).ljust(HEADER_BYTES, b"\0")


def _expected_size(count: int, dim: int) -> int:
    return HEADER_BYTES + count * (8 + 8 + 4 + 4 + dim)


class Damaged(Exception):
    """A float32 vector read through the map does not match the checksum its int8 row records."""


def _crc_rows(vectors: np.ndarray) -> np.ndarray:
    return np.fromiter((zlib.crc32(row.tobytes()) for row in vectors), dtype="<u4", count=len(vectors))


def state(hnsw_path: Path, dim: int, digest: str) -> str:
    """The int8 copy beside `hnsw_path`, as currency.py names it: MISSING, DAMAGED (not this format,
    or cut short), FOREIGN (the copy of another HNSW file than the one whose sha256 is `digest`, or
    of another dimension) or CURRENT. Only the header and the size are read."""
    try:
        with open(path_for(hnsw_path), "rb") as fh:
            head = fh.read(HEADER_BYTES)
            size = os.fstat(fh.fileno()).st_size
    except FileNotFoundError:
        return MISSING
    except OSError:
        return DAMAGED
    if len(head) < HEADER_BYTES or head[:4] != MAGIC or int.from_bytes(head[4:8], "little") != VERSION:
        return DAMAGED
    count, stored_dim = int.from_bytes(head[8:16], "little"), int.from_bytes(head[16:24], "little")
    if stored_dim != dim or head[24:56] != bytes.fromhex(digest):
        return FOREIGN
    return CURRENT if size == _expected_size(count, dim) else DAMAGED


def current(hnsw_path: Path, dim: int, digest: str) -> bool:
    """True when the int8 copy beside `hnsw_path` is the one of the HNSW file whose sha256 is `digest`."""
    return state(hnsw_path, dim, digest) == CURRENT


def write(hnsw_path: Path, dim: int, digest: str) -> None:
    """Write the int8 copy of the HNSW file `hnsw_path` (sha256 `digest`), read from the file itself,
    so the copy's rows are the file's live records whatever the caller holds. The file is read a
    block of records at a time with pread: through a map, a page fault maps whole large folios of
    the page cache, and reading every record's flags and label that way mapped the whole file (so
    did reading the header)."""
    fd = os.open(hnsw_path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        layout, count = record_layout(os.pread(fd, RECORDS_AT, 0), dim, os.fstat(fd).st_size)
    except ValueError:
        os.close(fd)
        raise
    target = path_for(hnsw_path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        parts: list[tuple[np.ndarray, ...]] = []
        for at, labels, vectors in _blocks(fd, layout, count):
            top = np.abs(vectors).max(axis=1) if len(vectors) else np.zeros(0, np.float32)
            parts.append((at, labels, np.where(top > 0, top / 127.0, 1.0).astype("<f4"), _crc_rows(vectors)))
        live, labels, scales, crcs = (np.concatenate([p[i] for p in parts]) if parts else np.zeros(0)
                                      for i in range(4))
        with open(tmp, "wb") as fh:
            fh.write(_header(len(live), dim, digest))
            for array, kind in ((live, "<u8"), (labels, "<i8"), (scales, "<f4"), (crcs, "<u4")):
                fh.write(np.asarray(array, dtype=kind).tobytes())
            done = 0
            for _, _, vectors in _blocks(fd, layout, count):
                vectors /= scales[done : done + len(vectors), None]
                np.clip(np.rint(vectors, out=vectors), -127, 127, out=vectors)
                fh.write(vectors.astype(np.int8).tobytes())
                done += len(vectors)
        os.replace(tmp, target)
    finally:
        os.close(fd)
        tmp.unlink(missing_ok=True)


def _blocks(fd: int, records: np.dtype, count: int):
    """(record numbers, labels, float32 vectors) of the live level-0 records, WRITE_BLOCK at a time."""
    size = records.itemsize
    for first in range(0, count, WRITE_BLOCK):
        n = min(WRITE_BLOCK, count - first)
        block = np.frombuffer(os.pread(fd, n * size, RECORDS_AT + first * size), dtype=records)
        keep = np.flatnonzero(live_records(block))
        yield first + keep, block["label"][keep].astype(np.int64), np.array(block["vector"][keep], dtype=np.float32)


def _map(path: Path) -> mmap.mmap:
    """A read-only map of the whole file (it stays valid after the file is closed or replaced)."""
    with open(path, "rb") as fh:
        return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)


def _release(whole: mmap.mmap, start: int, end: int) -> None:
    """Drop the pages of [start, end) from this process (the page cache keeps them): a scan of a
    mapped file then holds one block at a time, not the whole file."""
    first = start // mmap.PAGESIZE * mmap.PAGESIZE
    with contextlib.suppress(OSError, ValueError):
        whole.madvise(mmap.MADV_DONTNEED, first, end // mmap.PAGESIZE * mmap.PAGESIZE - first)


def remove(hnsw_path: Path) -> None:
    path_for(hnsw_path).unlink(missing_ok=True)


class MappedVectors:
    """The live vectors of one HNSW file, searched through the int8 copy and the file's own map."""

    def __init__(self, records: np.ndarray, side: mmap.mmap, count: int, dim: int, hnsw_fd: int) -> None:
        self.rows = records  # level-0 records of the HNSW file (a view on its map)
        self.side = side
        self.fd = hnsw_fd  # the HNSW file, open: a search reads its candidates' vectors with pread
        at = HEADER_BYTES
        self.record = np.frombuffer(side, dtype="<u8", count=count, offset=at)
        self.label = np.frombuffer(side, dtype="<i8", count=count, offset=at + 8 * count)
        self.scale = np.frombuffer(side, dtype="<f4", count=count, offset=at + 16 * count)
        self.crc = np.frombuffer(side, dtype="<u4", count=count, offset=at + 20 * count)
        self.codes = np.frombuffer(side, dtype=np.int8, count=count * dim, offset=at + 24 * count).reshape(count, dim)
        self.dim = dim
        self._order: np.ndarray | None = None  # rows sorted by label, for lookups (made when first needed)
        self._gone = np.zeros(0, dtype=np.int64)  # rows deleted since the file was mapped
        self._gone_mask: np.ndarray | None = None

    @classmethod
    def open(cls, hnsw_path: Path, dim: int, count: int, size: int, digest: str,
             check: LayoutCheck) -> MappedVectors | None:
        """Map the HNSW file and its int8 copy; None when the copy is missing or not this file's, or
        what the map shows disagrees with the sidecar (`count` live vectors, `size` bytes) or with
        SQLite (`check`, on a sample)."""
        if size < MAP_FROM_BYTES or not current(hnsw_path, dim, digest):
            return None
        try:
            if os.stat(hnsw_path).st_size != size:
                return None
            side = _map(path_for(hnsw_path))
            if len(side) != _expected_size(count, dim) or int.from_bytes(side[8:16], "little") != count:
                return None
            rows = level0_records(_map(hnsw_path), dim)
            fd = os.open(hnsw_path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except (OSError, ValueError):
            return None
        mapped = cls(rows, side, count, dim, fd)
        if count and (int(mapped.record.max()) >= len(rows)):
            return None
        sample = np.linspace(0, count - 1, num=min(SPOT_CHECKS, count)).astype(np.int64)
        if len(sample):
            records = mapped.read_records(mapped.record[sample])
            if (not np.array_equal(records["label"].astype(np.int64), mapped.label[sample])
                    or not live_records(records).all()
                    or not check(mapped.label[sample], mapped.float_rows(sample))):
                return None
        try:
            mapped.float_rows(sample)
        except Damaged:
            return None
        return mapped

    # -- lookups ---------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.label) - len(self._gone)

    def positions(self, labels: Iterable[int]) -> np.ndarray:
        """The rows of those `labels` that are live, in their order."""
        wanted = np.fromiter((int(x) for x in labels), dtype=np.int64)
        if self._order is None:
            self._order = np.argsort(self.label, kind="stable")
        at = np.searchsorted(self.label, wanted, sorter=self._order)
        at = np.minimum(at, max(0, len(self._order) - 1))
        rows = self._order[at] if len(self._order) else np.zeros(0, np.int64)
        hit = (self.label[rows] == wanted) if len(rows) else np.zeros(0, bool)
        rows = rows[hit]
        if len(self._gone):
            rows = rows[~self._gone_rows()[rows]]
        return rows.astype(np.int64)

    def contains(self, label: int) -> bool:
        return len(self.positions([label])) == 1

    def labels(self) -> np.ndarray:
        """The live labels (a copy)."""
        if not len(self._gone):
            return self.label.astype(np.int64)
        return self.label[~self._gone_rows()].astype(np.int64)

    def read_records(self, records: np.ndarray) -> np.ndarray:
        """Whole level-0 records of the HNSW file, read with pread (see float_rows)."""
        size = self.rows.dtype.itemsize
        data = b"".join(os.pread(self.fd, size, RECORDS_AT + int(r) * size) for r in records)
        return np.frombuffer(data, dtype=self.rows.dtype)

    def float_rows(self, rows: np.ndarray) -> np.ndarray:
        """The float32 vectors of `rows`, read from the HNSW file (a copy of just those), each checked
        against the checksum its row records: the reader hashes what it uses, not the whole file."""
        # pread, not the map: a fault on a mapped page maps its neighbours too (fault-around, large
        # folios), and a few hundred scattered vectors then showed as 150 MB of resident file pages
        # (8 sampled records, as 13 MB).
        size, width = self.rows.dtype.itemsize, 4 * self.dim
        at = RECORDS_AT + self.rows.dtype.fields["vector"][1]
        buf = b"".join(os.pread(self.fd, width, at + int(r) * size) for r in self.record[rows])
        vectors = np.frombuffer(buf, dtype="<f4").reshape(-1, self.dim).copy()
        if not np.array_equal(_crc_rows(vectors), self.crc[rows]):
            raise Damaged("a vector of the HNSW file does not match its checksum")
        return vectors

    def all(self) -> tuple[np.ndarray, np.ndarray]:
        """(labels, vectors) of every live row, copied out: what a writer needs to change the store
        (checked row by row; Damaged when one does not match)."""
        keep = np.arange(len(self.label)) if not len(self._gone) else np.flatnonzero(~self._gone_rows())
        order = np.argsort(self.record[keep], kind="stable")  # file order, as the file load gives
        keep = keep[order]
        return self.label[keep].astype(np.int64), self.float_rows(keep)

    def delete(self, labels: Iterable[int]) -> int:
        """Mark those labels deleted (no file changes); returns how many were live."""
        rows = self.positions(labels)
        if len(rows):
            self._gone = np.union1d(self._gone, rows)
            self._gone_mask = None
        return len(np.unique(rows))

    def gone_labels(self) -> np.ndarray:
        """The labels deleted since the file was mapped."""
        return self.label[self._gone].astype(np.int64)

    def _gone_rows(self) -> np.ndarray:
        if self._gone_mask is None:
            self._gone_mask = np.zeros(len(self.label), dtype=bool)
            self._gone_mask[self._gone] = True
        return self._gone_mask

    # -- search ----------------------------------------------------------------------------------
    def search(self, q: np.ndarray, k: int, rows: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The `k` best (label, cosine) of all live rows, or of `rows`; `q` is a unit vector."""
        if rows is not None and len(rows) <= max(DIRECT, k):
            return self._exact(q, k, rows)
        want = min(max(RESCORE, 4 * k), len(self) if rows is None else len(rows))
        scores = self._int8_scores(q, rows)
        if rows is None and len(self._gone):
            scores[self._gone] = -np.inf
        top = np.argpartition(-scores, want - 1)[:want] if want < len(scores) else np.arange(len(scores))
        top = top[np.isfinite(scores[top])]
        return self._exact(q, k, top if rows is None else rows[top])

    def _int8_scores(self, q: np.ndarray, rows: np.ndarray | None) -> np.ndarray:
        n = len(self.label) if rows is None else len(rows)
        scores = np.empty(n, dtype=np.float32)
        codes_at = HEADER_BYTES + 24 * len(self.label)
        for start in range(0, n, BLOCK):
            block = self.codes[start : start + BLOCK] if rows is None else self.codes[rows[start : start + BLOCK]]
            scale = self.scale[start : start + BLOCK] if rows is None else self.scale[rows[start : start + BLOCK]]
            scores[start : start + len(block)] = (block.astype(np.float32) @ q) * scale
            if rows is None:  # done with these pages
                _release(self.side, codes_at + start * self.dim, codes_at + (start + len(block)) * self.dim)
        return scores

    def _exact(self, q: np.ndarray, k: int, rows: np.ndarray) -> list[tuple[int, float]]:
        if not len(rows):
            return []
        rows = np.asarray(rows, dtype=np.int64)
        scores = self.float_rows(rows) @ q
        labels = self.label[rows]
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        order = top[np.lexsort((labels[top], -scores[top]))]  # by score, then label (VectorStore._exact)
        return [(int(labels[i]), min(1.0, max(-1.0, float(scores[i])))) for i in order]
