"""OpenClaw's own memory (memory-core) against this engine through the plugin, in the real gateway.

    python benchmarks/openclaw.py [--conversations conv-26,conv-30,conv-41] [--k 25]
                                  [--systems memory-core,memory-core-2023,plugin,plugin-lexical] [--cli-rounds 5]
                                  [--questions N] [--out benchmarks/out/openclaw.json]

Needs `make node` (Node 26 and openclaw 2026.9.6 in .node/) and ../shared/benchmarks/locomo/locomo10.json.
Each LoCoMo conversation becomes one workspace exactly as benchmarks/locomo.py writes it (one daily log
per session, one bullet per turn). For each system a throwaway OpenClaw home points its agent at that
workspace, the system indexes it, and one `openclaw gateway run` (loopback, token auth) is started;
every scorable question is then one `POST /tools/invoke memory_search {query, maxResults: K}`, the same
call an agent makes, timed on the client. The systems run side by side: every system's gateway is up
at once and each question is asked of each in turn (the order rotating question by question), so a
change in the machine's load hits every system alike; each system after the first gets the ratio of
its p50 to the first's and the median of the per-question ratios. memory-core runs as shipped in its FTS mode
(`memory.search.provider: "none"`: its embeddings need a download or a key); the plugin runs the
engine's defaults (hybrid, the offline multilingual model), installed as `memory openclaw install`
sets it up (memory-core off).

The clock is fair: LoCoMo's sessions are dated 2023, and memory-core's temporal decay (a 30-day half
life, always on) counts from today, while the engine can be given a "now". So every session date is
shifted by the same number of days, the last session becoming yesterday, and both systems run on
the real clock: memory-core's decay acts as it does on a user's fresh notes. `memory-core-2023` is
memory-core on the dates as LoCoMo has them (its decay then weighs three-year-old notes).
`plugin-lexical` is the plugin on a workspace whose memory.toml says `[embedding] provider = "none"`
(the engine's lexical recall alone: what a user gives up answers for, to get speed).

Reported per system: evidence recall at 5/10/K results and at 1,000 / 2,000 / 4,000 characters of
returned text (results in rank order while the lines they cover fit), p50/p95 per call, the CPU
time per call (user + system of the gateway and its children, from the second call on: a figure a
loaded machine does not inflate as it does wall time), the first call after the gateway said "ready", and the RSS of the gateway (and of the engine child for the
plugin) after the run. Then the gateway's own cost around a call, the floor no memory system goes
below: the p50 of a tool no plugin has (404) and of memory_get of one line, in turn (Home.floor). Then the command line, on the first conversation: `openclaw memory search`
with memory-core and `openclaw memory recall` / `openclaw memory search` with the plugin, run in
turn (A B C A B C ...) `--cli-rounds` times: wall time and CPU time (user + system of the command and
its children), medians.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locomo import CATEGORIES, DATA, normalize_evidence, parse_session_time, within_budget, write_workspace
from stats import cpu_seconds

REPO = Path(__file__).resolve().parents[1]
NODE_BIN = REPO / ".node" / "bin"
PLUGIN_DIR = REPO / "integrations" / "openclaw"
TOKEN = "bench-token"
BUDGETS = (1000, 2000, 4000)
FLOOR_ROUNDS = 50  # calls of each kind that measure the gateway's own cost (Home.floor)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory_executable() -> str:
    beside = Path(sys.executable).parent / "memory"
    return str(beside) if beside.exists() else (shutil.which("memory") or "memory")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(entry.name))
    return out


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def shifted(sample: dict, to_yesterday: bool) -> dict:
    """The conversation with every session date moved by the same number of days, so that its last
    session is yesterday (UTC); unchanged when not `to_yesterday`."""
    if not to_yesterday:
        return sample
    conv = dict(sample["conversation"])
    keys = [k for k in conv if re.fullmatch(r"session_\d+_date_time", k) and conv.get(k.removesuffix("_date_time"))]
    last = max(parse_session_time(conv[k]) for k in keys)
    delta = (date.today() - timedelta(days=1)) - last.date()
    for k in keys:
        when = parse_session_time(conv[k]) + delta
        conv[k] = f"{when:%I:%M %p}".lower().lstrip("0") + f" on {when.day} {when:%B}, {when.year}"
    return {**sample, "conversation": conv}


def found_share(results: list[dict], evidence: list[tuple[str, int]]) -> float:
    hit = sum(any(r["path"] == p and r["startLine"] <= ln <= r["endLine"] for r in results) for p, ln in evidence)
    return hit / len(evidence)


def score(results: list[dict], evidence: list[tuple[str, int]], files: dict[str, list[str]], k: int) -> dict:
    out = {f"r@{n}": found_share(results[:n], evidence) for n in (5, 10, k)}
    for budget in BUDGETS:
        out[f"r@{budget}c"] = found_share(within_budget(results, files, budget, "startLine", "endLine"), evidence)
    return out


class Home:
    """A throwaway OpenClaw home whose agent's workspace is one conversation."""

    def __init__(self, root: Path, workspace: Path, system: str, now: str | None = None) -> None:
        """`now` (an ISO day): the engine's MEMORY_NOW, for a benchmark that keeps a data set's own dates."""
        self.root, self.workspace, self.system = root, workspace, system
        self.port = free_port()
        (root / "home").mkdir(parents=True, exist_ok=True)
        config: dict = {
            "agents": {"defaults": {"workspace": str(workspace)}},
            "update": {"checkOnStart": False},
            "models": {"catalogRefresh": {"enabled": False}},
            "gateway": {"mode": "local", "bind": "loopback", "port": self.port, "auth": {"mode": "token", "token": TOKEN}},
        }
        if system.startswith("memory-core"):
            config["memory"] = {"search": {"provider": "none"}}
        else:  # as `memory openclaw install` sets it up
            config["plugins"] = {
                "load": {"paths": [str(PLUGIN_DIR)]}, "slots": {"memory": "workspace-memory"},
                "entries": {"workspace-memory": {"enabled": True, "config": {"command": memory_executable()}},
                            "memory-core": {"enabled": False}},
            }
            if now:
                config["plugins"]["entries"]["workspace-memory"]["config"]["env"] = {"MEMORY_NOW": now}
        (root / "openclaw.json").write_text(json.dumps(config, indent=1))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")} | {
            "HOME": str(root / "home"), "OPENCLAW_CONFIG_PATH": str(root / "openclaw.json"),
            "OPENCLAW_STATE_DIR": str(root / "home" / ".openclaw"), "PATH": f"{NODE_BIN}:{os.environ['PATH']}",
            "OPENCLAW_NO_AUTO_UPDATE": "1", "DO_NOT_TRACK": "1", "OPENCLAW_DISABLE_BONJOUR": "1",
            "OPENCLAW_SKIP_CHANNELS": "1", "OPENCLAW_NO_ONBOARD": "1", "OPENCLAW_NO_PROMPT": "1",
            "FORCE_COLOR": "0", "NO_COLOR": "1",
            "MEMORY_CACHE_DIR": os.environ.get("MEMORY_CACHE_DIR", str(Path.home() / ".cache" / "workspace-memory")),
        }

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(NODE_BIN / "openclaw"), *args], capture_output=True, text=True, env=self.env,
                              timeout=1800, cwd=self.root)

    def index(self) -> float:
        t0 = time.perf_counter()
        if self.system.startswith("memory-core"):
            proc = self.run("memory", "index", "--force")
        else:
            proc = subprocess.run([memory_executable(), "--workspace", str(self.workspace), "index"], capture_output=True,
                                  text=True, env=self.env, timeout=1800)
        if proc.returncode != 0:
            raise SystemExit(f"{self.system}: index failed: {proc.stderr[-2000:]}")
        return time.perf_counter() - t0

    @contextmanager
    def gateway(self) -> Iterator[subprocess.Popen]:
        """`openclaw gateway run` for this home once it is ready (its output in ROOT/gateway.log); stopped after."""
        log_path = self.root / "gateway.log"
        with log_path.open("w") as log:
            gw = subprocess.Popen([str(NODE_BIN / "openclaw"), "gateway", "run", "--port", str(self.port), "--bind",
                                   "loopback", "--auth", "token", "--token", TOKEN], stdout=log,
                                  stderr=subprocess.STDOUT, env=self.env, cwd=self.root)
            try:
                wait_ready(gw, log_path, self.port)
                yield gw
            finally:
                stop(gw)

    def call(self, tool: str, args: dict) -> dict:
        """One `POST /tools/invoke` (an HTTP error's body is the answer: an unknown tool gives 404)."""
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/tools/invoke", data=json.dumps({"tool": tool, "args": args}).encode(),
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return json.loads(exc.read() or b"{}")

    def invoke(self, query: str, k: int) -> dict:
        answer = self.call("memory_search", {"query": query, "maxResults": k})
        if not answer.get("ok"):
            raise RuntimeError(answer)
        return answer["result"]["details"]

    def floor(self, path: str, rounds: int = FLOOR_ROUNDS) -> dict:
        """The gateway's own cost around a tool call, in turn, `rounds` times each: a tool no plugin has
        (the gateway builds the tool list and answers 404) and memory_get of one line (the smallest
        call that reaches the memory plugin): p50 ms each."""
        calls = {"unknown_tool": ("no_such_tool", {}), "memory_get_1_line": ("memory_get", {"path": path, "from": 1, "lines": 1})}
        got: dict[str, list[float]] = {name: [] for name in calls}
        for _ in range(rounds):
            for name, (tool, args) in calls.items():
                t0 = time.perf_counter()
                self.call(tool, args)
                got[name].append((time.perf_counter() - t0) * 1000)
        return {f"{name}_p50_ms": round(statistics.median(ms), 1) for name, ms in got.items()}


