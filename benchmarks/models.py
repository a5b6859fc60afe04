"""The local embedding models side by side: quality, index throughput, cold recall, peak memory.

    python benchmarks/models.py [--conversations 2] [--runs 15] [--models M1,M2,...] [--quality-dir DIR]

Every model is measured in this one run, on the same machine state, on the same workspace:
LoCoMo conversations (../shared/benchmarks/locomo/, see benchmarks/locomo.py), one daily log
per session under memory/<conversation>/.

- encode: the model's own throughput on exactly the texts the index embeds (each entry alone
  and after the previous one), model loaded, in a fresh process per model;
- index: a fresh `memory index` process on a new workspace (import, model load, parse, embed,
  HNSW, and for MiniLM the one-time ONNX export of its query encoder), wall and peak RSS
  (/usr/bin/time -v "Maximum resident set size");
- cold recall: `memory recall QUESTION --mode hybrid --json`, a fresh process each time, the
  median and p95 of --runs (different LoCoMo questions), after one discarded run that writes
  the bytecode caches: PYTHONDONTWRITEBYTECODE is removed from the environment, as on a normal
  install where pip compiles the package; peak RSS is the largest of the runs.

Quality comes from `benchmarks/locomo.py --model M --out DIR/locomo-<slug>.json` (it takes minutes
per model, so it is not re-run here): hybrid evidence recall at 2,000 characters and r@5/10/25.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from locomo import DATA, normalize_evidence, write_workspace  # noqa: E402
from stats import pct  # noqa: E402

MODELS = ("all-MiniLM-L6-v2", "use-multilingual-v3", "all-MiniLM-L6-v2+use-multilingual-v3")
MEMORY_BIN = str(Path(sys.executable).parent / "memory")
NOW = "2023-12-31"
OUT = Path(__file__).parent / "out"


def slug(model: str) -> str:
    """A file-name form of a model name."""
    return re.sub(r"[^A-Za-z0-9.-]+", "-", model).strip("-").lower()


def build_workspace(samples: list[dict], root: Path) -> list[str]:
    """One folder of daily logs per conversation; returns questions that have evidence, for recall."""
    questions = []
    for sample in samples:
        scratch = root.parent / f"scratch-{sample['sample_id']}"
        write_workspace(sample, scratch)
        shutil.move(str(scratch / "memory"), str(root / "memory" / sample["sample_id"]))
        shutil.rmtree(scratch)
        questions += [qa["question"] for qa in sample["qa"] if normalize_evidence(qa.get("evidence", []))]
    return questions


def measured(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Run `cmd` under /usr/bin/time -v: (wall seconds, peak RSS in MiB, stdout)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        t0 = time.perf_counter()
        out = subprocess.run(["/usr/bin/time", "-v", "-o", report.name, *cmd], env=env,
                             capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr.strip()[-500:]}")
        rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read())[1])
    return wall, rss_kb / 1024, out.stdout


def model_env(model: str | None) -> dict[str, str]:
    """The environment of a `memory` process that embeds with `model` (None: lexical only)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"MEMORY_NOW": NOW, "MEMORY_EMBED_PROVIDER": "local" if model else "none",
            # the bytecode cache goes to a temporary folder, not into the source tree
            "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "wm-models-pycache")}
    if model:
        env["MEMORY_EMBED_MODEL"] = model
    return env


def embedded_texts(root: Path, model: str) -> list[str]:
    """The exact texts `memory index` embeds for this workspace (read from a lexical-only index)."""
    from workspace_memory.api import Memory
    from workspace_memory.index.sqlite.vector_sync import missing_vectors

    os.environ |= {"MEMORY_EMBED_PROVIDER": "local", "MEMORY_EMBED_MODEL": model}
    mem = Memory.open(str(root), NOW)
    try:
        embedder, _ = mem.embedder()
        return [text for _, text in missing_vectors(mem.store.conn, embedder)]
    finally:
        mem.close()


def encode_rate(model: str, texts_file: Path) -> float:
    """Texts per second of the model's own embedding, loaded, in a fresh process (see `--encode`)."""
    out = subprocess.run([sys.executable, __file__, "--encode", model, str(texts_file)],
                         capture_output=True, text=True, check=True, env=model_env(model))
    return float(out.stdout.split()[-1])


