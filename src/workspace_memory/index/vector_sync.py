"""Chunk vectors: embed new text through the cache, keep the HNSW file in step with SQLite.

SQLite holds every vector (embedding_cache, keyed by provider, model and the hash of
the embedded text: a chunk's heading plus its text). The HNSW file under
`.memory/vectors/` is a cache of (chunk id -> vector) that can always be rebuilt.

1. Embed the chunks whose text has no cached vector yet (a file edit embeds only the
   entries that changed; a rename or --rebuild embeds nothing).
2. Open the vector store. It records the index generation it matches (meta
   `vectors:<identity>`); if the chunks changed since, apply the difference of chunk ids
   (ids are never reused), or rebuild from SQLite when most of it changed.
3. Save atomically, so concurrent readers see the old or the new file, never half.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..embed.base import Embedder
from .rows import embed_text
from .store import transaction
from .sync import generation

EMBED_BATCH = 256  # chunks embedded (and committed to the cache) at a time


def store_path(state_dir: Path, embedder: Embedder) -> Path:
    """One HNSW file per embedder identity, so switching models never mixes vectors."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", embedder.identity()).strip("-")
    return state_dir / "vectors" / f"{slug}.hnsw"


def _cache_join(alias: str = "c") -> str:
    return (f"JOIN embedding_cache e ON e.provider = ? AND e.model = ? AND e.hash = {alias}.text_hash")


def missing_vectors(conn: sqlite3.Connection, embedder: Embedder) -> list[tuple[int, str, str, str]]:
    """(id, heading, text, hash) of chunks whose embedded text is not in the cache yet."""
    import sqlite_utils

    from ..embed.cache import EmbeddingCache  # creates the cache table if needed

    EmbeddingCache(sqlite_utils.Database(conn))
    return conn.execute(
        "SELECT c.id, c.heading, c.text, c.text_hash FROM chunks c LEFT JOIN embedding_cache e"
        " ON e.provider = ? AND e.model = ? AND e.hash = c.text_hash WHERE e.hash IS NULL ORDER BY c.id",
        (embedder.provider, embedder.model),
    ).fetchall()


def embed_missing(conn: sqlite3.Connection, embedder: Embedder,
                  encode: Callable[[list[str]], np.ndarray] | None = None,
                  progress: Callable[[int, int], None] | None = None) -> int:
    """Embed every chunk without a cached vector; returns how many texts were embedded."""
    import sqlite_utils

    from ..embed.cache import EmbeddingCache

    todo = missing_vectors(conn, embedder)
    unique: dict[str, str] = {}
    for _, heading, text, digest in todo:
        unique.setdefault(digest, embed_text(text, heading))
    items = list(unique.items())
    cache = EmbeddingCache(sqlite_utils.Database(conn))
    encode = encode or embedder.embed_documents
    for start in range(0, len(items), EMBED_BATCH):
        batch = items[start : start + EMBED_BATCH]
        vectors = encode([text for _, text in batch])
        with transaction(conn):
            cache.put_many(embedder.provider, embedder.model, dict(zip([h for h, _ in batch], vectors, strict=True)))
        if progress:
            progress(min(start + EMBED_BATCH, len(items)), len(items))
    return len(items)


def _all_vectors(conn: sqlite3.Connection, embedder: Embedder, ids: list[int] | None = None):  # noqa: ANN202
    sql = f"SELECT c.id, e.vector FROM chunks c {_cache_join()}"
    params: list = [embedder.provider, embedder.model]
    if ids is not None:
        sql += f" WHERE c.id IN ({','.join('?' * len(ids))})"
        params += ids
    rows = conn.execute(sql + " ORDER BY c.id", params).fetchall()
    labels = np.array([r[0] for r in rows], dtype=np.int64)
    if not rows:
        return labels, np.zeros((0, embedder.dim), dtype=np.float32)
    vectors = np.vstack([np.frombuffer(r[1], dtype="<f4") for r in rows]).astype(np.float32, copy=False)
    return labels, vectors


def vectors_for(conn: sqlite3.Connection, embedder: Embedder, ids: list[int]) -> dict[int, np.ndarray]:
    """Stored vectors of some chunks (those that have one)."""
    out: dict[int, np.ndarray] = {}
    for start in range(0, len(ids), 500):
        labels, vectors = _all_vectors(conn, embedder, ids[start : start + 500])
        out.update(zip(labels.tolist(), vectors, strict=True))
    return out


def open_store(conn: sqlite3.Connection, state_dir: Path, embedder: Embedder, *, persist: bool = True):  # noqa: ANN201
    """The vector store for this embedder, brought up to date with the chunks (steps 2-3)."""
    from .vectors import VectorStore

    store = VectorStore(store_path(state_dir, embedder), embedder.dim, embedder.identity())
    notices = store.load(lambda: _all_vectors(conn, embedder), persist=persist)
    key = f"vectors:{embedder.identity()}"
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    current = generation(conn)
    if notices or (row and int(row[0]) == current):
        if notices:
            _record(conn, key, current)
        return store, notices
    ids = {r[0] for r in conn.execute(f"SELECT c.id FROM chunks c {_cache_join()}",
                                      (embedder.provider, embedder.model))}
    have = set(store.labels().tolist())
    gone, new = have - ids, sorted(ids - have)
    if len(gone) + len(new) > max(1000, len(ids) // 2):
        store.rebuild(*_all_vectors(conn, embedder))
    else:
        if gone:
            store.delete(sorted(gone))
        if new:
            labels, vectors = _all_vectors(conn, embedder, new) if len(new) <= 500 else _subset(conn, embedder, new)
            store.upsert(labels, vectors)
    if persist and (gone or new):
        try:
            store.save()
        except OSError as exc:
            notices.append(f"vector index not saved: {exc.strerror or exc}")
            return store, notices
    if persist:
        _record(conn, key, current)
    return store, notices


def _subset(conn: sqlite3.Connection, embedder: Embedder, ids: list[int]):  # noqa: ANN202
    found = vectors_for(conn, embedder, ids)
    labels = np.array(sorted(found), dtype=np.int64)
    return labels, np.vstack([found[i] for i in labels.tolist()])


def _record(conn: sqlite3.Connection, key: str, value: int) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, str(value)))