def wait_ready(gw: subprocess.Popen, log: Path, port: int) -> float:
    """Wait until the gateway logs "ready" (the plugin's service has warmed the engine by then);
    the seconds it took."""
    started, deadline = time.monotonic(), time.monotonic() + 300
    while "[gateway] ready" not in re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace")):
        if gw.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"gateway did not start: {log.read_text()[-3000:]}")
        time.sleep(0.2)
    socket.create_connection(("127.0.0.1", port), timeout=5).close()
    return time.monotonic() - started


def stop(gw: subprocess.Popen) -> None:
    """Stop a gateway: SIGTERM, then SIGKILL after a minute."""
    gw.terminate()
    try:
        gw.wait(timeout=60)
    except subprocess.TimeoutExpired:
        gw.kill()


def serve(system: str, sample: dict, tmp: Path, stack: ExitStack) -> dict:
    """One system's home on one conversation, indexed, its gateway started and ready (stopped by `stack`)."""
    root = tmp / system / sample["sample_id"]
    where, files, _ = write_workspace(shifted(sample, system != "memory-core-2023"), root / "workspace")
    if system == "plugin-lexical":  # the engine without embeddings: the setting a user picks for speed
        (root / "workspace" / "memory.toml").write_text('[embedding]\nprovider = "none"\n')
    home = Home(root, root / "workspace", system)
    index_s = home.index()
    log_path = root / "gateway.log"
    log = stack.enter_context(log_path.open("w"))
    gw = subprocess.Popen([str(NODE_BIN / "openclaw"), "gateway", "run", "--port", str(home.port), "--bind",
                           "loopback", "--auth", "token", "--token", TOKEN], stdout=log, stderr=subprocess.STDOUT,
                          env=home.env, cwd=root)
    stack.callback(stop, gw)
    ready_s = round(wait_ready(gw, log_path, home.port), 1)
    return {"home": home, "gw": gw, "where": where, "files": files, "index_s": index_s, "ready_s": ready_s}


