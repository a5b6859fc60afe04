"""The recall pipeline: one path for every query (DESIGN §3).

 1. Understand the query: filters (--since/--until/--kind/--entity), a time phrase,
    @mentions (recall.query).
 2. Find candidates: FTS5 BM25 (lexical), and vectors when a model is available
    (semantic); each pool is k x CANDIDATE_MULTIPLIER.
 3. Relevance in 0..1: lexical coverage, cosine, or their fusion (recall.fuse).
 4. final = relevance x recency x importance (recall.rank) x what the question asks for:
    entries that miss a named entity, an "around" window or an opinion question, and
    world facts that a newer one replaced (present-tense questions only,
    recall.supersession), are multiplied by a factor below 1. Everything stays in 0..1.
 5. With vectors, MMR (recall.semantic) reorders the best results so that near-copies
    of a better one give way; then drop near-duplicates; drop results under MIN_SCORE unless nothing would be left.
 6. Pack into k results and the token budget (recall.pack).
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from ..errors import UserError
from ..index.rows import OPEN_END, OPEN_START
from . import lexical
from .pack import pack, packet
from .query import RecallRequest, Understood, understand
from .rank import importance_factor, recency_factor
from .supersession import SUPERSEDED_FACTOR, superseded_among

CANDIDATE_MULTIPLIER = 4
MIN_POOL = 40
MIN_SCORE = 0.05  # below this a result shares neither wording nor meaning with the query
# What the question asks for, as factors (<= 1) on entries that miss it. A factor, not a
# boost towards 1 before recency: recency and importance must not undo what the question said.
ENTITY_MISS = 0.75  # the question names an entity; this entry is not about it
WINDOW_MISS = 0.7  # "around Nov 27": this entry lies outside Nov 24-30
OPINION_MISS = 0.6  # "what does Peter prefer": this entry is not one of (Peter's) opinions
ENTITY_FLOOR = 0.3  # relevance of an entry found only because it is about the named entity
MODES = ("auto", "lexical", "semantic", "hybrid")
MMR_POOL = 3  # MMR reorders the best k x MMR_POOL results


@dataclass
class Candidate:
    chunk_id: int
    relevance: float
    channels: dict[str, float] = field(default_factory=dict)
    factors: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    row: dict[str, Any] = field(default_factory=dict)
    found_by: list[str] = field(default_factory=list)  # the pools it came from, for --explain


def recall(conn: sqlite3.Connection, req: RecallRequest, *, now: datetime, semantic=None,  # noqa: ANN001
           notices: list[str] | None = None) -> dict[str, Any]:
    """Run the pipeline and return the JSON contract: {query, mode, notices, results}.

    `semantic` is a recall.semantic.SemanticChannel when vectors are available (it adds
    vector candidates, fuses and diversifies); without it recall is lexical.
    """
    if req.k < 1:
        raise UserError("--k must be at least 1")
    if req.mode not in MODES:
        raise UserError(f"--mode {req.mode!r}: expected one of {', '.join(MODES)}")
    notices = list(notices or [])
    # 1. understand
    u = understand(req, now, conn)
    notices += u.notices
    where, params = u.where()
    pool = max(req.k * CANDIDATE_MULTIPLIER, MIN_POOL)
    terms = lexical.query_terms(u.text)
    # 2-3. candidates and relevance
    mode = "lexical" if semantic is None else ("semantic" if req.mode == "semantic" else "hybrid")
    candidates: dict[int, Candidate] = {}
    if mode != "semantic":
        for cid, bm25 in lexical.candidates(conn, terms, limit=pool, where=where, params=params).items():
            candidates[cid] = Candidate(cid, 0.0, {"bm25": bm25}, found_by=["lexical"])
    if semantic is not None:
        semantic.add_candidates(u, pool, where, params, candidates)  # and every candidate's cosine
    if mode != "semantic":
        # One pass for both pools: vector-only candidates get their coverage, without BM25.
        bm25s = {cid: c.channels.get("bm25", 0.0) for cid, c in candidates.items()}
        for hit in lexical.score(conn, terms, bm25s):
            candidates[hit.chunk_id].channels["lexical"] = hit.score
    for cand in candidates.values():
        cand.relevance = semantic.relevance(cand) if semantic is not None else cand.channels["lexical"]
    if u.entity_boost:
        # "tell me about Peter", "what does Peter prefer": entries about the entity compete
        # even when no word matched (a typo, an alias); an opinion question takes opinions.
        for cid in _entity_ids(conn, u.entity_boost, where, params, pool, opinions_only=u.opinion):
            cand = candidates.setdefault(cid, Candidate(cid, 0.0, {}))
            cand.channels["entity"] = 1.0
            cand.found_by.append("entity")
    if not candidates and (not terms or u.time_phrase):
        # "what happened yesterday": no words match, but the question is about a time.
        candidates = _browse(conn, pool, *_with_window(where, params, u.boost_window))
    if not candidates:
        return {"query": req.query, "mode": mode, "notices": notices, "results": []}
    # 4. factors
    rows = _fetch_rows(conn, list(candidates))
    candidates = {cid: c for cid, c in candidates.items() if cid in rows}  # a vector for a deleted chunk
    # A present-tense question prefers the newest fact; one that names a time does not.
    replaced = {} if (u.since or u.until or u.boost_window) else superseded_among(conn, rows)
    if replaced:
        _inherit_relevance(conn, candidates, rows, replaced)
    today = now.date()
    for cand in candidates.values():
        cand.row = rows[cand.chunk_id]
        _apply_factors(cand, u, today, cand.chunk_id in replaced)
    # "What does Peter prefer": his opinions come first, whatever else scores higher.
    tier = (lambda c: 0 if c.row["kind"] == "opinion" and "opinion" not in c.factors and "entity" not in c.factors
            else 1) if u.opinion and u.entity_boost else (lambda c: 0)
    ranked = sorted(candidates.values(), key=lambda c: (tier(c), -c.score, c.row["path"], c.row["start_line"]))
    # 5. near-duplicates and the minimum score
    kept = [c for c in ranked if c.score >= MIN_SCORE]
    if not kept:
        kept = [c for c in ranked if c.channels.get("lexical", 0) > 0]  # keyword hits survive a low score
    if semantic is not None and hasattr(semantic, "diversify"):
        # MMR over the best few k: a near-copy of a better result gives way to new information.
        head = kept[: req.k * MMR_POOL]
        kept = semantic.diversify(head, req.k * MMR_POOL) + kept[len(head):]
    kept = _dedupe(kept, req.k)
    # 6. pack
    packets = []
    for cand in kept[: req.k]:
        item = packet(cand.row, cand.score, cand.row["entity_names"])
        if req.explain:
            item["explain"] = {"found_by": cand.found_by,
                               "channels": {k: round(v, 4) for k, v in cand.channels.items()},
                               "factors": {k: round(v, 4) for k, v in cand.factors.items()}}
        packets.append(item)
    return {"query": req.query, "mode": mode, "notices": notices, "results": pack(packets, req.k, req.budget)}


def _apply_factors(cand: Candidate, u: Understood, today: date, superseded: bool) -> None:
    """final = relevance x recency x importance x the question's factors (all in 0..1)."""
    row = cand.row
    relevance = cand.relevance
    about = bool(u.entity_boost and set(u.entity_boost) & set(row["entity_keys"]))
    if about and "entity" in cand.channels:
        relevance = max(relevance, ENTITY_FLOOR)
    factors = {
        "relevance": relevance,
        "recency": recency_factor(row["day"] if row["role"] == "daily" else None, today),
        "importance": importance_factor(row["kind"], row.get("confidence")),
    }
    if u.entity_boost and not about:
        factors["entity"] = ENTITY_MISS
    if u.opinion and not (row["kind"] == "opinion" and (about or not u.entity_boost)):
        factors["opinion"] = OPINION_MISS
    if u.boost_window and not _in_window(row, u.boost_window):
        factors["window"] = WINDOW_MISS
    if superseded:
        factors["superseded"] = SUPERSEDED_FACTOR
    cand.factors.update(factors)
    cand.score = math.prod(factors.values())


