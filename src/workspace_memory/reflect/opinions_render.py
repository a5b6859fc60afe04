"""Writing bank/opinions.md back (pure): only the lines reflect owns change.

In an existing opinion section only these change: the heading (when reflect replaced the
statement), the `entities` / `confidence` / `last updated` lines (kept as the human spelled
them while they mean the same value), and the evidence region. New opinions are appended
before the ledger; the ledger is rewritten from the opinions. See `opinions_md` for the layout.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..facts.model import Fact, strip_entity_prefix
from ..markdown.retain import find_entities
from .opinions import Evidence, HistoryEntry, Opinion, Tombstone
from .opinions_md import (
    EVIDENCE,
    FIELD_RE,
    HEADING_RE,
    LEDGER_NOTE,
    PAGE,
    STATE,
    Page,
    Reconciled,
    parse_confidence,
    parse_entities,
)
from .regions import begin_marker, end_marker, find_region, one_line, relative_link

SlugOf = Callable[[str], str]
NamesOf = Callable[[tuple[str, ...]], tuple[str, ...]]


def render_page(page: Page, rec: Reconciled, facts_by_hash: dict[str, Fact], slug_of: SlugOf,
                names_of: NamesOf) -> str:
    """The page with every opinion section, the new sections and the ledger brought up to date."""
    nl = page.nl
    starts = {sec.start: sec for sec in rec.sections.values()}
    known = set(rec.sections)
    new_ops = [op for op in rec.opinions if op.key not in known]
    insert_at = page.state_span[0] if page.state_span else len(page.lines)
    out: list[str] = []
    idx = 0
    while idx <= len(page.lines):
        if idx == insert_at:
            _emit_tail(out, new_ops, rec, facts_by_hash, slug_of, names_of, nl)
            idx = page.state_span[1] + 1 if page.state_span else len(page.lines) + 1
            continue
        if idx == len(page.lines):
            break
        sec = starts.get(idx)
        if sec is not None:
            op = next(o for o in rec.opinions if o.key == sec.key)
            out += _render_section(page.lines[sec.start : sec.end], op, facts_by_hash, slug_of, names_of, nl)
            idx = sec.end
            continue
        out.append(page.lines[idx])
        idx += 1
    return "".join(out)


def _emit_tail(out: list[str], new_ops: list[Opinion], rec: Reconciled, facts_by_hash: dict[str, Fact],
               slug_of: SlugOf, names_of: NamesOf, nl: str) -> None:
    if out and not out[-1].endswith(("\n", "\r")):
        out[-1] += nl
    for op in new_ops:
        if out and out[-1].strip():
            out.append(nl)
        out += [line + nl for line in new_section(op, facts_by_hash, slug_of, names_of)]
    if out and out[-1].strip():
        out.append(nl)
    out += [line + nl for line in ledger_lines(rec.opinions, rec.tombstones)]


def _field_values(op: Opinion, slug_of: SlugOf) -> list[tuple[str, str]]:
    ents = " ".join(f"@{slug_of(k)}" for k in op.entities) or "none"
    return [("entities", ents), ("confidence", f"{op.confidence:.2f}"), ("last updated", op.last_updated)]


def new_section(op: Opinion, facts_by_hash: dict[str, Fact], slug_of: SlugOf, names_of: NamesOf) -> list[str]:
    """The lines of a section for an opinion that is not on the page yet."""
    lines = [f"## {op.statement}", f"<!-- reflect:opinion {op.key} -->"]
    lines += [f"- {name}: {value}" for name, value in _field_values(op, slug_of)]
    lines += ["", begin_marker(EVIDENCE), *evidence_body(op, facts_by_hash, names_of), end_marker(EVIDENCE)]
    return lines


def _render_section(lines: list[str], op: Opinion, facts_by_hash: dict[str, Fact], slug_of: SlugOf,
                    names_of: NamesOf, nl: str) -> list[str]:
    """An existing section with only the heading (if replaced), the fields and the evidence region changed."""
    out = list(lines)
    heading = HEADING_RE.match(out[0].rstrip("\r\n"))
    if one_line((heading[1] or "") if heading else "") != op.statement:
        out[0] = f"## {op.statement}{_ending(out[0], nl)}"
    bare = [line.rstrip("\r\n") for line in out]
    region = find_region(bare, EVIDENCE)
    insert_at = 2
    for name, value in _field_values(op, slug_of):
        idx = next((i for i, line in enumerate(bare[2:], start=2)
                    if (m := FIELD_RE.match(line)) and m[1].lower() == name
                    and not (region and region[0] <= i <= region[1])), None)
        if idx is None:
            out.insert(insert_at, f"- {name}: {value}{nl}")
            bare.insert(insert_at, f"- {name}: {value}")
            region = find_region(bare, EVIDENCE)
            insert_at += 1
        else:
            if not _same_field(name, FIELD_RE.match(bare[idx])[2], value):
                out[idx] = f"- {name}: {value}{_ending(out[idx], nl)}"
            insert_at = max(insert_at, idx + 1)
    body = [line + nl for line in evidence_body(op, facts_by_hash, names_of)]
    if region is not None:
        return out[: region[0] + 1] + body + out[region[1] :]
    block = [nl, begin_marker(EVIDENCE) + nl, *body, end_marker(EVIDENCE) + nl]
    if insert_at < len(out) and out[insert_at].strip():
        block.append(nl)
    return out[:insert_at] + block + out[insert_at:]


def _same_field(name: str, shown: str, value: str) -> bool:
    """Keep a human's spelling of a field when it means the same value."""
    if name == "confidence":
        parsed = parse_confidence(shown)
        return parsed is not None and f"{parsed:.2f}" == value
    if name == "entities":
        return [e.lower() for e in find_entities(shown)] == parse_entities(value)
    return shown == value