def run_paired(systems: list[str], samples: list[dict], k: int, tmp: Path, gap: float = 0.1) -> list[dict]:
    """Every system's gateway up at once, each question asked of each in turn (the order rotating
    question by question), so a change in the machine's load hits every system alike; per system the
    figures of the docstring, and per question the ratio of each system's time to the first system's.
    `gap` seconds of rest before each call: a call starts when the one before it (of either system)
    has finished its trailing work, not while it still runs."""
    got = {s: {"rows": [], "lat": [], "firsts": [], "rss": [], "index_s": 0.0, "ready_s": [], "cpu_s": 0.0,
               "floors": [], "calls": 0} for s in systems}
    pair_ratios: dict[str, list[float]] = {s: [] for s in systems[1:]}
    for sample in samples:
        with ExitStack() as stack:
            up = {s: serve(s, sample, tmp, stack) for s in systems}
            for s in systems:
                got[s]["index_s"] += up[s]["index_s"]
                got[s]["ready_s"].append(up[s]["ready_s"])
            cpu_from: dict[str, float] = {}
            asked = 0
            for qa in sample["qa"]:
                if not any(normalize_evidence(qa.get("evidence", []))):
                    continue
                order = systems[asked % len(systems):] + systems[:asked % len(systems)]
                times: dict[str, float] = {}
                for s in order:
                    evidence = [up[s]["where"][d] for d in normalize_evidence(qa.get("evidence", [])) if d in up[s]["where"]]
                    if not evidence:
                        continue
                    if asked == 1 and s not in cpu_from:  # CPU from the second call on: the gateway and its engine
                        cpu_from[s] = cpu_seconds([up[s]["gw"].pid, *descendants(up[s]["gw"].pid)])
                    time.sleep(gap)  # what the previous call left running (a gateway's deferred work, GC) ends first
                    t0 = time.perf_counter()
                    details = up[s]["home"].invoke(qa["question"], k)
                    ms = (time.perf_counter() - t0) * 1000
                    (got[s]["firsts"] if asked == 0 else got[s]["lat"]).append(ms)
                    if asked:
                        times[s] = ms
                        got[s]["calls"] += 1
                    results = [r for r in details.get("results", []) if "startLine" in r]
                    got[s]["rows"].append({"category": CATEGORIES[qa["category"]],
                                           **score(results, evidence, up[s]["files"], k)})
                if systems[0] in times:
                    for s in systems[1:]:
                        if s in times:
                            pair_ratios[s].append(times[s] / times[systems[0]])
                asked += 1
            for s in systems:
                gw = up[s]["gw"]
                if s in cpu_from:
                    got[s]["cpu_s"] += cpu_seconds([gw.pid, *descendants(gw.pid)]) - cpu_from[s]
            for rnd in range(FLOOR_ROUNDS):  # the floors in turn too, one round of each system at a time
                for s in systems[rnd % len(systems):] + systems[:rnd % len(systems)]:
                    got[s]["floors"].append(up[s]["home"].floor(next(iter(up[s]["files"])), rounds=1))
            for s in systems:
                gw = up[s]["gw"]
                engine = [p for p in descendants(gw.pid) if b"mcp" in Path(f"/proc/{p}/cmdline").read_bytes()]
                got[s]["rss"].append({"gateway_kib": rss_kib(gw.pid), "engine_kib": sum(rss_kib(p) for p in engine)})
    report = []
    for s in systems:
        g = got[s]
        metrics = [m for m in g["rows"][0] if m != "category"]
        lat = sorted(g["lat"])
        row = {"system": s, "questions": len(g["rows"]),
               **{m: round(statistics.mean(r[m] for r in g["rows"]), 3) for m in metrics},
               "p50_ms": round(statistics.median(lat), 1), "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1),
               "cpu_ms_per_call": round(1000 * g["cpu_s"] / max(1, g["calls"]), 1),
               "first_call_ms": [round(f) for f in g["firsts"]], "ready_s": g["ready_s"], "index_s": round(g["index_s"], 1),
               "rss": g["rss"],
               **{key: round(statistics.median(f[key] for f in g["floors"]), 1) for key in g["floors"][0]}}
        if s in pair_ratios and pair_ratios[s]:
            row[f"p50_ratio_to_{systems[0]}"] = round(row["p50_ms"] / report[0]["p50_ms"], 2)
            row[f"median_pair_ratio_to_{systems[0]}"] = round(statistics.median(pair_ratios[s]), 2)
        report.append(row)
    return report


