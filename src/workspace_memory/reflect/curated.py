"""bank/world.md and bank/experience.md: curated fact lists (pure rendering).

World (W) and experience (B) facts are grouped by their primary entity (the first @mention;
facts without one go under "General", last), newest first. Near-duplicates within a group
(same polarity, rapidfuzz token-sort ratio >= DUPLICATE_THRESHOLD on the canonical text) are
merged into one bullet that shows the newest wording and links every source. A fact that a
newer one replaced (facts.supersession) is struck through and points to its replacement, with
what matched ("superseded by [memory/2025-11-25.md#L4]; residence: lives in -> moved"); a fact
marked as no longer true (`memory forget`) is struck through with the day and reason.
"""

from __future__ import annotations

from collections.abc import Callable

from ..dates.absolute import with_dates
from ..facts.model import EntityInfo, Fact, entity_info, strip_entity_prefix
from ..facts.supersession import why
from ..facts.textmatch import cluster
from ..fuzzy import RESTATED
from .regions import one_line, relative_link

DUPLICATE_THRESHOLD = RESTATED
CURATED = {"world": ("bank/world.md", "World", "world"), "experience": ("bank/experience.md", "Experience",
                                                                          "experience")}
NEW_PAGE_TEXT = {
    "world": "# World\n\nObjective facts about the world and the people in it. `memory reflect` maintains the\n"
             "generated region below; anything written outside it is kept as is.\n",
    "experience": "# Experience\n\nWhat I (the agent) did, in the first person. `memory reflect` maintains the "
                  "generated\nregion below; anything written outside it is kept as is.\n",
}

NamesOf = Callable[[tuple[str, ...]], tuple[str, ...]]


def newest_first(facts: list[Fact]) -> list[Fact]:
    """Newest written day first; within a day, later lines first."""
    return sorted(facts, key=lambda f: (f.day_s, f.path, f.line), reverse=True)


def fact_bullets(facts: list[Fact], page: str, superseded: dict[int, int], by_id: dict[int, Fact],
                 names: tuple[str, ...], merge: bool = True) -> list[str]:
    """One bullet per fact (or per group of near-duplicates), newest first, with source links.

    `names` are stripped from the start of each text ("Peter: Lives in ..." -> "Lives in ..."), and a
    relative day phrase gets its day beside it, as the page is read on later days (dates.absolute).
    """
    ordered = newest_first(facts)
    texts = [strip_entity_prefix(f.content, names) for f in ordered]
    valid = [i for i, f in enumerate(ordered) if f.valid]
    # An invalid fact is never merged into a valid one's bullet: it is shown, struck, on its own.
    groups = ([[valid[i] for i in g] for g in cluster([texts[i] for i in valid], DUPLICATE_THRESHOLD)]
              if merge else [[i] for i in valid])
    groups = sorted(groups + [[i] for i, f in enumerate(ordered) if not f.valid], key=lambda g: g[0])
    lines = []
    for group in groups:
        head = ordered[group[0]]
        text = one_line(with_dates(texts[group[0]], head.day))  # "moves tomorrow (2026-10-16)"
        if head.kind == "opinion" and head.confidence is not None:
            text += f" (c={head.confidence:.2f})"
        links = [relative_link(page, ordered[i].path, ordered[i].line) for i in group]
        sources = links[0] + (f"; also {', '.join(links[1:])}" if len(links) > 1 else "")
        when = head.day_s or "undated"
        newer = by_id.get(superseded.get(head.id, -1))
        if not head.valid:
            lines.append(f"- ~~{text}~~ ({invalid_note(head)}) — {when} · {sources}")
        elif newer is not None:
            replaced_by = relative_link(page, newer.path, newer.line)
            lines.append(f"- ~~{text}~~ (superseded by {replaced_by}; {why(head.content, newer.content)})"
                         f" — {when} · {sources}")
        else:
            lines.append(f"- {text} — {when} · {sources}")
    return lines


def curated_body(kind: str, facts: list[Fact], superseded: dict[int, int], by_id: dict[int, Fact],
                 entities: dict[str, EntityInfo]) -> list[str]:
    """The generated region of bank/world.md (kind "world") or bank/experience.md ("experience")."""
    page = CURATED[kind][0]
    groups: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.kind == kind:
            groups.setdefault(fact.entities[0] if fact.entities else "", []).append(fact)
    if not groups:
        return ["_No facts yet._"]
    order = sorted((k for k in groups if k), key=lambda k: (entity_info(entities, k).name.casefold(), k))
    if "" in groups:
        order.append("")
    lines: list[str] = []
    for key in order:
        info = entity_info(entities, key) if key else None
        if lines:
            lines.append("")
        lines += [f"## {info.name}" if info else "## General", ""]
        lines += fact_bullets(groups[key], page, superseded, by_id, info.names() if info else ())
    return lines


def invalid_note(fact: Fact) -> str:
    """"invalid since 2025-12-01: moved" (or "invalid" when the day is unknown)."""
    from ..markdown.retain import INVALID_UNKNOWN

    note = "invalid" if fact.invalid_at in (None, INVALID_UNKNOWN) else f"invalid since {fact.invalid_at}"
    return note + (f": {one_line(fact.invalid_reason, 80)}" if fact.invalid_reason else "")
