"""Provider "remote": any OpenAI-compatible `POST {base_url}/embeddings` endpoint.

Ollama, llama.cpp's server, vLLM, LM Studio and hosted APIs all speak this protocol; the HTTP
client is the project's one (endpoints.py). Every failure becomes `ProviderUnavailable` with a
one-line reason: an explicitly configured provider must fail loudly, never degrade silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..endpoints import EndpointError, JsonEndpoint
from ..errors import ProviderUnavailable
from .base import clip_texts, l2_normalize

if TYPE_CHECKING:
    from .config import EmbeddingConfig

# Text used to learn the vector length when nothing has been embedded yet in this process.
_PROBE_TEXT = "dimension probe"


class RemoteEmbedder:
    """Embeds through an OpenAI-compatible HTTP endpoint, `batch_size` texts per request."""

    provider = "remote"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        batch_size: int = 32,
        timeout: float = 30.0,
        dimensions: int | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        try:
            self._endpoint = JsonEndpoint(self.base_url, api_key=api_key, headers=headers, timeout=timeout)
        except EndpointError as exc:
            raise ProviderUnavailable(
                f"remote embeddings unavailable: {exc} (set [embedding.remote] base_url or MEMORY_EMBED_BASE_URL)"
            ) from None
        if not model:
            raise ProviderUnavailable(
                "remote embeddings unavailable: no model configured "
                "(set [embedding.remote] model or MEMORY_EMBED_MODEL)"
            )
        self.model = model
        self.batch_size = max(1, int(batch_size))
        self.timeout = timeout
        self.dimensions = dimensions
        self._dim: int | None = dimensions

    @property
    def requests(self) -> int:
        """How many HTTP calls this embedder made (tests and `--explain`)."""
        return self._endpoint.requests

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, state_dir: Path | None) -> RemoteEmbedder:
        """Build from `[embedding.remote]`; a key variable that is named but unset is a config error."""
        r = cfg.remote
        if r.api_key_env and not r.api_key:
            raise ProviderUnavailable(
                f"remote embeddings unavailable: environment variable {r.api_key_env} "
                "(named by [embedding.remote] api_key_env) is not set"
            )
        return cls(
            r.base_url,
            r.model,
            api_key=r.api_key,
            headers=r.headers,
            batch_size=cfg.batch_size,
            timeout=r.timeout,
            dimensions=r.dimensions,
        )

    @property
    def dim(self) -> int:
        """Vector length: configured `dimensions`, else learned from the first response (probing if needed)."""
        if self._dim is None:
            self._embed_batch([_PROBE_TEXT])
        assert self._dim is not None
        return self._dim

    def identity(self) -> str:
        """provider/model/dim. The URL is left out: the same model served elsewhere gives the same vectors."""
        return f"{self.provider}/{self.model}/{self.dim}"

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed in batches of `batch_size`; rows come back in input order and L2-normalised."""
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        texts = clip_texts(texts)
        parts = [
            self._embed_batch(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)
        ]
        return np.vstack(parts)

    def embed_query(self, text: str) -> np.ndarray:
        """One request with one input."""
        return self._embed_batch(clip_texts([text]))[0]

    def _embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """POST one batch and validate the answer (count, order, length, finiteness)."""
        # Several servers reject an empty string outright; a blank embeds as a near-null vector.
        payload: dict[str, Any] = {"model": self.model, "input": [t if t else " " for t in texts]}
        if self.dimensions is not None:
            payload["dimensions"] = self.dimensions
        try:
            body = self._endpoint.post("embeddings", payload)
        except EndpointError as exc:
            raise self._unavailable(str(exc)) from None
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list):
            raise self._unavailable("response has no 'data' list")
        if len(data) != len(texts):
            raise self._unavailable(f"expected {len(texts)} embeddings, got {len(data)}")
        rows: list[Any] = [None] * len(texts)
        for pos, item in enumerate(data):
            if not isinstance(item, dict) or not isinstance(item.get("embedding"), list):
                raise self._unavailable("an item in 'data' has no 'embedding' list")
            # The protocol allows any order; `index` says where each vector belongs.
            idx = item.get("index", pos)
            if not isinstance(idx, int) or not 0 <= idx < len(texts) or rows[idx] is not None:
                raise self._unavailable(f"bad or repeated 'index' {idx!r} in response")
            rows[idx] = item["embedding"]
        try:
            arr = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError):
            raise self._unavailable("embeddings are not equal-length lists of numbers") from None
        if arr.ndim != 2 or arr.shape[1] == 0:
            raise self._unavailable("embeddings are not equal-length lists of numbers")
        if self._dim is not None and arr.shape[1] != self._dim:
            raise self._unavailable(f"expected dimension {self._dim}, got {arr.shape[1]}")
        if not np.isfinite(arr).all():
            raise self._unavailable("response contains non-finite numbers")
        self._dim = int(arr.shape[1])
        return l2_normalize(arr)

    def _unavailable(self, reason: str) -> ProviderUnavailable:
        return ProviderUnavailable(f"remote embeddings unavailable: {self.base_url}: {reason}")
