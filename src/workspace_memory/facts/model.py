"""The domain's nouns: a Retain fact and an entity (facts.entity_info), as every store returns them.

A fact is identified across runs by its *evidence hash*: the hash of its path and normalised
content. Line numbers shift whenever someone edits a daily log, so a line is only a way to
show the fact, never its identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cached_property

from ..markdown.names import display_name
from .entity_info import EntityInfo  # defined apart: a recall needs entities, not Fact (see there)

# Files reflect writes that must never feed back into its own input.
PROPOSALS_PATH = "bank/proposals.md"

KIND_ORDER = {"world": 0, "experience": 1, "opinion": 2, "observation": 3}


def evidence_hash(path: str, content: str) -> str:
    """Stable identity of a fact: its file and its whitespace/case-normalised text (12 hex digits)."""
    norm = " ".join(content.split()).casefold()
    import hashlib  # lazy: a cold recall never hashes

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
    bullet: str = ""  # the bullet's text as written, without an invalid mark ("W @Peter: ...")
    end_line: int | None = None  # the last line of its bullet
    invalid_at: str | None = None  # the day it stopped being true (`memory forget`); None: valid
    invalid_reason: str | None = None

    @property
    def valid(self) -> bool:
        return self.invalid_at is None

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


def order_mentions(content: str, mentions: list[tuple[str, str]]) -> tuple[str, ...]:
    """Entity keys of a fact's (key, slug) mentions in the order they appear in its text.

    Stores keep mentions unordered; the position of each display name in the text gives the
    order back (the first is the fact's primary entity).
    """
    ordered = sorted(mentions, key=lambda ks: (_position(content, display_name(ks[1])), ks[0]))
    return tuple(dict.fromkeys(k for k, _ in ordered))


def _position(text: str, name: str) -> int:
    pos = text.find(name)
    return pos if pos >= 0 else len(text)


def by_key(entities: list[EntityInfo]) -> dict[str, EntityInfo]:
    """Entity key -> EntityInfo."""
    return {e.key: e for e in entities}


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
