"""Indexing and lexical recall speed on synthetic workspaces (issue: foundation).

    python benchmarks/synthetic.py [--days 365] [--big-days 10000] [--runs 15]

Prints, for a 365-day workspace (~40 lines a day, 50 entities) and a 10,000-file one:
full index time and files/s, re-sync after touching one file, lexical recall latency
p50/p95 in-process, and a cold `memory recall` process (wall time, median of runs).
Targets: cold lexical recall <= 0.3 s on 365 days; re-sync after one change <= 0.3 s on 10,000 files.
Embeddings are off here (MEMORY_EMBED_PROVIDER=none): this measures the lexical foundation;
benchmarks/semantic.py measures indexing and recall with the model.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import pct, time_recalls
from workspace_gen import generate
from workspace_memory.api import Memory

NOW = "2025-11-30T18:00"
QUERIES = ["Peter concise replies", "reconnect logic", "Marrakech", "deploy pipeline risk", "ticket 0a1b2c3",
           "warelay.retrySize", "Anna follow up invoices", "backups", "who prefers green tea", "Tokyo"]
MEMORY_BIN = str(Path(sys.executable).parent / "memory")


def bench_workspace(root: Path, runs: int, label: str) -> None:
    mem = Memory.open(str(root), NOW)
    t0 = time.perf_counter()
    report = mem.index()
    full = time.perf_counter() - t0
    files = report.added
    print(f"[{label}] full index: {full:.2f} s, {files} files, {files / full:.0f} files/s, "
          f"{mem.status()['chunks']} chunks")
    # Re-sync after changing one file (content + mtime), median over runs.
    logs = sorted((root / "memory").rglob("*.md"))
    resync = []
    for i in range(runs):
        target = logs[(i * 37) % len(logs)]
        with open(target, "a") as fh:
            fh.write(f"- S @Peter: benchmark edit {i}.\n")
        t0 = time.perf_counter()
        mem.index()
        resync.append(time.perf_counter() - t0)
    noop = []
    for _ in range(runs):
        t0 = time.perf_counter()
        mem.index()
        noop.append(time.perf_counter() - t0)
    print(f"[{label}] re-sync after one changed file: p50 {statistics.median(resync) * 1000:.0f} ms, "
          f"p95 {pct(resync, 0.95) * 1000:.0f} ms; no-change sync p50 {statistics.median(noop) * 1000:.0f} ms")
    lat = time_recalls(mem, QUERIES, runs, "lexical")
    print(f"[{label}] lexical recall in-process: p50 {statistics.median(lat) * 1000:.1f} ms, "
          f"p95 {pct(lat, 0.95) * 1000:.1f} ms ({len(lat)} queries)")
    mem.close()
    cold = []
    env = os.environ | {"MEMORY_NOW": NOW}
    for i in range(runs):
        q = QUERIES[i % len(QUERIES)]
        t0 = time.perf_counter()
        subprocess.run([MEMORY_BIN, "--workspace", str(root), "recall", q, "--mode", "lexical", "--json"],
                       check=True, capture_output=True, env=env)
        cold.append(time.perf_counter() - t0)
    print(f"[{label}] cold `memory recall` process: p50 {statistics.median(cold):.3f} s, "
          f"p95 {pct(cold, 0.95):.3f} s (wall, {runs} runs)")


def main() -> None:
    os.environ["MEMORY_EMBED_PROVIDER"] = "none"
    parser = argparse.ArgumentParser(description="Index and lexical recall benchmarks")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--big-days", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="wm-bench-"))
    try:
        for days, label in ((args.days, f"{args.days} days"), (args.big_days, f"{args.big_days} files")):
            if days <= 0:
                continue
            root = tmp / label.replace(" ", "-")
            t0 = time.perf_counter()
            generate(root, days, 50)
            print(f"[{label}] generated in {time.perf_counter() - t0:.1f} s")
            bench_workspace(root, args.runs, label)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
