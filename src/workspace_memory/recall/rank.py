"""Scoring factors applied after relevance: recency and importance.

    final = relevance * recency * importance

recency (dated daily notes and session messages; MEMORY.md, bank pages and undated
notes are evergreen and get 1.0):

    recency = RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 0.5 ** (age_days / HALF_LIFE_DAYS)

The floor bounds the penalty: a note from today gets at most 1 / 0.85 = 1.18x the score
of an equally relevant one from last year, so an old but clearly better match still wins.
(A floor of 0.6 let recency decide most rankings on conversations that span months; the
measurements are in docs/benchmarks.md, "What moved it".)

importance: opinions count by their confidence (a 0.9 opinion outranks a 0.3 one),
facts slightly above free notes because they were deliberately retained, and messages of a
session transcript (kind "session") below both: a conversation is raw material, what was
written into memory was chosen, so curated memory wins a tie; a clearly better match in a
transcript still wins (0.85 / 0.92: a message must be about 8% more relevant than a note):

    importance = KIND_IMPORTANCE[kind] * (0.75 + 0.25 * confidence   for opinions)
"""

from __future__ import annotations

import functools
from datetime import date

HALF_LIFE_DAYS = 30.0
RECENCY_FLOOR = 0.85
KIND_IMPORTANCE = {"world": 1.0, "experience": 1.0, "opinion": 1.0, "observation": 0.95, "note": 0.92,
                   "session": 0.85}
DATED_ROLES = ("daily", "session")  # entries whose day makes them age (recency)


def dated_day(row: dict) -> str | None:
    """The day recency counts from: a daily note's or a session message's day; None for evergreen text."""
    return row["day"] if row["role"] in DATED_ROLES else None


@functools.lru_cache(maxsize=4096)  # a question's candidates share a few hundred days at most
def recency_factor(day: str | None, today: date, half_life_days: float = HALF_LIFE_DAYS) -> float:
    """Bounded exponential decay by the age of a dated note; 1.0 for evergreen text."""
    if not day:
        return 1.0
    try:
        age = (today - date.fromisoformat(day)).days
    except ValueError:
        return 1.0
    age = max(age, 0)
    return RECENCY_FLOOR + (1 - RECENCY_FLOOR) * 0.5 ** (age / half_life_days)


def importance_factor(kind: str, confidence: float | None) -> float:
    """How much an entry matters regardless of the query (see module docstring)."""
    base = KIND_IMPORTANCE.get(kind, 0.92)
    if kind == "opinion" and confidence is not None:
        return base * (0.75 + 0.25 * max(0.0, min(1.0, confidence)))
    return base