def _inherit_relevance(conn: sqlite3.Connection, candidates: dict[int, Candidate], rows: dict[int, dict],
                       replaced: dict[int, int]) -> None:
    """The fact that replaced a matching one answers the same question: it joins with that relevance.

    "where does Peter live?" matches "Lives in Vienna" by its words; "Moved to London"
    replaced it and must outrank it, though it shares fewer words with the question.
    """
    newer_ids = [new for new in replaced.values() if new not in rows]
    if newer_ids:
        rows.update(_fetch_rows(conn, newer_ids))
    for old, new in replaced.items():
        old_cand = candidates[old]
        cand = candidates.setdefault(new, Candidate(new, 0.0, {}))
        cand.found_by.append("replaces")
        if old_cand.relevance > cand.relevance:
            cand.relevance = old_cand.relevance
            cand.channels["replaces"] = old_cand.relevance


def _in_window(row: dict[str, Any], window: tuple[date | None, date | None]) -> bool:
    start, end = window
    if row["t_start"] is None:
        return False
    return (end is None or row["t_start"] <= end.isoformat()) and (start is None or row["t_end"] >= start.isoformat())


def _with_window(where: str, params: tuple, window: tuple[date | None, date | None] | None) -> tuple[str, tuple]:
    """The filters, narrowed to a boost window when there is one (to browse it)."""
    if window is None:
        return where, params
    start, end = window
    clause = "c.t_start IS NOT NULL AND c.t_start <= ? AND c.t_end >= ?"
    bounds = (end.isoformat() if end else OPEN_END, start.isoformat() if start else OPEN_START)
    return (f"{where} AND {clause}" if where else clause), (*params, *bounds)


