"""Pure translation of a parsed document into index rows (no I/O, easy to test)."""

from __future__ import annotations

import functools
import json
import re
from datetime import date
from typing import TYPE_CHECKING, Any

from ..tokens import has_cjk
from .base import entry_time

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..files import DecodedText
    from ..markdown.parse import Chunk

_PATH_WORDS_RE = re.compile(r"[/\\._-]+")


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module (for path_words).
class DocumentRows:
    """One file's rows: its `files` row, its chunks (chunk row, fact row or None, mentioned slugs)
    and its warnings (line, message)."""

    __slots__ = ("file", "chunks", "warnings")

    def __init__(self, file: dict[str, Any],
                 chunks: list[tuple[dict[str, Any], dict[str, Any] | None, tuple[str, ...]]] | None = None,
                 warnings: list[tuple[int, str]] | None = None) -> None:
        self.file = file
        # A list, or (document_rows) a ChunkRows that makes the rows a part at a time.
        self.chunks: Any = [] if chunks is None else chunks
        self.warnings: list[tuple[int, str]] = [] if warnings is None else warnings


@functools.lru_cache(maxsize=4096)  # recall asks for the same files' words for every candidate
def path_words(key: str) -> str:
    """'bank/entities/warelay.md' -> 'bank entities warelay': lets a file name in a query find the file."""
    stem = key[:-3] if key.lower().endswith(".md") else key
    return " ".join(w for w in _PATH_WORDS_RE.split(stem) if w)


def text_hash(text: str) -> str:
    """Content hash of a chunk's embedded text (the embedding cache key)."""
    import hashlib  # lazy: only indexing hashes texts

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


# How entries become embedded texts; part of the settings fingerprint.
# Each entry gets two vectors: the entry alone, and the entry after the previous entry of
# the same section ("context"); recall takes the better of the two cosines. Headings are
# not embedded (measured: see docs/benchmarks.md, "What moved it"): a short reply ("Yes, twice!")
# means little without the line before it, and a date heading makes every entry of a day
# look alike.
EMBED_SCHEME = "entry+previous-entry/v2"  # v2: no context for Retain facts


def embed_text(chunk_text: str) -> str:
    """What the embedding model sees for an entry on its own."""
    return chunk_text


def context_text(previous_text: str, chunk_text: str) -> str:
    """The entry preceded by the entry before it in the same section."""
    return f"{previous_text}\n{chunk_text}"


# Transcript messages (index/sessions.py) are embedded differently (issue 27): one vector each, of
# the message's first SESSION_EMBED_CHARS characters, and no context vector. A 100,000-line
# transcript sent 16.5 million tokens to the model with two vectors a message (the context texts,
# two messages long, were two thirds of them); one vector of at most 300 characters sends about a
# quarter of that. On benchmarks/session_recall.py the context vector and the characters after the
# 300th changed no hit at 5 or 10 (a fact buried in a long answer was not found by its vector
# either way): docs/benchmarks.md, "Transcript vectors". The full-text index keeps every word
# and the message before as context. The hash of this text is the row's text_hash.
SESSION_EMBED_CHARS = 300


def session_embed_text(text: str) -> str:
    """What the embedding model sees for a transcript message (a piece of one)."""
    return text[:SESSION_EMBED_CHARS]


# A line longer than this is indexed only up to it: prose has no 2 MB lines, and a 50 MB line of
# minified data or base64 would otherwise cost minutes of indexing for text nobody searches.
MAX_LINE_CHARS = 2_000_000


