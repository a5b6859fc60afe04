"""Points in time as people write them, and the days they mean (the grammar under dates.parse).

A text is cut into tokens (ISO dates, numeric dates with dots or slashes, numbers with an optional
ordinal suffix, words, punctuation) by one small pattern, compiled on first use; `Reader` reads a
point at a token ("Nov 27", "the 21st of January", "21.01.2024", "last week", "3 days ago", "the
Friday before X", a bare "March", "2024" or "Tuesday"), and `span` turns it into days. dates.parse
puts points together into phrases ("since X", "X to Y", "around X") and documents the conventions.
"""

from __future__ import annotations

import contextlib
import os
import re
from datetime import date, timedelta

from .lean import leaning, month_lean_of

TWO_DIGIT_YEAR_SPAN = 10  # "1/5/24" said in 2025 is 2024; "11/22/63" is no date
_ONE = timedelta(days=1)

# ---------------------------------------------------------------------------------------- date order

# Territories that write month first (en_US, en_PH, ...); a missing, C or POSIX locale counts as US.
_MDY_TERRITORIES = frozenset({"US", "PH", "FM", "MH", "PW", "PR", "GU", "AS", "MP", "VI", "UM"})


def default_date_order(env: dict[str, str] | None = None) -> str:
    """"MDY" or "DMY" for slashed dates when the workspace does not say: from LC_ALL, LC_TIME or LANG."""
    env = os.environ if env is None else env
    name = env.get("LC_ALL") or env.get("LC_TIME") or env.get("LANG") or ""
    language, _, rest = name.partition("_")
    if not rest or language in ("C", "POSIX"):
        return "MDY"
    return "MDY" if rest[:2].upper() in _MDY_TERRITORIES else "DMY"


# ------------------------------------------------------------------------------------------ tokens

# One small pattern: ISO dates (with an optional time), numeric dates with dots or slashes, numbers
# with an optional ordinal suffix, runs of letters, and any other single character.
_TOKEN_PATTERN = (
    r"(\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)"
    r"|(\d{1,4}[./]\d{1,2}[./]\d{1,4})"
    r"|(\d+)(st|nd|rd|th)?"
    r"|([^\W\d_]+)"
    r"|(\S)"
)
_token_re: re.Pattern[str] | None = None


# Tok and Point are plain classes, not dataclasses: creating a dataclass costs about a
# millisecond at import, and a cold recall imports this module.
class Tok:
    """One token: kind (iso | numdate | num | word | sym), its text and lower-cased text, its offsets,
    the index of the whitespace-separated piece of text it lies in, and whether a number had an
    ordinal suffix ("21st")."""

    __slots__ = ("kind", "text", "low", "start", "end", "chunk", "ordinal")

    def __init__(self, kind: str, text: str, low: str, start: int, end: int, chunk: int,
                 ordinal: bool = False) -> None:
        self.kind, self.text, self.low, self.start, self.end = kind, text, low, start, end
        self.chunk, self.ordinal = chunk, ordinal


def tokenize(text: str) -> list[Tok]:
    global _token_re
    if _token_re is None:
        _token_re = re.compile(_TOKEN_PATTERN, re.IGNORECASE)
    out: list[Tok] = []
    chunk = -1
    for m in _token_re.finditer(text):
        start = m.start()
        if start == 0 or text[start - 1].isspace():
            chunk += 1
        iso, numdate, num, suffix, word, _ = m.groups()
        kind = "iso" if iso else "numdate" if numdate else "num" if num else "word" if word else "sym"
        value = num if num else m.group(0)
        out.append(Tok(kind, value, value.lower(), start, m.end(), chunk, bool(suffix)))
    return out


# ------------------------------------------------------------------------------------ vocabulary

MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
    "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
    "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}  # fmt: skip
WEEKDAYS = {name: i for i, name in enumerate(
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))}
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_UNITS = {"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
          "year": "year", "years": "year"}
_MAX_COUNT = 5000  # "99999 years ago" is noise, not a date; also keeps date arithmetic far from overflow
# After a bare year these make it a quantity: "in 2000 ms", "since 2048 tokens".
_QUANTITY_WORDS = frozenset(
    """ms s sec secs second seconds min mins minute minutes hr hrs hour hours char chars character characters
    token tokens byte bytes kb mb gb tb kib mib gib tib line lines word words item items row rows px file files
    user users step steps time times record records request requests message messages people km m mile miles
    euro euros dollar dollars usd eur point points page pages call calls error errors entries entry""".split()
)
# Words that may follow "the 20th" when it is a day ("on the 20th at noon", "around the 20th or so").
_AFTER_ORDINAL_DAY = frozenset("at and or with when we i you he she they it did was were for to in on about "
                               "before after so this that last next".split())
