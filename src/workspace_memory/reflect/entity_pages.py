"""bank/entities/<Slug>.md: one page per entity, its generated region rebuilt from the facts (pure).

The region (`reflect:begin entity`) holds:
- Summary: up to SUMMARY_ITEMS current statements, newest first and, on the same day, most
  confident first (opinions carry their confidence; other facts count as 0.5). Superseded
  facts never lead; a fact that replaced an older one says what it replaced. A relative day
  phrase a fact was written with keeps its words and gets its day beside it, in the Summary
  and the Facts alike ("Moves to Hamburg tomorrow (2026-10-16)": dates.absolute); the daily
  log keeps the words alone.
  (With a model configured, a model-written summary may stand here instead; see `model`.)
- Facts: every fact that mentions the entity, grouped by kind, newest first, near-duplicates
  merged, superseded facts and facts no longer true struck through, each with its source link.
- Opinions: the opinions about the entity from bank/opinions.md with their confidence; one that
  a changed mind superseded is struck, "used to think ... (until DAY)", and the summary states
  the current view with the old one as history.

Frontmatter gets `name`, `aliases` (when missing) and `updated` (the --now day), and `updated`
changes only when the region's content changed, so a run with nothing new writes nothing.
"""

from __future__ import annotations

from ..dates.absolute import with_dates
from ..facts.model import EntityInfo, Fact, strip_entity_prefix
from .curated import fact_bullets
from .opinions import Opinion
from .regions import one_line, relative_link, replace_region, upsert_frontmatter, yaml_scalar

REGION = "entity"
SUMMARY_ITEMS = 5
MODEL_SUMMARY_MARK = "<!-- reflect:summary"
_KIND_TITLES = (("world", "World"), ("experience", "Experience"), ("opinion", "Opinions as stated"),
                ("observation", "Observations"))


def summary_lines(entity: EntityInfo, facts: list[Fact], opinions: list[Opinion], page: str,
                  superseded: dict[int, int], by_id: dict[int, Fact]) -> list[str]:
    """The deterministic summary bullets (see the module docstring)."""
    names = entity.names()
    items: list[tuple[str, float, str, str]] = []  # (day, confidence, tie-break, line)
    for op in opinions:
        if op.superseded_by:
            continue  # a changed mind: the current view says it, with the old one as history
        text = one_line(strip_entity_prefix(op.statement, names), 160)
        line = f"- {text} — opinion, confidence {op.confidence:.2f} ({op.last_updated})"
        olds = [o for o in opinions if o.superseded_by == op.key]
        if olds:
            line += "; " + "; ".join(_used_to(o, names) for o in olds)
        items.append((op.last_updated, op.confidence, f"0{op.key}", line))
    replaced: dict[int, list[Fact]] = {}
    for old, new in superseded.items():
        if old in by_id:
            replaced.setdefault(new, []).append(by_id[old])
    for fact in facts:
        if fact.kind == "opinion" or fact.id in superseded or not fact.valid:
            continue
        text = one_line(with_dates(strip_entity_prefix(fact.content, names), fact.day), 160)
        line = f"- {text} — {fact.kind}, {fact.day_s or 'undated'} · {relative_link(page, fact.path, fact.line)}"
        olds = sorted(replaced.get(fact.id, []), key=lambda f: f.order)
        if olds:
            gone = "; ".join(one_line(with_dates(strip_entity_prefix(o.content, names), o.day), 80) for o in olds)
            line += f" (replaces: ~~{gone}~~)"
        items.append((fact.day_s, 0.5, f"1{fact.path}:{fact.line:08d}", line))
    items.sort(key=lambda it: it[2])  # tie-break first; the stable sort below keeps it within equals
    items.sort(key=lambda it: (it[0], it[1]), reverse=True)
    return [it[3] for it in items[:SUMMARY_ITEMS]] or ["_No facts yet._"]


def _used_to(op: Opinion, names: tuple[str, ...]) -> str:
    """"used to think: Rust is overhyped for data pipelines (until 2025-11-22)"."""
    return f"used to think: {one_line(strip_entity_prefix(op.statement, names), 100)} (until {op.until})"


def region_body(entity: EntityInfo, facts: list[Fact], opinions: list[Opinion], page: str,
                superseded: dict[int, int], by_id: dict[int, Fact], summary: list[str] | None = None) -> list[str]:
    """The generated region of an entity page. `summary` replaces the deterministic one (model assist)."""
    lines = ["## Summary", ""]
    lines += summary if summary is not None else summary_lines(entity, facts, opinions, page, superseded, by_id)
    lines += ["", "## Facts"]
    names = entity.names()
    for kind, title in _KIND_TITLES:
        group = [f for f in facts if f.kind == kind]
        if group:
            lines += ["", f"### {title}", ""]
            lines += fact_bullets(group, page, superseded, by_id, names)
    if not facts:
        lines += ["", "_No facts yet._"]
    lines += ["", "## Opinions", ""]
    link = relative_link(page, "bank/opinions.md")
    for op in opinions:
        text = one_line(strip_entity_prefix(op.statement, names))
        if op.superseded_by:
            lines.append(f"- ~~{text}~~ — used to think so until {op.until}, confidence {op.confidence:.2f} · {link}")
            continue
        lines.append(f"- {text} — confidence {op.confidence:.2f}, last updated {op.last_updated} · {link}")
    if not opinions:
        lines.append("_No opinions yet._")
    return lines


def page_text(old: str | None, entity: EntityInfo, body: list[str], today: str) -> str:
    """The page with its region set to `body`; `old` unchanged when the region already says that."""
    if old is None:
        aliases = "[" + ", ".join(yaml_scalar(a) for a in entity.aliases) + "]"
        head = f"---\nname: {yaml_scalar(entity.name)}\naliases: {aliases}\nupdated: {today}\n---\n# {entity.name}\n"
        return replace_region(head, REGION, body)
    new = replace_region(old, REGION, body)
    if new == old:
        return old
    return upsert_frontmatter(new, {"name": yaml_scalar(entity.name), "aliases": "[]"}, {"updated": today})
