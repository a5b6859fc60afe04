"""Which day a weekday written alone in a line of notes means, given the other phrases of the line.

dates.parse finds the phrases; a weekday alone ("Saturday", "am Freitag") would be the nearest such
day to the day the line was written, but the line may say better:
- beside a one-day date (only spaces and punctuation between), it is that date's name: "Saturday Dec
  12", "Dec 12 (Saturday)", written on a Friday, name the 12th, not tomorrow; where the two disagree
  ("Saturday Dec 13", the 13th a Sunday) the date wins: a weekday is more often miswritten than a date;
- followed by a day of the month ("Monday the 23rd", "Monday, the 23rd", "Montag, den 23.", "lundi 23",
  "el lunes 23", "Monday 23:"), it is the nearest day of that number on that weekday; when no such day
  is near, a number written as a day of the month (an ordinal, or after "the": "Monday the 24th")
  still wins, as a date does, while a bare number ("Monday 24") is no date unless the weekday agrees;
- inside the week or range the line names, it is that day ("Planned next week: Monday the review",
  "Staying with us Dec 5-7, arriving on Friday evening").
The other languages reach these rules in English (dates.languages puts "den 23." into "on the 23th",
"el lunes 23" into "on monday 23"), so the patterns here read English and digits only.
A found phrase is dates.parse._Found (start, end, span_start, span_end), read here by its attributes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

# What may stand between a weekday and the date it names ("Sat, 12 Dec", "12/12 (Sat)").
BETWEEN_NAME_AND_DATE = " \t,.()[]-–—/"
_ARTICLE = re.compile(r"\b(?:on|the)\b", re.IGNORECASE)


# A day of the month right after a weekday. Written as one ("the 23rd", "the 23", "23rd", "on the 23th"
# from German "den 23."), it is a day whatever follows; a bare number ("Monday 23:", "Lunes 23 -",
# "Friday 27)", "lundi 23 à 10h") only where it ends the phrase or a time follows it, never a time itself
# ("Monday 9:30", "Friday 10.15") nor a count ("Monday 10 people": a word follows).
_ORDINAL_DAY = re.compile(r"[ \t]*,?[ \t]*(?:(?:on[ \t]+)?the[ \t]+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th))"
                          r"(?![\w:.]\d|\w)")
_BARE_DAY = re.compile(r"[ \t]*,?[ \t]*(\d{1,2})\.?(?=[ \t]*(?:[:;,)\]?!–—-](?!\d)|$)"
                       r"|(?:[ \t]+\w{1,4}){0,2}[ \t]+\d{1,2}(?:(?:[:h.]\d{2}|h)\b|[ \t]*[ap]m\b))")
WEEKS_AROUND = 6  # how far from the nearest such weekday a numbered one is looked for
NUMBERED_CONFIDENCE = 0.8  # a weekday with its day number: as sure as a day without a year ("the 23rd")


def numbered(text: str, phrase: Any, weekday: int) -> tuple[date, int] | None:
    """The day a weekday followed by a day number means ("Monday 23" written Nov 19: Nov 23) and where
    the number ends, or None."""
    near = phrase.span_start
    ordinal = _ORDINAL_DAY.match(text, phrase.end)
    number_at = ordinal or _BARE_DAY.match(text, phrase.end)
    if near is None or number_at is None:
        return None
    number = int(next(g for g in number_at.groups() if g))
    days = [near + timedelta(days=k) for k in range(-7 * WEEKS_AROUND - 6, 7 * WEEKS_AROUND + 7)]
    days = [d for d in days if d.day == number]
    agreeing = [d for d in days if d.weekday() == weekday]
    end = ordinal.end() if ordinal else number_at.end(1)
    if agreeing:
        return min(agreeing, key=lambda d: abs((d - near).days)), end
    if ordinal and days and not _counts_something(text, ordinal.end()):
        return min(days, key=lambda d: abs((d - near).days)), end  # a day of the month written as one wins
    return None


def settled(text: str, phrase: Any, weekday: int, others: list[Any]) -> Any:
    """What a question's or a fact's weekday phrase stands for (dates.parse._find): the date beside it,
    or itself on the day of the number after it, then ending after the number and as sure as a day
    of the month ("on Monday the 23rd": the 23rd, not Monday's words with the 23rd left to search)."""
    named = date_beside(text, phrase, weekday, others)
    if named is not None:
        return named
    placed = numbered(text, phrase, weekday)
    if placed is not None:
        phrase.span_start = phrase.span_end = placed[0]
        phrase.end, phrase.confidence = placed[1], max(phrase.confidence, NUMBERED_CONFIDENCE)
    return phrase


def _counts_something(text: str, at: int) -> bool:
    """A word after an ordinal says what it counts ("Monday the 3rd floor"), as dates.points reads it."""
    from .points import _AFTER_ORDINAL_DAY

    word = re.match(r"[ \t]*([^\W\d_]+)", text[at:])
    return word is not None and word.group(1).lower() not in _AFTER_ORDINAL_DAY


def one_day_of(found: Any, weekday: int) -> bool:
    """True when `found` is one day that falls on `weekday` (0 Monday)."""
    day = found.span_start
    return day is not None and day == found.span_end and day.weekday() == weekday


def date_beside(text: str, phrase: Any, weekday: int, others: list[Any]) -> Any | None:
    """The phrase among `others` written right beside `phrase` (a weekday) that is one day: of that
    weekday, else of any (the date wins over a weekday it disagrees with: "Saturday Dec 13")."""
    beside = [other for other in others if other.span_start is not None and other.span_start == other.span_end
              and _nothing_between(text[min(phrase.end, other.end):max(phrase.start, other.start)])]
    return next((other for other in beside if one_day_of(other, weekday)), beside[0] if beside else None)


def _nothing_between(gap: str) -> bool:
    """Only spaces, punctuation and an article stand between ("Monday, the 23rd of November")."""
    return not _ARTICLE.sub(" ", gap).strip(BETWEEN_NAME_AND_DATE)


def place(text: str, found: list[Any], weekday_alone: Callable[[str], int | None], max_days: int) -> None:
    """Move each weekday alone among `found` (in text order) to the day the line means by it, in place."""
    spans = [f for f in found if f.span_start is not None and f.span_end is not None
             and 1 <= (f.span_end - f.span_start).days < max_days]
    for i, f in enumerate(found):
        weekday = weekday_alone(text[f.start:f.end])
        if weekday is None:
            continue
        named = date_beside(text, f, weekday, [g for g in found[max(i - 1, 0):i + 2] if g is not f])
        placed = numbered(text, f, weekday) if named is None else None
        day = named.span_start if named is not None else placed[0] if placed else None
        if day is not None:
            f.span_start = f.span_end = day
            continue
        for other in spans:
            day = other.span_start + timedelta(days=(weekday - other.span_start.weekday()) % 7)
            if day <= other.span_end:
                f.span_start = f.span_end = day
                break
