"""Indexing and lexical recall speed on synthetic workspaces (issue: foundation).

    python benchmarks/synthetic.py [--days 365] [--big-days 10000] [--runs 15]
        [--src BASE/src --src NEW/src] [--rounds 3]

Prints, for a 365-day workspace (~40 lines a day, 50 entities) and a 10,000-file one:
full index time and files/s, re-sync after touching one file, lexical recall latency
p50/p95 in-process, and a cold `memory recall` process (wall time, median of runs).
Targets: cold lexical recall <= 0.3 s on 365 days; re-sync after one change <= 0.3 s on 10,000 files.
Embeddings are off here (MEMORY_EMBED_PROVIDER=none): this measures the lexical foundation;
benchmarks/semantic.py measures indexing and recall with the model.

With `--src` (repeatable), each workspace is measured `--rounds` times per source tree, in turn,
in a child process with that tree first on PYTHONPATH and a fresh copy of the same generated
workspace (no index), so that two versions see the same load. Each figure is then given as the
median per tree with its ratio to the first tree's, in wall time and CPU time (`*_cpu`: user +
system of the process for in-process phases, of the `memory` child for cold recalls).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import alternate, child_env, load, measured, pct, show_medians
from workspace_gen import generate

NOW = "2025-11-30T18:00"
QUERIES = ["Peter concise replies", "reconnect logic", "Marrakech", "deploy pipeline risk", "ticket 0a1b2c3",
           "warelay.retrySize", "Anna follow up invoices", "backups", "who prefers green tea", "Tokyo"]
MEMORY_BIN = str(Path(sys.executable).parent / "memory")


def bench_workspace(root: Path, runs: int, label: str) -> dict[str, float]:
    """Index, re-sync, in-process and cold recall on `root` (not yet indexed); prints and returns the figures."""
    from workspace_memory.api import Memory
    from workspace_memory.recall.query import RecallRequest

    mem = Memory.open(str(root), NOW)
    t0, c0 = time.perf_counter(), time.process_time()
    report = mem.index()
    full, full_cpu = time.perf_counter() - t0, time.process_time() - c0
    files = report.added
    print(f"[{label}] full index: {full:.2f} s (CPU {full_cpu:.2f} s), {files} files, {files / full:.0f} files/s, "
          f"{mem.status()['chunks']} chunks")
    # Re-sync after changing one file (content + mtime), median over runs.
    logs = sorted((root / "memory").rglob("*.md"))
    resync, resync_cpu = [], []
    for i in range(runs):
        target = logs[(i * 37) % len(logs)]
        with open(target, "a") as fh:
            fh.write(f"- S @Peter: benchmark edit {i}.\n")
        t0, c0 = time.perf_counter(), time.process_time()
        mem.index()
        resync.append(time.perf_counter() - t0)
        resync_cpu.append(time.process_time() - c0)
    noop = []
    for _ in range(runs):
        t0 = time.perf_counter()
        mem.index()
        noop.append(time.perf_counter() - t0)
    print(f"[{label}] re-sync after one changed file: p50 {statistics.median(resync) * 1000:.0f} ms, "
          f"p95 {pct(resync, 0.95) * 1000:.0f} ms; no-change sync p50 {statistics.median(noop) * 1000:.0f} ms")
    lat, lat_cpu = [], []
    for _ in range(max(1, runs // len(QUERIES) + 1)):
        for q in QUERIES:
            t0, c0 = time.perf_counter(), time.process_time()
            mem.recall(RecallRequest(q, k=10, mode="lexical"))
            lat.append(time.perf_counter() - t0)
            lat_cpu.append(time.process_time() - c0)
    print(f"[{label}] lexical recall in-process: p50 {statistics.median(lat) * 1000:.1f} ms, "
          f"p95 {pct(lat, 0.95) * 1000:.1f} ms ({len(lat)} queries)")
    mem.close()
    cold, cold_cpu = [], []
    env = os.environ | {"MEMORY_NOW": NOW}
    for i in range(runs):
        q = QUERIES[i % len(QUERIES)]
        wall, cpu, _, _ = measured([MEMORY_BIN, "--workspace", str(root), "recall", q, "--mode", "lexical", "--json"],
                                   env)
        cold.append(wall)
        cold_cpu.append(cpu)
    print(f"[{label}] cold `memory recall` process: p50 {statistics.median(cold):.3f} s, "
          f"p95 {pct(cold, 0.95):.3f} s (wall, {runs} runs)")
    return {"index_s": full, "index_cpu": full_cpu, "resync_ms": statistics.median(resync) * 1000,
            "resync_cpu": statistics.median(resync_cpu) * 1000, "noop_ms": statistics.median(noop) * 1000,
            "recall_ms": statistics.median(lat) * 1000, "recall_cpu": statistics.median(lat_cpu) * 1000,
            "cold_s": statistics.median(cold), "cold_cpu": statistics.median(cold_cpu)}


def measure_in_child(src: str | None, generated: Path, work: Path, runs: int, label: str) -> dict[str, float]:
    """One measurement of the generated workspace, copied afresh, in a child with `src` on the path."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(generated, work, ignore=shutil.ignore_patterns(".memory"))
    out = subprocess.run([sys.executable, __file__, "--child", str(work), "--label", label, "--runs", str(runs)],
                         check=True, capture_output=True, text=True, env=child_env(src))
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    os.environ["MEMORY_EMBED_PROVIDER"] = "none"
    parser = argparse.ArgumentParser(description="Index and lexical recall benchmarks")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--big-days", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--src", action="append", default=[], metavar="DIR",
                        help="a source tree to measure (repeatable: measured in turn, --rounds times)")
    parser.add_argument("--rounds", type=int, default=3, help="with --src: rounds of every tree")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--label", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # one measurement for --src: the figures as the last line of JSON
        with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
            figures = bench_workspace(args.child, args.runs, args.label)
        print(json.dumps(figures))
        return
    tmp = Path(tempfile.mkdtemp(prefix="wm-bench-"))
    try:
        for days, label in ((args.days, f"{args.days} days"), (args.big_days, f"{args.big_days} files")):
            if days <= 0:
                continue
            root = tmp / label.replace(" ", "-")
            t0 = time.perf_counter()
            generate(root, days, 50)
            print(f"[{label}] generated in {time.perf_counter() - t0:.1f} s")
            if not args.src:
                bench_workspace(root, args.runs, label)
                continue
            print(f"[{label}] load before: {load()}")
            show_medians(alternate(args.src, args.rounds, measure_in_child, root, tmp / "work", args.runs, label))
            print(f"[{label}] load after: {load()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
