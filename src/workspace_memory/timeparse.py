"""Dates and time phrases: ``--since`` values, ranges stated in Retain facts, windows in recall queries.

Everything here is a pure function of its text and an explicit reference day; nothing reads the clock.
Cheap regular-expression rules resolve the common phrases. ``dateparser`` is imported lazily and only for
a phrase the rules *located* but could not resolve ("1st of December", "11/27/2025"), because a cold CLI
must start fast and because dateparser's own search finds "dates" in random words.

Resolution conventions (documented, tested):

- Weeks are ISO weeks, Monday to Sunday. "this week"/"last week"/"next week" are whole weeks; the same
  holds for months and years ("last month" = the previous calendar month).
- "last Tuesday" = the most recent Tuesday strictly before the reference day; "next Friday" = the first
  Friday strictly after it; "this Friday" = the Friday of the reference day's ISO week.
- A bare weekday after a preposition ("since Monday", "on Tuesday") = the most recent such weekday on or
  before the reference day (said on a Monday, "since Monday" means today).
- A date or month without a year ("Nov 27", "since March") = the latest one not after the reference day.
- "in the last 3 days" / "past 10 days" / "the past week" are rolling: reference day minus N units
  through the reference day.
- "N days ago" is that day; "N weeks/months/years ago" is the ISO week/month/year containing that day.
- "around X" is a boost window: X widened by 3 days on each side.
- "before X" ends the day before X starts; "after X" starts the day after X ends; "until X" ends with X.
"""

from __future__ import annotations

import bisect
import calendar
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

__all__ = [
    "AROUND_DAYS",
    "DateRange",
    "TimeWindow",
    "extract_time_window",
    "parse_since",
    "resolve_stated_range",
]

AROUND_DAYS = 3  # "around Nov 27" boosts Nov 24..Nov 30

# --------------------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class DateRange:
    """An inclusive range of days; ``None`` on either side means unbounded ("since March" is still true)."""

    start: date | None
    end: date | None

    def overlaps(self, other_start: date | None, other_end: date | None) -> bool:
        """True when this range and [other_start, other_end] share at least one day (None = unbounded)."""
        return _overlaps(self.start, self.end, other_start, other_end)


@dataclass(frozen=True)
class TimeWindow:
    """A time window understood from a recall query.

    ``mode`` is "filter" (only results inside count) or "boost" (results inside rank higher; used for the
    deliberately vague "around X"). ``phrase`` is the text that was matched in the query.
    """

    start: date | None
    end: date | None
    mode: str
    phrase: str

    def overlaps(self, other_start: date | None, other_end: date | None) -> bool:
        """True when the window and [other_start, other_end] share at least one day (None = unbounded)."""
        return _overlaps(self.start, self.end, other_start, other_end)


def _overlaps(a_start: date | None, a_end: date | None, b_start: date | None, b_end: date | None) -> bool:
    if a_start is not None and b_end is not None and a_start > b_end:
        return False
    return not (b_start is not None and a_end is not None and b_start > a_end)


# ----------------------------------------------------------------------------------------- --since

_SINCE_RE = re.compile(r"(\d{1,7})\s*([hdwmy])")
_SINCE_HELP = "expected 30d, 2w, 6m, 1y, 12h, YYYY-MM-DD, today or yesterday"


def parse_since(value: str, now: datetime) -> date:
    """Parse a ``--since``/``--until`` value into a day, relative to ``now``.

    Accepts ``Nh`` (the day of now minus N hours), ``Nd``, ``Nw``, ``Nm`` (calendar months, day clamped),
    ``Ny``, an ISO date ``YYYY-MM-DD`` (an ISO datetime is accepted too and keeps its date), ``today`` and
    ``yesterday``. Anything else raises ``ValueError`` with a one-line message.
    """
    text = value.strip().lower() if isinstance(value, str) else ""
    shown = _one_line(value if isinstance(value, str) else repr(value))
    try:
        if text == "today":
            return now.date()
        if text == "yesterday":
            return now.date() - timedelta(days=1)
        m = _SINCE_RE.fullmatch(text)
        if m:
            n, unit = int(m.group(1)), m.group(2)
            if unit == "h":
                return (now - timedelta(hours=n)).date()
            today = now.date()
            if unit == "d":
                return today - timedelta(days=n)
            if unit == "w":
                return today - timedelta(weeks=n)
            if unit == "m":
                return _add_months(today, -n)
            return _add_months(today, -12 * n)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}[t ][0-9:.+\-z]+", text):
            return datetime.fromisoformat(text.upper().replace("Z", "+00:00")).date()
    except (ValueError, OverflowError):
        raise ValueError(f'invalid time "{shown}": out of range or not a real date ({_SINCE_HELP})') from None
    raise ValueError(f'invalid time "{shown}": {_SINCE_HELP}')


