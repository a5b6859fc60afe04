"""`memory import FILE.jsonl`: facts exported by `memory export` become Retain bullets again.

Each line is one fact object (see index.export): its `bullet` (the fact as written, e.g.
"O(c=0.8) @Peter: Prefers tea") is appended to the `## Retain` section of the log of its `day`
(memory/<day>.md), or of memory/imported.md for an undated (evergreen) fact. Without `bullet`,
one is built from `kind`, `confidence` and `content`. A fact that is not valid keeps its mark
(`~~…~~ (invalid since DAY: reason)`). A bullet already in that section is skipped, so importing
the same file twice changes nothing.

Every line is checked before anything is written: one bad line refuses the whole file with its
line number, so an import never stops half way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..limits import MAX_FACT_CHARS, MAX_REQUEST_BYTES
from ..markdown.retain import FACT_KINDS, invalid_mark, mark_invalid, normalize_bullet, validate_bullet
from .layout import Workspace
from .retain_writer import append_retain_items

UNDATED_FILE = "memory/imported.md"
_LETTERS = {kind: letter for letter, kind in FACT_KINDS.items()}


@dataclass
class ImportReport:
    """What an import wrote: facts added, exact duplicates skipped, files changed."""

    added: int = 0
    duplicates: int = 0
    files: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "duplicates": self.duplicates, "files": self.files}


def read_records(lines: Iterable[bytes], name: str) -> list[tuple[date | None, str]]:
    """(day, list item) of every fact line; a bad line raises UserError("NAME:LINE: why")."""
    out = []
    for number, raw in enumerate(lines, 1):
        if len(raw) > MAX_REQUEST_BYTES:  # one fact is at most MAX_FACT_CHARS: do not parse megabytes
            raise UserError(f"{name}:{number}: a line of {len(raw):,} bytes; a fact line is at most "
                            f"{MAX_REQUEST_BYTES:,} bytes (and its bullet {MAX_FACT_CHARS:,} characters)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UserError(f"{name}:{number}: not valid UTF-8") from None
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except ValueError as exc:
            raise UserError(f"{name}:{number}: not JSON ({exc.msg})") from None
        try:
            out.append(_item(record))
        except (UserError, ValueError, TypeError) as exc:
            raise UserError(f"{name}:{number}: {exc}") from None
    return out


def _item(record: Any) -> tuple[date | None, str]:
    if not isinstance(record, dict):
        raise ValueError("expected a fact object")
    bullet = record.get("bullet")
    if not isinstance(bullet, str) or not bullet.strip():
        bullet = _bullet_from(record)
    bullet = normalize_bullet(bullet)
    mark = invalid_mark(bullet)  # a struck bullet given as it is written
    if mark is not None:
        bullet = mark.inner
        record = {"invalid_at": mark.day, "invalid_reason": mark.reason} | {
            k: v for k, v in record.items() if v is not None} | {"valid": False}
    problem = validate_bullet(bullet)
    if problem:
        raise ValueError(problem)
    day = record.get("day")
    when = date.fromisoformat(day) if isinstance(day, str) and day else None
    if record.get("valid") is False or record.get("invalid_at"):
        since = record.get("invalid_at") or (when.isoformat() if when else None)
        if since is not None:
            date.fromisoformat(str(since))  # ValueError names a bad day
        reason = record.get("invalid_reason")
        bullet = mark_invalid(bullet, since, reason if isinstance(reason, str) else None)
    return when, f"- {bullet}"


def _bullet_from(record: dict) -> str:
    """A bullet built from kind, confidence and content, for facts that come without one."""
    kind, content = record.get("kind"), record.get("content")
    if kind not in _LETTERS or not isinstance(content, str) or not content.strip():
        raise ValueError('expected "bullet", or "kind" (world|experience|opinion|observation) and "content"')
    confidence = record.get("confidence")
    c = f"(c={float(confidence):g})" if kind == "opinion" and isinstance(confidence, int | float) else ""
    return f"{_LETTERS[kind]}{c} {content}"


def import_items(ws: Workspace, items: list[tuple[date | None, str]]) -> ImportReport:
    """Append the items to their days' Retain sections, one atomic write per file."""
    ws.require()
    by_file: dict[Path, tuple[str, list[str]]] = {}
    for day, item in items:
        path = ws.daily_path(day) if day else ws.root / UNDATED_FILE
        title = f"# {day.isoformat()}" if day else "# Imported facts"
        by_file.setdefault(path, (title, []))[1].append(item)
    report = ImportReport()
    for path, (title, file_items) in sorted(by_file.items()):
        results = append_retain_items(ws, path, title, list(dict.fromkeys(file_items, None)), "not imported")
        added = sum(1 for _, _, duplicate in results if not duplicate)
        report.added += added
        report.duplicates += len(file_items) - added
        if added:
            report.files.append(ws.key_for(path))
    return report


__all__ = ["UNDATED_FILE", "ImportReport", "import_items", "read_records"]
