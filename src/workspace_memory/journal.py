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

from .errors import InvalidFact
from .files import atomic_write_text, decode_markdown, detect_newline
from .markdown.retain import validate_bullet
from .workspace import Workspace

_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET_PREFIX_RE = re.compile(r"^\s*[-*+]\s+")


@dataclass
class RetainWrite:
    path: str
    line: int  # 1-based line of the bullet in the file
    created_file: bool
    created_section: bool
    duplicate: bool


def normalize_bullet(text: str) -> str:
    """'- W @Peter: x' or 'W @Peter: x' -> 'W @Peter: x' (one line, outer spaces trimmed)."""
    text = " ".join(text.strip().split())
    return _BULLET_PREFIX_RE.sub("", text, count=1)


def retain(ws: Workspace, bullet: str, day: date) -> RetainWrite:
    """Validate `bullet` and append it to memory/<day>.md under '## Retain'."""
    body = normalize_bullet(bullet)
    problem = validate_bullet(body)
    if problem:
        raise InvalidFact(f"not retained: {problem}")
    path = ws.daily_path(day)
    key = ws.key_for(path)
    if path.is_symlink():
        raise InvalidFact(f"not retained: {key} is a symbolic link")
    if not path.exists():
        text = f"# {day.isoformat()}\n\n## Retain\n- {body}\n"
        atomic_write_text(path, text)
        return RetainWrite(key, 4, True, True, False)
    original = decode_markdown(path.read_bytes()).text
    newline = detect_newline(original)
    lines = original.replace("\r\n", "\n").split("\n")
    new_lines, line_no, created_section, duplicate = insert_retain_line(lines, f"- {body}")
    if not duplicate:
        atomic_write_text(path, newline.join(new_lines))
    return RetainWrite(key, line_no, False, created_section, duplicate)


def insert_retain_line(lines: list[str], item: str) -> tuple[list[str], int, bool, bool]:
    """Pure insert of `item` into the Retain section of `lines` (split on '\\n').

    Returns (new lines, 1-based line of the item, whether a section was created, duplicate).
    """
    start = None
    level = 0
    for idx, line in enumerate(lines):
        match = _HEADING_RE.match(line)
        if match and match[2].strip().rstrip(":").lower() == "retain":
            start, level = idx, len(match[1])
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
    end = len(lines)
    for idx in range(start + 1, len(lines)):
        match = _HEADING_RE.match(lines[idx])
        if match and len(match[1]) <= level:
            end = idx
            break
    section = lines[start + 1 : end]
    if any(normalize_bullet(s) == normalize_bullet(item) for s in section if _BULLET_PREFIX_RE.match(s)):
        line_no = start + 2 + next(i for i, s in enumerate(section) if normalize_bullet(s) == normalize_bullet(item))
        return lines, line_no, False, True
    last = end - 1
    while last > start and not lines[last].strip():
        last -= 1
    out = lines[: last + 1] + [item] + lines[last + 1 :]
    if last + 1 == len(lines):
        out.append("")  # the item became the file's last line: end it with a newline
    return out, last + 2, False, False
