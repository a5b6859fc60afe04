"""Moving a workspace between the SQLite and Postgres stores without embedding anything again.

The expensive part of an index is its vectors; its rows are a deterministic function of the
Markdown (a parse costs milliseconds a file). So `memory store export/import`:

1. copies every cached embedding that the workspace's entries use (their texts alone and after
   the previous entry, for every provider and model in the source's cache) into the target's
   cache (Postgres: the cache every workspace of the database shares);
2. brings the target's rows up to date from the Markdown (the same rows the source holds);
3. fills the target's vectors from its cache, with the embedder switched off: a text that the
   source had no vector for stays missing (and `memory index` embeds it), it is never embedded here.

Both stores are reached through their ports only (index.ports.IndexWriter's embedding cache,
index.indexer.sync, VectorIndex.update): this module knows neither store's SQL nor its classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .base import INDEX_WAIT
from .indexer import sync

if TYPE_CHECKING:
    import numpy as np

    from ..embed.base import Embedder
    from ..workspace.layout import Workspace
    from .base import Store
    from .ports import Cached


@dataclass
class TransferReport:
    source: str
    target: str
    files: int = 0
    embeddings: int = 0  # cached vectors copied
    vectors_missing: int = 0  # entries' texts the source had no vector for
    notices: list[str] = field(default_factory=list)


def put_cached(store: Store, cached: Cached) -> None:
    """Add vectors to the store's embedding cache, one embedder (provider, model) at a time."""
    groups: dict[tuple[str, str], dict[str, np.ndarray]] = {}
    for provider, model, digest, vector in cached:
        groups.setdefault((provider, model), {})[digest] = vector
    writer = store.writer()
    for (provider, model), vectors in groups.items():
        writer.put_embeddings(provider, model, vectors)


def transfer(ws: Workspace, source: Store, target: Store, embedder: Embedder | None) -> TransferReport:
    """Copy `ws`'s cached embeddings from `source` to `target` and bring `target` up to date (see above)."""
    report = TransferReport(source.describe(), target.describe())
    sync(ws, source.writer(), wait=INDEX_WAIT)  # the source's rows name the texts whose vectors move
    cached = source.writer().cached_embeddings()
    put_cached(target, cached)
    report.embeddings = len(cached)
    synced = sync(ws, target.writer(), wait=INDEX_WAIT)
    report.notices += synced.notices
    report.files = target.status()["files"]
    if embedder is not None:
        update = target.vectors(embedder).update(embed=False, wait=INDEX_WAIT)
        report.vectors_missing = update.missing
        report.notices += update.notices
    return report