RELATIVE = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1}
THIRDS = {"early": 0, "mid": 1, "late": 2}  # "mid-October": the month's first, middle or last ten days
PARTS_OF_DAY = frozenset({"morning", "afternoon", "evening"})

# ---------------------------------------------------------------------------------------- points


class Point:
    """One point in time as written: its kind, what it says, how sure the reading is, whether it is
    bare (a month, year or weekday alone: a point only after a preposition).

    kinds: day (y|None, m, d) | month (y|None, m) | year y | weekday i | rel days | part (shift, unit) |
    qweekday (q, i) | roll (n, unit) | ago (n, unit) | anchored (what, sign, n, Point) | mday d (a day of
    an unnamed month, "the 20th") | third (y|None, m, 0|1|2) ("early / mid / late October")
    """

    __slots__ = ("kind", "value", "confidence", "bare")

    def __init__(self, kind: str, value: object, confidence: float, bare: bool = False) -> None:
        self.kind, self.value, self.confidence, self.bare = kind, value, confidence, bare

    @property
    def dated(self) -> bool:
        """A calendar day or month with its year, or a day/month whose year a range can supply."""
        return self.kind in ("day", "month") and not self.bare


class Reader:
    """The grammar over one text's tokens."""

    def __init__(self, tokens: list[Tok], base: date | None, date_order: str | None, guess: bool,
                 ordinals: bool | None = None) -> None:
        self.t = tokens
        self.base = base
        # The order of slashed dates; without one, a guess (queries) or no reading of an ambiguous one.
        self.order = date_order or (default_date_order() if guess else None)
        self.guessed = date_order is None
        self.query = guess if ordinals is None else ordinals  # "the 20th" reads as a day (Reader._ordinal_day)
        self._points: dict[tuple[int, bool], tuple[int, Point] | None] = {}

    def word(self, i: int, words: object) -> bool:
        return i < len(self.t) and self.t[i].kind == "word" and self.t[i].low in words  # type: ignore[operator]

    def spaced(self, i: int) -> bool:
        """Whitespace lies between token i-1 and token i."""
        return 0 < i < len(self.t) and self.t[i].start > self.t[i - 1].end

    def _tight_number_follows(self, i: int) -> bool:
        # "27:30", "27.5": a number glued on with ":" or "." means token i-1 was no day or year.
        t = self.t
        return (i + 1 < len(t) and t[i].kind == "sym" and t[i].text in ":." and not self.spaced(i)
                and not self.spaced(i + 1) and t[i + 1].kind in ("num", "numdate"))

    def day(self, i: int) -> int | None:
        t = self.t
        if i >= len(t) or t[i].kind != "num" or len(t[i].text) > 2 or self._tight_number_follows(i + 1):
            return None
        d = int(t[i].text)
        return d if 1 <= d <= 31 else None

    def year(self, i: int) -> int | None:
        t = self.t
        if (i >= len(t) or t[i].kind != "num" or t[i].ordinal or len(t[i].text) != 4
                or self._tight_number_follows(i + 1)):
            return None
        y = int(t[i].text)
        return y if 1900 <= y <= 2199 else None

    def month(self, i: int) -> tuple[int, int] | None:
        """(month, index after it, a glued-on "." included)."""
        if not self.word(i, MONTHS):
            return None
        m = MONTHS[self.t[i].low]
        i += 1
        if i < len(self.t) and self.t[i].text == "." and not self.spaced(i):
            i += 1
        return m, i

    def year_after(self, i: int) -> tuple[int, int] | None:
        """", 2025" or " 2025" after a day or month: (year, index after it)."""
        if i < len(self.t) and self.t[i].text == ",":
            y = self.year(i + 1)
            return (y, i + 2) if y else None
        y = self.year(i) if self.spaced(i) else None
        return (y, i + 1) if y else None

    def count(self, i: int, articles: bool = True) -> int | None:
        t = self.t
        if i >= len(t):
            return None
        if t[i].kind == "num" and len(t[i].text) <= 5 and not t[i].ordinal:
            n = int(t[i].text)
        elif t[i].kind == "word" and t[i].low in NUMBER_WORDS and (articles or t[i].low not in ("a", "an")):
            n = NUMBER_WORDS[t[i].low]
        else:
            return None
        return n if n <= _MAX_COUNT else None

    # -- points -----------------------------------------------------------------------------------
    def point(self, i: int, anchored: bool = True) -> tuple[int, Point] | None:
        """The point that starts at token i (the longest reading), and the index after it."""
        key = (i, anchored)
        if key not in self._points:
            self._points[key] = self._read_point(i, anchored)
        return self._points[key]

    def _read_point(self, i: int, anchored: bool) -> tuple[int, Point] | None:
        found = self._anchored(i) if anchored else None
        if found is None:
            for reader in (self._numeric, self._day_of_month, self._third, self._month_first, self._day_first,
                           self._ordinal_day, self._relative, self._bare):
                found = reader(i)
                if found is not None:
                    break
        return found

    def _numeric(self, i: int) -> tuple[int, Point] | None:
        if i >= len(self.t) or self.t[i].kind not in ("iso", "numdate"):
            return None
        tok = self.t[i]
        if tok.kind == "iso":
            try:
                d = date.fromisoformat(tok.text[:10])
            except ValueError:
                return None
            return i + 1, Point("day", (d.year, d.month, d.day), 1.0)
        read = _numeric_date(tok.text, self.order, self.guessed, self.base)
        return (i + 1, Point("day", read[0], read[1])) if read else None

    def _day_of_month(self, i: int) -> tuple[int, Point] | None:
        """"(the) 21st of January (2024)"."""
        j = i + 1 if self.word(i, ("the",)) else i
        d = self.day(j)
        if d is None or not self.word(j + 1, ("of",)):
            return None
        found = self.month(j + 2)
        return self._with_year(d, *found) if found else None

    def _month_first(self, i: int) -> tuple[int, Point] | None:
        """"Nov 27", "Nov. 27th, 2025", "January the 21st", "March 2024"."""
        found = self.month(i)
        if found is None:
            return None
        m, j = found
        k = j + 1 if self.word(j, ("the",)) else j
        d = self.day(k)
        if d is not None:
            return self._with_year(d, m, k + 1)
        year = self.year_after(j)
        if year:
            return year[1], Point("month", (year[0], m), 0.9)
        return j, Point("month", (None, m), 0.8, bare=True)

    def _third(self, i: int) -> tuple[int, Point] | None:
        """"mid-October", "early Nov 2025", "late March": a third of a month (a phrase without a preposition)."""
        j = i + 2 if self.word(i, THIRDS) and i + 1 < len(self.t) and self.t[i + 1].text == "-" else i + 1
        found = self._month_first(j) if self.word(i, THIRDS) else None
        if found is None or found[1].kind != "month":
            return None
        return found[0], Point("third", (*found[1].value, THIRDS[self.t[i].low]), found[1].confidence)  # type: ignore[misc]

    def _with_year(self, d: int, m: int, j: int) -> tuple[int, Point]:
        year = self.year_after(j)
        if year:
            return year[1], Point("day", (year[0], m, d), 1.0)
        return j, Point("day", (None, m, d), 0.9)

    def _day_first(self, i: int) -> tuple[int, Point] | None:
        """"27 Nov", "27 November 2025"."""
        d = self.day(i)
        if d is None or not self.spaced(i + 1):
            return None
        found = self.month(i + 1)
        return self._with_year(d, *found) if found else None

    def _ordinal_day(self, i: int) -> tuple[int, Point] | None:
        """"(on / around) the 20th" in a question: the latest 20th up to today. Bare, and not where a
        word says what it counts ("the 20th century", "the 3rd floor"); not read in facts."""
        t = self.t
        if not self.query or not self.word(i, ("the",)) or i + 1 >= len(t) or not t[i + 1].ordinal:
            return None
        d = self.day(i + 1)
        after = t[i + 2] if i + 2 < len(t) else None
        if d is None or after is not None and after.kind == "word" and after.low not in _AFTER_ORDINAL_DAY:
            return None
        return i + 2, Point("mday", d, 0.8, bare=True)

    def _relative(self, i: int) -> tuple[int, Point] | None:
        t = self.t
        if i >= len(t) or t[i].kind not in ("word", "num"):
            return None
        low = t[i].low
        if low in RELATIVE:
            return i + 1, Point("rel", RELATIVE[low], 0.8)
        if low == "last" and self.word(i + 1, ("night",)):
            return i + 2, Point("rel", -1, 0.8)
        if low == "this" and self.word(i + 1, PARTS_OF_DAY):
            return i + 2, Point("rel", 0, 0.8)
        roll = self._rolling(i)
        if roll:
            return roll
        n = self.count(i)
        if n is not None and self.word(i + 1, _UNITS) and self.word(i + 2, ("ago",)):
            return i + 3, Point("ago", (n, _UNITS[t[i + 1].low]), 0.75)
        if low in ("last", "previous", "this", "current", "next"):
            shift = {"last": -1, "previous": -1, "next": 1}.get(low, 0)
            if self.word(i + 1, ("week", "month", "year", "weekend")):
                return i + 2, Point("part", (shift, t[i + 1].low), 0.8)
            if low in ("last", "next", "this") and self.word(i + 1, WEEKDAYS):
                return i + 2, Point("qweekday", (low, WEEKDAYS[t[i + 1].low]), 0.8)
        return None

    def _rolling(self, i: int) -> tuple[int, Point] | None:
        """"(the) last/past 3 days", "the past week", "past week"; not "the last day of school"."""
        j = i + 1 if self.word(i, ("the",)) else i
        if not self.word(j, ("last", "past")):
            return None
        n = self.count(j + 1, articles=False)
        if n is not None and self.word(j + 2, _UNITS):
            end = j + 3
        elif (j > i or self.t[j].low == "past") and self.word(j + 1, ("day", "week", "month", "year")):
            n, end = 1, j + 2
        else:
            return None
        if self.word(end, ("of",)):
            return None  # "the last day of school", "the last week of the trip": a part of something
        return end, Point("roll", (n, _UNITS[self.t[end - 1].low]), 0.8)

    def _bare(self, i: int) -> tuple[int, Point] | None:
        y = self.year(i)
        if y is not None:
            if self._quantity_follows(i + 1):
                return None
            return i + 1, Point("year", y, 0.8, bare=True)
        if self.word(i, WEEKDAYS):
            return i + 1, Point("weekday", WEEKDAYS[self.t[i].low], 0.6, bare=True)
        return None

    def _quantity_follows(self, i: int) -> bool:
        t = self.t
        return i < len(t) and (t[i].low in _QUANTITY_WORDS or t[i].text == "%")

    def _anchored(self, i: int) -> tuple[int, Point] | None:
        """"(the) Friday before X", "the day after X", "the week before X", "2 days after X"."""
        t = self.t
        j = i + 1 if self.word(i, ("the",)) else i
        n = self.count(j, articles=False)
        if n is not None and self.word(j + 1, ("day", "days", "week", "weeks")):
            what: object = _UNITS[t[j + 1].low]
            j += 2
        elif self.word(j, WEEKDAYS):
            what, n, j = WEEKDAYS[t[j].low], 1, j + 1
        elif self.word(j, ("day", "week", "weekend")):
            what, n, j = t[j].low, 1, j + 1
        else:
            return None
        if not self.word(j, ("before", "after")):
            return None
        inner = self.point(j + 1, anchored=False)
        if inner is None or inner[1].bare and inner[1].kind != "month":
            return None
        sign = -1 if t[j].low == "before" else 1
        end, point = inner
        return end, Point("anchored", (what, sign, n, point), min(point.confidence, 0.9))


