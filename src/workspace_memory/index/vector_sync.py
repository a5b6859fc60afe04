"""Chunk vectors: embed new text through the cache, keep the HNSW file in step with SQLite.

SQLite holds every vector (embedding_cache, keyed by provider, model and the hash of
the embedded text). Each chunk has up to two: its entry alone and the entry after the
previous one of its section (rows.EMBED_SCHEME). The HNSW file under `.memory/vectors/`
is a cache of (label -> vector), label = 2 x chunk id (+1 for the context vector), that
can always be rebuilt.

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
from .rows import context_text, embed_text
from .store import transaction
from .sync import generation

EMBED_BATCH = 256  # chunks embedded (and committed to the cache) at a time


def store_path(state_dir: Path, embedder: Embedder) -> Path:
    """One HNSW file per embedder identity, so switching models never mixes vectors."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", embedder.identity()).strip("-")
    return state_dir / "vectors" / f"{slug}.hnsw"


def label_chunk(label: int) -> int:
    """The chunk a vector label belongs to."""
    return label // 2


def chunk_labels(chunk_id: int) -> tuple[int, int]:
    """The labels of a chunk's two vectors (alone, with context)."""
    return chunk_id * 2, chunk_id * 2 + 1


def missing_vectors(conn: sqlite3.Connection, embedder: Embedder) -> list[tuple[str, str]]:
    """(hash, text) of the embedded texts of chunks that are not in the cache yet."""
    import sqlite_utils

    from ..embed.cache import EmbeddingCache

    EmbeddingCache(sqlite_utils.Database(conn))  # creates the cache table if needed
    rows = conn.execute(
        "SELECT c.text, c.text_hash, c.ctx_hash, p.text FROM chunks c"
        " LEFT JOIN chunks p ON p.id = c.id - 1 AND p.path = c.path"
        " WHERE NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1 AND e.model = ?2"
        "                   AND e.hash = c.text_hash)"
        " OR (c.ctx_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1"
        "                   AND e.model = ?2 AND e.hash = c.ctx_hash))"
        " ORDER BY c.id",
        (embedder.provider, embedder.model),
    ).fetchall()
    todo: dict[str, str] = {}
    for text, digest, ctx_digest, previous in rows:
        todo.setdefault(digest, embed_text(text))
        if ctx_digest and previous is not None:
            todo.setdefault(ctx_digest, context_text(previous, text))
    if todo:
        cached = EmbeddingCache(sqlite_utils.Database(conn)).get_many(embedder.provider, embedder.model, todo)
        todo = {h: t for h, t in todo.items() if h not in cached}
    return list(todo.items())


def embed_missing(conn: sqlite3.Connection, embedder: Embedder,
                  encode: Callable[[list[str]], np.ndarray] | None = None,
                  progress: Callable[[int, int], None] | None = None) -> int:
    """Embed every text of a chunk that has no cached vector; returns how many were embedded."""
    import sqlite_utils

    from ..embed.cache import EmbeddingCache

    items = missing_vectors(conn, embedder)
    cache = EmbeddingCache(sqlite_utils.Database(conn))
    encode = encode or embedder.embed_documents
    # Similar lengths batch together: padding to the longest text of a batch is wasted work.
    items.sort(key=lambda item: len(item[1]))
    for start in range(0, len(items), EMBED_BATCH):
        batch = items[start : start + EMBED_BATCH]
        vectors = encode([text for _, text in batch])
        with transaction(conn):
            cache.put_many(embedder.provider, embedder.model, dict(zip([h for h, _ in batch], vectors, strict=True)))
        if progress:
            progress(min(start + EMBED_BATCH, len(items)), len(items))
    return len(items)


_LABELED = (
    "SELECT c.id * 2 AS label, e.vector FROM chunks c JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.text_hash{where}"
    " UNION ALL SELECT c.id * 2 + 1, e.vector FROM chunks c JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.ctx_hash{where}"
)


