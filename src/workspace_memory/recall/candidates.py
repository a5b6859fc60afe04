"""A recall candidate: an entry with its channels, factors and score as the pipeline fills them in."""

from __future__ import annotations

from typing import Any


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module. Candidates are keyed by chunk id and never compared.
class Candidate:
    """One entry in the running: its relevance, channel values and score factors (--explain), the
    row it was read as, the pools it came from, and whether it only fills a short list."""

    __slots__ = ("chunk_id", "relevance", "channels", "factors", "score", "row", "found_by", "filled")

    def __init__(self, chunk_id: int, relevance: float, channels: dict[str, float] | None = None,
                 factors: dict[str, float] | None = None, score: float = 0.0, row: Any = None,
                 found_by: list[str] | None = None, filled: bool = False) -> None:
        self.chunk_id = chunk_id
        self.relevance = relevance
        self.channels: dict[str, float] = {} if channels is None else channels
        self.factors: dict[str, float] = {} if factors is None else factors
        self.score = score
        self.row: Any = {} if row is None else row  # index.base.ChunkRow
        self.found_by: list[str] = [] if found_by is None else found_by  # the pools it came from, for --explain
        self.filled = filled  # under min_score, kept to fill a short list (engine step 6)

    def __repr__(self) -> str:
        return f"Candidate(chunk_id={self.chunk_id!r}, relevance={self.relevance!r}, score={self.score!r})"
