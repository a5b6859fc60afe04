"""The memory runtime's cost: `memory.search` through the gateway (the Control UI's Memories tab)
against the agent's memory_search tool, in one run, on one engine child.

    python benchmarks/openclaw_runtime.py [--conversation conv-26] [--k 6] [--questions 200]

Needs `make node` and ../shared/benchmarks/locomo/locomo10.json. One LoCoMo conversation becomes a
workspace (as benchmarks/locomo.py writes it), indexed with the engine's defaults; one `openclaw
gateway run` with the plugin in the memory slot; then benchmarks/openclaw_rpc.mjs asks each question
once as the `memory.search` RPC (WebSocket, OpenClaw's GatewayClient) and once as `POST /tools/invoke
memory_search`, alternating which goes first. Prints p50/p95 of each, their ratio, and the CPU time
(user+sys) the gateway and the engine spent during the run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from locomo import DATA, write_workspace
from openclaw import NODE_BIN, TOKEN, Home, descendants
from stats import cpu_seconds

REPO = Path(__file__).resolve().parents[1]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--k", type=int, default=6)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    if not (NODE_BIN / "openclaw").exists():
        raise SystemExit("run `make node` first (.node/bin/openclaw is missing)")
    [sample] = [s for s in json.loads(args.data.read_text()) if s["sample_id"] == args.conversation]
    tmp = Path(tempfile.mkdtemp(prefix="openclaw-runtime-bench-"))
    _, _, last = write_workspace(sample, tmp / "workspace")
    home = Home(tmp, tmp / "workspace", "plugin", (last + timedelta(days=1)).date().isoformat())
    home.index()
    queries = [qa["question"] for qa in sample["qa"]][: args.questions]
    (tmp / "queries.json").write_text(json.dumps(queries))
    with home.gateway() as gw:
        deadline = time.monotonic() + 180
        while True:  # the gateway answers tools once its plugins are up; the engine child loads its model
            try:
                home.invoke("warm up", args.k)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)
        pids = [gw.pid, *descendants(gw.pid)]
        cpu_before = cpu_seconds(pids)
        proc = subprocess.run([str(NODE_BIN / "node"), str(REPO / "benchmarks" / "openclaw_rpc.mjs"), str(home.port),
                               TOKEN, str(tmp / "queries.json"), str(args.k)], capture_output=True, text=True,
                              env=home.env, timeout=1800)
        if proc.returncode != 0:
            raise SystemExit(f"openclaw_rpc.mjs failed: {proc.stderr[-2000:]}")
        cpu = cpu_seconds(pids) - cpu_before
        got = json.loads(proc.stdout.strip().splitlines()[-1])
    rpc, tool = got["rpc_ms"], got["tool_ms"]
    report = {
        "conversation": args.conversation, "questions": len(rpc), "k": args.k,
        "rpc_p50_ms": round(statistics.median(rpc), 1), "rpc_p95_ms": round(percentile(rpc, 0.95), 1),
        "tool_p50_ms": round(statistics.median(tool), 1), "tool_p95_ms": round(percentile(tool, 0.95), 1),
        "p50_ratio": round(statistics.median(rpc) / statistics.median(tool), 3),
        "hits": {"rpc": got["rpc_hits"], "tool": got["tool_hits"]},
        "cpu_s_gateway_and_engine": round(cpu, 1), "load": os.getloadavg()[0],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
