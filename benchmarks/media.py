"""Media as memory (issue 41): are photos, screenshots, receipts, slides, PDFs and voice notes found by
their text among a person's daily notes, and what does reading them cost?

    .venv/bin/python benchmarks/media.py [--modes hybrid,lexical] [--workdir DIR] [--verbose]
    .venv/bin/python benchmarks/media.py --folder 1000 [--workdir DIR]   # indexing speed and memory

The workspace: 45 days of generated daily notes (benchmarks/workspace_gen.py, ending 2026-12-05,
whose topics include invoices, database migrations, flaky tests and deploys) and the 31 media files
of benchmarks/media_gen.py (photos of whiteboards with EXIF times, three stored sideways or upside
down; terminal error screenshots; photographed receipts; slides in German, French, Spanish, Italian,
Portuguese and English; PDFs with text, scanned pages and both; voice notes with .vtt/.srt/.txt
transcripts). The 32 questions in benchmarks/media_questions.jsonl were written with the files,
before the engine read any media; a question is answered at 3 when its file is among the first 3
results. `memory index` runs as a child process, so its CPU time and the peak RSS of the largest
process (the extraction worker) are measured with getrusage.

With `--folder N`: a workspace of only N photos of text (800×600 JPEGs, EXIF times, four
orientations), indexed once: CPU time, wall time, peak RSS and the progress lines. The issue's bar:
1,000 photos in under 20 minutes with a peak RSS under 1 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
NOW = "2026-12-06T12:00"


def build(root: Path) -> list[str]:
    import media_gen
    import workspace_gen

    workspace_gen.generate(root, 45, 20, end=date(2026, 12, 5))
    made = media_gen.make(root)
    (root / "memory.toml").write_text("[media]\nenabled = true\n", encoding="utf-8")
    return made


def index(root: Path, env: dict[str, str] | None = None) -> dict[str, float | str]:
    """`memory index` in a child process: wall and CPU seconds, the largest process's peak RSS, stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", "from workspace_memory.cli import main; main()",
                           "--workspace", str(root), "--now", NOW, "index"], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"memory index failed: {proc.stderr}")
    return {"wall_s": round(wall, 1), "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
            "peak_rss_mb": round(after.ru_maxrss / 1024), "stderr": proc.stderr}


def ask(root: Path, modes: list[str], verbose: bool) -> dict[str, dict]:
    from workspace_memory.api import Memory
    from workspace_memory.recall.query import RecallRequest

    questions = [json.loads(line) for line in (HERE / "media_questions.jsonl").read_text().splitlines() if line]
    mem = Memory.open(str(root), now=NOW)
    out = {}
    for mode in modes:
        hits: dict[str, list[int]] = defaultdict(list)
        for q in questions:
            paths = [r["path"] for r in mem.recall(RecallRequest(query=q["question"], k=3, mode=mode))["results"]]
            hit = int(q["expect"] in paths[:3])
            hits[q["kind"]].append(hit)
            hits["all"].append(hit)
            if verbose and not hit:
                print(f"  miss [{mode}] {q['question']!r}: expected {q['expect']}, got {paths}")
        out[mode] = {kind: f"{sum(v)}/{len(v)} = {sum(v) / len(v):.3f}" for kind, v in hits.items()}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--modes", default="hybrid,lexical")
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--folder", type=int, default=0, help="time indexing this many photos instead")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="media-bench-"))
    root = work / "ws"
    if args.folder:
        import media_gen

        (root / "memory").mkdir(parents=True, exist_ok=True)
        (root / "memory.toml").write_text("[media]\nenabled = true\n", encoding="utf-8")
        started = time.perf_counter()
        media_gen.folder(root, args.folder)
        print(f"made {args.folder} photos in {time.perf_counter() - started:.0f} s")
        run = index(root, {"MEMORY_EMBED_PROVIDER": "none"})  # the extraction alone, not the embedding model
        progress = [line for line in str(run.pop("stderr")).splitlines() if "media" in line]
        print(json.dumps(run), *progress[-3:], sep="\n")
        print(f"per photo: {float(run['cpu_s']) / args.folder:.2f} s CPU, {float(run['wall_s']) / args.folder:.2f} s wall")
        return
    made = build(root)
    run = index(root)
    notice = next((line for line in str(run.pop("stderr")).splitlines() if "media: read" in line), "")
    print(f"{len(made)} media files among {len(list((root / 'memory').glob('*.md')))} daily notes; index: "
          f"{json.dumps(run)}\n{notice}")
    for mode, rates in ask(root, args.modes.split(","), args.verbose).items():
        print(f"hit@3 {mode}: {rates}")


if __name__ == "__main__":
    main()
