"""bank/opinions.md: the page layout, and reading opinions and human edits from it (pure; writing: opinions_render).

One opinion is one level-2 section that reflect recognises by the marker under its heading:

    ## Peter: Prefers concise replies (<1500 chars) on WhatsApp.
    <!-- reflect:opinion peter-prefers-concise-replies-1500-chars-on -->
    - entities: @Peter
    - confidence: 0.85
    - last updated: 2025-11-28

    <!-- reflect:begin evidence -->
    Supporting evidence: ... Contradicting evidence: ... History: ...
    <!-- reflect:end evidence -->

    Anything a human writes in the section (outside the evidence region) stays as written.

The heading is the statement and the `confidence:` line the confidence; both are the human's
to edit. At the end of the page a machine *ledger* (an HTML comment between
`reflect:begin state` / `reflect:end state`) records what reflect last wrote and which facts
it applied to which opinion (by evidence hash), and the opinions a human deleted. It lives in
the Markdown, not in `.memory/`, because `.memory/` is derived and may be thrown away: a
rebuilt index must never make reflect count a fact twice or resurrect a deleted opinion.

Comparing the page with the ledger tells reflect what the human did:
- a heading that differs from the ledger's statement: statement edited -> new baseline;
- a confidence that differs from the ledger's (at 2 decimals): confidence set -> new baseline;
- a ledger opinion with no section: deleted -> tombstone dated the run that noticed it;
- a section with a marker the ledger does not know (ledger lost): recovered from the page,
  its evidence from the links in its evidence region.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..facts.model import Fact
from ..files import detect_newline
from ..markdown.confidence import page_warnings, read_confidence
from ..markdown.retain import DEFAULT_OPINION_CONFIDENCE, find_entities, slugify
from .opinions import Evidence, HistoryEntry, Opinion, Tombstone, clamp
from .regions import RegionError, find_region, one_line

PAGE = "bank/opinions.md"
STATE = "state"
EVIDENCE = "evidence"
NEW_PAGE = (
    "# Opinions\n\nBeliefs with a confidence in [0, 1] that moves with evidence. Edit a statement or a\n"
    "confidence by hand and it becomes the new baseline.\n"
)
LEDGER_NOTE = "reflect's ledger: facts applied to each opinion, and deleted opinions. Edit the opinions above, not this."

_MARKER_RE = re.compile(r"^<!--\s*reflect:opinion\s+([^\s>]+)\s*-->\s*$")
HEADING_RE = re.compile(r"^##(?:\s+(.*?))?\s*$")
_SECTION_END_RE = re.compile(r"^#{1,2}(\s|$)")
FIELD_RE = re.compile(r"^\s*[-*]\s+(entities|confidence|last updated)\s*:\s*(.*?)\s*$", re.I)
_LINK_RE = re.compile(r"^- \[([^\]#]+)#L(\d+)\]")
_FENCE_RE = re.compile(r"^\s*(```|~~~)")


@dataclass
class Section:
    """An opinion's section: [start, end) line indexes, start = its heading."""

    key: str
    start: int
    end: int
    duplicate: bool = False


@dataclass
class Visible:
    """What the page shows for an opinion (None = the line is missing or unreadable)."""

    statement: str
    confidence: float | None
    entities: list[str] | None
    last_updated: str | None
    links: list[tuple[str, int, str]]  # (path, line, role) from the evidence region


@dataclass
class Page:
    """A parsed bank/opinions.md."""

    lines: list[str]  # with line endings
    nl: str
    sections: list[Section]
    state_span: tuple[int, int] | None
    opinions: dict[str, Opinion]  # from the ledger, in ledger order
    tombstones: list[Tombstone]
    notices: list[str] = field(default_factory=list)


@dataclass
class Reconciled:
    """The opinions after reading human edits, in page order, plus what was noticed."""

    opinions: list[Opinion]
    tombstones: list[Tombstone]
    sections: dict[str, Section]
    edits: int = 0
    deleted: int = 0
    recovered: int = 0
    notices: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------------- parse


