"""Chunk vectors: embed new text through the cache, keep the HNSW file in step with SQLite.

SQLite holds every vector (embedding_cache, keyed by provider, model and the hash of
the embedded text). Each chunk has up to two: its entry alone and the entry after the
previous one of its section (rows.EMBED_SCHEME). The HNSW file under `.memory/vectors/`
is a cache of (label -> vector), label = 2 x chunk id (+1 for the context vector), that
can always be rebuilt.

1. Embed the chunks whose text has no cached vector yet (a file edit embeds only the
   entries that changed; a rename or --rebuild embeds nothing).
2. Open the vector store: the HNSW file, with the recent file (recent_file) laid over it.
   The two record the index generation they match (meta `vectors:<identity>`, and
   `vectors:<identity>:recent` for the recent file); if the chunks changed since, apply the
   difference of chunk ids (ids are never reused), or rebuild from SQLite when most of it
   changed. The writer after one small sync takes that sync's own change (meta `chunk_delta`)
   straight to the recent file, without reading the HNSW file.
3. Save atomically, so concurrent readers see the old or the new file, never half: a small
   change in the recent file, a large one (or a full recent file) folded into the HNSW file.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ....embed.base import Embedder
from ...base import in_batches
from ...embedding import embed_in_batches, texts_to_embed
from ..connection import transaction
from ..writer import generation
from .currency import LAY_OVER, USE, decide, hnsw_state, recent_state
from .embedding_cache import EmbeddingCache

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


def missing_vectors(conn: sqlite3.Connection, provider: str, model: str, dim: int,
                    ids: Sequence[int] | None = None) -> list[tuple[str, str]]:
    """(hash, text) of the embedded texts of chunks (all, or the chunks `ids`) that the cache holds
    no vector of (`dim` long) for this provider and model (IndexWriter.texts_without_vectors)."""
    only = "" if ids is None else f" AND c.id IN ({','.join(str(int(i)) for i in ids) or 'NULL'})"
    rows = conn.execute(
        "SELECT c.text, c.text_hash, c.ctx_hash, p.text FROM chunks c"
        " LEFT JOIN chunks p ON p.id = c.id - 1 AND p.path = c.path"
        " WHERE (NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1 AND e.model = ?2"
        "                   AND e.hash = c.text_hash AND e.dim = ?3)"
        " OR (c.ctx_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = ?1"
        f"                   AND e.model = ?2 AND e.hash = c.ctx_hash AND e.dim = ?3))){only}"
        " ORDER BY c.id",
        (provider, model, dim),
    )
    todo = texts_to_embed(rows)  # row by row: 200,000 entries' texts are never one list
    if todo:
        cached = EmbeddingCache(conn).get_many(provider, model, todo, dim=dim)
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
    items = missing_vectors(conn, embedder.provider, embedder.model, embedder.dim, ids)
    cache = EmbeddingCache(conn)

    def put(vectors) -> None:  # {hash: vector}
        with transaction(conn):
            cache.put_many(embedder.provider, embedder.model, vectors)

    done = embed_in_batches(items, encode or embedder.embed_documents, put, budget=budget, progress=progress)
    return done, len(items) - done


# CROSS JOIN fixes the loop order: each chunk looks its vector up by the cache's primary key. Left
# to the planner (no statistics), the label-only form scanned the cache outside and every chunk
# inside it (chunks has no index on its hashes): 100,000 chunks x 12,000 cached vectors took
# many minutes instead of under a second.
#
# An entry inside a vector window (rows.share_vectors: its previous entry of the file has its text
# hash) adds no label: the window's vector is kept once, under its first entry (windows).
_LABELED = (
    "SELECT c.id * 2 AS label, e.vector FROM chunks c CROSS JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.text_hash AND e.dim = ?3"
    " AND NOT EXISTS (SELECT 1 FROM chunks w WHERE w.id = c.id - 1 AND w.text_hash = c.text_hash"
    " AND w.path = c.path){where}"
    " UNION ALL SELECT c.id * 2 + 1, e.vector FROM chunks c CROSS JOIN embedding_cache e"
    " ON e.provider = ?1 AND e.model = ?2 AND e.hash = c.ctx_hash AND e.dim = ?3{where}"
)


def _all_vectors(conn: sqlite3.Connection, embedder: Embedder, ids: list[int] | None = None):
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


def _streamed(conn: sqlite3.Connection, embedder: Embedder, step: int = 2048):
    """(at most how many vectors, their (labels, vectors) in batches of `step` chunks, by chunk id):
    a rebuild's vectors read from SQLite a batch at a time (hnsw.VectorStore.build). Each batch is
    a view of one buffer (8 MB at 512 dimensions), refilled for the next: use it before asking."""
    low, high, count = conn.execute("SELECT MIN(id), MAX(id), COUNT(*) FROM chunks").fetchone()
    params = [embedder.provider, embedder.model, embedder.dim]
    where = " WHERE c.id >= ?4 AND c.id < ?5"

    def batches():
        labels = np.empty(2 * step, dtype=np.int64)
        vectors = np.empty((2 * step, embedder.dim), dtype=np.float32)
        for start in range(low or 0, (high or -1) + 1, step):
            n = 0
            for label, blob in conn.execute(_LABELED.format(where=where) + " ORDER BY 1", [*params, start, start + step]):
                labels[n] = label
                vectors[n] = np.frombuffer(blob, dtype="<f4")
                n += 1
            if n:
                yield labels[:n], vectors[:n]

    return 2 * count, batches()


def complete_at(conn: sqlite3.Connection, embedder: Embedder) -> int | None:
    """The index generation at which every chunk had this embedder's vectors, in the cache and in
    the vector store (recorded by open_store; `memory forget --purge` forgets it), or None."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"vectors:{embedder.identity()}",)).fetchone()
    return int(row[0]) if row else None


