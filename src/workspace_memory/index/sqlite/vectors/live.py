"""A loaded HNSW store with later changes laid over it: the recent file's (recent_file), and
those of a long-lived process (the MCP server) kept current edit by edit (sync.follow_changes).

Reloading the HNSW file after every file edit costs seconds at 200,000 vectors, and inserting an
edited file's vectors into the HNSW graph costs about 1-3 ms each (50-120 ms for one daily log,
measured at 208,758 vectors): too much for the search that follows an edit. So the loaded store
only has the vectors of removed chunks deleted (a flag in the graph, microseconds), and the vectors
of new chunks go into a small side store searched exactly (well under a millisecond for thousands).
A search asks both and merges. When the side store outgrows FOLD_AT vectors, SqliteVectors drops the
whole thing and reopens the store the usual way (sync.open_store). The recent file keeps
the same two things on disk: labels deleted from the HNSW file, and vectors added since it was saved.
"""

from __future__ import annotations

import numpy as np

from .hnsw import VectorStore

FOLD_AT = 20_000  # side-store vectors before the caller reopens the store (exact search stays < 1 ms)


class LiveVectors:
    """A loaded VectorStore plus the vectors added since it was saved (searched exactly)."""

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

    def vectors(self, labels) -> np.ndarray | None:  # Iterable[int]
        """The stored unit vectors of `labels` (from whichever store holds each), or None."""
        labels = list(labels)
        parts = [part for part in (self.recent.vectors([x for x in labels if x in self.recent]),
                                   self.base.vectors([x for x in labels if x not in self.recent]))
                 if part is not None]
        return np.concatenate(parts) if parts else None

    def load_graph(self) -> None:
        """The base store's graph, now (see VectorStore.load_graph)."""
        self.base.load_graph()

    def labels(self) -> np.ndarray:
        """The live labels of both stores."""
        return np.concatenate([self.base.labels(), self.recent.labels()])

    def apply(self, new: tuple[np.ndarray, np.ndarray], removed: list[int]) -> None:
        """Delete the labels `removed` (from either store) and add the (labels, vectors) `new`."""
        self.base.delete([label for label in removed if label in self.base])
        self.recent.delete([label for label in removed if label in self.recent])
        if len(new[0]):
            self.recent.upsert(*new)
