"""The lexical channel: FTS5 BM25 candidates and a query-stable term-coverage score.

BM25 values are not comparable between queries, so they only *order* candidates.
The score we report is IDF-weighted term coverage: the share of the query's
information (sum of IDF of its terms) that a chunk contains, in 0..1, nudged by
BM25 within the candidate pool:

    coverage(c) = sum(idf(t) for t in terms matched by c) / sum(idf(t) for t in terms)
    lexical(c)  = coverage(c) * (1 - BM25_SHARE + BM25_SHARE * bm25(c) / max bm25 in the pool)

with idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)). Identifiers such as `a828e60` or
`memorySearch.query.hybrid` are rare, carry a high IDF and become FTS phrases, so an
exact hit ranks first. CJK text goes through the trigram table, since unicode61
does not split Chinese or Japanese into words.
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass, field

from ..index.rows import path_words
from ..index.sqlite.schema import FTS_TOKENIZER
from ..tokens import has_cjk

BM25_SHARE = 0.15
RANK_BUDGET = 4000  # chunks that BM25 may score per query, see _fts_plan
# Column weights for bm25(): the entry text, the words of its file path, the previous entry.
BM25_WEIGHTS = (1.0, 0.6, 0.3)
# A word found only in the previous entry of the section counts this much towards coverage:
# "Yesterday I took the kids there" answers a question about the museum named the line before.
# (LoCoMo, hybrid, evidence recall at 2,000 characters: 0.5 gave 0.747, 0.7 gave 0.755.)
CONTEXT_SHARE = 0.7
_MAIN = "{search_text path_text}"

_STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does doing done for from had has have having he her
    hers him his how i if in into is it its me my of on or our ours she so than that the their them then there
    these they this those to too us was we were what when where which who whom why will with would you your
    yours about after again all also am any because before being between both during each few further here
    just more most no nor not now off once only other out over own same should some such through under until
    up very tell know""".split()
)
_TOKEN_RE = re.compile(r"\S+")
_WORD_RE = re.compile(r"\w+", re.UNICODE)
_CJK_RUN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+")


@dataclass(frozen=True)
class Term:
    """One unit of the query: an FTS5 expression (word or phrase) or a CJK substring."""

    label: str
    fts: str | None = None  # for chunks_fts
    cjk: str | None = None  # for chunks_trigram / LIKE


@dataclass
class LexicalHit:
    chunk_id: int
    score: float  # 0..1, see module docstring
    bm25: float  # positive: larger is better
    coverage: float
    matched: list[str] = field(default_factory=list)


def query_terms(text: str) -> list[Term]:
    """Turn free text into terms; stopwords go unless nothing else is left."""
    terms: list[Term] = []
    seen: set[str] = set()
    for raw in _TOKEN_RE.findall(text):
        for run in _CJK_RUN_RE.findall(raw):
            if run not in seen:
                seen.add(run)
                terms.append(Term(run, cjk=run))
        latin = _CJK_RUN_RE.sub(" ", raw)
        words = [w.lower() for w in _WORD_RE.findall(latin)]
        if not words:
            continue
        label = " ".join(words)
        if label in seen:
            continue
        seen.add(label)
        # "memorySearch.query.hybrid" -> the phrase "memorysearch query hybrid"
        terms.append(Term(label, fts='"' + label.replace('"', "") + '"'))
    content = [t for t in terms if t.cjk or t.label not in _STOPWORDS]
    return content or terms


def _filter_sql(where: str) -> str:
    return f" AND {where}" if where else ""


def candidates(conn: sqlite3.Connection, terms: list[Term], *, limit: int, where: str = "",
               params: tuple = ()) -> dict[int, float]:
    """The FTS5 pool for `terms`: chunk id -> BM25 (positive, larger is better).

    At most `limit` chunks per FTS expression, restricted by a WHERE clause over `c`
    (chunks). The pool is only ordered by BM25; `score` gives the comparable value.
    """
    if not terms:
        return {}
    dfs = _document_frequencies(conn, terms)
    bm25: dict[int, float] = {}
    for expr, by_rank in _fts_plan([t for t in terms if t.fts], dfs):
        order = "b DESC" if by_rank else "chunks_fts.rowid DESC"
        weights = ", ".join(map(str, BM25_WEIGHTS))
        if where:
            sql = (f"SELECT c.id, -bm25(chunks_fts, {weights}) AS b FROM chunks_fts "
                   f"JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? AND {where} "
                   f"ORDER BY {order} LIMIT ?")
        else:  # no join: a third of the time when a word matches thousands of chunks
            sql = (f"SELECT chunks_fts.rowid, -bm25(chunks_fts, {weights}) AS b FROM chunks_fts "
                   f"WHERE chunks_fts MATCH ? ORDER BY {order} LIMIT ?")
        for cid, b in conn.execute(sql, (expr, *params, limit)):
            bm25[cid] = max(bm25.get(cid, 0.0), b, 1e-9)
    for term in (t for t in terms if t.cjk):
        for cid, b in _cjk_candidates(conn, term.cjk, where, params, limit):  # type: ignore[arg-type]
            bm25[cid] = bm25.get(cid, 0.0) + b
    return bm25