def _encode_main(model: str, texts_file: Path) -> None:
    """`--encode MODEL FILE`: load the model, warm it up, time embedding every text of FILE."""
    from workspace_memory.embed import EmbeddingConfig, resolve_embedder

    texts = json.loads(texts_file.read_text())
    cfg = EmbeddingConfig.from_mapping({"provider": "local", "model": model}, {})
    embedder, _ = resolve_embedder(cfg, Path(tempfile.mkdtemp()))
    embedder.embed_documents(texts[:64])  # load and warm up
    t0 = time.perf_counter()
    for start in range(0, len(texts), 256):  # the indexer's batches
        embedder.embed_documents(texts[start : start + 256])
    print(len(texts) / (time.perf_counter() - t0))


def quality(model: str, directory: Path) -> dict | None:
    """Hybrid LoCoMo figures from locomo.py's JSON for this model, if that file exists."""
    path = directory / f"locomo-{slug(model)}.json"
    return json.loads(path.read_text())["hybrid"]["all"] if path.is_file() else None


def main() -> None:
    parser = argparse.ArgumentParser(description="Local embedding models side by side")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--conversations", type=int, default=2)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--quality-dir", type=Path, default=OUT)
    parser.add_argument("--encode", nargs=2, metavar=("MODEL", "TEXTS_JSON"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.encode:
        return _encode_main(args.encode[0], Path(args.encode[1]))

    samples = json.loads(args.data.read_text())[: args.conversations]
    tmp = Path(tempfile.mkdtemp(prefix="wm-models-"))
    rows = []
    try:
        template = tmp / "template"
        questions = build_workspace(samples, template)
        lexical_wall, lexical_rss, _ = measured([MEMORY_BIN, "--workspace", str(template), "index"],
                                                model_env(None))
        print(f"workspace: {args.conversations} LoCoMo conversations; lexical `memory index` "
              f"{lexical_wall:.1f} s, {lexical_rss:.0f} MiB", flush=True)
        for model in args.models.split(","):
            texts = embedded_texts(template, model)
            texts_file = tmp / f"texts-{slug(model)}.json"
            texts_file.write_text(json.dumps(texts))
            rate = encode_rate(model, texts_file)
            root = tmp / slug(model)
            shutil.copytree(template, root, ignore=shutil.ignore_patterns(".memory"))
            env = model_env(model)
            index_wall, index_rss, _ = measured([MEMORY_BIN, "--workspace", str(root), "index"], env)
            recall = [MEMORY_BIN, "--workspace", str(root), "recall", "--mode", "hybrid", "--json"]
            measured([*recall, questions[0]], env)  # writes bytecode caches; not counted
            walls, rss = [], []
            for question in questions[1 : args.runs + 1]:
                wall, peak, out = measured([*recall, question], env)
                answer = json.loads(out)
                assert answer["mode"] == "hybrid" and not answer["notices"], answer["notices"]
                walls.append(wall)
                rss.append(peak)
            rows.append({"model": model, "texts": len(texts), "encode_per_s": rate, "index_s": index_wall,
                         "index_rss": index_rss, "recall_p50": statistics.median(walls),
                         "recall_p95": pct(walls, 0.95), "recall_rss": max(rss),
                         "quality": quality(model, args.quality_dir)})
            r = rows[-1]
            print(f"{model}: {len(texts)} texts, encode {rate:.0f}/s; index {index_wall:.1f} s "
                  f"({index_rss:.0f} MiB); cold recall p50 {r['recall_p50']:.2f} s, "
                  f"p95 {r['recall_p95']:.2f} s ({r['recall_rss']:.0f} MiB)", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print_table(rows, args.runs)


def print_table(rows: list[dict], runs: int) -> None:
    """The comparison as a Markdown table (the one in docs/notes/models.md)."""
    print(f"\n| model | LoCoMo hybrid @2,000 chars | r@5 | r@10 | r@25 | encode texts/s | first `memory index` "
          f"| cold hybrid recall p50 / p95 ({runs} runs) | peak RSS index / recall |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        q = r["quality"] or {}
        cells = [f"{q[m]:.3f}" if m in q else "-" for m in ("r@2000c", "r@5", "r@10", "r@25")]
        print(f"| {r['model']} | " + " | ".join(cells) + f" | {r['encode_per_s']:.0f} | {r['index_s']:.1f} s "
              f"({r['texts']} texts) | {r['recall_p50']:.2f} s / {r['recall_p95']:.2f} s "
              f"| {r['index_rss']:.0f} / {r['recall_rss']:.0f} MiB |")


if __name__ == "__main__":
    main()