def _browse(conn: sqlite3.Connection, pool: int, where: str, params: tuple) -> dict[int, Candidate]:
    """No words to search (e.g. "what happened yesterday"): the filtered entries, newest first."""
    if not where:
        return {}
    sql = f"SELECT c.id FROM chunks c WHERE {where} ORDER BY c.day DESC, c.path, c.start_line LIMIT ?"
    return {cid: Candidate(cid, 0.5, {"filter": 0.5}, found_by=["time window"])
            for (cid,) in conn.execute(sql, (*params, pool))}


def _entity_ids(conn: sqlite3.Connection, keys: tuple[str, ...], where: str, params: tuple,
               limit: int, opinions_only: bool) -> list[int]:
    """The newest entries about these entities: their facts and mentions, and their pages."""
    marks = ",".join("?" * len(keys))
    kind = " AND c.kind = 'opinion'" if opinions_only else ""
    extra = f" AND {where}" if where else ""
    sql = (
        f"SELECT c.id FROM chunks c WHERE (c.id IN (SELECT chunk_id FROM mentions WHERE entity_key IN ({marks}))"
        f" OR c.path IN (SELECT page_path FROM entities WHERE key IN ({marks}))){kind}{extra}"
        " ORDER BY c.day IS NULL, c.day DESC, c.id LIMIT ?"
    )
    return [r[0] for r in conn.execute(sql, (*keys, *keys, *params, limit))]


def _fetch_rows(conn: sqlite3.Connection, ids: list[int]) -> dict[int, dict[str, Any]]:
    marks = ",".join("?" * len(ids))
    cur = conn.execute(
        "SELECT c.id, c.path, c.start_line, c.end_line, c.kind, c.text, c.role, c.day, c.t_start, c.t_end,"
        " f.content AS fact_content, f.confidence FROM chunks c LEFT JOIN facts f ON f.id = c.id"
        f" WHERE c.id IN ({marks})",
        ids,
    )
    names = [d[0] for d in cur.description]
    rows = {r[0]: dict(zip(names, r, strict=True)) for r in cur}
    for row in rows.values():
        row["entity_keys"], row["entity_names"] = [], []
        if row["path"].startswith("bank/entities/"):
            row["entity_keys"].append(row["path"].rsplit("/", 1)[-1][:-3].lower())  # on the entity's page
    for cid, key, name in conn.execute(
        "SELECT m.chunk_id, m.entity_key, COALESCE(e.name, m.slug) FROM mentions m"
        f" LEFT JOIN entities e ON e.key = m.entity_key WHERE m.chunk_id IN ({marks}) ORDER BY m.rowid",
        ids,
    ):
        rows[cid]["entity_keys"].append(key)
        rows[cid]["entity_names"].append(name)
    return rows


def _dedupe(ranked: list[Candidate], limit: int) -> list[Candidate]:
    """The first `limit` entries that do not repeat a better-ranked one.

    Repeats are (nearly) the same text, or one text contained in the other: a fact
    copied by hand into a bank page says nothing new next to the fact itself. Texts
    under 40 characters only count when (nearly) identical. Word sets prefilter the
    pairs, so only likely repeats pay for a fuzzy comparison.
    """
    from rapidfuzz import fuzz

    kept: list[tuple[Candidate, str, set[str]]] = []
    for cand in ranked:
        text = _comparable(cand.row)
        words = set(_WORD_RE.findall(text.lower()))
        if not any(_repeats(text, words, other, other_words, fuzz) for _, other, other_words in kept):
            kept.append((cand, text, words))
            if len(kept) == limit:
                break
    return [cand for cand, _, _ in kept]


_WORD_RE = re.compile(r"\w+")


def _comparable(row: dict[str, Any]) -> str:
    text = row.get("fact_content") or row["text"]
    _, sep, rest = text.partition(": ")
    # "Peter: Prefers tea" (a fact) and "- Prefers tea (2025-11-28)" (a copy of it)
    return rest if sep and row.get("fact_content") else text


def _repeats(a: str, a_words: set[str], b: str, b_words: set[str], fuzz) -> bool:  # noqa: ANN001
    small, large = (a_words, b_words) if len(a_words) <= len(b_words) else (b_words, a_words)
    if not small or len(small & large) < 0.8 * len(small):
        return False
    if len(a) > 20 and fuzz.ratio(a, b) >= 95:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 40 and fuzz.partial_ratio(short, long) >= 95
