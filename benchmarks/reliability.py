"""Reliability harness: crash safety, corruption, hostile input and confinement, as figures.

    python benchmarks/reliability.py crash --kills 200
    python benchmarks/reliability.py corruption
    python benchmarks/reliability.py hostile --examples 2000   (parsers, then memory mcp: mcp_hostile.py)
    python benchmarks/reliability.py confinement
    python benchmarks/reliability.py concurrency --seconds 60
    python benchmarks/reliability.py providers     (a hostile provider on loopback: hostile_provider.py)
    python benchmarks/reliability.py stall         (a stalled provider, 6 searches at once: provider_stall.py)
    python benchmarks/reliability.py all

Every check runs the installed `memory` executable on a generated workspace (workspace_gen.py)
and checks what a user would: Markdown files byte-identical to their state before or after the
interrupted write (sha256 of every file), the index answering (or rebuilt) on the next command,
no traceback, no temporary files piling up. tests/test_reliability_harness.py runs a small sample
of each with the same functions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from datetime import UTC

from stats import pct
from workspace_gen import generate

NOW = "2025-11-30T18:00"


def memory_executable() -> str:
    beside = Path(sys.executable).parent / "memory"
    return str(beside) if beside.exists() else shutil.which("memory") or "memory"


def env(extra: dict[str, str] | None = None) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_") or k == "MEMORY_TEST_OFFLINE"}
    out.update({"MEMORY_EMBED_PROVIDER": "none", "PYTHONUTF8": "1", "NO_COLOR": "1"})
    return out | (extra or {})


def memory(ws: Path, *args: str, timeout: float = 300, extra_env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess:
    return subprocess.run([memory_executable(), "--workspace", str(ws), "--now", NOW, *args],
                          capture_output=True, text=True, timeout=timeout, env=env(extra_env))


def markdown_hashes(ws: Path) -> dict[str, str]:
    """sha256 of every Markdown file of the workspace (the user's data)."""
    return {p.relative_to(ws).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(ws.rglob("*.md")) if ".memory" not in p.parts}


def temp_files(ws: Path) -> list[Path]:
    return [p for p in ws.rglob("*.tmp")]


def make_workspace(root: Path, days: int = 40) -> Path:
    ws = root / "ws"
    generate(ws, days, 12)
    (ws / "MEMORY.md").write_text("# Core\n\n## Persona\nA careful assistant.\n\n## Human\n- Name: Peter\n",
                                  encoding="utf-8")
    # Room for the harnesses' core edits (the default limit is 2,000 characters a block).
    (ws / "memory.toml").write_text("[core]\nlimit = 200000\n", encoding="utf-8")
    memory(ws, "index")
    return ws


# ------------------------------------------------------------------------------------------ crash


@dataclass
class CrashReport:
    kills: int = 0
    by_command: dict[str, int] = field(default_factory=dict)
    finished_before_kill: int = 0
    half_written: list[str] = field(default_factory=list)
    broken_after: list[str] = field(default_factory=list)
    max_temp_files: int = 0
    temp_files_left: int = 0
    files_checked: int = 0


def _commands(rng: random.Random, n: int) -> list[list[str]]:
    """The writers to interrupt: indexing (rebuild), reflect, retain into today's or an old log."""
    day = f"2025-11-{rng.randint(1, 30):02d}"
    return [
        ["index", "--rebuild"],
        ["reflect", "--since", "30d"],
        ["retain", f"W @Peter: crash fact {n} in {day}", "--date", day],
        ["retain", f"O(c=0.{rng.randint(1, 9)}) @Anna: Prefers crash test {n}", "--date", "2025-11-30"],
        ["core", "append", "Human", f"- crash note {n}"],
    ]


def crash(kills: int, seed: int = 1, work: Path | None = None, commands: Callable | None = None) -> CrashReport:
    """SIGKILL writers at random moments; after each kill every Markdown file is as before or as after."""
    rng = random.Random(seed)
    report = CrashReport()
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        ws = make_workspace(Path(tmp))
        durations: dict[str, float] = {}
        for n in range(kills):
            options = (commands or _commands)(rng, n)
            args = options[n % len(options)]
            name = " ".join(args[:2]) if args[0] == "core" else args[0]
            before = markdown_hashes(ws)
            # The state a complete run leaves, from a copy (every command is deterministic under --now).
            after_ws = Path(tmp) / "after"
            shutil.rmtree(after_ws, ignore_errors=True)
            shutil.copytree(ws, after_ws, symlinks=True)
            started = time.perf_counter()
            memory(after_ws, *args)
            durations.setdefault(name, time.perf_counter() - started)
            after = markdown_hashes(after_ws)
            proc = subprocess.Popen([memory_executable(), "--workspace", str(ws), "--now", NOW, *args],
                                    env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.05, 1.1 * durations[name]))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            else:
                report.finished_before_kill += 1
            proc.wait()
            report.kills += 1
            report.by_command[name] = report.by_command.get(name, 0) + 1
            now = markdown_hashes(ws)
            report.files_checked += len(now)
            for key in set(before) | set(now):
                if now.get(key) not in (before.get(key), after.get(key)):
                    report.half_written.append(f"kill {n} ({' '.join(args)}): {key}")
            report.max_temp_files = max(report.max_temp_files, len(temp_files(ws)))
            check = memory(ws, "recall", "Peter", "--json", "--mode", "lexical")
            if check.returncode != 0 or "Traceback" in check.stderr or not json.loads(check.stdout or "{}").get("query"):
                report.broken_after.append(f"kill {n} ({' '.join(args)}): exit {check.returncode} {check.stderr[-200:]}")
        # One more complete write of each kind leaves no temporary file behind.
        for args in _commands(rng, kills):
            memory(ws, *args)
        report.temp_files_left = len([p for p in temp_files(ws) if ".memory" not in p.parts])
    return report


