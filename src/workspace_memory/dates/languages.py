"""Time phrases in the model's other languages ("letzte Woche", "el 4 de diciembre", "上周末", "12月4日").

The engine's grammar (dates.parse, dates.points) reads English and numeric dates. A text in another
language is read by the same grammar after its time words are put into English, each language's
words being data in `lang/timewords/<code>.py` (month and weekday names, "gestern", "la semana
pasada", "vor zwei Wochen", "12月4日", habits such as "los domingos"; see that package):

1. **Which languages.** The script says some by itself (Han and kana: Chinese and Japanese; Hangul:
   Korean; Cyrillic: Russian); a Latin-script text needs one of a language's own small words
   (lang.identify's MARKERS: "wer", "qué", "est-ce", "não", "che", "wij"), or one of its month or
   weekday names or relative time words (`lang/timewords/_index.py`; for a question, only when it
   holds a digit, a letter outside ASCII or a marker). `[time] languages` adds its languages, tried
   last. An English text shows none of them and is never read here.
2. **Translate, then read.** `translate` rewrites the text piece by piece (the language's REWRITES
   first, then its words) and keeps where each piece came from; the English grammar finds the
   phrase, and the phrase's place in the original text is the pieces' it covers. So "vom 5. bis 7.
   Dezember" is the range "from 5 to 7 December" and means what it means in English, resolved by the
   same rule (the nearest such day, ahead when the text looks ahead: dates.lean.lean, with the
   language's FUTURE and PAST words).
3. **dateparser** (`search_dates`, the language given) only for a language `[time] languages` names
   that has no word list here (Arabic, Polish, Turkish, ...): it misreads the languages it shares
   with the tables (11月18日 as 2024-12-07, "Sam" and "am" as days, "ENG-4121" as a year), so a
   phrase it returns must stand as whole words, and hold a digit, two words or a word of four
   letters or more.

Costs (CPU, docs/recall.md has the table): a language's words are imported and their patterns
compiled on the first text of that language (about 4-5 ms under load), then about 0.2 ms a text;
dateparser's first call about 0.3 s, then about 2 ms. An English question imports neither, and a
question with no sign of another language stops at step 1 (about 0.03 ms).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from datetime import date, datetime, timedelta

from .. import lang as _lang
from ..lang.identify import languages_of, marker_sets, scripts_of, words_of
from .lean import Anchor, lean, line_anchor
from .parse import DateRange, TimeWindow, default_languages, find_all, find_phrase
from .points import WEEKDAYS as _EN_WEEKDAYS

__all__ = ["default_languages", "extract_window", "languages_of", "named_in", "translate"]

CONFIDENCE = 0.8  # dateparser's readings
# The languages with words in lang/timewords (a test compares this with the package's modules).
TABLES = ("de", "es", "fr", "it", "ja", "ko", "nl", "pt", "ru", "zh")


def _shown(text: str, candidates: tuple[str, ...], names: bool) -> list[str]:
    """The languages of `candidates` the text shows (step 1), the most marked first; then, with
    `names`, those whose month or weekday names or relative time words it holds (`_index.NAMES`)."""
    found = [code for code in scripts_of(text) if code in candidates]
    words = words_of(text)
    marked = sorted(((len(words & markers), code) for code, markers in marker_sets().items()
                     if code in candidates and code not in found), key=lambda x: -x[0])
    found += [code for n, code in marked if n]
    if names and words:
        from ..lang.timewords._index import NAMES

        for word in sorted(words & NAMES.keys()):
            found += [code for code in NAMES[word] if code in candidates and code not in found]
    return found


def index_of_names() -> dict[str, tuple[str, ...]]:
    """{word: languages} for `_index.NAMES`: each table's month and weekday names and the words it puts
    into a relative time word, of four letters or more ("november" too: a question the English grammar
    found no phrase in, "vom 19. bis 23. November", is read as German and Dutch)."""
    relative = {"yesterday", "today", "tomorrow", "last", "next", "this", "week", "weekend", "2 days ago",
                "last night", "this morning"}
    out: dict[str, list[str]] = {}
    for code in TABLES:
        table = _lang.table("timewords", code)
        words = [*getattr(table, "MONTHS", {}), *getattr(table, "WEEKDAYS", {}),
                 *(w for w, english in getattr(table, "WORDS", {}).items() if english in relative)]
        for word in words:
            if len(word) >= 4 and word not in _ENGLISH:
                out.setdefault(word, [])
                if code not in out[word]:
                    out[word].append(code)
    return {word: tuple(codes) for word, codes in sorted(out.items())}


_ENGLISH = frozenset({"pendant", "durante", "mini", "mars"})  # words of the tables people also write in English


def extract_window(text: str, now: datetime, configured: tuple[str, ...], *,
                   fact: bool = False) -> tuple[TimeWindow | None, str]:
    """(window, text without its phrase) for a question in another language; (None, text) without one.

    With `fact`, `text` is a Retain fact and `now` the day it was written: the configured languages
    are tried besides those it shows, and the phrase is resolved as a line's are (the nearest day,
    ahead when the fact looks ahead).
    """
    candidates = tuple(dict.fromkeys((*TABLES, *(c for c in configured if c != "en"))))
    codes = _shown(text, candidates, names=False)
    if fact or codes or not text.isascii() or any(ch.isdigit() for ch in text):
        # A sign of another language, or a digit: its month and weekday names too (one small module).
        codes = _shown(text, candidates, names=True)
    codes += [c for c in configured if c != "en" and c not in codes]  # `[time] languages`: tried last
    if not codes:
        return None, text
    today = now.date()
    for code in codes:
        translated = translate(text, code)
        if translated is None:
            continue
        base = line_anchor(today, text, (code,)) if fact else Anchor.of(today, lean(text, (code,)))
        found = find_phrase(translated.english, base, not fact, None)
        if found is None:
            continue
        start, end = translated.original(found.start, found.end)
        window = TimeWindow(found.span_start, found.span_end, found.mode, text[start:end].strip(), found.confidence)
        return window, _without(text, (start, end))
    for code in codes:
        if code in TABLES or code not in configured:
            continue
        found_dp = _dateparser_window(text, now, code, "current_period" if fact else "past")
        if found_dp is not None:
            return found_dp
    return None, text


def named_in(text: str, written: date | None, date_order: str | None,
             configured: tuple[str, ...] = ()) -> list[DateRange]:
    """The days a line of notes names, in English and in the languages it shows (dates.parse.named_times
    for each): "am 4. Dezember", "le 21 janvier", "12月4日", "next Tuesday"."""
    from .parse import MAX_NAMED_DAYS, named_times

    found = named_times(text, written, date_order)
    if written is None or not text:
        return found
    candidates = tuple(dict.fromkeys((*TABLES, *(c for c in configured if c != "en"))))
    for code in _shown(text, candidates, names=True):
        translated = translate(text, code)
        if translated is None or translated.english == text:
            continue
        base = line_anchor(written, text, (code,))
        for f in find_all(translated.english, base, date_order):
            if f.span_start is None or f.span_end is None or (f.span_end - f.span_start).days >= MAX_NAMED_DAYS:
                continue
            days = DateRange(f.span_start, f.span_end)
            if days not in found:
                found.append(days)
        break  # the language the line shows most
    return found


# ------------------------------------------------------------------------------------- translation


class Translation:
    """A text put into English: `english`, and for each piece (english start, english end, original
    start, original end), so that a phrase found in the English is a phrase of the original."""

    __slots__ = ("english", "pieces")

    def __init__(self, english: str, pieces: list[tuple[int, int, int, int]]) -> None:
        self.english, self.pieces = english, pieces

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original offsets of the English text [start, end)."""
        starts = [p[0] for p in self.pieces]
        first = self.pieces[max(bisect_right(starts, start) - 1, 0)]
        last = self.pieces[max(bisect_right(starts, max(end - 1, start)) - 1, 0)]
        return first[2], last[3]


