"""Time phrases in the model's languages (issue 37): lang/timewords, read through the English grammar.

Relative phrases, dates with month names and ordinals, ranges, habits and identifiers, in en, de, es,
fr, pt, it, nl, zh and ja; which way a year-less date leans; the tables' own consistency.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, datetime

import pytest

from workspace_memory import lang
from workspace_memory.dates.languages import TABLES, extract_window, index_of_names, named_in, translate
from workspace_memory.dates.lean import lean
from workspace_memory.dates.parse import extract_time_window, named_times

NOW = datetime(2025, 11, 26, 18)  # a Wednesday
D = date

# (question, (start, end)): each language's relative phrases, month names, ordinals and ranges.
QUESTIONS = [
    # German
    ("Was habe ich gestern gemacht?", (D(2025, 11, 25), D(2025, 11, 25))),
    ("Was war letzte Woche?", (D(2025, 11, 17), D(2025, 11, 23))),
    ("Was war letztes Wochenende los?", (D(2025, 11, 22), D(2025, 11, 23))),
    ("Was habe ich vor zwei Wochen gemacht?", (D(2025, 11, 10), D(2025, 11, 16))),
    ("Was ist am Montag passiert?", (D(2025, 11, 24), D(2025, 11, 24))),
    ("Was ist diese Woche los?", (D(2025, 11, 24), D(2025, 11, 30))),
    ("Was ist für nächste Woche geplant?", (D(2025, 12, 1), D(2025, 12, 7))),
    ("Was steht am 4. Dezember an?", (D(2025, 12, 4), D(2025, 12, 4))),
    ("Was ist am 5. passiert?", (D(2025, 11, 5), D(2025, 11, 5))),
    ("Wer ist vom 15. bis 19. Dezember weg?", (D(2025, 12, 15), D(2025, 12, 19))),
    # Spanish
    ("¿Qué hice ayer?", (D(2025, 11, 25), D(2025, 11, 25))),
    ("¿Qué pasó el fin de semana pasado?", (D(2025, 11, 22), D(2025, 11, 23))),
    ("¿Qué hice hace dos semanas?", (D(2025, 11, 10), D(2025, 11, 16))),
    ("¿Qué hay planeado para la semana que viene?", (D(2025, 12, 1), D(2025, 12, 7))),
    ("¿Qué hay el 13?", (D(2025, 12, 13), D(2025, 12, 13))),  # "qué hay": ahead
    ("¿Qué pasó el día 5?", (D(2025, 11, 5), D(2025, 11, 5))),  # "pasó": back
    ("¿Qué hice entre el 10 y el 12 de noviembre?", (D(2025, 11, 10), D(2025, 11, 12))),
    # French
    ("Qu'est-ce que j'ai fait hier ?", (D(2025, 11, 25), D(2025, 11, 25))),
    ("Que s'est-il passé le week-end dernier ?", (D(2025, 11, 22), D(2025, 11, 23))),
    ("Qu'est-ce qui est prévu la semaine prochaine ?", (D(2025, 12, 1), D(2025, 12, 7))),
    ("Qu'est-ce qu'il y a mardi prochain ?", (D(2025, 12, 2), D(2025, 12, 2))),
    ("Que s'est-il passé le 18 novembre ?", (D(2025, 11, 18), D(2025, 11, 18))),
    ("Qu'est-ce qu'il y a le 13 ?", (D(2025, 12, 13), D(2025, 12, 13))),
    ("Qui est absent du 15 au 19 décembre ?", (D(2025, 12, 15), D(2025, 12, 19))),
    # Portuguese, Italian, Dutch
    ("O que aconteceu ontem?", (D(2025, 11, 25), D(2025, 11, 25))),
    ("O que fizemos na semana passada?", (D(2025, 11, 17), D(2025, 11, 23))),
    ("O que há no dia 2 de dezembro?", (D(2025, 12, 2), D(2025, 12, 2))),
    ("Cosa è successo due settimane fa?", (D(2025, 11, 10), D(2025, 11, 16))),
    ("Cosa abbiamo fatto lo scorso fine settimana?", (D(2025, 11, 22), D(2025, 11, 23))),
    ("Cosa c'è il 4 dicembre?", (D(2025, 12, 4), D(2025, 12, 4))),
    ("Wat hebben we vorige week gedaan?", (D(2025, 11, 17), D(2025, 11, 23))),
    ("Wat is er op 4 december?", (D(2025, 12, 4), D(2025, 12, 4))),
    ("Wat gebeurde er twee weken geleden?", (D(2025, 11, 10), D(2025, 11, 16))),
    # Chinese and Japanese
    ("11月18日发生了什么？", (D(2025, 11, 18), D(2025, 11, 18))),  # dateparser read 2024-12-07
    ("12月5日我会在哪里？", (D(2025, 12, 5), D(2025, 12, 5))),  # and 2024-11-20
    ("上周末发生了什么？", (D(2025, 11, 22), D(2025, 11, 23))),  # the weekend, not the whole week
    ("两周前我做了什么？", (D(2025, 11, 10), D(2025, 11, 16))),
    ("下周二有什么安排？", (D(2025, 12, 2), D(2025, 12, 2))),
    ("13号有什么安排？", (D(2025, 12, 13), D(2025, 12, 13))),
    ("12月15日到19日谁不在？", (D(2025, 12, 15), D(2025, 12, 19))),
    ("先週末は何をした？", (D(2025, 11, 22), D(2025, 11, 23))),
    ("来週の予定は？", (D(2025, 12, 1), D(2025, 12, 7))),
    ("12月4日に何がある？", (D(2025, 12, 4), D(2025, 12, 4))),
]


@pytest.mark.parametrize(("question", "days"), QUESTIONS)
def test_a_time_phrase_in_each_language_is_read_without_configuring_it(question: str, days: tuple) -> None:
    window, rest = extract_window(question, NOW, ("en",))
    assert window is not None, question
    assert (window.start, window.end) == days, (question, window)
    assert window.phrase not in rest and len(rest) < len(question)


@pytest.mark.parametrize("question", [
    "Was macht Tom sonntags?", "¿Qué hace Tom los domingos?", "Que fait Tom le dimanche ?", "Tom每周日做什么？",
    "Was macht Tom jeden Sonntag?", "O que o Tom faz aos domingos?", "Cosa fa Tom ogni domenica?",
    "Wat doet Tom elke zondag?", "Sam 现在在哪里？", "Wo ist der Fix für ENG-4121?", "¿Qué cambió en la v2.3.1?",
    "Qu'est-ce que le commit a828e60 a changé ?", "Was denkt Sam jetzt über Rust?",
])
def test_habits_identifiers_and_now_are_no_day(question: str) -> None:
    window, rest = extract_window(question, NOW, ("en", "de", "es", "fr", "pt", "it", "nl", "zh"))
    assert window is None and rest == question, (question, window)


@pytest.mark.parametrize("line", [
    "Fixed ENG-4121 and ENG-2024 before the release of v2024.11.", "Commit 2025abc1 and build 20251203 went out.",
    "Started a pottery class; it meets every Thursday evening.", "Goes swimming every Sunday morning.",
    "Va nager tous les dimanches matin.", "Geht jeden Sonntagmorgen schwimmen.", "每周四晚上上陶艺课。",
    "Los domingos va a nadar.",
])
def test_a_line_names_no_day_in_an_identifier_or_a_habit(line: str) -> None:
    assert named_in(line, D(2025, 11, 20), None) == [], line


@pytest.mark.parametrize(("line", "written", "days"), [
    ("Priya sent the agenda: Dec 4 is the API deep-dive.", D(2025, 11, 10), [(D(2025, 12, 4), D(2025, 12, 4))]),
    ("Flies to Oslo on Nov 19 and is back on the 23rd.", D(2025, 11, 10),
     [(D(2025, 11, 19), D(2025, 11, 19)), (D(2025, 11, 23), D(2025, 11, 23))]),
    ("In Lisbon from Dec 4 to Dec 6.", D(2025, 11, 25), [(D(2025, 12, 4), D(2025, 12, 6))]),
    ("Trip to Rome Dec 3–7.", D(2025, 11, 18), [(D(2025, 12, 3), D(2025, 12, 7))]),
    ("Flies to Oslo next Tuesday.", D(2025, 11, 19), [(D(2025, 11, 25), D(2025, 11, 25))]),
    ("Planned next week: Monday the review, Tuesday the dentist, Thursday the deep-dive.", D(2025, 11, 26),
     [(D(2025, 12, 1), D(2025, 12, 7)), (D(2025, 12, 1), D(2025, 12, 1)), (D(2025, 12, 2), D(2025, 12, 2)),
      (D(2025, 12, 4), D(2025, 12, 4))]),
    ("Wohnt vom 5. bis 7. Dezember bei uns und kommt am Freitagabend.", D(2025, 11, 12),  # that Friday
     [(D(2025, 12, 5), D(2025, 12, 7)), (D(2025, 12, 5), D(2025, 12, 5))]),
    ("The dentist moved my appointment from Nov 27 to Dec 2 at 9:30.", D(2025, 11, 17),  # two days, no range
     [(D(2025, 11, 27), D(2025, 11, 27)), (D(2025, 12, 2), D(2025, 12, 2))]),
    ("Zahnarzttermin am 3. März.", D(2026, 2, 20), [(D(2026, 3, 3), D(2026, 3, 3))]),
    ("Vol pour Lisbonne le 21 janvier.", D(2026, 1, 5), [(D(2026, 1, 21), D(2026, 1, 21))]),
    ("Vuelo a Lisboa el 21 de enero.", D(2025, 12, 28), [(D(2026, 1, 21), D(2026, 1, 21))]),  # across the year
    ("3月3日去上海。", D(2026, 2, 20), [(D(2026, 3, 3), D(2026, 3, 3))]),
    ("Priya发来了议程：12月4日是API深度研讨。", D(2026, 11, 25), [(D(2026, 12, 4), D(2026, 12, 4))]),  # 了: still ahead
])
def test_every_date_a_line_names_is_resolved_against_the_day_it_was_written(line: str, written: date,
                                                                           days: list) -> None:
    assert [(r.start, r.end) for r in named_in(line, written, None)] == days, line


@pytest.mark.parametrize(("question", "way"), [
    ("What's on Dec 4?", 1), ("Where will Tom be on Dec 13?", 1), ("Is anything planned for Friday?", 1),
    ("What did I do on the 5th?", -1), ("What happened on Monday?", -1), ("Whose birthday is on Friday?", 0),
])
def test_a_question_leans_by_its_tense(question: str, way: int) -> None:
    assert lean(question) == way


def test_a_year_less_day_is_the_nearest_ahead_when_the_question_looks_ahead() -> None:
    """Asked on Wednesday Nov 26: "the 13th" is Dec 13 for what is on, Nov 13 for what happened;
    "Friday" alone is the nearest Friday (Nov 28)."""
    ahead, _ = extract_time_window("What's on the 13th?", NOW)
    back, _ = extract_time_window("What happened on the 13th?", NOW)
    nearest, _ = extract_time_window("Whose birthday is on Friday?", NOW)
    assert (ahead.start, back.start, nearest.start) == (D(2025, 12, 13), D(2025, 11, 13), D(2025, 11, 28))
    # The same rule for lines and Retain facts: "bring it back in December" written on Nov 18.
    assert [(r.start, r.end) for r in named_times("Dentist on Dec 3.", D(2025, 11, 20))] == [
        (D(2025, 12, 3), D(2025, 12, 3))]
    from workspace_memory.dates.parse import resolve_stated_range

    december = resolve_stated_range("Lent him the drill; bring it back in December.", D(2025, 11, 18))
    assert (december.start, december.end) == (D(2025, 12, 1), D(2025, 12, 31))
    assert resolve_stated_range("Moved to Lisbon in March.", D(2025, 11, 18)).start == D(2025, 3, 1)


def test_retain_ranges_in_other_languages() -> None:
    from workspace_memory.markdown.retain import parse_retain_bullet

    def stated(bullet: str) -> tuple:
        fact = parse_retain_bullet(bullet, D(2025, 11, 18)).fact
        assert fact is not None
        return (fact.occurred.start, fact.occurred.end) if fact.occurred else None

    assert stated("W @Sam: Urlaub vom 3. bis 7. Dezember 2025.") == (D(2025, 12, 3), D(2025, 12, 7))
    assert stated("W @Sam: Vacaciones del 3 al 7 de diciembre de 2025.") == (D(2025, 12, 3), D(2025, 12, 7))
    assert stated("W @Sam: Vacances du 3 au 7 décembre 2025.") == (D(2025, 12, 3), D(2025, 12, 7))
    assert stated("W @Sam: 2025年12月3日到7日休假。") == (D(2025, 12, 3), D(2025, 12, 7))
    assert stated("W @Sam: Trip Nov 24–27.") == (D(2025, 11, 24), D(2025, 11, 27))
    assert stated("W @Sam: Los domingos juega al fútbol.") is None  # a habit
    assert stated("W @Sam: Nach sechs Jahren bei Northwind gekündigt.") is None  # a duration, not 2019


def test_a_text_keeps_its_place_through_the_translation() -> None:
    text = "Wer ist vom 15. bis 19. Dezember weg?"
    translated = translate(text, "de")
    assert "from 15 to 19 December" in " ".join(translated.english.split())
    start, end = translated.english.index("from"), translated.english.index("December") + len("December")
    assert text[slice(*translated.original(start, end))] == "vom 15. bis 19. Dezember"
    assert translate(text, "xx") is None


def test_the_tables_are_the_packages_modules_and_the_names_index_is_theirs() -> None:
    from workspace_memory.lang.timewords._index import NAMES

    assert set(lang.available("timewords")) == {*TABLES, "en"}
    rendered = "\n".join(f'    "{w}": {tuple(c)!r},'.replace("'", '"') for w, c in index_of_names().items())
    assert index_of_names() == NAMES, f"regenerate lang/timewords/_index.py's NAMES:\n{rendered}"
    for code in TABLES:  # every rewrite compiles and expands (a bad template is a bug, not a missing date)
        assert translate("x 1 2 3", code) is not None


def test_an_english_question_reads_no_other_language_and_never_loads_dateparser() -> None:
    code = ("import sys, json; from datetime import datetime;"
            "from workspace_memory.dates.languages import extract_window;"
            "from workspace_memory.dates.parse import extract_time_window;"
            "a = extract_time_window('What happened on Dec 4?', datetime(2025, 11, 24));"
            "b = extract_window('Who is Sam and what does he like?', datetime(2025, 11, 24), ('en',));"
            "print(json.dumps([a[0] is not None, b[0] is None, 'dateparser' in sys.modules,"
            " sorted(m for m in sys.modules if m.startswith('workspace_memory.lang.timewords.'))]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [True, True, False, ["workspace_memory.lang.timewords.en"]]
