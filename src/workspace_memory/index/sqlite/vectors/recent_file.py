"""The recent file: a vector store's last small changes, beside its HNSW file.

Saving the HNSW file rewrites all of it (31 MB for 12,000 vectors of 512 dimensions), and
changing it first means loading and checking all of it: about a third of a `memory index` after
a one-line edit. So the vectors of a small change go to this file instead: the vectors added
since the HNSW file was saved, and the labels deleted from it. A reader loads the HNSW file, then
this one, and searches both (live.LiveVectors); the writer folds it into the HNSW file
once it holds more than LIMIT labels (sync.open_store).

Like the HNSW file, it is a cache of SQLite: it names the HNSW file it extends (the sha256 its
sidecar records) and the index generation it is complete at. A file for another HNSW file, for
another model, cut short or damaged is not used; the store is then brought up to date from
SQLite as if the file were not there.

Layout: one line of JSON (format, dim, identity, base, generation, counts, payload sha256), then
the added labels (int64), the deleted labels (int64) and the added vectors (float32), little-endian.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

FORMAT = 1
LIMIT = 2_000  # labels added + deleted before the writer folds them into the HNSW file (a reader lays
# them over it: about 12 ms per 1,000 labels on this machine, measured at 12,000 vectors)


class Recent:
    """Labels and vectors added since the HNSW file `base` (its sha256) was saved, labels deleted from it,
    and the index generation that the two files together are complete at."""

    __slots__ = ("labels", "vectors", "deleted", "base", "generation")

    def __init__(self, labels: np.ndarray, vectors: np.ndarray, deleted: np.ndarray, base: str,
                 generation: int) -> None:
        self.labels = np.asarray(labels, dtype=np.int64).reshape(-1)
        self.vectors = np.asarray(vectors, dtype=np.float32)  # (len(labels), dim)
        self.deleted = np.asarray(deleted, dtype=np.int64).reshape(-1)
        self.base, self.generation = base, generation

    def __len__(self) -> int:
        return len(self.labels) + len(self.deleted)


def path_for(hnsw_path: Path) -> Path:
    """Where the recent file of an HNSW file lives (in the same folder, so a purge removes both)."""
    return hnsw_path.with_name(hnsw_path.name + ".recent")


def read(path: Path, dim: int, identity: str) -> Recent | None:
    """The recent file at `path`, or None when there is none or it cannot be used (see the docstring)."""
    try:
        with open(path, "rb") as fh:
            head = json.loads(fh.readline())
            payload = fh.read()
        added, deleted = int(head["added"]), int(head["deleted"])
        usable = (head["format"] == FORMAT and head["dim"] == dim and head["identity"] == identity
                  and len(payload) == 8 * added + 8 * deleted + 4 * added * dim
                  and hashlib.sha256(payload).hexdigest() == head["sha256"])
        if not usable:
            return None
        labels = np.frombuffer(payload, dtype="<i8", count=added)
        gone = np.frombuffer(payload, dtype="<i8", count=deleted, offset=8 * added)
        vectors = np.frombuffer(payload, dtype="<f4", offset=8 * (added + deleted)).reshape(added, dim)
        return Recent(labels, vectors, gone, str(head["base"]), int(head["generation"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write(path: Path, recent: Recent, dim: int, identity: str) -> None:
    """Write `recent` atomically (a temp file, then os.replace; no fsync: a torn file fails its checksum)."""
    payload = b"".join((recent.labels.astype("<i8").tobytes(), recent.deleted.astype("<i8").tobytes(),
                        recent.vectors.astype("<f4").tobytes()))
    head = {"format": FORMAT, "dim": dim, "identity": identity, "base": recent.base,
            "generation": recent.generation, "added": len(recent.labels), "deleted": len(recent.deleted),
            "sha256": hashlib.sha256(payload).hexdigest()}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(json.dumps(head).encode() + b"\n" + payload)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def remove(path: Path) -> None:
    """Forget the recent file (its changes are in the HNSW file now, or in nothing that is kept)."""
    path.unlink(missing_ok=True)


def changed(recent: Recent | None, base: str, generation: int, dim: int, added: np.ndarray,
            vectors: np.ndarray, removed: list[int]) -> Recent:
    """`recent` (or nothing, over the HNSW file `base`) with the vectors of labels `added` and
    without the labels `removed`.

    A removed label that was added since the save leaves the added ones; any other is recorded as
    deleted from the HNSW file (deleting a label that file does not hold is harmless).
    """
    labels = recent.labels if recent is not None else np.zeros(0, np.int64)
    kept_vectors = recent.vectors if recent is not None else np.zeros((0, dim), np.float32)
    deleted = set(recent.deleted.tolist()) if recent is not None else set()
    added = np.asarray(added, dtype=np.int64).reshape(-1)
    gone = set(removed) | set(added.tolist())  # an added label replaces any older vector of it
    keep = ~np.isin(labels, np.fromiter(gone, dtype=np.int64, count=len(gone)))
    deleted |= set(removed) - set(labels.tolist())
    return Recent(np.concatenate([labels[keep], added]),
                  np.concatenate([kept_vectors[keep], np.asarray(vectors, dtype=np.float32).reshape(len(added), dim)]),
                  np.array(sorted(deleted), dtype=np.int64), base, generation)
