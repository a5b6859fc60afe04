"""Embedding cache in SQLite, keyed by (provider, model, text hash): unchanged text is embedded once.

Re-indexing after an edit, a rebuild of the index, or a second workspace sharing a database all hit
this table instead of the model, which is the slow part of indexing (memsearch keys its chunks the
same way). Vectors are stored as little-endian float32 blobs so the table is portable (the Postgres
store and `memory store export` read them as they are). The table is created by migration m005.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

import numpy as np

from ...base import in_batches
from ..connection import transaction

TABLE = "embedding_cache"
_DTYPE = np.dtype("<f4")


def to_blob(vector: np.ndarray) -> bytes:
    """A vector as the portable little-endian float32 blob every store keeps."""
    return np.ascontiguousarray(vector, dtype=_DTYPE).reshape(-1).tobytes()


def from_blob(blob: bytes, dim: int | None = None) -> np.ndarray | None:
    """The vector of a blob, or None when it is truncated (a miss, not a crash)."""
    vec = np.frombuffer(blob, dtype=_DTYPE)
    if dim is not None and vec.shape[0] != dim:
        return None
    return vec.astype(np.float32)


class EmbeddingCache:
    """Stores and fetches vectors by (provider, model, hash) in table `embedding_cache`."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def get_many(
        self, provider: str, model: str, hashes: Iterable[str], dim: int | None = None
    ) -> dict[str, np.ndarray]:
        """Return the cached vectors among `hashes` (misses are simply absent).

        With `dim`, rows of another length are ignored: a remote server asked for a different
        `dimensions` returns different vectors under the same model name.
        """
        found: dict[str, np.ndarray] = {}
        for part in in_batches(list(dict.fromkeys(hashes))):
            rows = self.conn.execute(
                f"SELECT hash, dim, vector FROM {TABLE} WHERE provider = ? AND model = ?"
                f" AND hash IN ({','.join('?' * len(part))})", [provider, model, *part],
            ).fetchall()
            for h, row_dim, blob in rows:
                if dim is not None and row_dim != dim:
                    continue
                vec = from_blob(blob, row_dim)
                if vec is not None:
                    found[h] = vec
        return found

    def put_many(self, provider: str, model: str, items: Mapping[str, np.ndarray]) -> None:
        """Insert or replace vectors by hash, in one transaction (or the caller's)."""
        rows = []
        for h, vec in items.items():
            blob = to_blob(vec)
            rows.append((provider, model, h, len(blob) // _DTYPE.itemsize, blob))
        if not rows:
            return
        with transaction(self.conn):
            self.conn.executemany(
                f"INSERT OR REPLACE INTO {TABLE} (provider, model, hash, dim, vector) VALUES (?, ?, ?, ?, ?)", rows)

    def count(self, provider: str | None = None, model: str | None = None) -> int:
        """Number of cached vectors, optionally for one provider/model (status output, tests)."""
        sql, params = f"SELECT count(*) FROM {TABLE}", []
        if provider is not None:
            sql, params = sql + " WHERE provider = ?", [provider]
            if model is not None:
                sql, params = sql + " AND model = ?", [provider, model]
        return int(self.conn.execute(sql, params).fetchone()[0])
