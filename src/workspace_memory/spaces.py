"""Embedding spaces as `memory index` sees them: what it would send (`--estimate`), and the batch
jobs of a big backlog (embed.batch), over the store's embedding cache.

Both read and fill the cache through the store's IndexWriter (`texts_without_vectors`,
`put_embeddings`), so they work alike on SQLite and Postgres; the caller (api) has synced the
rows first.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .embed.base import Embedder
    from .embed.config import BatchConfig, EmbeddingConfig
    from .index.ports import IndexWriter


def estimate(writer: IndexWriter, config: EmbeddingConfig, state_dir: Path) -> dict[str, Any]:
    """The texts that have no vector in the provider's space yet, their estimated tokens, and the
    requests they make; nothing is sent. When the model's vector length is unknown until a first
    answer, every text is counted (an upper bound): nothing is asked of the provider to learn it."""
    from .embed.chain import build_from
    from .tokens import estimate_tokens

    embedder, notices, _ = build_from(config, state_dir)
    if embedder is None:
        return {"provider": None, "model": None, "texts": 0, "tokens": 0, "requests": 0, "notices": notices}
    dim = getattr(embedder, "known_dim", None) if hasattr(embedder, "known_dim") else embedder.dim
    texts = [text for _, text in writer.texts_without_vectors(embedder.provider, embedder.model, dim or -1)]
    split = getattr(embedder, "split", None)
    return {"provider": embedder.provider, "model": embedder.model, "dimensions": dim, "texts": len(texts),
            "tokens": sum(estimate_tokens(t) for t in texts),
            "requests": len(split(texts)) if split is not None else None, "notices": notices}


def batch_jobs(writer: IndexWriter, settings: BatchConfig, state_dir: Path, embedder: Embedder,
               progress) -> tuple[list[str], int]:  # Progress
    """Embed a big backlog through batch jobs into the cache (openai), or collect the jobs an
    interrupted index left; `vectors.update` then finds them cached. (notices, jobs still running)."""
    from .embed.batch import BATCH_PROVIDERS, pending_jobs, run_batches

    if not settings.enabled or embedder.provider not in BATCH_PROVIDERS:
        return [], 0
    items = writer.texts_without_vectors(embedder.provider, embedder.model, embedder.dim)
    resuming = any(job["space"] == embedder.identity() for job in pending_jobs(state_dir))
    if len(items) < settings.min_texts and not resuming:
        return [], 0
    report = run_batches(embedder, items,  # type: ignore[arg-type] - an openai RemoteEmbedder
                         lambda got: writer.put_embeddings(embedder.provider, embedder.model, got),
                         state_dir, settings, progress)
    return report.notices, report.pending
