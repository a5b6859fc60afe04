"""Reflect over a 365-day workspace with 50 entities, no model: how long a first and a no-op run take.

    .venv/bin/python benchmarks/reflect_bench.py [--days 365] [--entities 50] [--runs 3] [--keep DIR]

Generates (deterministically, seed 11) ~40 lines a day: notes, a paragraph, and a ## Retain
section of ~12 facts: world facts with moves ("Lives in X" -> "Moved to Y"), experiences,
opinions that are restated, reinforced and sometimes negated ("No longer prefers ..."), and
recurring observations. Indexes once, then for each of `runs` fresh copies times
`reflect --since 400d` (first run: every opinion, page and list built), a second run (nothing
new: must change no file; its index sync picks up the pages the first run wrote) and a third
(steady state). Prints the medians; target for the first run <= 5 s.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

NOW = "2025-11-30T18:00"
PEOPLE = ["Peter", "Anna", "Ravi", "Mei", "Lukas", "Sofia", "Omar", "Yuki", "Nora", "Diego", "Ines", "Tomas",
          "Leila", "Jonas", "Priya", "Kenji", "Marta", "Felix", "Aisha", "Hugo", "Elena", "Bruno", "Chloe",
          "Dmitri", "Farah"]
PROJECTS = ["warelay", "Gateway", "Atlas", "Harbor", "Quill", "Beacon", "Orbit", "Lumen", "Cobalt", "Nimbus",
            "Juniper", "Falcon", "Mosaic", "Ember", "Sprocket", "Tundra", "Vertex", "Willow", "Zephyr", "Apex",
            "Bramble", "Cinder", "Delta", "Fjord", "Grove"]
PLACES = ["Vienna", "London", "Lisbon", "Berlin", "Oslo", "Tokyo", "Austin", "Seoul", "Prague", "Dublin"]
EMPLOYERS = ["Acme", "Initech", "Globex", "Umbrella", "Hooli"]
PREFS = ["concise replies", "async updates", "written specs", "morning meetings", "green tea", "dark mode",
         "weekly summaries", "detailed changelogs"]
TOPICS = ["release notes", "the reconnect logic", "database migrations", "backups", "the deploy pipeline",
          "flaky tests", "search ranking", "error budgets", "the onboarding flow", "the API rate limits"]


def entity_names(n: int) -> list[str]:
    return (PEOPLE + PROJECTS)[:n]


def retain_facts(day: date, rng: random.Random, people: list[str], projects: list[str]) -> list[str]:
    facts = []
    for _ in range(rng.randint(10, 14)):
        roll = rng.random()
        person, project = rng.choice(people), rng.choice(projects)
        if roll < 0.22:
            place = rng.choice(PLACES)
            verb = rng.choice(["Lives in", "Moved to", "Back in", "Currently in"])
            facts.append(f"W @{person}: {verb} {place}.")
        elif roll < 0.32:
            facts.append(f"W @{person}: Works for {rng.choice(EMPLOYERS)} on @{project}.")
        elif roll < 0.52:
            facts.append(f"B @{project}: I worked on {rng.choice(TOPICS)} and wrote the summary.")
        elif roll < 0.80:
            pref = PREFS[(people.index(person) + rng.randint(0, 1)) % len(PREFS)]
            c = rng.choice([0.5, 0.6, 0.7, 0.8, 0.9])
            if rng.random() < 0.15:
                facts.append(f"O(c={c}) @{person}: No longer prefers {pref}.")
            else:
                facts.append(f"O(c={c}) @{person}: Prefers {pref}.")
        elif roll < 0.90:
            facts.append(f"O(c=0.7) @{project}: {rng.choice(TOPICS).capitalize()} is reliable enough.")
        else:
            facts.append(f"S @{person}: Usually busy with {rng.choice(TOPICS)} on {day:%A}s.")
    return facts


def daily_log(day: date, rng: random.Random, people: list[str], projects: list[str]) -> str:
    lines = [f"# {day.isoformat()}", "", "## Notes"]
    for _ in range(rng.randint(18, 22)):
        a, b = rng.sample(people, 2)
        lines.append(f"- Talked with {a} about {rng.choice(TOPICS)}; {b} follows up on {rng.choice(projects)} "
                     f"(ticket {rng.randrange(16**6):06x}).")
    lines += ["", f"Spent the afternoon on {rng.choice(TOPICS)} for {rng.choice(projects)}.", "", "## Retain"]
    lines += [f"- {fact}" for fact in retain_facts(day, rng, people, projects)]
    return "\n".join(lines) + "\n"


def generate(root: Path, days: int, n_entities: int, end: date = date(2025, 11, 30)) -> int:
    """Write the workspace; returns the number of lines written."""
    rng = random.Random(11)
    names = entity_names(n_entities)
    people = [n for n in names if n in PEOPLE]
    projects = [n for n in names if n in PROJECTS] or ["warelay"]
    (root / "memory").mkdir(parents=True, exist_ok=True)
    (root / "bank" / "entities").mkdir(parents=True, exist_ok=True)
    (root / "MEMORY.md").write_text("# Core memory\n\n## Human\n- Name: Peter\n")
    (root / "memory.toml").write_text('[embedding]\nprovider = "none"\n')  # no model: lexical index only
    for name in names[:8]:  # a few hand-written pages reflect must keep
        (root / "bank" / "entities" / f"{name}.md").write_text(f"---\nname: {name}\n---\n# {name}\n\nMy notes.\n")
    total = 0
    for i in range(days):
        day = end - timedelta(days=days - 1 - i)
        text = daily_log(day, rng, people, projects)
        total += text.count("\n")
        (root / "memory" / f"{day.isoformat()}.md").write_text(text)
    return total


def timed_reflect(root: Path) -> tuple[float, object]:
    from workspace_memory.api import Memory
    from workspace_memory.reflect import reflect

    mem = Memory.open(str(root), now=NOW)
    started = time.perf_counter()
    report = reflect(mem.workspace, mem.store, mem.now, "400d", use_model=False)
    seconds = time.perf_counter() - started
    mem.close()
    return seconds, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--entities", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="Leave the last reflected workspace here.")
    args = parser.parse_args()
    from workspace_memory.api import Memory

    with tempfile.TemporaryDirectory(prefix="reflect-bench-") as tmp:
        base = Path(tmp) / "base"
        lines = generate(base, args.days, args.entities)
        mem = Memory.open(str(base), now=NOW)
        started = time.perf_counter()
        mem.index()
        index_s = time.perf_counter() - started
        facts = mem.store.conn.execute("SELECT COUNT(*) FROM facts").fetchone()[0]
        mem.close()
        print(f"workspace: {args.days} days, {args.entities} entities, {lines} lines, {facts} facts; "
              f"index {index_s:.2f}s")
        firsts, seconds, thirds = [], [], []
        for n in range(args.runs):
            ws = Path(tmp) / f"run{n}"
            shutil.copytree(base, ws)
            first_s, first = timed_reflect(ws)
            second_s, second = timed_reflect(ws)  # also indexes the 54 bank pages the first run wrote
            third_s, third = timed_reflect(ws)
            assert second.changed == third.changed == [], f"a no-op run changed {second.changed + third.changed}"
            firsts.append(first_s)
            seconds.append(second_s)
            thirds.append(third_s)
            print(f"  copy {n + 1}: first {first_s:.2f}s, second {second_s:.2f}s, third {third_s:.2f}s — "
                  f"{first.summary_line()}")
        print(f"reflect --since 400d, medians: first run {statistics.median(firsts):.2f}s (target <= 5 s); "
              f"second run (nothing new; indexes the pages the first wrote) {statistics.median(seconds):.2f}s; "
              f"third run (steady state) {statistics.median(thirds):.2f}s")
        cli = [str(Path(sys.executable).parent / "memory"), "--workspace", str(ws), "--now", NOW, "reflect",
               "--since", "400d"]
        started = time.perf_counter()
        proc = subprocess.run(cli, capture_output=True, text=True)
        if proc.returncode == 0:
            print(f"CLI no-op run, process start included: {time.perf_counter() - started:.2f}s")
        else:
            print(f"CLI run skipped: {proc.stderr.strip()[:120]}")
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.copytree(ws, args.keep)


if __name__ == "__main__":
    main()
