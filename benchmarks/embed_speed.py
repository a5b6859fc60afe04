"""Embedding without torch (issue 14, item 2): throughput, indexing and cold hybrid recall, in one run.

    python benchmarks/embed_speed.py [--days 365] [--runs 7] [--recalls 12] [--workdir DIR]
                                     [--only export,throughput,first,edit,recall]
                                     [--src BASE/src --src BRANCH/src] [--named]

Measures, on this machine and in this order:
1. The export: `memory index` of a 3-day workspace with an empty model cache (first use on a
   machine: imports torch, exports all-MiniLM-L6-v2 to ONNX, checks it, then indexes).
2. Document throughput, sentence-transformers (batch 32, as before) against onnxruntime on the same
   texts, both in this process with the model loaded, alternating rounds: the texts a 60-day
   workspace embeds (short entries), and the paragraphs of README.md, docs/*.md (up to their working records:
   the old README's text) and DESIGN.md (longer prose).
3. The first `memory index` of a new 10-file workspace, the export present (median of --runs).
4. `memory index` after a one-line edit of one daily note in a --days workspace (median of --runs).
5. A cold `memory recall --mode hybrid` process on that workspace (median of --recalls), with its
   peak RSS, beside `python -c pass` and `python -c "import onnxruntime"`.
   PYTHONDONTWRITEBYTECODE is removed from the children's environment (the bytecode cache is on, as
   for a user), and one run with -X importtime lists where the import time goes. With --src, each
   run is made once with each source tree in turn (a ratio under the same load); with --named, only
   questions that name people of the workspace are asked.

Each child's CPU time (user + sys) and peak RSS come from
/usr/bin/time. The model cache is a fresh temporary folder (MEMORY_CACHE_DIR), never ~/.cache. Wall times are
noisy when other work shares the cores: the load average is printed at start and end.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import TIME_BIN, load, measured, pct
from workspace_gen import generate

NOW = "2025-11-30T18:00"
ROOT = Path(__file__).resolve().parent.parent
MEMORY_BIN = str(Path(sys.executable).parent / "memory")
QUERIES = ["who prefers concise replies", "problems with the reconnect logic", "trip to Marrakech",
           "what is the risk in the deploy pipeline", "follow up on invoices", "backup strategy",
           "which drink does Diego like", "meeting in Tokyo", "rate limits of the API", "design review outcome"]
# --named: questions that name people of the workspace (a second encoding: recall.topic).
NAMED_QUERIES = ["which drink does Diego like", "what did Anna say about the deploy pipeline",
                 "when did Ravi and Mei meet about invoices", "what does Peter think of the reconnect logic"]


def child_env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update({"MEMORY_CACHE_DIR": str(cache), "MEMORY_EMBED_PROVIDER": "local", "MEMORY_NOW": NOW})
    return env


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    """(wall seconds, stdout) of one child process; stops the benchmark on a non-zero exit."""
    wall, _, _, out = measured(cmd, env)
    return wall, out


def summary(walls: list[float], cpus: list[float]) -> str:
    text = f"median {statistics.median(walls):.2f} s, p95 {pct(walls, 0.95):.2f} s, min {min(walls):.2f} s"
    if TIME_BIN:
        text += f"; CPU (user+sys) median {statistics.median(cpus):.2f} s"
    return text


def memory(ws: Path, *args: str) -> list[str]:
    return [MEMORY_BIN, "--workspace", str(ws), "--now", NOW, *args]


def export_once(tmp: Path, cache: Path) -> None:
    ws = tmp / "first-use"
    generate(ws, 3, 10)
    wall, out = timed(memory(ws, "index", "--json"), child_env(cache))
    seconds = re.search(r"\(([\d.]+) s, once per machine\)", out)
    assert seconds, out
    print(f"[export] first use on a machine: `memory index` of a 3-day workspace {wall:.1f} s, of which the "
          f"ONNX export (torch import, model load, export, parity check) {float(seconds.group(1)):.1f} s")


def throughput(tmp: Path, cache: Path, rounds: int = 3) -> None:
    from workspace_memory.api import Memory
    from workspace_memory.embed.local import LocalEmbedder
    from workspace_memory.index.indexer import sync

    embedder = LocalEmbedder(cache_dir=cache)
    ws = tmp / "texts"
    generate(ws, 60, 50)
    probe = Memory.open(str(ws), NOW)
    sync(probe.workspace, probe.store.writer())
    entries = [text for _, text in probe.store.writer().texts_without_vectors(embedder.provider, embedder.model,
                                                                              embedder.dim)]
    probe.close()
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "../shared/DESIGN.md"]
    prose = [p.strip() for doc in docs if doc.is_file()
             for p in doc.read_text(encoding="utf-8").split("\n## Working record")[0].split("\n\n")
             if len(p.strip()) > 40]
    model = embedder.sentence_transformer()
    encoder = embedder.onnx_encoder()
    assert encoder is not None, "no ONNX export"

    def st(texts: list[str]) -> None:
        model.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)

    for name, texts in (("workspace entries", entries), ("README/docs/DESIGN paragraphs", prose)):
        tokens = [len(e.ids) for e in encoder.tokenizer.encode_batch(texts)]
        st(texts[:64])
        encoder.encode(texts[:64])  # warm both
        rates: dict[str, list[float]] = {"st": [], "onnx": []}
        for _ in range(rounds):
            for side, run in (("st", st), ("onnx", encoder.encode)):
                t0 = time.perf_counter()
                run(texts)
                rates[side].append(len(texts) / (time.perf_counter() - t0))
        st_rate, onnx_rate = statistics.median(rates["st"]), statistics.median(rates["onnx"])
        print(f"[throughput] {name}: {len(texts)} texts, {statistics.mean(tokens):.0f} tokens on average "
              f"(max {max(tokens)}): sentence-transformers {st_rate:.0f} texts/s, onnxruntime {onnx_rate:.0f} "
              f"texts/s, ratio {onnx_rate / st_rate:.2f} (median of {rounds} alternating rounds)")


def texts_of(ws: Path) -> int:
    """How many distinct texts the index of `ws` embedded."""
    import sqlite3

    with sqlite3.connect(ws / ".memory" / "index.sqlite") as conn:
        return conn.execute("SELECT COUNT(*) FROM embedding_cache").fetchone()[0]


def first_index(tmp: Path, cache: Path, runs: int) -> None:
    walls, cpus = [], []
    for i in range(runs):
        ws = tmp / f"new-{i}"
        generate(ws, 10, 10, seed=100 + i)
        shutil.rmtree(ws / "bank")
        (ws / "MEMORY.md").unlink()  # 10 daily notes of ~40 lines each remain
        files = len(list(ws.rglob("*.md")))
        wall, cpu, _, out = measured(memory(ws, "index", "--json"), child_env(cache))
        assert '"added": ' + str(files) in out, out
        walls.append(wall)
        cpus.append(cpu)
    print(f"[first index] new {files}-file workspace ({texts_of(tmp / 'new-0')} texts to embed), export present: "
          f"{summary(walls, cpus)} ({runs} runs)")


def one_line_edits(ws: Path, cache: Path, days: int, runs: int) -> None:
    env = child_env(cache)
    if not (ws / "memory").is_dir():
        generate(ws, days, 50)
    wall, _ = timed(memory(ws, "index", "--json"), env)
    from workspace_memory.api import Memory

    mem = Memory.open(str(ws), NOW)
    chunks = mem.store.conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    vectors = mem.store.conn.execute("SELECT COUNT(*) FROM embedding_cache").fetchone()[0]
    mem.close()
    print(f"[full index] {days}-day workspace, {chunks} chunks, {vectors} vectors: {wall:.0f} s "
          "(with --workdir, only what changed since the last run)")
    notes = sorted((ws / "memory").glob("2*.md"))
    rng = random.Random(3)
    walls, cpus = [], []
    for i in range(runs):
        note = rng.choice(notes)
        with open(note, "a", encoding="utf-8") as fh:
            fh.write(f"- Follow-up {i}: asked Diego about the invoice template for the {rng.randint(1, 99)}th time.\n")
        wall, cpu, _, out = measured(memory(ws, "index", "--json"), env)
        assert '"changed": 1' in out, out
        walls.append(wall)
        cpus.append(cpu)
    print(f"[one-line edit] `memory index` after appending one line to one note: {summary(walls, cpus)} "
          f"({runs} runs)")


def cold_recall(ws: Path, cache: Path, runs: int, srcs: list[str] | None = None, named: bool = False) -> None:
    """Cold hybrid recall processes; with `srcs`, each run once per source tree in turn (PYTHONPATH)."""
    queries = NAMED_QUERIES if named else QUERIES
    trees = srcs or [""]
    envs = {t: child_env(cache) | ({"PYTHONPATH": t} if t else {}) for t in trees}
    # Each tree reads a copy of the workspace it indexed itself: two versions whose index schemas differ
    # would otherwise read (or refuse) each other's index. The copy keeps the embedding cache, so the
    # index is rebuilt without embedding anything again.
    spaces = {t: ws for t in trees}
    if len(trees) > 1:
        for i, t in enumerate(trees):
            spaces[t] = ws.parent / f"{ws.name}-tree{i}"
            if not spaces[t].exists():
                shutil.copytree(ws, spaces[t])
            timed(memory(spaces[t], "index"), envs[t])
    for t in trees:
        for q in queries[:2]:  # warm the bytecode cache and the OS file cache
            timed(memory(spaces[t], "recall", q, "--mode", "hybrid", "--json"), envs[t])
    got: dict[str, tuple[list[float], list[float], list[int]]] = {t: ([], [], []) for t in trees}
    for i in range(runs):
        query = queries[i % len(queries)]
        for t in trees:
            wall, cpu, rss, _ = measured(memory(spaces[t], "recall", query, "--mode", "hybrid", "--json"),
                                         envs[t])
            for column, value in zip(got[t], (wall, cpu, rss), strict=True):
                column.append(value)
    first = statistics.median(got[trees[0]][0])
    for t in trees:
        walls, cpus, peaks = got[t]
        ratio = f"; wall x{statistics.median(walls) / first:.2f} of the first tree" if len(trees) > 1 else ""
        print(f"[cold hybrid recall]{' ' + t if t else ''} {summary(walls, cpus)} ({runs} runs, "
              f"PYTHONDONTWRITEBYTECODE unset); peak RSS median {statistics.median(peaks) / 1024:.0f} MiB, "
              f"max {max(peaks) / 1024:.0f} MiB{ratio}")
    env = envs[trees[-1]]
    for name, code in (("python -c pass", "pass"), ("python -c 'import onnxruntime'", "import onnxruntime")):
        runs_ = [measured([sys.executable, "-c", code], env)[:2] for _ in range(5)]
        print(f"[cold hybrid recall] yardstick `{name}`: median {statistics.median(w for w, _ in runs_):.3f} s, "
              f"CPU {statistics.median(c for _, c in runs_):.3f} s")
    # The console script itself, run by this Python with -X importtime (as the runs above).
    proc = subprocess.run([sys.executable, "-X", "importtime",
                           *memory(ws, "recall", QUERIES[0], "--mode", "hybrid", "--json")],
                          capture_output=True, text=True, env=env)
    top = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| ( *)(\S+)", line)
        if m and len(m.group(2)) <= 2:  # imported by the program itself, or one level down
            top.append((int(m.group(1)), m.group(3)))
    top.sort(reverse=True)
    print("[cold hybrid recall] largest imports (cumulative ms): "
          + ", ".join(f"{name} {us / 1000:.0f}" for us, name in top[:10]))


def main() -> None:
    parser = argparse.ArgumentParser(description="Embedding speed without torch")
    parser.add_argument("--days", type=int, default=365, help="size of the workspace for edits and recalls")
    parser.add_argument("--runs", type=int, default=7, help="runs of each `memory index` figure")
    parser.add_argument("--recalls", type=int, default=12, help="cold recall runs")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the big workspace (and its index) here between runs")
    parser.add_argument("--src", action="append", default=[], metavar="DIR",
                        help="cold recalls: run each tree in turn (PYTHONPATH=DIR), e.g. a base and a branch")
    parser.add_argument("--named", action="store_true", help="cold recalls: only questions that name people")
    parser.add_argument("--only", default="export,throughput,first,edit,recall",
                        help="comma-separated steps to run (the export is made in any case)")
    args = parser.parse_args()
    steps = set(args.only.split(","))
    tmp = Path(tempfile.mkdtemp(prefix="wm-embed-"))
    cache = tmp / "model-cache"
    print(f"load average at start: {load()} ({os.cpu_count()} CPUs)")
    try:
        export_once(tmp, cache)
        if "throughput" in steps:
            throughput(tmp, cache)
        if "first" in steps:
            first_index(tmp, cache, args.runs)
        big = args.workdir or tmp / "big"
        if "edit" in steps:
            one_line_edits(big, cache, args.days, args.runs)
        if "recall" in steps:
            cold_recall(big, cache, args.recalls, args.src, args.named)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
