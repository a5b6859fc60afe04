"""Recall, second pass (issue 14, items 4-10): one result per entry, a time phrase as evidence
(a pool of its own and a factor, never a filter), supersession only for present-state
questions, day-first dates, possessives, and short lists filled.

Each workspace is small and written for its rule; every run is lexical (provider none), so the
assertions hold for any agent's notes, not for one benchmark's wording.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

from conftest import assert_one_line_error, recall_batch, run_memory, run_ok, write_files


def contents(found: list[dict]) -> list[str]:
    return [h["content"][:70] for h in found]


def rank(found: list[dict], needle: str) -> int | None:
    return next((i for i, h in enumerate(found) if needle in h["content"]), None)


def index(root: Path, files: dict[str, str], toml: str | None = None) -> Path:
    write_files(root, files | ({"memory.toml": toml} if toml else {}))
    run_ok(root, "index")
    return root


# ------------------------------------------------------------------------- 4. one result per entry

PASTE = "Here is the full database migration plan as exported: " + " ".join(
    f"step {n}: copy table t{n} and check the database migration plan row counts;" for n in range(1200))


@pytest.fixture(scope="module")
def long_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    notes = "\n".join(f"line {n} of the design notes about the database migration plan and its risks" for n in range(60))
    return index(tmp_path_factory.mktemp("entries") / "ws", {
        "memory/2025-11-20.md": f"# 2025-11-20\n\n## Session 1\n\n- Anna: {PASTE}\n- Ben: thanks, reading it now\n",
        "memory/2025-11-21.md": "# 2025-11-21\n\n## Session 2\n\n- Ben: the database migration plan is approved,"
                                " we start on Monday\n",
        "memory/notes.md": f"# Notes\n\n- {notes.replace(chr(10), chr(10) + '  ')}\n",
    })


def test_a_long_entry_is_one_result(long_ws: Path) -> None:
    assert len(PASTE) > 70_000
    (answer,) = recall_batch(long_ws, [{"query": "database migration plan", "k": 10}])
    found = answer["results"]
    cited = [(h["path"], h["start_line"], h["end_line"]) for h in found]
    assert len(cited) == len(set(cited)), cited
    pasted = [h for h in found if h["path"] == "memory/2025-11-20.md" and h["start_line"] == 5]
    assert len(pasted) == 1, contents(found)  # 70,000 characters are many chunks, one result
    assert rank(found, "is approved") is not None, contents(found)  # the other session is not crowded out
    # A long multi-line entry is split at lines: its pieces cite different lines, still one result.
    assert sum(h["path"] == "memory/notes.md" for h in found) == 1, cited


# --------------------------------------------------------------- 5. a time window is a pool of its own


def _days(first: date, count: int) -> list[date]:
    return [first + timedelta(days=n) for n in range(count)]


@pytest.fixture(scope="module")
def year_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chores = ["Fixed the flaky upload test.", "Reviewed the onboarding copy with Lee.", "Paid the hosting bill.",
              "Cleaned up the backlog.", "Wrote the weekly summary for the team."]
    extras = ["Coffee first.", "Rain all day, so no bike.", "Long call with the bank.", "Lunch at the taqueria.",
              "The printer jammed twice.", "Kids home early.", "New keyboard arrived."]
    files = {}
    for n, day in enumerate(_days(date(2025, 7, 22), 160)):  # Jul 22 .. Dec 28, 2025
        lines = [f"# {day}", "", "## Log", f"- {chores[n % 5]} {extras[n % 7]}", f"- Note {n}: tidied the {day:%A} inbox."]
        if day == date(2025, 12, 8):
            lines.append("- Whatever happens with the vendor, we ship the release on Friday.")
        files[f"memory/{day}.md"] = "\n".join(lines) + "\n"
    return index(tmp_path_factory.mktemp("days") / "ws", files)


NOW_YEAR = "2025-12-30T12:00"


def test_what_happened_around_a_day_returns_the_days_around_it(year_ws: Path) -> None:
    (answer,) = recall_batch(year_ws, [{"query": "What happened around Nov 27?", "k": 10}], now=NOW_YEAR)
    found = answer["results"]
    days = [h["timestamp"] for h in found]
    assert all("2025-11-24" <= d <= "2025-11-30" for d in days[:7]), days
    assert len(set(days[:7])) == 7, days  # the best of each day first, then each day's second best
    assert "2025-12-08" not in days[:7]  # "happens" is not what the question is about


@pytest.mark.parametrize(("query", "first", "last"), [
    ("what did we do last week", "2025-12-22", "2025-12-28"),
    ("anything yesterday?", "2025-12-29", "2025-12-29"),
    ("what happened in October", "2025-10-01", "2025-10-31"),
])
def test_an_events_only_question_lists_its_window(year_ws: Path, query: str, first: str, last: str) -> None:
    (answer,) = recall_batch(year_ws, [{"query": query, "k": 5}], now=NOW_YEAR)
    found = answer["results"]
    if query.startswith("anything"):  # nothing was written on Dec 29: the days around it, nearest first
        assert found and found[0]["timestamp"] in ("2025-12-28",), [h["timestamp"] for h in found]
        return
    assert found and all(first <= h["timestamp"] <= last for h in found), [h["timestamp"] for h in found]


# ------------------------------------------------------- 6. supersession only for present-state questions


@pytest.fixture(scope="module")
def peter_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index(tmp_path_factory.mktemp("peter") / "ws", {
        "memory/2025-03-10.md": "# 2025-03-10\n\n## Retain\n- W @Peter: Lives in Vienna, in a flat near the Naschmarkt.\n",
        "memory/2025-11-20.md": "# 2025-11-20\n\n## Retain\n- W @Peter: Moved to London.\n",
    })


def test_a_keyword_only_an_old_fact_holds_finds_that_fact_first(peter_ws: Path) -> None:
    keyword, present, past = recall_batch(peter_ws, [
        {"query": "Naschmarkt", "explain": True},
        {"query": "where does Peter live?", "explain": True},
        {"query": "where did Peter live?", "explain": True},
    ])
    assert "Naschmarkt" in keyword["results"][0]["content"], contents(keyword["results"])
    assert "superseded" not in keyword["results"][0]["explain"]["factors"]
    assert "Moved to London" in present["results"][0]["content"], contents(present["results"])
    vienna = rank(present["results"], "Vienna")
    assert vienna is None or "superseded" in present["results"][vienna]["explain"]["factors"]
    assert "Vienna" in past["results"][0]["content"], contents(past["results"])  # the past: no replacing


# ------------------------------------------------------------------ 7. a time phrase is evidence


@pytest.fixture(scope="module")
def told_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index(tmp_path_factory.mktemp("told") / "ws", {
        "memory/2025-09-02.md": "# 2025-09-02\n\n- Visited the Natural History Museum again, the dinosaurs.\n",
        "memory/2025-11-17.md": "# 2025-11-17\n\n- Quiet Monday, mostly email.\n",
        "memory/2025-11-18.md": "# 2025-11-18\n\n- Yesterday I took the kids to the Natural History Museum.\n",
        "memory/2025-06-27.md": "# 2025-06-27\n\n- The last day of school was a picnic in the park.\n",
        "memory/2025-10-05.md": "# 2025-10-05\n\n- Finished reading 11/22/63 by Stephen King.\n",
        "memory/2024-01-05.md": "# 2024-01-05\n\n- Team lunch at the harbour.\n",
        "memory/2024-01-12.md": "# 2024-01-12\n\n- Team lunch at the harbour again.\n",
    })


NOW_TOLD = "2025-11-20T12:00"


def test_an_event_told_the_day_after_ranks_first_and_nothing_strong_is_dropped(told_ws: Path) -> None:
    (answer,) = recall_batch(told_ws, [{"query": "museum on Nov 17", "explain": True}], now=NOW_TOLD)
    found = answer["results"]
    assert found[0]["timestamp"] == "2025-11-18", contents(found)  # written a day later
    older = rank(found, "dinosaurs")
    assert older is not None and found[older]["explain"]["factors"]["window"] < 1  # outside, still found


@pytest.mark.parametrize(("query", "needle"), [
    ("the last day of school", "picnic"),  # no date: the words are searched
    ("11/22/63", "Stephen King"),  # a title, not 22 Nov 1963
])
def test_what_is_no_date_is_searched_as_words(told_ws: Path, query: str, needle: str) -> None:
    (answer,) = recall_batch(told_ws, [{"query": query}], now=NOW_TOLD)
    assert answer["results"] and needle in answer["results"][0]["content"], contents(answer["results"])


def test_a_weekday_before_a_day_first_date(told_ws: Path) -> None:
    (answer,) = recall_batch(told_ws, [{"query": "team lunch On Friday before 12.01.2024"}], now=NOW_TOLD)
    assert answer["results"][0]["timestamp"] == "2024-01-05", contents(answer["results"])


def test_only_since_and_until_filter(told_ws: Path) -> None:
    phrase, flag = recall_batch(told_ws, [{"query": "museum in November 2025"},
                                          {"query": "museum", "since": "2025-11-01"}], now=NOW_TOLD)
    assert rank(phrase["results"], "dinosaurs") is not None  # the phrase ranks, never drops
    assert rank(flag["results"], "dinosaurs") is None and flag["results"]  # the option filters


# -------------------------------------------------------------------------------- 8. day-first dates

DENTIST = {
    "memory/2024-01-21.md": "# 2024-01-21\n\n- Dentist appointment went fine.\n",
    "memory/2024-03-04.md": "# 2024-03-04\n\n- Dentist check-up, one filling.\n",
    "memory/2024-04-03.md": "# 2024-04-03\n\n- Dentist called to move the cleaning.\n",
}


@pytest.mark.parametrize(("toml", "query", "day"), [
    (None, "dentist on 21.01.2024", "2024-01-21"),
    (None, "dentist on 21/01/2024", "2024-01-21"),  # only one reading is a date
    (None, "dentist on the 21st of January", "2024-01-21"),
    ('[time]\ndate_order = "DMY"\n', "dentist on 03/04/2024", "2024-04-03"),
    ('[time]\ndate_order = "MDY"\n', "dentist on 03/04/2024", "2024-03-04"),
])
def test_day_first_dates(tmp_path: Path, toml: str | None, query: str, day: str) -> None:
    ws = index(tmp_path / "ws", DENTIST, toml)
    (answer,) = recall_batch(ws, [{"query": query}], now="2024-06-01T12:00")
    assert answer["results"][0]["timestamp"] == day, [h["timestamp"] for h in answer["results"]]


def test_a_bad_date_order_is_one_line_naming_the_key(tmp_path: Path) -> None:
    write_files(tmp_path / "ws", DENTIST | {"memory.toml": '[time]\ndate_order = "YMD"\n'})
    line = assert_one_line_error(*run_memory(tmp_path / "ws", "recall", "dentist"))
    assert "[time]" in line and "date_order" in line


# ------------------------------------------------------------------ 9. possessives and 10. short lists


@pytest.fixture(scope="module")
def maria_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index(tmp_path_factory.mktemp("maria") / "ws", {
        "memory/2025-05-02.md": "# 2025-05-02\n\n- Maria took up pottery and climbing this spring.\n"
                                "- Lunch with Tom about the garden.\n",
        "memory/2025-05-03.md": "# 2025-05-03\n\n- The Smiths' garden party was fun.\n",
    })


def test_possessives_are_stripped_before_searching(maria_ws: Path) -> None:
    maria, smiths = recall_batch(maria_ws, [{"query": "What are Maria's hobbies?"},
                                            {"query": "Smiths’ party"}], now="2025-05-10T12:00")
    assert maria["results"] and "pottery" in maria["results"][0]["content"], contents(maria["results"])
    assert smiths["results"] and "garden party" in smiths["results"][0]["content"]


def test_a_short_list_is_filled_from_content_word_matches(maria_ws: Path) -> None:
    (answer,) = recall_batch(maria_ws, [{"query": "garden zymurgy xylophone quokka marmalade", "k": 5,
                                         "explain": True}], now="2025-05-10T12:00")
    found = answer["results"]
    assert {h["content"][:20] for h in found} >= {"- Lunch with Tom abo", "- The Smiths' garden"}
    assert all(h["explain"].get("filled") for h in found)  # all under min_score, marked


def test_a_question_with_a_word_of_the_workspace_is_never_empty(maria_ws: Path) -> None:
    (answer,) = recall_batch(maria_ws, [{"query": "pottery qwertz asdfgh yxcvb"}], now="2025-05-10T12:00")
    assert answer["results"], "a content word occurs in the workspace"
