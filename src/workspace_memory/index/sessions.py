"""Session transcripts as a recall source: OpenClaw's JSONL, read incrementally, store-agnostic.

(OpenClaw 2026.9's SQLite store: index/session_db.py reads its sessions through the same parser.)

OpenClaw keeps each conversation as `~/.openclaw/agents/<agentId>/sessions/<sessionId>.jsonl`:

    {"type":"session","id":"…","timestamp":"2025-11-28T09:00:00.000Z", …}         the first line
    {"type":"message","timestamp":"…","message":{"role":"user","content":[{"type":"text","text":"…"}]}}
    {"type":"model_change", …}  {"type":"custom", …}  …                             other types

Each user or assistant message with text is one entry (kind and role `session`, path
`sessions/<file name>`, line = the JSONL line, day = the message's day in the workspace's
timezone, `at` = its time). Its text is "user: …" or "assistant: …" (text blocks joined);
thinking blocks, tool calls and tool results (role `toolResult`) are skipped. Lines of other
types and messages without text are counted as `other`; lines that are not a JSON object, or a
message without a role, as `malformed`. Neither is ever fatal. A message longer than a chunk is
split like any long entry; every piece cites the message's line.

A transcript only grows. The store remembers, per file, how many bytes and lines were read (up
to the last complete line: a line being written is read next time) and a hash of the file's
first and last read bytes. A sync reads only what was added; a file that shrank or whose hashed
bytes changed (replaced, rewritten) is read again whole; a file that is gone loses its entries.

In a long-lived process (watch, MCP server), sync with OpenClaw's delta thresholds
(`DELTA_BYTES`, `DELTA_LINES`): a file is read once that much was added, so a busy
conversation is indexed in batches rather than per message. `memory index` reads everything.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING, Any

from ..markdown.parse import split_to_fit
from ..tokens import CHUNK_TOKENS, has_cjk
from ..workspace.transcripts import SessionFile
from .base import INDEX_WAIT
from .records import ReadDeltas, SessionDelta, SessionReport, SessionState
from .rows import path_words, session_embed_text, text_hash

if TYPE_CHECKING:
    from .ports import IndexWriter, SessionWriter

# OpenClaw's memorySearch defaults for session deltas: index a transcript once this much was added.
DELTA_BYTES = 100_000
DELTA_LINES = 50
_HASHED_BYTES = 4096  # the head and the tail of what was read: a replaced file no longer matches
MAX_READ = 8 * 1024 * 1024  # bytes read at a time: a huge transcript never sits in memory whole
_ROLES = ("user", "assistant")


# ------------------------------------------------------------------------------------------ parsing


@dataclass(frozen=True)
class Message:
    """A user or assistant message with text, at its 1-based JSONL line."""

    line: int
    role: str
    text: str
    at: datetime | None


def parse_line(raw: bytes, line: int) -> tuple[str, Any]:
    """One JSONL line -> ("message", Message) | ("session", header dict) | ("other", None) | ("malformed", None)."""
    try:
        obj = json.loads(raw)
    except UnicodeDecodeError:  # broken UTF-8 inside a message: keep its text with U+FFFD, as notes are read
        try:
            obj = json.loads(raw.decode("utf-8", errors="replace"))
        except ValueError:
            return "malformed", None
    except ValueError:
        return "malformed", None
    if not isinstance(obj, dict):
        return "malformed", None
    kind = obj.get("type")
    if kind == "session":
        return "session", obj
    if kind != "message":
        return "other", None
    message = obj.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("role"), str):
        return "malformed", None
    if message["role"] not in _ROLES:
        return "other", None  # toolResult, system, ...
    text = message_text(message.get("content"))
    if not text:
        return "other", None  # only thinking or tool calls
    return "message", Message(line, message["role"], text, parse_time(obj.get("timestamp"))
                              or parse_time(message.get("timestamp")))


def message_text(content: Any) -> str:
    """The text blocks of a message's content, joined; thinking, tool calls and images are skipped."""
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        return ""
    parts = [block["text"].strip() for block in content
             if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)]
    return "\n\n".join(p for p in parts if p)


