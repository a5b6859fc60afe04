"""Precision and recall of supersession and of stance on the pair sets of issue 38.

    .venv/bin/python benchmarks/change_pairs.py [--part fit|report|all] [--verbose]

- `tests/data/supersession_pairs.jsonl`: 80 pairs of world facts about one entity in en/de/es/fr/zh,
  40 where the newer replaces the older (a move, a new job, a relationship, a role, a project's
  status, a moved date) and 40 where it does not ("Lives in Graz" / "Visited Vienna").
  Label `supersedes` is the positive class. Targets: precision >= 0.95, recall >= 0.85.
- `tests/data/stance_pairs_change.jsonl`: 50 opinion pairs in en/de/es/fr/zh, with evaluative
  words no lexicon holds ("realistic" / "too optimistic", "sloppy" / "thorough").
  `contradiction` is the positive class. Targets: precision >= 0.95, recall >= 0.85.
- `tests/data/stance_pairs.jsonl` + `stance_pairs_heldout.jsonl`: the 76 pairs of issue 25.
  Targets: precision 1.00, recall >= 0.96.

Each set is split in two parts (`fit`, `report`): constants are chosen on `fit`, figures reported on `report`.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from workspace_memory.facts.model import Fact
from workspace_memory.facts.stance import stance
from workspace_memory.facts.supersession import superseded_ids
from workspace_memory.markdown.names import display_name

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def supersedes(pair: dict) -> bool:
    """Run facts.supersession on the pair as two world facts written a week apart."""
    key = pair["entity"].lower()
    name = display_name(pair["entity"])
    old = Fact(1, "memory/2025-11-03.md", 4, "world", f"{name}: {pair['older']}", None, date(2025, 11, 3), (key,))
    new = Fact(2, "memory/2025-11-10.md", 4, "world", f"{name}: {pair['newer']}", None, date(2025, 11, 10), (key,))
    return superseded_ids([old, new]).get(1) == 2


def contradicts(pair: dict) -> bool:
    names = (pair["entity"],) if "entity" in pair else ()
    return stance(pair["opinion"], pair["statement"], names).label == "contradiction"


def score(pairs: list[dict], predict, positive: str, verbose: bool) -> tuple[int, int, int, int]:
    tp = fp = fn = 0
    for pair in pairs:
        guess, truth = predict(pair), pair["label"] == positive
        tp += guess and truth
        fp += guess and not truth
        fn += truth and not guess
        if verbose and guess != truth:
            print(f"    {'FP' if guess else 'FN'} {pair.get('lang', 'en')}: {pair.get('older', pair.get('opinion'))!r} "
                  f"-> {pair.get('newer', pair.get('statement'))!r}")
    return tp, fp, fn, len(pairs)


def line(label: str, tp: int, fp: int, fn: int, n: int) -> str:
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return f"{label:34} n={n:3}  precision {precision:.2f}  recall {recall:.2f}  (tp {tp}, fp {fp}, fn {fn})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", default="all", choices=("fit", "report", "all"))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    def part(pairs: list[dict]) -> list[dict]:
        return pairs if args.part == "all" else [p for p in pairs if p.get("part", "report") == args.part]

    print(line(f"supersession ({args.part})", *score(part(load("supersession_pairs.jsonl")), supersedes,
                                                      "supersedes", args.verbose)))
    print(line(f"stance, new pairs ({args.part})", *score(part(load("stance_pairs_change.jsonl")), contradicts,
                                                         "contradiction", args.verbose)))
    old = load("stance_pairs.jsonl") + load("stance_pairs_heldout.jsonl")
    print(line("stance, the 76 pairs of issue 25", *score(old, contradicts, "contradiction", args.verbose)))


if __name__ == "__main__":
    main()
