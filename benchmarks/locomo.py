"""Evidence recall on LoCoMo (data no one here wrote), lexical and hybrid.

    python benchmarks/locomo.py [--modes lexical,hybrid] [--conversations 10] [--out benchmarks/out/locomo.json]
                                [--model all-MiniLM-L6-v2|use-multilingual-v3|...] [--workdir DIR]
                                [--store-url postgresql://...] [--constants embed.use.FAST_AFTER=0]

Reads ../shared/benchmarks/locomo/locomo10.json (see its README; the data is not copied
into the project). Each conversation becomes one workspace: one daily log per session
(memory/YYYY-MM-DD.md, as an agent would keep it), each turn one bullet line. Every
scorable question is asked in its own conversation's workspace with "now" set to the day
after the last session. A turn is found when its line lies inside a returned result's
[start_line, end_line] in the same file. Per question, recall = found / evidence turns.

Reported per category and overall: recall@5, @10, @25, and recall at a budget of
2,000 characters of returned text (results taken in rank order while the text of the
lines they cover stays within the budget).

With --store-url the indexes live in that Postgres (one workspace per conversation, named
locomo-<sample id>) instead of SQLite: the same questions, to compare the two stores.

Nothing here is special-cased in the engine: the workspace is plain Markdown and the
queries go through the public library API, exactly as `memory recall` runs them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import patch_constants
from workspace_memory.api import Memory
from workspace_memory.recall.query import RecallRequest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "benchmarks" / "locomo" / "locomo10.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
KS = (5, 10, 25)
BUDGET_CHARS = 2000
FETCH_K = 60


def parse_session_time(raw: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> datetime."""
    return datetime.strptime(raw.replace(" ", " ").strip(), "%I:%M %p on %d %B, %Y")


def normalize_evidence(raw: list[str]) -> list[str]:
    """Fix the data set's quirks: 'D8:6; D9:17', 'D:11:26', 'D30:05'."""
    out = []
    for item in raw:
        for part in re.split(r"[;\s]+", item):
            match = re.fullmatch(r"D:?(\d+):(\d+)", part.strip())
            if match:
                out.append(f"D{int(match[1])}:{int(match[2])}")
    return out


def turn_line(turn: dict) -> list[str]:
    """A turn as one log line: "- Speaker: text [shares an image: caption]"."""
    text = " ".join(turn["text"].split())
    if turn.get("blip_caption"):
        text += f" [shares an image: {turn['blip_caption']}]"
    return [f"- {turn['speaker']}: {text}"]


def write_logs(sample: dict, root: Path, lines_of: Callable[[dict], list[str]] = turn_line,
               ) -> tuple[dict[str, list[tuple[str, int]]], dict[str, list[str]], datetime]:
    """One daily log per session, each turn written as `lines_of(turn)`; returns dia_id -> its
    (path, line)s, path -> lines, and the last session time."""
    conv = sample["conversation"]
    (root / "memory").mkdir(parents=True, exist_ok=True)
    where: dict[str, list[tuple[str, int]]] = {}
    files: dict[str, list[str]] = {}
    last = None
    n = 1
    while f"session_{n}_date_time" in conv:
        turns = conv.get(f"session_{n}") or []
        if turns:
            when = parse_session_time(conv[f"session_{n}_date_time"])
            last = max(last, when) if last else when
            key = f"memory/{when.date().isoformat()}.md"
            lines = [f"# {when.date().isoformat()}", "", f"## Conversation at {when:%H:%M}", ""]
            for turn in turns:
                for line in lines_of(turn):
                    lines.append(line)
                    where.setdefault(turn["dia_id"], []).append((key, len(lines)))
            (root / key).write_text("\n".join(lines) + "\n", encoding="utf-8")
            files[key] = lines
        n += 1
    return where, files, last


def write_workspace(sample: dict, root: Path) -> tuple[dict[str, tuple[str, int]], dict[str, list[str]], datetime]:
    """One daily log per session, a line per turn; returns dia_id -> (path, line), path -> lines, and the last session time."""
    where, files, last = write_logs(sample, root)
    return {dia: places[0] for dia, places in where.items()}, files, last


def score_question(results: list[dict], evidence: list[tuple[str, int]], files: dict[str, list[str]]) -> dict:
    """Recall at each k and at the character budget for one question."""
    def found(upto: list[dict]) -> float:
        hit = sum(
            any(r["path"] == path and r["start_line"] <= line <= r["end_line"] for r in upto)
            for path, line in evidence
        )
        return hit / len(evidence)

    out = {f"r@{k}": found(results[:k]) for k in KS}
    out[f"r@{BUDGET_CHARS}c"] = found(within_budget(results, files, BUDGET_CHARS))
    return out


