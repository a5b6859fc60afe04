"""A weekday written beside a date of that weekday names that date, not the nearest such weekday;
one followed by a day number alone ("Monday 23:", "Lunes 23:") is that numbered day.

Plans are often written "Saturday Dec 12: the move" on a Friday; the weekday used to count as a day
of its own (tomorrow), so the line named tomorrow too, a Retain fact "Moving on Saturday Dec 12"
stated tomorrow, and "what's on Saturday?" ranked the move a week early above tomorrow's party.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from conftest import recall_json, write_files
from workspace_memory.dates.parse import named_times, resolve_stated_range

FRIDAY = date(2026, 12, 4)
SAT_12 = date(2026, 12, 12)


def _days(text: str, written: date = FRIDAY) -> set[date]:
    return {d.start for d in named_times(text, written)}


def test_a_weekday_beside_its_date_names_only_the_date() -> None:
    for text in ("- Saturday Dec 12: the move.", "Party on Saturday, Dec 12", "Dec 12 (Saturday): move",
                 "Saturday, December 12th: the move", "Saturday 12 December - the move"):
        assert _days(text) <= {SAT_12}, text
        assert resolve_stated_range(f"W @Ana: {text}", FRIDAY).start == SAT_12, text


def test_a_weekday_apart_from_the_date_or_of_another_weekday_keeps_its_own_day() -> None:
    assert _days("Saturday: party; Dec 12: move") == {date(2026, 12, 5), SAT_12}
    assert date(2026, 12, 5) in _days("Saturday Dec 13: the move")  # the date is no Saturday: both stay
    assert resolve_stated_range("W @Ana: Party on Saturday", FRIDAY).start == date(2026, 12, 5)
    assert _days("Planned next week: Monday the review") == {date(2026, 12, 7)}


def test_whats_on_saturday_ranks_tomorrows_plan_above_next_weeks(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "memory/2026-12-04.md": "# Friday\n\n## Plans\n- Saturday Dec 12: the move to Berlin.\n"
                                "- Saturday: Priya's party.\n\n## Retain\n- W @Ana: Moving on Saturday Dec 12.\n",
    })
    hits = recall_json(tmp_path, "what's on Saturday?", "--k", "3", now="2026-12-04T19:00")["results"]
    assert "Priya's party" in hits[0]["content"]
    moving = recall_json(tmp_path, "moving", "--since", "2026-12-12", "--until", "2026-12-12",
                         now="2026-12-04T19:00")["results"]
    assert any("Moving on Saturday Dec 12" in h["content"] for h in moving)


def test_a_weekday_with_a_day_number_is_that_day_in_any_language() -> None:
    thursday = date(2026, 11, 19)
    assert _days("- Monday 23: call the landlord", thursday) == {date(2026, 11, 23)}
    assert _days("## Friday 27", thursday) == {date(2026, 11, 27)}
    assert resolve_stated_range("W @Ana: Dentist on Monday 23.", thursday).start == date(2026, 11, 23)
    # a time or a count after the weekday is no day number; a number no such weekday has changes nothing
    for text in ("Monday 9:30 standup", "Friday 10.15 call", "Monday 10 people came", "Monday 24: typo"):
        assert _days(text, thursday) == _days(text.split(" ")[0], thursday), text


def test_next_weeks_plans_written_as_weekday_and_number_are_found_in_spanish(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "memory/2026-11-19.md": "# Jueves 19 de noviembre de 2026\n\n## Planes\n"
                                "- Lunes 23: llamar al casero de Valencia.\n- Viernes 27: último turno en La Paz.\n"
                                "- Sábado: cena de despedida con Carmen.\n",
    })
    hits = recall_json(tmp_path, "¿Qué hay la semana que viene?", "--k", "2", now="2026-11-19T20:00")["results"]
    assert {h["source"] for h in hits} == {"memory/2026-11-19.md#L4", "memory/2026-11-19.md#L5"}  # not Saturday
