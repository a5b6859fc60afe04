"""`[media]` in memory.toml: which media files are memory, and how big each may be.

    [media]
    enabled = true                          # default false, as OpenClaw's memory.search.multimodal
    modalities = ["image", "audio", "pdf"]  # or ["all"]; default all three
    max_file_bytes = 10485760               # 10 MiB, OpenClaw's default; larger files: name only
    ocr = "rapidocr"                        # "rapidocr" | "tesseract" | "none"
    tesseract_languages = "eng+deu"         # tesseract's -l, when ocr = "tesseract"
    timeout = 120                           # seconds one file's extraction may take
    embedding = "gemini"                    # default "none": images and audio also embedded as
    embedding_model = "gemini-embedding-2"  #   themselves, remotely (media_space.py; the key and
    embedding_dimensions = 768              #   base_url are [embedding.gemini]'s)
    speech = "whisper"                      # default "none": voice notes without a transcript are
    speech_model = "/path/to/ct2-whisper"   #   transcribed locally (media/speech.py); "" = the
                                            #   packaged tiny.en (the `speech` extra)

A plain class (not a dataclass): the indexer reads these settings on every sync, a recall's too.
"""

from __future__ import annotations

from typing import Any

from ..workspace.layout import MEDIA_SUFFIXES

MODALITIES = ("image", "audio", "pdf")
OCR_ENGINES = ("rapidocr", "tesseract", "none")
DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024  # OpenClaw's default for one multimodal memory file
MAX_FILE_BYTES_LIMIT = 1024 * 1024 * 1024  # what max_file_bytes may be set to at most
DEFAULT_TIMEOUT = 120.0
PENDING = "pending:"  # a media file's hash prefix while its text waits for `memory index`
SPEECH = ("none", "whisper")  # who transcribes a voice note that has no transcript beside it (media/speech.py)
EMBEDDINGS = ("none", "gemini")  # who embeds the media files themselves (media_space.py)
MEDIA_MODELS = ("gemini-embedding-2", "gemini-embedding-2-preview")  # Gemini's multimodal embedding models
KEYS = ("enabled", "modalities", "max_file_bytes", "ocr", "tesseract_languages", "timeout", "embedding",
        "embedding_model", "embedding_dimensions", "speech", "speech_model")