# ------------------------------------------------------------------------------------------ concurrency


@dataclass
class ConcurrencyReport:
    seconds: float = 0.0
    ops: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    recall_ms: dict[str, float] = field(default_factory=dict)
    retained_missing: int = 0
    retained_duplicated: int = 0
    core_missing: int = 0
    core_duplicated: int = 0
    watch_exit: int | None = None
    last_fact_found: bool = False


def _occurrences(text: str, needle: str) -> int:
    return sum(1 for line in text.splitlines() if line.rstrip().endswith(needle))


def concurrency(seconds: float = 60.0, work: Path | None = None) -> ConcurrencyReport:
    """`memory watch`, 4 recall loops, reflect in a loop, 2 retain writers and 2 core editors at once.

    Afterwards: zero errors, every retained bullet and every applied core edit present exactly once,
    the watcher stopped cleanly by SIGTERM, and the last retained fact found by recall.
    """
    import threading

    report = ConcurrencyReport()
    lock = threading.Lock()
    latencies: list[float] = []
    retained: list[str] = []
    applied: list[str] = []
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        ws = make_workspace(Path(tmp))
        watch = subprocess.Popen([memory_executable(), "--workspace", str(ws), "--now", NOW, "watch"],
                                 env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + seconds

        def record(kind: str, proc: subprocess.CompletedProcess, refusal: bool = False) -> bool:
            with lock:
                if proc.returncode == 0:
                    report.ops[kind] = report.ops.get(kind, 0) + 1
                    return True
                if refusal and proc.returncode in (1, 4) and "Traceback" not in proc.stderr \
                        and len(proc.stderr.strip().splitlines()) == 1:
                    report.refused[kind] = report.refused.get(kind, 0) + 1
                    return False
                report.errors.append(f"{kind}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
                return False

        def recaller(n: int) -> None:
            queries = ["Peter", "deploy pipeline", "concurrency fact", "what did Anna say", "core edit"]
            i = 0
            while time.monotonic() < deadline:
                started = time.perf_counter()
                proc = memory(ws, "recall", queries[(i + n) % len(queries)], "--json", "--mode", "lexical", "--k", "10")
                took = time.perf_counter() - started
                if record("recall", proc) and not json.loads(proc.stdout).get("query"):
                    report.errors.append("recall: no query in the JSON")
                with lock:
                    latencies.append(took)
                i += 1

        def reflector() -> None:
            while time.monotonic() < deadline:
                record("reflect", memory(ws, "reflect", "--since", "30d", "--no-model"), refusal=True)

        def retainer(name: str) -> None:
            i = 0
            while time.monotonic() < deadline:
                text = f"W @Peter: concurrency fact {name}-{i}"
                if record("retain", memory(ws, "retain", text, "--date", "2025-11-30"), refusal=True):
                    with lock:
                        retained.append(f"concurrency fact {name}-{i}")
                i += 1

        def core_editor(name: str) -> None:
            i = 0
            while time.monotonic() < deadline:
                line = f"- core edit {name}-{i}"
                if record("core", memory(ws, "core", "append", "Human", line), refusal=True):
                    with lock:
                        applied.append(f"core edit {name}-{i}")
                i += 1

        workers = [threading.Thread(target=recaller, args=(n,)) for n in range(4)]
        workers += [threading.Thread(target=reflector)]
        workers += [threading.Thread(target=retainer, args=(name,)) for name in ("A", "B")]
        workers += [threading.Thread(target=core_editor, args=(name,)) for name in ("C", "D")]
        started = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        report.seconds = time.perf_counter() - started
        time.sleep(4)  # the watcher's debounce (1.5 s) and one batch
        watch.send_signal(signal.SIGTERM)
        try:
            _, err = watch.communicate(timeout=60)
            report.watch_exit = watch.returncode
            if watch.returncode != 0 or "Traceback" in err:
                report.errors.append(f"watch: exit {watch.returncode}: {err.strip()[-300:]}")
        except subprocess.TimeoutExpired:
            watch.kill()
            report.errors.append("watch: did not stop within 60 s of SIGTERM")
        day = (ws / "memory" / "2025-11-30.md").read_text(encoding="utf-8")
        core = (ws / "MEMORY.md").read_text(encoding="utf-8")
        for needle in retained:
            count = _occurrences(day, needle)
            report.retained_missing += count == 0
            report.retained_duplicated += count > 1
        for needle in applied:
            count = _occurrences(core, needle)
            report.core_missing += count == 0
            report.core_duplicated += count > 1
        if retained:
            last = memory(ws, "recall", retained[-1], "--json", "--mode", "lexical")
            report.last_fact_found = any(retained[-1] in r.get("content", "") for r in json.loads(last.stdout)["results"])
        if latencies:
            ms = sorted(x * 1000 for x in latencies)
            report.recall_ms = {"p50": round(statistics.median(ms), 1), "p95": round(pct(ms, 0.95), 1),
                                "max": round(ms[-1], 1)}
    return report


# ------------------------------------------------------------------------------------------ corruption


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(max(4096, path.stat().st_size)))


def corruption(work: Path | None = None) -> list[dict]:
    """Damage each derived file in turn; the next commands rebuild with a notice, no Markdown byte lost."""
    results = []
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        ws = make_workspace(Path(tmp))
        memory(ws, "index", extra_env={"MEMORY_EMBED_PROVIDER": "fake"})
        state = ws / ".memory"
        targets = {
            "index.sqlite": lambda: state / "index.sqlite",
            "index.sqlite-wal": lambda: state / "index.sqlite-wal",
            "hnsw file": lambda: next((state / "vectors").glob("*.hnsw")),
            "hnsw sidecar": lambda: next((state / "vectors").glob("*.hnsw.json")),
            "recent vectors file": lambda: next((state / "vectors").glob("*.hnsw.recent")),
        }
        for target, locate in targets.items():
            for damage_name, damage in (("truncated", _truncate), ("garbage", _garbage)):
                memory(ws, "index", extra_env={"MEMORY_EMBED_PROVIDER": "fake"})
                if target == "recent vectors file":
                    # An edit and an index: its vectors go to the recent file beside the HNSW file.
                    memory(ws, "retain", f"W @Peter: a recent vector, {damage_name}", "--date", "2025-11-29")
                    memory(ws, "index", extra_env={"MEMORY_EMBED_PROVIDER": "fake"})
                if target == "index.sqlite-wal":
                    # Leave committed frames in the WAL: a write, then no checkpoint.
                    memory(ws, "retain", "W @Peter: a WAL frame", "--date", "2025-11-29")
                    memory(ws, "recall", "WAL frame", extra_env={"MEMORY_EMBED_PROVIDER": "fake"})
                before = markdown_hashes(ws)
                path = locate()
                if target != "index.sqlite-wal" or path.exists():
                    if not path.exists():
                        path.write_bytes(b"")
                    damage(path)
                outcome = {"target": target, "damage": damage_name, "ok": True, "notices": []}
                for args in (("recall", "Peter", "--json", "--mode", "hybrid"), ("status", "--json"),
                             ("index",), ("reflect", "--dry-run")):
                    proc = memory(ws, *args, extra_env={"MEMORY_EMBED_PROVIDER": "fake"})
                    if proc.returncode != 0 or "Traceback" in proc.stderr + proc.stdout:
                        outcome["ok"] = False
                        outcome["error"] = f"{' '.join(args)}: exit {proc.returncode}: {proc.stderr[-300:]}"
                        break
                    if args[0] == "recall":
                        outcome["notices"] = json.loads(proc.stdout)["notices"]
                outcome["markdown_unchanged"] = markdown_hashes(ws) == before
                outcome["ok"] = outcome["ok"] and outcome["markdown_unchanged"]
                results.append(outcome)
    return results


# ------------------------------------------------------------------------------------------ hostile input


def count_steps(calls: tuple) -> int:
    """Lines of workspace_memory and markdown-it-py run by `calls` (sys.settrace; other code is not
    traced): a count of work that does not depend on the machine's speed or load. A regular
    expression runs in C and counts as one line; its worst cases show only in the time figures."""
    import markdown_it

    import workspace_memory

    packages = tuple(str(Path(m.__file__).parent) for m in (workspace_memory, markdown_it))
    count = 0

    def in_frame(frame, event, arg):  # the settrace signature
        nonlocal count
        if event == "line":
            count += 1
        return in_frame

    def on_call(frame, event, arg):
        return in_frame if frame.f_code.co_filename.startswith(packages) else None

    before = sys.gettrace()
    sys.settrace(on_call)
    try:
        for fn, *args in calls:
            fn(*args)
    finally:
        sys.settrace(before)
    return count


MAX_SECONDS_HUGE_FILE = 120.0  # `memory index` of a 50 MB one-line file (once a bound in tests/)


def hostile(examples: int, seed: int = 0) -> dict:
    """Fuzz the parsers with hypothesis: no crash, bounded time per input; then a 50 MB one-line file."""
    from datetime import date, datetime

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from workspace_memory.markdown.frontmatter import split_frontmatter
    from workspace_memory.markdown.parse import parse_markdown
    from workspace_memory.markdown.retain import parse_retain_bullet, validate_bullet
    from workspace_memory.timeparse import extract_time_window, resolve_stated_range

    written = date(2025, 11, 27)
    now = datetime(2025, 11, 30, 18, tzinfo=UTC)
    alphabet = st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Z", "Cc"))
    markdownish = st.lists(st.one_of(
        st.sampled_from(["## Retain", "- W @Peter: Lives in Vienna", "- O(c=1.5) @X: y", "---", "```", "~~~",
                         "<!-- reflect:begin x -->", "| a | b |", "# T", "> q", "  - nested", "1. one", ""]),
        st.text(alphabet, max_size=80)), max_size=40).map("\n".join)
    timings: dict[str, list[float]] = {}
    steps: dict[str, list[tuple[int, int]]] = {}

    def timed(name: str, *calls: tuple) -> None:
        """Time one fuzz case (the first case of each kind also pays for imports and compiled rules),
        then count its steps: lines of our code run, the clock-free measure the tests assert on."""
        started = time.perf_counter()
        for fn, *args in calls:
            fn(*args)
        timings.setdefault(name, []).append(time.perf_counter() - started)
        size = sum(len(a) if isinstance(a, str) else sum(map(len, a)) for _, *args in calls for a in args
                   if isinstance(a, str | list))
        steps.setdefault(name, []).append((size, count_steps(calls)))  # (input chars, steps)

    common = settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                      suppress_health_check=list(HealthCheck))

    @common
    @given(st.text(alphabet, max_size=300))
    def retain_grammar(text: str) -> None:
        timed("retain grammar", (parse_retain_bullet, text, written), (validate_bullet, text))

    @common
    @given(markdownish)
    def chunker(text: str) -> None:
        timed("chunker", (parse_markdown, text, written))

    @common
    @given(st.lists(st.text(alphabet, max_size=60), max_size=30))
    def frontmatter(lines: list[str]) -> None:
        timed("frontmatter", (split_frontmatter, ["---", *lines, "---"]))

    @common
    @given(st.one_of(st.text(alphabet, max_size=120), st.from_regex(
        r"(since|until|around|in|on|last|next)? ?(\d{1,4}[./-]\d{1,2}([./-]\d{1,4})?|[A-Z][a-z]{2,8} \d{1,2}(, \d{4})?)",
        fullmatch=True)))
    def time_phrases(text: str) -> None:
        timed("time phrases", (extract_time_window, text, now), (resolve_stated_range, text, written))

    for fuzz in (retain_grammar, chunker, frontmatter, time_phrases):
        fuzz()
    out = {name: {"cases": len(t), "first_ms": round(1000 * t[0], 1), "max_ms_after_first": round(1000 * max(t[1:]), 2),
                  "median_ms": round(1000 * statistics.median(t), 3),
                  "max_steps": max(n for _, n in steps[name]), "max_chars": max(c for c, _ in steps[name])}
           for name, t in timings.items()}
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        (ws / "memory").mkdir(parents=True)
        (ws / "MEMORY.md").write_text("# Core\n", encoding="utf-8")
        rng = random.Random(seed)
        line = "".join(rng.choice("abcdefghij klmnop") for _ in range(1_000_000)) * 50
        (ws / "memory" / "huge.md").write_text(line + "\n", encoding="utf-8")
        started = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-f", "%M", memory_executable(), "--workspace", str(ws), "index"],
                              capture_output=True, text=True, env=env(), timeout=900)
        out["50 MB one-line file"] = {"seconds": round(time.perf_counter() - started, 2),
                                      "max_rss_mb": round(int(proc.stderr.strip().splitlines()[-1]) / 1024, 1),
                                      "exit": proc.returncode}
    from mcp_hostile import run as mcp_cases  # the agent surface: bounded answers, no queueing (issue 22)

    out["memory mcp"] = mcp_cases()
    return out


