"""SqliteVectors: one embedder's vectors in a SQLite index, as recall and sync see them (index.base.VectorIndex).

The functions it stands on live in sync (the embedding cache and the HNSW file) and
live (a long-lived process following edits in memory); this class ties them to one
connection and remembers which index generation its loaded store matches.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ....embed.base import Embedder, release_memory
from ...base import Filters, in_batches
from ...records import VectorUpdate
from ...sql_filters import filter_sql
from ..connection import writer_lock
from ..reads import DIALECT
from ..writer import generation
from . import windows
from .live import LiveVectors
from .sync import (
    SOURCE_OVERFETCH,
    chunk_labels,
    complete_at,
    embed_missing,
    follow_changes,
    label_chunk,
    missing_vectors,
    open_store,
)

# Texts embedded in one update after which the model's memory is handed back before the HNSW file is
# built (embed.base.release_memory): a 100k-line transcript peaked at 462 MiB with the model held.
RELEASE_AFTER = 2_000
VECTORS_KEPT = 2_000  # entries whose vectors vectors_of keeps at most (8 MB at 512 dimensions)


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
        self._kept: dict[int, np.ndarray | None] = {}  # vectors_of's answers for this store and generation
        self._members: dict[int, list[int]] = {}  # windows.members' answers, likewise
        self._kept_for: tuple[int, int] | None = None

    @property
    def _space(self) -> tuple[str, str, int]:
        return self.embedder.provider, self.embedder.model, self.embedder.dim

    def update(self, *, encode: Callable[[list[str]], np.ndarray] | None = None, embed: bool = True,
               budget: float | None = None, progress: Callable[[int, int], None] | None = None,
               wait: float = 0, defer: bool = True) -> VectorUpdate:
        """Embed what is missing (within `budget` seconds), then bring the HNSW store up to date.

        Only the holder of the writer lock saves the HNSW file (`memory index` waits `wait`
        seconds for it; a recall does not, and keeps its up-to-date copy in memory). With `defer`, a
        small change may go to the recent file without loading the store (sync.open_store).
        """
        seen = generation(self.conn)
        if self._store is not None and self._generation == seen:
            return VectorUpdate()
        if complete_at(self.conn, self.embedder) == seen:
            # Every entry had its vectors at this generation (open_store records no other): nothing to
            # look for, which saves a cold recall a join of every chunk with the embedding cache.
            done, left = 0, 0
        elif embed:
            done, left = embed_missing(self.conn, self.embedder, encode=encode, progress=progress, budget=budget)
            if done >= RELEASE_AFTER:
                release_memory(self.embedder)
        else:
            done, left = 0, len(missing_vectors(self.conn, *self._space))
        with writer_lock(self.state_dir, wait=wait) as held:
            self._store, notices = open_store(self.conn, self.state_dir, self.embedder, persist=held,
                                              complete=not left, seen=seen, defer=defer)
        # No store: a small change went to the recent file unopened; the next search opens both files.
        self._generation = generation(self.conn) if not left and self._store is not None else None
        return VectorUpdate(done, left, notices)

    def _opened(self):  # hnsw.VectorStore
        if self._store is None:
            self.update(embed=False, defer=False)
        return self._store

    def load_graph(self) -> None:
        """Open the store and its HNSW graph now, for a long-lived process's later searches."""
        self._opened().load_graph()

    def search(self, query: np.ndarray, k: int, filters: Filters) -> list[tuple[int, float]]:
        """The `k` nearest entries: (chunk id, the better cosine of its two vectors)."""
        filters = self.scope(filters)
        where, params = filter_sql(filters, DIALECT)
        if where and not filter_sql(filters.replace(sources=(), include_invalid=True), DIALECT)[0]:
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
        nearest = sorted(best.items(), key=lambda item: (-item[1], item[0]))[:k]
        # A window's vector counts for each of its entries (windows): k windows can give more
        # than k entries, all cited line by line; the lexical score then tells them apart.
        following = self._window_members([cid for cid, _ in nearest])
        out = []
        for cid, cosine in nearest:
            out.append((cid, cosine))
            out += [(other, cosine) for other in following[cid] if other not in best]
        return out

    def _window_members(self, heads: list[int]) -> dict[int, list[int]]:
        """windows.members, kept like vectors_of's answers (the same entries come back question after question)."""
        if not self._keeping(self._opened()):
            return windows.members(self.conn, heads)
        missing = [cid for cid in heads if cid not in self._members]
        if missing:
            self._members.update(windows.members(self.conn, missing))
        return {cid: self._members[cid] for cid in heads}

    def _passing(self, ids: list[int], where: str, params: tuple) -> set[int]:
        out: set[int] = set()
        for part in in_batches(ids):
            out.update(cid for (cid,) in self.conn.execute(
                f"SELECT c.id FROM chunks c WHERE c.id IN ({','.join('?' * len(part))}) AND {where}",
                (*part, *params)))
        return out

    def vectors_of(self, ids) -> dict[int, np.ndarray]:  # Sequence[int]
        """From the loaded store's exact copy (what search saw), not SQLite: a recall asks for the
        vectors of a hundred candidates, and decoding them from blobs cost more than the search.

        Kept while the store is complete at the same generation (a long-lived process asks for the
        same candidates' vectors question after question: five lookups a question, each of ~50 ids)."""
        store = self._opened()
        if not self._keeping(store):
            return _vectors_of(self.conn, store, ids)
        missing = [cid for cid in ids if cid not in self._kept]
        if missing:
            found = _vectors_of(self.conn, store, missing)
            self._kept.update((cid, found.get(cid)) for cid in missing)  # None: no vector
        return {cid: vecs for cid in ids if (vecs := self._kept[cid]) is not None}

    def _keeping(self, store) -> bool:  # hnsw.VectorStore
        """Whether what vectors_of and _nearest keep may be used (emptied when the store or its
        generation changed since, or when it grew past VECTORS_KEPT entries)."""
        if self._generation is None:
            return False
        if self._kept_for != (id(store), self._generation) or len(self._kept) + len(self._members) > VECTORS_KEPT:
            self._kept, self._members, self._kept_for = {}, {}, (id(store), self._generation)
        return True

    def sample(self, n: int) -> tuple[np.ndarray, int]:
        """Up to `n` entries' own vectors, evenly spread by id, and the number of entries."""
        from ....embed.calibration import sample_rows

        store = self._opened()
        ids = [cid for (cid,) in self.conn.execute("SELECT id FROM chunks ORDER BY id")]
        # Label 2 * id is the entry alone (sync.chunk_labels); an entry with no vector yet is skipped.
        own = store.vectors([chunk_labels(cid)[0] for cid in sample_rows(ids, n)])
        return (own if own is not None else np.zeros((0, self.embedder.dim), np.float32)), len(ids)

    # -- a long-lived process (the MCP server, `memory watch`) -----------------------------------------
    def follow(self, before: int, new_ids: Sequence[int], removed_ids: Sequence[int], *,
               encode: Callable[[list[str]], np.ndarray] | None = None, budget: float | None = None) -> bool:
        """Bring the loaded store along with one sync (generation `before` -> `before + 1`), in memory.

        See live: an edit costs its own entries instead of a reload of the HNSW file. False when
        that cannot be done (nothing loaded, another change came in between, texts left unembedded);
        the next update() then reopens the store as usual.
        """
        if self._store is None or self._generation != before or generation(self.conn) != before + 1:
            return False
        live = self._store if isinstance(self._store, LiveVectors) else LiveVectors(self._store)
        if not follow_changes(self.conn, live, self.embedder, list(new_ids), list(removed_ids), encode=encode,
                              budget=budget):
            self._store, self._generation = None, None
            return False
        self._store, self._generation = live, before + 1
        return True

    def embed_new(self, *, encode: Callable[[list[str]], np.ndarray] | None = None) -> VectorUpdate:
        """Embed the texts that have no vector yet into the cache only; the HNSW file is left to its next reader."""
        done, left = embed_missing(self.conn, self.embedder, encode=encode)
        return VectorUpdate(done, left, [])

    def missing(self) -> int:
        """How many texts have no vector yet (what `memory index` would embed)."""
        return len(missing_vectors(self.conn, *self._space))


def _vectors_of(conn: sqlite3.Connection, store, ids) -> dict[int, np.ndarray]:  # hnsw.VectorStore, Sequence[int]
    """SqliteVectors.vectors_of read from the store."""
    out = {}
    for cid in ids:
        vecs = store.vectors(chunk_labels(cid))
        if vecs is not None:
            out[cid] = vecs
    # An entry inside a vector window (windows) has no vector of its own (a zero first
    # row) and its window's as its second, like a context vector: its cosine is the window's, and
    # diversity (recall.semantic: the first row) never takes two lines of one window, which share
    # that vector, for near-duplicates of each other.
    for cid, head in windows.heads(conn, [cid for cid in ids if cid not in out]).items():
        vecs = store.vectors(chunk_labels(head)[:1])
        if vecs is not None:
            out[cid] = np.vstack([np.zeros_like(vecs[0]), vecs[0]])
    return out
