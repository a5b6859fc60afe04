"""OpenClaw's own memory (memory-core) against this engine through the plugin, in the real gateway.

    python benchmarks/openclaw.py [--conversations conv-26,conv-30,conv-41] [--k 25]
                                  [--systems memory-core,plugin] [--out benchmarks/out/openclaw.json]

Needs `make node` (Node 26 and openclaw 2026.9.6 in .node/) and ../shared/benchmarks/locomo/locomo10.json.
Each LoCoMo conversation becomes one workspace exactly as benchmarks/locomo.py writes it (one daily log
per session, one bullet per turn). For each system a throwaway OpenClaw home points its agent at that
workspace, the system indexes it, and one `openclaw gateway run` (loopback, token auth) is started;
every scorable question is then one `POST /tools/invoke memory_search {query, maxResults: K}`, the same
call an agent makes, timed on the client. memory-core runs as shipped in its FTS mode
(`memory.search.provider: "none"`: its embeddings need a download or a key); the plugin runs the
engine's defaults (hybrid, the offline multilingual model), "now" the day after the last session.

Reported per system: evidence recall at 5/10/K results and at 1,000 / 2,000 / 4,000 characters of
returned text (results in rank order while the lines they cover fit), p50/p95 per call, the first
call's latency, and the RSS of the gateway (and of the engine child for the plugin) after the run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locomo import CATEGORIES, DATA, normalize_evidence, within_budget, write_workspace

REPO = Path(__file__).resolve().parents[1]
NODE_BIN = REPO / ".node" / "bin"
PLUGIN_DIR = REPO / "integrations" / "openclaw"
TOKEN = "bench-token"
BUDGETS = (1000, 2000, 4000)


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

    def __init__(self, root: Path, workspace: Path, system: str, now: str) -> None:
        self.root, self.workspace, self.system = root, workspace, system
        self.port = free_port()
        (root / "home").mkdir(parents=True, exist_ok=True)
        config: dict = {
            "agents": {"defaults": {"workspace": str(workspace)}},
            "update": {"checkOnStart": False},
            "models": {"catalogRefresh": {"enabled": False}},
            "gateway": {"mode": "local", "bind": "loopback", "port": self.port, "auth": {"mode": "token", "token": TOKEN}},
        }
        if system == "memory-core":
            config["memory"] = {"search": {"provider": "none"}}
        else:
            config["plugins"] = {
                "allow": ["workspace-memory"], "load": {"paths": [str(PLUGIN_DIR)]},
                "slots": {"memory": "workspace-memory"},
                "entries": {"workspace-memory": {"enabled": True, "config": {
                    "command": memory_executable(), "env": {"MEMORY_NOW": now},
                    "dreaming": {"enabled": False}}}},  # as installed: no config write, no plugin reload
            }
        (root / "openclaw.json").write_text(json.dumps(config, indent=1))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_")} | {
            "HOME": str(root / "home"), "OPENCLAW_CONFIG_PATH": str(root / "openclaw.json"),
            "OPENCLAW_STATE_DIR": str(root / "home" / ".openclaw"), "PATH": f"{NODE_BIN}:{os.environ['PATH']}",
            "OPENCLAW_NO_AUTO_UPDATE": "1", "DO_NOT_TRACK": "1", "OPENCLAW_DISABLE_BONJOUR": "1",
            "OPENCLAW_SKIP_CHANNELS": "1", "OPENCLAW_NO_ONBOARD": "1", "OPENCLAW_NO_PROMPT": "1",
            "MEMORY_CACHE_DIR": os.environ.get("MEMORY_CACHE_DIR", str(Path.home() / ".cache" / "workspace-memory")),
        }

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(NODE_BIN / "openclaw"), *args], capture_output=True, text=True, env=self.env,
                              timeout=1800, cwd=self.root)

    def index(self) -> float:
        t0 = time.perf_counter()
        if self.system == "memory-core":
            proc = self.run("memory", "index", "--force")
        else:
            proc = subprocess.run([memory_executable(), "--workspace", str(self.workspace), "index"], capture_output=True,
                                  text=True, env=self.env, timeout=1800)
        if proc.returncode != 0:
            raise SystemExit(f"{self.system}: index failed: {proc.stderr[-2000:]}")
        return time.perf_counter() - t0

    @contextmanager
    def gateway(self) -> Iterator[subprocess.Popen]:
        """`openclaw gateway run` for this home, once it listens (its output in ROOT/gateway.log); stopped after."""
        log = (self.root / "gateway.log").open("w")
        gw = subprocess.Popen([str(NODE_BIN / "openclaw"), "gateway", "run", "--port", str(self.port), "--bind",
                               "loopback", "--auth", "token", "--token", TOKEN], stdout=log, stderr=subprocess.STDOUT,
                              env=self.env, cwd=self.root)
        try:
            deadline = time.monotonic() + 180
            while True:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    break
                except OSError:
                    if gw.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"gateway did not start: {(self.root / 'gateway.log').read_text()[-3000:]}") from None
                    time.sleep(0.5)
            yield gw
        finally:
            gw.terminate()
            try:
                gw.wait(timeout=60)
            except subprocess.TimeoutExpired:
                gw.kill()
            log.close()

    def invoke(self, query: str, k: int) -> dict:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/tools/invoke",
            data=json.dumps({"tool": "memory_search", "args": {"query": query, "maxResults": k}}).encode(),
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=120) as resp:
            answer = json.loads(resp.read())
        if not answer.get("ok"):
            raise RuntimeError(answer)
        return answer["result"]["details"]


def run_system(system: str, samples: list[dict], k: int, tmp: Path) -> dict:
    rows, latencies, firsts, rss, index_s = [], [], [], [], 0.0
    for sample in samples:
        root = tmp / system / sample["sample_id"]
        where, files, last = write_workspace(sample, root / "workspace")
        now = (last + timedelta(days=1)).date().isoformat()
        home = Home(root, root / "workspace", system, now)
        index_s += home.index()
        with home.gateway() as gw:
            time.sleep(2)  # the plugin's service starts its engine with the gateway: let it be
            first = True
            for qa in sample["qa"]:
                evidence = [where[d] for d in normalize_evidence(qa.get("evidence", [])) if d in where]
                if not evidence:
                    continue
                t0 = time.perf_counter()
                details = home.invoke(qa["question"], k)
                ms = (time.perf_counter() - t0) * 1000
                (firsts if first else latencies).append(ms)
                first = False
                results = [r for r in details.get("results", []) if "startLine" in r]
                rows.append({"category": CATEGORIES[qa["category"]], **score(results, evidence, files, k)})
            engine = [p for p in descendants(gw.pid) if b"mcp" in Path(f"/proc/{p}/cmdline").read_bytes()]
            rss.append({"gateway_kib": rss_kib(gw.pid), "engine_kib": sum(rss_kib(p) for p in engine)})
    metrics = [m for m in rows[0] if m != "category"]
    table = {m: round(statistics.mean(r[m] for r in rows), 3) for m in metrics}
    lat = sorted(latencies)
    return {"system": system, "questions": len(rows), **table,
            "p50_ms": round(statistics.median(lat), 1), "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1),
            "first_call_ms": [round(f) for f in firsts], "index_s": round(index_s, 1), "rss": rss}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", default="conv-26,conv-30,conv-41")
    parser.add_argument("--systems", default="memory-core,plugin")
    parser.add_argument("--k", type=int, default=25)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if not (NODE_BIN / "openclaw").exists():
        raise SystemExit("run `make node` first (.node/bin/openclaw is missing)")
    wanted = args.conversations.split(",")
    samples = [s for s in json.loads(args.data.read_text()) if s["sample_id"] in wanted]
    tmp = Path(tempfile.mkdtemp(prefix="openclaw-bench-"))
    try:
        report = [run_system(system, samples, args.k, tmp) for system in args.systems.split(",")]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for row in report:
        print(json.dumps(row))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
