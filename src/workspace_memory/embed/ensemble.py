"""Provider "local", model "all-MiniLM-L6-v2+use-multilingual-v3": both local models at once.

The vector is the concatenation of the two models' unit vectors, each scaled by 1/sqrt(2): it is
a unit vector again, and its dot product with another is the mean of the two models' cosines. So
the whole engine (the HNSW index, the cache, MMR, the calibration) works on it unchanged, and one
vector search ranks by the mean of both similarities.

It costs both models: indexing time is the sum of theirs (MiniLM's dominates), a query encodes
twice, and the vectors are 896 floats. What it buys is measured in docs/embeddings.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from . import local, prepare_embedder, use
from .local import DEFAULT_MODEL as MINILM
from .local import LocalEmbedder
from .use import MODEL as USE
from .use import UseEmbedder

if TYPE_CHECKING:
    from .config import EmbeddingConfig

MODEL = f"{MINILM}+{USE}"
# Cosine -> 0..1 for the mean of the two cosines; fitted on LoCoMo like the others.
CALIBRATION = (0.2, 1.6)


def unavailable_reason(model: str = MODEL) -> str | None:
    """Why one of the two models cannot run here; None when both can."""
    return local.unavailable_reason(MINILM) or use.unavailable_reason(USE)


def is_installed(model: str = MODEL) -> bool:
    """True when both models can run here."""
    return local.is_installed(MINILM) and use.is_installed(USE)


class EnsembleEmbedder:
    """MiniLM and USE side by side: [minilm / sqrt 2, use / sqrt 2] (896 floats, unit length)."""

    provider = "local"
    queries_as_documents = True  # embed_query(t) == embed_documents([t])[0]: questions batch
    model = MODEL
    calibration = CALIBRATION

    def __init__(self, parts: Sequence[Any]) -> None:
        self.parts = list(parts)
        self.dim = sum(p.dim for p in self.parts)
        self._scale = np.float32(1 / math.sqrt(len(self.parts)))

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, state_dir: Path | None) -> EnsembleEmbedder:
        """Both models from their own packages; ProviderUnavailable names the one that is missing."""
        minilm = LocalEmbedder.from_config(_with_model(cfg, MINILM), state_dir)
        return cls([minilm, UseEmbedder.from_config(_with_model(cfg, USE), state_dir)])

    def identity(self) -> str:
        """provider/model/dim and the identities of the parts."""
        return f"{self.provider}/{self.model}/{self.dim}/" + "+".join(p.identity() for p in self.parts)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Each part embeds every text; the scaled vectors are concatenated."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.hstack([p.embed_documents(texts) * self._scale for p in self.parts]).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """Each part embeds the query its own way."""
        return np.concatenate([p.embed_query(text) * self._scale for p in self.parts]).astype(np.float32)

    def prepare(self, progress: Callable[..., None] | None = None) -> list[str]:
        """Prepare each part (MiniLM's ONNX export, USE's tokenizer); their notices in order."""
        return [notice for part in self.parts for notice in prepare_embedder(part, progress)]

    def needs_torch(self) -> bool:
        """True when a part would load torch to embed (MiniLM without its ONNX export)."""
        return any(getattr(part, "needs_torch", lambda: False)() for part in self.parts)


def _with_model(cfg: EmbeddingConfig, model: str) -> EmbeddingConfig:
    from dataclasses import replace

    return replace(cfg, model=model)
