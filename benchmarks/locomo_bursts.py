"""LoCoMo as a messaging app would log it: each turn sent as a burst of short messages.

    python benchmarks/locomo_bursts.py --workdir DIR [--model use-multilingual-v3] [--modes lexical,hybrid]

LoCoMo's turns are whole paragraphs ("- Caroline: I went to a support group yesterday. It was so
powerful. ..."). People on a phone send the same thing as several messages, one line each, and a
chat export keeps them apart. This writes every conversation that way (one line per sentence of a
turn, the shared image as a line of its own, each line "- Speaker: text") and asks LoCoMo's
questions again. An evidence turn counts as found when any of its lines is within the 2,000
characters (the first `locomo.py` measure, with the lines a result covers costed the same way), so
the figure says whether the engine finds the right turn when it comes in pieces. Compare it with
`locomo.py`'s hybrid figure on the same model; the difference is what message granularity costs.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import (
    BUDGET_CHARS,
    CATEGORIES,
    DATA,
    normalize_evidence,
    use_model,
    within_budget,
    write_logs,
)
from stats import patch_constants
from workspace_memory.api import Memory
from workspace_memory.recall.query import RecallRequest

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'A-Z0-9])")


def messages(text: str, caption: str | None) -> list[str]:
    """A turn as the messages a phone would send: its sentences, then the image it shares."""
    parts = [p for p in SENTENCE_END.split(" ".join(text.split())) if p]
    if caption:
        parts.append(f"[shares an image: {caption}]")
    return parts or [text]


def burst_lines(turn: dict) -> list[str]:
    """A turn as one line per message, each "- Speaker: message"."""
    return [f"- {turn['speaker']}: {m}" for m in messages(turn["text"], turn.get("blip_caption"))]


def write_bursts(sample: dict, root: Path) -> tuple[dict[str, list[tuple[str, int]]], dict[str, list[str]], datetime]:
    """One daily log per session, a line per message; returns dia_id -> its lines, path -> lines, the last time."""
    return write_logs(sample, root, burst_lines)


def turn_found(results: list[dict], turn: list[tuple[str, int]]) -> bool:
    return any(r["path"] == path and r["start_line"] <= line <= r["end_line"] for r in results for path, line in turn)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", type=Path, required=True, help="keep the workspaces here and reuse their indexes")
    parser.add_argument("--model", default="use-multilingual-v3")
    parser.add_argument("--modes", default="lexical,hybrid")
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--constants", default="", help="patch constants: topic.ENABLED=0, ...")
    args = parser.parse_args()
    patch_constants(args.constants)
    use_model(args.model)
    samples = json.loads(DATA.read_text())[: args.conversations]
    prepared = []
    for sample in samples:
        root = args.workdir / sample["sample_id"]
        where, files, last = write_bursts(sample, root)
        mem = Memory.open(str(root), (last + timedelta(days=1)).date().isoformat())
        mem.index()
        questions = [(qa["question"], CATEGORIES[qa["category"]],
                      [where[d] for d in normalize_evidence(qa.get("evidence", [])) if d in where])
                     for qa in sample["qa"]]
        prepared.append((mem, files, [q for q in questions if q[2]]))
    print(f"{sum(len(f) for _, f, _ in prepared)} daily logs, "
          f"{sum(len(lines) for _, f, _ in prepared for lines in f.values())} lines")
    for mode in args.modes.split(","):
        per: dict[str, list[float]] = defaultdict(list)
        for index, (mem, files, questions) in enumerate(prepared):
            for question, category, turns in questions:
                results = mem.recall(RecallRequest(question, k=60, mode=mode))["results"]
                budgeted = within_budget(results, files, BUDGET_CHARS)
                found = sum(turn_found(budgeted, t) for t in turns) / len(turns)
                for key in (category, "all", "AB"[index % 2]):
                    per[key].append(found)
        print(f"\n{mode}: evidence turns found within {BUDGET_CHARS:,} characters")
        for key in ["multi-hop", "temporal", "open-domain", "single-hop", "adversarial", "all", "A", "B"]:
            if key in per:
                print(f"{key:<12} {len(per[key]):>5} {statistics.mean(per[key]):>7.3f}")
    for mem, _, _ in prepared:
        mem.close()


if __name__ == "__main__":
    main()
