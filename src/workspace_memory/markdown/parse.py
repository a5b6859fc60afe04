"""Markdown -> entries: heading-aware chunks with exact line ranges, and Retain facts.

The unit of recall is an *entry* (DESIGN §3): a list item, a paragraph, a table, a
code block. Each becomes one chunk with the 1-based, inclusive line range it has in
the file on disk (frontmatter included), and the heading path above it as context.
Inside a `## Retain` section every bullet is its own chunk, parsed as a fact; a
chunk never straddles two bullets. Entries longer than CHUNK_TOKENS are split at line
boundaries (and a single huge line into pieces) so the embedding model sees all of
every chunk.

Parsing is pure: text in, ParsedDocument out; it never raises on bad input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any

from ..tokens import CHUNK_TOKENS, estimate_tokens
from .frontmatter import split_frontmatter
from .retain import RetainFact, find_entities, parse_retain_bullet

# A heading of this many words or more is a statement ("## Peter: Prefers concise replies"),
# not a label ("## Notes"); a short section under it is one chunk (see _Walker._close_section).
STATEMENT_WORDS = 4
SHORT_SECTION_TOKENS = 100

_RETAIN_HEADING_RE = re.compile(r"^\s*retain\s*:?\s*$", re.IGNORECASE)
# Regions that `memory reflect` generates (entity pages, bank/world.md, evidence lists)
# repeat facts that are indexed where they were written; indexing the copies would
# return every fact twice. Text a person wrote outside the regions is indexed as usual.
_REGION_BEGIN_RE = re.compile(r"^\s*<!--\s*reflect:begin\b.*-->\s*$")
_REGION_END_RE = re.compile(r"^\s*<!--\s*reflect:end\b.*-->\s*$")
# reflect's one-line markers ("<!-- reflect:opinion sam-rust -->" under an opinion's heading) are
# its bookkeeping, not memory: blanked like the regions, so no result shows them.
_OPINION_MARKER_RE = re.compile(r"^\s*<!--\s*reflect:opinion\b.*-->\s*$")
_MARKER_RE = re.compile(r"^\s*<!--\s*reflect:[\w-]+\b.*-->\s*$")
_WORD_RE = re.compile(r"\w+")
_COMMENT_ONLY_RE = re.compile(r"^\s*(<!--.*?-->\s*)+$", re.DOTALL)
# Block tokens that open an entry at the top level of the document.
_ENTRY_OPENERS = {"paragraph_open", "blockquote_open", "fence", "code_block", "table_open", "html_block"}
_LIST_OPENERS = {"bullet_list_open", "ordered_list_open"}


@dataclass
class Chunk:
    """One entry of a file (or a piece of a long one)."""

    start_line: int  # 1-based, inclusive, as on disk
    end_line: int
    text: str  # the source lines (or piece) exactly as written
    heading: str  # "Title > Section": context for search, not returned
    kind: str = "note"  # note | world | experience | opinion | observation
    fact: RetainFact | None = None
    entities: tuple[str, ...] = ()
    fact_end_line: int | None = None  # a fact's first piece: the last line of its whole bullet
    invalid_at: str | None = None  # every piece of a struck (invalid) fact: the day it stopped being true
    # The first line of the entry this chunk is a piece of (its own start_line when the entry was
    # not split): the pieces of one long entry share it, and recall returns one result per entry.
    entry_start: int = 0

    def __post_init__(self) -> None:
        self.entry_start = self.entry_start or self.start_line


@dataclass
class ParsedDocument:
    """Everything the indexer needs from one file."""

    chunks: list[Chunk] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)  # (1-based line, message)
    meta: dict[str, Any] = field(default_factory=dict)  # frontmatter
    title: str | None = None


@lru_cache(maxsize=1)
def _markdown_parser():  # markdown_it is imported lazily on purpose
    from markdown_it import MarkdownIt

    # Only the block structure is needed: inline tokens keep their source text in
    # `.content`, so the (costly) inline rule chain is switched off.
    return MarkdownIt("commonmark", {"html": True}).enable("table").disable("inline")


def normalize_newlines(text: str) -> str:
    """CRLF -> LF; a lone CR (not a line break for us) becomes a space so line numbers stay true."""
    return text.replace("\r\n", "\n").replace("\r", " ")


def parse_markdown(text: str, day: date | None = None, date_order: str | None = None,
                   languages: tuple[str, ...] = ()) -> ParsedDocument:
    """Split a Markdown document into chunks and Retain facts.

    `day` is the day a daily log is about (from its file name); facts use it to resolve
    relative time phrases such as "last Tuesday", `date_order` ("DMY" | "MDY") to read
    slashed dates (dates.parse.resolve_stated_range), and `languages` the other languages a fact
    may state its time in (markdown.retain.stated_range).
    """
    text = normalize_newlines(text)
    lines = text.split("\n")
    doc = ParsedDocument()
    front = split_frontmatter(lines)
    doc.meta = front.meta
    doc.warnings.extend(front.warnings)
    # Blank the frontmatter lines instead of cutting them, so token line maps are file lines.
    body_lines = [""] * front.line_count + lines[front.line_count:]
    blank_generated_regions(body_lines)
    walker = _Walker(body_lines, day, doc, date_order, languages)
    for start, end in pieces(body_lines):
        tokens = _markdown_parser().parse("\n".join(body_lines[start:end]))
        if start:
            for tok in tokens:  # line maps of the piece -> lines of the file
                if tok.map:
                    tok.map = [tok.map[0] + start, tok.map[1] + start]
        walker.walk(tokens)
        del tokens
    doc.title = str(front.meta.get("title") or front.meta.get("name") or walker.first_h1 or "") or None
    return doc


# A long document is parsed a piece at a time: markdown-it's tokens take about 30 times the text's
# size, so a 20 MB note held 600 MB of them at once. Pieces end before a top-level heading (after a
# blank line, outside code fences), where the walker closes its section anyway, so the chunks are
# the same as from one parse; a document shorter than this is one piece.
PIECE_CHARS = 1_000_000
_FENCE_RE = re.compile(r"^ {0,3}(```|~~~)")
_HEADING_START_RE = re.compile(r"^#{1,6}(\s|$)")


def pieces(lines: list[str], size: int | None = None) -> list[tuple[int, int]]:
    """(first line, end line) of the pieces of `lines` to parse one at a time (see PIECE_CHARS)."""
    size = PIECE_CHARS if size is None else size
    out: list[tuple[int, int]] = []
    start, chars, fence = 0, 0, None
    for n, line in enumerate(lines):
        fenced = _FENCE_RE.match(line)
        if fenced:
            fence = None if fence == fenced[1] else (fence or fenced[1])
        elif (chars >= size and fence is None and n > start and not lines[n - 1].strip()
              and _HEADING_START_RE.match(line)):
            out.append((start, n))
            start, chars = n, 0
        chars += len(line) + 1
    out.append((start, len(lines)))
    return out


def blank_generated_regions(lines: list[str]) -> None:
    """Blank, in place, what reflect generates: its regions (markers included), its one-line markers,
    and the opinion sections it writes in bank/opinions.md.

    An opinion section ("## Sam: Rust is overhyped." with `<!-- reflect:opinion KEY -->` under it,
    its fields and its evidence) restates a fact that is indexed where it was written, with
    reflect's bookkeeping: indexed, it returned the statement twice and could outrank the fact
    (`memory opinions` shows the sections). An opinion a person writes without the marker is indexed.
    """
    inside = False
    for idx, line in enumerate(lines):
        if not inside and _REGION_BEGIN_RE.match(line):
            inside = True
        if not inside and "reflect:" in line and _MARKER_RE.match(line):
            if _OPINION_MARKER_RE.match(line):
                _blank_section(lines, idx)
            lines[idx] = ""
        if inside:
            lines[idx] = ""
            if _REGION_END_RE.match(line):
                inside = False


def _blank_section(lines: list[str], marker: int) -> None:
    """Blank the heading above line `marker` (blank lines between allowed) and the section below it."""
    above = marker - 1
    while above >= 0 and not lines[above].strip():
        above -= 1
    if above < 0 or not lines[above].lstrip().startswith("#"):
        return  # a marker with no heading above it: not a section reflect wrote
    lines[above] = ""
    below = marker + 1
    while below < len(lines) and not lines[below].lstrip().startswith("#"):
        if not _REGION_BEGIN_RE.match(lines[below]):  # a region's own loop blanks it, end marker included
            lines[below] = ""
            below += 1
            continue
        break


class _Walker:
    """Walks markdown-it's token stream, keeping the heading path, emitting chunks."""

    def __init__(self, lines: list[str], day: date | None, doc: ParsedDocument, date_order: str | None,
                 languages: tuple[str, ...] = ()) -> None:
        self.lines = lines
        self.day = day
        self.date_order = date_order
        self.languages = languages  # `[time] languages`: what else a fact may state its time in
        self.doc = doc
        self.headings: list[tuple[int, str, bool]] = []  # (level, text, is_retain)
        self.first_h1: str | None = None
        # A heading that is a statement and the chunks emitted under it: (heading line, first chunk).
        self.statement: tuple[int, int] | None = None

    @property
    def heading_path(self) -> str:
        return " > ".join(text for _, text, _ in self.headings)

    @property
    def in_retain(self) -> bool:
        return any(is_retain for _, _, is_retain in self.headings)

    def walk(self, tokens: list) -> None:
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.level != 0 or tok.map is None:
                i += 1
                continue
            if tok.type == "heading_open":
                self._close_section()
                self._heading(int(tok.tag[1:]), tokens[i + 1].content if i + 1 < len(tokens) else "")
                if self._is_statement(self.headings[-1]):
                    self.statement = (tok.map[0], len(self.doc.chunks))
            elif tok.type in _LIST_OPENERS:
                end = _matching_close(tokens, i)
                self._list(tokens[i + 1 : end])
                i = end
            elif tok.type in _ENTRY_OPENERS:
                self._entry(tok.map[0], tok.map[1])
            i += 1
        self._close_section()

    @staticmethod
    def _is_statement(heading: tuple[int, str, bool]) -> bool:
        return not heading[2] and len(_WORD_RE.findall(heading[1])) >= STATEMENT_WORDS

    def _close_section(self) -> None:
        """Merge a short section under a statement heading into one chunk, heading included.

        "## Peter: Prefers concise replies" followed by `- confidence: 0.84` is one entry:
        the fields mean nothing without the statement above them.
        """
        if self.statement is None:
            return
        heading_line, first = self.statement
        self.statement = None
        under = self.doc.chunks[first:]
        if any(c.kind != "note" for c in under):
            return
        end = max((c.end_line for c in under), default=heading_line + 1)
        text = "\n".join(self.lines[heading_line:end]).rstrip()  # exactly the lines it claims
        if estimate_tokens(text) > SHORT_SECTION_TOKENS:
            return
        entities = tuple(dict.fromkeys(e for c in under for e in c.entities)) or find_entities(text)
        heading = " > ".join(t for _, t, _ in self.headings[:-1]) if self.headings else ""
        self.doc.chunks[first:] = [Chunk(heading_line + 1, end, text, heading, entities=entities)]

    def _heading(self, level: int, text: str) -> None:
        text = text.strip()
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, text, bool(_RETAIN_HEADING_RE.match(text))))
        if level == 1 and self.first_h1 is None:
            self.first_h1 = text

    def _list(self, inner: list) -> None:
        if self.in_retain:
            self._retain_list(inner)
            return
        for tok in inner:
            if tok.type == "list_item_open" and tok.level == 1 and tok.map:
                self._entry(tok.map[0], tok.map[1])

    def _retain_list(self, inner: list) -> None:
        """Every list item's first paragraph is a fact; nested items are facts of their own.

        Other blocks of an item (a second paragraph, a code block, an item that starts with
        one) are indexed as notes, so nothing written under ## Retain is left unsearchable.
        """
        for idx, tok in enumerate(inner):
            if tok.type != "list_item_open":
                continue
            first = True
            for j in range(idx + 1, _matching_close(inner, idx)):
                child = inner[j]
                if child.level != tok.level + 1 or child.nesting == -1 or not child.map:
                    continue  # only the item's own blocks; nested items come round as items
                if (first and child.type == "paragraph_open" and j + 1 < len(inner)
                        and inner[j + 1].type == "inline"):
                    start, end = child.map
                    self._fact(start, end, " ".join(inner[j + 1].content.split("\n")).strip())
                elif child.type in _ENTRY_OPENERS:
                    self._entry(child.map[0], child.map[1])
                first = False

    def _fact(self, start: int, end: int, bullet: str) -> None:
        line = start + 1
        parsed = parse_retain_bullet(bullet, self.day, self.date_order, self.languages)
        for message in parsed.warnings:
            self.doc.warnings.append((line, message))
        raw = "\n".join(self.lines[start:end]).rstrip()
        if parsed.fact is None:
            self._add_pieces(start, raw)
            return
        fact = parsed.fact
        # A long bullet is split like any entry so every chunk fits the model; the first piece
        # carries the fact (one facts row), the others keep its kind and entities.
        for n, (_, first, last, piece) in enumerate(split_to_fit(raw, CHUNK_TOKENS)):
            self.doc.chunks.append(Chunk(line + first, line + last, piece, self.heading_path, fact.kind,
                                         fact if n == 0 else None, fact.entities,
                                         fact_end_line=line + raw.count("\n") if n == 0 else None,
                                         invalid_at=fact.invalid_at, entry_start=line))

    def _entry(self, start: int, end: int) -> None:
        block = self.lines[start:end]
        while block and not block[-1].strip():
            block.pop()
        raw = "\n".join(block)
        if not raw.strip() or _COMMENT_ONLY_RE.match(raw):
            return  # blank, or only HTML comments (reflect's region markers)
        self._add_pieces(start, raw)

    def _add_pieces(self, start: int, raw: str) -> None:
        for offset, first, last, piece in split_to_fit(raw, CHUNK_TOKENS):
            del offset
            self.doc.chunks.append(
                Chunk(start + first + 1, start + last + 1, piece, self.heading_path, entities=find_entities(piece),
                      entry_start=start + 1)
            )


