"""Tests for workspace_memory.dates.parse: --since values, ranges stated in facts, windows in queries."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from workspace_memory.dates.parse import (
    AROUND_DAYS,
    DOUBTFUL,
    DateRange,
    TimeWindow,
    date_order_setting,
    default_date_order,
    extract_time_window,
    parse_since,
    resolve_stated_range,
)

WRITTEN = date(2025, 11, 27)  # a Thursday
NOW = datetime(2025, 11, 27, 15, 30)  # a Thursday afternoon
D = date


# ------------------------------------------------------------------------------------------ import cost


def test_time_phrases_need_no_heavy_import() -> None:
    # A cold CLI must start fast: the time grammar is tokens and tables (dates.parse, dates.points),
    # never dateparser (its rules took ~99 ms to compile) nor numpy.
    code = (
        "import sys; import workspace_memory.dates.parse as t; "
        "t.extract_time_window('what did I do last week?', __import__('datetime').datetime(2025, 1, 1)); "
        "t.resolve_stated_range('W in Marrakech (Nov 27-Dec 1, 2025)', None); "
        "print('dateparser' in sys.modules or 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------------------------- since


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30d", D(2025, 10, 28)),
        ("2w", D(2025, 11, 13)),
        ("6m", D(2025, 5, 27)),
        ("1y", D(2024, 11, 27)),
        ("12h", D(2025, 11, 27)),
        ("16h", D(2025, 11, 26)),  # the day of now-16h
        ("0d", D(2025, 11, 27)),
        (" 7D ", D(2025, 11, 20)),
        ("2025-01-02", D(2025, 1, 2)),
        ("2025-11-20T08:00:00Z", D(2025, 11, 20)),
        ("today", D(2025, 11, 27)),
        ("Yesterday", D(2025, 11, 26)),
    ],
)
def test_parse_since(value: str, expected: date) -> None:
    assert parse_since(value, NOW) == expected


def test_parse_since_month_clamps_day() -> None:
    assert parse_since("1m", datetime(2025, 3, 31)) == D(2025, 2, 28)
    assert parse_since("1y", datetime(2024, 2, 29)) == D(2023, 2, 28)


@pytest.mark.parametrize(
    "value", ["", "xx", "30", "d30", "3 days", "2025-13-01", "2025-02-30", "9999999y", "-3d"]
)
def test_parse_since_rejects_with_one_line_message(value: str) -> None:
    with pytest.raises(ValueError, match="invalid time") as info:
        parse_since(value, NOW)
    assert "\n" not in str(info.value)
    assert "30d" in str(info.value)  # the message says what is expected


# ------------------------------------------------------------------------------ ranges stated in facts


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.", D(2025, 11, 27), D(2025, 12, 1)),
        ("Nov 27-Dec 1, 2025", D(2025, 11, 27), D(2025, 12, 1)),
        ("Nov 27 — Dec 1, 2025", D(2025, 11, 27), D(2025, 12, 1)),
        ("Nov 27 to Dec 1, 2025", D(2025, 11, 27), D(2025, 12, 1)),
        ("Nov 27 until Dec 1, 2025", D(2025, 11, 27), D(2025, 12, 1)),
        ("Nov 27 through Dec 1, 2025", D(2025, 11, 27), D(2025, 12, 1)),
        ("Dec 28–Jan 3, 2026", D(2025, 12, 28), D(2026, 1, 3)),
        ("Nov 27-30, 2025", D(2025, 11, 27), D(2025, 11, 30)),
        ("27–30 November 2025", D(2025, 11, 27), D(2025, 11, 30)),
        ("from 2025-11-27 to 2025-12-01", D(2025, 11, 27), D(2025, 12, 1)),
        ("2025-11-27 – 2025-12-01", D(2025, 11, 27), D(2025, 12, 1)),
        ("between March 2024 and May 2024", D(2024, 3, 1), D(2024, 5, 31)),
        ("on 2025-11-27", D(2025, 11, 27), D(2025, 11, 27)),
        ("deployed 2025-11-20T08:15:00Z", D(2025, 11, 20), D(2025, 11, 20)),
        ("since March", D(2025, 3, 1), None),
        ("since December", D(2024, 12, 1), None),  # the latest December not after Nov 27, 2025
        ("since 2024", D(2024, 1, 1), None),
        ("since last Monday", D(2025, 11, 24), None),
        ("since Thursday", D(2025, 11, 27), None),  # bare weekday: on or before the day written
        ("Peter has lived in Berlin since 2019.", D(2019, 1, 1), None),
        ("last Tuesday", D(2025, 11, 25), D(2025, 11, 25)),
        ("last Thursday", D(2025, 11, 20), D(2025, 11, 20)),  # strictly before
        ("yesterday", D(2025, 11, 26), D(2025, 11, 26)),
        ("Yesterday's deploy failed", D(2025, 11, 26), D(2025, 11, 26)),
        ("today", D(2025, 11, 27), D(2025, 11, 27)),
        ("tomorrow", D(2025, 11, 28), D(2025, 11, 28)),
        ("this week", D(2025, 11, 24), D(2025, 11, 30)),
        ("last week", D(2025, 11, 17), D(2025, 11, 23)),
        ("next week", D(2025, 12, 1), D(2025, 12, 7)),
        ("last month", D(2025, 10, 1), D(2025, 10, 31)),
        ("last year", D(2024, 1, 1), D(2024, 12, 31)),
        ("in March 2024", D(2024, 3, 1), D(2024, 3, 31)),
        ("March 2024", D(2024, 3, 1), D(2024, 3, 31)),
        ("Feb 2024", D(2024, 2, 1), D(2024, 2, 29)),
        ("moved in March", D(2025, 3, 1), D(2025, 3, 31)),  # a past told: the March gone by
        ("in March", D(2026, 3, 1), D(2026, 3, 31)),  # no past told: the nearest March (a plan, as often)
        ("in 2023", D(2023, 1, 1), D(2023, 12, 31)),
        ("during 2023", D(2023, 1, 1), D(2023, 12, 31)),
        ("Nov 27", D(2025, 11, 27), D(2025, 11, 27)),
        ("Dec 3", D(2025, 12, 3), D(2025, 12, 3)),  # a plan: the Dec 3 nearest to the day written
        ("Nov. 27th", D(2025, 11, 27), D(2025, 11, 27)),
        ("27 Nov", D(2025, 11, 27), D(2025, 11, 27)),
        ("27 November 2025", D(2025, 11, 27), D(2025, 11, 27)),
        ("November 27, 2024", D(2024, 11, 27), D(2024, 11, 27)),
        ("2 days ago", D(2025, 11, 25), D(2025, 11, 25)),
        ("a day ago", D(2025, 11, 26), D(2025, 11, 26)),
        ("2 weeks ago", D(2025, 11, 10), D(2025, 11, 16)),  # the ISO week containing that day
        ("next Friday", D(2025, 11, 28), D(2025, 11, 28)),
        ("next Thursday", D(2025, 12, 4), D(2025, 12, 4)),  # strictly after
        ("this Friday", D(2025, 11, 28), D(2025, 11, 28)),
        ("last night", D(2025, 11, 26), D(2025, 11, 26)),
        ("in the past 3 days", D(2025, 11, 24), D(2025, 11, 27)),
        ("around Nov 27", D(2025, 11, 24), D(2025, 11, 30)),
        # day-of-month phrases (the grammar's own; dateparser resolved them once)
        ("1st of December", D(2025, 12, 1), D(2025, 12, 1)),
        ("the 1st of December 2025", D(2025, 12, 1), D(2025, 12, 1)),
        ("paid on 11/20/2025", D(2025, 11, 20), D(2025, 11, 20)),
        ("met in may 2024", D(2024, 5, 1), D(2024, 5, 31)),  # lowercase "may" with a year is a month
        ("since may", D(2025, 5, 1), None),  # ... and after a preposition
    ],
)
def test_resolve_stated_range(text: str, start: date | None, end: date | None) -> None:
    assert resolve_stated_range(text, WRITTEN) == DateRange(start, end)


@pytest.mark.parametrize(
    "text",
    [
        "Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
        "Travels often; mostly reachable on WhatsApp.",
        "Upgraded to v2.3 of the client",
        "Has 3 cats and 2 dogs",
        "Calls at 5pm every day",
        "Standup at 10:30",
        "Fixed in commit 2025abc1 and a1b2c3d",
        "I fixed the Baileys WS crash (see memory/2025-11-27.md).",
        "Timeout is 2000 ms; in 2000 ms the retry fires",
        "Budget: 2025 euros",
        "I may 3D-print the case",
        "Theresa May resigned",
        "Uses port 2024 and 8080",
        "Scored 27-30 in the final",
        "Ticket #2024 is closed",
        "",
    ],
)
def test_resolve_stated_range_no_false_positives(text: str) -> None:
    assert resolve_stated_range(text, WRITTEN) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nov 27–Dec 1, 2025", DateRange(D(2025, 11, 27), D(2025, 12, 1))),
        ("on 2025-11-27", DateRange(D(2025, 11, 27), D(2025, 11, 27))),
        ("since March 2024", DateRange(D(2024, 3, 1), None)),
        ("in 2023", DateRange(D(2023, 1, 1), D(2023, 12, 31))),
        ("Nov 27", None),
        ("since March", None),
        ("yesterday", None),
        ("last week", None),
        ("2 days ago", None),
        ("1st of December", None),
    ],
)
def test_resolve_without_written_only_absolute_dates(text: str, expected: DateRange | None) -> None:
    assert resolve_stated_range(text, None) == expected


def test_a_day_without_a_year_in_a_fact_is_the_nearest_one() -> None:
    """A note written on Nov 26 that says "Nov 27" means tomorrow, not a year ago; "Oct 30" last month."""
    assert resolve_stated_range("Nov 27", D(2025, 11, 26)) == DateRange(D(2025, 11, 27), D(2025, 11, 27))
    assert resolve_stated_range("back on Oct 30", D(2025, 11, 26)) == DateRange(D(2025, 10, 30), D(2025, 10, 30))
    assert resolve_stated_range("Nov 28 – Dec 2", D(2025, 11, 23)) == DateRange(D(2025, 11, 28), D(2025, 12, 2))
    assert resolve_stated_range("started in March", D(2025, 11, 26)) == DateRange(D(2025, 3, 1), D(2025, 3, 31))
    assert resolve_stated_range("starts in March", D(2025, 11, 26)) == DateRange(D(2026, 3, 1), D(2026, 3, 31))
    assert resolve_stated_range("in June", D(2025, 11, 26)) == DateRange(D(2025, 6, 1), D(2025, 6, 30))  # nearer


def test_resolve_feb_29_looks_back_to_a_leap_year() -> None:
    assert resolve_stated_range("Feb 29", D(2025, 6, 1)) == DateRange(D(2024, 2, 29), D(2024, 2, 29))


def test_resolve_reversed_range_is_not_a_range() -> None:
    assert resolve_stated_range("Dec 5–Dec 1, 2025", WRITTEN) != DateRange(D(2025, 12, 5), D(2025, 12, 1))


def test_resolve_impossible_date_is_none() -> None:
    assert resolve_stated_range("on 2025-02-30", WRITTEN) is None


def test_longest_phrase_wins() -> None:
    # "since last Monday" beats "last Monday"; the full range beats its two ends.
    assert resolve_stated_range("here since last Monday", WRITTEN) == DateRange(D(2025, 11, 24), None)
    assert resolve_stated_range("trip Nov 27 to Dec 1, 2025", WRITTEN) == DateRange(
        D(2025, 11, 27), D(2025, 12, 1)
    )


# ------------------------------------------------------------------------------- windows in queries


@pytest.mark.parametrize(
    ("query", "start", "end", "mode", "rest"),
    [
        ("yesterday", D(2025, 11, 26), D(2025, 11, 26), "filter", ""),
        ("what did I do today", D(2025, 11, 27), D(2025, 11, 27), "filter", "what did I do"),
        ("What did I do last week?", D(2025, 11, 17), D(2025, 11, 23), "filter", "What did I do"),
        ("deploys this week", D(2025, 11, 24), D(2025, 11, 30), "filter", "deploys"),
        ("last month invoices", D(2025, 10, 1), D(2025, 10, 31), "filter", "invoices"),
        ("this month", D(2025, 11, 1), D(2025, 11, 30), "filter", ""),
        ("last year trips", D(2024, 1, 1), D(2024, 12, 31), "filter", "trips"),
        ("errors in the last 3 days", D(2025, 11, 24), D(2025, 11, 27), "filter", "errors"),
        ("in the last 2 weeks", D(2025, 11, 13), D(2025, 11, 27), "filter", ""),
        ("past 10 days", D(2025, 11, 17), D(2025, 11, 27), "filter", ""),
        ("over the past week", D(2025, 11, 20), D(2025, 11, 27), "filter", ""),
        ("Peter around Nov 27", D(2025, 11, 24), D(2025, 11, 30), "boost", "Peter"),
        ("around Dec 1", D(2025, 11, 28), D(2025, 12, 4), "boost", ""),  # the nearest Dec 1 (issue 37)
        ("what happened around Dec 1", D(2024, 11, 28), D(2024, 12, 4), "boost", "what happened"),  # the past
        ("what happened on Nov 27?", D(2025, 11, 27), D(2025, 11, 27), "filter", "what happened"),
        ("in November 2025", D(2025, 11, 1), D(2025, 11, 30), "filter", ""),
        ("during November 2025", D(2025, 11, 1), D(2025, 11, 30), "filter", ""),
        ("what was true during November 2025?", D(2025, 11, 1), D(2025, 11, 30), "filter", "what was true"),
        ("since Monday", D(2025, 11, 24), None, "filter", ""),
        ("since Thursday", D(2025, 11, 27), None, "filter", ""),  # today counts
        ("since March", D(2025, 3, 1), None, "filter", ""),
        ("since yesterday", D(2025, 11, 26), None, "filter", ""),
        ("notes in 2024", D(2024, 1, 1), D(2024, 12, 31), "filter", "notes"),
        ("last Tuesday", D(2025, 11, 25), D(2025, 11, 25), "filter", ""),
        ("on Tuesday", D(2025, 11, 25), D(2025, 11, 25), "filter", ""),
        ("before 2025-03-01", None, D(2025, 2, 28), "filter", ""),
        ("after 2025-03-01", D(2025, 3, 2), None, "filter", ""),
        ("until March 2025", None, D(2025, 3, 31), "filter", ""),
        ("from Nov 1 to Nov 5", D(2025, 11, 1), D(2025, 11, 5), "filter", ""),
        ("between 2024-01-01 and 2024-02-01", D(2024, 1, 1), D(2024, 2, 1), "filter", ""),
        ("2 days ago", D(2025, 11, 25), D(2025, 11, 25), "filter", ""),
        ("yesterday's meeting notes", D(2025, 11, 26), D(2025, 11, 26), "filter", "meeting notes"),
        ("what did Peter say (last week)?", D(2025, 11, 17), D(2025, 11, 23), "filter", "what did Peter say"),
        ("in december", D(2025, 12, 1), D(2025, 12, 31), "filter", ""),  # the coming month (issue 37)
        ("what did we do in december", D(2024, 12, 1), D(2024, 12, 31), "filter", "what did we do"),
        ("around the 1st of December", D(2025, 11, 28), D(2025, 12, 4), "boost", ""),
        # A third of a month: its first, middle or last ten days (issue 38).
        ("where was Jonas in mid-October?", D(2025, 10, 11), D(2025, 10, 20), "filter", "where was Jonas"),
        ("what did we do early November", D(2025, 11, 1), D(2025, 11, 10), "filter", "what did we do"),
        ("trips in late February 2024", D(2024, 2, 21), D(2024, 2, 29), "filter", "trips"),
    ],
)
def test_extract_time_window(query: str, start: date | None, end: date | None, mode: str, rest: str) -> None:
    window, remaining = extract_time_window(query, NOW)
    assert window is not None
    assert (window.start, window.end, window.mode) == (start, end, mode)
    assert window.phrase and window.phrase in query
    assert remaining == rest


@pytest.mark.parametrize(
    "query",
    [
        "when did Peter move?",
        "where does Peter live",
        "what may happen next",
        "error 1500 in module v2.3",
        "ERR_CONN_RESET 0x80004005",
        "tell me about @The-Castle",
        "meeting at 5pm",
        "early in the morning",
        "the mid-term review was late",
        "",
    ],
)
def test_extract_time_window_none(query: str) -> None:
    assert extract_time_window(query, NOW) == (None, query)


def test_extract_around_uses_documented_width() -> None:
    window, _ = extract_time_window("around 2025-11-27", NOW)
    assert window == TimeWindow(
        D(2025, 11, 27) - timedelta(days=AROUND_DAYS), D(2025, 11, 27) + timedelta(days=AROUND_DAYS), "boost",
        "around 2025-11-27",
    )  # fmt: skip


def test_extract_since_monday_on_a_monday_is_today() -> None:
    window, _ = extract_time_window("since Monday", datetime(2025, 11, 24, 9))
    assert window is not None and window.start == D(2025, 11, 24)


def test_extract_without_window_imports_nothing_expensive() -> None:
    # The precheck returns the query untouched (not even whitespace-normalised).
    query = "  where   does Peter live "
    assert extract_time_window(query, NOW) == (None, query)


# -------------------------------------------------------------------------------------------- properties

_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200)
_phrasey = st.lists(
    st.sampled_from(
        [
            "Nov", "27", "27th", "–", "-", "to", "Dec", "1,", "2025", "since", "last", "Monday", "in",
            "March", "may", "around", "before", "after", "2025-03-01", "week", "days", "ago", "the",
            "past", "3", "yesterday", "Peter", "on", "from", "between", "and", "of", "1st", "(", ")?",
            "11/27/2025", "Feb", "29", "31", "next", "Friday", "until", "2000", "ms", "@May",
        ]
    ),
    max_size=12,
).map(" ".join)  # fmt: skip
_days = st.dates(min_value=D(1, 1, 1), max_value=D(9999, 12, 31))
_nows = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59))
_fast = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _well_formed(start: date | None, end: date | None) -> bool:
    return start is None or end is None or start <= end


@_fast
@given(st.one_of(_text, _phrasey), st.one_of(st.none(), _days))
def test_resolve_never_raises_and_ranges_are_ordered(text: str, written: date | None) -> None:
    found = resolve_stated_range(text, written)
    assert found is None or (isinstance(found, DateRange) and _well_formed(found.start, found.end))


@_fast
@given(st.one_of(_text, _phrasey), _nows)
def test_extract_never_raises_and_rest_is_a_subsequence(query: str, now: datetime) -> None:
    window, rest = extract_time_window(query, now)
    if window is None:
        assert rest == query
        return
    assert window.mode in ("filter", "boost")
    assert _well_formed(window.start, window.end)
    assert window.phrase in query
    words = iter(query.split())
    assert all(word in words for word in rest.split())  # consumes the iterator: a subsequence test


@_fast
@given(_phrasey, st.dates(min_value=D(1990, 1, 1), max_value=D(2100, 12, 31)))
def test_neutral_words_around_a_phrase_change_nothing(text: str, written: date) -> None:
    assert resolve_stated_range(f"Note: {text} ok", written) == resolve_stated_range(text, written)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=1000), st.sampled_from("hdwmy"))
def test_parse_since_relative_is_never_in_the_future(n: int, unit: str) -> None:
    assert parse_since(f"{n}{unit}", NOW) <= NOW.date()


def test_huge_input_is_fast_enough() -> None:
    text = "Nov 27 2025-11-27 since March last week " * 2000 + "x" * 50_000
    assert resolve_stated_range(text, WRITTEN) is not None
    window, rest = extract_time_window(text, NOW)
    assert window is not None and len(rest) < len(text)


# ------------------------------------------------------------------- day-first, anchored, confidence

@pytest.mark.parametrize(
    ("text", "order", "start", "end"),
    [
        ("met on 21.01.2024", None, D(2024, 1, 21), D(2024, 1, 21)),  # dots: day first, always
        ("met on 21/01/2024", None, D(2024, 1, 21), D(2024, 1, 21)),  # only one reading is a date
        ("met on 01/21/2024", None, D(2024, 1, 21), D(2024, 1, 21)),
        ("met on 03/04/2024", "DMY", D(2024, 4, 3), D(2024, 4, 3)),
        ("met on 03/04/2024", "MDY", D(2024, 3, 4), D(2024, 3, 4)),
        ("met on 2024/01/21", None, D(2024, 1, 21), D(2024, 1, 21)),
        ("21.01.24", None, D(2024, 1, 21), D(2024, 1, 21)),  # two-digit year near the day written
        ("the 21st of January", None, D(2026, 1, 21), D(2026, 1, 21)),  # nearer than last January
        ("January the 21st, 2024", None, D(2024, 1, 21), D(2024, 1, 21)),
        ("On Friday before 10.01.2024", None, D(2024, 1, 5), D(2024, 1, 5)),
        ("the Monday after Nov 20", None, D(2025, 11, 24), D(2025, 11, 24)),
        ("the day before yesterday", None, D(2025, 11, 25), D(2025, 11, 25)),
        ("2 days after Nov 20", None, D(2025, 11, 22), D(2025, 11, 22)),
        ("the week before 2025-11-20", None, D(2025, 11, 13), D(2025, 11, 19)),
        ("the weekend before 2025-11-20", None, D(2025, 11, 15), D(2025, 11, 16)),
        ("last weekend", None, D(2025, 11, 22), D(2025, 11, 23)),
    ],
)
def test_day_first_and_anchored_dates(text: str, order: str | None, start: date, end: date) -> None:
    assert resolve_stated_range(text, WRITTEN, order) == DateRange(start, end)


@pytest.mark.parametrize("text", [
    "Finished 11/22/63 by Stephen King",  # a two-digit year far from the day written: a title
    "the last day of school was a picnic",  # "the last day of X" is a part of X, not a rolling day
    "the past week of the trip",
    "met on 03/04/2024",  # two readings and no date order: a fact states nothing
    "version 1.2.3 and 10.0.1",
    "score 21.5 and 10:30",
])
def test_no_date_in(text: str) -> None:
    assert resolve_stated_range(text, WRITTEN) is None


def test_query_confidence_follows_how_sure_the_reading_is() -> None:
    def confidence(query: str, order: str | None = None) -> float:
        window, _ = extract_time_window(query, NOW, order)
        assert window is not None, query
        return window.confidence

    assert confidence("notes of 2025-11-20") == confidence("on 21.01.2024") == 1.0
    assert DOUBTFUL <= confidence("Nov 20") < 1.0
    assert DOUBTFUL <= confidence("last week") < confidence("Nov 20")
    assert confidence("on Friday") < DOUBTFUL  # which Friday?
    assert confidence("met on 03/04/2025") < DOUBTFUL  # the locale's guess
    assert confidence("met on 03/04/2025", "DMY") == 1.0  # the workspace says
    assert confidence("notes from 1/5/25") < DOUBTFUL  # a two-digit year


def test_a_doubtful_phrase_is_still_found_and_a_title_is_not() -> None:
    assert extract_time_window("11/22/63 ending", NOW) == (None, "11/22/63 ending")
    window, rest = extract_time_window("team lunch on Friday", NOW)  # the nearest Friday (issue 37)
    assert window is not None and window.start == D(2025, 11, 28) and rest == "team lunch"
    window, rest = extract_time_window("what was the team lunch on Friday", NOW)  # asked in the past tense
    assert window is not None and window.start == D(2025, 11, 21)


@pytest.mark.parametrize(("env", "order"), [
    ({}, "MDY"), ({"LANG": "C.UTF-8"}, "MDY"), ({"LANG": "en_US.UTF-8"}, "MDY"), ({"LANG": "en_GB.UTF-8"}, "DMY"),
    ({"LANG": "de_DE.UTF-8"}, "DMY"), ({"LANG": "en_US.UTF-8", "LC_TIME": "de_AT.UTF-8"}, "DMY"),
    ({"LC_ALL": "en_PH.UTF-8", "LANG": "fr_FR.UTF-8"}, "MDY"),
])
def test_default_date_order_comes_from_the_locale(env: dict[str, str], order: str) -> None:
    assert default_date_order(env) == order


def test_date_order_setting() -> None:
    assert date_order_setting(None) is None
    assert date_order_setting({"date_order": "dmy"}) == "DMY"
    with pytest.raises(ValueError, match="date_order"):
        date_order_setting({"date_order": "YMD"})
    with pytest.raises(ValueError, match="unknown key 'order'"):
        date_order_setting({"order": "DMY"})


_wordy = st.lists(st.sampled_from(
    ["a", "two", "day", "days", "ago", "last", "night", "this", "morning", "the", "past", "week", "weekend",
     "next", "previous", "current", "month", "year", "Friday", "before", "after", "yesterday", "today",
     "tonight", "since", "maybe", "market", "in", "of", "school", "on", "March", "decided"]),
    min_size=1, max_size=7).map(" ".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_text, _phrasey, _wordy), st.dates(min_value=D(1990, 1, 1), max_value=D(2100, 12, 31)))
@example("a day ago", D(2025, 11, 27))
@example("maybe two weeks ago", D(2025, 11, 27))
@example("the market last night", D(2025, 11, 27))
@example("this morning", D(2025, 11, 27))
@example("over the past week", D(2025, 11, 27))
@example("next weekend", D(2025, 11, 27))
@example("the previous month", D(2025, 11, 27))
@example("the day before yesterday", D(2025, 11, 27))
@example("the Friday after next week", D(2025, 11, 27))
@example("decided since March", D(2025, 11, 27))
def test_the_cheap_gate_never_hides_a_phrase(text: str, written: date) -> None:
    """The word gate is only a shortcut: without it, the grammar finds the same (or nothing)."""
    import workspace_memory.dates.parse as tp

    gated = resolve_stated_range(text, written), extract_time_window(text, datetime(2025, 11, 27, 9))
    real = tp._precheck
    tp._precheck = lambda _text: True
    try:
        assert (resolve_stated_range(text, written), extract_time_window(text, datetime(2025, 11, 27, 9))) == gated
    finally:
        tp._precheck = real


@pytest.mark.parametrize("text", ["The market was busy", "maybe later", "We decided on the doctor",
                                  "a separate summary of the novel", "junior staff"])
def test_words_that_merely_contain_a_month_skip_the_grammar(text: str) -> None:
    import workspace_memory.dates.parse as tp

    assert not tp._precheck(text)
    assert tp._precheck(text + " in March") and tp._precheck("back on Monday") and tp._precheck("v2")


@pytest.mark.parametrize(("value", "message"), [("20251130", "--date '20251130': expected YYYY-MM-DD"),
                                                ("2025-W48-1", "expected YYYY-MM-DD"), ("30.02.2026", "expected"),
                                                ("2026-02-30", "--date 2026-02-30: no such date")])
def test_a_day_argument_is_yyyy_mm_dd_and_a_real_day(value: str, message: str) -> None:
    from workspace_memory.dates.parse import parse_day
    from workspace_memory.errors import UserError

    with pytest.raises(UserError, match=message):
        parse_day(value, "--date")
    assert parse_day(" 2025-11-30\n") == D(2025, 11, 30)
