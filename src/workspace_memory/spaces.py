"""Embedding spaces as `memory index` sees them: what it would send (`--estimate`), and the batch
jobs of a big backlog (embed.batch), over the store's embedding cache.

Functions of an `api.Memory` (like doctor.py), kept out of api.py. Both read the SQLite index
directly (`missing_vectors`, `EmbeddingCache`): a Postgres store has no `conn`, and then
`--estimate` says so and batch jobs are not used.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from .errors import UserError

if TYPE_CHECKING:
    from .embed.base import Embedder

INDEX_WAIT = 60.0  # seconds to wait for another writer (api.INDEX_WAIT)


def estimate(mem) -> dict[str, Any]:  # mem: api.Memory
    """The texts that have no vector in the provider's space yet, their estimated tokens, and the
    requests they make; nothing is sent. When the model's vector length is unknown until a first
    answer, every text is counted (an upper bound): nothing is asked of the provider to learn it."""
    from .embed.chain import build_from
    from .tokens import estimate_tokens

    mem.store.sync(mem.workspace, wait=INDEX_WAIT)
    embedder, notices, _ = build_from(mem.embedding_config, mem.workspace.state_dir)
    if embedder is None:
        return {"provider": None, "model": None, "texts": 0, "tokens": 0, "requests": 0, "notices": notices}
    conn = getattr(mem.store, "conn", None)
    if conn is None:
        raise UserError("memory index --estimate reads the SQLite index; this workspace's index is in Postgres")
    from .index.sqlite.vectors import missing_vectors

    dim = getattr(embedder, "known_dim", None) if hasattr(embedder, "known_dim") else embedder.dim
    space = SimpleNamespace(provider=embedder.provider, model=embedder.model, dim=dim if dim else -1)
    texts = [text for _, text in missing_vectors(conn, space)]  # type: ignore[arg-type] - provider, model, dim
    split = getattr(embedder, "split", None)
    return {"provider": embedder.provider, "model": embedder.model, "dimensions": dim, "texts": len(texts),
            "tokens": sum(estimate_tokens(t) for t in texts),
            "requests": len(split(texts)) if split is not None else None, "notices": notices}


def batch_jobs(mem, embedder: Embedder, progress) -> tuple[list[str], int]:  # api.Memory, Progress
    """Embed a big backlog through batch jobs into the cache (openai), or collect the jobs an
    interrupted index left; `vectors.update` then finds them cached. (notices, jobs still running)."""
    from .embed.batch import BATCH_PROVIDERS, pending_jobs, run_batches

    settings, conn = mem.embedding_config.batch, getattr(mem.store, "conn", None)
    if not settings.enabled or embedder.provider not in BATCH_PROVIDERS or conn is None:
        return [], 0
    from .index.sqlite.vectors import EmbeddingCache, missing_vectors

    items = missing_vectors(conn, embedder)
    resuming = any(job["space"] == embedder.identity() for job in pending_jobs(mem.workspace.state_dir))
    if len(items) < settings.min_texts and not resuming:
        return [], 0
    cache = EmbeddingCache(conn)
    report = run_batches(embedder, items,  # type: ignore[arg-type] - an openai RemoteEmbedder
                         lambda got: cache.put_many(embedder.provider, embedder.model, got),
                         mem.workspace.state_dir, settings, progress)
    return report.notices, report.pending
