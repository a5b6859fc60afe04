"""`memory get` and MCP `memory_get` on a media file: its derived document, marked as derived.

The same document the index holds (media.derive), from the cache; a file `memory index` has not
read yet shows its name and metadata and says so. Nothing is extracted here: a read never waits
for OCR.
"""

from __future__ import annotations

from ..errors import PathRefused
from ..workspace.layout import ANY_MEDIA_SUFFIX, Workspace
from .settings import media_settings, modality


def is_media_path(path: str) -> bool:
    """True when a path (or citation) names a media file by its suffix."""
    return path.split("#", 1)[0].lower().endswith(ANY_MEDIA_SUFFIX)


def derived_text(ws: Workspace, user_path: str) -> tuple[str, str, str]:
    """(workspace key, derived document, what derived it) of the media file `user_path`, confined
    like any read (memory/ and the extra paths, no symlinks, no hidden folders)."""
    from . import derive
    from .extract import Extractor
    from .settings import PENDING

    settings = media_settings(ws.config)
    if not settings.enabled:
        raise PathRefused(f"{user_path}: media files are memory only with [media] enabled = true in memory.toml")
    mf = ws.resolve_markdown(user_path, settings.suffixes())
    kind = str(modality(mf.key))
    extractor = Extractor(ws.state_dir, settings)
    try:
        digest = extractor.digest(str(mf.path), kind)
    except OSError as exc:
        raise PathRefused(f"{user_path}: could not be read ({exc.strerror})") from None
    extraction = extractor.extraction(str(mf.path), kind, digest)
    text = derive.document(mf.key.rsplit("/", 1)[-1], extraction)
    if extraction.get("extractor"):
        note = f"text derived from this {kind} by {extraction['extractor']}"
    elif digest.startswith(PENDING):
        note = f"the text of this {kind} is read by the next `memory index`; name and metadata only"
    else:
        note = f"no text derived from this {kind}" + (f" ({extraction['error']})" if extraction.get("error") else "")
    return mf.key, text, note


# What a browser is sent for each content type (media.sniff); HEIC/HEIF is shown by no browser.
BROWSER_TYPES = {"jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
                 "pdf": "application/pdf", "wav": "audio/wav", "mp3": "audio/mpeg", "ogg": "audio/ogg",
                 "flac": "audio/flac", "m4a": "audio/mp4", "aac": "audio/aac"}


def media_bytes(ws: Workspace, user_path: str) -> tuple[bytes, str]:
    """(the file's bytes, its content type) for `memory ui` to show beside its derived text: confined
    like any read, at most `[media] max_file_bytes`, typed by its content (never by its name)."""
    from .sniff import HEAD_BYTES, content_type, mismatch

    settings = media_settings(ws.config)
    if not settings.enabled:
        raise PathRefused(f"{user_path}: media files are memory only with [media] enabled = true in memory.toml")
    mf = ws.resolve_markdown(user_path, settings.suffixes())
    with open(mf.path, "rb") as fh:
        data = fh.read(settings.max_file_bytes + 1)
    if len(data) > settings.max_file_bytes:
        raise PathRefused(f"{user_path}: over [media] max_file_bytes ({settings.max_file_bytes:,})")
    mime = BROWSER_TYPES.get(content_type(data[:HEAD_BYTES]) or "")
    if mime is None or mismatch(str(modality(mf.key)), data[:HEAD_BYTES]):
        raise PathRefused(f"{user_path}: not a file a browser shows")
    return data, mime