def open_store(conn: sqlite3.Connection, state_dir: Path, embedder: Embedder, *, persist: bool = True,
               complete: bool = True, seen: int | None = None, defer: bool = False):
    """The vector store for this embedder, brought up to date with the chunks (steps 2-3), and notices.

    With `defer`, the store is None when a writer recorded a small change in the recent file
    without opening the HNSW file (step a; the next search opens both). `complete=False` (some
    chunks still have no vector) leaves the generation unrecorded, so the next open adds the
    vectors embedded meanwhile. `seen`: the generation `complete` was found at; when another
    process changed the chunks since, nothing is recorded either.
    """
    from . import recent_file
    from .hnsw import VectorStore
    from .live import LiveVectors

    key = f"vectors:{embedder.identity()}"
    recorded, recent_at = _meta_number(conn, key), _meta_number(conn, key + RECENT_KEY)
    current = generation(conn)
    complete = complete and seen in (None, current)
    path = store_path(state_dir, embedder)
    recent_path = recent_file.path_for(path)
    # a. The writer after one small sync, when the files were complete just before it: the sync's
    #    chunk changes go to the recent file; the HNSW file is neither read nor written.
    after_one_sync = defer and persist and complete and recorded == current - 1
    if after_one_sync and _record_change(conn, embedder, path, key, current):
        return None, []
    # b. The HNSW file (or a rebuild from SQLite, which then holds everything), the recent file over it.
    # (the first build for this embedder, recorded None: nothing was missing, nothing to report)
    store = VectorStore(path, embedder.dim, embedder.identity())
    notices = store.load(lambda: _all_vectors(conn, embedder), persist=persist, check=_as_in_sqlite(conn, embedder),
                         stream=lambda: _streamed(conn, embedder), first=recorded is None)
    if store.rebuilt:  # currency.REBUILD: the HNSW file now holds everything
        if store.digest is not None:  # saved: the recent file extends a file that is gone (DROP)
            _forget_recent(conn, recent_path, key)
        if complete:
            _record(conn, key, current)
        return store, notices
    # Which copies are current, and what to do (currency.decide): the recent file laid over the
    # HNSW file, or dropped; the two used as they are, or caught up with the chunks.
    recent = recent_file.read(recent_path, embedder.dim, embedder.identity()) if recent_at is not None else None
    plan = decide(hnsw_state(None, behind=recorded != current),
                  recent_state(recent_at, recent_at is not None and recent_path.exists(), recent is not None,
                               recent is not None and recent.base == store.digest,
                               recent.generation if recent is not None else None),
                  writer=persist)
    notices += plan.notices
    recent = recent if plan.recent == LAY_OVER else None
    live = LiveVectors(store)
    if recent is not None:
        live.apply((recent.labels, recent.vectors), recent.deleted.tolist())
    if plan.hnsw == USE:
        return (live if recent is not None else store), notices
    # c. Out of step: apply the difference between the labels held and the chunks' (ids are never reused).
    ids = {r[0] for r in conn.execute(_LABELED.format(where="").replace(", e.vector", ""),
                                      (embedder.provider, embedder.model, embedder.dim))}
    have = set(live.labels().tolist())
    gone, new = sorted(have - ids), sorted(ids - have)
    if len(gone) + len(new) > max(1000, len(ids) // 2):
        # A big one straight from SQLite to the file, never two copies of every vector in memory.
        if persist and store.streams(*_streamed(conn, embedder)):
            _forget_recent(conn, recent_path, key)
            if complete:
                _record(conn, key, current)
            return store, notices
        store.rebuild(*_all_vectors(conn, embedder))
        changed = None
    else:
        added = chunk_vectors(conn, embedder, sorted({label_chunk(n) for n in new})) if new else _NO_VECTORS
        live.apply(added, gone)
        changed = recent_file.changed(recent, store.digest or "", current, embedder.dim, *added, gone)
    if not persist or not (gone or new):
        if persist and complete:  # what is loaded matches the chunks: say which files hold it
            with transaction(conn):
                _record(conn, key, current)
                if recent is not None:
                    _record(conn, key + RECENT_KEY, recent.generation)
                else:
                    conn.execute("DELETE FROM meta WHERE key = ?", (key + RECENT_KEY,))
        return (store if changed is None or not (recent is not None or len(changed)) else live), notices
    # d. The writer keeps a small change in the recent file, and folds a large one into the HNSW file.
    if changed is not None and store.digest is not None and len(changed) <= recent_file.LIMIT:
        recent_file.write(recent_path, changed, embedder.dim, embedder.identity())
        if complete:
            with transaction(conn):
                _record(conn, key, current)
                _record(conn, key + RECENT_KEY, current)
        return live, notices
    if changed is not None:
        store.delete(changed.deleted)
        store.upsert(changed.labels, changed.vectors)
    try:
        store.save()
    except OSError as exc:
        notices.append(f"vector index not saved: {exc.strerror or exc}")
        return store, notices
    _forget_recent(conn, recent_path, key)
    if complete:
        _record(conn, key, current)
    return store, notices


RECENT_KEY = ":recent"  # meta `vectors:<identity>:recent`: the generation the recent file is complete at
_NO_VECTORS = (np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32))


