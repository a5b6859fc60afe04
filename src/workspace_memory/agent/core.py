"""Core memory blocks: the `##` sections of MEMORY.md, Letta style (pure functions, no I/O).

A block is a level-2 heading and the lines under it, up to the next heading of level 1 or 2
(outside fenced code). Its **label** is the heading text; its **value** is its lines without
annotation lines, blank lines trimmed at both ends; `chars_current` is the length of the value.
Text above the first `##` (the `# Title`) belongs to no block.

Annotations are HTML comments on a line of their own (or on the heading line):
`<!-- limit: N -->` sets the block's character limit, `<!-- trigger: a, b -->` gives trigger
phrases (agent/triggers.py). They are not part of the value, and edits never change them.

A block's limit is, first found: memory.toml `[core] limits = { Label = N }`, the block's
`<!-- limit: N -->`, `[core] limit = N`, DEFAULT_LIMIT. Read-only blocks are listed in
`[core] read_only = ["Persona"]`; only the config can say so, never the file an agent edits.

Every edit takes the file's text ("\\n" newlines, no BOM) and returns an `EditResult` with the
new text and a minimal line diff, or raises `CoreEditError` with a one-line reason; nothing is
half-applied. An edit that would leave a block over its limit is refused, unless it shrinks a
block that was already over (so an agent can repair one).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import CoreEditError, UserError
from ..markdown.frontmatter import split_frontmatter
from ..workspace.retain_writer import headings

DEFAULT_LIMIT = 2000  # characters per block (Letta's classic per-block default)
MAX_LABEL_CHARS = 80
LIMIT_RE = re.compile(r"<!--\s*limit\s*:\s*(\d+)\s*-->", re.IGNORECASE)
TRIGGER_RE = re.compile(r"<!--\s*trigger\s*:\s*(.*?)\s*-->", re.IGNORECASE | re.DOTALL)
_ANNOTATION_LINE_RE = re.compile(r"^\s*(?:<!--\s*(?:limit|trigger)\s*:.*?-->\s*)+$", re.IGNORECASE)
_ANNOTATION_RE = re.compile(r"\s*<!--\s*(?:limit|trigger)\s*:.*?-->", re.IGNORECASE)


# -- settings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoreSettings:
    """The `[core]` table of memory.toml: default limit, per-block limits, read-only blocks."""

    limit: int = DEFAULT_LIMIT
    limits: Mapping[str, int] = field(default_factory=dict)  # casefolded label -> limit
    read_only: frozenset[str] = frozenset()  # casefolded labels

    @classmethod
    def from_mapping(cls, table: Any) -> CoreSettings:
        """Check and read `[core]`; a bad value raises UserError naming the key."""
        if table is None:
            return cls()
        if not isinstance(table, Mapping):
            raise UserError("memory.toml [core] must be a table")
        unknown = set(table) - {"limit", "limits", "read_only"}
        if unknown:
            raise UserError(f"memory.toml [core]: unknown setting {sorted(unknown)[0]!r}; "
                            "expected limit, limits, read_only")
        limit = table.get("limit", DEFAULT_LIMIT)
        if not _positive_int(limit):
            raise UserError(f"memory.toml [core] limit must be a positive whole number, not {limit!r}")
        limits = table.get("limits", {})
        if not isinstance(limits, Mapping) or not all(_positive_int(v) for v in limits.values()):
            raise UserError("memory.toml [core] limits must map block labels to positive whole numbers, "
                            'e.g. limits = { Human = 1200 }')
        read_only = table.get("read_only", [])
        if not isinstance(read_only, list) or not all(isinstance(x, str) for x in read_only):
            raise UserError('memory.toml [core] read_only must be a list of block labels, e.g. read_only = ["Persona"]')
        return cls(int(limit), {_key(k): int(v) for k, v in limits.items()}, frozenset(_key(x) for x in read_only))


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _key(label: str) -> str:
    """How labels are compared: case-insensitive, runs of whitespace as one space."""
    return " ".join(str(label).split()).casefold()


# -- parsing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Block:
    """One core block of a parsed MEMORY.md (indexes are 0-based into CoreDoc.lines)."""

    label: str
    heading: int  # index of the `## Label` line
    end: int  # index of the first line after the block
    limit: int
    read_only: bool
    value_index: tuple[int, ...]  # indexes of the value's lines, in order
    value: str
    triggers: tuple[str, ...] = ()

    @property
    def line(self) -> int:
        """1-based line of the heading in the file."""
        return self.heading + 1

    @property
    def chars(self) -> int:
        return len(self.value)

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "chars_current": self.chars, "chars_limit": self.limit,
                "read_only": self.read_only, "line": self.line, "value": self.value}


@dataclass(frozen=True)
class CoreDoc:
    """MEMORY.md split into lines (a final "" when the text ends with a newline) and its blocks."""

    lines: list[str]
    blocks: list[Block]

    def find(self, label: str) -> Block | None:
        key = _key(label)
        return next((b for b in self.blocks if _key(b.label) == key), None)

    def require(self, label: str) -> Block:
        """The block with this label, or CoreEditError listing the blocks there are."""
        block = self.find(label)
        if block is None:
            have = ", ".join(b.label for b in self.blocks) or "none"
            raise CoreEditError(f"no block {label!r} in core memory (blocks: {have}); "
                                "`memory core create` makes one")
        return block


def is_annotation_line(line: str) -> bool:
    """True for a line made only of `<!-- limit: N -->` / `<!-- trigger: ... -->` comments."""
    return bool(_ANNOTATION_LINE_RE.match(line))


def strip_annotations(text: str) -> str:
    """`text` without its limit and trigger comments."""
    return _ANNOTATION_RE.sub("", text)


def trigger_phrases(text: str) -> list[str]:
    """The comma-separated phrases of every `<!-- trigger: ... -->` in `text`, in order."""
    return [p.strip() for m in TRIGGER_RE.finditer(text) for p in m[1].split(",") if p.strip()]


def parse_core(text: str, settings: CoreSettings | None = None) -> CoreDoc:
    """Split MEMORY.md (text with "\\n" newlines) into its blocks."""
    settings = settings or CoreSettings()
    lines = text.split("\n")
    skip = split_frontmatter(lines).line_count  # "## x" inside YAML is a comment, not a block
    found = [(i, title) for i, level, title in headings(lines) if level <= 2 and i >= skip]
    blocks = []
    for n, (start, title) in enumerate(found):
        if not lines[start].lstrip().startswith("##"):
            continue  # a `# Title` ends the block above it but starts none
        end = found[n + 1][0] if n + 1 < len(found) else len(lines)
        blocks.append(_block(lines, start, end, strip_annotations(title).strip(), settings))
    return CoreDoc(lines, blocks)


def _block(lines: list[str], start: int, end: int, label: str, settings: CoreSettings) -> Block:
    body = range(start + 1, end)
    annotations = [lines[start]] + [lines[i] for i in body if is_annotation_line(lines[i])]
    value_index = [i for i in body if not is_annotation_line(lines[i])]
    while value_index and not lines[value_index[0]].strip():
        value_index.pop(0)
    while value_index and not lines[value_index[-1]].strip():
        value_index.pop()
    annotated = next((int(m[1]) for a in annotations if (m := LIMIT_RE.search(a))), None)
    key = _key(label)
    limit = settings.limits.get(key) or annotated or settings.limit
    triggers = tuple(p for a in annotations for p in trigger_phrases(a))
    return Block(label, start, end, limit, key in settings.read_only, tuple(value_index),
                 "\n".join(lines[i] for i in value_index), triggers)


# -- edits ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EditResult:
    """What an edit produced: the new text, the block's size before and after, a line diff."""

    operation: str
    block: str
    text: str
    chars_before: int
    chars_after: int
    limit: int
    diff: str  # unified-style hunks of the changed lines only ("" when nothing changed)
    line: int | None = None  # 1-based heading line of the block after the edit (None once deleted)

    @property
    def changed(self) -> bool:
        return bool(self.diff)

    def to_dict(self) -> dict[str, Any]:
        return {"operation": self.operation, "block": self.block, "changed": self.changed,
                "chars_before": self.chars_before, "chars_current": self.chars_after, "chars_limit": self.limit,
                "line": self.line, "diff": self.diff}


