"""Transcripts in OpenClaw's SQLite store (2026.9: `agents/<id>/agent/openclaw-agent.sqlite`), read
like the JSONL ones (index/sessions.py), incrementally and read-only.

OpenClaw keeps each session's events in `transcript_events(session_id, seq, event_json, created_at)`,
one event per row, each the JSON object a JSONL transcript has on its line (`{"type": "message",
"message": {"role": "user", ...}}`). Here a session is a transcript whose line N is the event of
seq N-1: its entries cite `sessions/<sessionId>#L<seq+1>`, and the JSONL reader's parsing and rows
apply unchanged (a missing seq, or an event without JSON, is an empty line: skipped, counted nowhere).

The bookkeeping is the JSONL reader's, in events rather than bytes: `size` = the session's last seq + 1,
`mtime_ns` = a mark of its newest event's time and its events' number and size, `offset` = `lines` = the events read, `digest` = a hash of the
first and the last event read (a session OpenClaw rewrote, e.g. after a rewind, no longer matches and
is read again whole). A session being written is read up to its last committed event (SQLite's WAL
gives a reader a consistent snapshot); what is added later is read at the next sync.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import tzinfo
from typing import NamedTuple

from ..workspace.transcripts import SessionFile, read_only
from .records import SessionDelta, SessionState

MAX_EVENTS = 5_000  # events read at a time (call again for the rest): a long session never sits in memory whole


class EventStat(NamedTuple):
    """A session's `stat`, as the JSONL reader uses a file's."""

    st_size: int  # the last seq + 1
    st_mtime_ns: int  # a change mark: the newest event's time, the number and size of the events


def _connect(sf: SessionFile) -> sqlite3.Connection:
    assert sf.database is not None
    return read_only(sf.database)


def stat(sf: SessionFile) -> EventStat | None:
    """The session's size and time, None when the database or the session is gone."""
    try:
        with contextlib.closing(_connect(sf)) as conn:
            last, newest, count, chars = conn.execute(
                "SELECT max(seq), max(created_at), count(*), sum(length(event_json)) FROM transcript_events "
                "WHERE session_id = ?", (sf.session_id,)).fetchone()
    except sqlite3.Error:
        return None
    if last is None:
        return None
    # Not a time but a change mark: a session rewritten in place (same seqs) changes its count or size.
    mark = hashlib.sha256(f"{newest}:{count}:{chars}".encode()).digest()
    return EventStat(int(last) + 1, int.from_bytes(mark[:7], "big"))


def behind(sf: SessionFile, old: SessionState | None) -> tuple[int, EventStat] | None:
    """(events added since the last read, stat) of a session with news, else None."""
    st = stat(sf)
    if st is None or (old is not None and (old.size, old.mtime_ns) == (st.st_size, st.st_mtime_ns)):
        return None
    return (st.st_size - old.offset if old is not None else st.st_size), st


def _digest(conn: sqlite3.Connection, session_id: str | None, upto: int) -> str:
    """Hash of the first event and of the last one before seq `upto`."""
    rows = conn.execute("SELECT seq, event_json FROM transcript_events WHERE session_id = ? AND seq IN "
                        "((SELECT min(seq) FROM transcript_events WHERE session_id = ?), "
                        "(SELECT max(seq) FROM transcript_events WHERE session_id = ? AND seq < ?)) ORDER BY seq",
                        (session_id, session_id, session_id, upto)).fetchall()
    return hashlib.sha256(repr(rows).encode("utf-8")).hexdigest()[:32]


def read_delta(sf: SessionFile, old: SessionState | None, tz: tzinfo, parse: Callable[..., SessionDelta], *,
               min_lines: int = 0) -> SessionDelta | None:
    """The events added to a session since `old` (or all of them, MAX_EVENTS at a time), parsed by
    `parse` (the JSONL reader's, index.sessions._parse_delta, as lines); a `pending` delta when fewer
    than `min_lines` were added."""
    news = behind(sf, old)
    if news is None:
        return None
    added, st = news
    try:
        with contextlib.closing(_connect(sf)) as conn:
            whole = old is None or st.st_size < old.offset or _digest(conn, sf.session_id, old.offset) != old.digest
            start = 0 if whole else old.offset  # type: ignore[union-attr]
            if not whole and added < min_lines:
                return SessionDelta(sf.key, None, pending=True)
            rows = conn.execute("SELECT seq, event_json FROM transcript_events WHERE session_id = ? AND seq >= ? "
                                "ORDER BY seq LIMIT ?", (sf.session_id, start, MAX_EVENTS)).fetchall()
            if not rows:
                return None
            offset = int(rows[-1][0]) + 1
            digest = _digest(conn, sf.session_id, offset)
    except sqlite3.Error:
        return None
    lines, seq = [], start
    for row_seq, event in rows:
        lines.extend([b""] * (int(row_seq) - seq))  # a missing seq: an empty line
        lines.append(event.encode("utf-8") if isinstance(event, str) else b"")
        seq = int(row_seq) + 1
    data = b"\n".join(lines) + b"\n"
    base = SessionState(sf.key, str(sf.path)) if whole else old
    assert base is not None
    size = st.st_size if offset >= st.st_size else offset  # stopped early: the session still looks behind
    if not whole:
        base = replace(base, lines=start)
    delta = parse(sf.key, base, data, offset, digest, (size, st.st_mtime_ns), tz, whole)
    delta.reread = whole and old is not None
    return delta
