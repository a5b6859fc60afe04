"""memory_search latency over a real MCP stdio session while a file is edited every second,
and the idle CPU of `memory watch`.

    python benchmarks/mcp_latency.py --workdir DIR [--seconds 120] [--only search|watch-cpu]

1. search: the SDK's client spawns `memory mcp` on the ~100k-chunk workspace of
   benchmarks/semantic.py (DIR/big, built once: about 7 minutes or more on 2 cores), warms it up,
   then calls memory_search (hybrid) back to back for --seconds while another thread rewrites a
   note every --edit-every seconds the way an editor saves (temporary file, then rename). The
   first search after each edit asks for the word the edit introduced: it must find it.
   Reported: the time the client waits per call (p50/p95/p99/max), for all calls and for the
   calls right after an edit, and how many edits the next search saw. Targets: p50 <= 30 ms,
   p95 <= 60 ms, every edit visible to the next search.
2. watch-cpu: `memory watch` on the same workspace, left idle for --idle seconds after its
   first batch; CPU time from /proc/PID/stat. Target: close to 0 %.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from semantic import MEMORY_BIN, NOW, QUERIES, big_workspace
from stats import cpu_seconds, pct

NOTE = "memory/notes/mcp-bench.md"


class Editor(threading.Thread):
    """Rewrites NOTE every `every` seconds with a new unique word, like an editor's atomic save."""

    def __init__(self, root: Path, every: float) -> None:
        super().__init__(daemon=True)
        self.path = root / NOTE
        self.every = every
        self.edits: list[str] = []  # the word each edit introduced, in order
        self.stop = threading.Event()
        self.lock = threading.Lock()

    def write(self, n: int) -> str:
        word = f"zqbench{n:05d}"
        lines = ["# Bench note", ""] + [f"- Line {i} of the note that the benchmark rewrites." for i in range(20)]
        lines.append(f"- Edit {n}: the courier code today is {word}.")
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        tmp.write_text("\n".join(lines) + "\n")
        os.replace(tmp, self.path)
        return word

    def run(self) -> None:
        n = 0
        while not self.stop.wait(self.every):
            n += 1
            word = self.write(n)
            with self.lock:
                self.edits.append(word)


def search_benchmark(root: Path, seconds: float, every: float, mode: str) -> None:
    from mcp import Client, StdioServerParameters

    (root / NOTE).parent.mkdir(parents=True, exist_ok=True)
    editor = Editor(root, every)
    editor.write(0)
    params = StdioServerParameters(command=MEMORY_BIN, args=["--workspace", str(root), "--now", NOW, "mcp"],
                                   env=dict(os.environ))
    all_calls: list[float] = []
    after_edit: list[float] = []
    seen = missed = 0

    async def session() -> None:
        nonlocal seen, missed
        t0 = time.perf_counter()
        async with Client(params) as client:
            print(f"[mcp search] connected in {time.perf_counter() - t0:.1f} s", flush=True)
            t0 = time.perf_counter()
            for q in QUERIES * 2:  # warm-up: waits for the server's own warm-up (model, vector store)
                await client.call_tool("memory_search", {"query": q, "mode": mode})
            print(f"[mcp search] warm-up {time.perf_counter() - t0:.1f} s", flush=True)
            editor.start()
            handled = 0
            end = time.monotonic() + seconds
            i = 0
            while time.monotonic() < end:
                with editor.lock:
                    pending = editor.edits[handled:]
                if pending:  # the first search after an edit looks for the word it wrote
                    handled += len(pending)
                    query = f"courier code {pending[-1]}"
                else:
                    query = QUERIES[i % len(QUERIES)]
                    i += 1
                t = time.perf_counter()
                result = await client.call_tool("memory_search", {"query": query, "k": 10, "mode": mode})
                took = time.perf_counter() - t
                all_calls.append(took)
                assert not result.is_error, result.content
                if pending:
                    after_edit.append(took)
                    texts = " ".join(r["content"] for r in result.structured_content["results"])
                    if pending[-1] in texts:
                        seen += 1
                    else:
                        missed += 1
        editor.stop.set()

    try:
        anyio.run(session)
    finally:
        editor.stop.set()
        (root / NOTE).unlink(missing_ok=True)

    def line(values: list[float]) -> str:
        ms = [v * 1000 for v in values]
        return (f"p50 {statistics.median(ms):.1f} ms, p95 {pct(ms, 0.95):.1f} ms, p99 {pct(ms, 0.99):.1f} ms, "
                f"max {max(ms):.1f} ms ({len(ms)} calls)")

    print(f"[mcp search] {mode}, all calls: {line(all_calls)}")
    print(f"[mcp search] {mode}, first call after an edit: {line(after_edit)}")
    print(f"[mcp search] edits seen by the next search: {seen} of {seen + missed}")


def in_process_baseline(mem, mode: str, rounds: int = 5) -> None:  # api.Memory
    """The same queries through Memory.recall in this process (watcher attached, model loaded), no edits:
    what the server does per search without the transport, measured under the same machine load."""
    from stats import time_recalls
    from workspace_memory.api import RecallRequest

    mem.start_watching()
    try:
        for q in QUERIES:
            mem.recall(RecallRequest(q, mode=mode))
        seconds = time_recalls(mem, QUERIES, rounds * len(QUERIES), mode)
    finally:
        mem.stop_watching()
    ms = [v * 1000 for v in seconds]
    print(f"[in-process baseline] {mode}, Memory.recall with a watcher, no edits: p50 {statistics.median(ms):.1f} ms, "
          f"p95 {pct(ms, 0.95):.1f} ms ({len(ms)} calls)", flush=True)


def watch_cpu(root: Path, idle: float) -> None:
    proc = subprocess.Popen([MEMORY_BIN, "--workspace", str(root), "--now", NOW, "watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(15)  # start-up and the first (full) scan after the 1.5 s debounce
        start_cpu, start = cpu_seconds([proc.pid]), time.monotonic()
        time.sleep(idle)
        used, wall = cpu_seconds([proc.pid]) - start_cpu, time.monotonic() - start
        print(f"[watch idle] {used:.2f} s CPU in {wall:.0f} s idle = {100 * used / wall:.2f} % of one core "
              f"({sum(1 for _ in root.rglob('*.md'))} Markdown files watched)")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, required=True, help="holds big/ (built on first use, then reused)")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--edit-every", type=float, default=1.0)
    parser.add_argument("--mode", default="hybrid", choices=["hybrid", "lexical", "auto"])
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of idle watch to measure")
    parser.add_argument("--only", choices=["search", "watch-cpu"])
    args = parser.parse_args()
    mem, seconds = big_workspace(args.workdir)
    chunks = mem.store.status()["chunks"]
    print(f"[workspace] {chunks} chunks; index up to date in {seconds:.0f} s; load {os.getloadavg()[0]:.2f}",
          flush=True)
    root = args.workdir / "big"
    if args.only in (None, "search"):
        in_process_baseline(mem, args.mode)
        mem.close()
        search_benchmark(root, args.seconds, args.edit_every, args.mode)
    mem.close()
    if args.only in (None, "watch-cpu"):
        watch_cpu(root, args.idle)
    print(f"[machine] load average after the run: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