def timed(home: Home, *args: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its children) of one `openclaw ...`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = home.run(*args)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"openclaw {' '.join(args)} failed: {proc.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_times(sample: dict, tmp: Path, rounds: int) -> dict:
    """`openclaw memory search` (memory-core) and `openclaw memory recall|search` (the plugin) on one
    conversation's shifted workspace, in turn, `rounds` times each: the medians of wall and CPU time."""
    homes = {}
    for system in ("memory-core", "plugin"):
        root = tmp / "cli" / system
        write_workspace(shifted(sample, True), root / "workspace")
        homes[system] = Home(root, root / "workspace", system)
        homes[system].index()
    runs = {"memory-core search": (homes["memory-core"], "search"), "plugin recall": (homes["plugin"], "recall"),
            "plugin search": (homes["plugin"], "search")}
    questions = [qa["question"] for qa in sample["qa"][:rounds + 1]]
    for home, verb in runs.values():  # one unmeasured run each: OpenClaw's first run migrates its state
        timed(home, "memory", verb, questions[0])
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for question in questions[1:]:
        for name, (home, verb) in runs.items():
            got[name].append(timed(home, "memory", verb, question))
    return {name: {"wall_s": round(statistics.median(w for w, _ in t), 2), "cpu_s": round(statistics.median(c for _, c in t), 2),
                   "runs": len(t)} for name, t in got.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", default="conv-26,conv-30,conv-41")
    parser.add_argument("--systems", default="memory-core,memory-core-2023,plugin")
    parser.add_argument("--cli-rounds", type=int, default=5, help="rounds of the command-line timing (0: none)")
    parser.add_argument("--k", type=int, default=25)
    parser.add_argument("--gap", type=float, default=0.1, help="seconds of rest before each call")
    parser.add_argument("--questions", type=int, default=0, help="the first N scorable questions of each conversation (0: all)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if not (NODE_BIN / "openclaw").exists():
        raise SystemExit("run `make node` first (.node/bin/openclaw is missing)")
    wanted = args.conversations.split(",")
    samples = [s for s in json.loads(args.data.read_text()) if s["sample_id"] in wanted]
    if args.questions:
        for sample in samples:
            sample["qa"] = [qa for qa in sample["qa"] if any(normalize_evidence(qa.get("evidence", [])))][:args.questions]
    tmp = Path(tempfile.mkdtemp(prefix="openclaw-bench-"))
    started = datetime.now(UTC)
    try:
        report: list[dict] = run_paired(args.systems.split(","), samples, args.k, tmp, args.gap)
        if args.cli_rounds:
            report.append({"cli": cli_times(samples[0], tmp, args.cli_rounds), "conversation": samples[0]["sample_id"]})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load = os.getloadavg()
    report.append({"started": started.isoformat(timespec="seconds"), "load_1_5_15": [round(x, 1) for x in load]})
    for row in report:
        print(json.dumps(row))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