class _Table:
    """One language's words, compiled: the rewrites and a map of words to English."""

    __slots__ = ("rewrites", "words", "cjk_keys", "names", "numbers", "units", "months", "weekdays")

    def __init__(self, module) -> None:
        self.months: dict[str, int] = getattr(module, "MONTHS", {})
        self.weekdays: dict[str, int] = getattr(module, "WEEKDAYS", {})
        self.numbers: dict[str, int] = getattr(module, "NUMBERS", {})
        self.units: dict[str, str] = getattr(module, "UNITS", {})
        self.words: dict[str, str] = {}
        for name, month in self.months.items():
            if len(name) > 1:
                self.words[name] = _MONTH_NAMES[month - 1]
        for name, weekday in self.weekdays.items():
            if len(name) > 2:
                self.words[name] = _WEEKDAY_NAMES[weekday]
        self.words.update(getattr(module, "WORDS", {}))
        self.cjk_keys = sorted((k for k in self.words if _is_cjk(k[0])), key=len, reverse=True)
        self.names = frozenset(k for k in (*self.months, *self.weekdays) if len(k) > 3)
        fill = {"MONTH": _alternation(self.months), "WEEKDAY": _alternation(self.weekdays),
                "N": r"(\d{1,3}|" + _alternation(self.numbers)[1:] if self.numbers else r"(\d{1,3})",
                "UNIT": _alternation(self.units)}
        self.rewrites = [(re.compile(re.sub(r"\{(MONTH|WEEKDAY|N|UNIT)\}", lambda m: fill[m.group(1)], pattern)),
                          template) for pattern, template in getattr(module, "REWRITES", ())]


