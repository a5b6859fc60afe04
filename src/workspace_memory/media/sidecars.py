"""Files beside a media file that speak for it: a user's Markdown (`photo.png.md`, which wins over
anything derived) and an audio file's transcript (`voice.m4a.vtt`, `voice.srt`, `voice.txt`).

Parsing WebVTT and SubRip is pure: (start second or None, text) segments, cues in file order.
"""

from __future__ import annotations

import os
import re

TRANSCRIPT_SUFFIXES = (".vtt", ".srt", ".txt")
MAX_TRANSCRIPT_BYTES = 2 * 1024 * 1024  # a transcript longer than this is read up to it
_CUE_TIME = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{3})\s*-->")


def markdown_sidecar(path: str) -> str | None:
    """`photo.png.md` beside `photo.png`, when the user wrote one (it is indexed as Markdown)."""
    candidate = path + ".md"
    return candidate if _is_plain_file(candidate) else None


def transcript_sidecar(path: str) -> str | None:
    """The transcript of an audio file: `voice.m4a.vtt|srt|txt`, else `voice.vtt|srt|txt`."""
    stem = path.rsplit(".", 1)[0]
    for base in (path, stem):
        for suffix in TRANSCRIPT_SUFFIXES:
            if _is_plain_file(base + suffix):
                return base + suffix
    return None


def sidecar_stat(path: str, audio: bool) -> tuple[int, int]:
    """(mtime_ns, size) of the sidecars that shape a media file's rows, added to its own stat by the
    scan, so that writing or removing a transcript or a `.md` re-reads the file."""
    mtime, size = 0, 0
    for side in (markdown_sidecar(path), transcript_sidecar(path) if audio else None):
        if side:
            st = os.stat(side, follow_symlinks=False)
            mtime, size = max(mtime, st.st_mtime_ns), size + st.st_size + 1
    return mtime, size


def _is_plain_file(path: str) -> bool:
    try:
        return os.path.isfile(path) and not os.path.islink(path)
    except OSError:
        return False


def read_transcript(path: str) -> tuple[list[tuple[float | None, str]], str | None]:
    """(segments, warning) of a .vtt, .srt or .txt transcript, read up to MAX_TRANSCRIPT_BYTES."""
    from ..files import decode_markdown

    with open(path, "rb") as fh:
        data = fh.read(MAX_TRANSCRIPT_BYTES + 1)
    warning = None
    if len(data) > MAX_TRANSCRIPT_BYTES:
        data = data[:MAX_TRANSCRIPT_BYTES]
        warning = f"transcript {os.path.basename(path)} is over {MAX_TRANSCRIPT_BYTES:,} bytes; the rest is not read"
    text = decode_markdown(data).text
    if path.lower().endswith(".txt"):
        return [(None, p.strip()) for p in re.split(r"\n\s*\n", text) if p.strip()], warning
    return parse_cues(text), warning


def parse_cues(text: str) -> list[tuple[float | None, str]]:
    """WebVTT or SubRip cues -> (start second, text); cue numbers, headers and NOTE blocks are left out."""
    segments = []
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        lines = [line.strip() for line in block.strip().split("\n") if line.strip()]
        for n, line in enumerate(lines):
            match = _CUE_TIME.match(line)
            if match:
                hours, minutes, seconds, millis = (int(g or 0) for g in match.groups())
                words = " ".join(re.sub(r"<[^>]+>", "", t) for t in lines[n + 1:]).strip()
                if words:
                    segments.append((hours * 3600 + minutes * 60 + seconds + millis / 1000, words))
                break
    return segments
