"""URLs inside the UI: where a source (`path#Lline`) opens, and the anchor of a line.

A daily log opens in its day's view (`/day/2025-11-20`), any other Markdown in the file
view (`/file/bank/entities/Peter.md`); `?line=N` asks the page to mark the block holding
line N, and the fragment scrolls to it. Anchors include the path, because a day's view
may show several files.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

from ..workspace import day_from_name

_NOT_ID = re.compile(r"[^A-Za-z0-9]+")


def anchor_id(path: str, line: int) -> str:
    """The element id of a line of a file: memory/2025-11-20.md, 8 -> memory-2025-11-20-md-L8."""
    return f"{_NOT_ID.sub('-', path).strip('-')}-L{line}"


def source_href(path: str, line: int | None = None) -> str:
    """Where a workspace file (and optionally one of its lines) opens in the UI."""
    day = day_from_name(path)
    if day is not None:
        base = f"/day/{day.isoformat()}"
        params = {} if path == f"memory/{day.isoformat()}.md" else {"file": path}
    else:  # an extra path outside the workspace is absolute: /file//srv/notes/x.md
        base, params = file_href(path), {}
    if line is None:
        return base + (f"?{urlencode(params)}" if params else "")
    params["line"] = str(line)
    return f"{base}?{urlencode(params)}#{anchor_id(path, line)}"


def file_href(path: str, start: int | None = None) -> str:
    """The file view of any workspace Markdown, from line `start` on (its next page)."""
    return f"/file/{quote(path, safe='/')}" + (f"?from={start}" if start and start > 1 else "")


def media_href(path: str) -> str:
    """The bytes of a media file (an image, a PDF, a voice note), for the page that shows its text."""
    return f"/media/{quote(path, safe='/')}"


def entity_href(slug: str) -> str:
    return f"/entity/{quote(slug, safe='')}"


def opinion_anchor(key: str) -> str:
    return f"op-{_NOT_ID.sub('-', key).strip('-')}"
