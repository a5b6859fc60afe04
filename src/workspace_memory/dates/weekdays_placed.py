"""Which day a weekday written alone in a line of notes means, given the other phrases of the line.

dates.parse finds the phrases; a weekday alone ("Saturday", "am Freitag") would be the nearest such
day to the day the line was written, but the line may say better:
- beside a date of that weekday (only spaces and punctuation between), it is that date's name:
  "Saturday Dec 12", "Dec 12 (Saturday)", written on a Friday, name the 12th, not tomorrow;
- followed by a day of the month alone ("Monday 23:", "Lunes 23:", "Montag, 23.:", a heading or a
  plan's label: the number ends the phrase), it is the nearest day of that number on that weekday;
- inside the week or range the line names, it is that day ("Planned next week: Monday the review",
  "Staying with us Dec 5-7, arriving on Friday evening").
A found phrase is dates.parse._Found (start, end, span_start, span_end), read here by its attributes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

# What may stand between a weekday and the date it names ("Sat, 12 Dec", "12/12 (Sat)").
BETWEEN_NAME_AND_DATE = " \t,.()[]-–—/"


# A day of the month right after a weekday, ending the phrase: "Monday 23:", "Lunes 23 -", "Montag, 23.:",
# "Friday 27)". Never a time ("Monday 9:30", "Friday 10.15") nor a count ("Monday 10 people": a word follows).
_DAY_NUMBER = re.compile(r"[ \t]*,?[ \t]*(\d{1,2})\.?(?=[ \t]*(?:[:;,)\]–—-](?!\d)|$))")
WEEKS_AROUND = 6  # how far from the nearest such weekday a numbered one is looked for


def numbered(text: str, phrase: Any, weekday: int) -> date | None:
    """The day a weekday followed by a day number means ("Monday 23" written Nov 19: Nov 23), or None."""
    m = _DAY_NUMBER.match(text, phrase.end)
    near = phrase.span_start
    if m is None or near is None:
        return None
    number = int(m.group(1))
    days = [near + timedelta(weeks=k) for k in range(-WEEKS_AROUND, WEEKS_AROUND + 1)]
    days = [d for d in days if d.day == number and d.weekday() == weekday]
    return min(days, key=lambda d: abs((d - near).days)) if days else None


def one_day_of(found: Any, weekday: int) -> bool:
    """True when `found` is one day that falls on `weekday` (0 Monday)."""
    day = found.span_start
    return day is not None and day == found.span_end and day.weekday() == weekday


def date_beside(text: str, phrase: Any, weekday: int, others: list[Any]) -> Any | None:
    """The phrase among `others` written right beside `phrase` (a weekday) that is one day of that weekday."""
    for other in others:
        gap = text[min(phrase.end, other.end):max(phrase.start, other.start)]
        if not gap.strip(BETWEEN_NAME_AND_DATE) and one_day_of(other, weekday):
            return other
    return None


def place(text: str, found: list[Any], weekday_alone: Callable[[str], int | None], max_days: int) -> None:
    """Move each weekday alone among `found` (in text order) to the day the line means by it, in place."""
    spans = [f for f in found if f.span_start is not None and f.span_end is not None
             and 1 <= (f.span_end - f.span_start).days < max_days]
    for i, f in enumerate(found):
        weekday = weekday_alone(text[f.start:f.end])
        if weekday is None:
            continue
        named = date_beside(text, f, weekday, [g for g in found[max(i - 1, 0):i + 2] if g is not f])
        day = named.span_start if named is not None else numbered(text, f, weekday)
        if day is not None:
            f.span_start = f.span_end = day
            continue
        for other in spans:
            day = other.span_start + timedelta(days=(weekday - other.span_start.weekday()) % 7)
            if day <= other.span_end:
                f.span_start = f.span_end = day
                break
