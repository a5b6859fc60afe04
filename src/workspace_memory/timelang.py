"""Time phrases in a question written in another of the model's languages ("letzte Woche", "上周").

The engine's own grammar (timeparse, timepoints) reads English and numeric dates. A question it
finds no time phrase in, and that is written in another language the workspace reads, goes here:

1. **Which languages.** `[time] languages` in memory.toml (default: English and the locale's
   language), narrowed to those the question shows signs of: a Latin-script language needs one of
   its own small words ("was", "qué", "est-ce", "não", "che", "het"); a script says its languages
   by itself (Han and kana: Chinese and Japanese; Hangul: Korean; Cyrillic: Russian and
   Ukrainian; Arabic, Hebrew, Greek, Thai, Devanagari). An English question is never read here.
   (lang.identify.languages_of: telling languages apart is lang's, shared with question understanding.)
2. **Our own rules first**, for the commonest relative phrases, those dateparser misses or reads
   as one day ("hace dos semanas", "la semana pasada", "há duas semanas", "due settimane fa", "la
   semaine dernière", "il y a deux semaines", "на прошлой неделе", "지난주") and those that would
   otherwise load its language data for a phrase as plain as "gestern" or "letzte Woche". Each
   becomes the English phrase it means and goes through the English grammar, so "two weeks ago"
   means the same in every language.
3. **dateparser** (`search_dates`, with the language given) for the rest: "vor drei Tagen", "am 3.
   März", "le 21 janvier", "ontem", "上周", "3月3日". Its reading is a day, a week, a month or a
   year (`DateDataParser`'s period), and the window is that period. A phrase must hold a digit, a
   CJK character, two words or a word of four letters or more: dateparser reads "mit" (German for
   "with") as Wednesday and "Sam" as Saturday. A phrase that means "now" ("jetzt", "ahora") is no
   window.

dateparser is imported on the first question that needs it (0.1-0.4 s with its language data,
then about 2 ms a question); an English question, one with no sign of another language, or one
with neither a digit nor a time word of that language (_TIME_STEMS), never imports it.
The window is evidence, never a filter, with confidence CONFIDENCE, as for the English grammar.
"""

from __future__ import annotations

import os
import re
from datetime import date, datetime, timedelta

from .lang.identify import languages_of
from .timeparse import TimeWindow, extract_time_window

__all__ = ["default_languages", "extract_window", "languages_of"]

