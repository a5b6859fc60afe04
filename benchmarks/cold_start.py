"""Cold `memory recall --mode lexical` processes, with `python -c pass` beside them as a yardstick.

    nice -n -5 python benchmarks/cold_start.py [--runs 15] [--workdir DIR] [--data locomo10.json]
        [--src BASE/src --src BRANCH/src]

Two workspaces: LoCoMo's conv-26 (19 sessions, one turn a line, as benchmarks/locomo.py writes
it) and the 365-day synthetic one (benchmarks/workspace_gen.py). Each is indexed once without
embeddings; then, run after run and interleaved so that load hits all alike:

- `python -c pass`: the interpreter and site (the yardstick);
- `memory recall QUERY --mode lexical --json`: the wall time a user or agent waits;
- the same recall in a process run with `-X importtime`, whose runner notes when it starts and
  ends: the imports it did (the sum of the top-level import times after site) and the rest,
  the query work (sync check, SQL, ranking, JSON). Import time is inflated a little by the
  instrumentation; the wall figures come from the plain runs.

With `--src` (repeatable), every run is made once with each source tree first on PYTHONPATH, in
turn, so that two versions of the package are compared under the same load; the last column
then gives each median as a ratio to the first source's. Each tree gets its own copy of the
workspaces, indexed with its own code (their index schemas may differ).

Wall time is what the target is about, but on a loaded machine it mostly measures waiting for
a core; the CPU time (user + system) of the same children is printed beside it.

Half the queries hold a digit or a date ("May 2023", "a828e60"), since those once paid for
compiling the time-phrase rules. Python's bytecode cache is on: PYTHONDONTWRITEBYTECODE is
removed from the children's environment. The last column lists the heavy modules a run
imported: numpy, torch and onnxruntime must never be among them (a lexical recall needs none);
rapidfuzz may be, when a capitalised word of the question is no known name (fuzzy matching);
click must not be either, since `memory recall ... --json` takes the quick path (cli/quick.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from locomo import DATA, write_workspace
from stats import pct
from workspace_gen import generate

MEMORY_BIN = str(Path(sys.executable).parent / "memory")
HEAVY = ("numpy", "torch", "onnxruntime", "sentence_transformers", "rapidfuzz", "dateparser", "click")
WORKSPACES = {
    "conv-26": ("2023-10-23T12:00", ["When did Caroline go to the LGBTQ support group?",
                                     "What did Melanie paint in May 2023?",
                                     "What are Caroline's plans for the summer?",
                                     "What happened on 8 May 2023?"]),
    "365 days": ("2025-11-30T18:00", ["Peter concise replies", "ticket 0a1b2c3", "warelay.retrySize",
                                      "what happened around Nov 27"]),
}
# Runs in a child as the console script runs (main() reads sys.argv): the time of its imports
# and of the rest, and the heavy modules it loaded. The exit callback that reports them also
# keeps the process on the interpreter's own exit (cli.leave), so a few ms of teardown are in.
RUNNER = """
import atexit, sys, time, json
t0 = time.perf_counter()
sys.stderr.write("@@start\\n"); sys.stderr.flush()

@atexit.register
def report():
    heavy = [m for m in {heavy!r} if m in sys.modules]
    sys.stderr.write("@@end " + json.dumps({{"total": time.perf_counter() - t0, "heavy": heavy}}) + "\\n")

from workspace_memory.cli import main
main()
"""


def build(workdir: Path, data: Path, src: str | None = None) -> dict[str, Path]:
    """Write and lexically index the two workspaces (kept in workdir between runs), with `src`'s code."""
    roots = {}
    conv = workdir / "conv-26"
    if not (conv / "memory").exists():
        sample = next(s for s in json.loads(data.read_text()) if s["sample_id"] == "conv-26")
        write_workspace(sample, conv)
    roots["conv-26"] = conv
    year = workdir / "year"
    if not (year / "memory").exists():
        generate(year, 365, 50)
    roots["365 days"] = year
    for name, root in roots.items():
        subprocess.run([MEMORY_BIN, "--workspace", str(root), "--now", WORKSPACES[name][0], "index"],
                       check=True, capture_output=True, env=child_env(src))
    return roots


