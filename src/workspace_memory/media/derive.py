"""A media file's derived Markdown, its day and its header: pure functions over an extraction.

An extraction (what the cache keeps, JSON) is a dict:

    {"kind": "image" | "pdf" | "audio", "extractor": "rapidocr 3.10.0" | None,
     "blocks": ..., "meta": {...}, "warnings": ["..."], "error": "..." | None}

`blocks` is, for an image, its paragraphs (each a list of OCR lines, top to bottom); for a PDF,
its pages ({"page": 1, "paragraphs": [[line, ...], ...], "ocr": false}); for audio, transcript
segments [start second or None, text]. The derived document puts a header (the file's name, what
it is, its time, place and camera, what read it) above the text, so every line a result cites is a
line of this document, and `memory get` shows exactly it.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

DOCUMENT_VERSION = 2  # how extractions become documents: part of the index's settings fingerprint
HEADER_LINES = 3  # "# name", the description line, a blank line
_NAME_DATE = re.compile(r"(?<!\d)((?:19|20)\d{2})[-_.]?(0[1-9]|1[0-2])[-_.]?(0[1-9]|[12]\d|3[01])(?!\d)")
_DAY_FOLDER = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_SENTENCE_END = (".", "!", "?", "…", "。", "！", "？")
SEGMENT_CHARS = 400  # transcript cues are joined into sentences up to this many characters


def document(name: str, extraction: dict[str, Any]) -> str:
    """The derived Markdown of a media file named `name` (see the module docstring)."""
    lines = [f"# {heading(extraction)}", f"{name}: {describe(extraction)}", ""]
    kind = extraction.get("kind")
    blocks = extraction.get("blocks") or []
    if kind == "image":
        for paragraph in blocks:
            lines += [_escape(line) for line in paragraph] + [""]
    elif kind == "pdf":
        for page in blocks:
            lines += [f"## Page {page['page']}" + (" (scanned, read by OCR)" if page.get("ocr") else ""), ""]
            for paragraph in page.get("paragraphs") or []:
                lines += [_escape(line) for line in paragraph] + [""]
    elif kind == "audio":
        for start, text in join_segments(blocks):
            lines.append(f"- [{clock(start)}] {text}" if start is not None else f"- {text}")
    return "\n".join(lines).rstrip("\n") + "\n"


_KINDS = {"image": "Image", "pdf": "PDF", "audio": "Audio"}
_HEADING = re.compile(r"^(Image|PDF|Audio)(?: · ([^>]+?))?(?: > .*)?$")


def heading(extraction: dict[str, Any]) -> str:
    """The document's heading: its kind and the engines that read its text ("Image · rapidocr",
    "PDF · pypdf + rapidocr", "Audio · transcript"). Three words at most: a longer heading would be a
    statement (markdown.parse) that swallows a short document into one entry with its header."""
    kind = _KINDS.get(str(extraction.get("kind")), "Media")
    source = str(extraction.get("extractor") or "")
    engines = [part.split()[0] for part in source.split(" and ") if part.strip()]
    return f"{kind} · {' + '.join(engines)}" if engines else kind


def label_of_entry(heading_path: str | None) -> str | None:
    """A recall result's `derived`, from its entry's heading path: "image, text by rapidocr" |
    "pdf, text by pypdf + rapidocr" | "audio, name only"; None for an entry of Markdown."""
    match = _HEADING.match(heading_path or "")
    if not match:
        return None
    return f"{match[1].lower()}, " + (f"text by {match[2]}" if match[2] else "name only")


def describe(extraction: dict[str, Any]) -> str:
    """The header's second line: what the file is, when, where, with what, and what read its text."""
    meta = extraction.get("meta") or {}
    kind = extraction.get("kind")
    parts = [{"image": "Image", "pdf": "PDF", "audio": "Audio"}.get(str(kind), "Media file")]
    if meta.get("format") and kind != "pdf":
        parts[0] += f" ({meta['format']}"
        if meta.get("width") and meta.get("height"):
            parts[0] += f", {meta['width']}×{meta['height']}"
        if meta.get("duration") is not None:
            parts[0] += f", {clock(meta['duration'])}"
        parts[0] += ")"
    if meta.get("pages"):
        parts.append(f"{meta['pages']} page{'s' if meta['pages'] != 1 else ''}")
    if meta.get("taken"):
        parts.append(f"taken {_readable_time(meta['taken'])}")
    if meta.get("camera"):
        parts.append(str(meta["camera"]))
    if meta.get("gps"):
        lat, lon = meta["gps"]
        parts.append(f"GPS {abs(lat):.5f} {'N' if lat >= 0 else 'S'} {abs(lon):.5f} {'E' if lon >= 0 else 'W'}")
    if meta.get("title"):
        parts.append(f"title {meta['title']}")
    source = extraction.get("extractor")
    parts.append(f"text derived by {source}" if source else "no text derived")
    return "; ".join(parts) + "."


def join_segments(segments: list) -> list[tuple[float | None, str]]:
    """Transcript cues joined into sentences (a cue often ends mid-sentence), each keeping the time
    of its first cue, up to SEGMENT_CHARS characters."""
    joined: list[tuple[float | None, str]] = []
    start, words = None, ""
    for cue_start, text in segments:
        text = " ".join(str(text).split())
        if not text:
            continue
        if not words:
            start = cue_start
        words = f"{words} {text}".strip()
        if words.endswith(_SENTENCE_END) or len(words) >= SEGMENT_CHARS:
            joined.append((start, words))
            words = ""
    if words:
        joined.append((start, words))
    return joined


def clock(seconds: float | None) -> str:
    """0:04, 1:02:03."""
    total = int(seconds or 0)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def media_day(meta: dict[str, Any], key: str, mtime_ns: int | None) -> tuple[date | None, str]:
    """The day a media file is about, and where it came from: its EXIF time ("taken"), else a date
    in its name ("name"), else a day folder on its path ("folder"), else its file time ("file time")."""
    taken = meta.get("taken")
    if taken:
        try:
            return date.fromisoformat(str(taken)[:10]), "taken"
        except ValueError:
            pass
    parts = key.split("/")
    match = _NAME_DATE.search(parts[-1])
    if match and (found := _date(*match.groups())):
        return found, "name"
    for part in reversed(parts[:-1]):
        match = _DAY_FOLDER.match(part)
        if match and (found := _date(*match.groups())):
            return found, "folder"
    if mtime_ns:
        return datetime.fromtimestamp(mtime_ns / 1e9, UTC).date(), "file time"
    return None, "unknown"


def _date(year: str, month: str, day: str) -> date | None:
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        return None


def _readable_time(iso: str) -> str:
    """'2026-11-24T10:12:31+01:00' -> '2026-11-24 10:12 +01:00'."""
    match = re.match(r"^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::\d{2})?([+-]\d{2}:\d{2}|Z)?)?", str(iso))
    if not match:
        return str(iso)
    return " ".join(p for p in match.groups() if p)


def _escape(line: str) -> str:
    """An extracted line as plain text of the document: a leading '#' would make it a heading, a
    leading '>' a quote; bullets and numbers stay (they are lists on a whiteboard too)."""
    line = " ".join(line.split())
    return "\\" + line if line.startswith(("#", ">", "```", "~~~", "---", "===")) else line