def parse_time(value: Any) -> datetime | None:
    """An ISO timestamp ("2025-11-28T09:00:00.000Z") or epoch milliseconds/seconds, as an aware UTC time."""
    try:
        if isinstance(value, bool):
            return None
        if isinstance(value, int | float):
            seconds = value / 1000 if value > 1e11 else value
            return datetime.fromtimestamp(seconds, UTC)
        if isinstance(value, str) and value.strip():
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def iso_utc(at: datetime) -> str:
    """A message time as the recall JSON shows it: "2025-11-28T09:00:00Z"."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def message_rows(key: str, message: Message, at: datetime | None, tz: tzinfo) -> list[dict[str, Any]]:
    """The chunk rows of one message (several when it is longer than a chunk), without context yet."""
    text = f"{message.role}: {message.text}"
    day = at.astimezone(tz).date().isoformat() if at else None
    rows = []
    for _, _, _, piece in split_to_fit(text, CHUNK_TOKENS):
        rows.append({
            "path": key, "start_line": message.line, "end_line": message.line, "entry_start": message.line,
            "kind": "session",
            "heading": "", "text": piece, "role": "session", "day": day, "t_start": day, "t_end": day,
            "at": iso_utc(at) if at else None, "invalid_at": None, "text_hash": text_hash(session_embed_text(piece)),
            "ctx_hash": None, "context_text": "", "search_text": piece, "path_text": path_words(key),
            "cjk": has_cjk(piece),
        })
    return rows


def link_previous(row: dict[str, Any], previous_text: str | None) -> None:
    """Give a session entry the message before it as context: in the full-text index only (the FTS
    context column). Transcript messages get no context vector (rows.SESSION_EMBED_CHARS)."""
    if previous_text:
        row["context_text"] = previous_text


# ------------------------------------------------------------------------------------------ reading


def _digest(fh: Any, offset: int) -> str:
    """Hash of the first and last _HASHED_BYTES of the file's [0, offset)."""
    fh.seek(0)
    head = fh.read(min(offset, _HASHED_BYTES))
    fh.seek(max(0, offset - _HASHED_BYTES))
    tail = fh.read(min(offset, _HASHED_BYTES))
    return hashlib.sha256(head + b"\0" + tail).hexdigest()[:32]


def behind(sf: SessionFile, old: SessionState | None) -> tuple[int, os.stat_result] | None:
    """(bytes added since the last read, stat) of a transcript with news, else None. Stats only."""
    if sf.database:  # a session in OpenClaw's SQLite store
        from . import session_db

        return session_db.behind(sf, old)  # type: ignore[return-value]
    try:
        st = os.stat(sf.path, follow_symlinks=False)
    except OSError:
        return None
    if old is not None and (old.size, old.mtime_ns) == (st.st_size, st.st_mtime_ns):
        return None
    return (st.st_size - old.offset if old is not None else st.st_size), st


def read_delta(sf: SessionFile, old: SessionState | None, tz: tzinfo, *, min_bytes: int = 0,
               min_lines: int = 0) -> SessionDelta | None:
    """Read what was added to a transcript since `old` (or all of it), at most MAX_READ bytes at a
    time (call again for the rest); None when there is nothing to do.

    An addition under both thresholds gives a `pending` delta (the file's state stays as it was).
    """
    if sf.database:  # a session in OpenClaw's SQLite store: events, not bytes
        from . import session_db

        return session_db.read_delta(sf, old, tz, _parse_delta, min_lines=min_lines)
    news = behind(sf, old)
    if news is None:
        return None
    added, st = news
    try:
        with open(sf.path, "rb") as fh:  # read only: transcripts belong to OpenClaw
            whole = old is None or st.st_size < old.offset or _digest(fh, old.offset) != old.digest
            start = 0 if whole else old.offset
            fh.seek(start)
            data = fh.read(min(max(0, st.st_size - start), MAX_READ))
            complete, giant, read_to = data.rfind(b"\n") + 1, 0, start + len(data)
            if complete == 0 and len(data) == MAX_READ:  # one line longer than a step (an inlined image)
                end = _end_of_line(fh, read_to)
                complete, giant, data, read_to = (end - start, 1, b"", end) if end > 0 else (0, 0, data, read_to)
            if not whole and complete == 0:  # only a half-written line: remember the stat, read it later
                return SessionDelta(sf.key, replace(old, size=st.st_size, mtime_ns=st.st_mtime_ns))
            if not whole and added < min_bytes and data.count(b"\n", 0, complete) < min_lines:
                return SessionDelta(sf.key, None, pending=True)
            data = data[:complete]
            offset = start + complete
            digest = _digest(fh, offset)
    except OSError:
        return None
    base = SessionState(sf.key, os.fspath(sf.path)) if whole else old
    # Stopped before the end of the file: record the size read so far, so the file still looks behind.
    size = st.st_size if read_to >= st.st_size else offset
    delta = _parse_delta(sf.key, base, data, offset, digest, (size, st.st_mtime_ns), tz, whole, giant)
    delta.reread = whole and old is not None
    return delta


