"""Italian, Dutch, Russian and Korean questions (issue 40, third pass): each language's own words, its
inflection or particles, its time phrases, on notes of their own shape (not benchmarks/languages.py's)."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest

from conftest import notes_workspace, recall_json, register, run_ok
from workspace_memory import lang
from workspace_memory.dates.languages import extract_window
from workspace_memory.lang.identify import question_language
from workspace_memory.recall.hangul import pieces
from workspace_memory.recall.lexical import query_terms
from workspace_memory.recall.query import asks_about_now, holds_any

NOW = datetime(2026, 3, 12, 18, 0)  # a Thursday


def words(code: str):
    return lang.table("words", code)


@pytest.mark.parametrize(("text", "configured", "code"), [
    ("Vertel me over de verbouwing.", ("en", "nl"), "nl"),  # "me", "over" are English stop words too
    ("Is Anouk anders gaan denken over Utrecht?", ("en", "nl"), "nl"),
    ("Tell me about the renovation.", ("en", "nl"), "en"),
    ("Is Anouk in Utrecht?", ("en",), "en"),
    ("Parlami del trasloco di Giulia.", ("en", "it"), "it"),
    ("In quale città lavora Giulia?", ("en", "it"), "it"),
    ("Tell me about Giulia's move.", ("en", "it"), "en"),
    ("Кто такая Ольга?", ("en", "ru"), "ru"),
    ("Minho는 누구야?", ("en", "ko"), "ko"),
])
def test_the_language_of_italian_dutch_russian_and_korean_questions(text: str, configured: tuple, code: str) -> None:
    assert question_language(text, configured) == code


@pytest.mark.parametrize(("code", "question", "kept"), [
    ("ru", "Кто такая Ольга?", ["ольга"]),
    ("ru", "Расскажи про ремонт.", ["ремонт"]),
    ("ko", "Minho는 누구야?", ["minho"]),
    ("ko", "예산에 대해 알려 줘.", ["예산"]),  # 대해 (about) is a stop word, not 대 + an ending
    ("ko", "부산으로 언제 이사해?", ["부산", "이사"]),  # particle and ending cut: 부산으로 -> 부산, 이사해 -> 이사
])
def test_frame_words_and_endings_leave_the_content_words(code: str, question: str, kept: list[str]) -> None:
    assert [t.label for t in query_terms(question, words(code))] == kept


def test_a_korean_phrase_is_searched_as_its_stem() -> None:
    endings = words("ko").ENDINGS
    assert pieces("는", endings) == []  # a particle after a name in Latin letters ("Minho는")
    assert pieces("예산이", endings) == ["예산"]
    assert pieces("개는", endings) == ["개", "개는"]  # one syllable left: the phrase as typed too
    assert pieces("사무실을", endings) == ["사무실"]
    assert pieces("클라이밍장을", endings) == ["클라", "라이", "이밍", "밍장"]  # long: two-syllable pieces


def test_russian_words_carry_their_snowball_stem() -> None:
    terms = {t.label: t.stem for t in query_terms("Что нового в Казани?", words("ru"))}
    assert terms == {"нового": "нов", "казани": "казан"}


@pytest.mark.parametrize(("code", "question", "opinion", "now"), [
    ("ru", "Что Ольга думает о ремонте?", True, False),
    ("ru", "Где сейчас живёт Ольга?", False, True),
    ("ru", "Где раньше жила Ольга?", False, False),
    ("ko", "Minho는 새 사무실을 어떻게 생각해?", True, False),
    ("ko", "Minho는 지금 어디에 살아?", False, True),
    ("ko", "Minho는 예전에 어디에 살았어?", False, False),
])
def test_opinion_and_now_questions_in_russian_and_korean(code: str, question: str, opinion: bool, now: bool) -> None:
    table = words(code)
    assert holds_any(question, table.OPINION_WORDS) is opinion
    assert asks_about_now(question, table) is now


@pytest.mark.parametrize(("code", "question", "start", "end"), [
    ("ru", "Что было в понедельник?", date(2026, 3, 9), date(2026, 3, 9)),
    ("ru", "Что случилось 3 марта?", date(2026, 3, 3), date(2026, 3, 3)),
    ("ru", "Что у меня на следующей неделе?", date(2026, 3, 16), date(2026, 3, 22)),
    ("ru", "Какие планы на этих выходных?", date(2026, 3, 14), date(2026, 3, 15)),
    ("ko", "3월 3일에 무슨 일이 있었어?", date(2026, 3, 3), date(2026, 3, 3)),
    ("ko", "월요일에 뭐 했지?", date(2026, 3, 9), date(2026, 3, 9)),
    ("ko", "이번 주말에 뭐 있어?", date(2026, 3, 14), date(2026, 3, 15)),
    ("nl", "Wat gebeurde er dinsdag?", date(2026, 3, 10), date(2026, 3, 10)),
])
def test_time_phrases_of_russian_korean_and_dutch(code: str, question: str, start: date, end: date) -> None:
    window, _ = extract_window(question, NOW, ("en", code))
    assert window is not None and (window.start, window.end) == (start, end), window


def test_a_habit_is_no_day() -> None:
    window, _ = extract_window("Ольга ходит в бассейн по понедельникам.", NOW, ("en", "ru"))
    assert window is None
    window, _ = extract_window("월요일 저녁마다 수영을 한다.", NOW, ("en", "ko"))
    assert window is None


NOTES = {
    "memory/2026-03-09.md": """\
        # 2026-03-09

        ## Заметки
        - Обед с Ольга и Ivan; обсуждали новый проект и ремонт офиса.
        - Ivan не знает, кто будет вести проект, пока Ольга в отпуске.

        ## Retain
        - W @Ольга: Работает дизайнером в @Yandex; в январе переехала в Казань.
        """,
    "memory/2026-03-10.md": """\
        # 2026-03-10

        ## 메모
        - 팀 회의에서 예산이 또 줄었다.
        - 점심은 김밥이었다.
        - Minho와 커피. 새 사무실 이야기를 했다.
        - Minho는 다음 주에 서울에 온다.

        ## Retain
        - W @Minho: 부산에서 요리사로 일한다.
        """,
}


@pytest.fixture
def more_ws(store: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    return notes_workspace(register(tmp_path / "ws", request), NOTES, ("en", "ru", "ko"))


@pytest.mark.parametrize(("question", "needle"), [
    ("Кто такая Ольга?", "дизайнером"),  # her own fact first, not the lines that only name her
    ("Что нового в Казани?", "переехала в Казань"),  # казани ~ Казань: the stem's prefix
    ("예산은 어떻게 됐어?", "예산이 또 줄었다"),  # 예산은 ~ 예산이: the particle cut
    ("Minho는 누구야?", "요리사로"),
    ("Minho는 어디에서 일해?", "요리사로 일한다"),
])
def test_recall_in_russian_and_korean(more_ws: Path, question: str, needle: str) -> None:
    hits = recall_json(more_ws, question, "--mode", "lexical", now="2026-03-12")["results"]
    assert hits and needle in hits[0]["content"], [h["content"] for h in hits]


MODEL_TOML = '[embedding]\nprovider = "local"\nmodel = "use-multilingual-v3"\n'
MODEL_ENV: dict[str, str | None] = {"MEMORY_EMBED_PROVIDER": None}  # let memory.toml choose


@pytest.mark.model
@pytest.mark.parametrize(("question", "needle"), [
    ("Кто такая Ольга?", "дизайнером"),
    ("Minho는 누구야?", "요리사로"),
    ("예산은 어떻게 됐어?", "예산이 또 줄었다"),
])
def test_hybrid_recall_in_russian_and_korean(tmp_path: Path, question: str, needle: str) -> None:
    """With the model's vectors too, the person's own fact comes first ("who is X" in hybrid: the
    lines that name X among other things are as near to the question as the fact is)."""
    root = notes_workspace(tmp_path / "ws", NOTES, ("en", "ru", "ko"), MODEL_TOML, MODEL_ENV)
    out = run_ok(root, "recall", question, "--json", "--mode", "hybrid", now="2026-03-12", env=MODEL_ENV)
    hits = json.loads(out)["results"]
    assert hits and needle in hits[0]["content"], [h["content"] for h in hits]
