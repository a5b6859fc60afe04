"""Moving a workspace between the SQLite and Postgres stores without embedding anything again.

The expensive part of an index is its vectors; its rows are a deterministic function of the
Markdown (a parse costs milliseconds a file). So `memory store export/import`:

1. copies every cached embedding that the workspace's entries use (their texts alone and after
   the previous entry, for every provider and model in the source's cache) into the target's
   cache (Postgres: the cache every workspace of the database shares);
2. brings the target's rows up to date from the Markdown (the same rows the source holds);
3. fills the target's vectors from its cache, with the embedder switched off: a text that the
   source had no vector for stays missing (and `memory index` embeds it), it is never embedded here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..embed.base import Embedder
    from ..workspace.layout import Workspace
    from .base import Store

Cached = list[tuple[str, str, str, np.ndarray]]  # provider, model, hash, vector


@dataclass
class TransferReport:
    source: str
    target: str
    files: int = 0
    embeddings: int = 0  # cached vectors copied
    vectors_missing: int = 0  # entries' texts the source had no vector for
    notices: list[str] = field(default_factory=list)


def cached_for_workspace(store: Store) -> Cached:
    """The cached embeddings of every text the store's entries of this workspace use."""
    from .postgres.store import PostgresStore
    from .sqlite.embedding_cache import from_blob

    if isinstance(store, PostgresStore):
        rows = store.db.conn.execute(
            "SELECT e.provider, e.model, e.hash, e.vector FROM embedding_cache e WHERE e.hash IN"
            " (SELECT text_hash FROM chunks WHERE workspace_id = %(ws)s UNION"
            "  SELECT ctx_hash FROM chunks WHERE workspace_id = %(ws)s)", {"ws": store.own_id(create=False)})
        from .postgres.vectors import _array

        return [(p, m, h, _array(v)) for p, m, h, v in rows]
    rows = store.conn.execute(  # type: ignore[attr-defined]
        "SELECT provider, model, hash, dim, vector FROM embedding_cache WHERE hash IN"
        " (SELECT text_hash FROM chunks UNION SELECT ctx_hash FROM chunks)").fetchall()
    return [(p, m, h, vec) for p, m, h, dim, blob in rows if (vec := from_blob(blob, dim)) is not None]


def put_cached(store: Store, cached: Cached) -> None:
    """Add vectors to the store's embedding cache (grouped by provider and model)."""
    from .postgres.store import PostgresStore

    groups: dict[tuple[str, str], dict[str, np.ndarray]] = {}
    for provider, model, digest, vector in cached:
        groups.setdefault((provider, model), {})[digest] = vector
    for (provider, model), vectors in groups.items():
        if isinstance(store, PostgresStore):
            from .postgres.vectors import put_cached as put

            with store.db.transaction():
                put(store.db.conn, provider, model, vectors)
        else:
            from .sqlite.embedding_cache import EmbeddingCache

            EmbeddingCache(store.conn).put_many(provider, model, vectors)  # type: ignore[attr-defined]


def transfer(ws: Workspace, source: Store, target: Store, embedder: Embedder | None) -> TransferReport:
    """Copy `ws`'s cached embeddings from `source` to `target` and bring `target` up to date (see above)."""
    report = TransferReport(source.describe(), target.describe())
    source.sync(ws, wait=60.0)  # the source's rows name the texts whose vectors move
    cached = cached_for_workspace(source)
    put_cached(target, cached)
    report.embeddings = len(cached)
    synced = target.sync(ws, wait=60.0)
    report.notices += synced.notices
    report.files = target.status()["files"]
    if embedder is not None:
        update = target.vectors(embedder).update(embed=False, wait=60.0)
        report.vectors_missing = update.missing
        report.notices += update.notices
    return report