# ------------------------------------------------------------------------------------------ confinement

HOSTILE_PATHS = [
    "../outside.md", "memory/../../outside.md", "/etc/passwd", "/etc/hostname.md", "memory/%2e%2e/%2e%2e/outside.md",
    "memory/..%2f..%2foutside.md", "%2e%2e%2foutside.md", "memory/link.md", "memory/linkdir/note.md", "bank/../../x.md",
    ".memory/index.sqlite", ".memory/x.md", "memory/.hidden/secret.md", "memory.toml",
    "memory/2025-11-01.md/../../../outside.md", "~/outside.md", "memory\\..\\..\\outside.md", "memory/notes.txt",
]


def _mcp_get(ws: Path, paths: list[str]) -> list[dict]:
    """memory_get over a real MCP stdio session (the SDK's client spawns `memory mcp`) on each path."""
    import anyio
    from mcp import Client, StdioServerParameters

    server = StdioServerParameters(command=memory_executable(), env=env(),
                                   args=["--workspace", str(ws), "--now", NOW, "mcp"])
    out: list[dict] = []

    async def session() -> None:
        async with Client(server) as client:
            for path in paths:
                result = await client.call_tool("memory_get", {"path": path})
                text = result.content[0].text if result.content else ""
                leaked = "SECRET" in text or "root:" in text
                out.append({"path": f"memory_get {path}", "refused": result.is_error and not leaked,
                            "one_line": len(text.strip().splitlines()) == 1 and "Traceback" not in text,
                            "message": text.strip()[:160]})

    anyio.run(session)
    return out


