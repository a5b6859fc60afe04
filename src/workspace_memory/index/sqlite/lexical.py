"""Words in the SQLite index: FTS5 BM25 candidates and term counts.

Which terms each candidate holds is index.sqlite.term_scratch's.

recall.lexical turns these into the comparable coverage score; this module only knows FTS5.
Terms are phrases of lower-case words (`"memorysearch query hybrid"`) on `chunks_fts`
(porter + unicode61), or `sessions_fts` for session messages, each searched only when the
recall wants that source; CJK runs go through the trigram table, since unicode61 does not split
Chinese or Japanese into words.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Protocol

from .. import lexical_plan
from ..base import Filters, Term
from ..sql_filters import filter_sql
from . import bm25 as table_bm25
from .reads import DIALECT
from .writer import FTS_TABLES

ENTRY_OVERFETCH = 2  # rows fetched per entry wanted, at first (see _distinct_entries)
# Column weights for bm25(): the entry text, the words of its file path, the previous entry.
BM25_WEIGHTS = lexical_plan.BM25_WEIGHTS
MAIN_COLUMNS = "{search_text path_text}"  # what a term must be in to count (coverage, IDF)
_MAIN = MAIN_COLUMNS
_CJK_IDS = "SELECT rowid FROM chunks_trigram"


class Counts(Protocol):
    """What the newest-first BM25 needs counted, whether any entry holds CJK text, and which entry
    each row is a piece of (index.sqlite.read_cache.ReadCache keeps all three)."""

    def phrase_rows(self, conn: sqlite3.Connection, table: str, phrase: str) -> int: ...

    def totals(self, conn: sqlite3.Connection, table: str) -> tuple[int, int]: ...

    def holds_cjk(self, conn: sqlite3.Connection) -> bool: ...

    def entry_keys(self, conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, tuple[str, int]]: ...


def fts_phrase(term: Term) -> str:
    """The FTS5 phrase for a term of words; a stemmed word as its prefix query ("remplac"*: FTS5 puts
    the prefix through the same Porter as the index's words, so both sides agree)."""
    if term.stem:
        return '"' + term.stem.replace('"', "") + '"*'
    return '"' + term.label.replace('"', "") + '"'


def fts_tables(filters: Filters) -> list[str]:
    """The FTS5 tables that hold the words of the sources the filters keep."""
    memory, sessions = filters.source_roles()
    return [table for table, wanted in zip(FTS_TABLES, (memory, sessions), strict=True) if wanted]


class FtsSearch:
    """The words of the SQLite index as index.lexical_plan.candidates asks them: a source is an FTS5
    table (`chunks_fts`, `sessions_fts`), CJK runs go through the trigram table. Ranked steps are
    scored by FTS5's bm25(); the rows of newest-first steps are kept and scored at the end, once for
    all the steps of the same words, by index.sqlite.bm25 (the same number, without FTS5's walk of
    every match)."""

    def __init__(self, conn: sqlite3.Connection, dfs: dict[str, dict[str, int]], cache: Counts) -> None:
        self.conn, self.dfs, self.cache = conn, dfs, cache  # dfs: each table's term counts
        self._newest: dict[tuple[Term, ...], set[int]] = {}  # the newest-first steps' rows, by their terms

    def filter_sql(self, filters: Filters) -> tuple[str, list]:
        return filter_sql(filters, DIALECT)

    def sources(self, filters: Filters) -> list[str]:
        return fts_tables(filters)

    def counts(self, source: str) -> dict[str, int]:
        return self.dfs[source]

    def search(self, source: str, step: lexical_plan.Step, where: str, params: list, limit: int) -> dict[int, float]:
        table, weights = source, ", ".join(map(str, BM25_WEIGHTS))
        score = f"-bm25({table}, {weights})" if step.ranked else "0.0"
        order = "b DESC" if step.ranked else f"{table}.rowid DESC"
        if where:
            sql = (f"SELECT c.id, {score} AS b FROM {table} "
                   f"JOIN chunks c ON c.id = {table}.rowid WHERE {table} MATCH ? AND {where} "
                   f"ORDER BY {order} LIMIT ?")
        else:  # no join: a third of the time when a word matches thousands of chunks
            sql = (f"SELECT {table}.rowid, {score} AS b FROM {table} "
                   f"WHERE {table} MATCH ? ORDER BY {order} LIMIT ?")
        found = _distinct_entries(self.conn, sql, (fts_expression(step), *params), limit, self.cache)
        if step.ranked:
            return dict(found)
        self._newest.setdefault(step.terms, set()).update(cid for cid, _ in found)
        return {}

    def scored_later(self, source: str) -> dict[int, float]:
        out: dict[int, float] = {}
        for step_terms, ids in self._newest.items():
            for cid, b in _newest_bm25(self.conn, source, step_terms, sorted(ids), self.cache).items():
                out[cid] = max(out.get(cid, 0.0), b)
        self._newest = {}
        return out

    def cjk(self, term: Term, where: str, params: list, limit: int) -> list[tuple[int, float]]:
        return _cjk_candidates(self.conn, term.label, where, params, limit)

    def glued(self, term: Term, filters: Filters, limit: int) -> list[tuple[int, float]]:
        if not filters.source_roles()[0] or not self.cache.holds_cjk(self.conn):
            return []  # Markdown entries only, and the filters leave them out; or no entry holds CJK text
        where, params = filter_sql(filters.replace(sources=("memory",)), DIALECT)
        return _cjk_candidates(self.conn, term.glued_text or "", where, params, limit)


def _newest_bm25(conn: sqlite3.Connection, table: str, terms: Sequence[Term], ids: list[int],
                 cache: Counts) -> dict[int, float]:
    """FTS5's bm25() of rows found newest first, for the OR of `terms` (index.sqlite.bm25)."""
    phrases = [fts_phrase(t) for t in terms]
    hits = [cache.phrase_rows(conn, table, phrase) for phrase in phrases]
    return table_bm25.scores(conn, table, phrases, hits, ids, cache.totals(conn, table))


def _distinct_entries(conn: sqlite3.Connection, sql: str, params: tuple, limit: int,
                      cache: Counts) -> list[tuple[int, float]]:
    """The first `limit` rows (id, bm25) of `sql` that belong to different entries.

    A long entry is split into pieces that match the same words: one pasted 70,000-character
    message would fill the pool and push every other entry out. So the best piece stands for
    its entry, and the query runs again with a larger LIMIT while pieces of entries already
    kept fill the rows (a larger LIMIT costs little: FTS5 scores every match either way).
    """
    fetch = limit * ENTRY_OVERFETCH
    while True:
        rows = conn.execute(sql, (*params, fetch)).fetchall()
        entries = cache.entry_keys(conn, [cid for cid, _ in rows])
        out, seen = [], set()
        for cid, b in rows:
            key = entries.get(cid, ("", cid))
            if key not in seen:
                seen.add(key)
                out.append((cid, b))
                if len(out) == limit:
                    return out
        if len(rows) < fetch:
            return out
        fetch *= 4


def fts_expression(step: lexical_plan.Step) -> str:
    """The FTS5 expression of one step of the plan: its phrases joined by AND or OR."""
    return (" AND " if step.join == "all" else " OR ").join(fts_phrase(t) for t in step.terms)


def count_matches(conn: sqlite3.Connection, term: Term, table: str = "chunks_fts") -> int:
    """How many chunks of an FTS table contain the term (its document frequency; CJK: in any table)."""
    if not term.cjk:
        count = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?",
                             (f"{_MAIN} : {fts_phrase(term)}",)).fetchone()[0]
        if term.glued and table == FTS_TABLES[0]:  # and the CJK entries that hold it glued to their text
            count += conn.execute(
                "SELECT COUNT(*) FROM chunks_trigram JOIN chunks c ON c.id = chunks_trigram.rowid"
                " WHERE chunks_trigram MATCH ? AND c.role IS NOT 'session' AND c.id NOT IN"
                f" (SELECT rowid FROM {table} WHERE {table} MATCH ?)",
                ('"' + (term.glued_text or "").replace('"', "") + '"', f"{_MAIN} : {fts_phrase(term)}")).fetchone()[0]
        return count
    if table != FTS_TABLES[0]:
        return 0  # CJK runs are counted once, over the trigram table that holds every source
    run = term.label
    if len(run) >= 3:
        return conn.execute("SELECT COUNT(*) FROM chunks_trigram WHERE chunks_trigram MATCH ?",
                            ('"' + run.replace('"', "") + '"',)).fetchone()[0]
    return conn.execute(f"SELECT COUNT(*) FROM chunks WHERE instr(text, ?) > 0 AND id IN ({_CJK_IDS})",
                        (run,)).fetchone()[0]


def _cjk_candidates(conn: sqlite3.Connection, run: str, where: str, params: list, limit: int) -> list:
    extra = f" AND {where}" if where else ""
    if len(run) >= 3:
        sql = (
            "SELECT c.id, -bm25(chunks_trigram) FROM chunks_trigram JOIN chunks c ON c.id = chunks_trigram.rowid "
            f"WHERE chunks_trigram MATCH ?{extra} ORDER BY 2 DESC LIMIT ?"
        )
        return conn.execute(sql, ('"' + run.replace('"', "") + '"', *params, limit)).fetchall()
    # Trigrams cannot match one- or two-character words: scan the CJK subset, newest first (as the
    # plan's newest-first steps for common words: a question's piece such as 需要 is in many entries).
    sql = (f"SELECT c.id, 1.0 FROM chunks c WHERE instr(c.text, ?) > 0 AND c.id IN ({_CJK_IDS}){extra}"
           " ORDER BY c.id DESC LIMIT ?")
    return conn.execute(sql, (run, *params, limit)).fetchall()
