"""Deterministic synthetic workspaces for benchmarks: daily logs with Retain sections.

    python benchmarks/workspace_gen.py OUT_DIR --days 365 --entities 50

Each daily log has ~40 lines: a title, a few narrative bullets, a paragraph, and a
## Retain section of W/B/O/S facts mentioning @entities, some with stated time ranges.
"""

from __future__ import annotations

import argparse
import random
from datetime import date, timedelta
from pathlib import Path

FIRST = ["Peter", "Anna", "Ravi", "Mei", "Lukas", "Sofia", "Omar", "Yuki", "Nora", "Diego", "Ines", "Tomas",
         "Leila", "Jonas", "Priya", "Kenji", "Marta", "Felix", "Aisha", "Hugo"]
PROJECTS = ["warelay", "Gateway", "Atlas", "Harbor", "Quill", "Beacon", "Orbit", "Lumen", "Cobalt", "Nimbus",
            "Juniper", "Falcon", "Mosaic", "Ember", "Sprocket"]
PLACES = ["Vienna", "London", "Marrakech", "Tokyo", "Lisbon", "Berlin", "Oslo", "Austin", "Nairobi", "Seoul",
          "Lima", "Prague", "Dublin", "Madrid", "Zurich"]
TOPICS = ["release notes", "the reconnect logic", "database migrations", "the onboarding flow", "invoices",
          "the WhatsApp bridge", "the cron schedule", "backups", "the API rate limits", "the design review",
          "flaky tests", "the deploy pipeline", "search ranking", "the mobile app", "error budgets"]
PREFS = ["concise replies", "long-form reports", "morning meetings", "async updates", "green tea", "dark mode",
         "written specs", "phone calls", "weekly summaries", "detailed changelogs"]


def entities(n: int) -> list[str]:
    names = FIRST + PROJECTS + [f"{p}-Office" for p in PLACES]
    extra = [f"Team-{i}" for i in range(max(0, n - len(names)))]
    return (names + extra)[:n]


def daily_log(day: date, rng: random.Random, ents: list[str]) -> str:
    who = rng.sample(ents, 4)
    place = rng.choice(PLACES)
    topic = rng.choice(TOPICS)
    lines = [f"# {day.isoformat()}", "", "## Notes"]
    for _ in range(rng.randint(8, 12)):
        a, b = rng.sample(who, 2)
        lines.append(f"- Talked with {a} about {rng.choice(TOPICS)}; {b} will follow up on "
                     f"{rng.choice(TOPICS)} (ticket {rng.randrange(16**7):07x}).")
    lines += ["", f"Spent the afternoon on {topic}. The main risk is {rng.choice(TOPICS)}; "
              f"we agreed to revisit it after {rng.choice(PROJECTS)} ships.", ""]
    lines += ["## Decisions", f"- Use `{rng.choice(PROJECTS).lower()}.{rng.choice(['retry', 'timeout', 'batch'])}"
              f"Size` = {rng.randint(1, 500)} for {topic}.", ""]
    lines.append("## Retain")
    for _ in range(rng.randint(12, 16)):
        e = rng.choice(who)
        kind = rng.choices("WBOS", weights=[4, 3, 2, 1])[0]
        if kind == "W":
            if rng.random() < 0.2:
                start = day + timedelta(days=rng.randint(1, 20))
                end = start + timedelta(days=rng.randint(1, 6))
                text = f"W @{e}: In {place} ({start:%b} {start.day}–{end:%b} {end.day}, {end.year}) for {topic}."
            else:
                text = f"W @{e}: Works on {rng.choice(PROJECTS)} and owns {rng.choice(TOPICS)}."
        elif kind == "B":
            text = f"B @{e}: I helped with {rng.choice(TOPICS)} and wrote the summary."
        elif kind == "O":
            text = f"O(c={rng.choice([0.5, 0.6, 0.7, 0.8, 0.9])}) @{e}: Prefers {rng.choice(PREFS)}."
        else:
            text = f"S @{e}: Usually busy with {rng.choice(TOPICS)} on {day:%A}s."
        lines.append(f"- {text}")
    return "\n".join(lines) + "\n"


def generate(out: Path, days: int, n_entities: int, seed: int = 7, end: date = date(2025, 11, 30),
             unique_days: int | None = None, sessions: int = 1) -> list[Path]:
    """Write MEMORY.md, bank pages and `days` daily logs ending at `end`; return the log paths.

    With `unique_days`, only that many distinct logs are generated and the others repeat
    them under other dates: a large workspace whose distinct texts can be embedded in
    minutes (its chunks and vectors are as many as a real one's; its texts are not all new).
    With `sessions`, each day's file holds that many logs one after the other (a busy agent's
    day: about 26 entries a session), so a million entries need thousands of files, not tens
    of thousands.
    """
    rng = random.Random(seed)
    ents = entities(n_entities)
    pool: list[str] = []  # the distinct session logs, when `sessions` > 1
    (out / "memory").mkdir(parents=True, exist_ok=True)
    (out / "bank" / "entities").mkdir(parents=True, exist_ok=True)
    (out / "MEMORY.md").write_text("# Core memory\n\n## Human\n- Name: Peter\n- Timezone: Europe/Vienna\n")
    for name in ents[:10]:
        (out / "bank" / "entities" / f"{name}.md").write_text(
            f"---\nname: {name.replace('-', ' ')}\n---\n# {name}\n\nNotes about {name}.\n"
        )
    paths = []
    for i in range(days):
        day = end - timedelta(days=days - 1 - i)
        path = out / "memory" / f"{day.isoformat()}.md"
        if days > 3000:  # 10,000-day workspaces: spread over folders like a real archive would
            path = out / "memory" / f"{day.year}" / f"{day.isoformat()}.md"
            path.parent.mkdir(exist_ok=True)
        if sessions > 1:  # the sessions' sections one after the other, under one title
            logs = [_session(pool, i * sessions + n, unique_days, day, rng, ents) for n in range(sessions)]
            path.write_text(f"# {day.isoformat()}\n" + "\n".join(log.split("\n", 1)[1] for log in logs))
        elif unique_days and i >= unique_days:
            source = paths[i % unique_days].read_text()
            path.write_text(source.replace(source.split("\n", 1)[0], f"# {day.isoformat()}", 1))
        else:
            path.write_text(daily_log(day, rng, ents))
        paths.append(path)
    return paths


def _session(pool: list[str], n: int, unique: int | None, day: date, rng: random.Random, ents: list[str]) -> str:
    """The n-th session log of a day: a new one, or (with `unique`) one of the first `unique` again."""
    if unique and n >= unique:
        return pool[n % unique]
    pool.append(daily_log(day, rng, ents))
    return pool[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--entities", type=int, default=50)
    args = parser.parse_args()
    generate(args.out, args.days, args.entities)


if __name__ == "__main__":
    main()
