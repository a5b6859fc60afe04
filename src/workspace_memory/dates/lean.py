"""Which way a date without a year leans: back, to the nearest such day, or ahead (issue 37).

One rule for questions and for notes: "Dec 4", "the 13th", "Friday", "am 4. Dezember", "12月4日" is the
nearest such day to the day the text is read against (`Anchor`: now for a question, the day a file is
named after for a line), ahead when the text looks ahead, back when a question asks in the past
tense (`lean`, with each language's FUTURE and PAST words from lang/timewords). A line of notes
leans ahead or to the nearest day, never back (`line_lean`); a year-less month in it leans back only
where the line tells of the past (`line_month_lean`: "Moved to Berlin in January", "Ist im Januar
umgezogen"), else to the nearest such month: a line in the present tense states a plan as often as
not ("Switches to Siemens in January", "Wechselt im Januar zu Siemens", "Se cambia en enero").
dates.points resolves the points by it (`line_anchor` makes a line's).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

# A year-less month in a question that looks neither way is ahead only when it is the coming month or
# the one after ("anything in December?", on Nov 18); further off, the one gone by.
MONTHS_AHEAD = 2
# In a line of notes that tells of no past, the nearest such month: ahead up to half a year ("Switches
# to Siemens in January", written in October). Not fitted: the nearest, as for a day.
MONTHS_NEAREST = 6


class Anchor(date):
    """The day a text is read against, and which way a year-less date in it leans (`lean`).

    -1 (the past: the latest such day not after it; a plain `date` leans so), 0 (the nearest such
    day, before or after), +1 (ahead: the earliest not before it). A line of notes leans 0, or +1
    when it looks ahead ("Dentist on Dec 3" written on Nov 20: the coming Dec 3; people note plans
    as often as past events); a question leans by its tense (dates.parse: "what did I do on the 5th"
    -1, "what's on the 13th" +1, "whose birthday is on Friday" 0). A year-less month leaning 0 is
    the coming one only within MONTHS_AHEAD ("bring it back in December", written on Nov 18).
    """

    __slots__ = ("_lean", "_month_lean", "months_ahead")

    @classmethod
    def of(cls, day: date, lean: int | Callable[[], int] = 0, month_lean: int | Callable[[], int] | None = None,
           months_ahead: int = MONTHS_AHEAD) -> Anchor:
        """`lean` may be a function that gives it: read on first use. Most lines that pass the
        grammar's gate hold no phrase that needs it (a digit of "O(c=0.8)" or of a ticket number),
        and reading a line's lean costs a pass over each language's FUTURE and PAST words.
        `month_lean` (default: `lean`) and `months_ahead` are a year-less month's (line_anchor)."""
        made = cls(day.year, day.month, day.day)
        made._lean, made._month_lean, made.months_ahead = lean, month_lean, months_ahead
        return made

    @property
    def lean(self) -> int:
        # An Anchor made by date arithmetic has none: AttributeError, and lean_of reads it as a date.
        value = self._lean
        if not isinstance(value, int):
            value = self._lean = value()
        return value

    @property
    def month_lean(self) -> int:
        value = self._month_lean
        if value is None:
            return self.lean
        if not isinstance(value, int):
            value = self._month_lean = value()
        return value


def line_anchor(day: date, text: str, codes: tuple[str, ...] = ("en",)) -> Anchor:
    """The Anchor a line of notes (or a Retain fact) written on `day` is read against: days lean
    by `line_lean`, a year-less month by `line_month_lean`, to the nearest within MONTHS_NEAREST."""
    return Anchor.of(day, lambda: line_lean(text, codes), lambda: line_month_lean(text, codes), MONTHS_NEAREST)


def month_lean_of(base: date) -> tuple[int, int]:
    """(lean, months ahead) for a year-less month read against `base`; a plain date leans back."""
    return getattr(base, "month_lean", -1), getattr(base, "months_ahead", MONTHS_AHEAD)


def lean_of(base: date) -> int:
    return getattr(base, "lean", -1)


def leaning(candidates: list[date], base: date) -> date | None:
    """The candidate `base` leans to (Anchor): the latest not after it, the nearest, or the first not before it."""
    lean = lean_of(base)
    if lean < 0:
        chosen = [d for d in candidates if d <= base]
        return max(chosen) if chosen else None
    if lean > 0:
        chosen = [d for d in candidates if d >= base]
        return min(chosen) if chosen else None
    return min(candidates, key=lambda d: (abs((d - base).days), d)) if candidates else None


def lean(text: str, codes: tuple[str, ...] = ("en",)) -> int:
    """Which way a question or a line looks: +1 ahead (a future tense, "next", "planned", "what's
    on"), -1 back (a past tense, "ago", "yesterday"), 0 neither; ahead wins where both show ("what
    did we plan for Friday?"). The words are each language's FUTURE and PAST (lang/timewords)."""
    from .. import lang  # lazy: only a text that holds a date reads its language's words

    low = " " + " ".join(text.casefold().replace("’", "'").split()) + " "
    past = False
    for code in codes:
        table = lang.table("timewords", code)
        if table is None:
            continue
        cjk = code in ("zh", "ja", "ko")
        if any(_holds(low, w, cjk) for w in getattr(table, "FUTURE", ())):
            return 1
        past = past or any(_holds(low, w, cjk) for w in getattr(table, "PAST", ()))
    return -1 if past else 0


def line_lean(text: str, codes: tuple[str, ...] = ("en",)) -> int:
    """How a line of notes leans: ahead when it looks ahead, else to the nearest day. Never back: a
    note's past tense is most often the writing down of a plan ("sent the agenda: Dec 4 is the
    deep-dive", "bought tickets for Dec 13"), and the nearest day is the past one for events told
    after the fact."""
    return max(lean(text, codes), 0)


def line_month_lean(text: str, codes: tuple[str, ...] = ("en",)) -> int:
    """How a year-less month in a line of notes leans: +1 when the line looks ahead, -1 when it tells
    of the past (a PAST word, or a past form of its language: each table's NARRATED patterns, "moved",
    "ist ... umgezogen", "se mudó", "a quitté"), else 0 (the nearest such month)."""
    ahead = lean(text, codes)
    if ahead:
        return ahead
    return -1 if any(p.search(text) for code in codes for p in _narrated(code)) else 0


_NARRATED: dict[str, tuple[re.Pattern[str], ...]] = {}


def _narrated(code: str) -> tuple[re.Pattern[str], ...]:
    """A language's NARRATED patterns (lang/timewords), compiled once (none: the rule is neutral)."""
    if code not in _NARRATED:
        from .. import lang

        table = lang.table("timewords", code)
        _NARRATED[code] = tuple(re.compile(p) for p in getattr(table, "NARRATED", ()))
    return _NARRATED[code]


def _holds(low: str, word: str, cjk: bool) -> bool:
    if cjk:
        return word in low
    at = low.find(word)
    while at >= 0:
        before, after = low[at - 1], low[at + len(word):at + len(word) + 1]
        if not before.isalnum() and not (after.isalnum() or after == "'"):
            return True
        at = low.find(word, at + 1)
    return False
