"""Reading what reflect works on from the index: facts with their entities, and entity names.

Reflect reads the derived index (never the Markdown directly) after `index.sync` has
brought it up to date. A fact is identified across runs by its *evidence hash*: the hash of
its path and normalised content. Line numbers shift whenever someone edits a daily log, so
a line is only a way to show the fact, never its identity.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from ..markdown.retain import display_name

# Files reflect writes that must never feed back into its own input.
PROPOSALS_PATH = "bank/proposals.md"

KIND_ORDER = {"world": 0, "experience": 1, "opinion": 2, "observation": 3}


def evidence_hash(path: str, content: str) -> str:
    """Stable identity of a fact: its file and its whitespace/case-normalised text (12 hex digits)."""
    norm = " ".join(content.split()).casefold()
    return hashlib.sha256(f"{path}\0{norm}".encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Fact:
    """One Retain fact as the index knows it."""

    id: int
    path: str
    line: int
    kind: str  # world | experience | opinion | observation
    content: str  # as indexed: mentions shown as display names ("Peter: Prefers ...")
    confidence: float | None
    day: date | None  # the day it was written (daily logs); None for evergreen files
    entities: tuple[str, ...]  # entity keys (lower-cased slugs), in order of appearance
    occurred_start: str | None = None
    occurred_end: str | None = None

    @cached_property
    def hash(self) -> str:
        return evidence_hash(self.path, self.content)

    @property
    def day_s(self) -> str:
        """The written day as ISO text, "" for undated facts (sorts first)."""
        return self.day.isoformat() if self.day else ""

    @property
    def order(self) -> tuple[str, str, int]:
        """Oldest first: written day, then file, then line."""
        return (self.day_s, self.path, self.line)

    @property
    def source(self) -> str:
        return f"{self.path}#L{self.line}"


@dataclass(frozen=True)
class EntityInfo:
    """An entity: its key, the slug as usually written, display name, page and aliases."""

    key: str
    slug: str
    name: str
    page_path: str | None
    aliases: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        """Every way the entity may appear at the start of a fact's text."""
        return tuple(dict.fromkeys((self.name, display_name(self.slug), *self.aliases)))


def load_facts(conn: sqlite3.Connection, until: date | None = None) -> list[Fact]:
    """Every fact written up to `until` (inclusive; undated facts always), oldest first.

    Facts dated after `until` are left out: reflecting "as of --now" must not see the future.
    """
    mentions: dict[int, list[tuple[str, str]]] = {}
    for chunk_id, key, slug in conn.execute(
        "SELECT m.chunk_id, m.entity_key, m.slug FROM mentions m JOIN facts f ON f.id = m.chunk_id"
    ):
        mentions.setdefault(chunk_id, []).append((key, slug))
    out: list[Fact] = []
    rows = conn.execute(
        "SELECT id, path, line, kind, content, confidence, day, occurred_start, occurred_end FROM facts"
    )
    for fid, path, line, kind, content, confidence, day_s, o_start, o_end in rows:
        if path == PROPOSALS_PATH:
            continue
        day = date.fromisoformat(day_s) if day_s else None
        if until is not None and day is not None and day > until:
            continue
        found = mentions.get(fid, [])
        # The mentions table has no order; the position of each name in the text gives it back.
        ordered = sorted(found, key=lambda ks: (_position(content, display_name(ks[1])), ks[0]))
        out.append(Fact(fid, path, line, kind, content, confidence, day, tuple(k for k, _ in ordered),
                        o_start, o_end))
    out.sort(key=lambda f: f.order)
    return out


def _position(text: str, name: str) -> int:
    pos = text.find(name)
    return pos if pos >= 0 else len(text)


def load_entities(conn: sqlite3.Connection) -> dict[str, EntityInfo]:
    """Entity key -> EntityInfo, from the index's `entities` table."""
    out = {}
    for key, slug, name, page, aliases in conn.execute(
        "SELECT key, slug, name, page_path, aliases FROM entities ORDER BY key"
    ):
        try:
            alias_list = tuple(str(a) for a in json.loads(aliases or "[]"))
        except ValueError:
            alias_list = ()
        out[key] = EntityInfo(key, slug, name or display_name(slug), page, alias_list)
    return out


def entity_info(entities: dict[str, EntityInfo], key: str) -> EntityInfo:
    """The entity for `key`, or a stand-in built from the key when the index does not know it."""
    return entities.get(key) or EntityInfo(key, key, display_name(key), None)


def strip_entity_prefix(content: str, names: tuple[str, ...]) -> str:
    """'Peter: Prefers tea' -> 'Prefers tea' when the text opens with one of the entity's names."""
    for name in sorted(names, key=len, reverse=True):
        if name and content.startswith(name) and content[len(name):len(name) + 1] == ":":
            rest = content[len(name) + 1:].strip()
            return rest or content
    return content
