"""The recall pipeline: one path for every query (DESIGN §3).

 1. Understand the query: filters (--since/--until/--kind/--entity), a time phrase,
    @mentions (recall.query).
 2. Find candidates: FTS5 BM25 (lexical), and vectors when a model is available
    (semantic); each pool is k x candidate_multiplier (recall.settings). Entries about a
    named entity join.
 3. Relevance in 0..1: lexical coverage, cosine, or their fusion (recall.semantic).
 4. score = relevance x recency x importance (recall.rank) x what the question asks for:
    entries that miss a named entity, an "around" window or an opinion question, and
    world facts that a newer one replaced (present-tense questions only,
    recall.supersession), are multiplied by a factor below 1. Everything stays in 0..1.
 5. Neighbours (recall.neighbours): the entries next to the best matches, in the same
    section of a log, are at least NEIGHBOUR_SHARE as relevant as they are.
 6. With vectors, MMR (recall.semantic) reorders the best results so that near-copies
    of a better one give way; then drop repeats (recall.dedupe) and results under
    min_score, unless nothing would be left.
 7. Pack into k results and the token budget (recall.pack).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from ..errors import UserError
from ..index.base import ChunkRow, Filters, Store
from . import lexical
from .candidates import Candidate
from .dedupe import dedupe
from .neighbours import neighbour_ids, propagate
from .pack import pack, packet
from .query import RecallRequest, Understood, understand
from .rank import dated_day, importance_factor, recency_factor
from .settings import RecallSettings
from .supersession import SUPERSEDED_FACTOR, superseded_among

MIN_POOL = 40
# What the question asks for, as factors (<= 1) on entries that miss it. A factor, not a
# boost towards 1 before recency: recency and importance must not undo what the question said.
ENTITY_MISS = 0.75  # the question names an entity; this entry is not about it
WINDOW_MISS = 0.7  # "around Nov 27": this entry lies outside Nov 24-30
OPINION_MISS = 0.6  # "what does Peter prefer": this entry is not one of (Peter's) opinions
ENTITY_FLOOR = 0.3  # relevance of an entry found only because it is about the named entity
MODES = ("auto", "lexical", "semantic", "hybrid")
MMR_POOL = 3  # MMR reorders the best k x MMR_POOL results


@dataclass
class _Query:
    """What every step of one recall needs."""

    store: Store
    u: Understood
    terms: list[lexical.Term]
    filters: Filters
    pool: int
    mode: str
    semantic: Any  # recall.semantic.SemanticChannel | None
    today: date
    settings: RecallSettings
    qvec: Any = None  # the query's vector (numpy), when there is a semantic channel


def recall(store: Store, req: RecallRequest, *, now: datetime, semantic=None,  # noqa: ANN001
           notices: list[str] | None = None, settings: RecallSettings | None = None) -> dict[str, Any]:
    """Run the pipeline and return the JSON contract: {query, mode, notices, results}.

    `semantic` is a recall.semantic.SemanticChannel when vectors are available (it adds
    vector candidates, fuses and diversifies); without it recall is lexical.
    """
    if req.k < 1:
        raise UserError("--k must be at least 1")
    if req.mode not in MODES:
        raise UserError(f"--mode {req.mode!r}: expected one of {', '.join(MODES)}")
    with store.snapshot():  # one consistent view of the index, whatever a sync commits meanwhile
        return _recall(store, req, now, semantic, list(notices or []), settings or RecallSettings())


def _recall(store: Store, req: RecallRequest, now: datetime, semantic: Any,
            notices: list[str], settings: RecallSettings) -> dict[str, Any]:
    # 1. understand
    u = understand(req, now, store)
    notices += u.notices
    filters = u.filters()
    mode = "lexical" if semantic is None else ("semantic" if req.mode == "semantic" else "hybrid")
    pool = max(req.k * settings.candidate_multiplier, MIN_POOL)
    q = _Query(store, u, lexical.query_terms(u.text), filters, pool, mode, semantic, now.date(), settings)
    # 2-3. candidates and their relevance
    candidates = _candidates(q)
    if not candidates:
        return {"query": req.query, "mode": mode, "notices": notices, "results": []}
    # 4. factors
    rows = store.rows(list(candidates))
    candidates = {cid: c for cid, c in candidates.items() if cid in rows}  # a vector for a deleted chunk
    # A present-tense question prefers the newest fact; one that names a time does not.
    replaced = {} if (u.since or u.until or u.boost_window) else superseded_among(store, rows)
    if replaced:
        _inherit_relevance(store, candidates, rows, replaced)
    for cand in candidates.values():
        cand.row = rows[cand.chunk_id]
        _apply_factors(cand, q, cand.chunk_id in replaced)
    # 5. neighbours of the best matches
    best = sorted(candidates.values(), key=_order)
    new = neighbour_ids(store, best, candidates, filters)
    if new:
        candidates.update(_scored(q, new))
    for cand in propagate(best, candidates):
        _apply_factors(cand, q, cand.chunk_id in replaced)
    # "What does Peter prefer": his opinions come first, whatever else scores higher.
    tier = (lambda c: 0 if c.row["kind"] == "opinion" and "opinion" not in c.factors and "entity" not in c.factors
            else 1) if u.opinion and u.entity_boost else (lambda c: 0)
    ranked = sorted(candidates.values(), key=lambda c: (tier(c), *_order(c)))
    # 6. near-duplicates and the minimum score
    kept = [c for c in ranked if c.score >= settings.min_score]
    if not kept:
        kept = [c for c in ranked if c.channels.get("lexical", 0) > 0]  # keyword hits survive a low score
    if semantic is not None:
        # MMR over the best few k: a near-copy of a better result gives way to new information.
        head = kept[: req.k * MMR_POOL]
        kept = semantic.diversify(head, req.k * MMR_POOL) + kept[len(head):]
    kept = dedupe(kept, req.k)
    # 7. pack
    packets = []
    for cand in kept[: req.k]:
        item = packet(cand.row, cand.score, cand.row["entity_names"])
        if req.explain:
            item["explain"] = {"found_by": cand.found_by,
                               "channels": {k: round(v, 4) for k, v in cand.channels.items()},
                               "factors": {k: round(v, 4) for k, v in cand.factors.items()}}
        packets.append(item)
    return {"query": req.query, "mode": mode, "notices": notices, "results": pack(packets, req.k, req.budget)}


def _order(cand: Candidate) -> tuple:
    return -cand.score, cand.row["path"], cand.row["start_line"]


def _candidates(q: _Query) -> dict[int, Candidate]:
    """Steps 2-3: the lexical and vector pools, each candidate with its relevance."""
    candidates: dict[int, Candidate] = {}
    if q.mode != "semantic":
        for cid, bm25 in q.store.lexical_pool(q.terms, q.pool, q.filters).items():
            candidates[cid] = Candidate(cid, 0.0, {"bm25": bm25}, found_by=["lexical"])
    if q.semantic is not None:
        q.qvec = q.semantic.add_candidates(q.u, q.pool, q.filters, candidates)
    _relevance(q, candidates)
    if q.u.entity_boost:
        # "tell me about Peter", "what does Peter prefer": entries about the entity compete
        # even when no word matched (a typo, an alias); an opinion question takes opinions.
        for cid in q.store.about_entities(q.u.entity_boost, q.filters, q.pool, opinions_only=q.u.opinion):
            cand = candidates.setdefault(cid, Candidate(cid, 0.0, {}))
            cand.channels["entity"] = 1.0
            cand.found_by.append("entity")
    if not candidates and (not q.terms or q.u.time_phrase):
        # "what happened yesterday": no words match, but the question is about a time.
        candidates = _browse(q.store, q.filters.within(q.u.boost_window), q.pool)
    return candidates


def _relevance(q: _Query, candidates: dict[int, Candidate]) -> None:
    """Step 3 for candidates that have their pools' channels (and cosines, with vectors)."""
    if q.mode != "semantic":
        # One pass for both pools: vector-only candidates get their coverage, without BM25.
        bm25s = {cid: c.channels.get("bm25", 0.0) for cid, c in candidates.items()}
        for hit in lexical.score(q.store, q.terms, bm25s):
            candidates[hit.chunk_id].channels["lexical"] = hit.score
    for cand in candidates.values():
        cand.relevance = q.semantic.relevance(cand) if q.semantic is not None else cand.channels["lexical"]