CONFIDENCE = 0.8
# The starts of the time words of each language (days, months, "yesterday", "week", "ago", "last"):
# without a digit or one of these, a question holds no time phrase, and dateparser (its language
# data costs 0.1-0.4 s to load) is not asked.
_TIME_STEMS = {
    "de": "gestern heute morgen vorgestern woche monat jahr tag montag dienstag mittwoch donnerstag freitag "
          "samstag sonntag januar februar märz april mai juni juli august september oktober november dezember "
          "letzt vorig nächst",
    "es": "ayer hoy mañana semana mes año día lunes martes miércoles jueves viernes sábado domingo enero febrero "
          "marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre pasad anoche",
    "fr": "hier aujourd demain semaine mois année jour lundi mardi mercredi jeudi vendredi samedi dimanche "
          "janvier février mars avril mai juin juillet août septembre octobre novembre décembre derni prochain",
    "pt": "ontem hoje amanhã semana mês ano dia segunda terça quarta quinta sexta sábado domingo janeiro "
          "fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro passad",
    "it": "ieri oggi domani settimana mese anno giorno lunedì martedì mercoledì giovedì venerdì sabato domenica "
          "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre scors",
    "nl": "gisteren vandaag morgen week maand jaar dag maandag dinsdag woensdag donderdag vrijdag zaterdag "
          "zondag januari februari maart april mei juni juli augustus september oktober november december vorig "
          "geleden",
}
_TIME_STEM_TUPLES = {lang: tuple(words.split()) for lang, words in _TIME_STEMS.items()}
_NUMBERS = {
    "un": 1, "una": 1, "uno": 1, "um": 1, "uma": 1, "une": 1, "dos": 2, "duas": 2, "dois": 2, "due": 2,
    "deux": 2, "tres": 3, "três": 3, "tre": 3, "trois": 3, "cuatro": 4, "quatro": 4, "quattro": 4, "quatre": 4,
    "cinco": 5, "cinque": 5, "cinq": 5, "seis": 6, "sei": 6, "six": 6,
    "einem": 1, "einer": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7,
    "een": 1, "twee": 2, "drie": 3, "vijf": 5, "zes": 6, "zeven": 7,
}
_UNITS = {
    "día": "day", "días": "day", "dia": "day", "dias": "day", "jour": "day", "jours": "day", "giorno": "day",
    "giorni": "day", "semana": "week", "semanas": "week", "semaine": "week", "semaines": "week",
    "settimana": "week", "settimane": "week", "mes": "month", "meses": "month", "mois": "month", "mese": "month",
    "mesi": "month", "año": "year", "años": "year", "ano": "year", "anos": "year", "an": "year", "ans": "year",
    "anno": "year", "anni": "year",
    "tag": "day", "tage": "day", "tagen": "day", "woche": "week", "wochen": "week", "monat": "month",
    "monate": "month", "monaten": "month", "jahr": "year", "jahre": "year", "jahren": "year",
    "dag": "day", "dagen": "day", "week": "week", "weken": "week", "maand": "month", "maanden": "month",
    "jaar": "year", "jaren": "year",
}
_N = r"(\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + ")"
_U = "(" + "|".join(sorted(_UNITS, key=len, reverse=True)) + ")"
# (language, pattern, the English it means: a template over the pattern's groups)
_RULES: tuple[tuple[str, str, str], ...] = (
    ("es", rf"\bhace {_N} {_U}\b", "{0} {1}s ago"),
    ("pt", rf"\bh[áa] {_N} {_U}\b", "{0} {1}s ago"),
    ("fr", rf"\bil y a {_N} {_U}\b", "{0} {1}s ago"),
    ("it", rf"\b{_N} {_U} fa\b", "{0} {1}s ago"),
    ("de", rf"\bvor {_N} {_U}\b", "{0} {1}s ago"),
    ("nl", rf"\b{_N} {_U} geleden\b", "{0} {1}s ago"),
    ("de", r"\b(?:letzte|letzten|vorige|vorigen) woche\b", "last week"),
    ("de", r"\b(?:letzten|vorigen) monat\b", "last month"), ("de", r"\b(?:letztes|voriges) jahr\b", "last year"),
    ("de", r"\bvorgestern\b", "2 days ago"), ("de", r"\bgestern\b", "yesterday"), ("de", r"\bheute\b", "today"),
    ("nl", r"\bvorige week\b", "last week"), ("nl", r"\bvorige maand\b", "last month"),
    ("nl", r"\beergisteren\b", "2 days ago"), ("nl", r"\bgisteren\b", "yesterday"), ("nl", r"\bvandaag\b", "today"),
    ("es", r"\banteayer\b", "2 days ago"), ("es", r"\bayer\b", "yesterday"), ("es", r"\bhoy\b", "today"),
    ("pt", r"\banteontem\b", "2 days ago"), ("pt", r"\bontem\b", "yesterday"), ("pt", r"\bhoje\b", "today"),
    ("fr", r"\bavant-hier\b", "2 days ago"), ("fr", r"\bhier\b", "yesterday"),
    ("fr", r"\baujourd'hui\b", "today"),
    ("it", r"\bl'altro ieri\b", "2 days ago"), ("it", r"\bieri\b", "yesterday"), ("it", r"\boggi\b", "today"),
    ("es", r"\b(?:la )?semana pasada\b", "last week"), ("es", r"\b(?:el )?mes pasado\b", "last month"),
    ("es", r"\b(?:el )?año pasado\b", "last year"),
    ("pt", r"\b(?:na |a )?semana passada\b", "last week"), ("pt", r"\b(?:no |o )?mês passado\b", "last month"),
    ("fr", r"\b(?:la )?semaine dernière\b", "last week"), ("fr", r"\b(?:le )?mois dernier\b", "last month"),
    ("fr", r"\b(?:l')?année dernière\b", "last year"),
    ("it", r"\b(?:la )?settimana scorsa\b", "last week"), ("it", r"\b(?:il )?mese scorso\b", "last month"),
    ("ru", r"на прошлой неделе", "last week"), ("ru", r"в прошлом месяце", "last month"),
    ("ko", r"지난\s?주", "last week"), ("ko", r"지난\s?달", "last month"),
)
_NOW_WORDS = frozenset("jetzt ahora maintenant agora ora adesso nu сейчас 现在 今 지금".split())
_compiled: dict[str, list[tuple[re.Pattern[str], str]]] = {}


