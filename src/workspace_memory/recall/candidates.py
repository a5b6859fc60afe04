"""A recall candidate: an entry with its channels, factors and score as the pipeline fills them in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Candidate:
    chunk_id: int
    relevance: float
    channels: dict[str, float] = field(default_factory=dict)
    factors: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    row: Any = field(default_factory=dict)  # index.base.ChunkRow
    found_by: list[str] = field(default_factory=list)  # the pools it came from, for --explain
    filled: bool = False  # under min_score, kept to fill a short list (engine step 6)