def _numeric_date(text: str, order: str | None, guessed: bool,
                  base: date | None) -> tuple[tuple[int, int, int], float] | None:
    """((y, m, d), confidence) of "21.01.2024", "1/21/24", "2024/01/21"; None when it is no date.

    Slashes follow `order`; a reading that is impossible in it takes the other. With no order, a
    slashed date that reads as two different days is left alone; a guessed order makes it doubtful.
    """
    sep = "." if "." in text else "/"
    parts = text.split(sep)
    if len(parts) != 3 or any(not p for p in parts):
        return None
    if len(parts[0]) == 4:
        if len(parts[2]) > 2:
            return None
        readings = [(int(parts[0]), int(parts[1]), int(parts[2]))]
        confidence = 1.0
    else:
        if len(parts[0]) > 2 or len(parts[2]) not in (2, 4):
            return None
        a, b, y = int(parts[0]), int(parts[1]), int(parts[2])
        dmy, mdy = (y, b, a), (y, a, b)
        readings = [dmy] if sep == "." else [mdy, dmy] if order == "MDY" else [dmy, mdy]  # dots: day first
        ambiguous = len({r[1:] for r in readings if _valid_day(2000, r[1], r[2])}) > 1
        if ambiguous and order is None:
            return None
        confidence = 0.7 if ambiguous and guessed else 1.0
        if len(parts[2]) == 2:
            if base is None:
                return None  # no reference day: a two-digit year cannot be placed
            century = base.year - base.year % 100
            full = min((century - 100 + y, century + y, century + 100 + y), key=lambda c: abs(c - base.year))
            if abs(full - base.year) > TWO_DIGIT_YEAR_SPAN:
                return None  # "11/22/63": a title, a score, a code; not a date people meant
            readings = [(full, m, d) for _, m, d in readings]
            confidence = min(confidence, 0.6)
    for y, m, d in readings:
        if _valid_day(y, m, d):
            return (y, m, d), confidence
    return None