def append(text: str, label: str, addition: str, settings: CoreSettings | None = None) -> EditResult:
    """Add `addition` (one or more lines) after the last line of the block's value."""
    doc, block = _writable(text, label, settings)
    new = _clean_text(addition, "text to append")
    at = block.value_index[-1] + 1 if block.value_index else _after_annotations(doc, block)
    return _finish("append", doc, block, doc.lines[:at] + new + doc.lines[at:], settings)


def insert(text: str, label: str, addition: str, line: int, settings: CoreSettings | None = None) -> EditResult:
    """Insert `addition` so that it starts at line `line` of the block's value (1-based; -1 = at the end)."""
    doc, block = _writable(text, label, settings)
    new = _clean_text(addition, "text to insert")
    count = len(block.value_index)
    if line == -1:
        line = count + 1
    if not 1 <= line <= count + 1:
        raise CoreEditError(f"line {line} is outside block {block.label!r}, whose value has {count} line(s); "
                            f"use 1..{count + 1} (or -1 for the end)")
    if line <= count:
        at = block.value_index[line - 1]
    else:
        at = block.value_index[-1] + 1 if block.value_index else _after_annotations(doc, block)
    return _finish("insert", doc, block, doc.lines[:at] + new + doc.lines[at:], settings)


def replace(text: str, label: str, old: str, new: str, settings: CoreSettings | None = None) -> EditResult:
    """Replace the one occurrence of `old` in the block's value by `new`.

    Zero or several occurrences are refused with the line numbers where they are. A line left
    empty by the replacement is removed, so deleting a bullet does not leave a hole in a list.
    """
    doc, block = _writable(text, label, settings)
    old = old.replace("\r\n", "\n")
    new_text = new.replace("\r\n", "\n")
    if not old:
        raise CoreEditError("the text to replace is empty")
    if new_text.strip():
        _clean_text(new_text, "replacement text", allow_empty=True)
    start, stop = block.heading + 1, block.end
    body = doc.lines[start:stop]
    # Annotation lines are masked so that `old` can never match (and rewrite) a limit or trigger.
    masked = "\n".join("\x00" * len(s) if is_annotation_line(s) else s for s in body)
    hits = _occurrences(masked, old.replace("\x00", "\ufffd"))
    if len(hits) != 1:
        raise CoreEditError(_not_once(doc, block, old, [start + 1 + masked.count("\n", 0, h) for h in hits]))
    at = hits[0]
    real = "\n".join(body)
    line_from = real.rfind("\n", 0, at) + 1
    line_to = real.find("\n", at + len(old))
    line_to = len(real) if line_to == -1 else line_to
    region = real[line_from:at] + new_text + real[at + len(old):line_to]
    if not region.strip() and real[line_from:line_to].strip():
        # Trigger: the replacement empties the lines it touched. Outcome: drop them with their newline.
        rebuilt = real[:line_from] + real[line_to + 1:] if line_to < len(real) else real[:max(line_from - 1, 0)]
    else:
        rebuilt = real[:line_from] + region + real[line_to:]
    new_body = rebuilt.split("\n") if rebuilt or body else []
    return _finish("replace", doc, block, doc.lines[:start] + new_body + doc.lines[stop:], settings)