def _as_in_sqlite(conn: sqlite3.Connection, embedder: Embedder) -> Callable[[np.ndarray, np.ndarray], bool]:
    """hnsw's layout check: vectors read from the HNSW file are SQLite's (normalised) for the same
    labels. A sample whose chunks are all gone proves nothing: the store then checks with hnswlib."""
    from ....embed.base import l2_normalize

    def check(labels: np.ndarray, vectors: np.ndarray) -> bool:
        known, stored = _all_vectors(conn, embedder, sorted({label_chunk(int(x)) for x in labels}))
        by_label = dict(zip(known.tolist(), stored, strict=True))
        compared = 0
        for label, vector in zip(labels.tolist(), vectors, strict=True):
            if (want := by_label.get(label)) is not None:
                if not np.allclose(l2_normalize(want), vector, atol=1e-5):
                    return False
                compared += 1
        return compared > 0

    return check


def _record_change(conn: sqlite3.Connection, embedder: Embedder, path: Path, key: str, current: int) -> bool:
    """Step a of open_store: add the last sync's chunk changes to the recent file; False when it
    cannot (no recorded change, no usable HNSW sidecar or recent file, or the file would be full)."""
    from ..writer import chunk_delta
    from . import recent_file
    from .hnsw_file import sidecar_digest

    delta = chunk_delta(conn)
    base = sidecar_digest(path, embedder.dim, embedder.identity())
    if delta is None or base is None:
        return False
    recent = None
    recent_at = _meta_number(conn, key + RECENT_KEY)
    if recent_at is not None:
        recent = recent_file.read(recent_file.path_for(path), embedder.dim, embedder.identity())
        if recent is None or recent.base != base or recent.generation != recent_at or recent_at != current - 1:
            return False
    new_ids, removed_ids = delta
    added = chunk_vectors(conn, embedder, new_ids) if new_ids else _NO_VECTORS
    removed = [label for cid in removed_ids for label in chunk_labels(cid)]
    changed = recent_file.changed(recent, base, current, embedder.dim, *added, removed)
    if len(changed) > recent_file.LIMIT:
        return False
    recent_file.write(recent_file.path_for(path), changed, embedder.dim, embedder.identity())
    with transaction(conn):
        _record(conn, key, current)
        _record(conn, key + RECENT_KEY, current)
    return True


def _forget_recent(conn: sqlite3.Connection, recent_path: Path, key: str) -> None:
    """The recent file's changes are in the HNSW file now (or it extends a file that is gone)."""
    from . import recent_file

    conn.execute("DELETE FROM meta WHERE key = ?", (key + RECENT_KEY,))
    recent_file.remove(recent_path)


def _meta_number(conn: sqlite3.Connection, key: str) -> int | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row and str(row[0]).isdigit() else None


def follow_changes(conn: sqlite3.Connection, store, embedder: Embedder,  # live.LiveVectors
                   new_ids: list[int], removed_ids: list[int], *,
                   encode: Callable[[list[str]], np.ndarray] | None = None, budget: float | None = None) -> bool:
    """Apply one sync's chunk changes to `store`: embed the new texts (within `budget` seconds), delete the
    vectors of removed chunks, add those of new ones. Nothing is saved.

    Returns False when some text could not be embedded in time or the side store is full (the caller
    then reopens the store the usual way, which records what is still missing).
    """
    _, left = embed_missing(conn, embedder, encode=encode, budget=budget, ids=new_ids)
    if left:
        return False
    removed = [label for cid in removed_ids for label in chunk_labels(cid)]
    store.apply(chunk_vectors(conn, embedder, sorted(new_ids)) if new_ids else (np.zeros(0), None), removed)
    return not store.full


def chunk_vectors(conn: sqlite3.Connection, embedder: Embedder, chunk_ids: list[int]):
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
