"""The `Embedder` protocol every provider implements, and the helpers they share.

Vectors are always float32 and L2-normalised, so that a dot product is a cosine similarity: the
vector index stores them with an inner-product metric and recall can threshold the scores.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from ..limits import MAX_EMBED_CHARS


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit vectors. Implemented by the local, remote and fake providers."""

    provider: str
    model: str

    @property
    def dim(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Embed passages for the index: float32 array of shape (len(texts), dim), rows L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one search query: float32 array of shape (dim,), L2-normalised."""
        ...

    def identity(self) -> str:
        """A string that changes whenever the vectors would change (provider, model, dim, ...).

        Stored with the index (the settings fingerprint): a different identity means every stored
        vector is stale and must be recomputed.
        """
        ...


Progress = Callable[..., None]  # progress(done, total, label)


def release_memory(embedder: object) -> None:
    """After bulk work (a big `memory index`): let a local model free what it holds, then hand the
    freed heap back to the OS, before the vector file is built (hnswlib's copy of every vector is
    the peak). A model that is used again loads from its pack in a few hundredths of a second.

    Measured on a transcript's 12,000 messages: the loaded USE and its bulk path held 190 MB; with
    them dropped 130 MB, and 70 MB after `malloc_trim` (glibc keeps freed small blocks otherwise).
    """
    for part in getattr(embedder, "parts", None) or [embedder]:
        release = getattr(part, "release", None)
        if release is not None:
            release()
    import gc

    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the freed memory stays with this process
        pass


class PreparedOnce:
    """A local model with a once-per-machine step (an export, a pack), prepared once per object.

    `prepare` runs the subclass's `_prepare(progress)` the first time and returns its notices;
    later calls return [] at once. A server's threads share one embedder: the first prepares,
    the others wait for it.
    """

    def __init__(self) -> None:
        self._prepared = False
        self._prepare_lock = threading.Lock()

    def prepare(self, progress: Progress | None = None) -> list[str]:
        """Find or make what the model needs in the per-user cache (see the subclass); notices."""
        with self._prepare_lock:
            if self._prepared:
                return []
            notices = self._prepare(progress)
            self._prepared = True
            return notices

    def _prepare(self, progress: Progress | None) -> list[str]:
        raise NotImplementedError


def clip_texts(texts: Sequence[str]) -> list[str]:
    """Each text cut to MAX_EMBED_CHARS: a model reads its first 256-512 tokens anyway, and a
    tokenizer (or a remote server) handed a 1 MB string spent 40 s and 3 GB on it."""
    return [t if len(t) <= MAX_EMBED_CHARS else t[:MAX_EMBED_CHARS] for t in texts]


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Return `vectors` (1-D or 2-D) as float32 with every row scaled to unit length.

    A zero row stays zero instead of becoming NaN: an empty text may legitimately embed to nothing,
    and a NaN would poison every similarity computed against it.
    """
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim == 1:
        norm = float(np.linalg.norm(arr))
        return arr / norm if norm > 0 else arr.copy()
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (arr / norms).astype(np.float32, copy=False)


def log_notice(message: str) -> None:
    """Log a notice that no caller asked for (a model prepared on first use, outside `prepare_embedder`).

    logging is imported here, not at the top: a cold recall never needs it.
    """
    import logging

    from .. import secrecy

    logging.getLogger("workspace_memory.embed").warning("%s", secrecy.blank(message))


def one_line(exc: BaseException, limit: int = 200) -> str:
    """An exception's message on one line, any key blanked before it is cut to `limit` characters (a notice)."""
    from .. import secrecy

    return " ".join(secrecy.blank(str(exc)).split())[:limit] or type(exc).__name__


def normalize_rows(vectors: np.ndarray, block: int = 65_536) -> None:
    """Scale every row of a float32 matrix to unit length in place (zero rows stay zero), a block
    at a time so that no temporary as large as the matrix is made (l2_normalize's rule, for a matrix too big to copy)."""
    for start in range(0, len(vectors), block):
        part = vectors[start : start + block]
        norms = np.linalg.norm(part, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        part /= norms