def rethink(text: str, label: str, value: str, settings: CoreSettings | None = None) -> EditResult:
    """Rewrite the block's whole value (its annotation lines stay)."""
    doc, block = _writable(text, label, settings)
    new = _clean_text(value, "new value", allow_empty=True)
    if block.value_index:
        first, last = block.value_index[0], block.value_index[-1]
        kept = [doc.lines[i] for i in range(first, last + 1) if is_annotation_line(doc.lines[i])]
        lines = doc.lines[:first] + kept + new + doc.lines[last + 1:]
    else:
        at = _after_annotations(doc, block)
        lines = doc.lines[:at] + new + doc.lines[at:]
    return _finish("rethink", doc, block, lines, settings)


def create(text: str, label: str, value: str = "", settings: CoreSettings | None = None) -> EditResult:
    """Add a new block `## label` (with an optional first value) at the end of the file."""
    settings = settings or CoreSettings()
    doc = parse_core(text, settings)
    label = " ".join(label.split())
    if not label or len(label) > MAX_LABEL_CHARS or "#" in label or "<!--" in label:
        raise CoreEditError(f"block label must be 1-{MAX_LABEL_CHARS} characters on one line, without '#' or "
                            f"comments: {label!r}")
    existing = doc.find(label)
    if existing is not None:
        raise CoreEditError(f"block {existing.label!r} already exists (line {existing.line})")
    new = _clean_text(value, "value", allow_empty=True)
    lines = list(doc.lines)
    final_newline = bool(lines) and lines[-1] == ""
    if final_newline:
        lines.pop()
    while lines and not lines[-1].strip():
        lines.pop()
    lines += ([""] if lines else []) + [f"## {label}"] + new + [""]
    return _diff_result("create", label, doc.lines, lines, 0, settings)


def delete(text: str, label: str, settings: CoreSettings | None = None) -> EditResult:
    """Remove the block: its heading, value and annotations (the blank line before the next block stays single)."""
    doc, block = _writable(text, label, settings)
    lines = doc.lines[:block.heading] + doc.lines[block.end:]
    if block.end >= len(doc.lines):
        # The last block: no blank lines at the end of the file, one final newline.
        while lines and not lines[-1].strip():
            lines.pop()
        lines.append("")
    diff = line_diff(doc.lines, lines)
    return EditResult("delete", block.label, "\n".join(lines), block.chars, 0, block.limit, diff, None)


