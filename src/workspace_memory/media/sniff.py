"""What a file is by its first bytes, not its name: a `.png` that holds no PNG is skipped, not fed
to a decoder (pure)."""

from __future__ import annotations

HEAD_BYTES = 64  # enough for every signature below

_ISO_BRANDS = {b"heic": "heic", b"heix": "heic", b"heim": "heic", b"heis": "heic", b"hevc": "heic",
               b"mif1": "heif", b"msf1": "heif", b"heif": "heif", b"avif": "avif",
               b"M4A ": "m4a", b"M4B ": "m4a", b"mp42": "m4a", b"isom": "m4a", b"dash": "m4a"}
# What each content type is, as a modality.
MODALITY = {"jpeg": "image", "png": "image", "gif": "image", "webp": "image", "heic": "image", "heif": "image",
            "pdf": "pdf", "wav": "audio", "mp3": "audio", "ogg": "audio", "flac": "audio", "m4a": "audio",
            "aac": "audio"}


def content_type(head: bytes) -> str | None:
    """"jpeg", "png", "pdf", "wav", ... from a file's first HEAD_BYTES bytes; None when unknown."""
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if b"%PDF-" in head[:HEAD_BYTES]:  # a few bytes of junk before the header are allowed by readers
        return "pdf"
    if head[4:8] == b"ftyp":
        return _ISO_BRANDS.get(head[8:12])
    if head.startswith(b"OggS"):
        return "ogg"
    if head.startswith(b"fLaC"):
        return "flac"
    if head.startswith(b"ID3"):
        return "mp3"
    if len(head) > 1 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0:
        return "aac"  # ADTS
    if len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0:
        return "mp3"  # an MPEG audio frame without tags
    return None


def mismatch(modality: str, head: bytes) -> str | None:
    """Why a file named as `modality` is not one ("content is not an image (pdf)"), or None."""
    found = content_type(head)
    if found is None:
        return f"content is not a known {modality} format"
    if MODALITY.get(found) != modality:
        return f"content is {found}, not {'an' if modality[0] in 'aeiou' else 'a'} {modality}"
    return None
