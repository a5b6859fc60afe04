"""Query understanding: what to search for, and which filters and boosts apply.

Explicit options (--since, --until, --kind, --entity) become filters. From the query
text itself:
- a time phrase ("last week", "in November 2025", "around Nov 27") becomes a window:
  a filter (entries whose date, or stated time range, overlaps it), or for "around X"
  a boost (X +- 3 days); the words left after removing the phrase are searched. A
  window that no entry falls in ("on Oct 31" when nothing was written that day) would
  filter out everything: it becomes a boost of the window widened by a week on each
  side, with a notice;
- entity names (`@Peter`, a bare name or alias, fuzzy for typos) boost entries about them;
- "what does Peter prefer / think of / like" marks an opinion question: Peter's
  opinions join the candidates and rank first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta

from ..errors import UserError
from ..facts.entities import mentioned, resolve
from ..index.base import Filters, Store
from .settings import parse_sources

KINDS = ("world", "experience", "opinion", "observation", "note", "session")
_KIND_ALIASES = {"w": "world", "b": "experience", "o": "opinion", "s": "observation", "opinions": "opinion",
                 "facts": "fact", "notes": "note"}
EMPTY_WINDOW_WIDEN = timedelta(days=7)  # see understand(): a window that holds no entry
# "what does Peter prefer / think of / like ...": the question asks for an opinion.
_OPINION_RE = re.compile(
    r"\b(prefers?|preferences?|think|thinks|thought|opinions?|likes?|dislikes?|loves?|hates?|favou?rite|feel|feels|"
    r"believes?|view|views|stance|enjoys?|wants?|rather)\b",
    re.IGNORECASE,
)


@dataclass
class RecallRequest:
    """What the caller asked for (CLI options, MCP arguments, library call)."""

    query: str
    k: int = 10
    since: str | None = None
    until: str | None = None
    kind: str | None = None
    entity: str | None = None
    mode: str = "auto"
    budget: int | None = None
    explain: bool = False
    source: str | None = None  # memory | sessions | all (comma-separated allowed); None: [recall] sources
    include_invalid: bool = False  # also facts struck as no longer true (`memory forget`)


@dataclass
class Understood:
    """The query after understanding: search text plus filters and boosts."""

    text: str
    since: date | None = None
    until: date | None = None
    boost_window: tuple[date | None, date | None] | None = None
    kinds: tuple[str, ...] = ()
    entity_filter: tuple[str, ...] = ()  # entity keys (lower-cased slugs)
    entity_boost: tuple[str, ...] = ()  # entities the query names (@Peter, Peter, an alias)
    opinion: bool = False  # the question asks what someone prefers / thinks / likes
    time_phrase: str | None = None
    notices: list[str] = field(default_factory=list)
    sources: tuple[str, ...] = ()  # empty: every source
    include_invalid: bool = False

    def filters(self) -> Filters:
        """The hard filters, as the store boundary takes them."""
        return Filters(self.since, self.until, self.kinds, self.entity_filter, sources=self.sources,
                       include_invalid=self.include_invalid)


def parse_kind(value: str | None) -> tuple[str, ...]:
    """--kind world|experience|opinion|observation|note|fact (comma-separated allowed)."""
    if not value:
        return ()
    kinds = []
    for part in value.split(","):
        name = _KIND_ALIASES.get(part.strip().lower(), part.strip().lower())
        if name not in KINDS and name != "fact":
            raise UserError(f"--kind {part!r}: expected one of {', '.join(KINDS)} (or fact)")
        kinds.append(name)
    return tuple(kinds)


def understand(req: RecallRequest, now: datetime, store: Store) -> Understood:
    """Apply the rules in the module docstring to a request."""
    from ..timeparse import extract_time_window, parse_since

    u = Understood(text=req.query.strip(), kinds=parse_kind(req.kind), include_invalid=req.include_invalid)
    if req.source:
        try:
            u.sources = parse_sources(req.source)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    try:
        u.since = parse_since(req.since, now) if req.since else None
        u.until = parse_since(req.until, now) if req.until else None
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if u.since and u.until and u.since > u.until:
        raise UserError(f"--since {req.since} is after --until {req.until}")
    entities = store.entities()
    if req.entity:
        key = resolve(entities, req.entity)
        if key is None:
            raise UserError(f"--entity {req.entity!r}: no such entity (see `memory status` for known entities)")
        u.entity_filter = (key,)
    window, rest = extract_time_window(u.text, now)
    if window is not None:
        u.time_phrase = window.phrase
        u.text = rest
        if window.mode == "boost":
            u.boost_window = (window.start, window.end)
        else:
            # The query's window narrows an explicit --since/--until, never widens it.
            narrowed = replace(u, since=max(filter(None, (u.since, window.start)), default=None),
                               until=min(filter(None, (u.until, window.end)), default=None))
            if store.holds_entries(narrowed.filters()) or not store.holds_entries(u.filters()):
                u.since, u.until = narrowed.since, narrowed.until
            else:
                # Nothing that the other filters let through is dated inside: entries written in
                # the days around it rank first (a note often tells of what happened a few days
                # before), with a notice.
                u.boost_window = (window.start and window.start - EMPTY_WINDOW_WIDEN,
                                  window.end and window.end + EMPTY_WINDOW_WIDEN)
                u.notices.append(f"no entry is dated {window.phrase!r}; entries from the "
                                 f"{EMPTY_WINDOW_WIDEN.days} days around it rank first")
    u.entity_boost = tuple(mentioned(entities, u.text))
    u.opinion = bool(_OPINION_RE.search(u.text))
    return u