class MediaSettings:
    """The `[media]` table, checked."""

    __slots__ = ("enabled", "modalities", "max_file_bytes", "ocr", "tesseract_languages", "timeout", "embedding",
                 "embedding_model", "embedding_dimensions", "speech", "speech_model")

    def __init__(self, enabled: bool = False, modalities: tuple[str, ...] = MODALITIES,
                 max_file_bytes: int = DEFAULT_MAX_FILE_BYTES, ocr: str = "rapidocr",
                 tesseract_languages: str = "eng", timeout: float = DEFAULT_TIMEOUT, embedding: str = "none",
                 embedding_model: str = MEDIA_MODELS[0], embedding_dimensions: int | None = None,
                 speech: str = "none", speech_model: str = "") -> None:
        self.enabled, self.modalities, self.max_file_bytes = enabled, modalities, max_file_bytes
        self.ocr, self.tesseract_languages, self.timeout = ocr, tesseract_languages, timeout
        self.embedding, self.embedding_model, self.embedding_dimensions = embedding, embedding_model, embedding_dimensions
        self.speech, self.speech_model = speech, speech_model

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> MediaSettings:
        """The workspace's `[media]` (a ValueError says what is wrong, naming the key)."""
        section = config.get("media") or {}
        unknown = sorted(set(section) - set(KEYS))
        if unknown:
            raise ValueError(f"[media]: unknown key {unknown[0]!r}; expected one of: {', '.join(KEYS)}")
        enabled = section.get("enabled", False)
        if not isinstance(enabled, bool):
            raise ValueError("[media] enabled must be true or false")
        raw = section.get("modalities", list(MODALITIES))
        if not isinstance(raw, list) or any(m not in (*MODALITIES, "all") for m in raw):
            raise ValueError(f"[media] modalities must be a list of {', '.join(MODALITIES)} (or \"all\")")
        modalities = MODALITIES if "all" in raw else tuple(m for m in MODALITIES if m in raw)
        size = section.get("max_file_bytes", DEFAULT_MAX_FILE_BYTES)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_FILE_BYTES_LIMIT:
            raise ValueError(f"[media] max_file_bytes must be a whole number from 1 to {MAX_FILE_BYTES_LIMIT:,}")
        ocr = section.get("ocr", "rapidocr")
        if ocr not in OCR_ENGINES:
            raise ValueError(f"[media] ocr must be one of: {', '.join(OCR_ENGINES)}")
        languages = section.get("tesseract_languages", "eng")
        if not isinstance(languages, str) or not languages.replace("+", "").replace("_", "").isalnum():
            raise ValueError('[media] tesseract_languages must be like "eng+deu"')
        timeout = section.get("timeout", DEFAULT_TIMEOUT)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 1 <= timeout <= 3600:
            raise ValueError("[media] timeout must be a number of seconds from 1 to 3600")
        embedding = section.get("embedding", "none")
        if embedding not in EMBEDDINGS:
            raise ValueError(f"[media] embedding must be one of: {', '.join(EMBEDDINGS)}")
        model = section.get("embedding_model", MEDIA_MODELS[0])
        if model not in MEDIA_MODELS:
            raise ValueError(f"[media] embedding_model must be one of: {', '.join(MEDIA_MODELS)} (Gemini's "
                             "multimodal models)")
        dims = section.get("embedding_dimensions")
        if dims is not None and (isinstance(dims, bool) or not isinstance(dims, int) or not 128 <= dims <= 3072):
            raise ValueError("[media] embedding_dimensions must be a whole number from 128 to 3072")
        speech = section.get("speech", "none")
        if speech not in SPEECH:
            raise ValueError(f"[media] speech must be one of: {', '.join(SPEECH)}")
        speech_model = section.get("speech_model", "")
        if not isinstance(speech_model, str) or len(speech_model) > 4096 or "\0" in speech_model:
            raise ValueError("[media] speech_model must be the path of a CTranslate2 Whisper model folder")
        return cls(enabled, modalities, size, ocr, languages, float(timeout), embedding, model, dims, speech,
                   speech_model)

    @property
    def embedded(self) -> tuple[str, ...]:
        """The modalities whose files are embedded as themselves (images and audio, when `embedding` is
        chosen and media is on): Gemini's multimodal model takes both, as OpenClaw sends them."""
        if not self.enabled or self.embedding == "none":
            return ()
        return tuple(m for m in self.modalities if m in ("image", "audio"))

    def suffixes(self) -> tuple[str, ...]:
        """The file suffixes the scan picks up (none when media is off)."""
        if not self.enabled:
            return ()
        return tuple(s for m in self.modalities for s in MEDIA_SUFFIXES[m])

    def fingerprint(self) -> dict[str, Any] | None:
        """What of these settings shapes the index's rows (None when off: an index without media keeps
        its fingerprint)."""
        if not self.enabled:
            return None
        return {"modalities": list(self.modalities), "max_file_bytes": self.max_file_bytes, "ocr": self.ocr,
                "tesseract_languages": self.tesseract_languages if self.ocr == "tesseract" else None,
                **({"speech": self.speech, "speech_model": self.speech_model} if self.speech != "none" else {})}


def modality(key: str) -> str | None:
    """"image" | "audio" | "pdf" by a file's suffix, else None."""
    lower = key.lower()
    return next((m for m, suffixes in MEDIA_SUFFIXES.items() if lower.endswith(suffixes)), None)


def media_settings(config: dict[str, Any]) -> MediaSettings:
    """The settings, with a bad table as the one-line error every command shows for memory.toml."""
    from ..errors import UserError

    try:
        return MediaSettings.from_config(config)
    except ValueError as exc:
        raise UserError(f"memory.toml {exc}") from None
