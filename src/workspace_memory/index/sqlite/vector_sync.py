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
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ...embed.base import Embedder
from ..base import in_batches
from ..embedding import embed_in_batches, texts_to_embed
from .connection import transaction
from .embedding_cache import EmbeddingCache
from .sync import generation

SOURCE_OVERFETCH = 4  # a search that only drops transcripts looks this many times further first


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


def missing_vectors(conn: sqlite3.Connection, embedder: Embedder,
                    ids: Sequence[int] | None = None) -> list[tuple[str, str]]:
    """(hash, text) of the embedded texts of chunks (all, or the chunks `ids`) that are not in the cache yet."""
    only = "" if ids is None else f" AND c.id IN ({','.join(str(int(i)) for i in ids) or 'NULL'})"
    rows = conn.execute(
        "SELECT c.text, c.text_hash, c.ctx_hash, p.text FROM chunks c"
        " LEFT JOIN chunks p ON p.id = c.id - 1 AND p.path = c.path"
        " WHERE (NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1 AND e.model = ?2"
        "                   AND e.hash = c.text_hash AND e.dim = ?3)"
        " OR (c.ctx_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1"
        f"                   AND e.model = ?2 AND e.hash = c.ctx_hash AND e.dim = ?3))){only}"
        " ORDER BY c.id",
        (embedder.provider, embedder.model, embedder.dim),
    ).fetchall()
    todo = texts_to_embed(rows)
    if todo:
        cached = EmbeddingCache(conn).get_many(embedder.provider, embedder.model, todo, dim=embedder.dim)
        todo = {h: t for h, t in todo.items() if h not in cached}
    return list(todo.items())


def embed_missing(conn: sqlite3.Connection, embedder: Embedder,
                  encode: Callable[[list[str]], np.ndarray] | None = None,
                  progress: Callable[..., None] | None = None,
                  budget: float | None = None, ids: list[int] | None = None) -> tuple[int, int]:
    """Embed the texts of chunks (all, or `ids`) that have no cached vector; returns (embedded, still missing).

    `progress(done, total, "embedding")` is called after each batch.

    With `budget` (seconds), stop starting new batches once it is spent: a recall answers
    from what is embedded and leaves the backlog to `memory index` (index.embedding).
    """
    items = missing_vectors(conn, embedder, ids)
    cache = EmbeddingCache(conn)

    def put(vectors) -> None:  # noqa: ANN001 - {hash: vector}
        with transaction(conn):
            cache.put_many(embedder.provider, embedder.model, vectors)

    done = embed_in_batches(items, encode or embedder.embed_documents, put, budget=budget, progress=progress)
    return done, len(items) - done


# CROSS JOIN fixes the loop order: each chunk looks its vector up by the cache's primary key. Left
# to the planner (no statistics), the label-only form scanned the cache outside and every chunk
# inside it (chunks has no index on its hashes): 100,000 chunks x 12,000 cached vectors took
# many minutes instead of under a second.
_LABELED = (
    "SELECT c.id * 2 AS label, e.vector FROM chunks c CROSS JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.text_hash AND e.dim = ?3{where}"
    " UNION ALL SELECT c.id * 2 + 1, e.vector FROM chunks c CROSS JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.ctx_hash AND e.dim = ?3{where}"
)


def _all_vectors(conn: sqlite3.Connection, embedder: Embedder, ids: list[int] | None = None):  # noqa: ANN202
    """(labels, vectors) of every chunk, or of the chunks `ids`."""
    where = ""
    params: list = [embedder.provider, embedder.model, embedder.dim]
    if ids is not None:
        where = f" WHERE c.id IN ({','.join('?' + str(i + 4) for i in range(len(ids)))})"
        params += ids
    # Filled row by row into arrays sized for two vectors a chunk: pages never written are never
    # resident, and no list of 1.39M blobs (2.8 GB) plus its stacked copy exists at once.
    chunks = len(ids) if ids is not None else conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    labels = np.empty(2 * chunks, dtype=np.int64)
    vectors = np.empty((2 * chunks, embedder.dim), dtype=np.float32)
    n = 0
    for label, blob in conn.execute(_LABELED.format(where=where) + " ORDER BY 1", params):
        if n == len(labels):  # chunks added since the count (another process indexed meanwhile)
            labels = np.resize(labels, 2 * n + 2)
            vectors = np.resize(vectors, (2 * n + 2, embedder.dim))
        labels[n] = label
        vectors[n] = np.frombuffer(blob, dtype="<f4")
        n += 1
    return labels[:n].copy(), vectors[:n]


