"""The semantic channel and its fusion with the lexical one (hybrid recall).

Cosine similarity from all-MiniLM-L6-v2 is mapped to 0..1 by a fixed calibration, so
that a score means the same thing from query to query:

    vector(c)    = clamp((cosine - COS_FLOOR) / (COS_CEIL - COS_FLOOR), 0, 1)
    relevance(c) = W_VECTOR * vector(c) + W_TEXT * lexical(c)

COS_FLOOR = 0.2: below it MiniLM cosines are noise (text about the same people, not the
question). COS_CEIL = 1.0: a steeper map (0.1..0.7) let the vector channel outvote exact
wording; on LoCoMo (evidence recall at 2,000 characters, hybrid) 0.1..0.7 gave 0.705,
0.2..0.8 0.711, 0.2..1.0 0.727, 0.0..1.0 0.678.

lexical(c) is the IDF-weighted term coverage of recall.lexical (0 when no query word
occurs in the chunk). Both pools (k x candidate multiplier each) are fused; a
candidate found by only one channel gets its other score computed exactly, so fusion
never treats "not in the other top list" as zero similarity.
"""

from __future__ import annotations

import sqlite3

import numpy as np

from ..embed.base import Embedder
from ..index.vector_sync import chunk_labels, label_chunk, vectors_for

W_VECTOR = 0.7
W_TEXT = 0.3
# MMR: next = argmax  MMR_LAMBDA * score - (1 - MMR_LAMBDA) * redundancy, where redundancy is the
# max cosine to the results already chosen when it reaches NEAR_DUPLICATE_COS, else 0. Penalising
# every similarity (plain MMR) pushed related evidence out: on LoCoMo, consecutive turns about one
# event are similar, and plain MMR at 0.7 cost 0.045 of evidence recall at 2,000 characters.
MMR_LAMBDA = 0.7
NEAR_DUPLICATE_COS = 0.9
COS_FLOOR = 0.2
COS_CEIL = 1.0


def calibrate(cosine: float) -> float:
    """Map a cosine similarity to 0..1 with the fixed calibration above."""
    return min(1.0, max(0.0, (cosine - COS_FLOOR) / (COS_CEIL - COS_FLOOR)))


def fuse(vector: float, lexical: float) -> float:
    """The hybrid relevance of one candidate (see module docstring)."""
    return W_VECTOR * vector + W_TEXT * lexical


class SemanticChannel:
    """What the recall pipeline uses when vectors exist: candidates + fusion, and MMR."""

    def __init__(self, conn: sqlite3.Connection, store, embedder: Embedder,  # noqa: ANN001 - VectorStore
                 semantic_only: bool = False) -> None:
        self.conn = conn
        self.store = store
        self.embedder = embedder
        self.semantic_only = semantic_only

    def add_candidates(self, u, pool, where, params, candidates):  # noqa: ANN001, ANN201 - see engine
        """Add the vector pool to `candidates`, give every candidate its cosine; return the query vector."""
        from .candidates import Candidate

        query = u.text or u.time_phrase or ""
        if not query.strip():
            self.fill_cosines(None, candidates)
            return None
        qvec = self.embedder.embed_query(query)
        allowed = None
        if where:
            allowed = {label for (cid,) in self.conn.execute(f"SELECT c.id FROM chunks c WHERE {where}", params)
                       for label in chunk_labels(cid)}
        # Each chunk has two vectors (alone, after the previous entry): the better cosine counts.
        for label, cosine in self.store.search(qvec, pool * 2, allowed):
            cand = candidates.setdefault(label_chunk(label), Candidate(label_chunk(label), 0.0, {}))
            if "vector" not in cand.found_by:
                cand.found_by.append("vector")
            cand.channels["cosine"] = max(float(cosine), cand.channels.get("cosine", -1.0))
        self.fill_cosines(qvec, candidates)
        return qvec

    def fill_cosines(self, qvec, candidates) -> None:  # noqa: ANN001 - np.ndarray | None, {id: Candidate}
        """The exact cosine, from the stored vectors, of candidates that the vector pool did not return."""
        missing = [cid for cid, c in candidates.items() if "cosine" not in c.channels]
        if not missing:
            return
        stored = vectors_for(self.conn, self.embedder, missing) if qvec is not None else {}
        for cid in missing:
            vecs = stored.get(cid)
            candidates[cid].channels["cosine"] = float(np.max(vecs @ qvec)) if vecs is not None else 0.0

    def relevance(self, cand) -> float:  # noqa: ANN001 - engine.Candidate
        """The candidate's relevance: its calibrated cosine, fused with its lexical score in hybrid mode."""
        vector = calibrate(cand.channels.get("cosine", 0.0))
        cand.channels["vector"] = vector
        return vector if self.semantic_only else fuse(vector, cand.channels.get("lexical", 0.0))

    def diversify(self, ranked: list, limit: int) -> list:
        """Maximal marginal relevance over `ranked` (best first), using each entry's own vector."""
        if len(ranked) < 3 or MMR_LAMBDA >= 1.0:
            return ranked
        stored = vectors_for(self.conn, self.embedder, [c.chunk_id for c in ranked])
        dim = self.embedder.dim
        # The entry alone (first vector), not its context; zeros when it has none.
        matrix = np.vstack([stored[c.chunk_id][0] if c.chunk_id in stored else np.zeros(dim, np.float32)
                            for c in ranked])
        scores = np.array([c.score for c in ranked], dtype=np.float32)
        redundancy = np.zeros(len(ranked), dtype=np.float32)  # max cosine to what was chosen
        open_ = np.ones(len(ranked), dtype=bool)
        order: list[int] = []
        while len(order) < min(limit, len(ranked)):
            penalty = np.where(redundancy >= NEAR_DUPLICATE_COS, redundancy, 0.0)
            value = np.where(open_, MMR_LAMBDA * scores - (1 - MMR_LAMBDA) * penalty, -np.inf)
            best = int(np.argmax(value))
            order.append(best)
            open_[best] = False
            redundancy = np.maximum(redundancy, matrix @ matrix[best])
        chosen = set(order)
        return [ranked[i] for i in order] + [c for i, c in enumerate(ranked) if i not in chosen]


def semantic_channel(conn: sqlite3.Connection, store, embedder: Embedder,  # noqa: ANN001 - VectorStore
                     semantic_only: bool = False) -> SemanticChannel:
    """The object the recall pipeline uses to add vector candidates, fuse scores and diversify."""
    return SemanticChannel(conn, store, embedder, semantic_only)