def _matching_close(tokens: list, open_index: int) -> int:
    """Index of the token that closes the block opened at `open_index` (same level, nesting 0)."""
    depth = 0
    level = tokens[open_index].level
    for j in range(open_index, len(tokens)):
        tok = tokens[j]
        if tok.level != level:
            continue
        depth += tok.nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def split_to_fit(raw: str, limit: int) -> list[tuple[int, int, int, str]]:
    """Split text into pieces of at most `limit` estimated tokens.

    Returns (piece index, first line, last line, text) with 0-based line offsets into
    `raw`. Whole lines are kept together where possible; a single line that is too long
    is cut into character windows that all carry that line's number.
    """
    if estimate_tokens(raw) <= limit:
        return [(0, 0, raw.count("\n"), raw)]
    pieces: list[tuple[int, int, int, str]] = []
    buf: list[str] = []
    buf_start = 0
    buf_tokens = 0

    def flush(last_line: int) -> None:
        nonlocal buf, buf_tokens
        if buf and "".join(buf).strip():
            pieces.append((len(pieces), buf_start, last_line, "\n".join(buf)))
        buf, buf_tokens = [], 0

    for n, line in enumerate(raw.split("\n")):
        cost = estimate_tokens(line) + 1
        if cost > limit:
            flush(n - 1)
            for window in _char_windows(line, limit):
                if window.strip():
                    pieces.append((len(pieces), n, n, window))
            buf_start = n + 1
            continue
        if buf and buf_tokens + cost > limit:
            flush(n - 1)
        if not buf:
            buf_start = n
        buf.append(line)
        buf_tokens += cost
    flush(raw.count("\n"))
    return pieces


def _char_windows(line: str, limit: int) -> list[str]:
    """Cut one overlong line into pieces under the limit, preferring to cut at spaces.

    Walks an offset through the line (slicing off the rest each time would copy a 50 MB line
    thousands of times).
    """
    out = []
    pos, end = 0, len(line)
    while pos < end:
        # Start from a window that is surely small enough for any script, then grow it.
        size = max(1, limit)
        while pos + size < end and estimate_tokens(line[pos : pos + size * 2]) <= limit:
            size *= 2
        while size > 1 and estimate_tokens(line[pos : pos + size]) > limit:
            size = size * 3 // 4
        cut = line.rfind(" ", pos + size // 2, pos + size) if pos + size < end else -1
        cut = cut if cut > pos else min(pos + size, end)
        out.append(line[pos:cut])
        pos = cut
        while pos < end and line[pos] == " ":
            pos += 1
    return out
