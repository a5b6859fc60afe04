"""The shortcuts of recall.semantic's vector work give the values and order of the plain computation:
MMR's rounds without a possible near-duplicate skip their product (SemanticChannel.diversify), and the
candidates' cosines are one stacked product (best_cosines)."""

from __future__ import annotations

import numpy as np
import pytest

from workspace_memory.recall.candidates import Candidate
from workspace_memory.recall.semantic import NEAR_DUPLICATE_COS, SemanticChannel, best_cosines
from workspace_memory.recall.settings import RecallSettings

DIM = 64


class Vectors:
    """The entries' stored vectors, as SqliteVectors.vectors_of hands them out."""

    def __init__(self, stored: dict[int, np.ndarray]) -> None:
        self.stored = stored

    def vectors_of(self, ids) -> dict[int, np.ndarray]:
        return {cid: self.stored[cid] for cid in ids if cid in self.stored}


class Embedder:
    dim = DIM
    calibration = (0.0, 2.0)


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=-1, keepdims=True)).astype(np.float32)


def plain_mmr(ranked: list[Candidate], stored: dict[int, np.ndarray], limit: int, lam: float) -> list[int]:
    """MMR computing every round's similarities (what diversify did before it skipped rounds)."""
    matrix = np.vstack([stored[c.chunk_id][0] for c in ranked])
    weighted = lam * np.array([c.score for c in ranked], dtype=np.float32)
    redundancy = np.zeros(len(ranked), dtype=np.float32)
    open_ = np.ones(len(ranked), dtype=bool)
    order: list[int] = []
    while len(order) < min(limit, len(ranked)):
        penalty = np.where(redundancy >= NEAR_DUPLICATE_COS, redundancy, 0.0)
        best = int(np.argmax(np.where(open_, weighted - (1 - lam) * penalty, -np.inf)))
        order.append(best)
        open_[best] = False
        redundancy = np.maximum(redundancy, matrix @ matrix[best])
    return [ranked[i].chunk_id for i in order]


@pytest.mark.parametrize("seed", range(12))
def test_mmr_skipping_rounds_orders_as_the_plain_computation(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 75
    own = unit(rng.standard_normal((n, DIM)))
    # Near-copies of some entries (cosines around and across NEAR_DUPLICATE_COS), and exact copies.
    for i in rng.choice(n, 20, replace=False):
        j = int(rng.integers(n))
        own[i] = unit(own[j] + rng.normal(0, float(rng.choice([0.2, 0.3, 0.4, 0.5])), DIM))
    own[5] = own[6]
    stored = {cid: np.vstack([own[cid], unit(rng.standard_normal(DIM))]) for cid in range(n)}
    scores = np.sort(rng.uniform(0.2, 0.9, n))[::-1]
    ranked = [Candidate(cid, 0.0, score=float(s)) for cid, s in zip(rng.permutation(n).tolist(), scores, strict=True)]
    settings = RecallSettings()
    channel = SemanticChannel(Vectors(stored), Embedder(), settings=settings)  # type: ignore[arg-type]
    got = [c.chunk_id for c in channel.diversify(ranked, 25)]
    assert got[:25] == plain_mmr(ranked, stored, 25, settings.mmr_lambda)
    assert sorted(got) == sorted(c.chunk_id for c in ranked)


def test_stacked_cosines_are_each_entrys_own_product() -> None:
    rng = np.random.default_rng(7)
    stored = {cid: unit(rng.standard_normal((1 + cid % 2, 512))) for cid in range(150)}
    query = unit(rng.standard_normal(512))
    assert best_cosines(stored, query) == {cid: max((vecs @ query).tolist()) for cid, vecs in stored.items()}