def _month_days(year: int, month: int) -> int:
    # The day before the next month's first (not calendar.monthrange: `calendar` imports `locale`,
    # about 1.5 ms of a cold recall whose question holds a date).
    return 31 if month == 12 else (date(year, month + 1, 1) - timedelta(days=1)).day


def _valid_day(y: int, m: int, d: int) -> bool:
    return 1 <= m <= 12 and 1 <= d <= _month_days(y, m) if 1 <= y <= 9999 else False


# ---------------------------------------------------------------------------------------- spans


def add_months(d: date, n: int) -> date:
    months = d.year * 12 + (d.month - 1) + n
    year, month = divmod(months, 12)
    month += 1
    return date(year, month, min(d.day, _month_days(year, month)))


def _month_span(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, _month_days(year, month))


def _week_span(d: date) -> tuple[date, date]:
    monday = d - timedelta(days=d.weekday())
    return monday, monday + timedelta(days=6)


def latest_day(month: int, day: int, base: date) -> date | None:
    """The (month, day) `base` leans to (Anchor; a plain date: the latest not after it); looks
    eight years around for a 29 February."""
    found = []
    for year in range(base.year - 8, base.year + 9):
        with contextlib.suppress(ValueError):
            found.append(date(year, month, day))
    return leaning(found, base)