def _scored(q: _Query, rows: dict[int, ChunkRow]) -> dict[int, Candidate]:
    """Steps 3-4 for entries that joined late (neighbours): relevance and factors, as for the pools."""
    joined = {cid: Candidate(cid, 0.0, {}, row=row) for cid, row in rows.items()}
    if q.semantic is not None:
        q.semantic.fill_cosines(q.qvec, joined)
    _relevance(q, joined)
    for cand in joined.values():
        _apply_factors(cand, q, superseded=False)
    return joined


def _apply_factors(cand: Candidate, q: _Query, superseded: bool) -> None:
    """final = relevance x recency x importance x the question's factors (all in 0..1)."""
    row, u = cand.row, q.u
    relevance = cand.relevance
    about = bool(u.entity_boost and set(u.entity_boost) & set(row["entity_keys"]))
    if about and "entity" in cand.channels:
        relevance = max(relevance, ENTITY_FLOOR)
    factors = {
        "relevance": relevance,
        "recency": recency_factor(dated_day(row), q.today, q.settings.half_life_days),
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


def _inherit_relevance(store: Store, candidates: dict[int, Candidate], rows: dict[int, ChunkRow],
                       replaced: dict[int, int]) -> None:
    """The fact that replaced a matching one answers the same question: it joins with that relevance.

    "where does Peter live?" matches "Lives in Vienna" by its words; "Moved to London"
    replaced it and must outrank it, though it shares fewer words with the question.
    """
    newer_ids = [new for new in replaced.values() if new not in rows]
    if newer_ids:
        rows.update(store.rows(newer_ids))
    for old, new in replaced.items():
        old_cand = candidates[old]
        cand = candidates.setdefault(new, Candidate(new, 0.0, {}))
        cand.found_by.append("replaces")
        if old_cand.relevance > cand.relevance:
            cand.relevance = old_cand.relevance
            cand.channels["replaces"] = old_cand.relevance


def _in_window(row: ChunkRow, window: tuple[date | None, date | None]) -> bool:
    start, end = window
    if row["t_start"] is None:
        return False
    return (end is None or row["t_start"] <= end.isoformat()) and (start is None or row["t_end"] >= start.isoformat())


def _browse(store: Store, filters: Filters, limit: int) -> dict[int, Candidate]:
    """No words to search (e.g. "what happened yesterday"): the filtered entries, newest first."""
    if filters.empty:
        return {}
    return {cid: Candidate(cid, 0.5, {"filter": 0.5}, found_by=["time window"])
            for cid in store.browse(filters, limit)}
