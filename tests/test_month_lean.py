"""A month without a year in a line of notes: the coming one in a present-tense plan, the one gone by
where the line tells of the past (dates.lean.line_month_lean, each language's NARRATED patterns).

"Wechselt im Januar zu Siemens", written on 2026-10-15, was read as January 2026: a year-less month in a
line that showed no FUTURE word counted as ahead only within two months. In German, Spanish, French,
Italian, Dutch and Portuguese the present tense states plans, and so does English ("Switches to Siemens
in January"); a past is told with a past form ("Moved", "ist umgezogen", "se mudó", "a quitté").
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from conftest import recall_json, write_files
from workspace_memory.dates.languages import extract_window
from workspace_memory.dates.parse import resolve_stated_range

WRITTEN = date(2026, 10, 15)
NEXT_JANUARY, LAST_JANUARY = date(2027, 1, 1), date(2026, 1, 1)

PLANS_AND_PASTS = [  # (language, a present-tense plan, a past told), each about January
    ("en", "Switches to Siemens in January", "Moved to Berlin in January"),
    ("de", "Wechselt im Januar zu Siemens", "Ist im Januar nach Berlin umgezogen"),
    ("es", "Se cambia a Siemens en enero", "Se mudó a Madrid en enero"),
    ("fr", "Passe chez Siemens en janvier", "A quitté Paris en janvier"),
    ("it", "Passa a Siemens a gennaio", "Si è trasferito a Roma a gennaio"),
    ("nl", "Stapt in januari over naar Siemens", "Is in januari verhuisd naar Utrecht"),
    ("pt", "Muda para a Siemens em janeiro", "Mudou-se para Lisboa em janeiro"),
]


def _stated(code: str, text: str) -> date | None:
    if code == "en":
        found = resolve_stated_range(f"W @Anke: {text}", WRITTEN)
    else:
        found, _ = extract_window(f"W @Anke: {text}", datetime(2026, 10, 15), (), fact=True)
    return found.start if found is not None else None


@pytest.mark.parametrize(("code", "plan", "past"), PLANS_AND_PASTS, ids=[c for c, _, _ in PLANS_AND_PASTS])
def test_a_present_tense_plan_s_month_is_the_coming_one_and_a_past_s_the_one_gone_by(
        code: str, plan: str, past: str) -> None:
    assert _stated(code, plan) == NEXT_JANUARY, plan
    assert _stated(code, past) == LAST_JANUARY, past


def test_a_month_far_off_is_still_the_nearest_and_a_plan_word_still_looks_ahead() -> None:
    assert resolve_stated_range("W @Anke: Birthday party in June", WRITTEN).start == date(2026, 6, 1)  # 4 back, 8 ahead
    assert resolve_stated_range("W @Anke: Will move to Rome in June", WRITTEN).start == date(2027, 6, 1)
    assert resolve_stated_range("W @Anke: Has lived in Rome since January", WRITTEN).start == LAST_JANUARY


def test_a_german_plan_for_january_is_found_in_next_january(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "memory.toml": '[time]\nlanguages = ["de"]\n',
        "memory/2026-10-15.md": "# Donnerstag\n\n## Retain\n- W @Anke: Wechselt im Januar zu Siemens.\n",
    })
    found = recall_json(tmp_path, "Siemens", "--since", "2027-01-01", "--until", "2027-01-31",
                        now="2026-10-20T09:00")["results"]
    assert any("Wechselt im Januar" in h["content"] for h in found)
    gone = recall_json(tmp_path, "Siemens", "--since", "2026-01-01", "--until", "2026-01-31",
                       now="2026-10-20T09:00")["results"]
    assert not any("Wechselt im Januar" in h["content"] for h in gone)
