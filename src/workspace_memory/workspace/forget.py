"""`memory forget`: mark a Retain fact as no longer true, or take the mark back (`--undo`).

The bullet stays where it is, struck through and annotated (markdown.retain's grammar):

    - W @Peter: Lives in Vienna.
    - ~~W @Peter: Lives in Vienna.~~ (invalid since 2025-12-01: moved to London)

Only those characters change (a one-line diff; a bullet over several lines gets "~~" after its
list marker and the rest at its end), and `--undo` removes exactly them again. The file is
re-read under its write lock and written atomically; the bullet is found again by its text, so
an edit made since the last index (lines added above it) is no problem, and a changed bullet is
refused rather than guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import UserError
from ..markdown.retain import invalid_mark, mark_invalid
from .layout import Workspace
from .line_files import LineFile

_ITEM_RE = re.compile(r"^(?P<marker>\s*(?:[-*+]|\d{1,9}[.)])\s+)(?P<text>.*?)\s*$")
_STRUCK_END_RE = re.compile(r"~~\s*(?:\(invalid since [^\n]*\))?\s*$")


@dataclass
class ForgetWrite:
    """What `memory forget` changed: the bullet's file and lines, and its text before and after."""

    path: str
    line: int
    end_line: int
    before: str
    after: str


def strike(ws: Workspace, key: str, line: int, end_line: int, bullet: str, day: str,
           reason: str | None) -> ForgetWrite:
    """Strike the bullet `bullet` (its text as written) found at lines [line, end_line] of `key`."""
    check_reason(reason)

    def edit(lines: list[str], first: int, last: int) -> None:
        marker, text = _split_item(lines[first])
        if first == last:
            lines[first] = marker + mark_invalid(text, day, reason)
            return
        lines[first] = f"{marker}~~{text}"
        struck = mark_invalid("x", day, reason)  # "~~x~~ (invalid since …)": keep what follows the x
        lines[last] = lines[last].rstrip() + struck[3:]

    return _rewrite(ws, key, line, end_line, bullet, struck=False, edit=edit)


def unstrike(ws: Workspace, key: str, line: int, end_line: int, bullet: str) -> ForgetWrite:
    """Take the invalid mark off the struck bullet `bullet` at lines [line, end_line] of `key`."""

    def edit(lines: list[str], first: int, last: int) -> None:
        marker, text = _split_item(lines[first])
        lines[first] = marker + text.removeprefix("~~")
        end = lines[last] if first != last else lines[first]
        lines[last] = _STRUCK_END_RE.sub("", end.rstrip())

    return _rewrite(ws, key, line, end_line, bullet, struck=True, edit=edit)


def check_reason(reason: str | None) -> None:
    """A reason is one line of text."""
    if reason is not None and (any(ord(ch) < 32 for ch in reason) or not reason.strip()):
        raise UserError("--reason must be one line of text")


def _split_item(line: str) -> tuple[str, str]:
    m = _ITEM_RE.match(line)
    if m is None:
        raise UserError(f"not a list item: {line.strip()[:60]!r}")
    return m["marker"], m["text"]


def _item_text(lines: list[str], first: int, last: int) -> str | None:
    """The whitespace-collapsed text of the list item spanning lines [first, last], or None."""
    m = _ITEM_RE.match(lines[first]) if 0 <= first < len(lines) else None
    if m is None or last >= len(lines):
        return None
    return " ".join(" ".join([m["text"], *lines[first + 1 : last + 1]]).split())


def _matches(text: str | None, bullet: str, struck: bool) -> bool:
    if text is None:
        return False
    mark = invalid_mark(text)
    if struck:
        return mark is not None and " ".join(mark.inner.split()) == bullet
    return mark is None and text == bullet


def _locate(lines: list[str], line: int, end_line: int, bullet: str, struck: bool) -> tuple[int, int]:
    """0-based (first, last) lines of the bullet: where the index saw it, else wherever it moved."""
    span = end_line - line
    if _matches(_item_text(lines, line - 1, end_line - 1), bullet, struck):
        return line - 1, end_line - 1
    found = [(i, i + span) for i in range(len(lines)) if _matches(_item_text(lines, i, i + span), bullet, struck)]
    if len(found) == 1:
        return found[0]
    state = "struck " if struck else ""
    raise UserError(f"the {state}fact is no longer where the index saw it ({'found twice' if found else 'changed'});"
                    " run `memory index` and try again")


def _rewrite(ws: Workspace, key: str, line: int, end_line: int, bullet: str, *, struck: bool, edit) -> ForgetWrite:
    path = ws.root / key
    if path.is_symlink() or path.parent.is_symlink():
        raise UserError(f"{key} is a symbolic link; not written")
    with ws.write_lock(key):
        doc = LineFile.read(path, key, "not changed")
        first, last = _locate(doc.lines, line, end_line, " ".join(bullet.split()), struck)
        before = "\n".join(doc.lines[first : last + 1])
        edit(doc.lines, first, last)
        doc.write(path)
    return ForgetWrite(key, first + 1, last + 1, before, "\n".join(doc.lines[first : last + 1]))
