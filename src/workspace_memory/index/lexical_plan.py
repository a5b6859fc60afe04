"""Which query terms a store ranks by BM25 and which it takes newest first (pure; every store plans alike).

BM25 must score every match of an expression before it can sort them, so it only ranks the
matches of the rarest terms, up to a budget of matches in all: they carry most of the query's
information (the highest IDF). Entries with the remaining, common terms are taken newest
first: those that contain all of them, then those that contain any. That walk stops after
the pool's size, so it costs little however common the words are. recall.lexical still
scores every candidate on every term.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .base import Term

if TYPE_CHECKING:
    from .base import Filters

RANK_BUDGET = 4000  # matches that BM25 may score per query
# BM25 as FTS5 computes it: k1, b, and the weight of each column (the entry's text, the words of
# its file path, the previous entry of its section).
BM25_K1 = 1.2
BM25_B = 0.75
BM25_WEIGHTS = (1.0, 0.6, 0.3)


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module.
class Step:
    """One search of the plan: `terms` joined by OR (`any`) or AND (`all`), ranked by BM25 or newest first."""

    __slots__ = ("terms", "ranked", "join")

    def __init__(self, terms: tuple[Term, ...], ranked: bool, join: str = "any") -> None:
        self.terms, self.ranked = terms, ranked
        self.join = join  # "any" | "all"

    def __repr__(self) -> str:
        return f"Step(terms={self.terms!r}, ranked={self.ranked!r}, join={self.join!r})"


def plan(terms: Sequence[Term], dfs: dict[str, int], budget: int = RANK_BUDGET) -> list[Step]:
    """The steps for the word terms among `terms` (CJK runs are searched apart), rarest first."""
    ranked: list[Term] = []
    common: list[Term] = []
    for term in sorted((t for t in terms if not t.cjk and dfs[t.label] > 0), key=lambda t: (dfs[t.label], t.label)):
        if dfs[term.label] <= budget:
            ranked.append(term)
            budget -= dfs[term.label]
        else:
            common.append(term)
    steps: list[Step] = []
    if ranked:
        steps.append(Step(tuple(ranked), True))
    if len(common) > 1:
        steps.append(Step(tuple(common), False, "all"))
    if common:
        steps.append(Step(tuple(common), False))
    return steps


def bm25_idf(rows: int, hits: int) -> float:
    """FTS5's IDF of a phrase found in `hits` of `rows` rows (never below 1e-6)."""
    import math

    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0 else 1e-6


def bm25(frequencies: Sequence[float], idfs: Sequence[float], length: int, average_length: float) -> float:
    """FTS5's bm25() (positive, larger is better) of one row: `frequencies` are each phrase's
    column-weighted instance counts, `length` the row's tokens in all columns."""
    norm = BM25_K1 * (1 - BM25_B + BM25_B * length / (average_length or 1.0))
    return sum(idf * (f * (BM25_K1 + 1)) / (f + norm) for f, idf in zip(frequencies, idfs, strict=True) if f)


class Search(Protocol):
    """A store's words, as the one candidates loop asks them (index.sqlite.lexical.FtsSearch over
    FTS5, index.postgres.lexical.TsSearch over tsvector): each source the filters keep is searched
    apart, with its own counts, as FTS5 keeps one table a source."""

    def filter_sql(self, filters: Filters) -> tuple[str, list[Any]]:
        """The filters as SQL in the store's dialect (index.sql_filters)."""
        ...

    def sources(self, filters: Filters) -> list[str]:
        """The sources to search (those the filters keep that hold entries)."""
        ...

    def counts(self, source: str) -> dict[str, int]:
        """Each term's entries with it in text or path, in `source`: what `plan` ranks by."""
        ...

    def search(self, source: str, step: Step, where: str, params: list[Any], limit: int) -> dict[int, float]:
        """One step of the plan in `source`: entry id -> BM25 (at most `limit` entries). A store may
        keep a newest-first step's rows to score them all at once in `scored_later`."""
        ...

    def scored_later(self, source: str) -> dict[int, float]:
        """The BM25 of the newest-first rows kept by `search` in `source` (then forgotten)."""
        ...

    def cjk(self, term: Term, where: str, params: list[Any], limit: int) -> Iterable[tuple[int, float]]:
        """Entries that hold a CJK run, with its BM25 (CJK runs are searched over every source at once)."""
        ...

    def glued(self, term: Term, filters: Filters, limit: int) -> Iterable[tuple[int, float]]:
        """Markdown entries that hold a word glued to CJK text (`Term.glued`), as a CJK run's are
        found; none when the filters keep no Markdown entries."""
        ...


def candidates(search: Search, terms: Sequence[Term], limit: int, filters: Filters) -> dict[int, float]:
    """The BM25 pool for `terms` on any store: entry id -> BM25 (positive, larger is better).

    For each source the filters keep, the plan's steps (`plan`, over that source's counts), each
    entry keeping its best value; then the CJK runs, over every source, their values added; then
    the words glued to CJK text, in Markdown entries, each entry keeping its best value. The
    pool is only ordered by BM25; recall.lexical gives the comparable value.
    """
    pool: dict[int, float] = {}
    where, params = search.filter_sql(filters.replace(sources=()))  # the source is each search's own
    for source in search.sources(filters):
        for step in plan(terms, search.counts(source), RANK_BUDGET):
            _keep_best(pool, search.search(source, step, where, params, limit))
        _keep_best(pool, search.scored_later(source))
    where, params = search.filter_sql(filters)  # CJK runs: over every source the filters keep, at once
    for term in (t for t in terms if t.cjk):
        for cid, value in search.cjk(term, where, params, limit):
            pool[cid] = pool.get(cid, 0.0) + value
    for term in (t for t in terms if t.glued):  # a word glued to CJK text, in Markdown entries
        _keep_best(pool, dict(search.glued(term, filters, limit)))
    return pool


def _keep_best(pool: dict[int, float], found: dict[int, float]) -> None:
    for cid, value in found.items():
        pool[cid] = max(pool.get(cid, 0.0), value, 1e-9)
