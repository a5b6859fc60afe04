"""The semantic channel and its fusion with the lexical one (hybrid recall).

Cosine similarity is mapped to 0..1 by a fixed calibration of the model, so that a score
means the same thing from query to query:

    vector(c)    = clamp((cosine - floor) / (ceil - floor), 0, 1)
    relevance(c) = (vector_weight * vector(c) + text_weight * lexical(c)) / (vector_weight + text_weight)

with the weights of recall.settings (0.7 and 0.3 by default, so the divisor is 1).

Each model has its own cosine distribution, so (floor, ceil) is the embedder's
`calibration` attribute; a model that states none (a remote one) gets the one `memory index`
measured on the workspace's own vectors (embed.calibration), or, before any, MiniLM's:
all-MiniLM-L6-v2 (0.2, 1.6), use-multilingual-v3 (0.0, 2.0) (fitted the same way, see
embed/use.py), the ensemble of both (0.2, 1.6) on the mean of their cosines.

For MiniLM, COS_FLOOR = 0.2: below it MiniLM cosines are noise (text about the same people, not the
question). COS_CEIL = 1.6, above any cosine: it sets how much a cosine difference counts
against the lexical score, and MiniLM's question-to-answer cosines are modest (0.4-0.7),
so a steep map let the vector channel outvote exact wording. On LoCoMo (evidence recall
at 2,000 characters, hybrid; lexical alone gets 0.751):

    COS_CEIL   1.0    1.15   1.3    1.6    2.0    3.0
    recall     0.755  0.766  0.775  0.782  0.784  0.784

1.6 is where the curve flattens; at 1.0 hybrid was below lexical at 5 and 10 results (an
earlier, steeper 0.1..0.7 was worse still). A paraphrase that shares no word with the
query still counts: cosine 0.7 gives vector 0.36, relevance 0.25.

lexical(c) is the IDF-weighted term coverage of recall.lexical (0 when no query word
occurs in the chunk). Both pools (k x candidate multiplier each) are fused; a
candidate found by only one channel gets its other score computed exactly, so fusion
never treats "not in the other top list" as zero similarity.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from ..embed.base import Embedder
from ..index.base import Filters, VectorIndex
from . import embedding_thread
from .settings import RecallSettings

# MMR: next = argmax  lambda * score - (1 - lambda) * redundancy (lambda: settings.mmr_lambda), where redundancy is the
# max cosine to the results already chosen when it reaches NEAR_DUPLICATE_COS, else 0. Penalising
# every similarity (plain MMR) pushed related evidence out: on LoCoMo, consecutive turns about one
# event are similar, and plain MMR at 0.7 cost 0.045 of evidence recall at 2,000 characters.
NEAR_DUPLICATE_COS = 0.9
PAIR_MARGIN = 1e-3  # diversify: how far below NEAR_DUPLICATE_COS a pair is still checked exactly
COS_FLOOR = 0.2
COS_CEIL = 1.6
# The media space's map (media_space.py: a question against images and recordings, Gemini's
# gemini-embedding-2). Not fitted: no real answers of that model can be had offline. Text-to-image
# cosines of multimodal models run lower than text-to-text ones, so the ceiling is 1.0, not 1.6:
# a question-to-photo cosine of 0.6 counts as 0.5. Fit it on real answers before relying on it.
MEDIA_CALIBRATION = (0.2, 1.0)


_embedding = threading.Lock()  # one question embedded at a time per process, as by the one worker thread before


class PendingVector:
    """A question's vector, computed in another thread (see SemanticChannel.embed_query): one of its
    own for a process's first question, the process's worker after (recall.embedding_thread).

    Not a concurrent.futures pool: its worker would outlive a `memory recall`, which then could not
    end at once (cli.leave needs no other thread), and the module costs ~10 ms to import.
    """

    def __init__(self, embed: Callable[[str], np.ndarray], query: str, extra: str | None = None,
                 embed_many: Callable[[list[str]], np.ndarray] | None = None) -> None:
        self._vector: np.ndarray | None = None
        self._error: BaseException | None = None
        # A second text, embedded with the question in the same thread (the question without the
        # names it seems to hold, recall.topic), so that its vector is ready when the engine knows
        # whether it is the one it needs. `embed_many`: one call for both, where a question embeds
        # as a document does (a batch of two costs USE about half of a second call).
        self._extra_text, self._extra = extra, None
        self._first, self._done = threading.Event(), threading.Event()
        self._embed_many = embed_many if extra is not None else None
        embedding_thread.start(lambda: self._run(embed, query))

    def _run(self, embed: Callable[[str], np.ndarray], query: str) -> None:
        try:
            self._embed(embed, query)
        finally:
            self._done.set()

    def _embed(self, embed: Callable[[str], np.ndarray], query: str) -> None:
        try:
            with _embedding:
                if self._embed_many is not None:
                    self._vector, self._extra = self._embed_many([query, str(self._extra_text)])
                else:
                    self._vector = embed(query)
        except BaseException as exc:  # handed to the caller by result()
            self._error = exc
        finally:
            self._first.set()
        if self._extra_text is not None and self._extra is None and self._error is None:
            try:
                with _embedding:
                    self._extra = embed(self._extra_text)
            except Exception:  # the engine embeds the text itself, and meets the error there
                self._extra_text = None

    def result(self) -> np.ndarray:
        """The vector, once computed; the embedder's exception if it failed."""
        if self._extra_text is None:
            self._done.wait()
        self._first.wait()
        if self._error is not None:
            raise self._error
        return self._vector  # type: ignore[return-value] - set when no error was

    def extra(self, text: str | None) -> np.ndarray | None:
        """The second text's vector if it is `text`, else None; the embedding is over on return."""
        self._done.wait()
        return self._extra if text is not None and text == self._extra_text else None


