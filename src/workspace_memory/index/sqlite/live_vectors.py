"""The vector store of a long-lived process (the MCP server), kept current edit by edit.

Reloading the HNSW file after every file edit costs seconds at 200,000 vectors, and inserting an
edited file's vectors into the HNSW graph costs about 1-3 ms each (50-120 ms for one daily log,
measured at 208,758 vectors): too much for the search that follows an edit. So the loaded store
only has the vectors of removed chunks deleted (a flag in the graph, microseconds), and the vectors
of new chunks go into a small side store searched exactly (well under a millisecond for thousands).
A search asks both and merges. When the side store outgrows FOLD_AT vectors, SqliteVectors drops the
whole thing and reopens the store the usual way (vector_sync.open_store).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import numpy as np

from ...embed.base import Embedder
from .hnsw import VectorStore
from .vector_sync import chunk_labels, chunk_vectors, embed_missing

FOLD_AT = 20_000  # side-store vectors before the caller reopens the store (exact search stays < 1 ms)


class LiveVectors:
    """A loaded VectorStore plus the vectors added since it was opened (searched exactly; never saved)."""

    def __init__(self, base: VectorStore) -> None:
        self.base = base
        self.recent = VectorStore(base.path, base.dim, base.identity, exact_threshold=FOLD_AT + 1)

    def __len__(self) -> int:
        return len(self.base) + len(self.recent)

    @property
    def full(self) -> bool:
        return len(self.recent) > FOLD_AT

    def search(self, query: np.ndarray, k: int, allowed: set[int] | None = None) -> list[tuple[int, float]]:
        """The `k` best labels of both stores, best first (the interface recall's semantic channel uses)."""
        found = self.base.search(query, k, allowed) + self.recent.search(query, k, allowed)
        return sorted(found, key=lambda hit: (-hit[1], hit[0]))[:k]

    def vectors(self, labels) -> np.ndarray | None:  # noqa: ANN001 - Iterable[int]
        """The stored unit vectors of `labels` (from whichever store holds each), or None."""
        labels = list(labels)
        parts = [part for part in (self.recent.vectors([x for x in labels if x in self.recent]),
                                   self.base.vectors([x for x in labels if x not in self.recent]))
                 if part is not None]
        return np.concatenate(parts) if parts else None

    def apply(self, new: tuple[np.ndarray, np.ndarray], removed: list[int]) -> None:
        """Delete the labels `removed` (from either store) and add the (labels, vectors) `new`."""
        self.base.delete([label for label in removed if label in self.base])
        self.recent.delete([label for label in removed if label in self.recent])
        if len(new[0]):
            self.recent.upsert(*new)


def follow_changes(conn: sqlite3.Connection, store: LiveVectors, embedder: Embedder, new_ids: list[int],
                   removed_ids: list[int], *, encode: Callable[[list[str]], np.ndarray] | None = None,
                   budget: float | None = None) -> bool:
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
