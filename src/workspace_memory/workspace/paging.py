"""Paged reads of workspace Markdown (`memory get`, MCP `memory_get`).

Reads are confined to the workspace's memory files (Workspace.resolve_markdown) and
cut into pages of at most DEFAULT_LINES lines and DEFAULT_MAX_CHARS characters, with
the line to continue from, so an agent never pulls a whole large file into context.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from ..errors import PathRefused, UserError
from ..files import decode_markdown
from ..markdown.parse import normalize_newlines
from .layout import ANY_MEDIA_SUFFIX, Workspace
from .transcripts import SESSIONS_PREFIX

DEFAULT_LINES = 120
DEFAULT_MAX_CHARS = 12_000
# The citations recall prints: memory/2025-11-27.md#L7 and memory/2025-11-27.md#L7-L9 (or #L7-9).
_CITATION_RE = re.compile(r"^(?P<path>.+?)#L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")


def parse_citation(path: str) -> tuple[str, int | None, int | None]:
    """'a.md#L7' -> ('a.md', 7, None); 'a.md#L7-L9' -> ('a.md', 7, 3); anything else -> (path, None, None)."""
    match = _CITATION_RE.match(path.strip())
    if not match:
        return path, None, None
    start = int(match["start"])
    end = int(match["end"]) if match["end"] else None
    if end is not None and end < start:
        raise UserError(f"{path}: the citation's range ends before it starts")
    return match["path"], start, None if end is None else end - start + 1


@dataclass
class Page:
    path: str
    start_line: int
    end_line: int  # last line included (start_line - 1 when the page is empty)
    total_lines: int
    text: str
    next_from: int | None  # where the next page starts, or None at the end
    cut_line: int | None = None  # a line longer than the page, shown only up to max_chars
    cut_line_chars: int | None = None  # that line's full length
    # Set for a media file (an image, a PDF, a voice note): the text is derived from it, not the file
    # itself, and this says by what ("text derived from this image by rapidocr 3.10.0").
    derived: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    def hint(self) -> str:
        """One line that tells a reader where this page sits and how to get the next."""
        where = f"lines {self.start_line}-{self.end_line} of {self.total_lines}"
        if self.derived:
            where = f"{self.derived}; {where}"
        if self.cut_line is not None:
            shown = len(self.text)
            where += f"; line {self.cut_line} cut after {shown:,} of its {self.cut_line_chars:,} characters"
        if self.next_from is None:
            return f"[{self.path}: {where}; end of file]"
        return f"[{self.path}: {where}; next: memory get {self.path} --from {self.next_from}]"


def read_page(ws: Workspace, path: str, start: int = 1, lines: int | None = None,
              max_chars: int | None = None) -> Page:
    """Read lines [start, start + lines) of a workspace Markdown file, within max_chars."""
    _check(start, lines)
    _refuse_transcript(path)
    mf = ws.resolve_markdown(path)
    with open(mf.path, "rb") as fh:
        return page_text(mf.key, decode_markdown(fh.read()).text, start, lines, max_chars)


def _check(start: int, lines: int | None) -> None:
    if start < 1:
        raise UserError("--from must be 1 or more (lines are 1-based)")
    if lines is not None and lines < 1:
        raise UserError("--lines must be 1 or more")


def _refuse_transcript(path: str) -> None:
    if path.startswith(SESSIONS_PREFIX) and path.split("#")[0].endswith(".jsonl"):
        raise PathRefused(f"{path}: session transcripts are not read by get (they stay outside the workspace); "
                          "the recall result holds the message")


def store_key(path: str) -> str:
    """The workspace key of a path given to `get` without a checkout ("./memory/x.md#L3" -> "memory/x.md").

    Only keys of indexed files exist in a store, so the lookup itself confines the read.
    """
    if not path or "\x00" in path:
        raise PathRefused("empty or invalid path")
    _refuse_transcript(path)
    key = path.split("#", 1)[0].replace("\\", "/")
    while key.startswith("./"):
        key = key[2:]
    if not key.lower().endswith((".md", *ANY_MEDIA_SUFFIX)):  # a media file's derived text, when the store keeps texts
        raise PathRefused(f"{path}: only Markdown (.md) files can be read")
    return key


def page_text(key: str, text: str, start: int = 1, lines: int | None = None,
              max_chars: int | None = None) -> Page:
    """Lines [start, start + lines) of a file's text, within max_chars (the paging of `read_page`)."""
    _check(start, lines)
    lines = DEFAULT_LINES if lines is None else lines
    max_chars = DEFAULT_MAX_CHARS if max_chars is None else max_chars
    all_lines = normalize_newlines(text).split("\n")
    if all_lines and all_lines[-1] == "":
        all_lines.pop()  # the final newline does not start another line
    total = len(all_lines)
    if start > max(total, 1):
        raise UserError(f"{key} has {total} lines; --from {start} is past the end")
    out: list[str] = []
    used = 0
    cut: tuple[int, int] | tuple[None, None] = (None, None)
    for line in all_lines[start - 1 : start - 1 + lines]:
        if out and used + len(line) + 1 > max_chars:
            break
        if not out and len(line) > max_chars:
            cut = (start, len(line))
            line = line[:max_chars]  # one enormous line: show its start rather than nothing
        out.append(line)
        used += len(line) + 1
    end = start + len(out) - 1
    return Page(key, start, end, total, "\n".join(out), end + 1 if end < total else None, *cut)
