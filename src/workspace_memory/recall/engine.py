"""The recall pipeline: one path for every query (DESIGN §3).

 1. Understand the query: filters (--since/--until/--kind/--entity), a time phrase (evidence,
    not a filter), @mentions, opinion and present-state questions (recall.query).
 2. Find candidates: FTS5 BM25 (lexical), and vectors when a model is available
    (semantic; the question is embedded in a worker thread while the lexical pools are
    searched); each pool is k x candidate_multiplier (recall.settings). Entries about a
    named entity join, and so do the best matches inside a time window (recall.window).
 3. Relevance in 0..1: lexical coverage, cosine, or their fusion (recall.semantic).
 4. score = relevance x recency x importance (recall.rank) x what the question asks for:
    entries that miss a named entity, a time window (recall.window) or an opinion question,
    turns of someone other than the person the question names (recall.subject), entries that
    ask a question when the query asks one (recall.asking), entries that name no place when
    it asks where (recall.place),
    and world facts that a newer one replaced (present-state questions only,
    recall.supersession), are multiplied by a factor below 1. Everything stays in 0..1.
 5. Neighbours (recall.neighbours): the entries next to the best matches, in the same
    section of a log, are at least NEIGHBOUR_SHARE as relevant as they are.
 6. With vectors, MMR (recall.semantic) reorders the best results so that near-copies
    of a better one give way; then one result per entry and no repeats (recall.dedupe).
    Results under min_score are dropped; when fewer than k are left, the best of them
    that share a content word with the question fill the list (`filled` in --explain).
 7. Pack into k results and the token budget (recall.pack).
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime
from typing import Any

from ..cancel import checkpoint
from ..errors import UserError
from ..index.base import ChunkRow, Filters, Store
from ..limits import MAX_FTS_TERMS, check_k
from ..markdown.names import WORD_NOT_CJK, ScriptPattern
from . import asking, lexical, place, topic
from . import subject as entry_subject
from . import window as time_window
from .candidates import Candidate
from .dedupe import dedupe
from .neighbours import neighbour_ids, propagate
from .pack import pack, packet
from .params import MODES
from .query import RecallRequest, Understood, understand
from .rank import dated_day, importance_factor, recency_factor
from .settings import RecallSettings
from .supersession import SUPERSEDED_FACTOR, superseded_among

MIN_POOL = 40
# What the question asks for, as factors (<= 1) on entries that miss it. A factor, not a
# boost towards 1 before recency: recency and importance must not undo what the question said.
ENTITY_MISS = 0.75  # the question names an entity; this entry is not about it
OPINION_MISS = 0.6  # "what does Peter prefer": this entry is not one of (Peter's) opinions
# The relevance of an entry about the named entity when the question asks about nothing else
# ("who is Priya", "tell me about @Peter"): the entity is then all there is to match, and an entry
# about it that does not spell the name (an alias, its page) must still compete. When the question
# asks something of the entity ("what did Sam lose at the conference?"), the entity's entries
# compete by what they say about that, with no floor: naming Sam is not relevance to a lost umbrella.
ENTITY_FLOOR = 0.3
MMR_POOL = 3  # MMR reorders the best k x MMR_POOL results


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module.
class _Query:
    """What every step of one recall needs."""

    __slots__ = ("store", "u", "terms", "filters", "pool", "mode", "semantic", "today", "settings",
                 "events_only", "qvec", "tvec", "rows", "subjects", "question", "about_only", "names", "k",
                 "agenda")

    def __init__(self, store: Store, u: Understood, terms: list[lexical.Term], filters: Filters, pool: int,
                 mode: str, semantic: Any, today: date, settings: RecallSettings,
                 events_only: bool = False) -> None:
        self.store, self.u, self.terms, self.filters, self.pool = store, u, terms, filters, pool
        self.mode = mode
        self.semantic = semantic  # recall.semantic.SemanticChannel | None
        self.today, self.settings = today, settings
        self.events_only = events_only  # "what happened last week": the question names nothing but a time
        self.k = 10  # the results asked for
        self.qvec: Any = None  # the query's vector (numpy), when there is a semantic channel
        self.tvec: Any = None  # the query's vector without the names of the people it names (recall.topic)
        self.rows: dict[int, ChunkRow] = {}  # the candidates' rows read so far
        self.subjects: frozenset[str] = frozenset()  # the candidates' subjects the question names
        self.question = asking.is_question(u.text, u.words)  # entries that ask too give way (recall.asking)
        # The named entities' names (a note that names Brightwave without @ is about Brightwave too),
        # and whether the question asks about nothing but them (ENTITY_FLOOR).
        self.names = entity_names_pattern(u.entity_names)
        self.about_only = bool(u.entity_boost) and not lexical.has_content(
            [t for t in terms if t.cjk or not u.about_words.issuperset(t.words)], u.words)
        # A browse that looks ahead: no words, no time phrase, and --until after today (_tiers).
        self.agenda = not terms and u.window is None and u.until is not None and u.until > today


def recall(store: Store, req: RecallRequest, *, now: datetime, semantic=None,
           notices: list[str] | None = None, settings: RecallSettings | None = None,
           date_order: str | None = None, languages: tuple[str, ...] = ("en",)) -> dict[str, Any]:
    """Run the pipeline and return the JSON contract: {query, mode, notices, results}.

    `semantic` is a recall.semantic.SemanticChannel when vectors are available (it adds
    vector candidates, fuses and diversifies); without it recall is lexical. `date_order`
    is the workspace's `[time] date_order` (how slashed dates in the question read), and
    `languages` its `[time] languages` (what a time phrase may be written in; dates.languages).
    """
    check_k(req.k)
    if req.mode not in MODES:
        raise UserError(f"--mode {req.mode!r}: expected one of {', '.join(MODES)}")
    with store.snapshot():  # one consistent view of the index, whatever a sync commits meanwhile
        u = understand(req, now, store, date_order, languages)
        return _recall(store, req, u, now, semantic, list(notices or []) + u.notices, settings or RecallSettings())


def _recall(store: Store, req: RecallRequest, u: Understood, now: datetime, semantic: Any,
            notices: list[str], settings: RecallSettings) -> dict[str, Any]:
    # 1. understand (done by the caller)
    filters = u.filters()
    mode = "lexical" if semantic is None else ("semantic" if req.mode == "semantic" else "hybrid")
    pool = max(req.k * settings.candidate_multiplier, MIN_POOL)
    # A question whose time phrase is all it asks ("what's on next Tuesday?") leaves only frame words:
    # searched as words they find whatever says "what" (a page's intro), so the window alone answers.
    terms = lexical.split_compounds(store, lexical.query_terms(u.text, u.words, only_stopwords=u.window is None),
                                    u.words)
    if len(terms) > MAX_FTS_TERMS:  # each term is an FTS expression and a document-frequency lookup
        notices.append(f"the query has {len(terms)} distinct words; the first {MAX_FTS_TERMS} were searched "
                       "by words (the whole query by meaning)")
        terms = terms[:MAX_FTS_TERMS]
    q = _Query(store, u, terms, filters, pool, mode, semantic, now.date(), settings,
               events_only=u.window is not None
               and lexical.asks_for_events(time_window.without_plan_words(terms, u.language), u.words))
    q.k = req.k
    # 2-3. candidates and their relevance
    candidates = _candidates(q)
    checkpoint()  # the query is embedded and the channels searched: a cancelled call ranks nothing
    if not candidates:
        return {"query": req.query, "mode": mode, "notices": notices, "results": []}
    # 4. factors
    rows = _rows(q, list(candidates))
    candidates = {cid: c for cid, c in candidates.items() if cid in rows}  # a vector for a deleted chunk
    # A question about the present prefers the newest fact; a keyword or the past does not.
    replaced = superseded_among(store, rows, u.text, now.date()) if u.present else {}
    if replaced:
        _inherit_relevance(store, candidates, rows, replaced)
    q.subjects = entry_subject.asked({w for t in terms for w in t.label.split()}, rows.values(), u.languages)
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
    tier_key = _tiers(q, list(candidates.values()))
    ranked = sorted(candidates.values(), key=tier_key)
    # 6. near-duplicates, one result per entry, the minimum score
    kept = _select(q, ranked, req.k)[: req.k]
    # 7. pack
    tier = _tier_name(q) if tier_key is not _order else None
    lifted = _lifted(kept) if tier else set()
    if lifted:
        notices.append(f"ordered by what the question asks ({tier}), then by score: "
                       f"{len(lifted)} result(s) rank above a higher score")
    packets = []
    for cand in kept:
        item = packet(cand.row, cand.score, cand.row["entity_names"])
        if req.explain:
            item["explain"] = {"found_by": cand.found_by,
                               "channels": {k: round(v, 4) for k, v in cand.channels.items()},
                               "factors": {k: round(v, 4) for k, v in cand.factors.items()}}
            if cand.filled:
                item["explain"]["filled"] = True
            if tier:
                item["explain"]["tier"] = {"rule": tier, "level": tier_key(cand)[0],
                                           "above_a_higher_score": cand.chunk_id in lifted}
            if cand.chunk_id in replaced:
                item["explain"]["superseded"] = _superseded_note(store, rows, cand.chunk_id, replaced[cand.chunk_id])
            if u.window is not None:
                item["explain"]["time"] = time_window.how_inside(cand.row, u.window) or "outside the window"
        packets.append(item)
    return {"query": req.query, "mode": mode, "notices": notices, "results": pack(packets, req.k, req.budget)}


def _tiers(q: _Query, candidates: list[Candidate]):  # a sort key
    """The sort key: what the question asks for first, then the score.

    "What does Peter prefer": his opinions come first, whatever else scores higher. "Who is
    Priya": her facts and page, then the entries that name her. "What happened last week": the
    entries inside the window, the best of each day first (around a day: that day, then the
    days nearest to it).
    """
    u = q.u
    if u.opinion and u.entity_boost:
        return lambda c: (0 if c.row["kind"] == "opinion" and "opinion" not in c.factors
                          and "entity" not in c.factors else 1, *_order(c))
    if q.about_only:
        # "who is Priya", "tell me about @Peter": the entity's own facts and page first (DESIGN §3),
        # then the entries that name it in passing.
        return lambda c: (0 if "entity" in c.channels else 1, *_order(c))
    if q.agenda:
        # `recall "" --since today --until +7d`: the plans for those days first, soonest first, then
        # what was only written in them, by score (newest first), as a browse orders.
        return lambda c: ((0, day) if (day := time_window.agenda_day(c.row, q.today, u.until)) else (1, ""),
                          *_order(c))
    if q.events_only and u.window is not None:
        by_day = time_window.by_day_order(sorted(candidates, key=_order), u.window, u.window_center)
        outside = (len(by_day) + 1, 0)
        return lambda c: (*by_day.get(c.chunk_id, outside), *_order(c))
    return _order


def _tier_name(q: _Query) -> str:
    """The name of the rule `_tiers` orders by (shown in --explain and the notice)."""
    if q.u.opinion and q.u.entity_boost:
        return "opinions of the entity first"
    if q.about_only:
        return "the entity's own facts and page first"
    if q.agenda:
        return "the days ahead that entries name first, soonest first"
    return "the days of the time phrase first"


def _lifted(kept: list[Candidate]) -> set[int]:
    """The results a tier put above a result with a higher score (what the order does not show by scores)."""
    lifted: set[int] = set()
    best_below = -1.0
    for cand in reversed(kept):
        if cand.score < best_below:
            lifted.add(cand.chunk_id)
        best_below = max(best_below, cand.score)
    return lifted


def _superseded_note(store: Store, rows: dict[int, ChunkRow], old: int, new: int) -> dict[str, str]:
    """--explain for a result a newer entry replaced: which, and what matched (recall.supersession)."""
    from .supersession import why_replaced

    newer = rows.get(new) or store.rows([new]).get(new)
    if newer is None:
        return {"by": str(new)}
    return {"by": f"{newer['path']}#L{newer['start_line']}", "why": why_replaced(rows[old], newer)}


def _select(q: _Query, ranked: list[Candidate], k: int) -> list[Candidate]:
    """Step 6: MMR, the minimum score, one result per entry, and a short list filled (engine docstring)."""
    above = [c for c in ranked if c.score >= q.settings.min_score]
    if q.semantic is not None and _tiers(q, []) is _order:
        # MMR over the best few k: a near-copy of a better result gives way to new information.
        # (Not where _tiers orders by what the question asks for: MMR would undo that order.)
        head = above[: k * MMR_POOL]
        above = q.semantic.diversify(head, k * MMR_POOL) + above[len(head):]
    kept = dedupe(above, k)
    if len(kept) < k and lexical.has_content(q.terms, q.u.words):
        # Too few passed the cut: the best of the rest that share a content word with the question.
        below = [c for c in ranked if c.score < q.settings.min_score and c.channels.get("lexical", 0) > 0]
        for cand in below:
            cand.filled = True
        kept = dedupe(kept + below, k)
    return kept


def _order(cand: Candidate) -> tuple:
    return -cand.score, cand.row["path"], cand.row["start_line"]


def _candidates(q: _Query) -> dict[int, Candidate]:
    """Steps 2-3: the pools (lexical, the time window's, vectors, the entity's), each candidate with its relevance."""
    candidates: dict[int, Candidate] = {}
    window = q.u.window
    # The question is embedded in a worker thread while the lexical pools are searched.
    pending = q.semantic.embed_query(q.u) if q.semantic is not None else None
    if q.mode != "semantic":
        for cid, bm25 in q.store.lexical_pool(q.terms, q.pool, q.filters).items():
            candidates[cid] = Candidate(cid, 0.0, {"bm25": bm25}, found_by=["lexical"])
        if window is not None and q.terms and not q.events_only:
            # The window is a pool of its own: its best matches compete even when better ones
            # elsewhere fill the global pool.
            for cid, bm25 in q.store.lexical_pool(q.terms, q.pool, q.filters.within(window)).items():
                cand = candidates.setdefault(cid, Candidate(cid, 0.0, {"bm25": bm25}))
                cand.found_by.append("time window")
    if q.semantic is not None:
        if pending is not None and candidates:
            # While the question is still being embedded: the pools' candidates' lexical channel and
            # rows, which the steps below need anyway (a vector candidate's coverage does not depend on
            # the others': _lexical_channel gives it the same value after).
            _lexical_channel(q, candidates)
            _rows(q, list(candidates))
        q.qvec = q.semantic.add_candidates(q.u, q.pool, q.filters, candidates, pending)
        text = _without_names(q, candidates)
        guessed = pending.extra(text) if pending is not None else None
        if text is not None:
            q.tvec = q.semantic.add_topic(text, q.qvec, q.pool, q.filters, candidates, guessed)
    _relevance(q, candidates)
    if q.u.entity_boost:
        # "tell me about Peter", "what does Peter prefer": entries about the entity compete
        # even when no word matched (a typo, an alias); an opinion question takes opinions.
        # They join with their own relevance to the question, as every other candidate has.
        joined: dict[int, Candidate] = {}
        for cid in q.store.about_entities(q.u.entity_boost, q.filters, q.pool, opinions_only=q.u.opinion):
            cand = candidates.get(cid) or joined.setdefault(cid, Candidate(cid, 0.0, {}))
            cand.channels["entity"] = 1.0
            cand.found_by.append("entity")
        if joined:
            if q.semantic is not None:
                q.semantic.fill_both(q.qvec, q.tvec, joined)
            _relevance(q, joined)
            candidates.update(joined)
    if window is None and not candidates and not q.terms and not q.filters.empty:
        # A filter and no words (`memory recall --since 1d`): the filtered entries, newest first.
        candidates = {cid: Candidate(cid, 0.5, {"filter": 0.5}, found_by=["filter"])
                      for cid in q.store.browse(q.filters, q.pool)}
    # Trigger: the window holds entries, but fewer than k of them matched a word of the question (its
    # words are frame words of a language the lexical rules do not know, "qu'est-ce qu'il y a", or
    # name what the day's entries say in other words: "who is travelling next week?"). Why: a time
    # question never answers with entries of other days alone while an entry is written on, or
    # names, a day of its window. Outcome: the window's entries join. When none matched, the
    # question is ranked as an events-only one (the window's days first: its words were asking for
    # events); when some did, those keep their place and the others join at WINDOW_FLOOR, below
    # them and below a strong match outside (which keeps its place).
    inside = sum(1 for c in candidates.values() if "time window" in c.found_by)
    short = window is not None and not q.events_only and not q.u.window_empty and inside < q.k
    q.events_only = q.events_only or (short and inside == 0)
    if window is not None and (q.events_only or not candidates or short):
        floor = time_window.EVENTS_FLOOR if q.events_only or not candidates else time_window.WINDOW_FLOOR
        # "what happened last week": the entries inside the window, up to PER_DAY of each day.
        days = time_window.browsed(window, q.u.window_empty)
        for cid in q.store.browse(q.filters.within(days), q.pool * time_window.PER_DAY,
                                  per_day=time_window.PER_DAY):
            cand = candidates.get(cid)
            if cand is None:
                cand = candidates[cid] = Candidate(cid, 0.0, {})
                if q.semantic is not None:
                    q.semantic.fill_both(q.qvec, q.tvec, {cid: cand})
                    cand.relevance = q.semantic.relevance(cand)
            if "time window" not in cand.found_by:
                cand.found_by.append("time window")
            cand.channels["window"] = floor
            cand.relevance = max(cand.relevance, floor)
    return candidates


def _rows(q: _Query, ids: list[int]) -> dict[int, ChunkRow]:
    """The rows of these candidates (those read before from q.rows)."""
    missing = [cid for cid in ids if cid not in q.rows]
    if missing:
        q.rows.update(q.store.rows(missing))
    return {cid: q.rows[cid] for cid in ids if cid in q.rows}


def _without_names(q: _Query, candidates: dict[int, Candidate]) -> str | None:
    """The question without the names of the people it names (recall.topic), or None when it names
    none, or asks about nothing but them ("who is Priya": the name is all there is to match)."""
    if not topic.ENABLED or q.about_only or not q.u.text:
        return None
    words = {w for t in q.terms for w in t.label.split()}
    subjects = entry_subject.asked(words, _rows(q, list(candidates)).values(), q.u.languages)
    names = topic.name_words(subjects, q.u.entity_names)
    if not names or not lexical.has_content([t for t in q.terms if t.cjk or not names.issuperset(t.words)],
                                            q.u.words):
        return None
    return topic.without_names(topic.asked(q.u.text, q.u.time_phrase), names)


def _lexical_channel(q: _Query, candidates: dict[int, Candidate]) -> None:
    """The lexical channel (recall.lexical.score) of the candidates that have none yet: vector-only
    candidates get their coverage, without BM25. A candidate's value depends on the others' only
    through the best BM25, which a candidate without one does not move, so scoring the lexical
    pools first and the vector pool's candidates later gives the values of one pass over all."""
    if q.mode == "semantic":
        return
    bm25s = {cid: c.channels.get("bm25", 0.0) for cid, c in candidates.items() if "lexical" not in c.channels}
    for hit in lexical.score(q.store, q.terms, bm25s):
        candidates[hit.chunk_id].channels["lexical"] = hit.score


