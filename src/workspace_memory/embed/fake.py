"""A deterministic, dependency-free embedder for tests (provider "fake").

Words and character trigrams are hashed into a small vector, so texts that share words or spellings
are similar and identical texts are identical: enough for unit tests of the index and of recall to
exercise the semantic path in milliseconds, without a model. Never used unless configured.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .base import l2_normalize

if TYPE_CHECKING:
    from .config import EmbeddingConfig

_WORD_RE = re.compile(r"\w+", re.UNICODE)


class FakeEmbedder:
    """Hashed bag of words + character trigrams, L2-normalised. Counts its calls for cache tests."""

    provider = "fake"

    def __init__(self, model: str = "hash-trigram", dim: int = 64) -> None:
        self.model = model
        self.dim = dim
        # Tests assert on these to prove that the cache spared the embedder work.
        self.calls = 0
        self.texts_embedded = 0

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, state_dir: Path | None) -> FakeEmbedder:
        """The registry's constructor; the fake model has no settings worth reading."""
        return cls()

    def identity(self) -> str:
        """provider/model/dim: the vectors depend on nothing else."""
        return f"{self.provider}/{self.model}/{self.dim}"

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed each text; counts one call however many texts are passed."""
        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature, weight in _features(text):
                digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self.dim
                # A hashed sign keeps unrelated features from all piling up positively.
                sign = 1.0 if digest[4] & 1 else -1.0
                out[row, bucket] += sign * weight
        return l2_normalize(out)

    def embed_query(self, text: str) -> np.ndarray:
        """Same function as documents: the fake model is symmetric."""
        return self.embed_documents([text])[0]


def _features(text: str) -> list[tuple[str, float]]:
    """Lower-cased words (weight 1) and their character trigrams (weight 0.5)."""
    feats: list[tuple[str, float]] = []
    for word in _WORD_RE.findall(text.lower()):
        feats.append(("w:" + word, 1.0))
        padded = f" {word} "
        feats.extend(("t:" + padded[i : i + 3], 0.5) for i in range(len(padded) - 2))
    return feats