def child_env(src: str | None = None) -> dict[str, str]:
    """The children's environment: bytecode cache on, no embeddings, `src` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if src:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    return env | {"MEMORY_EMBED_PROVIDER": "none"}


def wall(cmd: list[str], src: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=child_env(src))
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instrumented(args: list[str], src: str | None = None) -> tuple[float, float, list[str]]:
    """(import seconds, query seconds, heavy modules) of one recall run under -X importtime."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", RUNNER.format(heavy=HEAVY), *args],
                         check=True, capture_output=True, text=True, env=child_env(src))
    lines = out.stderr.splitlines()
    start = lines.index("@@start")
    end = next(line for line in lines if line.startswith("@@end "))
    result = json.loads(end[6:])
    imported = 0.0
    for line in lines[start + 1:]:
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if name.startswith(" ") and not name.startswith("  "):  # a top-level import
                imported += int(cumulative) / 1e6
    return imported, result["total"] - imported, result["heavy"]


def main() -> None:
    parser = argparse.ArgumentParser(description="cold lexical recall vs python -c pass")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--workdir", type=Path, default=None, help="keep the workspaces here")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--src", action="append", default=[], metavar="DIR",
                        help="a source tree to put first on PYTHONPATH (repeat to compare, alternating)")
    args = parser.parse_args()
    sources = args.src or [None]
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="wm-cold-"))
    load = os.getloadavg()
    try:
        # Each source tree reads workspaces it indexed itself: two versions whose index schemas differ
        # would otherwise read (or refuse) each other's index.
        own = {src: build(workdir / f"src{i}" if len(sources) > 1 else workdir, args.data, src)
               for i, src in enumerate(sources)}
        roots = own[sources[0]]
        print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at start; {args.runs} runs each; "
              "bytecode cache on")
        print(f"{'workspace':<10} {'python -c pass':>15} {'memory recall':>14} {'ratio':>6} {'p95':>7} "
              f"{'CPU: pass':>10} {'recall':>7} {'imports':>8} {'query':>7}  heavy modules"
              + ("  [source: recall vs the first]" if len(sources) > 1 else ""))
        for name in roots:
            now, queries = WORKSPACES[name]
            base, base_cpu = [], []
            runs = {src: ([], [], [], [], set()) for src in sources}  # wall, CPU, imports, query, heavy
            for i in range(args.runs):
                q = queries[i % len(queries)]
                seconds, cpu = wall([sys.executable, "-c", "pass"])
                base.append(seconds)
                base_cpu.append(cpu)
                for src in sources:
                    argv = ["--workspace", str(own[src][name]), "--now", now, "recall", q, "--mode", "lexical",
                            "--json"]
                    full, full_cpu, imports, query, heavy = runs[src]
                    seconds, cpu = wall([MEMORY_BIN, *argv], src)
                    full.append(seconds)
                    full_cpu.append(cpu)
                    imp, rest, loaded = instrumented(argv, src)
                    imports.append(imp)
                    query.append(rest)
                    heavy.update(loaded)
            ms = lambda v: f"{statistics.median(v) * 1000:.0f} ms"  # noqa: E731
            first = statistics.median(runs[sources[0]][0])
            for src, (full, full_cpu, imports, query, heavy) in runs.items():
                tag = f"  [{src}: {statistics.median(full) / first:.2f}]" if len(sources) > 1 else ""
                print(f"{name:<10} {ms(base):>15} {ms(full):>14} {statistics.median(full) / statistics.median(base):>6.2f}"
                      f" {pct(full, 0.95) * 1000:>4.0f} ms {ms(base_cpu):>10} {ms(full_cpu):>7} {ms(imports):>8} "
                      f"{ms(query):>7}  {', '.join(sorted(heavy)) or 'none'}{tag}")
        end = os.getloadavg()
        print(f"load average {end[0]:.1f} {end[1]:.1f} {end[2]:.1f} at the end")
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
