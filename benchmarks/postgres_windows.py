"""Time-window reads of the Postgres store on one big workspace: median of N, with the load average.

    python benchmarks/postgres_windows.py --store-url postgresql://... [--workspace-name wd-big]
        [--root DIR] [--rounds 21] [--explain]

What a question with a time phrase costs the store (recall/window.py, index/postgres/reads.py):
- `holds`: does the window hold any entry (every question with a time phrase asks; a window that
  holds none is the slow case of a scan: it reads everything to say no);
- `browse`: the entries of the window, up to 12 of each day, newest first (an events-only question
  such as "what happened last week"; limit 600, the pool of 50 x 12);
- `pool`: the window's own BM25 candidate pool (a question with words and a time phrase), one word.
With `--root` (the workspace's folder, for the file check a recall makes first), also whole lexical
recalls of events-only questions through `Memory.recall`. `--explain` prints the plan of every
statement of the store-level reads (EXPLAIN ANALYZE, after the timings).

The workspace is the big one of benchmarks/postgres.py (`--workdir W` names it "W-big" in the
store, e.g. "wd-big" for `--workdir /tmp/x/wd`; 3,850 days, about 100k entries, ending 2025-12-01).
Run once with the code before a change (PYTHONPATH=that src) and once after: opening the store with
newer code applies its migrations.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

NOW = "2025-12-01T09:00"
WINDOWS = {  # name -> (start, end), as recall/query.py resolves the phrases at NOW
    "yesterday": (date(2025, 11, 30), date(2025, 11, 30)),
    "last week": (date(2025, 11, 24), date(2025, 11, 30)),
    "November 2024": (date(2024, 11, 1), date(2024, 11, 30)),
    "a day in 2019": (date(2019, 3, 14), date(2019, 3, 14)),
    "empty (2030)": (date(2030, 1, 1), date(2030, 1, 7)),
    "all of 2016": (date(2016, 1, 1), date(2016, 12, 31)),
}
WORD = "release"  # a word of workspace_gen's logs, in a few percent of entries
QUESTIONS = ["what happened yesterday", "what happened last week", "what happened in November 2024",
             "what happened on March 14, 2019"]


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def median_ms(fn: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    """The median wall time of `fn` over `rounds` calls (after one warm call), and its last result."""
    result = fn()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 2), result


class Recorder:
    """The store's connection, recording every statement (for --explain)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.statements: list[tuple[str, Any]] = []

    def execute(self, sql: Any, params: Any = None, **kw: Any) -> Any:
        self.statements.append((sql, params))
        return self._conn.execute(sql, params, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def store_reads(url: str, name: str, rounds: int, explain: bool) -> dict[str, Any]:
    from workspace_memory.index.base import Filters, Term
    from workspace_memory.index.postgres.store import PostgresStore

    store = PostgresStore(url, name)
    if not store.exists():
        sys.exit(f"no workspace named {name!r} in the store")
    applied = store.db.conn.execute("SELECT max(version) FROM migrations").fetchone()[0]
    terms = [Term(WORD)]
    out: dict[str, Any] = {"migrations": applied, "entries": store.stats().chunks}
    for label, window in WINDOWS.items():
        filters = store.scoped(Filters().within(window))
        reads = {"holds": lambda f=filters: store.holds_entries(f),
                 "browse": lambda f=filters: len(store.browse(f, 600, per_day=12)),
                 "pool": lambda f=filters: len(store.lexical_pool(terms, 50, f))}
        row: dict[str, Any] = {}
        for what, fn in reads.items():
            ms, result = median_ms(fn, rounds)
            row[what] = {"ms": ms, "result": result}
        out[label] = row
        print(f"{label:14} " + "  ".join(f"{w} {r['ms']:7.2f} ms ({r['result']})" for w, r in row.items()), flush=True)
        if explain:
            recorder = Recorder(store.db.conn)
            store.db._conn = recorder  # a benchmark's look inside
            try:
                for fn in reads.values():
                    fn()
            finally:
                store.db._conn = recorder._conn
            for sql, params in recorder.statements:
                if str(sql).lstrip().upper().startswith("SELECT"):
                    plan = store.db.conn.execute(f"EXPLAIN (ANALYZE, COSTS OFF) {sql}", params).fetchall()
                    print("   ", "\n    ".join(r[0] for r in plan), flush=True)
    store.close()
    return out


def recalls(root: Path, url: str, name: str, rounds: int) -> dict[str, float]:
    os.environ.update({"MEMORY_STORE_URL": url, "MEMORY_STORE_WORKSPACE": name, "MEMORY_EMBED_PROVIDER": "none"})
    from workspace_memory.api import Memory
    from workspace_memory.recall.query import RecallRequest

    mem = Memory.open(str(root), NOW)
    out = {}
    for question in QUESTIONS:
        ms, _ = median_ms(lambda q=question: mem.recall(RecallRequest(q, k=10, mode="lexical")), rounds)
        out[question] = ms
        print(f"recall {question!r}: {ms:.1f} ms", flush=True)
    mem.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store-url", required=True)
    parser.add_argument("--workspace-name", default="wd-big")
    parser.add_argument("--root", type=Path, default=None, help="the workspace's folder: also time whole recalls")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--explain", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {"rounds": args.rounds, "load_before": load()}
    print(report["load_before"], flush=True)
    report["store"] = store_reads(args.store_url, args.workspace_name, args.rounds, args.explain)
    if args.root is not None:
        report["recall"] = recalls(args.root, args.store_url, args.workspace_name, args.rounds)
    report["load_after"] = load()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
