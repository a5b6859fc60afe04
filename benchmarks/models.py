"""The local embedding models side by side: quality, indexing, cold recall, peak memory.

    python benchmarks/models.py [--conversations 2] [--runs 10] [--models M1,M2,...] [--quality-dir DIR]

Every model is measured in this one run, on the same machine state, on the same workspace:
LoCoMo conversations (../shared/benchmarks/locomo/, see benchmarks/locomo.py), one daily log
per session under memory/<conversation>/. The model cache is a fresh temporary folder per model
(MEMORY_CACHE_DIR), never ~/.cache.

- first index: the first `memory index` of a 10-file workspace (the first 10 daily logs) with the
  model cache empty for that model, as a new user sees it: the model's once-per-machine preparation
  (MiniLM's ONNX export under torch, USE's pack, embed/use_pack.py) plus indexing the 10 files;
- encode: the model's own throughput on exactly the texts the index embeds (each entry alone
  and after the previous one), model loaded, in a fresh process per model;
- index: a fresh `memory index` process on a new copy of the workspace, the model cache ready
  (import, model load, parse, embed, HNSW);
- cold recall: `memory recall QUESTION --mode hybrid --json`, a fresh process each time, --runs
  different LoCoMo questions, the models taking turns (a change in the machine's load hits them
  alike), after one discarded run per model that writes the bytecode caches: PYTHONDONTWRITEBYTECODE
  is removed from the environment, as on a normal install where pip compiles the package.

Each child's CPU time (user + sys) and peak RSS come from /usr/bin/time (stats.measured); on a
shared, loaded machine the CPU time is the figure to compare, the wall time mostly measures the
other processes. The load average is printed at the start and the end.

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
from locomo import DATA, normalize_evidence, write_workspace
from stats import load, measured, pct

MODELS = ("all-MiniLM-L6-v2", "use-multilingual-v3", "all-MiniLM-L6-v2+use-multilingual-v3")
MEMORY_BIN = str(Path(sys.executable).parent / "memory")
NOW = "2023-12-31"
FIRST_FILES = 10
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


def model_env(model: str | None, cache: Path) -> dict[str, str]:
    """The environment of a `memory` process that embeds with `model` (None: lexical only)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"MEMORY_NOW": NOW, "MEMORY_EMBED_PROVIDER": "local" if model else "none",
            # one model cache per model, so that each model's first index starts from nothing
            "MEMORY_CACHE_DIR": str(cache / slug(model) if model else cache),
            # the bytecode cache goes to a temporary folder, not into the source tree
            "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "wm-models-pycache")}
    if model:
        env["MEMORY_EMBED_MODEL"] = model
    return env


def embedded_texts(root: Path, model: str) -> list[str]:
    """The exact texts `memory index` embeds for this workspace (read from a lexical-only index)."""
    from workspace_memory.api import Memory

    os.environ |= {"MEMORY_EMBED_PROVIDER": "local", "MEMORY_EMBED_MODEL": model}
    mem = Memory.open(str(root), NOW)
    try:
        embedder, _ = mem.embedder()
        missing = mem.store.writer().texts_without_vectors(embedder.provider, embedder.model, embedder.dim)
        return [text for _, text in missing]
    finally:
        mem.close()


def encode_rate(model: str, texts_file: Path, cache: Path) -> float:
    """Texts per second of the model's own embedding, loaded, in a fresh process (see `--encode`)."""
    out = subprocess.run([sys.executable, __file__, "--encode", model, str(texts_file)],
                         capture_output=True, text=True, check=True, env=model_env(model, cache))
    return float(out.stdout.split()[-1])


def _encode_main(model: str, texts_file: Path) -> None:
    """`--encode MODEL FILE`: load the model, warm it up, time embedding every text of FILE."""
    from workspace_memory.embed import EmbeddingConfig, prepare_embedder, resolve_embedder

    texts = json.loads(texts_file.read_text())
    cfg = EmbeddingConfig.from_mapping({"provider": "local", "model": model}, {})
    embedder, _ = resolve_embedder(cfg, Path(tempfile.mkdtemp()))
    prepare_embedder(embedder)
    embedder.embed_documents(texts[:64])  # load and warm up
    t0 = time.perf_counter()
    for start in range(0, len(texts), 256):  # the indexer's batches
        embedder.embed_documents(texts[start : start + 256])
    print(len(texts) / (time.perf_counter() - t0))


def quality(model: str, directory: Path) -> dict | None:
    """Hybrid LoCoMo figures from locomo.py's JSON for this model, if that file exists."""
    path = directory / f"locomo-{slug(model)}.json"
    return json.loads(path.read_text())["hybrid"]["all"] if path.is_file() else None


def index_cmd(root: Path) -> list[str]:
    return [MEMORY_BIN, "--workspace", str(root), "index", "--json"]


