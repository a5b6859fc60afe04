"""Which way a date without a year leans: back, to the nearest such day, or ahead (issue 37).

One rule for questions and for notes: "Dec 4", "the 13th", "Friday", "am 4. Dezember", "12月4日" is the
nearest such day to the day the text is read against (`Anchor`: now for a question, the day a file is
named after for a line), ahead when the text looks ahead, back when a question asks in the past
tense (`lean`, with each language's FUTURE and PAST words from lang/timewords). A line of notes
leans ahead or to the nearest day, never back (`line_lean`). dates.points resolves the points by it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

# A year-less month in a text that looks neither way is ahead only when it is the coming month or the
# one after ("bring it back in December", on Nov 18); further off, the one gone by ("moved in March").
MONTHS_AHEAD = 2


class Anchor(date):
    """The day a text is read against, and which way a year-less date in it leans (`lean`).

    -1 (the past: the latest such day not after it; a plain `date` leans so), 0 (the nearest such
    day, before or after), +1 (ahead: the earliest not before it). A line of notes leans 0, or +1
    when it looks ahead ("Dentist on Dec 3" written on Nov 20: the coming Dec 3; people note plans
    as often as past events); a question leans by its tense (dates.parse: "what did I do on the 5th"
    -1, "what's on the 13th" +1, "whose birthday is on Friday" 0). A year-less month leaning 0 is
    the coming one only within MONTHS_AHEAD ("bring it back in December", written on Nov 18).
    """

    __slots__ = ("_lean",)

    @classmethod
    def of(cls, day: date, lean: int | Callable[[], int] = 0) -> Anchor:
        """`lean` may be a function that gives it: read on first use. Most lines that pass the
        grammar's gate hold no phrase that needs it (a digit of "O(c=0.8)" or of a ticket number),
        and reading a line's lean costs a pass over each language's FUTURE and PAST words."""
        made = cls(day.year, day.month, day.day)
        made._lean = lean
        return made

    @property
    def lean(self) -> int:
        # An Anchor made by date arithmetic has none: AttributeError, and lean_of reads it as a date.
        value = self._lean
        if not isinstance(value, int):
            value = self._lean = value()
        return value


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