def search(conn: sqlite3.Connection, terms: list[Term], *, limit: int, where: str = "",
           params: tuple = ()) -> list[LexicalHit]:
    """Top `limit` chunks for `terms` (per FTS expression), scored, best first."""
    return score(conn, terms, candidates(conn, terms, limit=limit, where=where, params=params))


def _fts_plan(terms: list[Term], dfs: dict[str, int]) -> list[tuple[str, bool]]:
    """FTS5 expressions to run, each with whether to order by BM25 (else newest first).

    BM25 costs about 2 µs for every chunk that matches (20 ms for 10,000), since FTS5
    must score all matches before it can sort them. So BM25 only ranks the matches of
    the rarest words, up to RANK_BUDGET matches in all; they carry most of the query's
    information (the highest IDF). Chunks with the remaining, common words are taken
    newest first: those that contain all of them, then those that contain any. That
    walk stops after `limit` matches, so it costs little however common the words are.
    The score (`score`) still counts every word of every candidate.
    """
    ranked: list[str] = []
    common: list[str] = []
    budget = RANK_BUDGET
    for term in sorted((t for t in terms if dfs[t.label] > 0), key=lambda t: (dfs[t.label], t.label)):
        if dfs[term.label] <= budget:
            ranked.append(term.fts)  # type: ignore[arg-type]
            budget -= dfs[term.label]
        else:
            common.append(term.fts)  # type: ignore[arg-type]
    plan: list[tuple[str, bool]] = []
    if ranked:
        plan.append((" OR ".join(ranked), True))
    if len(common) > 1:
        plan.append((" AND ".join(common), False))
    if common:
        plan.append((" OR ".join(common), False))
    return plan


class _DfCache:
    """Document frequencies per connection, valid while the index does not change.

    Counting a word's matches walks its whole posting list (5 ms for a word in 100,000
    chunks); a long-lived process (MCP server, benchmark) asks for the same words again
    and again. The key is `PRAGMA data_version` (bumped by other connections' commits)
    and the index generation (bumped by every sync that changes chunks, ours included),
    so a stale count is never used. (Not `total_changes`: the scratch table bumps it.)
    """

    def __init__(self) -> None:
        self.state: tuple[int, int] | None = None
        self.counts: dict[str, int] = {}

    def get(self, conn: sqlite3.Connection, term: Term) -> int:
        state = (conn.execute("PRAGMA data_version").fetchone()[0],
                 conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone())
        if state != self.state:
            self.state, self.counts = state, {}
        if term.label not in self.counts:
            self.counts[term.label] = _count_matches(conn, term)
        return self.counts[term.label]


def _document_frequencies(conn: sqlite3.Connection, terms: list[Term]) -> dict[str, int]:
    return {t.label: _document_frequency(conn, t) for t in terms}


def _document_frequency(conn: sqlite3.Connection, term: Term) -> int:
    cache = getattr(conn, "df_cache", None)
    if cache is None:
        cache = _DfCache()
        try:
            conn.df_cache = cache  # type: ignore[attr-defined]  # index.store.IndexConnection allows it
        except AttributeError:
            return _count_matches(conn, term)  # a plain sqlite3 connection: no cache
    return cache.get(conn, term)


def _count_matches(conn: sqlite3.Connection, term: Term) -> int:
    if term.fts:
        return conn.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ?",
                            (f"{_MAIN} : {term.fts}",)).fetchone()[0]
    run = term.cjk or ""
    if len(run) >= 3:
        phrase = '"' + run.replace('"', "") + '"'
        return conn.execute("SELECT COUNT(*) FROM chunks_trigram WHERE chunks_trigram MATCH ?", (phrase,)).fetchone()[0]
    return conn.execute(f"SELECT COUNT(*) FROM chunks WHERE instr(text, ?) > 0 AND id IN ({_CJK_IDS})",
                        (run,)).fetchone()[0]


