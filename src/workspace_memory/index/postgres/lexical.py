"""Words in the Postgres store: BM25 candidates, which terms each candidate holds, term counts.

The same plan and the same numbers as the SQLite store (index.sqlite.lexical), so that scores
mean the same: the terms are searched as tsquery phrases over the tsvector of words.py (whose
words are FTS5's), BM25 is FTS5's formula computed here from the matched words' positions
(Postgres' ts_rank has no IDF), and document frequencies come from the per-workspace word
counts that every sync keeps (`lexemes`), or for phrases from a count over the GIN index.
CJK runs go through pg_trgm (the words of Chinese and Japanese are not split by spaces).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..base import OPEN_END, Filters, Term
from ..lexical_plan import BM25_WEIGHTS, Step, bm25, bm25_idf
from ..sql_filters import filter_sql
from .reads import DIALECT, scope
from .words import WEIGHT_CONTEXT, WEIGHT_PATH, WEIGHT_TEXT, any_of, lexemes, tsquery_phrase

if TYPE_CHECKING:
    import psycopg

_COLUMN_WEIGHT = {WEIGHT_TEXT: BM25_WEIGHTS[0], WEIGHT_PATH: BM25_WEIGHTS[1], WEIGHT_CONTEXT: BM25_WEIGHTS[2]}
MAIN = WEIGHT_TEXT + WEIGHT_PATH  # what a term must be in to count for coverage and IDF
WORDS_TEXT = "' ' || c.words::text"  # an entry's words as _positions reads them: a space before each


@dataclass(frozen=True)
class Stats:
    """The view's counters: Markdown entries (for BM25's N), their tokens (average length), largest
    id (IDF's N), each workspace's generation, the entries of facts struck as no longer true, and
    the session entries and their tokens (BM25's N and average length for that source), and the
    Markdown entries per language (the workspaces' languages, summed)."""

    chunks: int
    tokens: int
    max_id: int
    generations: tuple[int, ...]
    invalid: int = 0
    sessions: int = 0  # session entries, and their tokens: the other source's N and average length
    session_tokens: int = 0
    languages: tuple[tuple[str, int], ...] = ()


def term_words(term: Term) -> list[str]:
    """The term's lexemes; a stemmed word (Term.stem) as its one lexeme with "*": a prefix."""
    if term.stem:
        return [f"{w}*" for w in lexemes(term.stem)[:1]]
    return lexemes(term.label)


def _and(where: str) -> str:
    return f" AND {where}" if where else ""


# Each source's entries and where their words are counted (index.postgres.writer.WORD_TABLES): SQLite
# keeps them in two FTS tables, so BM25's counts and the plan's are per source there, and here too.
SOURCES = {"memory": ("c.role <> 'session'", "lexemes"), "sessions": ("c.role = 'session'", "session_lexemes")}


def sources(filters: Filters, stats: Stats) -> list[str]:
    """The sources a lexical pool searches: those the filters keep that hold entries."""
    memory, sessions = filters.source_roles()
    return [name for name, wanted, n in (("memory", memory, stats.chunks), ("sessions", sessions, stats.sessions))
            if wanted and n]


def frequencies(conn: psycopg.Connection, ws: list[int], terms: Sequence[Term],
                source: str | None = None) -> dict[str, tuple[int, int]]:
    """{label: (entries with the term in text or path, entries with it anywhere)}, among the entries of
    one source, or (None) of all. A CJK run is counted over every source (as SQLite's trigram table)."""
    role, tables = (SOURCES[source][0], [SOURCES[source][1]]) if source else ("", [t for _, t in SOURCES.values()])
    out: dict[str, tuple[int, int]] = {}
    single: dict[str, str] = {}
    for term in terms:
        words = term_words(term) if not term.cjk else []
        if term.cjk:
            count = conn.execute("SELECT count(*) FROM chunks WHERE workspace_id = ANY(%s) AND cjk AND text LIKE %s",
                                 (ws, _like(term.label))).fetchone()[0]
            out[term.label] = (count, count)
        elif not words:
            out[term.label] = (0, 0)
        elif len(words) == 1 and not words[0].endswith("*"):  # a prefix is counted as a phrase is
            single[term.label] = words[0]
        else:
            out[term.label] = conn.execute(
                "SELECT count(*) FILTER (WHERE words @@ %s::tsquery), count(*) FROM chunks c"
                f" WHERE workspace_id = ANY(%s) AND words @@ %s::tsquery{_and(role)}",
                (tsquery_phrase(words, MAIN), ws, tsquery_phrase(words))).fetchone()
    if single:
        rows = " UNION ALL ".join(f"SELECT lexeme, df_main, df_any FROM {t} WHERE workspace_id = ANY(%(ws)s)"
                                  " AND lexeme = ANY(%(lex)s)" for t in tables)
        counts = {lex: (m, a) for lex, m, a in conn.execute(
            f"SELECT lexeme, sum(df_main)::int, sum(df_any)::int FROM ({rows}) x GROUP BY lexeme",
            {"ws": ws, "lex": sorted(set(single.values()))})}
        for label, lex in single.items():
            out[label] = counts.get(lex, (0, 0))
    if source == "memory":  # and the CJK entries that hold a word glued to their text (Term.glued)
        for term in (t for t in terms if t.glued):
            extra = conn.execute(
                f"SELECT count(*) FROM chunks c WHERE workspace_id = ANY(%s) AND cjk AND lower(text) LIKE %s"
                f" AND NOT COALESCE(words @@ %s::tsquery, false){_and(role)}",
                (ws, _like(term.glued_text or ""), tsquery_phrase(term_words(term), MAIN))).fetchone()[0]
            main, anywhere = out[term.label]
            out[term.label] = (main + extra, anywhere + extra)
    return out


class TsSearch:
    """The words of the Postgres store as index.lexical_plan.candidates asks them: a source is
    "memory" or "sessions" (a role clause and its word counts, `SOURCES`); BM25 is FTS5's formula
    over the matched words' positions, as the SQLite store's numbers; CJK runs go through pg_trgm.
    `dfs[source]` are `frequencies` of that source, `dfs[None]` of all (for CJK runs)."""

    def __init__(self, conn: psycopg.Connection, ws: list[int], dfs: dict[str | None, dict[str, tuple[int, int]]],
                 stats: Stats, filters: Filters) -> None:
        self.conn, self.ws, self.dfs, self.stats = conn, ws, dfs, stats
        self.in_ws, self.ws_params = scope(ws)
        self.newest_order = "c.id + 0" if ends_in_the_past(filters) else "c.id"

    def filter_sql(self, filters: Filters) -> tuple[str, list[Any]]:
        return filter_sql(filters, DIALECT)

    def sources(self, filters: Filters) -> list[str]:
        return sources(filters, self.stats)

    def counts(self, source: str) -> dict[str, int]:
        return {label: main for label, (main, _) in self.dfs[source].items()}

    def search(self, source: str, step: Step, where: str, params: list[Any], limit: int) -> dict[int, float]:
        stats = self.stats
        # Without session entries in the view, "not a session" excludes nothing: leave the plans as they were.
        role = SOURCES[source][0] if stats.sessions else "true"
        n, tokens = (stats.chunks, stats.tokens) if source == "memory" else (stats.sessions, stats.session_tokens)
        average = tokens / n if n else 1.0
        counts = self.dfs[source]
        phrases = [term_words(t) for t in step.terms]
        idfs = [bm25_idf(n, counts[t.label][1]) for t in step.terms]
        query = (any_of if step.join == "any" else _all_of)(tsquery_phrase(p) or "" for p in phrases)
        # A newest-first step is one statement: its LIMIT rows with their words. Ids are
        # workspace_id << 32 | a counter, so this order is id order, and it is the primary key's.
        newest = "" if step.ranked else f" ORDER BY c.workspace_id DESC, {self.newest_order} DESC LIMIT %s"
        matched = _positions(self.conn, f"SELECT c.id, c.n_tokens, {WORDS_TEXT} FROM chunks c WHERE {self.in_ws}"
                             f" AND c.words @@ %s::tsquery AND {role}{_and(where)}{newest}",
                             [*self.ws_params, query, *params, *([] if step.ranked else [limit])], phrases)
        return _scored(matched, phrases, idfs, average, limit if step.ranked else None)

    def scored_later(self, source: str) -> dict[int, float]:
        return {}  # every step is scored as it is searched

    def cjk(self, term: Term, where: str, params: list[Any], limit: int) -> list[tuple[int, float]]:
        return _cjk_candidates(self.conn, self.ws, term.label, where, params, limit, self.dfs[None][term.label][0])

    def glued(self, term: Term, filters: Filters, limit: int) -> list[tuple[int, float]]:
        if "memory" not in self.sources(filters):
            return []  # Markdown entries only, and the filters leave them out (or there are none)
        where, params = filter_sql(filters, DIALECT)
        return _cjk_candidates(self.conn, self.ws, term.glued_text or "", f"{SOURCES['memory'][0]}{_and(where)}", params, limit,
                               self.dfs["memory"][term.label][0], fold=True)


def _scored(matched: dict[int, tuple[int, dict[str, dict[int, str]]]], phrases: list[list[str]],
            idfs: list[float], average: float, best: int | None) -> dict[int, float]:
    """One step's rows scored with BM25 (the `best` highest only, when given)."""
    scored = {cid: bm25([_frequency(words, p) for p in phrases], idfs, length, average)
              for cid, (length, words) in matched.items()}
    return dict(sorted(scored.items(), key=lambda item: (-item[1], -item[0]))[:best]) if best else scored


def ends_in_the_past(filters: Filters) -> bool:
    """True when the filters keep entries up to some day only (a time window, --until).

    A newest-first step then must not walk the primary key backwards (`c.id + 0` orders the same
    but no index gives that order): the walk starts at the newest entries and filters its way
    back to the window, all of the workspace for a window years ago (63 ms at 100k entries for a
    day in 2019), and the planner cannot see it coming, as it takes `t_start <= end` and
    `t_end >= start` to be independent (23% of the entries for that day, not 0.02%). Sorting the
    matches that lie inside (the window's index and the words' GIN index) costs what the window
    holds. A lower bound alone (--since) keeps the walk: the newest entries pass first.
    """
    return any(latest_start != OPEN_END for latest_start, _ in filters.time_bounds())


def _all_of(phrases: Any) -> str:
    return " & ".join(f"({p})" for p in phrases)


def _positions(conn: psycopg.Connection, sql: str, params: list[Any],
               phrases: list[list[str]]) -> dict[int, tuple[int, dict[str, dict[int, str]]]]:
    """For each entry of `sql` (rows of id, tokens, WORDS_TEXT) that holds a query word:
    (its tokens, {query word: {position: column weight}}).

    The words are read from the tsvector's text form (" 'risk':14A,38B 'the':6A"), which Postgres
    writes in C, instead of unnest(), which builds two arrays for every word of every matching
    entry (110 ms for a word in 3,850 of 100,000 entries, against 30). The space before each
    word lets the pattern start with a literal (three times faster than "start or space").
    """
    quoted = {_quoted(w): w for p in phrases for w in p if not w.endswith("*")}
    prefixes = {_quoted(w[:-1])[:-1]: w for p in phrases for w in p if w.endswith("*")}  # "'remplac": "remplac*"
    if not quoted and not prefixes:
        return {}
    patterns = [*map(re.escape, sorted(quoted)), *(re.escape(p) + "[^']*'" for p in sorted(prefixes))]
    entry = re.compile(" (" + "|".join(patterns) + "):([0-9A-D,]+)")
    out: dict[int, tuple[int, dict[str, dict[int, str]]]] = {}
    for cid, length, text in conn.execute(sql, params):
        words: dict[str, dict[int, str]] = {}
        for lexeme, positions in entry.findall(text):
            word = quoted.get(lexeme) or next(w for p, w in prefixes.items() if lexeme.startswith(p))
            words.setdefault(word, {}).update(_weighted_positions(positions))
        if words:
            out[cid] = (length, words)
    return out


def _quoted(lexeme: str) -> str:
    """A lexeme as a tsvector's text form writes it: in single quotes, with ' and \\ doubled."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _weighted_positions(text: str) -> dict[int, str]:
    """{position: weight} of "14A,38B,40" (no letter: weight D, as unnest() says)."""
    out: dict[int, str] = {}
    for item in text.split(","):
        if item[-1].isdigit():
            out[int(item)] = "D"
        else:
            out[int(item[:-1])] = item[-1]
    return out


def _frequency(words: dict[str, dict[int, str]], phrase: list[str]) -> float:
    """The phrase's instances in one entry, each weighted by its column (FTS5's bm25 column weights)."""
    first = words.get(phrase[0])
    if not first:
        return 0.0
    total = 0.0
    for start, weight in first.items():
        if all(start + i in words.get(w, ()) for i, w in enumerate(phrase[1:], 1)):
            total += _COLUMN_WEIGHT.get(weight, 0.0)
    return total


def _like(run: str) -> str:
    return "%" + run.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _cjk_candidates(conn: psycopg.Connection, ws: list[int], run: str, where: str, params: list[Any], limit: int,
                    hits: int, fold: bool = False) -> list[tuple[int, float]]:
    """Entries whose text holds the CJK run, with FTS5 trigram BM25 (runs of 1-2 characters: 1.0); with
    `fold`, a lower-case word in any case (the trigram table's rule for a word glued to CJK text)."""
    in_ws, ws_params = scope(ws)
    text = "lower(c.text)" if fold else "c.text"
    rows = conn.execute(f"SELECT c.id, {text} FROM chunks c WHERE {in_ws} AND c.cjk"
                        f" AND {text} LIKE %s{_and(where)} ORDER BY c.id", [*ws_params, _like(run), *params]).fetchall()
    if len(run) < 3:  # newest first, as SQLite's scan of its CJK subset
        return [(cid, 1.0) for cid, _ in reversed(rows[-limit:])]
    n, total = conn.execute("SELECT count(*), COALESCE(sum(greatest(length(text) - 2, 0)), 0) FROM chunks"
                            " WHERE workspace_id = ANY(%s) AND cjk", (ws,)).fetchone()
    idf = bm25_idf(n, len(rows) if fold else hits)  # a glued word: the CJK entries that hold it, as the trigrams
    scored = [(cid, bm25([_occurrences(text, run)], [idf], max(len(text) - 2, 0), total / n if n else 1.0))
              for cid, text in rows]
    return sorted(scored, key=lambda item: -item[1])[:limit]


def _occurrences(text: str, run: str) -> int:
    """Overlapping occurrences of `run` in `text` (instances of the trigram phrase)."""
    count, at = 0, text.find(run)
    while at >= 0:
        count += 1
        at = text.find(run, at + 1)
    return count


def term_matches(conn: psycopg.Connection, ws: list[int], terms: Sequence[Term], ids: Sequence[int],
                 context_share: float) -> dict[str, dict[int, float]]:
    """For each term, the candidates that contain it (1.0) or whose previous entry of the same section
    does (`context_share`), as index.sqlite.lexical.term_matches decides it."""
    words = [term_words(t) if not t.cjk else [] for t in terms]
    checks, params = [], []
    for term, phrase in zip(terms, words, strict=True):
        if term.cjk or not phrase:
            continue
        checks.append("COALESCE(c.words @@ %s::tsquery, false), COALESCE(p.words @@ %s::tsquery, false)")
        params += [tsquery_phrase(phrase, MAIN), tsquery_phrase(phrase, WEIGHT_TEXT)]
    columns = ", ".join(["c.id", "c.text", *checks])
    in_ws, ws_params = scope(ws)
    rows = conn.execute(
        f"SELECT {columns} FROM chunks c LEFT JOIN chunks p ON p.workspace_id = c.workspace_id AND p.id = c.id - 1"
        f" AND p.path = c.path AND p.heading = c.heading WHERE {in_ws} AND c.id = ANY(%s)",
        [*params, *ws_params, list(ids)]).fetchall()
    out: dict[str, dict[int, float]] = {}
    column = 2
    for term, phrase in zip(terms, words, strict=True):
        if term.cjk:
            out[term.label] = {r[0]: 1.0 for r in rows if term.label in r[1]}
            continue
        if not phrase:
            out[term.label] = {}
            continue
        hits: dict[int, float] = {}
        for r in rows:
            if r[column] or (term.glued and term.glued_in(r[1])):
                hits[r[0]] = 1.0
            elif r[column + 1]:
                hits[r[0]] = context_share
        out[term.label] = hits
        column += 2
    return out
