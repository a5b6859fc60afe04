"""Row "cold100k" of benchmarks/big.py: one hybrid `memory recall` in a new process on a 100k-entry
workspace (issue 27: <= 1.0 s, peak RSS <= 400 MB, vectors memory-mapped).

The workspace is scale.py's (`--cold-size` 10k, 100k or 1M; the smaller ones are built first, each
seeding the next one's embedding cache, as scale.py does), kept under the work directory. After the
build, `memory index` runs once more with the first `--src` tree that writes one (this branch's: the
int8 copy of the vectors, `.hnsw.i8`, which an older tree ignores). Each run is `memory recall
QUESTION` (hybrid, JSON) in a process of its own: the model, the SQLite index and the vectors opened
from scratch, with the files in the page cache (a first recall after a reboot also reads the disk).
The questions are scale.py's, one per round, the same for every source tree; each run's results must
be the same for every tree (the row stops at the first difference).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from scale import NOW, QUERIES, SIZES, build
from stats import measured

ROW = "cold100k"
TARGET = "cold hybrid recall at 100k entries <= 1.0 s, peak RSS <= 400 MB"
MEMORY = str(Path(sys.executable).parent / "memory")
_round: dict[str, int] = {}  # source tree -> runs so far (each run asks the next question)
_answers: dict[int, list[str]] = {}  # run -> the sources the first tree's answer cited


def add_arguments(parser) -> None:
    parser.add_argument("--cold-size", default="100k", choices=list(SIZES), help="the workspace to recall from")


def prepare(workdir: Path, args) -> Path:
    previous = None
    for size in SIZES:
        root = workdir / f"scale-{size}"
        build(root, SIZES[size], 365, previous)
        previous = root
        if size == args.cold_size:
            break
    for src in args.src or [None]:  # the int8 copy, written by a tree that knows it (once)
        env = {**os.environ, "PYTHONPATH": src} if src else None
        subprocess.run([MEMORY, "--workspace", str(previous), "--now", NOW, "index"], check=True,
                       stdout=subprocess.DEVNULL, env=env)
    return previous


def run(input_dir: Path, env: dict, args) -> dict:
    source = env.get("PYTHONPATH", "")
    n = _round.get(source, 0)
    _round[source] = n + 1
    question = QUERIES[n % len(QUERIES)]
    wall, cpu, rss, out = measured([MEMORY, "--workspace", str(input_dir), "--now", NOW, "recall", question,
                                    "--json"], env)
    answer = json.loads(out)
    if answer["mode"] != "hybrid":
        raise SystemExit(f"{question!r} was not answered in hybrid mode: {answer['notices']}")
    cited = [hit["source"] for hit in answer["results"]]
    if _answers.setdefault(n, cited) != cited:
        raise SystemExit(f"{question!r}: {source} answered {cited}, the first tree {_answers[n]}")
    return {"wall_s": wall, "cpu_s": cpu, "rss_mib": rss / 1024}
