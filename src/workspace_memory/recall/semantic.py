"""The semantic channel and its fusion with the lexical one (hybrid recall).

Cosine similarity from all-MiniLM-L6-v2 is mapped to 0..1 by a fixed calibration, so
that a score means the same thing from query to query (unrelated text sits near 0.1,
paraphrases of the question above 0.6):

    vector(c)    = clamp((cosine - COS_FLOOR) / (COS_CEIL - COS_FLOOR), 0, 1)
    relevance(c) = W_VECTOR * vector(c) + W_TEXT * lexical(c)

lexical(c) is the IDF-weighted term coverage of recall.lexical (0 when no query word
occurs in the chunk). Both pools (k x candidate multiplier each) are fused; a
candidate found by only one channel gets its other score computed exactly, so fusion
never treats "not in the other top list" as zero similarity.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import numpy as np

from ..embed.base import Embedder
from ..index.vector_sync import chunk_labels, label_chunk, vectors_for
from .lexical import coverage

W_VECTOR = 0.7
W_TEXT = 0.3
COS_FLOOR = 0.1
COS_CEIL = 0.7


def calibrate(cosine: float) -> float:
    """Map a cosine similarity to 0..1 with the fixed calibration above."""
    return min(1.0, max(0.0, (cosine - COS_FLOOR) / (COS_CEIL - COS_FLOOR)))


def fuse(vector: float, lexical: float) -> float:
    """The hybrid relevance of one candidate (see module docstring)."""
    return W_VECTOR * vector + W_TEXT * lexical


def semantic_channel(conn: sqlite3.Connection, store, embedder: Embedder,  # noqa: ANN001 - VectorStore
                     semantic_only: bool = False) -> Callable:
    """The callable the recall pipeline uses to add vector candidates and fuse scores."""

    def channel(u, terms, pool, where, params, candidates):  # noqa: ANN001, ANN202 - see engine.recall
        from .engine import Candidate

        query = u.text or u.time_phrase or ""
        if not query.strip():
            return candidates
        qvec = embedder.embed_query(query)
        allowed = None
        if where:
            allowed = {label for (cid,) in conn.execute(f"SELECT c.id FROM chunks c WHERE {where}", params)
                       for label in chunk_labels(cid)}
        # Each chunk has two vectors (alone, after the previous entry): the better cosine counts.
        for label, cosine in store.search(qvec, pool * 2, allowed):
            cand = candidates.setdefault(label_chunk(label), Candidate(label_chunk(label), 0.0, {}))
            cand.channels["cosine"] = max(float(cosine), cand.channels.get("cosine", -1.0))
        # Lexical-only candidates: their exact cosine from the stored vectors.
        missing = [cid for cid, c in candidates.items() if "cosine" not in c.channels]
        if missing:
            stored = vectors_for(conn, embedder, missing)
            for cid in missing:
                vecs = stored.get(cid)
                candidates[cid].channels["cosine"] = float(np.max(vecs @ qvec)) if vecs is not None else 0.0
        if not semantic_only:
            # Vector-only candidates: how much of the query's wording they contain.
            unscored = [cid for cid, c in candidates.items() if "lexical" not in c.channels]
            for cid, value in coverage(conn, terms, unscored).items():
                candidates[cid].channels["lexical"] = value
        for cand in candidates.values():
            vector = calibrate(cand.channels["cosine"])
            lexical = 0.0 if semantic_only else cand.channels.get("lexical", 0.0)
            cand.channels["vector"] = vector
            cand.relevance = vector if semantic_only else fuse(vector, lexical)
        return candidates

    return channel