def file_rows(key: str, role: str, day: date | None, head: bytes, size: int,
              date_order: str | None = None, languages: tuple[str, ...] = ()) -> DocumentRows:
    """The rows of one file from its (first MAX_INDEXED_BYTES) bytes: binary files are skipped,
    overlong lines and files are cut, each with a warning at path:line. `date_order` and
    `languages`: see document_rows."""
    from ..files import MAX_INDEXED_BYTES, decode_markdown, looks_binary  # lazy: a recall reads no file

    if looks_binary(head):
        # Recorded (so the next sync does not read it again) but not indexed.
        return DocumentRows(file={"path": key, "role": role, "day": day.isoformat() if day else None,
                                  "title": None, "meta": "{}"},
                            warnings=[(1, "not a text file (binary data); skipped")])
    decoded = decode_markdown(head)
    if size > len(head):
        if size > MAX_INDEXED_BYTES and "\n" in decoded.text:
            decoded.text = decoded.text[: decoded.text.rindex("\n") + 1]  # never index half a line
        decoded.problems.append((decoded.text.count("\n") + 1, f"file is {size:,} bytes; only the first "
                                 f"{MAX_INDEXED_BYTES:,} are indexed"))
    decoded.text = _cap_lines(decoded)
    return document_rows(key, role, day, decoded, date_order, languages)


def _cap_lines(decoded: DecodedText) -> str:
    """The text with every line cut to MAX_LINE_CHARS (a warning for each cut line)."""
    if len(decoded.text) <= MAX_LINE_CHARS:
        return decoded.text
    lines = decoded.text.split("\n")
    for n, line in enumerate(lines):
        if len(line) > MAX_LINE_CHARS:
            decoded.problems.append((n + 1, f"line is {len(line):,} characters; only the first "
                                     f"{MAX_LINE_CHARS:,} are indexed"))
            lines[n] = line[:MAX_LINE_CHARS]
    return "\n".join(lines)


def document_rows(key: str, role: str, day: date | None, decoded: DecodedText,
                  date_order: str | None = None, languages: tuple[str, ...] = ()) -> DocumentRows:
    """Parse one file's text and build its files/chunks/facts/mentions/warnings rows.

    `date_order` ("DMY" | "MDY", the workspace's `[time]` setting) reads slashed dates in facts,
    and `languages` (its explicit `[time] languages`) the other languages a fact states a time in.
    """
    from ..markdown.parse import parse_markdown  # lazy: a recall whose files are unchanged never parses

    parsed = parse_markdown(decoded.text, day, date_order, languages)
    if role in ("core", "bank"):  # what `memory init` writes from its templates
        from ..workspace.init_templates import template_boilerplate

        boilerplate = template_boilerplate()
        parsed.chunks = [c for c in parsed.chunks if " ".join(c.text.split()) not in boilerplate]
    day_s = day.isoformat() if day else None
    meta = {k: v for k, v in parsed.meta.items() if _jsonable(v)}
    problems = decoded.problems + parsed.warnings
    if key == "bank/opinions.md":  # a hand-written confidence outside [0, 1] (markdown.confidence)
        from ..markdown.confidence import page_warnings

        problems += page_warnings(decoded.text)
    rows = DocumentRows(
        file={"path": key, "role": role, "day": day_s, "title": parsed.title, "meta": json.dumps(meta, default=str),
              "languages": language_counts(c.text for c in parsed.chunks)},
        warnings=sorted(problems),
    )
    rows.chunks = ChunkRows(key, role, day_s, parsed.chunks, len(decoded.text) > WINDOW_FILE_CHARS,
                            (day, date_order, languages))
    return rows


def language_counts(texts: Iterable[str]) -> str:
    """How many of `texts` (a file's entries) each language is written in (lang.identify.line_language),
    as JSON ({"de": 3, "en": 5}): summed over the files, the languages a workspace's notes are written
    in, which recall reads a question with as if configured (lang.identify.workspace_languages)."""
    from ..lang.identify import line_language  # lazy: only indexing measures

    counts: dict[str, int] = {}
    for text in texts:
        code = line_language(text)
        if code is not None:
            counts[code] = counts.get(code, 0) + 1
    return json.dumps(counts, sort_keys=True)


Row = tuple[dict[str, Any], dict[str, Any] | None, tuple[str, ...]]
PART_ROWS = 4_096  # rows made and written at a time: a file's rows are never all in memory at once


