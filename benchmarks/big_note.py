"""Issue 27, one big note: `memory index` of a note of 12-word bullets, then a cold hybrid recall.

    python benchmarks/big.py --workdir DIR --only note [--note-mb 50] [--src BASE/src --src NEW/src]

The note (`memory/big-note.md` in the workspace) is made once per size under `DIR/note/<size>mb/` and reused: sections
under `## headings`, 40 bullets each, every bullet 12 words drawn from a fixed vocabulary by a
seeded generator (deterministic: the same size gives the same bytes). Each run copies it into a
fresh workspace (`memory init`), then measures in child processes (stats.measured: wall, CPU =
user + sys, peak RSS) `memory index --json` with the default embeddings, the size of `.memory/`
and its ratio to the note, and a cold hybrid `memory recall --mode hybrid` of a phrase of one
bullet (a new process: the model, the HNSW graph and SQLite are read from disk).
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

from stats import measured

ROW = "note"
TARGET = "50 MB note: index <= 300 s and <= 800 MB; .memory <= 15x the note; cold hybrid recall <= 1 s, <= 400 MB"

WORDS_PER_BULLET = 12
BULLETS_PER_SECTION = 40
SEED = 27
_SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "vo", "pe", "da", "gu", "shi", "ber", "mon", "tal", "rin"]
_COMMON = ("the a of to and in for with on at from by about after before meeting project review call "
           "budget plan team client report design launch travel dinner doctor garden book train").split()


def add_arguments(parser) -> None:
    parser.add_argument("--note-mb", type=float, default=50.0, help="note row: the note's size in MB (2**20 bytes)")


def vocabulary(rng: random.Random, size: int = 6000) -> list[str]:
    """Made-up words of 2-4 syllables, plus common ones (so bullets share words as prose does)."""
    words = {"".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(size)}
    return sorted(words) + _COMMON * 20


def write_note(path: Path, megabytes: float) -> str:
    """Write the note (about `megabytes` MB) and return a query: six words of a bullet near the middle."""
    rng = random.Random(SEED)
    vocab = vocabulary(rng)
    limit = int(megabytes * 2**20)
    written, section, query = 0, 0, ""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        fh.write("# Big note\n\n")
        while written < limit:
            section += 1
            lines = [f"\n## Section {section}: {' '.join(rng.choices(vocab[:-len(_COMMON) * 20], k=2))}\n\n"]
            for _ in range(BULLETS_PER_SECTION):
                words = rng.choices(vocab, k=WORDS_PER_BULLET)
                lines.append("- " + " ".join(words) + "\n")
            block = "".join(lines)
            if not query and written + len(block) >= limit // 2:
                query = " ".join(lines[len(lines) // 2][2:].split()[:6])
            fh.write(block)
            written += len(block)
    return query


def prepare(workdir: Path, args) -> Path:
    """The note for `--note-mb` (made once, then reused) and its query, under workdir/<size>mb/."""
    folder = workdir / f"{args.note_mb:g}mb"
    note = folder / "big.md"
    query_file = folder / "query.txt"
    if not note.exists() or not query_file.exists():
        query_file.parent.mkdir(parents=True, exist_ok=True)
        query_file.write_text(write_note(note, args.note_mb))
    return folder


def run(input_dir: Path, env: dict, args) -> dict:
    """Index a fresh workspace holding the note, then one cold hybrid recall; the figures."""
    ws = input_dir / "ws"
    shutil.rmtree(ws, ignore_errors=True)
    cli = [sys.executable, "-c", "from workspace_memory.cli import main; main()", "--workspace", str(ws)]
    measured([*cli, "init"], env)
    note = ws / "memory" / "big-note.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(input_dir / "big.md", note)
    wall, cpu, rss, out = measured([*cli, "index", "--json"], env)
    report = json.loads(out)
    state = ws / ".memory"
    memory_bytes = sum(p.stat().st_size for p in state.rglob("*") if p.is_file())
    note_bytes = note.stat().st_size
    query = (input_dir / "query.txt").read_text()
    r_wall, r_cpu, r_rss, r_out = measured([*cli, "recall", query, "--mode", "hybrid", "--json"], env)
    results = json.loads(r_out).get("results", [])
    figures = {
        "wall_s": wall, "cpu_s": cpu, "rss_mib": rss / 1024,
        "memory_mib": memory_bytes / 2**20, "memory_ratio": memory_bytes / note_bytes,
        "recall_wall_s": r_wall, "recall_cpu_s": r_cpu, "recall_rss_mib": r_rss / 1024,
        "recall_hits": float(len(results)),
    }
    from index_size import breakdown, per_entry  # benchmarks/ is on the path when big.py runs

    figures |= per_entry(breakdown(state / "index.sqlite"))
    for key in ("embedded", "cache_hits"):
        if isinstance(report.get(key), (int, float)):
            figures[key] = float(report[key])
    print(f"  note {note_bytes / 2**20:.1f} MiB: {json.dumps({k: round(v, 3) for k, v in figures.items()})}",
          flush=True)
    return figures