def _end_of_line(fh: Any, pos: int) -> int:
    """The offset just after the next newline at or after `pos`, or 0 when the line is not finished."""
    fh.seek(pos)
    while block := fh.read(1 << 20):
        at = block.find(b"\n")
        if at >= 0:
            return pos + at + 1
        pos += len(block)
    return 0


def _parse_delta(key: str, base: SessionState, data: bytes, offset: int, digest: str, stat: tuple[int, int],
                 tz: tzinfo, whole: bool, giant: int = 0) -> SessionDelta:
    counts = {"message": 0, "other": giant, "malformed": 0, "session": 0}
    first_malformed = base.first_malformed
    session_id, last_at = base.session_id, base.last_at
    fallback = datetime.fromisoformat(last_at.replace("Z", "+00:00")) if last_at else None
    chunks: list[dict[str, Any]] = []
    line = base.lines + giant  # a line too long to parse (an inlined image) counts as other
    for raw in data.split(b"\n")[:-1]:
        line += 1
        if not raw.strip():
            continue
        kind, value = parse_line(raw, line)
        counts[kind] += 1
        if kind == "malformed" and first_malformed is None:
            first_malformed = line
        elif kind == "session":
            session_id = str(value.get("id") or session_id or "") or None
            fallback = parse_time(value.get("timestamp")) or fallback
        elif kind == "message":
            if value.at is None and b'"timestamp"' in raw:  # stated but unreadable: counted, said in a notice
                counts["untimed"] = counts.get("untimed", 0) + 1
            at = value.at or fallback
            fallback = at or fallback
            previous = chunks[-1]["text"] if chunks else None
            for row in message_rows(key, value, at, tz):
                link_previous(row, previous)
                previous = row["text"]
                chunks.append(row)
    state = replace(base, size=stat[0], mtime_ns=stat[1], offset=offset, lines=line, digest=digest,
                    session_id=session_id, last_at=iso_utc(fallback) if fallback else None,
                    messages=base.messages + counts["message"], other=base.other + counts["other"],
                    malformed=base.malformed + counts["malformed"], first_malformed=first_malformed)
    return SessionDelta(key, state, chunks, whole=whole, counts=counts)


# ------------------------------------------------------------------------------------------ syncing

def deltas(files: Sequence[SessionFile], tz: tzinfo, *, min_bytes: int = 0, min_lines: int = 0,
           configured: bool = True, present: set[str] | None = None,
           ) -> Callable[[Mapping[str, SessionState]], Iterator[SessionDelta]]:
    """What `Store.apply_sessions` calls under its writer lock: the deltas of `files` from the stored
    states, read one file at a time (a 50 MB folder never sits in memory at once), then the removals
    of transcripts not `present` (default: `files`; every one when sessions are no longer `configured`)."""

    def read(states: Mapping[str, SessionState]) -> Iterator[SessionDelta]:
        for sf in files:
            old = states.get(sf.key)
            if old is not None and old.source != os.fspath(sf.path):
                old = None  # another file now has this name: read it whole
            while (delta := read_delta(sf, old, tz, min_bytes=min_bytes, min_lines=min_lines)) is not None:
                yield delta
                if delta.pending or not delta.counts:
                    break
                old = delta.state  # a big transcript: its next MAX_READ bytes
        keys = {sf.key for sf in files} if present is None else present
        for key in sorted(set(states) - keys):
            # A transcript deleted from its folder (or no longer configured) goes; one whose whole
            # folder is missing (an unmounted disk) stays until the folder is back.
            if os.path.isdir(os.path.dirname(states[key].source)) or not configured:
                yield SessionDelta(key, None, removed=True)

    return read


def outdated(files: Sequence[SessionFile], states: Mapping[str, SessionState]) -> int:
    """How many transcripts changed since they were read, or are gone (stats only; for a recall's notice)."""
    count = sum(1 for sf in files if behind(sf, states.get(sf.key)) is not None)
    return count + len(set(states) - {sf.key for sf in files})