def _ending(line: str, nl: str) -> str:
    return line[len(line.rstrip("\r\n")) :] or nl


def evidence_body(op: Opinion, facts_by_hash: dict[str, Fact], names_of: NamesOf) -> list[str]:
    """The generated evidence region: supporting and contradicting links, then the history."""
    lines: list[str] = []
    for title, role in (("Supporting evidence:", "+"), ("Contradicting evidence:", "-")):
        if lines:
            lines.append("")
        lines.append(title)
        items = [ev for ev in op.evidence if ev.role == role]
        lines += [_evidence_line(ev, facts_by_hash, names_of) for ev in items] or ["- none"]
    lines += ["", "History:"]
    lines += [_history_line(entry) for entry in op.history] or ["- none"]
    return lines


def _evidence_line(ev: Evidence, facts_by_hash: dict[str, Fact], names_of: NamesOf) -> str:
    link = relative_link(PAGE, ev.path, ev.line)
    fact = facts_by_hash.get(ev.hash)
    when = ev.day or "undated"
    if fact is None:
        line = f"{link} {when}: (no longer in the file)"
    else:
        kind = {"W": " (world fact)", "B": " (experience)"}.get(ev.kind, "")
        conf = f" c={fact.confidence:.2f}" if fact.kind == "opinion" and fact.confidence is not None else ""
        text = one_line(strip_entity_prefix(fact.content, names_of(fact.entities)), 100)
        line = f"{link} {when}{conf}{kind}: {text}"
    if ev.withdrawn is not None:  # struck: a reader (and reflect, recovering a lost ledger) skips it
        return f"- ~~{line}~~ (invalid since {ev.withdrawn}; no longer counted)"
    return f"- {line} ({ev.signal})" if ev.signal else f"- {line}"


def _history_line(entry: HistoryEntry) -> str:
    was = one_line(entry.statement, 120)
    if entry.event == "formed":
        return f"- {entry.day}: formed at {entry.confidence:.2f}"
    if entry.event == "replaced":
        return f"- {entry.day}: statement replaced after repeated contradiction; was \"{was}\" at {entry.confidence:.2f}"
    if entry.event == "superseded":
        return (f"- {entry.day}: changed mind: superseded by \"{one_line(entry.note or '', 120)}\""
                f" (was {entry.confidence:.2f})")
    if entry.event == "may contradict":
        return f"- {entry.day}: may contradict \"{one_line(entry.note or '', 120)}\" (stance unclear: for a person to settle)"
    if entry.event == "edited":
        return f"- {entry.day}: statement edited by hand; was \"{was}\""
    if entry.event in ("withdrawn", "restored"):
        verb = "no longer counted: its fact was marked invalid" if entry.event == "withdrawn" else (
            "counted again: its fact is valid again")
        return f"- {entry.day}: evidence {entry.note or '?'} {verb} (was {entry.confidence:.2f})"
    value = f"{entry.value:.2f}" if isinstance(entry.value, float | int) else "?"
    return f"- {entry.day}: confidence set by hand to {value} (was {entry.confidence:.2f})"


def _json(data: dict) -> str:
    # "--" may not appear inside an HTML comment; \u002d is the same "-" to a JSON reader.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("--", "-\\u002d")


def _evidence_record(key: str, ev: Evidence) -> dict:
    data = {"k": key, "h": ev.hash, "p": ev.path, "l": ev.line, "d": ev.day, "r": ev.role, "t": ev.kind}
    if ev.after is not None:  # ledgers written before the confidence was kept have no "a"
        data["a"] = ev.after
    if ev.withdrawn is not None:
        data["w"] = ev.withdrawn
    if ev.signal is not None:
        data["g"] = ev.signal
    return data


def ledger_lines(opinions: list[Opinion], tombstones: list[Tombstone]) -> list[str]:
    """The ledger region: one JSON line per opinion, evidence, history entry and deletion."""
    body = [begin_marker(STATE), "<!--", LEDGER_NOTE]
    for op in opinions:
        record = {"k": op.key, "s": op.statement, "c": op.confidence, "e": op.entities,
                  "u": op.last_updated, "since": op.since, "p": op.pending}
        if op.superseded_by is not None:
            record |= {"sb": op.superseded_by, "un": op.until}
        body.append("o " + _json(record))
        body += ["e " + _json(_evidence_record(op.key, ev)) for ev in op.evidence]
        for entry in op.history:
            data = {"k": op.key, "d": entry.day, "ev": entry.event, "s": entry.statement, "c": entry.confidence}
            if entry.value is not None:
                data["v"] = entry.value
            if entry.note is not None:
                data["n"] = entry.note
            body.append("h " + _json(data))
    body += ["x " + _json({"k": t.key, "d": t.day, "e": t.entities, "s": t.statement, "h": t.hashes})
             for t in tombstones]
    return [*body, "-->", end_marker(STATE)]
