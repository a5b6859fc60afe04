"""One media file's extraction, on the indexing side: a transcript sidecar (audio), the cache, else
the worker (only in `memory index` and `memory watch`: a recall never extracts, it uses what is
cached and indexes the rest by name until the next index).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from . import cache
from .available import has_module, ocr_engine, speech_engine, version
from .settings import PENDING, MediaSettings


def name_only(kind: str, meta: dict[str, Any] | None = None, error: str | None = None,
              warnings: list[str] | None = None) -> dict[str, Any]:
    """An extraction without text: the file is found by its name and metadata."""
    return {"kind": kind, "extractor": None, "blocks": [], "meta": meta or {}, "warnings": warnings or [],
            "error": error}


def audio(path: str, content: str | None) -> dict[str, Any]:
    """A voice note: its transcript sidecar when there is one, its duration when it is a WAV."""
    from .sidecars import read_transcript, transcript_sidecar

    meta: dict[str, Any] = {"format": content}
    if content == "wav":
        meta["duration"] = _wav_seconds(path)
    side = transcript_sidecar(path)
    if side is None:
        return name_only("audio", meta, warnings=[
            f"no transcript: put one beside it ({os.path.basename(path)}.vtt, .srt or .txt) to find it by its words"])
    try:
        segments, warning = read_transcript(side)
    except OSError as exc:
        return name_only("audio", meta, error=f"transcript {os.path.basename(side)} could not be read ({exc})")
    return {"kind": "audio", "extractor": f"transcript {os.path.basename(side)}",
            "blocks": [list(s) for s in segments], "meta": meta, "warnings": [warning] if warning else [],
            "error": None}


def _wav_seconds(path: str) -> float | None:
    import wave

    try:
        with wave.open(path, "rb") as w:
            return round(w.getnframes() / float(w.getframerate()), 2)
    except (wave.Error, EOFError, OSError, ZeroDivisionError):
        return None


EXTRACTION_VERSION = 2  # what the worker returns for a file: part of the cache key (a change reads files again)


class Extractor:
    """Extractions of one sync (or one read): the cache, and the worker started on the first file
    that needs it. `may_extract`: only `memory index` and `memory watch` run the worker."""

    def __init__(self, state_dir: Path, settings: MediaSettings, may_extract: bool = False) -> None:
        self.state_dir, self.settings, self.may_extract = state_dir, settings, may_extract
        self._worker: Any = None
        self.extracted = 0
        self.seconds = 0.0

    def identity(self, kind: str) -> str | None:
        """What would extract a `kind` file here ("image rapidocr 3.10.0 m1"), None when nothing can
        (no Pillow; no pypdf for a PDF; for a recording, no speech model chosen or here): such a file
        is indexed by name only (a recording: by its transcript, when one is beside it)."""
        if kind == "audio":
            engine = speech_engine(self.settings)
            return None if engine is None else f"audio {engine[0]} m{EXTRACTION_VERSION}"
        if not has_module("PIL"):
            return None
        ocr = ocr_engine(self.settings.ocr) or "no OCR"
        if self.settings.ocr == "tesseract" and ocr != "no OCR":
            ocr = f"tesseract {self.settings.tesseract_languages}"
        if kind == "pdf":
            pypdf = version("pypdf") if has_module("pypdf") else None
            return None if pypdf is None else f"pdf pypdf {pypdf} {ocr} m{EXTRACTION_VERSION}"
        return f"image {ocr} m{EXTRACTION_VERSION}"

    def digest(self, path: str, kind: str) -> str:
        """What a file's rows keep as its hash: the content's sha256; `pending:<sha256>` while its text
        waits for `memory index`; `oversize:<bytes>` or `described:<sha256>` (a user's photo.png.md)
        for a file read by name only. Raises OSError when the file cannot be read."""
        from ..files import read_bounded
        from .sidecars import markdown_sidecar, transcript_sidecar

        size = os.stat(path, follow_symlinks=False).st_size
        if size > self.settings.max_file_bytes:
            return f"oversize:{size}"
        sha = read_bounded(path, 0)[0]
        if markdown_sidecar(path):
            return f"described:{sha}"
        if kind == "audio":  # its text is its transcript's: a new transcript is a new digest
            side = transcript_sidecar(path)
            if side is not None:
                return f"{sha}+{read_bounded(side, 0)[0][:16]}"
            if self.identity("audio") is None:
                return sha
        if self.may_extract or self.cached(kind, sha) is not None:
            return sha
        return PENDING + sha

    def extraction(self, path: str, kind: str, digest: str) -> dict[str, Any]:
        """The file's extraction for `digest` (see `digest`): what the cache holds, a transcript, a
        fresh extraction (when this Extractor may), else the name only."""
        from . import sniff

        if digest.startswith("oversize:"):
            size = int(digest.split(":", 1)[1])
            return name_only(kind, error=f"file is {size:,} bytes, over [media] max_file_bytes "
                                         f"{self.settings.max_file_bytes:,}")
        if digest.startswith("described:"):
            return name_only(kind)  # the user's photo.png.md says what it holds, and wins
        try:
            with open(path, "rb") as fh:
                head = fh.read(sniff.HEAD_BYTES)
        except OSError as exc:
            return name_only(kind, error=f"could not be read ({exc.strerror})")
        wrong = sniff.mismatch(kind, head)
        if wrong:
            return name_only(kind, error=wrong)
        if kind == "audio" and ("+" in digest or self.identity("audio") is None):
            return audio(path, sniff.content_type(head))  # its transcript (or its name: no speech model)
        sha = digest.removeprefix(PENDING)
        found = self.cached(kind, sha)
        if found is not None:
            return found
        if digest.startswith(PENDING) or not self.may_extract:
            return audio(path, sniff.content_type(head)) if kind == "audio" else name_only(kind)
        return self.extract(path, kind, sha)

    def cached(self, kind: str, digest: str) -> dict[str, Any] | None:
        identity = self.identity(kind)
        return None if identity is None else cache.load(self.state_dir, digest, identity)

    def extract(self, path: str, kind: str, digest: str) -> dict[str, Any]:
        """Extract in the worker and keep the result (a failure too, unless another try may succeed)."""
        import time

        from .worker import ExtractionFailed, Worker

        identity = self.identity(kind)
        if identity is None:
            return name_only(kind)
        if self._worker is None:
            self._worker = Worker(self.settings.timeout)
        ocr = self.settings.ocr if ocr_engine(self.settings.ocr) else "none"
        started = time.perf_counter()
        try:
            speech = speech_engine(self.settings) if kind == "audio" else None
            extraction = self._worker.extract(path, kind, ocr, self.settings.tesseract_languages,
                                              speech[1] if speech else None)
        except ExtractionFailed as exc:
            extraction = name_only(kind, error=str(exc))
            if exc.transient:
                return extraction | {"transient": True}  # not kept: the next `memory index` tries again
        finally:
            self.seconds += time.perf_counter() - started
            self.extracted += 1
        with contextlib.suppress(OSError):  # a full disk: the rows are written now, the file read again next time
            cache.store(self.state_dir, digest, identity, extraction)
        return extraction

    @property
    def peak_rss_mb(self) -> float:
        return self._worker.peak_rss_mb if self._worker is not None else 0.0

    @property
    def cpu_seconds(self) -> float:
        return self._worker.cpu_seconds if self._worker is not None else 0.0

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