def parse_page(text: str) -> Page:
    """Split the page into opinion sections, other text and the ledger. Raises RegionError if broken."""
    lines = text.splitlines(keepends=True)
    bare = [line.rstrip("\r\n") for line in lines]
    state_span = find_region(bare, STATE)
    stop = state_span[0] if state_span else len(lines)
    sections: list[Section] = []
    seen: set[str] = set()
    in_fence = False
    for idx, line in enumerate(bare):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        if in_fence or idx >= stop:
            continue
        if HEADING_RE.match(line) and idx + 1 < len(bare) and (m := _MARKER_RE.match(bare[idx + 1].strip())):
            if sections and sections[-1].end > idx:
                sections[-1].end = idx
            sections.append(Section(m[1], idx, stop, duplicate=m[1] in seen))
            seen.add(m[1])
        elif sections and sections[-1].end > idx > sections[-1].start and _SECTION_END_RE.match(line):
            sections[-1].end = idx
    opinions, tombstones, notices = _parse_ledger(bare[state_span[0] + 1 : state_span[1]] if state_span else [])
    return Page(lines, detect_newline(text) if text else "\n", sections, state_span, opinions, tombstones, notices)


def _parse_ledger(body: list[str]) -> tuple[dict[str, Opinion], list[Tombstone], list[str]]:
    opinions: dict[str, Opinion] = {}
    tombstones: list[Tombstone] = []
    notices: list[str] = []
    for line in body:
        tag, _, payload = line.strip().partition(" ")
        if tag not in ("o", "e", "h", "x"):
            continue
        try:
            data = json.loads(payload)
            key = str(data["k"])
            if tag == "o":
                opinions[key] = Opinion(key, str(data["s"]), [str(e) for e in data["e"]], float(data["c"]),
                                        str(data["u"]), str(data["since"]), [str(p) for p in data.get("p", [])],
                                        superseded_by=str(data["sb"]) if data.get("sb") else None,
                                        until=str(data["un"]) if data.get("un") else None)
            elif tag == "e":
                after = data.get("a")
                opinions[key].evidence.append(Evidence(str(data["h"]), str(data["p"]), int(data["l"]),
                                                       str(data["d"]), str(data["r"]), str(data.get("t", "O")),
                                                       None if after is None else float(after),
                                                       str(data["w"]) if data.get("w") else None,
                                                       str(data["g"]) if data.get("g") else None))
            elif tag == "h":
                opinions[key].history.append(HistoryEntry(str(data["d"]), str(data["ev"]), str(data["s"]),
                                                          float(data["c"]), data.get("v"),
                                                          str(data["n"]) if data.get("n") else None))
            else:
                tombstones.append(Tombstone(key, str(data["d"]), [str(e) for e in data["e"]], str(data["s"]),
                                            [str(h) for h in data.get("h", [])]))
        except (ValueError, KeyError, TypeError) as exc:
            notices.append(f"{PAGE}: unreadable ledger line skipped ({type(exc).__name__}): {one_line(line, 60)}")
    return opinions, tombstones, notices


def visible(page: Page, sec: Section) -> Visible:
    """The statement, confidence, entities, last-updated and evidence links shown in a section."""
    bare = [line.rstrip("\r\n") for line in page.lines[sec.start : sec.end]]
    heading = HEADING_RE.match(bare[0])
    statement = one_line(heading[1] or "") if heading else ""
    region = find_region(bare, EVIDENCE)
    fields: dict[str, str] = {}
    for idx, line in enumerate(bare[2:], start=2):
        if region and region[0] <= idx <= region[1]:
            continue
        m = FIELD_RE.match(line)
        if m and m[1].lower() not in fields:
            fields[m[1].lower()] = m[2]
    links: list[tuple[str, int, str]] = []
    role = "+"
    for line in bare[region[0] + 1 : region[1]] if region else []:
        if line.startswith("Contradicting"):
            role = "-"
        elif line.startswith("History"):
            break
        elif m := _LINK_RE.match(line):
            links.append((m[1].replace("\\[", "[").replace("\\]", "]"), int(m[2]), role))
    ents = fields.get("entities")
    return Visible(statement, parse_confidence(fields.get("confidence")),
                   parse_entities(ents) if ents is not None else None, fields.get("last updated"), links)