class ChunkRows:
    """A file's chunk rows, made from its parsed chunks a part at a time (`parts`), never all at once:
    the rows of a 20 MB note (dicts with their search texts and hashes) took about 300 MB as one list.

    Iterating gives the rows one by one (each pass makes them again); `len` is their number.
    """

    __slots__ = ("key", "role", "day_s", "chunks", "windows", "time")

    def __init__(self, key: str, role: str, day_s: str | None, chunks: list[Chunk], windows: bool,
                 time: tuple[date | None, str | None, tuple[str, ...]] = (None, None, ())) -> None:
        self.key, self.role, self.day_s, self.chunks, self.windows = key, role, day_s, chunks, windows
        self.time = time  # (the day written, [time] date_order, [time] languages): the days a line names

    def __len__(self) -> int:
        return len(self.chunks)

    def __iter__(self):  # Iterator[Row]
        for part in self.parts():
            yield from part

    def mentioned(self) -> set[str]:
        """The lower-cased slugs the chunks mention (without making their rows)."""
        return {slug.lower() for chunk in self.chunks for slug in chunk.entities}

    def parts(self, size: int = PART_ROWS):  # Iterator[list[Row]]
        """The rows in lists of up to `size`, in file order (with vector windows, within a part)."""
        pwords = path_words(self.key)
        previous: Chunk | None = None
        for start in range(0, len(self.chunks), size):
            part: list[Row] = []
            for chunk in self.chunks[start : start + size]:
                chunk_row, fact_row, mentions = _chunk_rows(self.key, self.role, self.day_s, pwords, chunk)
                chunk_row["named"] = named_days(chunk.text, chunk_row, *self.time)
                # Retain facts are self-contained by design: the bullet before a fact is another fact,
                # not its context. Narrative entries (conversation turns, log bullets) get context.
                same_section = (previous is not None and previous.heading == chunk.heading
                                and chunk.kind == "note" and previous.kind == "note")
                chunk_row["ctx_hash"] = text_hash(context_text(previous.text, chunk.text)) if same_section else None
                chunk_row["context_text"] = previous.text if same_section else ""
                part.append((chunk_row, fact_row, mentions))
                previous = chunk
            if self.windows:
                share_vectors(part)
            yield part


def row_parts(chunks: ChunkRows | list[Row]):  # Iterator[list[Row]]
    """A document's rows a part at a time (a plain list is one part)."""
    if isinstance(chunks, ChunkRows):
        yield from chunks.parts()
    elif chunks:
        yield chunks


def mentioned(chunks: ChunkRows | list[Row]) -> set[str]:
    """The lower-cased slugs a document's rows mention."""
    if isinstance(chunks, ChunkRows):
        return chunks.mentioned()
    return {slug.lower() for _, _, mentions in chunks for slug in mentions}


# Vector windows (issue 27). A huge file of short bullets (a pasted log, a 50 MB note) costs two
# vectors an entry, and the encoder's work grows with the tokens it reads: the entry alone plus the
# entry after the previous one read every token three times. In a file longer than
# WINDOW_FILE_CHARS, consecutive short note entries of one section share one vector: the texts of
# up to WINDOW_ENTRIES of them joined by newlines, embedded once (each token read once), and no
# context vector. Every entry keeps its own row, lines, FTS row and context words, so lexical
# search and citations (path#Lline) are as before; a vector hit on a window counts for each of
# its entries (the lexical score then picks the line). Files under the threshold (every daily log
# of LoCoMo, the project's own sets) are untouched: see docs/benchmarks.md "Vector windows".
WINDOW_FILE_CHARS = 1_000_000  # a file's indexed text longer than this gets windows
WINDOW_ENTRY_CHARS = 300  # an entry longer than this keeps its own two vectors
WINDOW_ENTRIES = 8  # entries a window holds at most
WINDOW_CHARS = 1_200  # the joined text of a window at most


def window_text(texts: list[str]) -> str:
    """What the embedding model sees for a window of entries: their texts, a line each."""
    return "\n".join(texts)


