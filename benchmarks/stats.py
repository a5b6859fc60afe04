"""Small statistics helpers shared by the benchmark scripts."""

from __future__ import annotations


def pct(values: list[float], q: float) -> float:
    """The `q` quantile (0..1) of `values`, by nearest rank; no interpolation."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def time_recalls(mem, queries: list[str], runs: int, mode: str) -> list[float]:  # noqa: ANN001 - api.Memory
    """Seconds of each in-process recall: every query, enough rounds to make about `runs` timings."""
    import time

    from workspace_memory.recall.query import RecallRequest

    seconds = []
    for _ in range(max(1, runs // len(queries) + 1)):
        for q in queries:
            t0 = time.perf_counter()
            mem.recall(RecallRequest(q, k=10, mode=mode))
            seconds.append(time.perf_counter() - t0)
    return seconds