def _due(sf: SessionFile, old: SessionState | None, min_bytes: int, min_lines: int) -> bool:
    """True when a changed transcript must be read now: new, replaced, or past a threshold."""
    news = behind(sf, old)
    if sf.database and news is not None:  # events: the line threshold counts them
        return old is None or news[0] >= min_lines or news[1].st_size < old.offset
    if news is None or old is None or news[0] >= min_bytes or news[1].st_size < old.offset:
        return news is not None
    try:
        with open(sf.path, "rb") as fh:
            fh.seek(old.offset)
            return fh.read(news[0]).count(b"\n") >= min_lines
    except OSError:
        return False


def sync_sessions(store: Any, files: Sequence[SessionFile], tz: tzinfo, *, min_bytes: int = 0,
                  min_lines: int = 0, wait: float | None = INDEX_WAIT, configured: bool = True) -> SessionReport:
    """Bring a store's session entries up to date with `files` (apply_sessions, through its writer).

    Stats first, without the store's lock: only transcripts that changed (and, with thresholds,
    passed one) are read under it; when none did and none is gone, the lock is never taken.
    """
    started = time.perf_counter()
    states = store.session_states()
    keys = {sf.key for sf in files}
    changed = [sf for sf in files if behind(sf, states.get(sf.key)) is not None]
    due = [sf for sf in changed if _due(sf, states.get(sf.key), min_bytes, min_lines)] if (
        min_bytes or min_lines) else changed
    if not due and not set(states) - keys:
        return SessionReport(files=len(files), pending=len(changed), seconds=time.perf_counter() - started)
    read = deltas(due, tz, configured=configured, present=keys)
    report = apply_sessions(store.writer(), read, wait=wait)
    report.files, report.pending = len(files), report.pending + len(changed) - len(due)
    report.seconds = time.perf_counter() - started
    return report


# ------------------------------------------------------------------------------------------ applying


def apply_sessions(writer: IndexWriter, read: ReadDeltas, *, wait: float | None) -> SessionReport:
    """Every store alike: take the writer's lock, read the deltas from the stored
    states and apply them, one transcript per transaction (readers see a transcript's new messages
    all at once and never wait), then bump the generation when entries changed."""
    report = SessionReport()
    with writer.lock(wait) as held:
        if not held:
            report.busy = True
            return report
        for delta in read(writer.session_states()):
            if delta.pending:
                report.pending += 1
                continue
            with writer.transaction():
                apply_delta(writer, delta, report)
        if report.dirty:
            with writer.transaction():
                writer.bump_generation(None)
    return report


def apply_delta(writer: SessionWriter, delta: SessionDelta, report: SessionReport) -> None:
    """Apply one transcript's delta: forget it when it is gone or read again whole, insert the new
    messages (the first one's context is the last message read before, when ids stay consecutive),
    store how far it was read, and count what was read into `report`."""
    old_offset = 0
    if delta.removed or delta.whole:
        report.removed_chunk_ids += writer.forget(delta.key)
    else:
        old_offset = writer.read_to(delta.key)
    if delta.removed:
        report.removed += 1
        return
    state = delta.state
    assert state is not None
    if delta.chunks:
        if not delta.whole:
            last = writer.last_entry(delta.key)
            if last is not None and last[0] + 1 == writer.next_id():
                link_previous(delta.chunks[0], last[1])
        report.new_chunk_ids += writer.insert(delta.chunks)
    report.count_read(delta, state.offset - old_offset)
    writer.save(state)


# ------------------------------------------------------------------------------------------ purging


def rewrite_sessions(writer: IndexWriter, pattern: str, replacement: str) -> int:
    """`memory forget --purge` on the session entries (their transcripts are not ours to rewrite):
    replace `pattern` in the entries that hold it, then refresh the search rows (words, context)
    of each rewritten entry and of the entry after it, which has it as context.
    Inside the caller's transaction; returns the entries rewritten. Their old vectors are the
    store's to drop (a store drops the vectors of the entries whose search rows changed)."""
    hits = writer.session_hits(pattern)
    for cid, text in hits:
        new = text.replace(pattern, replacement)
        writer.set_session_text(cid, new, text_hash(session_embed_text(new)))
    for cid in sorted({i for hit, _ in hits for i in (hit, hit + 1)}):
        entry = writer.session_entry(cid)
        if entry is None:
            continue  # the next entry is not a session entry (or there is none)
        text, path, _, previous = entry
        context = previous or ""  # the message before it in the same transcript, as when it was read
        words = {"search_text": text, "path_text": path_words(path), "context_text": context}
        writer.set_search_rows(cid, words, None)
    return len(hits)