# Capitalised: the grammar reads a lower-case "may" or "march" as a month only beside a year or a preposition.
_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December"]
_WEEKDAY_NAMES = sorted(_EN_WEEKDAYS, key=_EN_WEEKDAYS.__getitem__)
_tables: dict[str, _Table | None] = {}


def _alternation(names: dict) -> str:
    return "(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ")" if names else "(?!)"


def _is_cjk(ch: str) -> bool:
    return "\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af"


def _table(code: str) -> _Table | None:
    if code not in _tables:
        module = _lang.table("timewords", code) if code in TABLES else None
        _tables[code] = _Table(module) if module is not None else None
    return _tables[code]


def translate(text: str, code: str) -> Translation | None:
    """The text with the time words of language `code` in English (module docstring, step 2); None
    when the language has no words here."""
    table = _table(code)
    if table is None:
        return None
    flat = text.replace("’", "'")
    low = flat.lower() if len(flat.lower()) == len(flat) else flat
    matches: list[tuple[int, int, str]] = []
    for pattern, template in table.rewrites:
        for m in pattern.finditer(low):
            if m.end() > m.start() and not any(m.start() < e and s < m.end() for s, e, _ in matches):
                matches.append((m.start(), m.end(), _expand(m, template, table)))
    matches.sort()
    out: list[str] = []
    pieces: list[tuple[int, int, int, int]] = []
    at = 0

    def emit(english: str, start: int, end: int) -> None:
        here = sum(len(x) for x in out)
        out.append(english)
        pieces.append((here, here + len(english), start, end))

    for start, end, english in [*matches, (len(flat), len(flat), "")]:
        _words(flat[at:start], low[at:start], at, table, emit)
        if end > start:
            emit(f" {english} " if english else " ", start, end)
        at = end
    return Translation("".join(out), pieces)


_WORD: list[re.Pattern[str]] = []  # compiled on the first text that needs translating