def main() -> None:
    parser = argparse.ArgumentParser(description="Local embedding models side by side")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--conversations", type=int, default=2)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--quality-dir", type=Path, default=OUT)
    parser.add_argument("--encode", nargs=2, metavar=("MODEL", "TEXTS_JSON"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.encode:
        return _encode_main(args.encode[0], Path(args.encode[1]))

    models = args.models.split(",")
    print(f"load average at start: {load()}", flush=True)
    samples = json.loads(args.data.read_text())[: args.conversations]
    tmp = Path(tempfile.mkdtemp(prefix="wm-models-"))
    cache = tmp / "model-cache"
    rows: dict[str, dict] = {}
    try:
        template = tmp / "template"
        questions = build_workspace(samples, template)
        wall, cpu, rss, _ = measured(index_cmd(template), model_env(None, cache))
        print(f"workspace: {args.conversations} LoCoMo conversations; lexical `memory index` "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU, {rss / 1024:.0f} MiB", flush=True)
        for model in models:
            env = model_env(model, cache)
            first = tmp / f"first-{slug(model)}"
            (first / "memory").mkdir(parents=True)
            for log in sorted((template / "memory").rglob("*.md"))[:FIRST_FILES]:
                shutil.copy(log, first / "memory" / log.name)
            once_wall, once_cpu, once_rss, _ = measured(index_cmd(first), env)
            texts = embedded_texts(template, model)
            texts_file = tmp / f"texts-{slug(model)}.json"
            texts_file.write_text(json.dumps(texts))
            rate = encode_rate(model, texts_file, cache)
            root = tmp / slug(model)
            shutil.copytree(template, root, ignore=shutil.ignore_patterns(".memory"))
            index_wall, index_cpu, index_rss, out = measured(index_cmd(root), env)
            assert not json.loads(out)["notices"], json.loads(out)["notices"]
            rows[model] = {"model": model, "texts": len(texts), "encode_per_s": rate, "once_s": once_wall,
                           "once_cpu": once_cpu, "once_rss": once_rss / 1024, "index_s": index_wall, "index_cpu": index_cpu,
                           "index_rss": index_rss / 1024, "walls": [], "cpus": [], "rss": [],
                           "quality": quality(model, args.quality_dir)}
            print(f"{model}: first index of {FIRST_FILES} files {once_wall:.1f} s ({once_cpu:.1f} s CPU, "
                  f"{once_rss / 1024:.0f} MiB); {len(texts)} texts, "
                  f"encode {rate:.0f}/s; index {index_wall:.1f} s ({index_cpu:.1f} s CPU, "
                  f"{index_rss / 1024:.0f} MiB)", flush=True)

        def recall(model: str, question: str) -> tuple[float, float, int]:
            cmd = [MEMORY_BIN, "--workspace", str(tmp / slug(model)), "recall", "--mode", "hybrid", "--json", question]
            wall, cpu, rss, out = measured(cmd, model_env(model, cache))
            answer = json.loads(out)
            assert answer["mode"] == "hybrid" and not answer["notices"], answer["notices"]
            return wall, cpu, rss

        for model in models:
            recall(model, questions[0])  # writes bytecode caches; not counted
        for question in questions[1 : args.runs + 1]:
            for model in models:  # taking turns: the load changes hit every model alike
                wall, cpu, rss = recall(model, question)
                rows[model]["walls"].append(wall)
                rows[model]["cpus"].append(cpu)
                rows[model]["rss"].append(rss / 1024)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average at end: {load()}")
    print_table(list(rows.values()), args.runs)


def print_table(rows: list[dict], runs: int) -> None:
    """The comparison as a Markdown table (the one in docs/embeddings.md)."""
    base = statistics.median(rows[0]["cpus"])
    print(f"\n| model | LoCoMo hybrid @2,000 chars (r@5 / r@10 / r@25) | first index of {FIRST_FILES} files, CPU (wall) | encode texts/s "
          f"| `memory index`, CPU (wall) | cold hybrid recall, CPU p50 (wall p50 / p95), {runs} runs "
          f"| peak RSS index / recall |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        q = r["quality"] or {}
        quality_cell = (f"{q['r@2000c']:.3f} ({q['r@5']:.3f} / {q['r@10']:.3f} / {q['r@25']:.3f})"
                        if q else "-")
        cpu = statistics.median(r["cpus"])
        print(f"| {r['model']} | {quality_cell} | {r['once_cpu']:.1f} s ({r['once_s']:.1f} s) | {r['encode_per_s']:.0f} "
              f"| {r['index_cpu']:.1f} s ({r['index_s']:.1f} s, {r['texts']} texts) "
              f"| {cpu:.2f} s, {cpu / base:.2f}x ({statistics.median(r['walls']):.2f} s / "
              f"{pct(r['walls'], 0.95):.2f} s) | {r['index_rss']:.0f} / {max(r['rss']):.0f} MiB |")


if __name__ == "__main__":
    main()
