"""`memory export`: every Retain fact, with what it means and where it comes from.

One JSON object per fact (JSONL), oldest first:

    {"kind": "world", "bullet": "W @Peter: Lives in Vienna.", "content": "Peter: Lives in Vienna.",
     "entities": ["Peter"], "confidence": null, "day": "2025-11-10",
     "occurred": {"start": null, "end": null}, "source": "memory/2025-11-10.md#L9",
     "valid": true, "invalid_at": null, "invalid_reason": null}

`bullet` is the fact as written (what `memory import` writes back), `content` as recall shows it,
`entities` their display names, `day` the day it was written (null: an evergreen file),
`occurred` the time range its text states. A fact struck as no longer true has `valid: false`.

`markdown-zip` packs the same facts as Markdown a workspace can read: memory/<day>.md (and
memory/imported.md for undated facts) with their `## Retain` sections, plus facts.jsonl. The zip
is deterministic: the same facts give the same bytes.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable
from datetime import date
from typing import Any

from ..facts.model import EntityInfo, Fact, by_key, entity_info
from ..markdown.retain import INVALID_UNKNOWN, mark_invalid
from ..workspace.importing import UNDATED_FILE
from .base import entry_time

FORMATS = ("jsonl", "markdown-zip")
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def fact_records(facts: Iterable[Fact], entities: list[EntityInfo], since: date | None = None) -> list[dict[str, Any]]:
    """The export objects of the facts whose time reaches `since` or later (all without it).

    A fact's time is what `recall --since` tests (index.base.entry_time): the range it states,
    else the day it was written; an undated fact has none and is left out by `since`.
    """
    known = by_key(entities)
    out = []
    for fact in sorted(facts, key=lambda f: f.order):
        if since is not None:
            _, end = entry_time(fact.day_s or None, fact.occurred_start, fact.occurred_end)
            if end is None or end < since.isoformat():
                continue
        invalid_at = None if fact.invalid_at in (None, INVALID_UNKNOWN) else fact.invalid_at
        out.append({
            "kind": fact.kind, "bullet": fact.bullet, "content": fact.content,
            "entities": [entity_info(known, key).name for key in fact.entities],
            "confidence": fact.confidence, "day": fact.day_s or None,
            "occurred": {"start": fact.occurred_start, "end": fact.occurred_end},
            "source": fact.source, "valid": fact.valid, "invalid_at": invalid_at,
            "invalid_reason": fact.invalid_reason,
        })
    return out


def to_jsonl(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def to_markdown_zip(records: list[dict[str, Any]]) -> bytes:
    """The zip described in the module docstring."""
    days: dict[str, list[str]] = {}
    for r in records:
        bullet = r["bullet"]
        if not r["valid"]:
            bullet = mark_invalid(bullet, r["invalid_at"], r["invalid_reason"])
        days.setdefault(r["day"] or "", []).append(f"- {bullet}")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for day in sorted(days):
            name = f"memory/{day}.md" if day else UNDATED_FILE
            title = f"# {day}" if day else "# Imported facts"
            _add(zf, name, "\n".join([title, "", "## Retain", *days[day], ""]))
        _add(zf, "facts.jsonl", to_jsonl(records))
    return buffer.getvalue()


def _add(zf: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name, _ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    zf.writestr(info, text.encode("utf-8"))