def _latest_month_day(day: int, base: date) -> date | None:
    """The day numbered `day` of a month that `base` leans to (a 31st: only months that have one)."""
    found = []
    for shift in range(-12, 13):
        moved = add_months(base.replace(day=1), shift)
        if day <= _month_days(moved.year, moved.month):
            found.append(moved.replace(day=day))
    return leaning(found, base)


Span = tuple[date, date]


def _partial_span(kind: str, value: tuple, base: date | None) -> Span | None:
    """The span of a day (y|None, m, d) or month (y|None, m); a missing year is the latest not after base."""
    if kind == "day":
        year, month, day = value
        if year is not None:
            return date(year, month, day), date(year, month, day)
        found = latest_day(month, day, base) if base else None
        return (found, found) if found else None
    year, month = value
    if year is None:
        if base is None:
            return None
        lean, months_ahead = month_lean_of(base)
        ahead = base.year if month >= base.month else base.year + 1
        back = base.year if month <= base.month else base.year - 1
        if lean == 0:  # a coming month up to months_ahead ("in December", on Nov 18); else the one gone by
            gap_ahead = (ahead - base.year) * 12 + month - base.month
            year = ahead if 0 < gap_ahead <= months_ahead else back
        else:
            year = ahead if lean > 0 else back
    return _month_span(year, month)


