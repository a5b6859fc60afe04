"""Writing Retain facts into daily logs (`memory retain`).

The bullet is validated first (a bad one is refused with the reason and nothing is
written), then appended to the day's `## Retain` section: after the section's last
non-blank line, or in a new section at the end of the file, or in a new file. The
write is atomic and touches nothing else in the file, so the git diff is one line
(two or three when the section or file is new). Retaining the same bullet twice on
the same day is a no-op.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..errors import InvalidFact
from ..markdown.retain import BULLET_PREFIX_RE, normalize_bullet, validate_bullet
from .layout import Workspace
from .line_files import LineFile

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass
class RetainWrite:
    path: str
    line: int  # 1-based line of the bullet in the file
    created_file: bool
    created_section: bool
    duplicate: bool


def retain(ws: Workspace, bullet: str, day: date) -> RetainWrite:
    """Validate `bullet` and append it to memory/<day>.md under '## Retain'."""
    body = normalize_bullet(bullet)
    problem = validate_bullet(body)
    if problem:
        raise InvalidFact(f"not retained: {problem}")
    ws.require()
    path = ws.daily_path(day)
    created = not path.exists()
    ((line, created_section, duplicate),) = append_retain_items(ws, path, f"# {day.isoformat()}", [f"- {body}"],
                                                                "not retained")
    return RetainWrite(ws.key_for(path), line, created, created_section, duplicate)


def append_retain_items(ws: Workspace, path: Path, title: str, items: list[str],
                        refusal: str) -> list[tuple[int, bool, bool]]:
    """Append list items ("- W ...") to the file's Retain section in one atomic write, under its lock.

    A new file gets `title` and a Retain section. Returns, per item, (1-based line, whether the
    section was created for it, whether it was already there). `refusal` opens error messages.
    """
    key = ws.key_for(path)
    if path.is_symlink() or path.parent.is_symlink():  # never write through a link (DESIGN §1)
        raise InvalidFact(f"{refusal}: {key} is a symbolic link")
    # Read and rewrite under the file's lock: a concurrent writer's bullet is in what we read.
    with ws.write_lock(key):
        doc = LineFile.read(path, key, refusal) if path.exists() else LineFile([title, ""])
        out = []
        for item in items:
            doc.lines, line_no, created_section, duplicate = insert_retain_line(doc.lines, item)
            out.append((line_no, created_section, duplicate))
        if not all(duplicate for _, _, duplicate in out):
            doc.write(path)
    return out


def insert_retain_line(lines: list[str], item: str) -> tuple[list[str], int, bool, bool]:
    """Pure insert of `item` into the Retain section of `lines` (split on '\\n').

    Returns (new lines, 1-based line of the item, whether a section was created, duplicate).
    """
    start = None
    level = 0
    found = headings(lines)
    for idx, depth, title in found:
        if title.strip().rstrip(":").strip().lower() == "retain":
            start, level = idx, depth
            break
    if start is None:
        out = list(lines)
        trailing_newline = bool(out) and out[-1] == ""
        if trailing_newline:
            out.pop()
        while out and not out[-1].strip():
            out.pop()
        prefix = [""] if out else []
        out += prefix + ["## Retain", item, ""]
        return out, len(out) - 1, True, False
    end = next((idx for idx, depth, _ in found if idx > start and depth <= level), len(lines))
    section = lines[start + 1 : end]
    if any(normalize_bullet(s) == normalize_bullet(item) for s in section if BULLET_PREFIX_RE.match(s)):
        line_no = start + 2 + next(i for i, s in enumerate(section) if normalize_bullet(s) == normalize_bullet(item))
        return lines, line_no, False, True
    last = end - 1
    while last > start and not lines[last].strip():
        last -= 1
    out = lines[: last + 1] + [item] + lines[last + 1 :]
    if last + 1 == len(lines):
        out.append("")  # the item became the file's last line: end it with a newline
    return out, last + 2, False, False


def headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(index, level, title) of the ATX headings outside fenced code blocks ("## Retain" in a fence is code)."""
    out = []
    fence = None
    for idx, line in enumerate(lines):
        match = _FENCE_RE.match(line)
        if fence is not None:
            if match and match[1][0] == fence[0] and len(match[1]) >= len(fence) and not line[match.end():].strip():
                fence = None
            continue
        if match and not (match[1][0] == "`" and "`" in line[match.end():]):
            fence = match[1]
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            out.append((idx, len(heading[1]), heading[2]))
    return out
