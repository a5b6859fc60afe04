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

from ..tokens import has_cjk

BM25_SHARE = 0.15
# Column weights for bm25(): the entry text, then the words of its file path.
BM25_WEIGHTS = (1.0, 0.6)

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


def search(conn: sqlite3.Connection, terms: list[Term], *, limit: int, where: str = "",
           params: tuple = ()) -> list[LexicalHit]:
    """Top `limit` chunks for the OR of `terms`, restricted by a WHERE clause over `c` (chunks)."""
    if not terms:
        return []
    bm25: dict[int, float] = {}
    fts_terms = [t for t in terms if t.fts]
    if fts_terms:
        expr = " OR ".join(t.fts for t in fts_terms)  # type: ignore[misc]
        sql = (
            f"SELECT c.id, -bm25(chunks_fts, {BM25_WEIGHTS[0]}, {BM25_WEIGHTS[1]}) AS b FROM chunks_fts "
            f"JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ?{_filter_sql(where)} "
            "ORDER BY b DESC LIMIT ?"
        )
        for cid, b in conn.execute(sql, (expr, *params, limit)):
            bm25[cid] = max(b, 1e-9)
    cjk_terms = [t for t in terms if t.cjk]
    for term in cjk_terms:
        for cid, b in _cjk_candidates(conn, term.cjk, where, params, limit):  # type: ignore[arg-type]
            bm25[cid] = bm25.get(cid, 0.0) + b
    if not bm25:
        return []
    return _score(conn, terms, bm25)


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


def _cjk_hits(conn: sqlite3.Connection, run: str, ids: list[int]) -> tuple[int, list[tuple[int]]]:
    """(document frequency, matching ids among `ids`) for a CJK run."""
    marks = ",".join("?" * len(ids))
    if len(run) >= 3:
        phrase = '"' + run.replace('"', "") + '"'
        df = conn.execute("SELECT COUNT(*) FROM chunks_trigram WHERE chunks_trigram MATCH ?", (phrase,)).fetchone()[0]
        hits = conn.execute(
            f"SELECT rowid FROM chunks_trigram WHERE chunks_trigram MATCH ? AND rowid IN ({marks})", (phrase, *ids)
        ).fetchall()
        return df, hits
    df = conn.execute(f"SELECT COUNT(*) FROM chunks WHERE instr(text, ?) > 0 AND id IN ({_CJK_IDS})",
                      (run,)).fetchone()[0]
    hits = conn.execute(f"SELECT id FROM chunks WHERE instr(text, ?) > 0 AND id IN ({marks})", (run, *ids)).fetchall()
    return df, hits


def _score(conn: sqlite3.Connection, terms: list[Term], bm25: dict[int, float]) -> list[LexicalHit]:
    total = conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] or 1
    ids = list(bm25)
    marks = ",".join("?" * len(ids))
    idf_sum = 0.0
    gained: dict[int, float] = dict.fromkeys(ids, 0.0)
    matched: dict[int, list[str]] = {cid: [] for cid in ids}
    for term in terms:
        if term.fts:
            df = conn.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (term.fts,)).fetchone()[0]
            hits = conn.execute(
                f"SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN ({marks})", (term.fts, *ids)
            ).fetchall()
        else:
            df, hits = _cjk_hits(conn, term.cjk, ids)  # type: ignore[arg-type]
        idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
        idf_sum += idf
        for (cid,) in hits:
            gained[cid] += idf
            matched[cid].append(term.label)
    top = max(bm25.values())
    out = []
    for cid in ids:
        coverage = gained[cid] / idf_sum if idf_sum > 0 else 0.0
        score = coverage * (1 - BM25_SHARE + BM25_SHARE * bm25[cid] / top)
        out.append(LexicalHit(cid, score, bm25[cid], coverage, matched[cid]))
    out.sort(key=lambda h: (-h.score, -h.bm25, h.chunk_id))
    return out


def has_cjk_terms(terms: list[Term]) -> bool:
    """True when the query needs the trigram path."""
    return any(t.cjk or (t.fts and has_cjk(t.label)) for t in terms)
