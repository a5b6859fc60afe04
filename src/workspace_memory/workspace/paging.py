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
from .layout import Workspace
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

    def to_dict(self) -> dict:
        return asdict(self)

    def hint(self) -> str:
        """One line that tells a reader where this page sits and how to get the next."""
        where = f"lines {self.start_line}-{self.end_line} of {self.total_lines}"
        if self.cut_line is not None:
            shown = len(self.text)
            where += f"; line {self.cut_line} cut after {shown:,} of its {self.cut_line_chars:,} characters"
        if self.next_from is None:
            return f"[{self.path}: {where}; end of file]"
        return f"[{self.path}: {where}; next: memory get {self.path} --from {self.next_from}]"


def read_page(ws: Workspace, path: str, start: int = 1, lines: int | None = None,
              max_chars: int | None = None) -> Page:
    """Read lines [start, start + lines) of a workspace Markdown file, within max_chars."""
    lines = DEFAULT_LINES if lines is None else lines
    max_chars = DEFAULT_MAX_CHARS if max_chars is None else max_chars
    if start < 1:
        raise UserError("--from must be 1 or more (lines are 1-based)")
    if lines < 1:
        raise UserError("--lines must be 1 or more")
    if path.startswith(SESSIONS_PREFIX) and path.split("#")[0].endswith(".jsonl"):
        raise PathRefused(f"{path}: session transcripts are not read by get (they stay outside the workspace); "
                          "the recall result holds the message")
    mf = ws.resolve_markdown(path)
    with open(mf.path, "rb") as fh:
        text = normalize_newlines(decode_markdown(fh.read()).text)
    all_lines = text.split("\n")
    if all_lines and all_lines[-1] == "":
        all_lines.pop()  # the final newline does not start another line
    total = len(all_lines)
    if start > max(total, 1):
        raise UserError(f"{mf.key} has {total} lines; --from {start} is past the end")
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
    return Page(mf.key, start, end, total, "\n".join(out), end + 1 if end < total else None, *cut)