def parse_entities(text: str) -> list[str]:
    """Entity keys from an `entities:` line: "@Peter @The-Castle", or names a human typed ("Peter, Andy")."""
    found = find_entities(text)
    if not found and text.strip().lower() not in ("", "none", "-"):
        found = tuple(slugify(part) for part in re.split(r",|;|\band\b", text) if slugify(part))
    return list(dict.fromkeys(e.lower() for e in found))


def parse_confidence(text: str | None) -> float | None:
    """'0.85', '.85', '0,85' or '85%' -> 0.85; a bare number outside [0, 1] is clamped ('1.7' -> 1.0,
    never 1.7 %: markdown.confidence, the Retain rule); None when unreadable."""
    value, _ = read_confidence(text)
    return None if value is None else clamp(value)


# --------------------------------------------------------------------------------------- reconcile


def reconcile(page: Page, facts: list[Fact], today: str) -> Reconciled:
    """Fold the human's edits into the ledger's opinions (see the module docstring)."""
    out = Reconciled([], list(page.tombstones), {}, notices=list(page.notices))
    out.notices += [f"{PAGE}:{line}: {message}" for line, message in page_warnings("".join(page.lines))]
    by_line = {(f.path, f.line): f for f in facts}
    for sec in page.sections:
        if sec.duplicate:
            out.notices.append(f"{PAGE}:{sec.start + 1}: a second section for opinion {sec.key}; left as text")
            continue
        shown = visible(page, sec)
        op = page.opinions.get(sec.key)
        if op is None:
            op = _recover(sec.key, shown, by_line, today)
            out.recovered += 1
        else:
            out.edits += _fold_edits(op, shown, today)
        out.opinions.append(op)
        out.sections[sec.key] = sec
    for key, op in page.opinions.items():
        if key not in out.sections:
            out.tombstones.append(Tombstone(key, today, op.entities, op.statement, [e.hash for e in op.evidence]))
            out.deleted += 1
    return out


def _fold_edits(op: Opinion, shown: Visible, today: str) -> int:
    edits = 0
    if shown.entities is not None and shown.entities != op.entities:
        op.entities = shown.entities
    if shown.statement and shown.statement != op.statement:
        op.history.append(HistoryEntry(today, "edited", op.statement, op.confidence))
        op.statement, op.pending, op.since = shown.statement, [], today
        op.last_updated = max(op.last_updated, today)
        edits += 1
    if shown.confidence is not None and f"{shown.confidence:.2f}" != f"{op.confidence:.2f}":
        op.history.append(HistoryEntry(today, "set", op.statement, op.confidence, shown.confidence))
        op.confidence = shown.confidence
        op.last_updated = max(op.last_updated, today)
        edits += 1
    return edits


def _recover(key: str, shown: Visible, by_line: dict[tuple[str, int], Fact], today: str) -> Opinion:
    evidence = []
    for path, line, role in shown.links:
        fact = by_line.get((path, line))
        if fact is not None:
            evidence.append(Evidence(fact.hash, path, line, fact.day_s, role,
                                     {"world": "W", "experience": "B"}.get(fact.kind, "O")))
    confidence = shown.confidence if shown.confidence is not None else DEFAULT_OPINION_CONFIDENCE
    return Opinion(key, shown.statement or key, shown.entities or [], confidence,
                   shown.last_updated or today, today, [], evidence, [])


def page_or_new(text: str | None) -> str:
    """The page's text, or the text of a new opinions page."""
    return NEW_PAGE if text is None else text


__all__ = ["PAGE", "Page", "Reconciled", "RegionError", "page_or_new", "parse_page", "reconcile", "visible"]
