"""Dates and time phrases: ``--since`` values, ranges stated in Retain facts, windows in recall queries.

Everything here is a pure function of its text and an explicit reference day; nothing reads the clock.
A phrase is read by a small hand-written grammar over tokens (words, numbers, numeric dates,
punctuation), not by large regular expressions: a cold ``memory recall`` must not spend tens of
milliseconds compiling patterns whenever a question holds a digit. Only one small tokenizer pattern
is compiled, on first use.

Resolution conventions (documented, tested):

- Weeks are ISO weeks, Monday to Sunday. "this week"/"last week"/"next week" are whole weeks; the same
  holds for months and years ("last month" = the previous calendar month); a weekend is Saturday-Sunday.
- "last Tuesday" = the most recent Tuesday strictly before the reference day; "next Friday" = the first
  Friday strictly after it; "this Friday" = the Friday of the reference day's ISO week.
- A bare weekday after a preposition ("since Monday", "on Tuesday") = the most recent such weekday on or
  before the reference day (said on a Monday, "since Monday" means today).
- A date or month without a year ("Nov 27", "since March") = the latest one not after the reference day.
- Numeric dates: ISO ``2024-01-21``; dots are day first (``21.01.2024``); slashes follow the date order
  (``[time] date_order = "DMY" | "MDY"``, by default from the locale: MDY for US-style locales and when
  none is set, DMY otherwise). A reading that is impossible in that order (``21/01/2024`` in MDY) takes
  the other. A two-digit year counts only within ``TWO_DIGIT_YEAR_SPAN`` years of the reference day:
  "11/22/63" said in 2023 is a title, not a date.
- "the 21st of January", "January the 21st", "21 Jan", "Jan 21, 2024" are days.
- "in the last 3 days" / "past 10 days" / "the past week" are rolling: reference day minus N units
  through the reference day. "the last day of school" is no date (a rolling unit followed by "of").
- "N days ago" is that day; "N weeks/months/years ago" is the ISO week/month/year containing that day.
- "the Friday before X" / "Friday after X" is that weekday strictly before/after X; "the day/week before
  X" and "N days after X" count from X. ("On Friday before 10.01.2024" is 5 Jan 2024.)
- "around X" is a boost window: X widened by 3 days on each side.
- "before X" ends the day before X starts; "after X" starts the day after X ends; "until X" ends with X.

Every window found in a query carries a confidence in (0, 1]: a full date is sure (1.0), a date
without a year, a month or "last week" fairly sure, a bare weekday ("on Friday": which one?) or an
ambiguous numeric date doubtful (below ``DOUBTFUL``). Recall uses it to scale how much the window
counts, and keeps the words of a doubtful phrase in its search text.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta

from ..errors import UserError
from ..values import Value
from . import weekdays_placed
from .lean import Anchor, lean, line_anchor
from .points import (
    MONTHS,
    NUMBER_WORDS,
    PARTS_OF_DAY,
    RELATIVE,
    THIRDS,
    WEEKDAYS,
    Point,
    Reader,
    Tok,
    add_months,
    default_date_order,
    latest_day,
    pair,
    span,
    tokenize,
)

__all__ = [
    "AROUND_DAYS",
    "DATE_ORDERS",
    "DOUBTFUL",
    "DateRange",
    "TimeWindow",
    "date_order_setting",
    "languages_setting",
    "default_date_order",
    "extract_time_window",
    "parse_since",
    "find_all",
    "find_phrase",
    "named_times",
    "resolve_stated_range",
]

AROUND_DAYS = 3  # "around Nov 27" boosts Nov 24..Nov 30
DATE_ORDERS = ("DMY", "MDY")
DOUBTFUL = 0.75  # a query window less sure than this keeps its words in the search text
MAX_NAMED_DAYS = 16  # a span a line names that is longer ("in 2024", "last month") is no day it is about

# --------------------------------------------------------------------------------------------- results


# DateRange and TimeWindow are Values, not frozen dataclasses (values.py): a cold recall imports
# this module.
class DateRange(Value):
    """An inclusive range of days; ``None`` on either side means unbounded ("since March" is still true)."""

    __slots__ = ("start", "end")

    def __init__(self, start: date | None, end: date | None) -> None:
        self.start, self.end = start, end


class TimeWindow(Value):
    """A time window understood from a recall query.

    ``mode`` is "filter" (the phrase names exactly this period) or "boost" (the deliberately vague
    "around X"). ``phrase`` is the text that was matched in the query; ``confidence`` how sure the
    reading is (module docstring).
    """

    __slots__ = ("start", "end", "mode", "phrase", "confidence")

    def __init__(self, start: date | None, end: date | None, mode: str, phrase: str,
                 confidence: float = 1.0) -> None:
        self.start, self.end, self.mode, self.phrase, self.confidence = start, end, mode, phrase, confidence

    @property
    def center(self) -> tuple[date, date] | None:
        """The days "around X" is around (X itself), for a boost window; None otherwise."""
        if self.mode != "boost" or self.start is None or self.end is None:
            return None
        return self.start + _AROUND, self.end - _AROUND


# ----------------------------------------------------------------------------------------- a day


def parse_day(value: str, what: str = "day") -> date:
    """A calendar day as YYYY-MM-DD, the one reading of a day argument (the CLI's --date and --day,
    the MCP tools' `day`, the web page's day path and form): "no such date" for 2026-02-30, the
    format otherwise (date.fromisoformat alone would also take 20251130 and 2025-W48-1).
    Raises UserError naming `what`."""
    text = value.strip()
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise UserError(f"{what} {_one_line(value)!r}: expected YYYY-MM-DD")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise UserError(f"{what} {text}: no such date") from None


# ----------------------------------------------------------------------------------------- --since

_SINCE_HELP = "expected 30d, 2w, 6m, 1y, 12h, YYYY-MM-DD, today, yesterday, or ahead: +7d, +2w, +1m, tomorrow"


def parse_since(value: str, now: datetime) -> date:
    """Parse a ``--since``/``--until`` value into a day, relative to ``now``.

    Accepts ``Nh`` (the day of now minus N hours), ``Nd``, ``Nw``, ``Nm`` (calendar months, day clamped),
    ``Ny``, an ISO date ``YYYY-MM-DD`` (an ISO datetime is accepted too and keeps its date), ``today`` and
    ``yesterday``; and the days ahead: ``+Nd``, ``+Nw``, ``+Nm``, ``+Ny`` and ``tomorrow`` (``--until +7d``:
    the coming week). Anything else raises ``ValueError`` with a one-line message.
    """
    text = value.strip().lower() if isinstance(value, str) else ""
    shown = _one_line(value if isinstance(value, str) else repr(value))
    try:
        if text == "today":
            return now.date()
        if text == "yesterday":
            return now.date() - timedelta(days=1)
        if text == "tomorrow":
            return now.date() + timedelta(days=1)
        m = re.fullmatch(r"(\+?)(\d{1,7})\s*([hdwmy])", text)
        if m:
            sign, n, unit = (1 if m.group(1) else -1), int(m.group(2)), m.group(3)
            if unit == "h":
                return (now + sign * timedelta(hours=n)).date()
            today = now.date()
            if unit == "d":
                return today + sign * timedelta(days=n)
            if unit == "w":
                return today + sign * timedelta(weeks=n)
            if unit == "m":
                return add_months(today, sign * n)
            return add_months(today, sign * 12 * n)
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


def date_order_setting(table: Mapping[str, object] | None) -> str | None:
    """The `[time]` table of memory.toml, checked: its `date_order` ("DMY" or "MDY"), None when unset.

    ValueError names the key that is unknown or wrong.
    """
    table = dict(table or {})
    for key in table:
        if key not in ("date_order", "languages"):
            raise ValueError(f"unknown key {key!r}; expected: date_order, languages")
    languages_setting(table)
    value = table.get("date_order")
    if value is None:
        return None
    if not isinstance(value, str) or value.upper() not in DATE_ORDERS:
        raise ValueError(f'date_order must be "DMY" or "MDY", not {value!r}')
    return value.upper()


def languages_setting(table: Mapping[str, object] | None) -> tuple[str, ...] | None:
    """`[time] languages` (["de", "en"]): the languages questions are read in (dates.languages), None when unset.

    ValueError when it is not a list of two- or three-letter language codes.
    """
    value = dict(table or {}).get("languages")
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and re.fullmatch(r"[a-z]{2,3}", v) for v in value):
        raise ValueError(f'languages must be a list of language codes such as ["de", "en"], not {value!r}')
    return tuple(value)


def default_languages(env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """`[time] languages` when unset: English and the locale's language (LC_ALL, LC_TIME, LANG), ("en",
    "de") for de_DE.UTF-8. Here, not in dates.languages: every recall asks, few need that module."""
    env = os.environ if env is None else env
    name = env.get("LC_ALL") or env.get("LC_TIME") or env.get("LANG") or ""
    language = name.split("_")[0].split(".")[0].lower()
    return ("en",) if language in ("", "c", "posix", "en") or not language.isalpha() else ("en", language)


# ------------------------------------------------------------------------------------------- phrases

_RANGE_WORDS = frozenset({"to", "until", "till", "through", "thru"})
_DASHES = frozenset("-–—−")
# Prepositions before a point, and what each does with the point's span (s, e).
_AROUND = timedelta(days=AROUND_DAYS)
_ONE = timedelta(days=1)
_Shape = Callable[[date, date], tuple[date | None, date | None]]
_PREPOSITIONS: dict[str, tuple[_Shape, str, bool]] = {  # word -> (shape, mode, query only)
    "since": (lambda s, e: (s, None), "filter", False),
    "around": (lambda s, e: (s - _AROUND, e + _AROUND), "boost", False),
    "circa": (lambda s, e: (s - _AROUND, e + _AROUND), "boost", False),
    "before": (lambda s, e: (None, s - _ONE), "filter", True),
    "after": (lambda s, e: (e + _ONE, None), "filter", True),
    "until": (lambda s, e: (None, e), "filter", True),
    "till": (lambda s, e: (None, e), "filter", True),
    **{w: (lambda s, e: (s, e), "filter", False) for w in ("in", "during", "on", "over", "within", "throughout")},
}
# "may", "march" and "mar" are also ordinary lowercase words ("I may 3D-print it"): lowercase, they
# count as months only with a year in the phrase or after a preposition.
_AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar"})
_PRECHECK_WORDS = frozenset({*MONTHS, *WEEKDAYS, *RELATIVE, "week", "weeks", "month", "months", "year",
                             "years", "ago", "last", "past", "since", "night", *PARTS_OF_DAY, "weekend"})
# The words a phrase can start with (every rule of _phrases and of points.Reader begins with one, a
# number or a date): the grammar reads no other token, so it is tried at these alone (a line of notes
# has about 17 tokens; trying each cost twice the rest of a full index).
_START_WORDS = frozenset({*MONTHS, *WEEKDAYS, *RELATIVE, *NUMBER_WORDS, *THIRDS, *_PREPOSITIONS, "from", "between",
                          "up", "the", "last", "previous", "this", "current", "next", "past", "day", "week", "weekend"})


class _Found:
    """A phrase found: its character offsets in the text, the days it spans, its mode and confidence.
    (A plain class, like the results above.)"""

    __slots__ = ("start", "end", "span_start", "span_end", "mode", "confidence")

    def __init__(self, start: int, end: int, span_start: date | None, span_end: date | None, mode: str,
                 confidence: float) -> None:
        self.start, self.end, self.span_start, self.span_end = start, end, span_start, span_end
        self.mode, self.confidence = mode, confidence


# A phrase: (first token, index after the last, resolved (start, end, mode) or None, confidence).
_Phrase = tuple[int, int, Callable[[], tuple[date | None, date | None, str] | None], float]


def _phrases(r: Reader, i: int, query: bool, lines: bool = False) -> list[_Phrase]:
    """Every phrase that starts at token i, in rule order (the longest wins later; ties: this order).

    With `lines` (the days a line of notes names, not its stated range), a weekday alone is a day too
    ("moves to Thursday", "Monday the quarterly review"), unless a habit ("every Thursday")."""
    out: list[_Phrase] = []
    base = r.base
    lead = i + 1 if r.word(i, ("from",)) else i
    # "Nov 27-30, 2025" and "27–30 November 2025": one month, two days.
    same = _same_month(r, lead)
    if same:
        end, y, m, d1, d2, conf = same
        out.append((i, end, lambda: _days_of_month(y, m, d1, d2, base), conf))
    first = r.point(lead)
    if first:
        sep = _range_sep(r, first[0])
        second = r.point(sep) if sep else None
        if second and (lead > i or first[1].dated and second[1].dated):
            p1, p2 = first[1], second[1]
            out.append((i, second[0], lambda: _range(p1, p2, base), min(p1.confidence, p2.confidence)))
    if r.word(i, ("between",)):
        a = r.point(i + 1)
        b = r.point(a[0] + 1) if a and r.word(a[0], ("and",)) else None
        if a and b:
            p1, p2 = a[1], b[1]
            out.append((i, b[0], lambda: _range(p1, p2, base), min(p1.confidence, p2.confidence)))
    prep = _preposition(r, i)
    if prep and (query or not _PREPOSITIONS[prep[1]][2]):
        after = r.point(prep[0])
        if after:
            shape, mode, _ = _PREPOSITIONS[prep[1]]
            p = after[1]
            # "since March" is a March gone by, whichever way the rest of the text looks.
            at = Anchor.of(base, -1) if base is not None and prep[1] == "since" else base
            out.append((i, after[0], lambda: _shaped(p, shape, mode, at), p.confidence))
    alone = r.point(i)
    if alone and (not alone[1].bare or lines and alone[1].kind == "weekday" and not r.word(i - 1, _HABIT_WORDS)):
        p = alone[1]
        out.append((i, alone[0], lambda: _shaped(p, lambda s, e: (s, e), "filter", base), p.confidence))
    return out


# "every Thursday" is a habit, not a day; "the Friday evening" the Friday of something else the line names
_HABIT_WORDS = frozenset({"every", "each", "most", "some", "the"})


def _preposition(r: Reader, i: int) -> tuple[int, str] | None:
    if r.word(i, ("up",)) and r.word(i + 1, ("to",)):
        return i + 2, "until"
    if r.word(i, _PREPOSITIONS):
        return i + 1, r.t[i].low
    return None


def _range_sep(r: Reader, i: int) -> int | None:
    """Index after "-", "–", " to ", " until ", ... between two points; None when there is none."""
    t = r.t
    if i < len(t) and t[i].kind == "sym" and t[i].text in _DASHES:
        return i + 1
    if r.word(i, _RANGE_WORDS) and r.spaced(i):
        return i + 1
    return None


def _same_month(r: Reader, i: int) -> tuple[int, int | None, int, int, int, float] | None:
    """(end, year, month, day 1, day 2, confidence) of "Nov 27-30[, 2025]" or "27–30 Nov[ 2025]"."""
    found = r.month(i)
    if found:
        m, j = found
        d1 = r.day(j)
        sep = _range_sep(r, j + 1) if d1 else None
        d2 = r.day(sep) if sep else None
        if d2 is None:
            return None
        end = sep + 1  # type: ignore[operator]
    else:
        d1 = r.day(i)
        sep = _range_sep(r, i + 1) if d1 else None
        d2 = r.day(sep) if sep else None
        month = r.month(sep + 1) if d2 and r.spaced(sep + 1) else None  # type: ignore[operator]
        if month is None:
            return None
        m, end = month
    year = r.year_after(end)
    if year:
        return year[1], year[0], m, d1, d2, 1.0  # type: ignore[return-value]
    return end, None, m, d1, d2, 0.9  # type: ignore[return-value]


def _days_of_month(y: int | None, m: int, d1: int, d2: int, base: date | None) -> tuple[date, date, str] | None:
    if d1 > d2:
        return None
    if y is None:
        first = latest_day(m, d1, base) if base else None
        if first is None:
            return None
        y = first.year
    return date(y, m, d1), date(y, m, d2), "filter"


def _range(p1: Point, p2: Point, base: date | None) -> tuple[date, date, str] | None:
    span = pair(p1, p2, base)
    return (span[0], span[1], "filter") if span else None


def _shaped(p: Point, shape: _Shape, mode: str, base: date | None) -> tuple[date | None, date | None, str] | None:
    days = span(p, base)
    return (*shape(*days), mode) if days else None


def _edges(text: str, tokens: list[Tok], first: int, end: int) -> int | None:
    """The phrase's end offset when tokens [first, end) stand as whole words, else None.

    A phrase may cut a whitespace-separated piece only where the cut-off part is punctuation, e.g.
    "(Nov 27,": so "memory/2025-11-27.md", "x2025-01-01", "@May" or "#2024" are no dates, and removing
    the phrase from a query leaves whole words. A possessive ("yesterday's") belongs to the phrase.
    """
    head, last = tokens[first], tokens[end - 1]
    k = first - 1
    while k >= 0 and tokens[k].chunk == head.chunk:
        if tokens[k].kind != "sym":
            return None
        k -= 1
    if first > 0 and tokens[first - 1].chunk == head.chunk and tokens[first - 1].text in "@#/":
        return None
    stop = last.end
    k = end
    if (k + 1 < len(tokens) and tokens[k].chunk == last.chunk and tokens[k].text in "'’"
            and tokens[k + 1].low == "s" and tokens[k + 1].chunk == last.chunk):
        stop = tokens[k + 1].end
        k += 2
    while k < len(tokens) and tokens[k].chunk == last.chunk:
        if tokens[k].kind != "sym":
            return None
        k += 1
    return stop


def _month_case_ok(tokens: list[Tok], first: int, end: int) -> bool:
    """Lowercase "may"/"march"/"mar" is a month only with a year in the phrase or after a preposition."""
    span = tokens[first:end]
    if not any(t.kind == "word" and t.text in _AMBIGUOUS_MONTHS for t in span):
        return True
    has_year = any(t.kind in ("num", "iso", "numdate") and len(t.text) >= 4 for t in span)
    return has_year or span[0].low in _PREPOSITIONS or span[0].low in ("from", "between", "up")


def _precheck(text: str) -> bool:
    """Cheap gate: a phrase needs a digit or one of the time words, as a word of its own.

    Whole words, as the grammar reads them (dates.points.tokenize): every phrase without a digit holds
    one of _PRECHECK_WORDS as a token. (A substring test let "market", "maybe" and "decided" through
    as "mar", "may" and "dec": most sentences paid for the whole grammar.)
    """
    digit, words = _gate()
    return digit.search(text) is not None or not _PRECHECK_WORDS.isdisjoint(map(str.lower, words.findall(text)))


@functools.cache
def _gate() -> tuple[re.Pattern[str], re.Pattern[str]]:
    return re.compile(r"\d"), re.compile(r"[^\W\d_]+")  # a number's digit and a word, as tokenize reads them


def _candidates(text: str, base: date | None, query: bool, date_order: str | None, lines: bool = False) -> list:
    """Every phrase of the text that stands as whole words: (-length, start, rule order, end, resolve,
    confidence), longest first (ties: the earliest, then rule order)."""
    if not text or not _precheck(text):
        return []
    tokens = tokenize(text)
    reader = Reader(tokens, base, date_order, guess=query, ordinals=query or lines)
    candidates = []
    for i, tok in enumerate(tokens):
        if tok.kind == "sym" or tok.kind == "word" and tok.low not in _START_WORDS:
            continue
        for order, (first, end, resolve, confidence) in enumerate(_phrases(reader, i, query, lines)):
            stop = _edges(text, tokens, first, end)
            if stop is None or not _month_case_ok(tokens, first, end):
                continue
            start = tokens[first].start
            candidates.append((start - stop, start, order, stop, resolve, confidence))
    candidates.sort(key=lambda c: c[:3])
    return candidates


def _resolved(candidate: tuple) -> _Found | None:
    _, start, _, stop, resolve, confidence = candidate
    try:
        result = resolve()
    except (ValueError, OverflowError):  # "Feb 30", or arithmetic past year 1/9999: not a date
        return None
    if result is None:
        return None
    span_start, span_end, mode = (_plain(result[0]), _plain(result[1]), result[2])
    if span_start is not None and span_end is not None and span_start > span_end:
        return None  # "Dec 5–Dec 1": a typo, not a range
    return _Found(start, stop, span_start, span_end, mode, confidence)


def _plain(day: date | None) -> date | None:
    """A day reckoned from an Anchor is an Anchor too (date arithmetic keeps the subclass): a plain date."""
    return day if day is None or type(day) is date else date(day.year, day.month, day.day)


def _find(text: str, base: date | None, query: bool, date_order: str | None) -> _Found | None:
    """The longest phrase that resolves (ties: the earliest, then rule order), or None; a weekday
    beside a date of that weekday gives way to the date ("on Saturday Dec 12": the 12th), and one
    followed by a day number is that day ("on Monday 23:"): weekdays_placed."""
    candidates = _candidates(text, base, query, date_order)
    for candidate in candidates:
        found = _resolved(candidate)
        if found is not None:
            weekday = _weekday_alone(text[found.start:found.end])
            if weekday is None:
                return found
            others = [g for c in candidates if c[1] >= found.end or c[3] <= found.start
                      if (g := _resolved(c)) is not None]
            return weekdays_placed.settled(text, found, weekday, others)
    return None


def find_phrase(text: str, base: date | None, query: bool, date_order: str | None) -> _Found | None:
    """The phrase a question (`query`) or a Retain fact states: the longest that resolves."""
    return _find(text, base, query, date_order)


def find_all(text: str, base: date | None, date_order: str | None, query: bool = False) -> list[_Found]:
    """Every phrase of a line that resolves, none overlapping another, in text order (the longest
    first where two overlap). A weekday alone means the date beside it ("Saturday Dec 12"), else a
    day of the week or range the line names ("Planned next week: Monday the review"): weekdays_placed."""
    found: list[_Found] = []
    for candidate in _candidates(text, base, query, date_order, lines=True):
        if any(candidate[1] < f.end and f.start < candidate[3] for f in found):
            continue
        one = _resolved(candidate)
        if one is not None:
            found.append(one)
    found.sort(key=lambda f: f.start)
    weekdays_placed.place(text, found, _weekday_alone, MAX_NAMED_DAYS)
    return found


def _weekday_alone(phrase: str) -> int | None:
    words = [w.lower() for w in _gate()[1].findall(phrase)]
    words = [w for w in words if w not in ("on", "the")]
    return WEEKDAYS.get(words[0]) if len(words) == 1 else None


# --------------------------------------------------------------------------------------- public API


def resolve_stated_range(text: str, written: date | None, date_order: str | None = None) -> DateRange | None:
    """The time range a Retain fact's text *states*, resolved relative to the day it was written.

    ``written`` may be None (the file name carries no date): then only phrases with a full date or a
    year resolve. Returns None when the text states no time — most facts; numbers such as "1500 chars",
    "v2.3", "3 cats", "at 5pm" or commit ids are not dates. ``date_order`` ("DMY" | "MDY", the
    workspace's ``[time]`` setting) reads slashed dates; without it a slashed date that reads as two
    different days ("03/04/2025") states nothing, so the index never depends on the machine's locale.
    """
    if not isinstance(text, str):
        return None
    found = _find(text, line_anchor(written, text) if written is not None else None, False, date_order)
    return DateRange(found.span_start, found.span_end) if found else None



def named_times(text: str, written: date | None, date_order: str | None = None) -> list[DateRange]:
    """The days a line names in the engine's grammar ("Dec 4 is the API deep-dive", "back on the 23rd",
    "from Dec 4 to Dec 6", "next Tuesday"), resolved against the day it was written (the nearest such
    day, ahead when the line looks ahead: `lean`). Closed spans of at most MAX_NAMED_DAYS days only;
    a habit ("every Sunday") names no day. Without a day written, only dates with a year count."""
    if not isinstance(text, str) or not _precheck(text):
        return []
    base = line_anchor(written, text) if written is not None else None
    out: list[DateRange] = []
    for f in find_all(text, base, date_order):
        if f.span_start is None or f.span_end is None:
            continue
        if f.span_start != f.span_end and _moved(text, f):
            out += [DateRange(f.span_start, f.span_start), DateRange(f.span_end, f.span_end)]
        elif (f.span_end - f.span_start).days < MAX_NAMED_DAYS and DateRange(f.span_start, f.span_end) not in out:
            out.append(DateRange(f.span_start, f.span_end))  # once: a weekday beside its date names it too
    return out


def _moved(text: str, found: _Found) -> bool:
    """"moved my appointment from Nov 27 to Dec 2": two days, not the days between (`MOVED` words of
    lang/timewords/en.py in the four words before "from")."""
    from .. import lang

    if not text[found.start:found.end].lower().startswith("from"):
        return False
    before = text[:found.start].lower().replace("’", "'").split()[-4:]
    moved = getattr(lang.table("timewords", "en"), "MOVED", ())
    return any(word.strip(",.;:") in moved for word in before)


def extract_time_window(query: str, now: datetime,
                        date_order: str | None = None) -> tuple[TimeWindow | None, str]:
    """Find a time phrase in a recall query, resolved against ``now``.

    Returns ``(window, rest)`` where ``rest`` is the query without the phrase (whole words only,
    whitespace collapsed) for searching; without a phrase it is ``(None, query)`` unchanged. Questions
    such as "when did Peter move?" have no window. Without ``date_order``, slashed dates are read in
    the locale's order (``default_date_order``), and an ambiguous one is doubtful.
    """
    if not isinstance(query, str) or not _precheck(query):
        return None, query  # the common case costs a scan of the text and imports nothing
    try:
        today = now.date()
    except (AttributeError, ValueError, OverflowError):
        return None, query
    found = _find(query, Anchor.of(today, lean(query)), True, date_order)
    if found is None:
        return None, query
    kept = [t.group(0) for t in re.finditer(r"\S+", query) if t.end() <= found.start or t.start() >= found.end]
    phrase = query[found.start : found.end].strip()
    window = TimeWindow(found.span_start, found.span_end, found.mode, phrase, found.confidence)
    return window, " ".join(kept)
