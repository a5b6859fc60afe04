"""A weekday written beside a date of that weekday names that date, not the nearest such weekday;
one followed by a day number alone ("Monday 23:", "Lunes 23:") is that numbered day.

Plans are often written "Saturday Dec 12: the move" on a Friday; the weekday used to count as a day
of its own (tomorrow), so the line named tomorrow too, a Retain fact "Moving on Saturday Dec 12"
stated tomorrow, and "what's on Saturday?" ranked the move a week early above tomorrow's party.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from conftest import recall_json, write_files
from workspace_memory.dates.languages import extract_window, named_in
from workspace_memory.dates.parse import extract_time_window, named_times, resolve_stated_range

FRIDAY = date(2026, 12, 4)
SAT_12 = date(2026, 12, 12)


def _days(text: str, written: date = FRIDAY) -> set[date]:
    return {d.start for d in named_times(text, written)}


def test_a_weekday_beside_its_date_names_only_the_date() -> None:
    for text in ("- Saturday Dec 12: the move.", "Party on Saturday, Dec 12", "Dec 12 (Saturday): move",
                 "Saturday, December 12th: the move", "Saturday 12 December - the move"):
        assert _days(text) <= {SAT_12}, text
        assert resolve_stated_range(f"W @Ana: {text}", FRIDAY).start == SAT_12, text


def test_a_weekday_apart_from_the_date_keeps_its_own_day_and_one_beside_another_date_gives_way() -> None:
    assert _days("Saturday: party; Dec 12: move") == {date(2026, 12, 5), SAT_12}
    # the date is no Saturday: the date wins, in the line's days as in the fact's stated time
    assert _days("Saturday Dec 13: the move") == {date(2026, 12, 13)}
    assert resolve_stated_range("W @Ana: Moving on Saturday Dec 13", FRIDAY).start == date(2026, 12, 13)
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


THURSDAY = date(2026, 11, 19)  # the nearest Monday is the 16th; Monday the 23rd is four days ahead
MONDAY_23 = date(2026, 11, 23)
# "Monday the 23rd" as people write it, in each language with time words (lang/timewords/<code>.py)
MONDAY_THE_23RD = [
    ("en", "Dentist Monday the 23rd with Ana"), ("en", "Dentist on Monday, the 23rd."), ("en", "Monday 23rd: dentist"),
    ("de", "Zahnarzt am Montag, den 23."), ("de", "Zahnarzt am Montag, den 23. November"),
    ("fr", "Dentiste lundi 23"), ("fr", "Dentiste lundi 23 à 10h"), ("es", "Dentista el lunes 23"),
    ("es", "Dentista el lunes, 23"), ("it", "Dentista lunedì 23"), ("nl", "Tandarts maandag 23"),
    ("pt", "Dentista na segunda-feira, dia 23"),
]


def test_a_weekday_with_its_day_of_the_month_is_that_day_in_a_line_in_every_language() -> None:
    for _code, text in MONDAY_THE_23RD:
        assert {d.start for d in named_in(text, THURSDAY, None)} == {MONDAY_23}, text


def test_a_weekday_with_its_day_of_the_month_is_a_facts_and_a_questions_day() -> None:
    assert resolve_stated_range("W @Ana: Dentist on Monday, the 23rd.", THURSDAY).start == MONDAY_23
    for _code, text in MONDAY_THE_23RD[3:]:
        window, _ = extract_window(f"W @Ana: {text}", datetime(2026, 11, 19), (), fact=True)
        assert window is not None and window.start == window.end == MONDAY_23, text
    # a question: the day, and the number is no word to search
    window, rest = extract_time_window("What's on Monday the 23rd?", datetime(2026, 11, 19, 12))
    assert window is not None and (window.start, window.phrase, rest) == (MONDAY_23, "on Monday the 23rd", "What's")
    for question in ("¿Qué hay el lunes 23?", "Qu'est-ce qu'il y a lundi 23 ?", "Cosa c'è lunedì 23?"):
        window, rest = extract_window(question, datetime(2026, 11, 19, 12), ())
        assert window is not None and window.start == MONDAY_23 and "23" not in rest, question


def test_a_day_of_the_month_that_is_not_that_weekday_wins_unless_it_counts_something() -> None:
    assert _days("Monday the 24th: dentist", THURSDAY) == {date(2026, 11, 24)}  # a Tuesday: the date wins
    assert _days("Wednesday the 23rd: dentist", THURSDAY) == {date(2026, 12, 23)}  # the Wednesday that is a 23rd
    assert _days("Monday the 3rd floor is closed", THURSDAY) == {date(2026, 11, 16)}  # a floor, not a day


def test_a_plan_written_as_weekday_the_ordinal_is_found_on_that_day(tmp_path: Path) -> None:
    write_files(tmp_path, {"memory/2026-11-19.md": "# Thursday\n\n- Monday the 23rd: dentist with Ana.\n"})
    on = recall_json(tmp_path, "dentist", "--since", "2026-11-23", "--until", "2026-11-23", now="2026-11-19T20:00")
    assert any("dentist with Ana" in h["content"] for h in on["results"])
    before = recall_json(tmp_path, "dentist", "--since", "2026-11-16", "--until", "2026-11-16", now="2026-11-19T20:00")
    assert not before["results"]
