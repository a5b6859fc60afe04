"""Small statistics helpers shared by the benchmark scripts."""

from __future__ import annotations


def pct(values: list[float], q: float) -> float:
    """The `q` quantile (0..1) of `values`, by nearest rank; no interpolation."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]
