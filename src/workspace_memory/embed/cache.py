"""Embedding cache in SQLite, keyed by (provider, model, text hash): unchanged text is embedded once.

Re-indexing after an edit, a rebuild of the index, or a second workspace sharing a database all hit
this table instead of the model, which is the slow part of indexing (memsearch keys its chunks the
same way). Vectors are stored as little-endian float32 blobs so the table is portable.

It takes a plain sqlite3 connection as well as a sqlite-utils Database: a cold recall that only
checks for missing vectors should not pay for importing sqlite-utils (and its plugin scan, ~60 ms).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import sqlite_utils

TABLE = "embedding_cache"
# SQLite's default limit on bound parameters is 999 on older builds; stay well under it.
_CHUNK = 500
_DTYPE = np.dtype("<f4")


def text_hash(text: str) -> str:
    """sha256 of the UTF-8 text, hex, first 32 characters (128 bits: collisions are not a concern).

    The same function as `index.rows.text_hash`, so chunk rows and cache rows share keys.
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class EmbeddingCache:
    """Stores and fetches vectors by (provider, model, hash) in table `embedding_cache`."""

    def __init__(self, db: sqlite_utils.Database | sqlite3.Connection) -> None:
        self.conn: sqlite3.Connection = db if isinstance(db, sqlite3.Connection) else db.conn
        # Created here rather than in a migration so that the cache works on any database, including
        # a scratch one in tests; IF NOT EXISTS makes it idempotent and safe under concurrency.
        self.conn.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} ("
            " provider TEXT NOT NULL, model TEXT NOT NULL, hash TEXT NOT NULL,"
            " dim INTEGER NOT NULL, vector BLOB NOT NULL,"
            " PRIMARY KEY (provider, model, hash))"
        )

    def get_many(
        self, provider: str, model: str, hashes: Iterable[str], dim: int | None = None
    ) -> dict[str, np.ndarray]:
        """Return the cached vectors among `hashes` (misses are simply absent).

        With `dim`, rows of another length are ignored: a remote server asked for a different
        `dimensions` returns different vectors under the same model name.
        """
        wanted = list(dict.fromkeys(hashes))
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT hash, dim, vector FROM {TABLE} WHERE provider = ? AND model = ? AND hash IN ({marks})",
                [provider, model, *chunk],
            ).fetchall()
            for h, row_dim, blob in rows:
                if dim is not None and row_dim != dim:
                    continue
                vec = np.frombuffer(blob, dtype=_DTYPE)
                if vec.shape[0] == row_dim:  # a truncated blob is a miss, not a crash
                    found[h] = vec.astype(np.float32)
        return found

    def put_many(self, provider: str, model: str, items: Mapping[str, np.ndarray]) -> None:
        """Insert or replace vectors by hash, in one transaction."""
        rows = []
        for h, vec in items.items():
            arr = np.ascontiguousarray(vec, dtype=_DTYPE).reshape(-1)
            rows.append((provider, model, h, int(arr.shape[0]), arr.tobytes()))
        if not rows:
            return
        sql = f"INSERT OR REPLACE INTO {TABLE} (provider, model, hash, dim, vector) VALUES (?, ?, ?, ?, ?)"
        conn = self.conn
        if conn.in_transaction:
            # Inside the indexer's transaction: join it, so the cache and the chunks commit together.
            conn.executemany(sql, rows)
            return
        # Our connections run in autocommit mode, where each row would be its own commit (and fsync).
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(sql, rows)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def count(self, provider: str | None = None, model: str | None = None) -> int:
        """Number of cached vectors, optionally for one provider/model (status output, tests)."""
        sql, params = f"SELECT count(*) FROM {TABLE}", []
        if provider is not None:
            sql, params = sql + " WHERE provider = ?", [provider]
            if model is not None:
                sql, params = sql + " AND model = ?", [provider, model]
        return int(self.conn.execute(sql, params).fetchone()[0])