def _word_pattern() -> re.Pattern[str]:
    if not _WORD:
        _WORD.append(re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*|\d+|\s+|.", re.S))
    return _WORD[0]


def _words(text: str, low: str, offset: int, table: _Table, emit) -> None:
    """Emit a stretch of text with each word the table knows in English (CJK: the longest known run)."""
    i = 0
    while i < len(text):
        if _is_cjk(text[i]):
            key = next((k for k in table.cjk_keys if low.startswith(k, i)), None)
            if key is not None:
                emit(f" {table.words[key]} ", offset + i, offset + i + len(key))
                i += len(key)
            else:
                emit(text[i], offset + i, offset + i + 1)
                i += 1
            continue
        m = _word_pattern().match(low, i)
        end = m.end() if m else i + 1
        word = low[i:end]
        english = table.words.get(word)
        emit(text[i:end] if english is None else english, offset + i, offset + end)
        i = end


def _expand(m: re.Match[str], template: str, table: _Table) -> str:
    """A REWRITES template with its groups: {1}, {1:month}, {1:weekday}, {1:num}, {1:unit}, {1:th}."""

    def field(f: re.Match[str]) -> str:
        value, kind = m.group(int(f.group(1))), f.group(2)
        if value is None:
            return ""
        value = value.strip()
        if kind == "month":
            n = table.months.get(value) or _number(value, table.numbers)
            return _MONTH_NAMES[n - 1] if 1 <= n <= 12 else ""
        if kind == "weekday":
            return _WEEKDAY_NAMES[table.weekdays[value]] if value in table.weekdays else ""
        if kind == "num":
            return str(_number(value, table.numbers) or "")
        if kind == "unit":
            return table.units.get(value, "")
        if kind == "th":
            return f"{int(value)}th" if value.isdigit() else ""
        return value

    return re.sub(r"\{(\d)(?::(\w+))?\}", field, template)


def _number(value: str, numbers: dict[str, int]) -> int:
    """A number in digits, a word of the table ("zwölf"), or CJK numerals up to 99 ("十一", "二十"); 0 if none."""
    if value.isdigit():
        return int(value)
    if value in numbers:
        return numbers[value]
    tens, ten, ones = value.partition("十")
    if ten and tens in ("", *numbers) and ones in ("", *numbers):
        return numbers.get(tens, 1) * 10 + numbers.get(ones, 0)
    return 0


# ---------------------------------------------------------------------------------------- dateparser


def _dateparser_window(text: str, now: datetime, lang: str, prefer: str = "past") -> tuple[TimeWindow, str] | None:
    try:
        from dateparser.date import DateDataParser
        from dateparser.search import search_dates
    except ImportError:  # an install without it reads English only
        return None
    base = now.replace(tzinfo=None)
    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": prefer, "RETURN_AS_TIMEZONE_AWARE": False}
    try:
        # Leading punctuation ("    : Zahnarzttermin am 3. Dezember", a fact without its mention) makes
        # dateparser cut the phrase in two ("am 3" as March): it reads the words only.
        found = search_dates(" ".join(text.split()).strip(" :;,-–—"), languages=[lang], settings=settings) or []
    except Exception:  # a parser error is no window, never a failed recall
        return None
    for phrase, when in found:
        if not _worth_reading(phrase) or not _whole_words(text, phrase):
            continue
        try:
            period = DateDataParser(languages=[lang], settings=settings).get_date_data(phrase).period or "day"
        except Exception:
            period = "day"
        start, end = _period(when.date(), period)
        at = text.find(phrase)
        rest = _without(text, (at, at + len(phrase))) if at >= 0 else text
        return TimeWindow(start, end, "filter", phrase.strip(), CONFIDENCE), rest
    return None


def _worth_reading(phrase: str) -> bool:
    """A digit, a CJK character, two words, or a word of four letters or more (module docstring)."""
    if any(ch.isdigit() for ch in phrase) or any("\u3040" <= ch <= "\u9fff" for ch in phrase):
        return True
    words = phrase.split()
    return len(words) >= 2 or (len(words) == 1 and len(words[0]) >= 4)


def _whole_words(text: str, phrase: str) -> bool:
    """The phrase stands as words of its own: not a piece of "ENG-4121", "Sam" or "v2024.1"."""
    at = text.find(phrase.strip())
    if at < 0:
        return True
    before = text[at - 1] if at > 0 else " "
    after = text[at + len(phrase.strip()):][:1] or " "
    return not (before.isalnum() or before in "-_./") and not (after.isalnum() or after in "-_/")


def _period(day: date, period: str) -> tuple[date, date]:
    if period == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=6)
    if period == "month":
        first = day.replace(day=1)
        following = (first + timedelta(days=32)).replace(day=1)
        return first, following - timedelta(days=1)
    if period == "year":
        return date(day.year, 1, 1), date(day.year, 12, 31)
    return day, day


def _without(text: str, span: tuple[int, int]) -> str:
    return " ".join((text[: span[0]] + " " + text[span[1]:]).split())

