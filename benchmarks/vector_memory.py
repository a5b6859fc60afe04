"""Peak memory and time of rebuilding a workspace's vector store from SQLite (no HNSW graph).

    python benchmarks/vector_memory.py --workspace DIR

What a process pays when the HNSW file is missing or stale: every vector read from the embedding
cache (`vector_sync._all_vectors`) and taken as the exact copy (`VectorStore.rebuild`). Use an
indexed workspace, e.g. one of benchmarks/scale.py's (`--workdir DIR` keeps them: DIR/scale-1M).
Peak RSS from getrusage, this process only; the graph build that a search or a save adds is not
part of it.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

# As the CLI runs it (cli/app.py): BLAS on one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from workspace_memory.api import Memory
from workspace_memory.index.sqlite.vectors import sync as vector_sync
from workspace_memory.index.sqlite.vectors.hnsw import VectorStore


def main() -> None:
    parser = argparse.ArgumentParser(description="peak memory of a vector store rebuild from SQLite")
    parser.add_argument("--workspace", type=Path, required=True)
    args = parser.parse_args()
    mem = Memory.open(str(args.workspace), "2025-11-30T18:00")
    embedder, _ = mem.embedder()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    labels, vectors = vector_sync._all_vectors(mem.store.conn, embedder)
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        store = VectorStore(Path(tmp) / "v.hnsw", embedder.dim)
        store.rebuild(labels, vectors)
    t2 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"{len(labels):,} vectors of {embedder.dim} dimensions ({embedder.identity()}): read {t1 - t0:.1f} s, "
          f"rebuild {t2 - t1:.1f} s, peak RSS {peak / 1024 / 1024:.2f} GB (before {before / 1024 / 1024:.2f} GB); "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
