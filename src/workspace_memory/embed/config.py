"""Embedding settings: the `[embedding]` table of `memory.toml`, plus environment overrides.

```toml
[embedding]
provider = "auto"            # auto | local | remote | none | fake
model = "use-multilingual-v3"  # local: use-multilingual-v3 | all-MiniLM-L6-v2 |
                               #   all-MiniLM-L6-v2+use-multilingual-v3 | a sentence-transformers folder
batch_size = 32

[embedding.remote]           # any OpenAI-compatible /v1/embeddings server (Ollama, llama.cpp, vLLM)
base_url = "http://127.0.0.1:8080/v1"
model = "nomic-embed-text"
api_key_env = "EMBED_API_KEY"  # name of the variable holding the key, never the key itself
headers = { "X-Team" = "ops" }
timeout = 30
dimensions = 768              # optional; sent to servers that can shorten vectors
```

Environment overrides (each beats the file): MEMORY_EMBED_PROVIDER, MEMORY_EMBED_MODEL (the model of
the provider in use), MEMORY_EMBED_BASE_URL.

When neither names a local model, an index that already has vectors keeps the model it was built
with, and `DEFAULT_LOCAL_MODEL` applies to new workspaces and after `memory index --rebuild`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PROVIDERS = ("auto", "local", "remote", "none", "fake")
# Chosen by measurement (docs/notes/models.md): on LoCoMo it is within 0.01 of all-MiniLM-L6-v2,
# it is multilingual, and it needs no torch; MiniLM is one setting away (model = "all-MiniLM-L6-v2").
DEFAULT_LOCAL_MODEL = "use-multilingual-v3"
DEFAULT_BATCH_SIZE = 32
DEFAULT_TIMEOUT = 30.0


@dataclass
class RemoteConfig:
    """`[embedding.remote]`: where an OpenAI-compatible embeddings endpoint lives and how to call it."""

    base_url: str = ""
    model: str = ""
    api_key_env: str | None = None
    # The key itself is read from the environment once, and kept out of repr() so that it never
    # lands in a log line or a traceback.
    api_key: str | None = field(default=None, repr=False)
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    dimensions: int | None = None


@dataclass
class EmbeddingConfig:
    """Which embedding provider recall and indexing use, and its settings."""

    provider: str = "auto"
    model: str = DEFAULT_LOCAL_MODEL
    # True when memory.toml or MEMORY_EMBED_MODEL names the model. When it does not, an existing
    # index keeps the local model it was built with (api.Memory), so that a new default applies
    # to new workspaces and after `memory index --rebuild`, never silently to an old index.
    model_set: bool = False
    batch_size: int = DEFAULT_BATCH_SIZE
    remote: RemoteConfig = field(default_factory=RemoteConfig)

    @property
    def default_model(self) -> str:
        """The local model used when the settings name none (and the index records none)."""
        return DEFAULT_LOCAL_MODEL

    @property
    def explicit(self) -> bool:
        """True when the user chose a provider: its failure must be an error, never a silent downgrade."""
        return self.provider != "auto"

    @classmethod
    def from_mapping(cls, d: Mapping[str, Any] | None, env: Mapping[str, str]) -> EmbeddingConfig:
        """Build from the `[embedding]` table (`d`, may be None or empty) and the environment.

        Raises ValueError with a message naming the bad key when a value has the wrong type or the
        provider is unknown.
        """
        d = dict(d or {})
        remote_d = d.get("remote") or {}
        if not isinstance(remote_d, Mapping):
            raise ValueError("[embedding.remote] must be a table")

        provider = str(env.get("MEMORY_EMBED_PROVIDER") or d.get("provider") or "auto").strip().lower()
        if provider not in PROVIDERS:
            raise ValueError(
                f"unknown embedding provider {provider!r}; expected one of: {', '.join(PROVIDERS)}"
            )

        model = str(d.get("model") or DEFAULT_LOCAL_MODEL)
        remote_model = str(remote_d.get("model") or "")
        env_model = env.get("MEMORY_EMBED_MODEL")
        model_set = bool(d.get("model") or env_model)
        if env_model:
            # One variable for "the model to use" is simpler to explain than one per provider; it
            # applies to whichever provider ends up running.
            model = remote_model = env_model

        headers = remote_d.get("headers") or {}
        if not isinstance(headers, Mapping):
            raise ValueError("[embedding.remote] headers must be a table of strings")
        api_key_env = remote_d.get("api_key_env") or None
        dimensions = remote_d.get("dimensions")

        remote = RemoteConfig(
            base_url=str(env.get("MEMORY_EMBED_BASE_URL") or remote_d.get("base_url") or "").rstrip("/"),
            model=remote_model,
            api_key_env=str(api_key_env) if api_key_env else None,
            api_key=env.get(str(api_key_env)) if api_key_env else None,
            headers={str(k): str(v) for k, v in headers.items()},
            timeout=_positive_number(remote_d.get("timeout", DEFAULT_TIMEOUT), "[embedding.remote] timeout"),
            dimensions=int(_positive_number(dimensions, "[embedding.remote] dimensions"))
            if dimensions is not None
            else None,
        )
        batch_size = int(_positive_number(d.get("batch_size", DEFAULT_BATCH_SIZE), "[embedding] batch_size"))
        return cls(provider=provider, model=model, batch_size=batch_size, remote=remote, model_set=model_set)


def _positive_number(value: Any, name: str) -> float:
    """Validate a positive number from TOML (bools are rejected: TOML `true` is not a timeout)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return float(value)