def calibration_of(embedder: Embedder, measured: tuple[float, float] | None = None) -> tuple[float, float]:
    """The embedder's fitted (floor, ceiling); for a model that states none, the one `memory index`
    measured on the workspace (`measured`, embed.calibration), else MiniLM's."""
    floor, ceil = getattr(embedder, "calibration", None) or measured or (COS_FLOOR, COS_CEIL)
    return float(floor), float(ceil)


def calibrate(cosine: float, calibration: tuple[float, float] = (COS_FLOOR, COS_CEIL)) -> float:
    """Map a cosine similarity to 0..1 with a fixed (floor, ceiling), MiniLM's by default."""
    floor, ceil = calibration
    return min(1.0, max(0.0, (cosine - floor) / (ceil - floor)))


def fuse(vector: float, lexical: float, settings: RecallSettings) -> float:
    """The hybrid relevance of one candidate (see module docstring)."""
    total = settings.vector_weight + settings.text_weight
    return (settings.vector_weight * vector + settings.text_weight * lexical) / total


def best_cosines(stored, qvec) -> dict[int, float]:  # {id: np.ndarray (vectors x dim)}, np.ndarray
    """Each entry's better cosine to `qvec` over its stored vectors (alone, and in context).

    One product per group of entries with as many vectors, not one per entry (hundreds of
    candidates a question): numpy runs a stack of matrices times a vector as one BLAS product per
    matrix of the stack, so each value is the same float32 as `vecs @ qvec` of that entry alone.
    """
    by_count: dict[int, list[int]] = {}
    for cid, vecs in stored.items():
        by_count.setdefault(len(vecs), []).append(cid)
    out: dict[int, float] = {}
    for ids in by_count.values():
        products = np.stack([stored[cid] for cid in ids]) @ qvec
        out.update(zip(ids, products.max(axis=1).tolist(), strict=True))
    return out