def span(p: Point, base: date | None) -> Span | None:
    """The inclusive span of days a point means, or None (unreadable without a reference day)."""
    if p.kind in ("day", "month"):
        return _partial_span(p.kind, p.value, base)  # type: ignore[arg-type]
    if p.kind == "mday":
        found = _latest_month_day(p.value, base) if base else None  # type: ignore[arg-type]
        return (found, found) if found else None
    if p.kind == "year":
        return date(p.value, 1, 1), date(p.value, 12, 31)  # type: ignore[arg-type]
    if p.kind == "anchored":
        return _anchored_span(p, base)
    if p.kind == "third":
        y, m, third = p.value  # type: ignore[misc]
        month = _partial_span("month", (y, m), base)
        first = month[0] + timedelta(days=10 * third) if month else None
        return (first, month[1] if third == 2 else first + timedelta(days=9)) if month and first else None
    if base is None:
        return None  # everything below is relative to the reference day
    v = p.value
    if p.kind == "rel":
        d = base + timedelta(days=v)  # type: ignore[arg-type]
        return d, d
    if p.kind == "weekday":
        back = base - timedelta(days=(base.weekday() - v) % 7)  # type: ignore[operator]
        d = leaning([back, back + timedelta(days=7)], base) or back
        return d, d
    if p.kind == "qweekday":
        q, target = v  # type: ignore[misc]
        if q == "last":
            d = base - timedelta(days=(base.weekday() - target) % 7 or 7)
        elif q == "next":
            d = base + timedelta(days=(target - base.weekday()) % 7 or 7)
        else:
            d = _week_span(base)[0] + timedelta(days=target)
        return d, d
    if p.kind == "part":
        shift, unit = v  # type: ignore[misc]
        if unit in ("week", "weekend"):
            monday, sunday = _week_span(base + timedelta(weeks=shift))
            return (sunday - _ONE, sunday) if unit == "weekend" else (monday, sunday)
        if unit == "month":
            moved = add_months(base, shift)
            return _month_span(moved.year, moved.month)
        return date(base.year + shift, 1, 1), date(base.year + shift, 12, 31)
    n, unit = v  # type: ignore[misc]
    if p.kind == "ago":
        if unit == "day":
            d = base - timedelta(days=n)
            return d, d
        if unit == "week":
            return _week_span(base - timedelta(weeks=n))
        if unit == "month":
            moved = add_months(base, -n)
            return _month_span(moved.year, moved.month)
        return date(base.year - n, 1, 1), date(base.year - n, 12, 31)
    if unit == "day":  # roll
        return base - timedelta(days=n), base
    if unit == "week":
        return base - timedelta(weeks=n), base
    return add_months(base, -n * (12 if unit == "year" else 1)), base


def _anchored_span(p: Point, base: date | None) -> Span | None:
    what, sign, n, inner = p.value  # type: ignore[misc]
    days = span(inner, base)
    if days is None:
        return None
    edge = days[0] if sign < 0 else days[1]
    if isinstance(what, int):  # a weekday strictly before / after X
        step = (edge.weekday() - what) % 7 or 7 if sign < 0 else (what - edge.weekday()) % 7 or 7
        d = edge + timedelta(days=sign * step)
        return d, d
    if what == "weekend":  # the Saturday and Sunday strictly before / after X
        if sign < 0:
            sunday = edge - timedelta(days=(edge.weekday() - 6) % 7 or 7)
            return sunday - _ONE, sunday
        saturday = edge + timedelta(days=(5 - edge.weekday()) % 7 or 7)
        return saturday, saturday + _ONE
    days = n * (7 if what == "week" else 1)
    if what == "week" and n == 1:  # "the week before X": the 7 days before it
        return (edge - timedelta(days=7), edge - _ONE) if sign < 0 else (edge + _ONE, edge + timedelta(days=7))
    d = edge + timedelta(days=sign * days)
    return d, d


def pair(p1: Point, p2: Point, base: date | None) -> Span | None:
    """"X to Y": a missing year on one side is taken from the other ("Nov 27–Dec 1, 2025")."""
    if p1.dated and p2.dated:
        y1, mo1, d1 = _ymd(p1)
        y2, mo2, d2 = _ymd(p2)
        key1, key2 = (mo1, d1 or 1), (mo2, d2 or 1)
        if y1 is None and y2 is not None:
            y1 = y2 if key1 <= key2 else y2 - 1
        elif y1 is None:
            first = span(p1, base)
            if first is None:
                return None
            y1 = first[0].year
        if y2 is None:
            y2 = y1 if key2 >= key1 else y1 + 1
        s1 = _partial_span(p1.kind, (y1, mo1, d1) if d1 else (y1, mo1), base)
        s2 = _partial_span(p2.kind, (y2, mo2, d2) if d2 else (y2, mo2), base)
        return (s1[0], s2[1]) if s1 and s2 else None
    r1, r2 = span(p1, base), span(p2, base)
    return (r1[0], r2[1]) if r1 and r2 else None


def _ymd(p: Point) -> tuple[int | None, int, int | None]:
    return p.value if p.kind == "day" else (*p.value, None)  # type: ignore[return-value]