def confinement(work: Path | None = None) -> list[dict]:
    """`memory get` and memory_get over MCP on hostile paths: all refused, each with one line."""
    out = []
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        root = Path(tmp)
        ws = make_workspace(root, days=3)
        (root / "outside.md").write_text("SECRET outside\n", encoding="utf-8")
        (ws / "memory" / "link.md").symlink_to(root / "outside.md")
        (root / "dir").mkdir()
        (root / "dir" / "note.md").write_text("SECRET in a linked folder\n", encoding="utf-8")
        (ws / "memory" / "linkdir").symlink_to(root / "dir", target_is_directory=True)
        (ws / "memory" / ".hidden").mkdir()
        (ws / "memory" / ".hidden" / "secret.md").write_text("SECRET hidden\n", encoding="utf-8")
        (ws / "memory" / "notes.txt").write_text("SECRET text\n", encoding="utf-8")
        for path in HOSTILE_PATHS:
            proc = memory(ws, "get", path)
            leaked = "SECRET" in proc.stdout or "root:" in proc.stdout
            out.append({"path": path, "refused": proc.returncode != 0 and not leaked,
                        "one_line": len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr,
                        "message": proc.stderr.strip()[:160]})
        out += _mcp_get(ws, HOSTILE_PATHS)
        recall = memory(ws, "recall", "SECRET", "--json", "--mode", "lexical")
        out.append({"path": "(recall of text outside the workspace)",
                    "refused": recall.returncode == 0 and not json.loads(recall.stdout)["results"], "one_line": True})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["crash", "corruption", "hostile", "confinement", "concurrency", "providers",
                                         "stall", "all"])
    parser.add_argument("--searches", type=int, default=6)
    parser.add_argument("--query-timeout", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--examples", type=int, default=2000)
    args = parser.parse_args()
    started = time.perf_counter()
    if args.what in ("crash", "all"):
        report = crash(args.kills, seed=args.seed)
        print(json.dumps({"crash": report.__dict__}, indent=2))
        print(f"crash: {report.kills} kills ({report.kills - report.finished_before_kill} mid-run), "
              f"{len(report.half_written)} half-written of {report.files_checked} file checks, "
              f"{len(report.broken_after)} broken after, {report.temp_files_left} temporary files left")
    if args.what in ("corruption", "all"):
        results = corruption()
        print(json.dumps({"corruption": results}, indent=2))
        print(f"corruption: {sum(r['ok'] for r in results)}/{len(results)} recovered with Markdown unchanged")
    if args.what in ("hostile", "all"):
        out = hostile(args.examples)
        print(json.dumps({"hostile": out}, indent=2))
        from mcp_hostile import over_bounds

        over = over_bounds(out["memory mcp"])
        if out["50 MB one-line file"]["seconds"] >= MAX_SECONDS_HUGE_FILE:
            over.append(f"50 MB one-line file: {out['50 MB one-line file']['seconds']} s")
        for line in over:
            print(f"hostile: over the bound: {line}")
    if args.what in ("confinement", "all"):
        results = confinement()
        print(json.dumps({"confinement": results}, indent=2))
        print(f"confinement: {sum(r['refused'] and r['one_line'] for r in results)}/{len(results)} refused cleanly")
    if args.what in ("concurrency", "all"):
        report = concurrency(args.seconds)
        print(json.dumps({"concurrency": report.__dict__}, indent=2))
        ops = sum(report.ops.values())
        print(f"concurrency: {ops} operations in {report.seconds:.0f} s ({ops / report.seconds:.1f}/s), "
              f"{len(report.errors)} errors, recall p50 {report.recall_ms.get('p50')} ms")
    if args.what in ("providers", "all"):
        providers()
    if args.what in ("stall", "all"):
        stall(args.searches, args.query_timeout)
    print(f"({time.perf_counter() - started:.0f} s)")


def providers(work: Path | None = None) -> list[dict]:
    """The hostile provider corpus (hostile_provider.py): every behaviour with a long and a short key."""
    import hostile_provider

    with tempfile.TemporaryDirectory() as tmp:
        reports = hostile_provider.corpus(work or Path(tmp))
    for r in reports:
        print(f"providers: {r['behaviour']:<21} {r['key']:<5} key ({r['key_chars']} chars), fallback "
              f"{'on ' if r['fallback'] else 'off'}: {len(r['leaks'])} leaks in {r['bytes_searched']:,} bytes of "
              f"{r['places_searched']} outputs and files; {r['requests']} request(s), "
              f"{r['requests_to_another_origin']} to another origin; bad exits {r['bad_exits'] or 'none'}")
    leaks = sum(len(r["leaks"]) for r in reports)
    print(f"providers: {len(reports)} scenarios, {leaks} leaks, "
          f"{sum(r['requests_to_another_origin'] for r in reports)} requests to another origin")
    return reports


def stall(searches: int = 6, query_timeout: float = 1.0, work: Path | None = None) -> list[dict]:
    """A stalled provider and N searches at once (provider_stall.py), over MCP and as CLI processes,
    with the circuit breaker on (cooldown 30 s) and off (cooldown 0)."""
    import provider_stall

    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in (provider_stall.mcp_case, provider_stall.cli_case):
            for cooldown in (30.0, 0.0):
                report = case(work or Path(tmp), searches=searches, query_timeout=query_timeout, cooldown=cooldown)
                reports.append(report)
                print(json.dumps(report))
                print(f"stall: {report['case']}, breaker {'on' if cooldown else 'off'}: the last of {searches} "
                      f"searches answered after {report['last']:.2f} s (one timeout {query_timeout:g} s + their own "
                      f"work {report['healthy_last']:.2f} s = {report['bound']:.2f} s); {report['stalled_requests']} "
                      f"request(s) reached the stalled provider")
    return reports


if __name__ == "__main__":
    main()