class SemanticChannel:
    """What the recall pipeline uses when vectors exist: candidates + fusion, and MMR."""

    def __init__(self, vectors: VectorIndex, embedder: Embedder, semantic_only: bool = False,
                 settings: RecallSettings | None = None, measured: tuple[float, float] | None = None,
                 media=None) -> None:  # media_space.MediaChannel | None
        self.media = media  # images and recordings embedded as themselves (media_space.py), when chosen
        self._media_query: PendingVector | None = None
        self.vectors = vectors
        self.embedder = embedder
        self.calibration = calibration_of(embedder, measured)
        self.settings = settings or RecallSettings()
        self.semantic_only = semantic_only

    def embed_query(self, u) -> PendingVector | None:  # query.Understood
        """Start embedding the question in a worker thread (None when it has no words).

        The model and SQLite both release the GIL, so the lexical pools run while the question
        is embedded: a hybrid recall waits for the longer of the two, not for their sum.
        """
        query = u.text or u.time_phrase or ""
        if not query.strip():
            return None
        from . import topic

        embedding_thread.asked()
        many = self.embedder.embed_documents if getattr(self.embedder, "queries_as_documents", False) else None
        if self.media is not None:  # the question in the media space too, meanwhile
            self._media_query = PendingVector(self.media.embed_query, query)
        return PendingVector(self.embedder.embed_query, query,
                             topic.guess(topic.asked(u.text, u.time_phrase), u.entity_names), many)

    def add_candidates(self, u, pool: int, filters: Filters, candidates,  # see engine
                       pending: PendingVector | None = None):
        """Add the vector pool to `candidates`, give every candidate its cosine; return the query vector.

        `pending` is what embed_query started for `u` (started here when not given)."""
        from .candidates import Candidate

        pending = pending or self.embed_query(u)
        if pending is None:
            self.fill_cosines(None, candidates)
            return None
        qvec = pending.result()
        # Each entry has two vectors (alone, after the previous entry): the better cosine counts.
        for cid, cosine in self.vectors.search(qvec, pool, filters):
            cand = candidates.setdefault(cid, Candidate(cid, 0.0, {}))
            if "vector" not in cand.found_by:
                cand.found_by.append("vector")
            cand.channels["cosine"] = max(float(cosine), cand.channels.get("cosine", -1.0))
        if self._media_query is not None:
            self.add_media(self._media_query.result(), filters, candidates)
        self.fill_cosines(qvec, candidates)
        return qvec

    def add_media(self, mvec, filters: Filters, candidates) -> None:  # np.ndarray | None, {id: Candidate}
        """The entries of the media files nearest to the question in the media space, with their
        `media` cosine (which relevance() weighs against the text cosine)."""
        from .candidates import Candidate

        for cid, cosine in self.media.cosines(mvec, filters).items():
            cand = candidates.setdefault(cid, Candidate(cid, 0.0, {}))
            cand.found_by.append("media")
            cand.channels["media"] = cosine

    def fill_cosines(self, qvec, candidates, channel: str = "cosine") -> None:  # np.ndarray | None, {id: Candidate}
        """The exact cosine, from the stored vectors, of candidates that the vector pool did not return
        (`channel`: "cosine" for the question, "topic" for the question without its names)."""
        missing = [cid for cid, c in candidates.items() if channel not in c.channels]
        if not missing:
            return
        cosines = best_cosines(self.vectors.vectors_of(missing), qvec) if qvec is not None else {}
        for cid in missing:
            candidates[cid].channels[channel] = cosines.get(cid, 0.0)

    def add_topic(self, text: str, qvec, pool: int, filters: Filters, candidates,  # see recall.topic
                  tvec=None):
        """The question without its names (`tvec`: its vector, if embedded already): add its vector
        pool and give every candidate its "topic" cosine (which then counts instead of "cosine");
        return the vector."""
        from .candidates import Candidate

        if tvec is None:
            tvec = PendingVector(self.embedder.embed_query, text).result()
        for cid, cosine in self.vectors.search(tvec, pool, filters):
            cand = candidates.get(cid)
            if cand is None:
                cand = candidates[cid] = Candidate(cid, 0.0, {})
            if "topic" not in cand.found_by:
                cand.found_by.append("topic")
            cand.channels["topic"] = float(cosine)
        self.fill_both(qvec, tvec, candidates)
        return tvec

    def fill_both(self, qvec, tvec, candidates) -> None:
        """fill_cosines for the question, and for the question without its names when there is one."""
        self.fill_cosines(qvec, candidates)
        if tvec is not None:
            self.fill_cosines(tvec, candidates, "topic")

    def relevance(self, cand) -> float:  # engine.Candidate
        """The candidate's relevance: its calibrated cosine (to the question without its names, when
        it names people: recall.topic), fused with its lexical score in hybrid mode."""
        channels = cand.channels
        vector = calibrate(channels["topic"] if "topic" in channels else channels.get("cosine", 0.0),
                           self.calibration)
        if "media" in channels:  # a media entry: the better of its text's and its file's cosine
            vector = max(vector, calibrate(channels["media"], MEDIA_CALIBRATION))
        cand.channels["vector"] = vector
        return vector if self.semantic_only else fuse(vector, cand.channels.get("lexical", 0.0), self.settings)

    def diversify(self, ranked: list, limit: int) -> list:
        """Maximal marginal relevance over `ranked` (best first), using each entry's own vector."""
        lam = self.settings.mmr_lambda
        if len(ranked) < 3 or lam >= 1.0:
            return ranked
        stored = self.vectors.vectors_of([c.chunk_id for c in ranked])
        dim = self.embedder.dim
        # The entry alone (first vector), not its context; zeros when it has none.
        matrix = np.vstack([stored[c.chunk_id][0] if c.chunk_id in stored else np.zeros(dim, np.float32)
                            for c in ranked])
        scores = np.array([c.score for c in ranked], dtype=np.float32)
        redundancy = np.zeros(len(ranked), dtype=np.float32)  # max cosine to what was chosen
        open_ = np.ones(len(ranked), dtype=bool)
        order: list[int] = []
        weighted = lam * scores  # lam x score, the value of an entry no chosen one nearly repeats
        # In a round where no open entry nearly repeats a chosen one (most rounds), the value is the
        # weighted score: the best open entry in this order (ties: the first, as argmax takes). Only
        # the other rounds compute the penalties, the same float32 arithmetic either way.
        values = weighted.tolist()  # the float32 values as Python floats (exact): a cheap sort key
        by_weight = sorted(range(len(ranked)), key=lambda i: (-values[i], i))
        next_by_weight = 0
        near: set[int] = set()  # open entries whose redundancy reached NEAR_DUPLICATE_COS
        # The pairs that may be near-duplicates, from one product of the matrix with itself: its values
        # are within a few float32 steps of each round's own product, far inside PAIR_MARGIN. A round
        # whose entry may nearly repeat no open one skips its product: only redundancies that reach
        # NEAR_DUPLICATE_COS count, and a round that adds none changes no penalty nor `near`.
        maybe: dict[int, list[int]] = {}
        pair_rows, pair_cols = np.nonzero(matrix @ matrix.T >= NEAR_DUPLICATE_COS - PAIR_MARGIN)
        for i, j in zip(pair_rows.tolist(), pair_cols.tolist(), strict=True):
            if i != j:
                maybe.setdefault(i, []).append(j)
        while len(order) < min(limit, len(ranked)):
            if near:
                penalty = np.where(redundancy >= NEAR_DUPLICATE_COS, redundancy, 0.0)
                best = int(np.argmax(np.where(open_, weighted - (1 - lam) * penalty, -np.inf)))
            else:
                while not open_[by_weight[next_by_weight]]:
                    next_by_weight += 1
                best = by_weight[next_by_weight]
            order.append(best)
            open_[best] = False
            near.discard(best)
            if not any(open_[j] for j in maybe.get(best, ())):
                continue
            similar = matrix @ matrix[best]
            redundancy = np.maximum(redundancy, similar)
            near.update(i for i in np.flatnonzero(similar >= NEAR_DUPLICATE_COS).tolist() if open_[i])
        chosen = set(order)
        return [ranked[i] for i in order] + [c for i, c in enumerate(ranked) if i not in chosen]