def share_vectors(chunks: list[tuple[dict[str, Any], dict[str, Any] | None, tuple[str, ...]]]) -> None:
    """Give runs of short note entries of one section one shared vector (see WINDOW_FILE_CHARS).

    The entries of a window get the same `text_hash`, the hash of window_text(their texts), and no
    `ctx_hash`: a hash shared by consecutive entries of a file names their window
    (index.embedding.texts_to_embed joins them back; the vector store keeps the first's label).
    """
    window: list[dict[str, Any]] = []

    def close() -> None:
        if len(window) > 1:
            digest = text_hash(window_text([row["text"] for row in window]))
            for row in window:
                row["text_hash"], row["ctx_hash"] = digest, None
        window.clear()

    size = 0
    for row, fact, _ in chunks:
        fits = (fact is None and row["kind"] == "note" and len(row["text"]) <= WINDOW_ENTRY_CHARS
                and row["entry_start"] == row["start_line"])
        if window and (not fits or row["heading"] != window[0]["heading"] or len(window) >= WINDOW_ENTRIES
                       or size + len(row["text"]) + 1 > WINDOW_CHARS):
            close()
            size = 0
        if fits:
            window.append(row)
            size += len(row["text"]) + 1
    close()


def _chunk_rows(key: str, role: str, day_s: str | None, pwords: str, chunk: Chunk):
    t_start = t_end = day_s
    fact_row = None
    if chunk.fact is not None:
        fact = chunk.fact
        occurred = fact.occurred
        if occurred is not None:
            t_start, t_end = entry_time(day_s, occurred.start.isoformat() if occurred.start else None,
                                        occurred.end.isoformat() if occurred.end else None)
        fact_row = {
            "path": key, "line": chunk.start_line, "kind": fact.kind, "content": fact.content,
            "confidence": fact.confidence, "day": day_s,
            "occurred_start": occurred.start.isoformat() if occurred and occurred.start else None,
            "occurred_end": occurred.end.isoformat() if occurred and occurred.end else None,
            "end_line": chunk.fact_end_line or chunk.end_line, "bullet": fact.bullet,
            "invalid_at": fact.invalid_at, "invalid_reason": fact.invalid_reason,
        }
    chunk_row = {
        "path": key, "start_line": chunk.start_line, "end_line": chunk.end_line, "entry_start": chunk.entry_start,
        "kind": chunk.kind,
        "heading": chunk.heading, "text": chunk.text, "role": role, "day": day_s,
        "t_start": t_start, "t_end": t_end, "invalid_at": chunk.invalid_at, "at": None,
        "text_hash": text_hash(embed_text(chunk.text)),
        "search_text": f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text,
        "path_text": pwords, "cjk": has_cjk(chunk.text),
    }
    return chunk_row, fact_row, chunk.entities


def named_days(text: str, row: dict[str, Any], written: date | None, date_order: str | None,
               languages: tuple[str, ...]) -> list[tuple[str, str]]:
    """The days a line names besides its own (dates.languages.named_in): "Dec 4 is the API deep-dive" written on
    Nov 10 names Dec 4. A time of the entry, stored beside it (the `chunk_days` rows); a recall about a
    day finds the lines written on it and the lines that name it."""
    if written is None or row["kind"] == "session":
        return []
    from ..dates.languages import named_in  # lazy: only indexing reads the days a line names

    own = (row["t_start"], row["t_end"])
    out: list[tuple[str, str]] = []
    for days in named_in(text, written, date_order, languages):
        pair = (days.start.isoformat(), days.end.isoformat())  # type: ignore[union-attr]
        if pair != own and pair not in out:
            out.append(pair)
    return out


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value, default=str)
    except (TypeError, ValueError):
        return False
    return True


def key_scope(keys: set[str] | None, condition: str) -> tuple[str, tuple[str, ...]]:
    """SQL to restrict a query to some entity keys: (" AND " + condition, params), or ("", ()) for all.

    `condition` holds one `{}` where the placeholders go, e.g. "entity_key IN ({})".
    """
    if keys is None:
        return "", ()
    ordered = tuple(sorted(keys))
    return " AND " + condition.format(",".join("?" * len(ordered))), ordered