def _one_line(text: str, limit: int = 40) -> str:
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# ------------------------------------------------------------------------------------ vocabulary

_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
    "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
    "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}  # fmt: skip
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_MAX_COUNT = 5000  # "99999 years ago" is noise, not a date; also keeps date arithmetic far from overflow

_M = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_WD = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
# A day of the month; never the front of "27:30" or "27.5".
_D = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\b(?![:.]\d)"
_Y = r"(?:19|20|21)\d{2}\b(?![:.]\d)"
# A year standing alone ("in 2023") must not be a quantity: "in 2000 ms", "since 2048 tokens".
_UNITS = (
    r"%|ms|s|secs?|seconds?|mins?|minutes?|hrs?|hours?|chars?|characters?|tokens?|bytes?|[kmgt]i?b"
    r"|lines?|words?|items?|rows?|px|files?|users?|steps?|times?|records?|requests?|messages?|people"
    r"|km|m|miles?|euros?|dollars?|usd|eur|points?|pages?|calls?|errors?|entries|entry"
)
_Y_BARE = rf"{_Y}(?!\s*(?:{_UNITS})\b)(?!\s*%)"
_YSEP = r"(?:,\s*|\s+)"
_NUM = r"(?:\d{1,5}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_NUM_NO_ARTICLE = r"(?:\d{1,5}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIT = r"(?:day|week|month|year)"
# An ISO day, optionally with the time of an ISO timestamp (which then belongs to the phrase).
_ISO = (
    r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])"
    r"(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?!\d)"
)
_SEP = r"(?:\s*[-–—−]\s*|\s+(?:to|until|till|through|thru)\s+)"

# Each point form, with named groups for resolution. Order matters inside an alternation (the first
# alternative that matches wins), so longer/more specific forms come first.
_NAMED = {
    "loose": (
        rf"(?P<loose>(?:the\s+)?{_D}\s+of\s+{_M}(?:{_YSEP}{_Y})?|{_M}\s+the\s+{_D}(?:{_YSEP}{_Y})?"
        r"|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})(?![\w/]))"
    ),
    "iso": rf"(?P<iso>{_ISO})",
    "mdy": rf"(?P<mdy_m>{_M})\s*(?P<mdy_d>{_D})(?:{_YSEP}(?P<mdy_y>{_Y}))?",
    "dmy": rf"(?P<dmy_d>{_D})\s+(?P<dmy_m>{_M})(?:{_YSEP}(?P<dmy_y>{_Y}))?",
    "my_y": rf"(?P<myy_m>{_M}){_YSEP}(?P<myy_y>{_Y})",
    "roll": (
        rf"(?:the\s+)?(?:last|past)\s+(?P<roll_n>{_NUM_NO_ARTICLE})\s+(?P<roll_u>{_UNIT})s?\b"
        rf"|the\s+(?:last|past)\s+(?P<roll_u1>{_UNIT})\b|past\s+(?P<roll_u2>{_UNIT})\b"
    ),
    "ago": rf"(?P<ago_n>{_NUM})\s+(?P<ago_u>{_UNIT})s?\s+ago\b",
    "per": rf"(?P<per_q>last|previous|this|current|next)\s+(?P<per_u>{_UNIT})\b",
    "wdq": rf"(?P<wdq_q>last|next|this)\s+(?P<wdq_d>{_WD})",
    "rel": r"(?P<rel>today|yesterday|tomorrow|tonight|last\s+night|this\s+(?:morning|afternoon|evening))\b",
    # Bare forms: only meaningful after a preposition ("since March", "in 2024", "on Tuesday").
    "my": rf"(?P<my_m>{_M})",
    "yr": rf"(?P<yr>{_Y_BARE})",
    "wd": rf"(?P<wd>{_WD})",
}
_DATED = ("iso", "mdy", "dmy", "my_y")
_STANDALONE = ("loose", "iso", "mdy", "dmy", "my_y", "roll", "ago", "per", "wdq", "rel")
_ANY = (*_STANDALONE, "my", "yr", "wd")


