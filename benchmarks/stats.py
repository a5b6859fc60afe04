"""Small helpers shared by the benchmark scripts: quantiles, timed recalls, measured child processes."""

from __future__ import annotations

import importlib
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

TIME_BIN = Path("/usr/bin/time").is_file()


def pct(values: list[float], q: float) -> float:
    """The `q` quantile (0..1) of `values`, by nearest rank; no interpolation."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def time_recalls(mem, queries: list[str], runs: int, mode: str) -> list[float]:  # api.Memory
    """Seconds of each in-process recall: every query, enough rounds to make about `runs` timings."""
    import time

    from workspace_memory.recall.query import RecallRequest

    seconds = []
    for _ in range(max(1, runs // len(queries) + 1)):
        for q in queries:
            t0 = time.perf_counter()
            mem.recall(RecallRequest(q, k=10, mode=mode))
            seconds.append(time.perf_counter() - t0)
    return seconds


def measured(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int, str]:
    """(wall s, CPU s = user + sys, peak RSS KiB, stdout) of one child process.

    CPU and RSS come from /usr/bin/time when it exists (else 0): the rusage of a child forked from
    this process (which has sentence-transformers loaded by then) would count the parent's pages it
    shared before exec. CPU time is the figure to trust on a loaded machine: wall time then mostly
    measures the other processes.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        wrapped = ["/usr/bin/time", "-f", "%U %S %M", "-o", report.name, *cmd] if TIME_BIN else cmd
        t0 = time.perf_counter()
        proc = subprocess.run(wrapped, capture_output=True, env=env)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
        cpu, rss = 0.0, 0
        if TIME_BIN:
            user, system, kib = report.read().split()[-3:]
            cpu, rss = float(user) + float(system), int(kib)
    return wall, cpu, rss, proc.stdout.decode()


def load() -> str:
    """The load averages (1, 5, 15 minutes): how busy the shared machine was."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def patch_constants(spec: str) -> None:
    """Set recall constants for this process: "subject.SUBJECT_MISS=1.0,topic.ENABLED=0"
    (each a `workspace_memory.recall.<module>` constant, cast to its own type; a dotted module is
    under `workspace_memory`: "embed.use.FAST_AFTER=0")."""
    for part in filter(None, spec.split(",")):
        name, _, value = part.partition("=")
        module_name, constant = name.rsplit(".", 1)
        package = "workspace_memory" if "." in module_name else "workspace_memory.recall"
        module = importlib.import_module(f"{package}.{module_name}")
        setattr(module, constant, type(getattr(module, constant))(value))


def question_set_args(ap, verbose_help: str, constants_example: str) -> None:
    """The options every question-set benchmark shares: --workdir, --verbose, --constants."""
    ap.add_argument("--workdir", help="keep the workspaces here (default: a temporary folder)")
    ap.add_argument("--verbose", action="store_true", help=verbose_help)
    ap.add_argument("--constants", default="", help=f"patch recall constants: {constants_example},...")


def print_top(results: list[dict], n: int = 3, width: int = 80) -> None:
    """A miss's first results, for --verbose: score, source, the start of the content."""
    for r in results[:n]:
        print(f"        {r['score']:.3f} {r.get('source') or r['path']:28} {r['content'][:width]}")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes have used so far (/proc/<pid>/stat); a gone one counts 0."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def hit_rank(results: list[dict], expected: list[tuple[str, int | None]]) -> int | None:
    """The 1-based rank of the first result that covers an expected (path, line), or None; a line of
    None: any result from that file."""
    for rank, result in enumerate(results, 1):
        for path, line in expected:
            if result["path"] == path and (line is None or result["start_line"] <= line <= result["end_line"]):
                return rank
    return None


def child_env(src: str | None) -> dict[str, str]:
    """A child's environment: bytecode cache on, BLAS on one thread, `src` first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    if src:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    return env


def alternate(sources: list[str | None], rounds: int, run, *args) -> dict[str, list[dict]]:
    """`run(src, *args)` (a dict of figures) for each source tree in turn, `rounds` times: two versions
    measured under the same load. Returns each source's figures, in the order of `sources`."""
    runs: dict[str, list[dict]] = {str(src): [] for src in sources}
    for _ in range(rounds):
        for src in sources:
            runs[str(src)].append(run(src, *args))
    return runs


def show_medians(runs: dict[str, list[dict]]) -> None:
    """Print each source's median figures and, with more than one source, their ratio to the first's."""
    first = None
    for src, figures in runs.items():
        medians = {k: statistics.median(f[k] for f in figures) for k in figures[0]
                   if isinstance(figures[0][k], (int, float))}
        first = first or medians
        ratio = {k: v / first[k] for k, v in medians.items() if first.get(k)}
        shown = "  ".join(f"{k}={v:.3g}" for k, v in medians.items())
        tag = f"  [ratio to first: {', '.join(f'{k} {r:.2f}' for k, r in ratio.items())}]" if len(runs) > 1 else ""
        print(f"{src}: {shown}{tag}")
