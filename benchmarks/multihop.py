"""A multi-hop set of our own: answers told on two days, the second time in other words.

    .venv/bin/python benchmarks/multihop.py [--modes lexical,hybrid] [--constants topic.ENABLED=0]

Two people chat over eight days in a messaging log (one daily note per day, "- Name: text" a
line, with small talk and lines that share the questions' words). Each question asks about both
("What do Ana and Tom do to relax after work?"); its evidence is one turn of each, on different
days, and the second never repeats the first one's words ("Yoga in the evening is what helps me
unwind" / "I just go for a long run after work, clears my head"). Reported: evidence recall at 5
and 10 results (the share of evidence turns found), the measure LoCoMo's multi-hop category uses.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from stats import patch_constants
from workspace_memory.api import Memory
from workspace_memory.recall.query import RecallRequest

NOW = "2025-10-09T20:00"
DAYS = ["2025-10-01", "2025-10-02", "2025-10-03", "2025-10-04", "2025-10-05", "2025-10-06", "2025-10-07",
        "2025-10-08"]
# (question, (day index, speaker, turn), (day index, speaker, turn))
PAIRS = [
    ("What do Ana and Tom do to relax after work?", (0, "Ana", "Yoga in the evening is what helps me unwind."),
     (3, "Tom", "I just go for a long run after work, clears my head.")),
    ("What pets do Ana and Tom have?", (1, "Ana", "Our cat Miso knocked over the basil plant again."),
     (5, "Tom", "Biscuit, my beagle, chewed through another phone charger.")),
    ("What did Ana and Tom cook?", (0, "Ana", "Made ramen from scratch last night, the broth took eight hours."),
     (4, "Tom", "Finally nailed my grandma's pierogi recipe.")),
    ("Where are Ana and Tom travelling?", (2, "Ana", "Booked the flights to Lisbon for the end of October."),
     (6, "Tom", "We're driving up to the Scottish Highlands next month.")),
    ("What did Ana and Tom release at work?", (1, "Ana", "My team shipped the new checkout flow today."),
     (5, "Tom", "We finally pushed the mobile app update to the store.")),
    ("What are Ana and Tom reading?", (3, "Ana", "I'm halfway through Piranesi, it's so strange."),
     (7, "Tom", "Started a thick Dune paperback on the train this morning.")),
    ("What injuries did Ana and Tom have?", (2, "Ana", "Twisted my ankle at the climbing gym."),
     (6, "Tom", "My knee is acting up again after Sunday football.")),
    ("Which concerts are Ana and Tom going to?", (4, "Ana", "Got two tickets to see Phoebe Bridgers live."),
     (7, "Tom", "The Arctic Monkeys gig in Manchester is sold out, but I'm in!")),
    ("What new skills are Ana and Tom learning?", (0, "Ana", "Started Spanish lessons on Tuesday nights."),
     (4, "Tom", "Practising chords on my guitar every evening now.")),
    ("What did Ana and Tom fix up at home?", (5, "Ana", "We painted the living room sage green."),
     (1, "Tom", "Put up new shelves in the hallway with my dad.")),
]
SMALL_TALK = [
    ("Ana", "Morning! How did you sleep?"), ("Tom", "Not bad, a bit tired after work though."),
    ("Ana", "Did you see the weather for the weekend?"), ("Tom", "Rain again, typical."),
    ("Ana", "Haha, true. Talk later?"), ("Tom", "Sure, going to relax a bit now."),
    ("Ana", "Work was long today, lots of meetings."), ("Tom", "Same here, I need a holiday."),
    ("Ana", "What are you up to tonight?"), ("Tom", "Nothing much, maybe cook something."),
]


def build(root: Path) -> dict[str, list[tuple[str, int]]]:
    """Write the log; return each question's evidence as (path, line)."""
    days: dict[int, list[tuple[str, str]]] = {i: [] for i in range(len(DAYS))}
    for n, (_, first, second) in enumerate(PAIRS):
        for day, speaker, text in (first, second):
            days[day].append((speaker, text))
        days[(n * 3) % len(DAYS)].append(SMALL_TALK[n % len(SMALL_TALK)])
    evidence: dict[str, list[tuple[str, int]]] = {q: [] for q, _, _ in PAIRS}
    for index, day in enumerate(DAYS):
        lines = [f"# {day}", "", "## Chat"]
        turns = SMALL_TALK[index % 5 * 2: index % 5 * 2 + 2] + days[index] + SMALL_TALK[(index + 3) % 10:][:2]
        for speaker, text in turns:
            lines.append(f"- {speaker}: {text}")
            for question, first, second in PAIRS:
                if (index, speaker, text) in (first, second):
                    evidence[question].append((f"memory/{day}.md", len(lines)))
        path = root / "memory" / f"{day}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "MEMORY.md").write_text("# Core\n", encoding="utf-8")
    return evidence


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", default="lexical,hybrid")
    ap.add_argument("--constants", default="", help="patch recall constants: topic.ENABLED=0,...")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    patch_constants(args.constants)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        evidence = build(root)
        mem = Memory.open(str(root), now=NOW)
        mem.index()
        for mode in args.modes.split(","):
            found = {5: [], 10: []}
            for question, wanted in evidence.items():
                results = mem.recall(RecallRequest(question, k=10, mode=mode))["results"]
                for k in found:
                    hits = sum(any(r["path"] == p and r["start_line"] <= line <= r["end_line"] for r in results[:k])
                               for p, line in wanted)
                    found[k].append(hits / len(wanted))
                if args.verbose:
                    print(f"  [{mode}] {found[10][-1]:.1f} {question}")
            print(f"{mode:8} recall@5 {sum(found[5]) / len(found[5]):.3f}  recall@10 {sum(found[10]) / len(found[10]):.3f}"
                  f"  ({len(evidence)} questions, {args.constants or 'defaults'})")
        mem.close()


if __name__ == "__main__":
    main()