def _cjk_candidates(conn: sqlite3.Connection, run: str, where: str, params: tuple, limit: int):  # noqa: ANN202
    if len(run) >= 3:
        sql = (
            "SELECT c.id, -bm25(chunks_trigram) FROM chunks_trigram JOIN chunks c ON c.id = chunks_trigram.rowid "
            f"WHERE chunks_trigram MATCH ?{_filter_sql(where)} ORDER BY 2 DESC LIMIT ?"
        )
        return conn.execute(sql, ('"' + run.replace('"', "") + '"', *params, limit)).fetchall()
    # Trigrams cannot match one- or two-character words: scan the (small) CJK subset.
    sql = (
        f"SELECT c.id, 1.0 FROM chunks c WHERE instr(c.text, ?) > 0 AND c.id IN ({_CJK_IDS}){_filter_sql(where)} "
        "LIMIT ?"
    )
    return conn.execute(sql, (run, *params, limit)).fetchall()


_CJK_IDS = "SELECT rowid FROM chunks_trigram"


def _scratch(conn: sqlite3.Connection) -> str:
    """A private in-memory FTS5 table with the index's tokenizer, to test terms on candidates.

    Matching each term against just the candidates here takes microseconds, where the
    same MATCH on the main table walks the term's whole posting list. Contentless, so
    that 'delete-all' empties it without tokenizing every row again (half the cost).
    """
    conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.recall_scratch USING "
        f"fts5(search_text, path_text, context_text, content='', tokenize='{FTS_TOKENIZER}')"
    )
    return "recall_scratch"


def _matches_by_term(conn: sqlite3.Connection, terms: list[Term], ids: list[int]) -> dict[str, dict[int, float]]:
    """For each term, the candidates that contain it (1.0) or whose context does (CONTEXT_SHARE).

    Uses FTS5's own tokenizer, so "replies" matches "reply" exactly as the index does.
    """
    marks = ",".join("?" * len(ids))
    rows = conn.execute(
        "SELECT c.id, c.heading, c.text, c.path, COALESCE(p.text, '') FROM chunks c LEFT JOIN chunks p"
        f" ON p.id = c.id - 1 AND p.path = c.path AND p.heading = c.heading WHERE c.id IN ({marks})",
        ids,
    ).fetchall()
    table = _scratch(conn)
    out: dict[str, dict[int, float]] = {}
    try:
        conn.executemany(
            f"INSERT INTO temp.{table}(rowid, search_text, path_text, context_text) VALUES (?, ?, ?, ?)",
            [(cid, f"{heading}\n{text}" if heading else text, path_words(path), previous)
             for cid, heading, text, path, previous in rows],
        )
        for term in terms:
            if not term.fts:
                out[term.label] = {cid: 1.0 for cid, _, text, _, _ in rows if term.cjk and term.cjk in text}
                continue
            weights: dict[int, float] = {}
            for column, share in ((f"context_text : {term.fts}", CONTEXT_SHARE), (f"{_MAIN} : {term.fts}", 1.0)):
                for (cid,) in conn.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ?", (column,)):
                    weights[cid] = share
            out[term.label] = weights
    finally:
        conn.execute(f"INSERT INTO temp.{table}({table}) VALUES ('delete-all')")
    return out


def score(conn: sqlite3.Connection, terms: list[Term], bm25: dict[int, float]) -> list[LexicalHit]:
    """Score chunks by the formula of the module docstring, best first.

    `bm25` maps every chunk to score to its BM25 from the FTS pool, or 0 for chunks that
    another channel found (they get their coverage, without the BM25 share).
    """
    if not bm25:
        return []
    ids = list(bm25)
    if not terms:
        return [LexicalHit(cid, 0.0, bm25[cid], 0.0) for cid in ids]
    dfs = _document_frequencies(conn, terms)
    total = conn.execute("SELECT MAX(id) FROM chunks").fetchone()[0] or 1
    matches = _matches_by_term(conn, terms, ids)
    idf_sum = 0.0
    gained: dict[int, float] = dict.fromkeys(ids, 0.0)
    matched: dict[int, list[str]] = {cid: [] for cid in ids}
    for term in terms:
        df = min(dfs[term.label], total)
        idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
        idf_sum += idf
        for cid, share in matches[term.label].items():
            gained[cid] += idf * share
            matched[cid].append(term.label)
    top = max(bm25.values()) or 1.0
    out = []
    for cid in ids:
        coverage = gained[cid] / idf_sum if idf_sum > 0 else 0.0
        value = coverage * (1 - BM25_SHARE + BM25_SHARE * bm25[cid] / top)
        out.append(LexicalHit(cid, value, bm25[cid], coverage, matched[cid]))
    out.sort(key=lambda h: (-h.score, -h.bm25, h.chunk_id))
    return out


def has_cjk_terms(terms: list[Term]) -> bool:
    """True when the query needs the trigram path."""
    return any(t.cjk or (t.fts and has_cjk(t.label)) for t in terms)