def within_budget(results: list[dict], files: dict[str, list[str]], budget: int,
                  start: str = "start_line", end: str = "end_line") -> list[dict]:
    """The results, in rank order, while the text of the lines they cover stays within `budget`
    characters (`start`/`end`: the keys of a result's lines; memory-core's shape says startLine)."""
    used, within = 0, []
    for r in results:
        lines = files.get(r["path"], [])
        cost = sum(len(lines[i - 1]) for i in range(r[start], r[end] + 1) if 0 < i <= len(lines))
        if used + cost > budget:
            break
        used += cost
        within.append(r)
    return within


@dataclass
class Conversation:
    """One conversation's indexed workspace, open, with its scorable questions."""

    mem: Memory
    files: dict[str, list[str]]
    questions: list[tuple[str, str, list[tuple[str, int]]]]  # (question, category, evidence lines)


def prepare(samples: list[dict], tmp: Path, store_url: str | None = None) -> tuple[list[Conversation], float]:
    """Write and index every conversation's workspace; returns them open, and the seconds indexing took."""
    conversations, index_s = [], 0.0
    for sample in samples:
        root = tmp / sample["sample_id"]
        where, files, last = write_workspace(sample, root)
        if store_url:
            os.environ["MEMORY_STORE_URL"] = store_url
            os.environ["MEMORY_STORE_WORKSPACE"] = f"locomo-{sample['sample_id']}"
        now = (last + timedelta(days=1)).date().isoformat()
        mem = Memory.open(str(root), now)
        t0 = time.perf_counter()
        mem.index()
        index_s += time.perf_counter() - t0
        questions = []
        for qa in sample["qa"]:
            evidence = [where[d] for d in normalize_evidence(qa.get("evidence", [])) if d in where]
            if evidence:
                questions.append((qa["question"], CATEGORIES[qa["category"]], evidence))
        conversations.append(Conversation(mem, files, questions))
    return conversations, index_s


def evaluate(conversations: list[Conversation], mode: str) -> tuple[dict, list[float]]:
    """Ask every question through `Memory.recall`; returns the table per category and query milliseconds."""
    per_cat: dict[str, list[dict]] = defaultdict(list)
    query_ms = []
    for conv in conversations:
        for question, category, evidence in conv.questions:
            t0 = time.perf_counter()
            result = conv.mem.recall(RecallRequest(question, k=FETCH_K, mode=mode))
            query_ms.append((time.perf_counter() - t0) * 1000)
            scores = score_question(result["results"], evidence, conv.files)
            per_cat[category].append(scores)
            per_cat["all"].append(scores)
    table = {cat: {m: round(statistics.mean(s[m] for s in rows), 3) for m in rows[0]} | {"n": len(rows)}
             for cat, rows in per_cat.items()}
    return table, query_ms


def use_model(model: str | None) -> None:
    """Make every Memory opened from now on embed with the local `model` (None: what the settings say)."""
    if model:
        # The library reads these like `memory` does; one workdir can hold every model's vectors
        # (the cache is keyed by model, the HNSW file by the embedder's identity).
        os.environ["MEMORY_EMBED_PROVIDER"] = "local"
        os.environ["MEMORY_EMBED_MODEL"] = model


def print_table(table: dict) -> None:
    """Recall per category, one row each, `all` last."""
    print(f"{'category':<12} {'n':>5} " + " ".join(f"{m:>8}" for m in table["all"] if m != "n"))
    for cat in ["multi-hop", "temporal", "open-domain", "single-hop", "adversarial", "all"]:
        if cat in table:
            row = table[cat]
            print(f"{cat:<12} {row['n']:>5} " + " ".join(f"{row[m]:>8.3f}" for m in row if m != "n"))


def main() -> None:
    parser = argparse.ArgumentParser(description="LoCoMo evidence recall")
    parser.add_argument("--modes", default="lexical,hybrid")
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--store-url", default=None, help="index into this Postgres instead of SQLite")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the workspaces here and reuse their indexes (embeddings are cached)")
    parser.add_argument("--model", default=None,
                        help="local embedding model (provider local); default: what the settings choose")
    parser.add_argument("--constants", default="",
                        help="patch constants: topic.ENABLED=0 (recall), embed.use.FAST_AFTER=0 (a dotted module)")
    args = parser.parse_args()
    patch_constants(args.constants)
    use_model(args.model)
    samples = json.loads(args.data.read_text())[: args.conversations]
    tmp = args.workdir or Path(tempfile.mkdtemp(prefix="wm-locomo-"))
    report = {}
    try:
        conversations, index_s = prepare(samples, tmp, args.store_url)
        print(f"index ({args.model or 'configured model'}): {index_s:.1f} s")
        for mode in args.modes.split(","):
            table, q = evaluate(conversations, mode)
            report[mode] = table
            print(f"\n{mode}: query p50 {statistics.median(q):.1f} ms ({len(q)} questions)")
            print_table(table)
        for conv in conversations:
            conv.mem.close()
    finally:
        if args.workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"model": args.model, "index_s": round(index_s, 1)} | report, indent=2))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
