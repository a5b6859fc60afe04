"""Row "transcript" of benchmarks/big.py: `memory index` of one long OpenClaw session transcript
(issue 27: a 100k-line transcript <= 90 s, peak RSS <= 400 MB), the default embedding model.

The transcript is benchmarks/sessions.py's kind (user and assistant messages with thinking blocks,
tool calls and tool results), `--transcript-lines` lines in one JSONL file (100,000: about 83 MB,
74,900 messages with text), next to a 3-day workspace whose memory.toml points `[sessions] paths`
at it. Each run indexes a fresh copy of the workspace (no `.memory/`) in a process of its own:
the Markdown, then the transcript, then the vectors of every entry (two a message: alone and
after the message before it), then the HNSW file.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from big import dir_mib
from sessions import line
from stats import measured
from workspace_gen import entities, generate

ROW = "transcript"
TARGET = "a 100k-line transcript: index <= 90 s, peak RSS <= 400 MB"
MEMORY = str(Path(sys.executable).parent / "memory")


def add_arguments(parser) -> None:
    parser.add_argument("--transcript-lines", type=int, default=100_000, help="lines of the one transcript")


def write_transcript(path: Path, lines: int, seed: int = 5) -> None:
    """One session of `lines` JSONL lines: a session header, then messages a few seconds apart."""
    rng = random.Random(seed)
    ents = entities(50)
    at = datetime(2025, 6, 1, 8, tzinfo=UTC)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "session", "version": 3, "id": "big",
                             "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.000Z")}) + "\n")
        for _ in range(lines - 1):
            at += timedelta(seconds=rng.randint(5, 120))
            kind = rng.choice(["user", "assistant", "assistant", "toolResult"])
            fh.write(json.dumps(line(kind, rng, ents, at), ensure_ascii=False) + "\n")


def prepare(workdir: Path, args) -> Path:
    root = workdir / f"lines-{args.transcript_lines}"
    if not (root / "sessions" / "big.jsonl").exists():
        shutil.rmtree(root, ignore_errors=True)
        (root / "sessions").mkdir(parents=True)
        generate(root / "ws", 3, 10)
        write_transcript(root / "sessions" / "big.jsonl", args.transcript_lines)
        (root / "ws" / "memory.toml").write_text(f'[sessions]\npaths = ["{root / "sessions"}"]\n', encoding="utf-8")
    return root


def run(input_dir: Path, env: dict, args) -> dict:
    ws = input_dir / "run"
    shutil.rmtree(ws, ignore_errors=True)
    shutil.copytree(input_dir / "ws", ws, ignore=shutil.ignore_patterns(".memory"))
    try:
        wall, cpu, rss, out = measured([MEMORY, "--workspace", str(ws), "index"], env)
        size = dir_mib(ws / ".memory")
    finally:
        shutil.rmtree(ws, ignore_errors=True)
    if "sessions: 1 of 1 transcript(s) read" not in out:
        raise SystemExit(f"the transcript was not read: {out[-500:]}")
    return {"wall_s": wall, "cpu_s": cpu, "rss_mib": rss / 1024, "memory_mib": size}
