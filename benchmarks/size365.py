"""`.memory/` of the 365-day synthetic workspace with the default model, and cold recalls (issue 27).

    python benchmarks/size365.py --workdir DIR --src BASE/src --src NEW/src [--recalls 15]

For each source tree: a fresh copy of `workspace_gen.generate(ws, 365, 40)` (made once under
DIR), `memory index` in a child (wall, CPU, peak RSS), the size of `.memory/` and of
`index.sqlite` with its bytes per entry by table (index_size.py); then cold `memory recall Q
--mode M --json` children, lexical and hybrid, the trees alternating query by query (CPU from
/usr/bin/time). Prints each tree's medians.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from index_size import breakdown, per_entry
from stats import child_env, load, measured
from workspace_gen import generate

NOW = "2025-11-30T18:00"
QUERIES = ["Peter concise replies", "reconnect logic", "Marrakech", "deploy pipeline risk", "backups"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--src", action="append", required=True)
    parser.add_argument("--recalls", type=int, default=15)
    args = parser.parse_args()
    source = args.workdir / "source"
    if not source.exists():
        generate(source, 365, 40)
    print(f"load before: {load()}", flush=True)
    trees = {}
    for n, src in enumerate(args.src):
        ws = args.workdir / f"ws{n}"
        shutil.rmtree(ws, ignore_errors=True)
        shutil.copytree(source, ws)
        env = child_env(src)
        env.pop("MEMORY_EMBED_PROVIDER", None)
        cli = [sys.executable, "-c", "from workspace_memory.cli import main; main()", "--workspace", str(ws),
               "--now", NOW]
        wall, cpu, rss, _ = measured([*cli, "index", "--json"], env)
        state = ws / ".memory"
        figures = breakdown(state / "index.sqlite")
        md = sum(p.stat().st_size for p in ws.rglob("*.md") if ".memory" not in p.parts)
        size = sum(p.stat().st_size for p in state.rglob("*") if p.is_file())
        print(f"[{src}] index {wall:.1f} s wall, {cpu:.1f} s CPU, {rss / 1024:.0f} MiB; Markdown {md / 2**20:.2f} MiB;"
              f" .memory {size / 2**20:.1f} MiB; index.sqlite {figures['file'] / 2**20:.1f} MiB"
              f" ({figures['entries']:,.0f} entries); {json.dumps({k: round(v) for k, v in per_entry(figures).items()})}",
              flush=True)
        trees[src] = (cli, env, {"lexical": [], "hybrid": []})
    for i in range(args.recalls):
        for mode in ("lexical", "hybrid"):
            for cli, env, times in trees.values():
                wall, cpu, _, _ = measured([*cli, "recall", QUERIES[i % len(QUERIES)], "--mode", mode, "--json"], env)
                times[mode].append((wall, cpu))
    for src, (_, _, times) in trees.items():
        print(f"[{src}] " + "; ".join(
            f"cold {mode} median {statistics.median(w for w, _ in t) * 1000:.0f} ms wall,"
            f" {statistics.median(c for _, c in t) * 1000:.0f} ms CPU" for mode, t in times.items()))
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