def _unnamed(pattern: str) -> str:
    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


def _union(keys: tuple[str, ...], named: bool) -> str:
    parts = [_NAMED[k] if named else _unnamed(_NAMED[k]) for k in keys]
    return "(?:" + "|".join(parts) + ")"


_POINT = _union(_ANY, named=True)
_DATED_U = _union(_DATED, named=False)
_STAND_U = _union(_STANDALONE, named=False)
_ANY_U = _union(_ANY, named=False)

# ------------------------------------------------------------------------------------ date helpers


class _Pending:
    """Marker: the phrase was located but needs dateparser to resolve."""


_PENDING = _Pending()


def _add_months(d: date, n: int) -> date:
    months = d.year * 12 + (d.month - 1) + n
    year, month = divmod(months, 12)
    month += 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def _month_span(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _week_span(d: date) -> tuple[date, date]:
    monday = d - timedelta(days=d.weekday())
    return monday, monday + timedelta(days=6)


def _latest_day(month: int, day: int, base: date) -> date | None:
    """The latest (month, day) not after base; looks back far enough to find a 29 February."""
    for year in range(base.year, base.year - 9, -1):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate <= base:
            return candidate
    return None


def _latest_month_year(month: int, base: date) -> int:
    return base.year if month <= base.month else base.year - 1


def _count(text: str) -> int:
    text = text.lower()
    n = _NUMBER_WORDS[text] if text in _NUMBER_WORDS else int(text)
    if n > _MAX_COUNT:
        raise ValueError("count out of range")
    return n


def _weekday_index(name: str) -> int:
    return _WEEKDAYS.index(name.lower())


def _month_index(token: str) -> int:
    return _MONTHS[token.lower().rstrip(".")]


def _day_number(token: str) -> int:
    return int(re.match(r"\d+", token).group(0))  # type: ignore[union-attr]  # _D always starts with digits


# ---------------------------------------------------------------------------------- point resolution

_Partial = tuple[int | None, int, int | None]  # (year or None, month, day or None)


def _partial(m: re.Match[str]) -> _Partial | None:
    """Year/month/day of an absolute-looking point (ISO, "Nov 27[, 2025]", "27 Nov", "Nov 2025")."""
    g = m.groupdict()
    if g["iso"]:
        d = date.fromisoformat(g["iso"][:10])
        return d.year, d.month, d.day
    if g["mdy_m"]:
        return _opt_int(g["mdy_y"]), _month_index(g["mdy_m"]), _day_number(g["mdy_d"])
    if g["dmy_m"]:
        return _opt_int(g["dmy_y"]), _month_index(g["dmy_m"]), _day_number(g["dmy_d"])
    if g["myy_m"]:
        return int(g["myy_y"]), _month_index(g["myy_m"]), None
    if g["my_m"]:
        return None, _month_index(g["my_m"]), None
    return None


def _opt_int(text: str | None) -> int | None:
    return int(text) if text else None


def _partial_span(p: _Partial, base: date | None) -> tuple[date, date] | None:
    year, month, day = p
    if day is not None:
        if year is None:
            if base is None:
                return None
            found = _latest_day(month, day, base)
            return (found, found) if found else None
        d = date(year, month, day)
        return d, d
    if year is None:
        if base is None:
            return None
        year = _latest_month_year(month, base)
    return _month_span(year, month)


def _resolve_point(text: str, base: date | None, allow_dp: bool) -> tuple[date, date] | _Pending | None:
    """Resolve one point phrase (a day, week, month, year or rolling period) to an inclusive span."""
    m = _compile(_POINT).fullmatch(text.strip())
    if m is None:
        return None
    g = m.groupdict()
    if g["loose"]:
        if not allow_dp:
            return _PENDING
        found = _dateparser_day(g["loose"], base)
        return (found, found) if found else None
    p = _partial(m)
    if p is not None:
        return _partial_span(p, base)
    if g["yr"]:
        return date(int(g["yr"]), 1, 1), date(int(g["yr"]), 12, 31)
    if base is None:
        return None  # everything below is relative to the reference day
    if g["rel"]:
        word = " ".join(g["rel"].lower().split())
        d = base + timedelta(days={"yesterday": -1, "last night": -1, "tomorrow": 1}.get(word, 0))
        return d, d
    if g["per_q"]:
        shift = {"last": -1, "previous": -1, "next": 1}.get(g["per_q"].lower(), 0)
        unit = g["per_u"].lower()
        if unit == "week":
            return _week_span(base + timedelta(weeks=shift))
        if unit == "month":
            moved = _add_months(base, shift)
            return _month_span(moved.year, moved.month)
        return date(base.year + shift, 1, 1), date(base.year + shift, 12, 31)
    if g["wdq_q"]:
        target = _weekday_index(g["wdq_d"])
        q = g["wdq_q"].lower()
        if q == "last":
            d = base - timedelta(days=(base.weekday() - target) % 7 or 7)
        elif q == "next":
            d = base + timedelta(days=(target - base.weekday()) % 7 or 7)
        else:
            d = _week_span(base)[0] + timedelta(days=target)
        return d, d
    if g["wd"]:
        d = base - timedelta(days=(base.weekday() - _weekday_index(g["wd"])) % 7)
        return d, d
    if g["ago_n"]:
        n, unit = _count(g["ago_n"]), g["ago_u"].lower()
        if unit == "day":
            d = base - timedelta(days=n)
            return d, d
        if unit == "week":
            return _week_span(base - timedelta(weeks=n))
        if unit == "month":
            moved = _add_months(base, -n)
            return _month_span(moved.year, moved.month)
        return date(base.year - n, 1, 1), date(base.year - n, 12, 31)
    unit = (g["roll_u"] or g["roll_u1"] or g["roll_u2"] or "").lower()
    if unit:
        n = _count(g["roll_n"]) if g["roll_n"] else 1
        if unit == "day":
            return base - timedelta(days=n), base
        if unit == "week":
            return base - timedelta(weeks=n), base
        return _add_months(base, -n * (12 if unit == "year" else 1)), base
    return None


def _dateparser_day(phrase: str, base: date | None) -> date | None:
    """Last resort for a located date phrase; never called on a whole text."""
    if base is None and not re.search(r"\d{4}|/\d{2}$", phrase):
        return None  # no reference day and no year: a relative guess would be invented, not read
    try:
        import dateparser  # lazy: importing dateparser costs far more than every rule here together
    except ImportError:  # pragma: no cover - dateparser is a declared dependency
        return None
    settings: dict[str, Any] = {"PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}
    if base is not None:
        settings["RELATIVE_BASE"] = datetime.combine(base, time())
    try:
        found = dateparser.parse(phrase, languages=["en"], settings=settings)
    except Exception:  # dateparser raises assorted errors on odd input; an unreadable phrase is "no date"
        return None
    return found.date() if found else None


def _pair(t1: str, t2: str, base: date | None, allow_dp: bool) -> tuple[date, date] | _Pending | None:
    """Resolve "X to Y": a missing year on one side is taken from the other ("Nov 27–Dec 1, 2025")."""
    point = _compile(_POINT)
    m1, m2 = point.fullmatch(t1.strip()), point.fullmatch(t2.strip())
    p1 = _partial(m1) if m1 else None
    p2 = _partial(m2) if m2 else None
    if p1 is not None and p2 is not None:
        (y1, mo1, d1), (y2, mo2, d2) = p1, p2
        key1, key2 = (mo1, d1 or 1), (mo2, d2 or 1)
        if y1 is None and y2 is not None:
            y1 = y2 if key1 <= key2 else y2 - 1
        elif y1 is None:
            first = _partial_span(p1, base)
            if first is None:
                return None
            y1 = first[0].year
        if y2 is None:
            y2 = y1 if key2 >= key1 else y1 + 1
        s1 = _partial_span((y1, mo1, d1), base)
        s2 = _partial_span((y2, mo2, d2), base)
        return (s1[0], s2[1]) if s1 and s2 else None
    r1 = _resolve_point(t1, base, allow_dp)
    r2 = _resolve_point(t2, base, allow_dp)
    if isinstance(r1, _Pending) or isinstance(r2, _Pending):
        return _PENDING
    return (r1[0], r2[1]) if r1 and r2 else None


# ------------------------------------------------------------------------------------------- rules

_Result = tuple[date | None, date | None, str] | _Pending | None
_Handler = Callable[[re.Match[str], "date | None", bool], _Result]


def _same_month(m: re.Match[str], base: date | None, allow_dp: bool) -> _Result:
    month, d1, d2 = _month_index(m["m"]), _day_number(m["d1"]), _day_number(m["d2"])
    if d1 > d2:
        return None
    if m["y"]:
        year = int(m["y"])
    else:
        if base is None:
            return None
        first = _latest_day(month, d1, base)
        if first is None:
            return None
        year = first.year
    return date(year, month, d1), date(year, month, d2), "filter"


def _range(m: re.Match[str], base: date | None, allow_dp: bool) -> _Result:
    span = _pair(m["p1"], m["p2"], base, allow_dp)
    if span is None or isinstance(span, _Pending):
        return span
    return span[0], span[1], "filter"


def _with_point(
    shape: Callable[[date, date], tuple[date | None, date | None]], mode: str = "filter"
) -> _Handler:
    def handler(m: re.Match[str], base: date | None, allow_dp: bool) -> _Result:
        span = _resolve_point(m["p"], base, allow_dp)
        if span is None or isinstance(span, _Pending):
            return span
        return (*shape(*span), mode)

    return handler


_AROUND = timedelta(days=AROUND_DAYS)
_ONE = timedelta(days=1)


@functools.cache
def _compile(pattern: str) -> re.Pattern[str]:
    # Compiling the rules takes tens of milliseconds: pay it on first use, not on import.
    return re.compile(pattern, re.IGNORECASE)


@dataclass(frozen=True)
class _Rule:
    pattern: str
    handler: _Handler
    query_only: bool = False

    @property
    def regex(self) -> re.Pattern[str]:
        return _compile(self.pattern)


def _rule(pattern: str, handler: _Handler, query_only: bool = False) -> _Rule:
    # Phrases start at a word edge (not inside "v2025-11-27", "@May", "#2024") and may end in a
    # possessive ("yesterday's meeting") so that the whole word leaves the query.
    return _Rule(rf"(?<![\w@#/])(?:{pattern})(?:['’]s)?(?!\w)", handler, query_only)


_RULES: tuple[_Rule, ...] = (
    _rule(rf"(?:from\s+)?(?P<m>{_M})\s*(?P<d1>{_D}){_SEP}(?P<d2>{_D})(?:{_YSEP}(?P<y>{_Y}))?", _same_month),
    _rule(rf"(?:from\s+)?(?P<d1>{_D}){_SEP}(?P<d2>{_D})\s+(?P<m>{_M})(?:{_YSEP}(?P<y>{_Y}))?", _same_month),
    _rule(rf"(?:from\s+)?(?P<p1>{_DATED_U}){_SEP}(?P<p2>{_DATED_U})", _range),
    _rule(rf"from\s+(?P<p1>{_ANY_U}){_SEP}(?P<p2>{_ANY_U})", _range),
    _rule(rf"between\s+(?P<p1>{_ANY_U})\s+and\s+(?P<p2>{_ANY_U})", _range),
    _rule(rf"since\s+(?P<p>{_ANY_U})", _with_point(lambda s, e: (s, None))),
    _rule(
        rf"(?:around|circa)\s+(?P<p>{_ANY_U})", _with_point(lambda s, e: (s - _AROUND, e + _AROUND), "boost")
    ),
    _rule(rf"before\s+(?P<p>{_ANY_U})", _with_point(lambda s, e: (None, s - _ONE)), query_only=True),
    _rule(rf"after\s+(?P<p>{_ANY_U})", _with_point(lambda s, e: (e + _ONE, None)), query_only=True),
    _rule(rf"(?:until|till|up\s+to)\s+(?P<p>{_ANY_U})", _with_point(lambda s, e: (None, e)), query_only=True),
    _rule(rf"(?:in|during|on|over|within|throughout)\s+(?P<p>{_ANY_U})", _with_point(lambda s, e: (s, e))),
    _rule(rf"(?P<p>{_STAND_U})", _with_point(lambda s, e: (s, e))),
)
_FACT_RULES = tuple(r for r in _RULES if not r.query_only)

# Cheap gate: a text without any of these cannot contain a phrase the rules resolve.
_PRECHECK_RE = re.compile(
    r"\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday|today|yesterday|tomorrow|tonight|week|month|year|ago|last|past|since|morning"
    r"|afternoon|evening|night)",
    re.IGNORECASE,
)
# "may"/"march"/"mar" are also ordinary lowercase words ("I may 3D-print it"); lowercase, they count
# as months only with a year or after a preposition.
_AMBIGUOUS_MONTH_RE = re.compile(r"(?<![A-Za-z])(?:may|march|mar)(?![A-Za-z])")
_YEAR_IN_RE = re.compile(r"(?:19|20|21)\d{2}")
_PREPOSITION_RE = re.compile(
    r"(?:since|in|during|on|over|within|throughout|around|circa|from|between|before|after|until|till|up)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Found:
    start: int
    end: int
    span_start: date | None
    span_end: date | None
    mode: str


def _find(text: str, base: date | None, rules: tuple[_Rule, ...]) -> _Found | None:
    """The longest located phrase that resolves (ties: the earliest), or None."""
    if not text or not _PRECHECK_RE.search(text):
        return None
    tokens = [(t.start(), t.end()) for t in re.finditer(r"\S+", text)]
    token_starts = [s for s, _ in tokens]
    candidates: list[tuple[int, int, int, re.Match[str], _Rule]] = []
    for order, rule in enumerate(rules):
        for m in rule.regex.finditer(text):
            if _clean_edges(text, m.start(), m.end(), tokens, token_starts) and _month_case_ok(m.group(0)):
                candidates.append((-(m.end() - m.start()), m.start(), order, m, rule))
    candidates.sort(key=lambda c: c[:3])
    for _, _, _, m, rule in candidates:
        result = _apply(rule, m, base, allow_dp=False)
        if isinstance(result, _Pending):
            result = _apply(rule, m, base, allow_dp=True)
        if result is None or isinstance(result, _Pending):
            continue
        start, end, mode = result
        if start is not None and end is not None and start > end:
            continue  # "Dec 5–Dec 1": a typo, not a range
        return _Found(m.start(), m.end(), start, end, mode)
    return None


def _apply(rule: _Rule, m: re.Match[str], base: date | None, allow_dp: bool) -> _Result:
    try:
        return rule.handler(m, base, allow_dp)
    except (ValueError, OverflowError):  # "Feb 30", or arithmetic past year 1/9999: not a date
        return None


def _clean_edges(text: str, start: int, end: int, tokens: list[tuple[int, int]], starts: list[int]) -> bool:
    """A phrase may cut a whitespace token only where the cut-off part is punctuation, e.g. "(Nov 27,".

    This keeps "memory/2025-11-27.md" or "x2025-01-01" from being dates, and guarantees that removing
    the phrase from a query leaves only whole original words.
    """
    i = bisect.bisect_right(starts, start) - 1
    if i >= 0 and tokens[i][0] < start < tokens[i][1]:
        before = text[tokens[i][0] : start]
        if any(ch.isalnum() for ch in before) or before[-1] in "@#/":
            return False
    j = bisect.bisect_right(starts, end - 1) - 1
    if j >= 0 and tokens[j][0] < end < tokens[j][1]:
        after = text[end : tokens[j][1]]
        if any(ch.isalnum() for ch in after):
            return False
    return True


def _month_case_ok(phrase: str) -> bool:
    if not _AMBIGUOUS_MONTH_RE.search(phrase):
        return True
    return bool(_YEAR_IN_RE.search(phrase) or _PREPOSITION_RE.match(phrase))


# --------------------------------------------------------------------------------------- public API


def resolve_stated_range(text: str, written: date | None) -> DateRange | None:
    """The time range a Retain fact's text *states*, resolved relative to the day it was written.

    ``written`` may be None (the file name carries no date): then only phrases with a full date or a
    year resolve. Returns None when the text states no time — most facts; numbers such as "1500 chars",
    "v2.3", "3 cats", "at 5pm" or commit ids are not dates.
    """
    if not isinstance(text, str):
        return None
    found = _find(text, written, _FACT_RULES)
    return DateRange(found.span_start, found.span_end) if found else None


def extract_time_window(query: str, now: datetime) -> tuple[TimeWindow | None, str]:
    """Find a time phrase in a recall query, resolved against ``now``.

    Returns ``(window, rest)`` where ``rest`` is the query without the phrase (whole words only,
    whitespace collapsed) for searching; without a phrase it is ``(None, query)`` unchanged. Questions
    such as "when did Peter move?" have no window.
    """
    if not isinstance(query, str) or not _PRECHECK_RE.search(query):
        return None, query  # the common case costs one regex search and imports nothing
    try:
        today = now.date()
    except (AttributeError, ValueError, OverflowError):
        return None, query
    found = _find(query, today, _RULES)
    if found is None:
        return None, query
    kept = [
        t.group(0) for t in re.finditer(r"\S+", query) if t.end() <= found.start or t.start() >= found.end
    ]
    window = TimeWindow(found.span_start, found.span_end, found.mode, query[found.start : found.end].strip())
    return window, " ".join(kept)
