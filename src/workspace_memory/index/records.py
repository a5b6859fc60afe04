"""Records of the store boundary (index.base) that only indexing makes: the state a store keeps of
each session transcript, the delta index.sessions reads from it, the report of a session sync,
and what bringing a vector index up to date did.

Kept apart from index.base so that a recall, which reads no transcript and embeds nothing on the
lexical path, does not create these classes (a dataclass costs about a millisecond at import).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SessionState:
    """What the store remembers of a transcript (table session_files in SQLite)."""

    key: str
    source: str  # the file's absolute path
    size: int = 0
    mtime_ns: int = 0
    offset: int = 0  # bytes read: the end of the last complete line
    lines: int = 0  # lines read
    digest: str = ""  # hash of the first and last 4 KB of [0, offset) (a replaced file no longer matches)
    session_id: str | None = None
    last_at: str | None = None  # the newest message time read (for a message without one)
    messages: int = 0
    other: int = 0
    malformed: int = 0
    first_malformed: int | None = None


@dataclass
class SessionDelta:
    """What to change in the store for one transcript: new rows, and its new state.

    `whole` replaces every row of the file (new, replaced or rewritten); else the rows are
    appended. `removed` drops the file and its rows (the transcript is gone). `pending`: lines
    were added, under the thresholds; nothing changes yet.
    """

    key: str
    state: SessionState | None
    chunks: list[dict[str, Any]] = field(default_factory=list)
    whole: bool = False
    removed: bool = False
    pending: bool = False
    reread: bool = False  # whole, and the file had been read before (replaced or rewritten)
    counts: dict[str, int] = field(default_factory=dict)  # lines read: message / other / malformed


@dataclass
class SessionReport:
    """What a session sync did. `busy`: another writer held the index and we did not wait."""

    files: int = 0  # transcripts configured
    read: int = 0  # transcripts read (in part or whole)
    reread: int = 0  # of those, read again whole
    removed: int = 0
    pending: int = 0  # transcripts with new lines under the thresholds, left for later
    messages: int = 0
    other: int = 0
    malformed: int = 0
    bytes: int = 0
    new_chunk_ids: list[int] = field(default_factory=list)
    removed_chunk_ids: list[int] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    seconds: float = 0.0
    busy: bool = False
    untimed: int = 0  # messages whose timestamp could not be read: they carry the previous message's time
    read_keys: set[str] = field(default_factory=set, repr=False)  # a transcript read in several parts counts once

    @property
    def dirty(self) -> bool:
        return bool(self.new_chunk_ids or self.removed_chunk_ids or self.removed)

    def count_read(self, delta: SessionDelta, new_bytes: int) -> None:
        """Add what one applied delta read (`new_bytes`: its offset minus where the store had read to)."""
        if (delta.whole or delta.counts) and delta.key not in self.read_keys:  # 8 MB parts of one file: one read
            self.read_keys.add(delta.key)
            self.read += 1
        self.reread += delta.reread
        self.bytes += new_bytes
        self.messages += delta.counts.get("message", 0)
        self.other += delta.counts.get("other", 0)
        self.malformed += delta.counts.get("malformed", 0)
        untimed = delta.counts.get("untimed", 0)
        if untimed:
            self.untimed += untimed
            self.notices.append(f"{delta.key}: {untimed} message(s) with an unreadable timestamp; each was given "
                                "the time of the message before it")

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("files", "read", "reread", "removed", "pending", "messages", "other",
                                              "malformed", "untimed", "bytes", "busy", "notices")} | {
            "seconds": round(self.seconds, 3)}


ReadDeltas = Callable[[Mapping[str, SessionState]], Iterable[SessionDelta]]


@dataclass
class VectorUpdate:
    """What bringing a vector index up to date did: texts embedded, still missing, notices."""

    embedded: int = 0
    missing: int = 0
    notices: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.missing == 0
