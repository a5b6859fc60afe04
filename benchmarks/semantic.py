"""Speed of semantic indexing and hybrid recall (issue: recall that understands the question).

    python benchmarks/semantic.py [--days 60] [--big-days 4000] [--runs 15] [--only latency] [--workdir DIR]

1. Indexing with embeddings vs sentence-transformers' own encode time for the same texts,
   both measured in this run with the model already loaded (the one-time ONNX export is
   made beforehand and reported on its own; indexing encodes through it, so a ratio under
   1 is expected). Target: index <= 1.2 x encode. benchmarks/embed_speed.py compares the
   two encoders directly.
2. Hybrid recall latency with the model loaded, in-process, on a workspace of about
   100,000 chunks (--big-days 4000), p50/p95. Target: p50 <= 30 ms. Embedding 200,000
   distinct texts takes hours on 2 cores, so 365 distinct logs repeat under other dates
   (--unique-days): 100,000 chunks and 200,000 vectors, 19,000 distinct texts.
3. A cold `memory recall --mode hybrid` process on the 365-day workspace (wall). Target <= 1.5 s.
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

# As the CLI runs it (cli/app.py): BLAS on one thread, whose wake-ups cost more than the work.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).parent))
from stats import pct, time_recalls
from workspace_gen import generate
from workspace_memory.api import Memory
from workspace_memory.index.indexer import sync
from workspace_memory.recall.query import RecallRequest

NOW = "2025-11-30T18:00"
QUERIES = ["who prefers concise replies", "problems with the reconnect logic", "trip to Marrakech",
           "what is the risk in the deploy pipeline", "follow up on invoices", "backup strategy",
           "which drink does Diego like", "meeting in Tokyo", "rate limits of the API", "design review outcome"]
MEMORY_BIN = str(Path(sys.executable).parent / "memory")


def index_vs_encode(tmp: Path, days: int) -> None:
    warm = tmp / "warm"
    generate(warm, 3, 10)
    mem = Memory.open(str(warm), NOW)
    t0 = time.perf_counter()
    mem.index()  # loads the model and makes the one-time ONNX export
    print(f"[index vs encode] model load + ONNX export (one time): {time.perf_counter() - t0:.1f} s")
    embedder, _ = mem.embedder()
    model = embedder.sentence_transformer()
    root = tmp / "encode"
    generate(root, days, 50)

    probe = Memory.open(str(root), NOW)
    sync(probe.workspace, probe.store.writer())  # parse only, to list the exact texts the index embeds
    # The exact texts the index embeds: each entry alone and after the previous entry.
    texts = [text for _, text in probe.store.writer().texts_without_vectors(embedder.provider, embedder.model,
                                                                            embedder.dim)]
    probe.close()
    shutil.rmtree(root / ".memory" / "index.sqlite", ignore_errors=True)
    for leftover in (root / ".memory").glob("index.sqlite*"):
        leftover.unlink()
    t0 = time.perf_counter()
    model.encode(texts, batch_size=embedder.batch_size, normalize_embeddings=True, convert_to_numpy=True)
    encode = time.perf_counter() - t0
    mem2 = Memory.open(str(root), NOW)
    mem2._embedder = (embedder, [])  # the same loaded model, as one indexing process would have
    t0 = time.perf_counter()
    mem2.index()
    full = time.perf_counter() - t0
    print(f"[index vs encode] {len(texts)} texts: model.encode {encode:.1f} s, memory index {full:.1f} s, "
          f"ratio {full / encode:.2f}")


def big_workspace(workdir: Path, days: int = 4000, unique_days: int = 365) -> tuple[Memory, float]:
    """The ~100k-chunk workspace under workdir/big, generated and indexed once (reused with --workdir).

    Returns the opened Memory (index up to date, model loaded) and the seconds `index()` took.
    """
    root = workdir / "big"
    if not (root / "memory").exists():
        generate(root, days, 50, unique_days=unique_days)
    mem = Memory.open(str(root), NOW)
    t0 = time.perf_counter()
    mem.index()
    return mem, time.perf_counter() - t0


def hybrid_latency(tmp: Path, days: int, runs: int, unique_days: int) -> None:
    mem, seconds = big_workspace(tmp, days, unique_days)
    chunks = mem.store.status()["chunks"]
    print(f"[hybrid latency] indexed {chunks} chunks in {seconds:.0f} s")
    for q in QUERIES:  # warm-up: model, store and caches
        mem.recall(RecallRequest(q, k=10, mode="hybrid"))
    lat = time_recalls(mem, QUERIES, runs, "hybrid")
    from workspace_memory.recall.engine import recall

    semantic, _ = mem._semantic_channel("hybrid", mem.store)
    bare = []
    for q in QUERIES * 2:
        t0 = time.perf_counter()
        recall(mem.store, RecallRequest(q, k=10, mode="hybrid"), now=mem.now, semantic=semantic)
        bare.append(time.perf_counter() - t0)
    print(f"[hybrid latency] {chunks} chunks, in-process with the model loaded: p50 "
          f"{statistics.median(lat) * 1000:.1f} ms, p95 {pct(lat, 0.95) * 1000:.1f} ms including the stat sync of "
          f"{mem.store.status()['files']} files; query only p50 "
          f"{statistics.median(bare) * 1000:.1f} ms, p95 {pct(bare, 0.95) * 1000:.1f} ms")


def cold_hybrid(tmp: Path, runs: int) -> None:
    root = tmp / "year"
    generate(root, 365, 50)
    env = os.environ | {"MEMORY_NOW": NOW}
    subprocess.run([MEMORY_BIN, "--workspace", str(root), "index"], check=True, capture_output=True, env=env)
    cold = []
    for i in range(runs):
        t0 = time.perf_counter()
        out = subprocess.run([MEMORY_BIN, "--workspace", str(root), "recall", QUERIES[i % len(QUERIES)],
                              "--mode", "hybrid", "--json"], check=True, capture_output=True, env=env)
        cold.append(time.perf_counter() - t0)
        assert b'"mode": "hybrid"' in out.stdout
    print(f"[cold hybrid] `memory recall --mode hybrid` on 365 days: p50 {statistics.median(cold):.2f} s, "
          f"p95 {pct(cold, 0.95):.2f} s (wall, {runs} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description="Semantic indexing and hybrid recall speed")
    parser.add_argument("--days", type=int, default=60, help="workspace size for index vs encode")
    parser.add_argument("--big-days", type=int, default=4000, help="about 26 chunks a day")
    parser.add_argument("--unique-days", type=int, default=365,
                        help="distinct logs in the big workspace (the rest repeat them under other dates)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", choices=["encode", "latency", "cold"], default=None)
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the big latency workspace here and reuse its index (it takes minutes to build)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="wm-sem-"))
    try:
        if args.only in (None, "encode"):
            index_vs_encode(tmp, args.days)
        if args.only in (None, "cold"):
            cold_hybrid(tmp, args.runs)
        if args.only in (None, "latency"):
            hybrid_latency(args.workdir or tmp, args.big_days, args.runs, args.unique_days)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
