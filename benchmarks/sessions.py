"""Session transcripts as a recall source: indexing throughput and the cost of one new message.

    python benchmarks/sessions.py [--mb 50] [--runs 15]

Generates a folder of OpenClaw transcripts (deterministic; about `--mb` MB in all, ~200 KB each,
with thinking blocks, tool calls and tool results as real ones have) next to a 30-day workspace,
then measures, with embeddings off (MEMORY_EMBED_PROVIDER=none: the lexical index):

- the first `Memory.sync_sessions()` over the whole folder: MB/s, messages/s, entries/s;
- re-sync after one message is appended to one transcript (`sync_sessions()`, and the whole
  `Memory.index()`, which also stat-scans the Markdown), p50/p95 over `--runs`;
- the same append under the watcher's delta thresholds (left pending: the cost of deciding);
- lexical recall p50 with `--source sessions`, and memory-only recall with and without the
  transcripts in the index (the price of the source filter).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import pct
from workspace_gen import PLACES, PROJECTS, TOPICS, entities, generate
from workspace_memory.api import Memory
from workspace_memory.index.sessions import DELTA_BYTES, DELTA_LINES
from workspace_memory.recall.query import RecallRequest

NOW = "2025-11-30T18:00"
QUERIES = ["reconnect logic Lisbon", "deploy pipeline risk", "ticket 7f3a", "backups cron schedule",
           "what did Anna say about invoices", "Tokyo flight", "rate limits gateway", "flaky tests"]
WORDS = ("the a we it to of and in for on with that this is was be as at by from or an are not but have "
         "check run fix build test deploy merge review update config log error retry queue cache index "
         "token latency schema backup restore migrate sync bridge socket relay handler timeout").split()
FILE_BYTES = 200_000


def sentence(rng: random.Random, ents: list[str], n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    for _ in range(max(1, n // 12)):
        words[rng.randrange(n)] = rng.choice([*ents, *PLACES, *PROJECTS, f"{rng.getrandbits(16):04x}"])
    return " ".join(words).capitalize() + "."


def line(kind: str, rng: random.Random, ents: list[str], at: datetime) -> dict:
    stamp = at.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    if kind == "user":
        content = [{"type": "text", "text": f"{sentence(rng, ents, rng.randint(8, 40))} About {rng.choice(TOPICS)}?"}]
    elif kind == "assistant":
        content = [{"type": "thinking", "thinking": sentence(rng, ents, rng.randint(30, 120))},
                   {"type": "text", "text": " ".join(sentence(rng, ents, rng.randint(10, 30))
                                                     for _ in range(rng.randint(1, 6)))}]
        if rng.random() < 0.4:
            content.append({"type": "toolCall", "id": f"call_{rng.getrandbits(32):x}", "name": "exec",
                            "arguments": {"command": "ls -la /srv/" + rng.choice(PROJECTS).lower()}})
    else:
        return {"type": "message", "timestamp": stamp, "message": {
            "role": "toolResult", "toolCallId": "call", "toolName": "exec",
            "content": [{"type": "text", "text": "\n".join(sentence(rng, ents, 12) for _ in range(rng.randint(3, 20)))}]}}
    return {"type": "message", "id": f"{rng.getrandbits(32):08x}", "timestamp": stamp,
            "message": {"role": kind, "content": content, "timestamp": int(at.timestamp() * 1000)}}


def generate_sessions(folder: Path, megabytes: float, seed: int = 7) -> tuple[int, int]:
    """Transcripts of about FILE_BYTES each until `megabytes` MB; returns (files, bytes)."""
    rng = random.Random(seed)
    ents = entities(50)
    folder.mkdir(parents=True, exist_ok=True)
    total, files = 0, 0
    start = datetime(2025, 6, 1, 8, tzinfo=UTC)
    while total < megabytes * 1_000_000:
        at = start + timedelta(hours=files * 9)
        sid = f"{rng.getrandbits(128):032x}"
        lines = [{"type": "session", "version": 3, "id": sid, "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                  "cwd": "/home/peter"}, {"type": "model_change", "provider": "openai", "modelId": "gpt-5"}]
        size = 0
        while size < FILE_BYTES:
            kind = rng.choice(["user", "assistant", "assistant", "toolResult"])
            at += timedelta(seconds=rng.randint(5, 300))
            text = json.dumps(line(kind, rng, ents, at), ensure_ascii=False)
            lines.append(text)
            size += len(text) + 1
        body = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
        (folder / f"{sid}.jsonl").write_text(body, encoding="utf-8")
        total += len(body.encode("utf-8"))
        files += 1
    return files, total


def timed(fn, runs: int) -> list[float]:
    out = []
    for i in range(runs):
        t0 = time.perf_counter()
        fn(i)
        out.append(time.perf_counter() - t0)
    return out


def ms(values: list[float]) -> str:
    return f"p50 {statistics.median(values) * 1000:.1f} ms, p95 {pct(values, 0.95) * 1000:.1f} ms"


def recall_times(mem: Memory, source: str, runs: int) -> list[float]:
    """Lexical recall latencies, after one warm-up round (term counts cached, pages in memory)."""
    def ask(i: int) -> None:
        mem.recall(RecallRequest(QUERIES[i % len(QUERIES)], k=10, mode="lexical", source=source))

    timed(ask, len(QUERIES))
    return timed(ask, runs)


def main() -> None:
    os.environ["MEMORY_EMBED_PROVIDER"] = "none"
    parser = argparse.ArgumentParser(description="Session transcript indexing benchmark")
    parser.add_argument("--mb", type=float, default=50)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="wm-sessions-"))
    try:
        ws, folder = tmp / "ws", tmp / "agents" / "main" / "sessions"
        generate(ws, 30, 50)
        t0 = time.perf_counter()
        files, size = generate_sessions(folder, args.mb)
        print(f"generated {files} transcripts, {size / 1e6:.1f} MB in {time.perf_counter() - t0:.1f} s")
        mem = Memory.open(str(ws), NOW)
        mem.index()
        memory_only_before = recall_times(mem, "memory", args.runs * 2)
        (ws / "memory.toml").write_text(f'[sessions]\npaths = ["{folder}"]\n', encoding="utf-8")
        mem.close()
        mem = Memory.open(str(ws), NOW)
        t0, cpu0 = time.perf_counter(), time.process_time()
        report = mem.sync_sessions()
        full, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        entries = mem.status()["sessions"]["entries"]
        print(f"full session index: {full:.2f} s ({cpu:.2f} s CPU: {report.bytes / 1e6 / cpu:.1f} MB/s of CPU) for "
              f"{report.bytes / 1e6:.1f} MB: {report.bytes / 1e6 / full:.1f} MB/s, "
              f"{report.messages / full:,.0f} messages/s ({report.messages:,} messages, {entries:,} entries, "
              f"{report.other:,} other lines skipped); index {mem.store.path.stat().st_size / 1e6:.0f} MB")
        targets = sorted(folder.glob("*.jsonl"))
        rng = random.Random(3)
        ents = entities(50)

        def append(i: int) -> None:
            at = datetime(2025, 11, 30, 9, tzinfo=UTC) + timedelta(minutes=i)
            with open(targets[(i * 7) % len(targets)], "a", encoding="utf-8") as fh:
                fh.write(json.dumps(line("user", rng, ents, at)) + "\n")

        def append_then(sync):
            def run(i: int) -> None:
                append(i)
                t0, cpu0 = time.perf_counter(), time.process_time()
                sync()
                run.seconds.append(time.perf_counter() - t0)
                run.cpu.append(time.process_time() - cpu0)
            run.seconds, run.cpu = [], []
            return run

        only = append_then(lambda: mem.sync_sessions())
        timed(only, args.runs)
        print(f"re-sync after one appended message: sync_sessions {ms(only.seconds)} (CPU {ms(only.cpu)})")
        whole = append_then(lambda: mem.index())
        timed(whole, args.runs)
        print(f"re-sync after one appended message: Memory.index() (Markdown scan too) {ms(whole.seconds)}")
        watched = append_then(lambda: mem.sync_sessions(min_bytes=DELTA_BYTES, min_lines=DELTA_LINES, wait=0))
        timed(watched, args.runs)
        print(f"one appended message under the watcher's thresholds (left pending): {ms(watched.seconds)} "
              f"(CPU {ms(watched.cpu)})")
        mem.sync_sessions()
        print(f"lexical recall --source sessions: {ms(recall_times(mem, 'sessions', args.runs * 2))}")
        print(f"lexical recall --source memory: {ms(recall_times(mem, 'memory', args.runs * 2))} with the "
              f"transcripts indexed, {ms(memory_only_before)} without")
        mem.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