def complete_at(conn: sqlite3.Connection, embedder: Embedder) -> int | None:
    """The index generation at which every chunk had this embedder's vectors, in the cache and in
    the vector store (recorded by open_store; `memory forget --purge` forgets it), or None."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"vectors:{embedder.identity()}",)).fetchone()
    return int(row[0]) if row else None


def open_store(conn: sqlite3.Connection, state_dir: Path, embedder: Embedder, *, persist: bool = True,  # noqa: ANN201
               complete: bool = True, seen: int | None = None):
    """The vector store for this embedder, brought up to date with the chunks (steps 2-3).

    `complete=False` (some chunks still have no vector) leaves the generation unrecorded, so
    the next open adds the vectors embedded meanwhile. `seen`: the generation `complete` was
    found at; when another process changed the chunks since, nothing is recorded either.
    """
    from .hnsw import VectorStore

    store = VectorStore(store_path(state_dir, embedder), embedder.dim, embedder.identity())
    notices = store.load(lambda: _all_vectors(conn, embedder), persist=persist)
    key = f"vectors:{embedder.identity()}"
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    if row is None:
        notices = []  # the first build for this embedder: nothing was missing, nothing to report
    current = generation(conn)
    complete = complete and seen in (None, current)
    if notices or (row and int(row[0]) == current):
        if notices and complete:
            _record(conn, key, current)
        return store, notices
    ids = {r[0] for r in conn.execute(_LABELED.format(where="").replace(", e.vector", ""),
                                      (embedder.provider, embedder.model, embedder.dim))}
    have = set(store.labels().tolist())
    gone, new = have - ids, sorted(ids - have)
    if len(gone) + len(new) > max(1000, len(ids) // 2):
        store.rebuild(*_all_vectors(conn, embedder))
    else:
        if gone:
            store.delete(sorted(gone))
        if new:
            labels, vectors = chunk_vectors(conn, embedder, sorted({label_chunk(n) for n in new}))
            store.upsert(labels, vectors)
    if persist and (gone or new):
        try:
            store.save()
        except OSError as exc:
            notices.append(f"vector index not saved: {exc.strerror or exc}")
            return store, notices
    if persist and complete:
        _record(conn, key, current)
    return store, notices


def chunk_vectors(conn: sqlite3.Connection, embedder: Embedder, chunk_ids: list[int]):  # noqa: ANN201
    """(labels, vectors) of the stored vectors of some chunks."""
    labels, vectors = [], []
    for part in in_batches(chunk_ids, 400):
        part_labels, part_vectors = _all_vectors(conn, embedder, list(part))
        labels.append(part_labels)
        vectors.append(part_vectors)
    return np.concatenate(labels), np.vstack(vectors)


MODEL_KEY = "embedding_model"
_LOCAL_IDENTITY_RE = re.compile(r"vectors:local/(?P<model>.+)/\d+/[^/]+")


def built_with(conn: sqlite3.Connection) -> str | None:
    """The local model this index's vectors were made with, or None (see index.base.Store.built_with).

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


def record_model(conn: sqlite3.Connection, model: str | None) -> None:
    """Remember the local model that made this index's vectors; None forgets it (a rebuild).

    One row of meta, written on its own (autocommit, like the embedding cache a recall fills):
    forgetting leaves "" so that the identities of old vector stores no longer speak either, and
    an index that records nothing (lexical only) is not written to at all.
    """
    if model is None and built_with(conn) is None:
        return
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (MODEL_KEY, model or ""))


def _record(conn: sqlite3.Connection, key: str, value: int) -> None:
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, str(value)))