def _all_vectors(conn: sqlite3.Connection, embedder: Embedder, ids: list[int] | None = None):  # noqa: ANN202
    """(labels, vectors) of every chunk, or of the chunks `ids`."""
    where = ""
    params: list = [embedder.provider, embedder.model]
    if ids is not None:
        where = f" WHERE c.id IN ({','.join('?' + str(i + 3) for i in range(len(ids)))})"
        params += ids
    rows = conn.execute(_LABELED.format(where=where) + " ORDER BY 1", params).fetchall()
    labels = np.array([r[0] for r in rows], dtype=np.int64)
    if not rows:
        return labels, np.zeros((0, embedder.dim), dtype=np.float32)
    vectors = np.vstack([np.frombuffer(r[1], dtype="<f4") for r in rows]).astype(np.float32, copy=False)
    return labels, vectors


def vectors_for(conn: sqlite3.Connection, embedder: Embedder, ids: list[int]) -> dict[int, np.ndarray]:
    """The stored vectors of some chunks: chunk id -> (1 or 2, dim) array."""
    out: dict[int, list[np.ndarray]] = {}
    for start in range(0, len(ids), 400):
        labels, vectors = _all_vectors(conn, embedder, ids[start : start + 400])
        for label, vec in zip(labels.tolist(), vectors, strict=True):
            out.setdefault(label_chunk(label), []).append(vec)
    return {cid: np.vstack(vecs) for cid, vecs in out.items()}


def open_store(conn: sqlite3.Connection, state_dir: Path, embedder: Embedder, *, persist: bool = True):  # noqa: ANN201
    """The vector store for this embedder, brought up to date with the chunks (steps 2-3)."""
    from .vectors import VectorStore

    store = VectorStore(store_path(state_dir, embedder), embedder.dim, embedder.identity())
    notices = store.load(lambda: _all_vectors(conn, embedder), persist=persist)
    key = f"vectors:{embedder.identity()}"
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    if row is None:
        notices = []  # the first build for this embedder: nothing was missing, nothing to report
    current = generation(conn)
    if notices or (row and int(row[0]) == current):
        if notices:
            _record(conn, key, current)
        return store, notices
    ids = {r[0] for r in conn.execute(_LABELED.format(where="").replace(", e.vector", ""),
                                      (embedder.provider, embedder.model))}
    have = set(store.labels().tolist())
    gone, new = have - ids, sorted(ids - have)
    if len(gone) + len(new) > max(1000, len(ids) // 2):
        store.rebuild(*_all_vectors(conn, embedder))
    else:
        if gone:
            store.delete(sorted(gone))
        if new:
            labels, vectors = _subset(conn, embedder, sorted({label_chunk(n) for n in new}))
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


def _subset(conn: sqlite3.Connection, embedder: Embedder, chunk_ids: list[int]):  # noqa: ANN202
    labels, vectors = [], []
    for start in range(0, len(chunk_ids), 400):
        part_labels, part_vectors = _all_vectors(conn, embedder, chunk_ids[start : start + 400])
        labels.append(part_labels)
        vectors.append(part_vectors)
    return np.concatenate(labels), np.vstack(vectors)


MODEL_KEY = "embedding_model"
_LOCAL_IDENTITY_RE = re.compile(r"vectors:local/(?P<model>.+)/\d+/[^/]+")


def built_with(conn: sqlite3.Connection) -> str | None:
    """The local model this index's vectors were made with, or None for an index without any.

    Recorded by `record_model`; an index from before that record existed is read from the
    identities of its vector stores (`vectors:local/<model>/<dim>/...`), the newest first.
    """
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (MODEL_KEY,)).fetchone()
    if row:
        return row[0] or None  # "": forgotten by a rebuild, the settings decide
    stores = conn.execute("SELECT key, value FROM meta WHERE key LIKE 'vectors:local/%'").fetchall()
    for key, _ in sorted(stores, key=lambda kv: int(kv[1]) if str(kv[1]).isdigit() else 0, reverse=True):
        match = _LOCAL_IDENTITY_RE.fullmatch(key)
        if match:
            return match["model"]
    return None


def record_model(conn: sqlite3.Connection, embedder: Embedder) -> None:
    """Remember the local model that made this index's vectors (other providers are not recorded)."""
    if embedder.provider == "local":
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (MODEL_KEY, embedder.model))


def forget_model(conn: sqlite3.Connection) -> None:
    """Forget which model the index was built with (`memory index --rebuild`): the settings decide again."""
    if built_with(conn) is not None:  # a lexical-only index has nothing to forget: no write
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, '')", (MODEL_KEY,))


def _record(conn: sqlite3.Connection, key: str, value: int) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, str(value)))