def default_languages(env: dict[str, str] | None = None) -> tuple[str, ...]:
    """English and the locale's language (LC_ALL, LC_TIME, LANG): ("en", "de") for de_DE.UTF-8."""
    env = os.environ if env is None else env
    name = env.get("LC_ALL") or env.get("LC_TIME") or env.get("LANG") or ""
    language = name.split("_")[0].split(".")[0].lower()
    return ("en",) if language in ("", "c", "posix", "en") or not language.isalpha() else ("en", language)


def extract_window(text: str, now: datetime, configured: tuple[str, ...], *,
                   fact: bool = False) -> tuple[TimeWindow | None, str]:
    """(window, text without its phrase) for a question in another language; (None, text) without one.

    With `fact`, `text` is a Retain fact and `now` the day it was written: every configured
    language is tried (a fact is short and holds none of a question's small words), a date without a
    year is the nearest one ("am 3. Dezember" written on Nov 20 is the coming Dec 3), and only
    languages whose time words it holds go to dateparser.
    """
    languages = languages_of(text, configured, every_configured=fact)
    if not languages:
        return None, text
    low = text.casefold()
    for lang in languages:
        for pattern, english in _rules(lang):
            m = pattern.search(low)
            if m is None:
                continue
            groups = [str(_NUMBERS.get(g, g)) if g not in _UNITS else _UNITS[g] for g in m.groups()]
            window, _ = extract_time_window(english.format(*groups), now)
            if window is not None:
                phrase = text[m.start():m.end()]
                return TimeWindow(window.start, window.end, window.mode, phrase, CONFIDENCE), _without(text, m.span())
    words = re.findall(r"[^\W\d_]+", low)
    for lang in languages:
        stems = _TIME_STEM_TUPLES.get(lang)
        if stems is not None and not _holds_time_word(text, words, stems, strict=fact):
            continue  # no time word of this language: no need to load dateparser's data for it
        found = _dateparser_window(text, now, lang, "current_period" if fact else "past")
        if found is not None:
            return found
    return None, text


def _rules(lang: str) -> list[tuple[re.Pattern[str], str]]:
    if lang not in _compiled:
        _compiled[lang] = [(re.compile(p), e) for lg, p, e in _RULES if lg == lang]
    return _compiled[lang]


def _holds_time_word(text: str, words: list[str], stems: tuple[str, ...], strict: bool) -> bool:
    """A digit or a time word of the language; `strict` (facts, whose language is not known): a
    word equal to a stem, or starting with one of four letters or more ("maintain" is no "mai")."""
    if not strict:
        return any(ch.isdigit() for ch in text) or any(w.startswith(stems) for w in words)
    return any(w in stems or any(len(s) >= 4 and w.startswith(s) for s in stems) for w in words)


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
        if not _worth_reading(phrase) or phrase.strip().casefold() in _NOW_WORDS:
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

