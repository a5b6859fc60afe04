"""hnswlib's file layout, read with numpy: the header and the level-0 records (vector, label, flags).

The layout is hnswlib's, not a public API (hnswalg.h saveIndex): every reader of it checks a
sample of what it read against another source and falls back when they disagree.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

# hnswlib's file header (hnswalg.h saveIndex): offsetLevel0, max_elements, cur_element_count,
# size_data_per_element, label_offset, offsetData (size_t each), maxlevel (int), enterpoint (uint),
# maxM, maxM0, M (size_t), mult (double), ef_construction (size_t); then the level-0 records.
_HEADER = np.dtype(
    [
        ("offset_level0", "<u8"),
        ("max_elements", "<u8"),
        ("count", "<u8"),
        ("record_size", "<u8"),
        ("label_offset", "<u8"),
        ("data_offset", "<u8"),
        ("max_level", "<i4"),
        ("enter_point", "<u4"),
        ("max_m", "<u8"),
        ("max_m0", "<u8"),
        ("m", "<u8"),
        ("mult", "<f8"),
        ("ef_construction", "<u8"),
    ]
)
RECORDS_AT = _HEADER.itemsize  # where the level-0 records start in the file
_DELETE_MARK_BYTE = 2  # hnswlib flags a deleted element in byte 2 of its level-0 link header
SPOT_CHECKS = 8
SIDECAR_FORMAT = 1  # the JSON beside the HNSW file (hnsw.VectorStore.save)


def live_vectors(index: Any, data: bytes, dim: int, deleted: set[int]) -> tuple[np.ndarray, np.ndarray]:
    """(labels, vectors) of the live elements of a loaded index whose file content is `data`.

    Why not `index.get_items(all ids)`: in hnswlib 0.8 it copies through Python lists and takes ~1 s
    for 20k vectors, most of a cold recall's budget. The level-0 records hold each vector and label
    at fixed offsets, so numpy reads them in milliseconds. The layout is hnswlib's, not a public
    API: a few vectors are compared with `get_items`, and on any disagreement (another hnswlib
    version) the slow, documented path is used instead.
    """
    try:
        labels, vecs = parse_level0(data, dim)
        sample = np.linspace(0, len(labels) - 1, num=min(SPOT_CHECKS, len(labels))).astype(np.int64)
        if len(sample) and not np.array_equal(np.asarray(index.get_items(labels[sample])), vecs[sample]):
            raise ValueError("layout mismatch")
        return labels, vecs
    except (ValueError, RuntimeError):
        ids = np.asarray(index.get_ids_list(), dtype=np.int64)
        live = ids[~np.isin(ids, np.fromiter(deleted, dtype=np.int64, count=len(deleted)))]
        if not len(live):
            return live, np.zeros((0, dim), dtype=np.float32)
        return live, np.asarray(index.get_items(live), dtype=np.float32)


def level0_records(data: Any, dim: int) -> np.ndarray:
    """The level-0 records of an hnswlib file's content `data` (bytes, or a memory map) as a numpy
    view with the fields flags, vector and label: nothing is copied, nothing else is read."""
    records, count = record_layout(bytes(data[: _HEADER.itemsize]), dim, len(data))
    return np.frombuffer(data, dtype=records, count=count, offset=_HEADER.itemsize)


def record_layout(head: bytes, dim: int, size: int) -> tuple[np.dtype, int]:
    """(the record dtype, the record count) of an hnswlib file of `size` bytes from its header `head`."""
    if len(head) < _HEADER.itemsize:
        raise ValueError("short header")
    fields = np.frombuffer(head, dtype=_HEADER, count=1)[0]
    count, record = int(fields["count"]), int(fields["record_size"])
    flag_at = int(fields["offset_level0"]) + _DELETE_MARK_BYTE
    data_at, label_at = int(fields["data_offset"]), int(fields["label_offset"])
    if (
        data_at + 4 * dim > record
        or label_at + 8 > record
        or flag_at >= record
        or _HEADER.itemsize + count * record > size
    ):
        raise ValueError("unexpected record layout")
    records = np.dtype(
        {
            "names": ["flags", "vector", "label"],
            "formats": ["u1", ("<f4", dim), "<u8"],
            "offsets": [flag_at, data_at, label_at],
            "itemsize": record,
        }
    )
    return records, count


def live_records(rows: np.ndarray) -> np.ndarray:
    """Which level-0 records are not deleted (a boolean mask)."""
    return (rows["flags"] & 1) == 0


def parse_level0(data: bytes, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels and vectors of the non-deleted level-0 records of an hnswlib file (copies)."""
    rows = level0_records(data, dim)
    live = live_records(rows)
    return rows["label"][live].astype(np.int64), np.array(rows["vector"][live], dtype=np.float32)


def sidecar_digest(path: Path, dim: int, identity: str) -> str | None:
    """The sha256 that the sidecar of the HNSW file `path` records, when it is a sidecar of this
    format for this dimension and identity; None otherwise. The file itself is not read."""
    try:
        meta = json.loads(path.with_name(path.name + ".json").read_text(encoding="utf-8"))
        if (meta.get("format"), meta.get("dim"), meta.get("identity")) != (SIDECAR_FORMAT, dim, identity):
            return None
        return str(meta["sha256"]) if path.is_file() else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def file_digest(path: Path) -> tuple[int, str]:
    """(size, sha256 hex) of a file; sha256 is hardware-accelerated here (~1 GB/s)."""
    with open(path, "rb") as fh:
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
    return path.stat().st_size, digest
