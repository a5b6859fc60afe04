"""Embedding the texts that have no cached vector, in batches, within a time budget (every store alike).

Similar lengths batch together (padding to the longest text of a batch is wasted work), shortest
first, so a bounded run (a recall's budget) embeds as many entries as it can; each batch is put
into the store's embedding cache as soon as it is done.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping

import numpy as np

EMBED_BATCH = 256  # texts embedded (and committed to the cache) at a time
BUDGET_BATCH = 16  # the batch of a time-bounded run (a recall): the bound holds within one batch


def embed_in_batches(items: list[tuple[str, str]], encode: Callable[[list[str]], np.ndarray],
                     put: Callable[[Mapping[str, np.ndarray]], None], *, budget: float | None = None,
                     progress: Callable[..., None] | None = None) -> int:
    """Embed (hash, text) items and `put` each batch {hash: vector}; returns how many were embedded.

    With `budget` (seconds), no new batch starts once it is spent. `progress(done, total, "embedding")`
    is called after each batch.
    """
    started = time.perf_counter()
    items = sorted(items, key=lambda item: len(item[1]))
    size = EMBED_BATCH if budget is None else BUDGET_BATCH
    done = 0
    for start in range(0, len(items), size):
        if budget is not None and time.perf_counter() - started >= budget:
            break
        batch = items[start : start + size]
        vectors = encode([text for _, text in batch])
        put(dict(zip([h for h, _ in batch], vectors, strict=True)))
        done += len(batch)
        if progress:
            progress(done, len(items), "embedding")
    return done


def texts_to_embed(rows: Iterable[tuple[str, str, str | None, str | None]]) -> dict[str, str]:
    """{hash: embedded text} for entries (text, text hash, context hash, previous entry's text), in
    entry order: each entry alone, and after the previous entry of its section when it has a context
    hash. Consecutive entries that share a text hash make one window (rows.share_vectors): their
    texts joined, when that is what the hash names (two equal neighbours are just one text). A
    long transcript message whose hash is not its whole text's is embedded by its beginning
    (rows.session_embed_text)."""
    from .rows import (
        SESSION_EMBED_CHARS,
        context_text,
        embed_text,
        session_embed_text,
        text_hash,
        window_text,
    )

    todo: dict[str, str] = {}
    run: list[str] = []
    run_digest = None

    def flush() -> None:
        if run_digest is None:
            return
        joined = window_text(run) if len(run) > 1 else ""
        if joined and text_hash(joined) == run_digest:
            todo.setdefault(run_digest, joined)
            return
        text = embed_text(run[0])
        if len(text) > SESSION_EMBED_CHARS and text_hash(text) != run_digest:
            text = session_embed_text(run[0])  # a long transcript message: its hash names its beginning
        todo.setdefault(run_digest, text)

    for text, digest, ctx_digest, previous in rows:
        if digest != run_digest:
            flush()
            run, run_digest = [], digest
        run.append(text)
        if ctx_digest and previous is not None:
            todo.setdefault(ctx_digest, context_text(previous, text))
    flush()
    return todo