def _relevance(q: _Query, candidates: dict[int, Candidate]) -> None:
    """Step 3 for candidates that have their pools' channels (and cosines, with vectors)."""
    _lexical_channel(q, candidates)
    for cand in candidates.values():
        cand.relevance = q.semantic.relevance(cand) if q.semantic is not None else cand.channels["lexical"]


def _scored(q: _Query, rows: dict[int, ChunkRow]) -> dict[int, Candidate]:
    """Steps 3-4 for entries that joined late (neighbours): relevance and factors, as for the pools."""
    joined = {cid: Candidate(cid, 0.0, {}, row=row) for cid, row in rows.items()}
    if q.semantic is not None:
        q.semantic.fill_both(q.qvec, q.tvec, joined)
    _relevance(q, joined)
    for cand in joined.values():
        _apply_factors(cand, q, superseded=False)
    return joined


def _apply_factors(cand: Candidate, q: _Query, superseded: bool) -> None:
    """final = relevance x recency x importance x the question's factors (all in 0..1)."""
    row, u = cand.row, q.u
    relevance = cand.relevance
    about = bool(u.entity_boost) and (not set(u.entity_boost).isdisjoint(row["entity_keys"])
                                      or (q.names is not None and q.names.search(row["text"]) is not None))
    if about and q.about_only and "entity" in cand.channels:
        relevance = max(relevance, ENTITY_FLOOR)
    factors = {
        "relevance": relevance,
        "recency": recency_factor(dated_day(row), q.today, q.settings.half_life_days),
        "importance": importance_factor(row["kind"], row.get("confidence")),
    }
    if u.entity_boost and not about:
        factors["entity"] = ENTITY_MISS
    elif entry_subject.misses(row, q.subjects, u.languages):  # someone else's turn (recall.subject)
        factors["subject"] = entry_subject.SUBJECT_MISS
    if q.question and asking.asks(row["text"]):
        factors["question"] = asking.QUESTION_MISS
    if u.opinion and not (row["kind"] == "opinion" and (about or not u.entity_boost)):
        factors["opinion"] = OPINION_MISS
    if u.where and not place.names_place(row["text"], (u.language, *u.languages)):
        factors["place"] = place.PLACE_MISS  # "where was Lena": this entry names no place
    if u.window is not None:
        near = time_window.factor(row, u.window, u.window_confidence)
        if near < 1.0:
            factors["window"] = near
        told = time_window.told(row, u.window, u.window_confidence, q.events_only)
        if told < 1.0:
            factors["told"] = told  # placed in time by the day it was written, not a date it states
    if superseded:
        factors["superseded"] = SUPERSEDED_FACTOR
    cand.factors.update(factors)
    cand.score = math.prod(factors.values())


def entity_names_pattern(names: dict[str, frozenset[str]]) -> ScriptPattern | None:
    """A pattern that finds any of the named entities' names as whole words (any case), or None."""
    forms = sorted({f for fs in names.values() for f in fs if len(f) >= 2}, key=len, reverse=True)
    if not forms:
        return None
    spelled = "|".join(re.escape(f).replace("\\ ", r"[\s-]+").replace("\\-", r"[\s-]+") for f in forms)
    # Whole words of spaced scripts; beside CJK characters a name still stands ("Priya在Fernwerk参加").
    # (ScriptPattern: the CJK class is compiled only when an entry that may hold CJK is searched.)
    return ScriptPattern(rf"(?<!\w)(?<!@)@?(?:{spelled})(?!\w)",
                         rf"(?<!{WORD_NOT_CJK})(?<!@)@?(?:{spelled})(?!{WORD_NOT_CJK})", re.IGNORECASE)


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
