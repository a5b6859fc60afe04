"""In-process recall speed on LoCoMo workspaces, and every question's results to diff two versions.

    python benchmarks/recall_speed.py --workdir /tmp/h44c-loc [--conversations conv-26,conv-30,conv-41]
        [--modes lexical,hybrid] [--k 25] [--rounds 3] [--dump out.json] [--compare base.json]
        [--ab /tmp/base/src,src --ab-rounds 4] [--stages]

The workspaces are those `benchmarks/locomo.py --workdir DIR --model use-multilingual-v3` built and
indexed (the model is set here as there). Every question of a conversation (the adversarial ones
too: they are recalls like any other) is asked through `Memory.recall` with k=25, "now" the day
after the last session, as locomo.py asks them.

Timing: after a warm-up (the first 10 questions, which loads the model), every question `--rounds`
times; per question the wall time and the CPU time of the whole process (user + sys, every thread:
the query is embedded in a worker thread). Printed per conversation and mode: p50 and p95 of each,
with the machine's load. CPU time is the figure to trust on a shared machine. A question answered
otherwise in a timed pass than in the first (what a long-lived process keeps between questions
changed an answer) stops the run.

`--dump FILE` writes every question's notices and results (path, lines, score, kind) per
conversation and mode; `--compare FILE` diffs this run's against such a file, prints the first
differences and exits 1 when any result, order, score or notice differs: the proof that a speed
change changed no result.

`--stages`: the CPU time of the answering thread in each step of a hybrid recall (STAGES), per
question of the first conversation; the functions are wrapped for that run only.

`--ab SRC1,SRC2`: each source tree in turn (`--ab-rounds` times, alternating, so the load hits both
alike) runs this script in a child process; prints each tree's median figures and the last one's
ratio to the first's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from stats import alternate, child_env, load, pct

DATA = Path("/work/shared/benchmarks/locomo/locomo10.json")
DEFAULT_CONVERSATIONS = "conv-26,conv-30,conv-41"
K = 25  # the results asked for (--k): what an agent's memory_search asks by default
WARM_UP = 10


def questions_of(data: Path, ids: list[str]) -> dict[str, list[str]]:
    """Each conversation's questions, in the data's order."""
    samples = {s["sample_id"]: s for s in json.loads(data.read_text())}
    return {cid: [qa["question"] for qa in samples[cid]["qa"]] for cid in ids}


def now_of(root: Path) -> str:
    """The day after the last session, as locomo.py sets it (the newest daily log's name + 1 day)."""
    from datetime import date, timedelta

    last = max(p.stem for p in (root / "memory").glob("*.md"))
    return (date.fromisoformat(last) + timedelta(days=1)).isoformat()


def summary(result: dict) -> dict:
    """What must not change: the notices and each result's place, lines, score and kind."""
    return {"notices": result["notices"],
            "results": [[r["path"], r["start_line"], r["end_line"], r["score"], r["kind"]]
                        for r in result["results"]]}


def run(workdir: Path, questions: dict[str, list[str]], modes: list[str], rounds: int, k: int = K) -> tuple[dict, dict]:
    """(figures per conversation and mode, results per conversation and mode)."""
    from workspace_memory.api import Memory, RecallRequest

    figures: dict[str, dict] = {}
    dumped: dict[str, dict] = {}
    for cid, qs in questions.items():
        root = workdir / cid
        mem = Memory.open(str(root), now_of(root))
        try:
            for mode in modes:
                for q in qs[:WARM_UP]:
                    mem.recall(RecallRequest(q, k=k, mode=mode))
                dumped.setdefault(cid, {})[mode] = [summary(mem.recall(RecallRequest(q, k=k, mode=mode)))
                                                    for q in qs]
                wall, cpu = [], []
                for _ in range(rounds):
                    for q, first in zip(qs, dumped[cid][mode], strict=True):
                        w0, c0 = time.perf_counter(), time.process_time()
                        result = mem.recall(RecallRequest(q, k=k, mode=mode))
                        cpu.append(time.process_time() - c0)
                        wall.append(time.perf_counter() - w0)
                        if summary(result) != first:  # what a long-lived process keeps must change no answer
                            raise SystemExit(f"{cid} {mode}: {q!r} was answered otherwise when asked again")
                if rounds:
                    figures[f"{cid} {mode}"] = {
                        "cpu_p50_ms": pct(cpu, 0.5) * 1000, "cpu_p95_ms": pct(cpu, 0.95) * 1000,
                        "wall_p50_ms": pct(wall, 0.5) * 1000, "wall_p95_ms": pct(wall, 0.95) * 1000,
                        "n": len(cpu)}
        finally:
            mem.close()
    return figures, dumped


# Where a recall's time goes (--stages): (module under workspace_memory, function or Class.method).
STAGES = [("api", "Memory.recall"), ("api", "Memory.refresh"), ("recall.engine", "understand"),
          ("recall.engine", "_candidates"), ("index.sqlite.store", "SqliteStore.lexical_pool"),
          ("recall.lexical", "score"), ("index.sqlite.store", "SqliteStore.term_matches"),
          ("recall.semantic", "SemanticChannel.add_candidates"), ("recall.semantic", "SemanticChannel.add_topic"),
          ("index.sqlite.vectors.sqlite_vectors", "SqliteVectors.search"),
          ("recall.semantic", "SemanticChannel.fill_cosines"), ("recall.semantic", "PendingVector.result"),
          ("recall.engine", "_without_names"), ("recall.engine", "_rows"), ("recall.engine", "_apply_factors"),
          ("recall.engine", "_select"), ("recall.semantic", "SemanticChannel.diversify"), ("recall.engine", "dedupe")]


def _timed(fn, name: str, spent: dict[str, float]):
    """`fn`, adding the CPU time of the calling thread it takes to spent[name]."""
    def timed(*args, **kwargs):
        t0 = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.thread_time() - t0
    return timed


def stages(workdir: Path, cid: str, questions: list[str], mode: str, k: int) -> None:
    """Print the CPU time of this thread (the one that answers) spent in each of STAGES, per question
    (nested: a stage's time includes those it calls). The query's embedding runs in another thread."""
    import importlib

    from workspace_memory.api import Memory, RecallRequest

    spent: dict[str, float] = dict.fromkeys((name for _, name in STAGES), 0.0)
    for module_name, name in STAGES:
        module = importlib.import_module(f"workspace_memory.{module_name}")
        owner_name, _, attr = name.rpartition(".")
        owner = getattr(module, owner_name) if owner_name else module
        setattr(owner, attr, _timed(getattr(owner, attr), name, spent))
    root = workdir / cid
    mem = Memory.open(str(root), now_of(root))
    try:
        for q in questions[:WARM_UP]:
            mem.recall(RecallRequest(q, k=k, mode=mode))
        spent.update(dict.fromkeys(spent, 0.0))
        for q in questions:
            mem.recall(RecallRequest(q, k=k, mode=mode))
    finally:
        mem.close()
    print(f"{cid} {mode}, k={k}: CPU of the answering thread per question, by stage (load {load()})")
    for name, seconds in spent.items():
        print(f"  {1000 * seconds / len(questions):6.2f} ms  {name}")


def compare(now: dict, base: dict, shown: int = 5) -> int:
    """Print the questions whose results differ from `base`'s; returns how many differ."""
    differ = compared = 0
    for cid, modes in base.items():
        for mode, answers in modes.items():
            mine = now.get(cid, {}).get(mode)
            if mine is None:
                continue
            compared += min(len(answers), len(mine))
            for i, (a, b) in enumerate(zip(answers, mine, strict=False)):
                if a != b:
                    differ += 1
                    if differ <= shown:
                        print(f"DIFFERS {cid} {mode} question {i}:\n  base {a}\n  now  {b}")
            if len(answers) != len(mine):
                differ += 1
                print(f"DIFFERS {cid} {mode}: {len(answers)} questions in the base, {len(mine)} now")
    print(f"compared {compared} answers: {differ} differ")
    return differ


def ab_child(src: str, args: argparse.Namespace) -> dict:
    """One run of this script with `src` first on the path; its figures per conversation and mode."""
    cmd = [sys.executable, __file__, "--workdir", str(args.workdir), "--conversations", args.conversations,
           "--modes", args.modes, "--rounds", str(args.rounds), "--k", str(args.k), "--figures-json"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=child_env(src), check=True).stdout
    return json.loads(out.splitlines()[-1])


def show_ab(runs: dict[str, list[dict]]) -> None:
    """Each conversation and mode: every tree's median figures, and the last tree's over the first's."""
    names = ["cpu_p50_ms", "cpu_p95_ms", "wall_p50_ms", "wall_p95_ms"]
    trees = list(runs)
    print(f"trees: {', '.join(f'{chr(65 + i)} = {t}' for i, t in enumerate(trees))}; ms per question, "
          f"median of {len(runs[trees[0]])} runs")
    print(f"{'':<16}" + "".join(f"{n.replace('_ms', ''):>22}" for n in names))
    for key in runs[trees[0]][0]:
        medians = [{n: statistics.median(run[key][n] for run in runs[t]) for n in names} for t in trees]
        cells = [" -> ".join(f"{m[n]:.2f}" for m in medians) + f" ({medians[-1][n] / medians[0][n]:.2f})"
                 for n in names]
        print(f"{key:<16}" + "".join(f"{c:>22}" for c in cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, required=True, help="locomo.py's --workdir (indexed workspaces)")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--conversations", default=DEFAULT_CONVERSATIONS, help="sample ids, or 'all'")
    ap.add_argument("--modes", default="lexical,hybrid")
    ap.add_argument("--model", default="use-multilingual-v3", help="the local embedding model of the index")
    ap.add_argument("--k", type=int, default=K, help="results asked for (locomo.py asks 60)")
    ap.add_argument("--rounds", type=int, default=3, help="timed passes over the questions (0: only results)")
    ap.add_argument("--dump", type=Path, help="write every question's results here")
    ap.add_argument("--compare", type=Path, help="diff the results against this dump; exit 1 on a difference")
    ap.add_argument("--ab", help="source trees to time in turn in child processes, comma-separated")
    ap.add_argument("--ab-rounds", type=int, default=4)
    ap.add_argument("--stages", action="store_true",
                    help="instead: where the time goes, by stage, on the first conversation's questions (hybrid)")
    ap.add_argument("--figures-json", action="store_true", help=argparse.SUPPRESS)  # an --ab child's output
    args = ap.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ["MEMORY_EMBED_PROVIDER"] = "local"
    os.environ["MEMORY_EMBED_MODEL"] = args.model
    if args.conversations == "all":
        args.conversations = ",".join(s["sample_id"] for s in json.loads(args.data.read_text()))
    if args.ab:
        print(f"load before: {load()}")
        show_ab(alternate(args.ab.split(","), args.ab_rounds, ab_child, args))
        print(f"load after: {load()}")
        return
    questions = questions_of(args.data, args.conversations.split(","))
    if args.stages:
        first = next(iter(questions))
        stages(args.workdir, first, questions[first], "hybrid", args.k)
        return
    load_before = load()
    figures, dumped = run(args.workdir, questions, args.modes.split(","), args.rounds, args.k)
    if args.figures_json:
        print(json.dumps(figures))
        return
    print(f"load before {load_before}, after {load()}; k={args.k}; ms per question")
    for key, fig in figures.items():
        print(f"{key:<16} CPU p50 {fig['cpu_p50_ms']:6.2f} p95 {fig['cpu_p95_ms']:6.2f}   "
              f"wall p50 {fig['wall_p50_ms']:6.2f} p95 {fig['wall_p95_ms']:6.2f}   ({fig['n']} recalls)")
    if args.dump:
        args.dump.write_text(json.dumps(dumped))
    if args.compare and compare(dumped, json.loads(args.compare.read_text())):
        sys.exit(1)


if __name__ == "__main__":
    main()
