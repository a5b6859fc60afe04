"""Warm hybrid recall as the workspace grows: 10k, 100k and 1M entries (the real MiniLM model).

    python benchmarks/scale.py --workdir DIR [--sizes 10k,100k,1M] [--runs 30] [--unique-days 365]

For each size, a synthetic workspace (benchmarks/workspace_gen.py, four sessions of about 26
entries a day, so 1M entries are about 9,600 files) is generated and indexed with embeddings
once; `--workdir` keeps them, and a later run reuses the index (a no-op sync). Embedding a
million distinct texts would take days on 2 cores: only `--unique-days` distinct session logs
are written (about 19,000 distinct texts), the rest repeat them under other dates, and each
workspace's embedding cache is seeded from the next smaller one, so the cache, not the model,
supplies most vectors. The index is as big as a real one (entries, FTS rows, two vectors per
narrative entry in the HNSW graph); its texts are not all new.

Reported per size: entries, vectors, build seconds (this run's `memory index`, run as a process of
its own, or "kept") and the build's peak RSS (the largest of this run's builds so far), and with the model
loaded and warm:
- query only: `recall.engine.recall` on the open store (understanding, both channels, fusion,
  factors, neighbours, MMR, packing): the figure the targets are about (p50 <= 20 ms at 100k,
  <= 60 ms at 1M);
- `Memory.recall`: the same after the stat scan of every file that keeps the index current.
Then the growth of the query-only p50 from the smallest to each size (goal: <= 3x at 1M).
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

# As the CLI runs it (cli/app.py): BLAS on one thread, whose wake-ups cost more than the work.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).parent))
from stats import pct, time_recalls
from workspace_gen import generate
from workspace_memory.api import Memory
from workspace_memory.recall.engine import recall
from workspace_memory.recall.query import RecallRequest

MEMORY_BIN = str(Path(sys.executable).parent / "memory")
NOW = "2025-11-30T18:00"
SESSIONS = 4
ENTRIES_PER_SESSION = 26  # what workspace_gen writes, on average
SIZES = {"10k": 10_000, "100k": 100_000, "1M": 1_000_000}
QUERIES = ["who prefers concise replies", "problems with the reconnect logic", "trip to Marrakech",
           "what is the risk in the deploy pipeline", "follow up on invoices", "backup strategy",
           "which drink does Diego like", "meeting in Tokyo", "rate limits of the API", "design review outcome"]


def build(root: Path, entries: int, unique_days: int, seed_from: Path | None) -> tuple[float, float] | None:
    """Generate and index the workspace: (seconds, the peak RSS in GiB of the largest build so far), or
    None when a kept index is reused."""
    fresh = not (root / "memory").exists()
    if fresh:
        days = math.ceil(entries / (SESSIONS * ENTRIES_PER_SESSION))
        generate(root, days, 50, unique_days=unique_days, sessions=SESSIONS)
    if not fresh:  # a kept index: brought up to date (a no-op when nothing changed)
        mem = Memory.open(str(root), NOW)
        mem.index()
        mem.close()
        return None
    if seed_from is not None:
        mem = Memory.open(str(root), NOW)
        conn = mem.store.conn  # the schema is created on first use
        conn.execute("ATTACH DATABASE ? AS seed", (str(seed_from / ".memory" / "index.sqlite"),))
        conn.execute("INSERT OR IGNORE INTO main.embedding_cache SELECT * FROM seed.embedding_cache")
        conn.commit()
        conn.execute("DETACH DATABASE seed")
        mem.close()
    # The build is `memory index` in a process of its own, as a user runs it, so that its peak RSS
    # is its own (this process's later measurements load the model and the graph on top).
    t0 = time.perf_counter()
    subprocess.run([MEMORY_BIN, "--workspace", str(root), "--now", NOW, "index"], check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024**2  # KiB -> GiB


def measure(root: Path, runs: int) -> dict:
    mem = Memory.open(str(root), NOW)
    conn = mem.store.conn
    entries = conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    vectors = conn.execute("SELECT COUNT(text_hash) + COUNT(ctx_hash) FROM chunks").fetchone()[0]
    files = conn.execute("SELECT COUNT(*) FROM files").fetchone()[0]
    for q in QUERIES:  # warm-up: the model, the HNSW graph, the page cache
        mem.recall(RecallRequest(q, k=10, mode="hybrid"))
    semantic, _ = mem._semantic_channel("hybrid", mem.store)
    bare = []
    for _ in range(max(1, runs // len(QUERIES))):
        for q in QUERIES:
            t0 = time.perf_counter()
            recall(mem.store, RecallRequest(q, k=10, mode="hybrid"), now=mem.now, semantic=semantic,
                   settings=mem.recall_settings)
            bare.append(time.perf_counter() - t0)
    full = time_recalls(mem, QUERIES, runs, "hybrid")
    mem.close()
    return {"entries": entries, "vectors": vectors, "files": files, "bare": bare, "full": full}


def main() -> None:
    parser = argparse.ArgumentParser(description="warm hybrid recall at 10k, 100k and 1M entries")
    parser.add_argument("--workdir", type=Path, required=True, help="keeps the workspaces and their indexes")
    parser.add_argument("--sizes", default="10k,100k,1M")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--unique-days", type=int, default=365)
    args = parser.parse_args()
    sizes = [s.strip() for s in args.sizes.split(",")]
    previous: Path | None = None
    first_p50 = None
    print(f"load average {os.getloadavg()[0]:.1f} at start")
    print(f"{'size':<6} {'entries':>9} {'vectors':>9} {'files':>6} {'build':>8}  {'query p50':>9} {'p95':>7}"
          f"  {'Memory.recall p50':>17} {'p95':>7}  growth")
    for size in sizes:
        root = args.workdir / f"scale-{size}"
        built = build(root, SIZES[size], args.unique_days, previous)
        m = measure(root, args.runs)
        p50 = statistics.median(m["bare"])
        first_p50 = first_p50 or p50
        took = f"{built[0]:.0f} s" if built else "kept"
        print(f"{size:<6} {m['entries']:>9,} {m['vectors']:>9,} {m['files']:>6,} {took:>8}  {p50 * 1000:>6.1f} ms"
              f" {pct(m['bare'], 0.95) * 1000:>4.1f} ms  {statistics.median(m['full']) * 1000:>14.1f} ms"
              f" {pct(m['full'], 0.95) * 1000:>4.1f} ms  {p50 / first_p50:.2f}x"
              + (f"  (build peak RSS {built[1]:.2f} GiB)" if built else ""), flush=True)
        previous = root
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
