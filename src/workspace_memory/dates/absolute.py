"""A relative day phrase given its day beside it: "Moves tomorrow" -> "Moves tomorrow (2026-10-16)".

A line of the daily log is read against the day it was written; a page reflect writes (an entity's
summary, bank/world.md) is read on any later day, where "tomorrow", "next week", "am Freitag",
"morgen", "la semana que viene" say something else. So where reflect copies a fact's text into a
page, each phrase whose day depends on the day it was written gets that day after it, in ISO form,
the person's own words kept ("moves tomorrow (2026-10-16)", "next week (2026-10-19 – 2026-10-25)").
The daily log itself is never touched.

Which phrases: every phrase the grammar finds (dates.parse.find_all, in English and in the language
the text shows: dates.languages.translate) that would mean another day had the text been written a
day or a week later ("tomorrow", "next week", "on Friday", "in 3 days", "vor zwei Wochen"); a date
("Dec 4", "am 4. Dezember", "2026-12-04") means the same and is left as written. Pure and
deterministic: the same text and day give the same result.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from .lean import line_anchor

if TYPE_CHECKING:
    from .languages import Translation

SHIFTS = (timedelta(days=1), timedelta(days=7))  # written this much later, a relative phrase reads otherwise
MAX_CHARS = 2_000  # longer texts are left as written (a fact is one line; limits.MAX_FACT_CHARS is less)


def relative_phrases(text: str, written: date, configured: tuple[str, ...] = ()) -> list[tuple[int, int, date, date]]:
    """(start, end, first day, last day) of each phrase of `text` whose day depends on `written`, in text order."""
    from .languages import TABLES, _shown, translate
    from .parse import _precheck, find_all

    if not text or len(text) > MAX_CHARS or written is None:
        return []
    readings: list[tuple[str, Translation | None, tuple[str, ...]]] = [(text, None, ("en",))]
    codes = tuple(dict.fromkeys((*TABLES, *(c for c in configured if c != "en"))))
    for code in _shown(text, codes, names=True)[:1]:  # the language the text shows most (as dates.languages.named_in)
        translated = translate(text, code)
        if translated is not None and translated.english != text:
            readings.append((translated.english, translated, (code,)))
    out: list[tuple[int, int, date, date]] = []
    for english, translated, lean_codes in readings:
        if not _precheck(english):
            continue

        def spans(day: date, english: str = english, lean_codes: tuple[str, ...] = lean_codes) -> dict:
            return {(f.start, f.end): (f.span_start, f.span_end)
                    for f in find_all(english, line_anchor(day, text, lean_codes), None)
                    if f.span_start is not None and f.span_end is not None}

        now = spans(written)
        later = [spans(written + shift) for shift in SHIFTS]
        for (start, end), (first, last) in now.items():
            if all(other.get((start, end)) == (first, last) for other in later):
                continue  # a date: the same day whenever it was written
            if translated is not None:
                start, end = translated.original(start, end)
            start, end = _trimmed(text, start, end)
            if end > start and not any(s < end and start < e for s, e, _, _ in out):
                out.append((start, end, _plain(first), _plain(last)))
    return sorted(out)


def with_dates(text: str, written: date | None, configured: tuple[str, ...] = ()) -> str:
    """`text` with the day of each relative phrase after it ("moves tomorrow (2026-10-16)"); unchanged
    when it holds none, or already says that day there."""
    if written is None or not text:
        return text
    from .languages import _is_cjk

    out, at = [], 0
    for _start, end, first, last in relative_phrases(text, written, configured):
        days = first.isoformat() if first == last else f"{first.isoformat()} – {last.isoformat()}"
        if text[end:].lstrip().startswith((f"({days}", f"（{days}")):
            continue  # already written beside it (a fact copied from a page, or reflect run twice)
        out += [text[at:end], f"（{days}）" if _is_cjk(text[end - 1]) else f" ({days})"]  # 明天（2026-10-16）
        at = end
    return "".join(out) + text[at:]


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The phrase without the spaces and punctuation a translation's pieces may carry at its edges."""
    while start < end and not text[start].isalnum():
        start += 1
    while end > start and not text[end - 1].isalnum():
        end -= 1
    return start, end


def _plain(day: date) -> date:
    return date(day.year, day.month, day.day)
