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
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from ...embed.base import Embedder
from ..base import Filters, VectorUpdate, in_batches
from ..rows import context_text, embed_text
from .connection import transaction, writer_lock
from .embedding_cache import EmbeddingCache
from .reads import filter_sql
from .sync import generation

EMBED_BATCH = 256  # chunks embedded (and committed to the cache) at a time
SOURCE_OVERFETCH = 4  # a search that only drops transcripts looks this many times further first
BUDGET_BATCH = 16  # the batch of a time-bounded run (a recall): the bound holds within one batch


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
    rows = conn.execute(
        "SELECT c.text, c.text_hash, c.ctx_hash, p.text FROM chunks c"
        " LEFT JOIN chunks p ON p.id = c.id - 1 AND p.path = c.path"
        " WHERE NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1 AND e.model = ?2"
        "                   AND e.hash = c.text_hash AND e.dim = ?3)"
        " OR (c.ctx_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1"
        "                   AND e.model = ?2 AND e.hash = c.ctx_hash AND e.dim = ?3))"
        " ORDER BY c.id",
        (embedder.provider, embedder.model, embedder.dim),
    ).fetchall()
    todo: dict[str, str] = {}
    for text, digest, ctx_digest, previous in rows:
        todo.setdefault(digest, embed_text(text))
        if ctx_digest and previous is not None:
            todo.setdefault(ctx_digest, context_text(previous, text))
    if todo:
        cached = EmbeddingCache(conn).get_many(embedder.provider, embedder.model, todo, dim=embedder.dim)
        todo = {h: t for h, t in todo.items() if h not in cached}
    return list(todo.items())


def embed_missing(conn: sqlite3.Connection, embedder: Embedder,
                  encode: Callable[[list[str]], np.ndarray] | None = None,
                  progress: Callable[..., None] | None = None,
                  budget: float | None = None) -> tuple[int, int]:
    """Embed the texts of chunks that have no cached vector; returns (embedded, still missing).

    `progress(done, total, "embedding")` is called after each batch.

    With `budget` (seconds), stop starting new batches once it is spent: a recall answers
    from what is embedded and leaves the backlog to `memory index`. Small batches then, so
    the bound holds within about one batch.
    """
    started = time.perf_counter()
    items = missing_vectors(conn, embedder)
    cache = EmbeddingCache(conn)
    encode = encode or embedder.embed_documents
    # Similar lengths batch together: padding to the longest text of a batch is wasted work.
    # Shortest first, so a bounded run embeds as many entries as it can.
    items.sort(key=lambda item: len(item[1]))
    size = EMBED_BATCH if budget is None else BUDGET_BATCH
    done = 0
    for start in range(0, len(items), size):
        if budget is not None and time.perf_counter() - started >= budget:
            break
        batch = items[start : start + size]
        vectors = encode([text for _, text in batch])
        with transaction(conn):
            cache.put_many(embedder.provider, embedder.model, dict(zip([h for h, _ in batch], vectors, strict=True)))
        done += len(batch)
        if progress:
            progress(done, len(items), "embedding")
    return done, len(items) - done


_LABELED = (
    "SELECT c.id * 2 AS label, e.vector FROM chunks c JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.text_hash AND e.dim = ?3{where}"
    " UNION ALL SELECT c.id * 2 + 1, e.vector FROM chunks c JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.ctx_hash AND e.dim = ?3{where}"
)


def _all_vectors(conn: sqlite3.Connection, embedder: Embedder, ids: list[int] | None = None):  # noqa: ANN202
    """(labels, vectors) of every chunk, or of the chunks `ids`."""
    where = ""
    params: list = [embedder.provider, embedder.model, embedder.dim]
    if ids is not None:
        where = f" WHERE c.id IN ({','.join('?' + str(i + 4) for i in range(len(ids)))})"
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
    for part in in_batches(ids, 400):
        labels, vectors = _all_vectors(conn, embedder, list(part))
        for label, vec in zip(labels.tolist(), vectors, strict=True):
            out.setdefault(label_chunk(label), []).append(vec)
    return {cid: np.vstack(vecs) for cid, vecs in out.items()}