# -- helpers ----------------------------------------------------------------------------------


def _writable(text: str, label: str, settings: CoreSettings | None) -> tuple[CoreDoc, Block]:
    doc = parse_core(text, settings)
    block = doc.require(label)
    if block.read_only:
        raise CoreEditError(f"block {block.label!r} is read-only (memory.toml [core] read_only)")
    return doc, block


def _after_annotations(doc: CoreDoc, block: Block) -> int:
    """Where the first value line of an empty block goes: after the heading and its annotation lines."""
    at = block.heading + 1
    while at < block.end and is_annotation_line(doc.lines[at]):
        at += 1
    return at


def _clean_text(text: str, what: str, allow_empty: bool = False) -> list[str]:
    """The lines of text an agent wants to write, checked: no new blocks, no limit annotations."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").strip("\n").split("\n")
    if not "".join(lines).strip():
        if allow_empty:
            return []
        raise CoreEditError(f"the {what} is empty")
    for idx, level, _ in headings(lines):
        if level <= 2:
            raise CoreEditError(f"the {what} contains a '#' or '##' heading ({lines[idx].strip()[:40]!r}), which "
                                "would start another block; use `memory core create` for a new block")
    if any(LIMIT_RE.search(line) for line in lines):
        raise CoreEditError("limits cannot be written by an edit; set them in memory.toml [core] limits")
    return lines


def _occurrences(haystack: str, needle: str) -> list[int]:
    """Start offsets of every (also overlapping) occurrence."""
    hits, at = [], haystack.find(needle)
    while at != -1:
        hits.append(at)
        at = haystack.find(needle, at + 1)
    return hits


def _not_once(doc: CoreDoc, block: Block, old: str, lines: list[int]) -> str:
    quoted = old if len(old) <= 40 else old[:37] + "..."
    if lines:
        where = ", ".join(str(n) for n in sorted(set(lines)))
        return (f"{quoted!r} occurs {len(lines)} times in block {block.label!r} (line{'s' if ',' in where else ''} "
                f"{where}); give more of the text so that it occurs once")
    elsewhere = [b.label for b in doc.blocks if b is not block and old in b.value]
    hint = f"; it occurs in block {elsewhere[0]!r}" if elsewhere else ""
    return f"{quoted!r} does not occur in block {block.label!r} (lines {block.line}-{block.end}){hint}"


def _finish(operation: str, doc: CoreDoc, block: Block, lines: list[str], settings: CoreSettings | None) -> EditResult:
    if lines and lines[-1] != "" and (doc.lines[-1] == "" or len(lines) > len(doc.lines)):
        lines = [*lines, ""]  # the file keeps its final newline, and text added at its end gets one
    return _diff_result(operation, block.label, doc.lines, lines, block.chars, settings)


def _diff_result(operation: str, label: str, old: list[str], lines: list[str], before: int,
                 settings: CoreSettings | None) -> EditResult:
    new_doc = parse_core("\n".join(lines), settings)
    after = new_doc.require(label)
    if after.chars > after.limit and after.chars > before:
        raise CoreEditError(f"block {after.label} would be {after.chars} chars, limit {after.limit}")
    return EditResult(operation, after.label, "\n".join(lines), before, after.chars, after.limit,
                      line_diff(old, lines), after.line)


def line_diff(old: list[str], new: list[str]) -> str:
    """Hunks of changed lines only ("@@ -a,n +b,m @@", "-old", "+new"), no context; "" when equal."""
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.append(f"@@ -{i1 + 1 if i2 > i1 else i1},{i2 - i1} +{j1 + 1 if j2 > j1 else j1},{j2 - j1} @@")
        out += [f"-{line}" for line in old[i1:i2]] + [f"+{line}" for line in new[j1:j2]]
    return "\n".join(out)


def render_blocks(blocks: list[Block], path: str = "MEMORY.md") -> str:
    """The blocks as an agent's system prompt should see them (Letta's memory-block layout)."""
    out = [f'<core_memory path="{path}">']
    for b in blocks:
        flag = ' read_only="true"' if b.read_only else ""
        out.append(f'<block label="{b.label}" chars_current="{b.chars}" chars_limit="{b.limit}"{flag}>')
        if b.value:
            out.append(b.value)
        out.append("</block>")
    out.append("</core_memory>")
    return "\n".join(out)
