"""Recall settings: the `[recall]` table of `memory.toml`.

```toml
[recall]
vector_weight = 0.7         # hybrid relevance = vector_weight x vector + text_weight x lexical
text_weight = 0.3
candidate_multiplier = 4    # each channel's pool is k x this (at least 40)
half_life_days = 30         # recency of dated daily notes (bounded, see recall.rank)
mmr_lambda = 0.7            # 1.0 turns the near-duplicate penalty off
min_score = 0.05            # results below are dropped, unless only keyword hits would be left
sources = ["memory"]        # what recall searches by default: "memory", "sessions" (see [sessions])
```

Every key is optional; the defaults above are what the figures in docs/benchmarks.md were measured with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..index.base import SOURCES
from ..values import Value
from .rank import HALF_LIFE_DAYS


# A Value, not a frozen dataclass (values.py): every recall reads its settings. FIELDS and replace()
# stand for dataclasses.fields() and dataclasses.replace(); equal settings compare and hash alike.
class RecallSettings(Value):
    """The tunable parts of the recall pipeline (module docstring)."""

    FIELDS = ("vector_weight", "text_weight", "candidate_multiplier", "half_life_days", "mmr_lambda", "min_score",
              "sources")
    __slots__ = FIELDS

    def __init__(self, vector_weight: float = 0.7, text_weight: float = 0.3, candidate_multiplier: int = 4,
                 half_life_days: float = HALF_LIFE_DAYS, mmr_lambda: float = 0.7, min_score: float = 0.05,
                 sources: tuple[str, ...] = ("memory",)) -> None:
        self.vector_weight, self.text_weight = vector_weight, text_weight
        self.candidate_multiplier, self.half_life_days = candidate_multiplier, half_life_days
        self.mmr_lambda, self.min_score, self.sources = mmr_lambda, min_score, sources

    @classmethod
    def from_mapping(cls, d: Mapping[str, Any] | None) -> RecallSettings:
        """Build from the `[recall]` table; ValueError names the key that is unknown or out of range."""
        d = dict(d or {})
        known = cls.FIELDS
        values: dict[str, Any] = {}
        for key, raw in d.items():
            if key not in known:
                raise ValueError(f"unknown key {key!r}; expected one of: {', '.join(known)}")
            if key == "sources":
                values[key] = parse_sources(raw, "sources")
                continue
            if isinstance(raw, bool) or not isinstance(raw, int | float):
                raise ValueError(f"{key} must be a number, not {raw!r}")
            values[key] = int(raw) if key == "candidate_multiplier" else float(raw)
        settings = cls(**values)
        settings._check()
        return settings

    def _check(self) -> None:
        for key in ("vector_weight", "text_weight", "mmr_lambda", "min_score"):
            if not 0.0 <= getattr(self, key) <= 1.0:
                raise ValueError(f"{key} must be between 0 and 1, not {getattr(self, key)}")
        if self.vector_weight + self.text_weight <= 0:
            raise ValueError("vector_weight and text_weight cannot both be 0")
        if self.candidate_multiplier < 1:
            raise ValueError(f"candidate_multiplier must be at least 1, not {self.candidate_multiplier}")
        if self.half_life_days <= 0:
            raise ValueError(f"half_life_days must be positive, not {self.half_life_days}")


def parse_sources(value: Any, name: str = "--source") -> tuple[str, ...]:
    """"memory", "sessions", "all", a comma-separated string or a list of them -> a tuple of SOURCES."""
    parts = value.split(",") if isinstance(value, str) else value
    if not isinstance(parts, list | tuple) or not parts:
        raise ValueError(f"{name} must name sources: {', '.join(SOURCES)} or all")
    out: list[str] = []
    for part in parts:
        name_ = str(part).strip().lower()
        if name_ == "all":
            out += SOURCES
        elif name_ in SOURCES:
            out.append(name_)
        else:
            raise ValueError(f"{name} {part!r}: expected {', '.join(SOURCES)} or all")
    return tuple(dict.fromkeys(out))