def open_store(conn: sqlite3.Connection, state_dir: Path, embedder: Embedder, *, persist: bool = True,  # noqa: ANN201
               complete: bool = True):
    """The vector store for this embedder, brought up to date with the chunks (steps 2-3).

    `complete=False` (some chunks still have no vector) leaves the generation unrecorded, so
    the next open adds the vectors embedded meanwhile.
    """
    from .hnsw import VectorStore

    store = VectorStore(store_path(state_dir, embedder), embedder.dim, embedder.identity())
    notices = store.load(lambda: _all_vectors(conn, embedder), persist=persist)
    key = f"vectors:{embedder.identity()}"
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    if row is None:
        notices = []  # the first build for this embedder: nothing was missing, nothing to report
    current = generation(conn)
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
            labels, vectors = _subset(conn, embedder, sorted({label_chunk(n) for n in new}))
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


def _subset(conn: sqlite3.Connection, embedder: Embedder, chunk_ids: list[int]):  # noqa: ANN202
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


class SqliteVectors:
    """One embedder's vectors in a SQLite index: the embedding cache plus the HNSW file (index.base.VectorIndex).

    Keeps the loaded HNSW store between calls and knows the index generation it matches, so a
    long-lived process (MCP server) pays for an update only when the chunks changed.
    """

    def __init__(self, conn: sqlite3.Connection, state_dir: Path, embedder: Embedder,
                 scope: Callable[[Filters], Filters] | None = None) -> None:
        self.conn = conn
        self.state_dir = state_dir
        self.embedder = embedder
        self.scope = scope or (lambda filters: filters)  # SqliteStore.scoped: drop clauses that exclude nothing
        self._store = None  # hnsw.VectorStore, opened by update()
        self._generation: int | None = None  # the generation the store is complete for

    def update(self, *, encode: Callable[[list[str]], np.ndarray] | None = None, embed: bool = True,
               budget: float | None = None, progress: Callable[[int, int], None] | None = None,
               wait: float = 0) -> VectorUpdate:
        """Embed what is missing (within `budget` seconds), then bring the HNSW store up to date.

        Only the holder of the writer lock saves the HNSW file (`memory index` waits `wait`
        seconds for it; a recall does not, and keeps its up-to-date copy in memory).
        """
        if self._store is not None and self._generation == generation(self.conn):
            return VectorUpdate()
        if embed:
            done, left = embed_missing(self.conn, self.embedder, encode=encode, progress=progress, budget=budget)
        else:
            done, left = 0, len(missing_vectors(self.conn, self.embedder))
        with writer_lock(self.state_dir, wait=wait) as held:
            self._store, notices = open_store(self.conn, self.state_dir, self.embedder, persist=held,
                                              complete=not left)
        self._generation = generation(self.conn) if not left else None
        return VectorUpdate(done, left, notices)

    def _opened(self):  # noqa: ANN202 - hnsw.VectorStore
        if self._store is None:
            self.update(embed=False)
        return self._store

    def search(self, query: np.ndarray, k: int, filters: Filters) -> list[tuple[int, float]]:
        """The `k` nearest entries: (chunk id, the better cosine of its two vectors)."""
        filters = self.scope(filters)
        where, params = filter_sql(filters)
        if where and not filter_sql(replace(filters, sources=(), include_invalid=True))[0]:
            # Only "memory, not transcripts" (or "valid only"): most entries pass, and listing them
            # all for the index costs more than looking further and dropping the few that do not.
            found = self._nearest(query, k * SOURCE_OVERFETCH, None)
            passing = self._passing([cid for cid, _ in found], where, params)
            kept = [(cid, cos) for cid, cos in found if cid in passing]
            if len(kept) >= k or len(found) < k * SOURCE_OVERFETCH:
                return kept[:k]
        allowed = None
        if where:
            allowed = {label for (cid,) in self.conn.execute(f"SELECT c.id FROM chunks c WHERE {where}", params)
                       for label in chunk_labels(cid)}
        return self._nearest(query, k, allowed)

    def _nearest(self, query: np.ndarray, k: int, allowed: set[int] | None) -> list[tuple[int, float]]:
        best: dict[int, float] = {}
        for label, cosine in self._opened().search(query, k * 2, allowed):
            cid = label_chunk(label)
            best[cid] = max(float(cosine), best.get(cid, -1.0))
        return sorted(best.items(), key=lambda item: (-item[1], item[0]))[:k]

    def _passing(self, ids: list[int], where: str, params: tuple) -> set[int]:
        out: set[int] = set()
        for part in in_batches(ids):
            out.update(cid for (cid,) in self.conn.execute(
                f"SELECT c.id FROM chunks c WHERE c.id IN ({','.join('?' * len(part))}) AND {where}",
                (*part, *params)))
        return out

    def vectors_of(self, ids) -> dict[int, np.ndarray]:  # noqa: ANN001 - Sequence[int]
        return vectors_for(self.conn, self.embedder, list(ids))
