"""An entry that asks gives way to the one that tells, when the query is a question."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import recall_json
from workspace_memory import lang
from workspace_memory.recall.asking import QUESTION_MISS, asks, is_question

LOG = """\
# 2025-06-10

## Open questions
- Should we move the search index to Postgres?

## Done
- Moved the search index to Postgres last night; the launch stays on Friday.
- Booked the dentist for Tuesday.
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2025-06-10.md").write_text(LOG, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("text", "expected"), [
    ("- Deborah: How long have you been married?", True),
    ("Is this the one? [shares an image: a red door]", True),
    ("Really? (asked twice)", True),
    ("¿Dónde vive Peter?", True),
    ("这是哪一个？", True),  # the full-width mark
    ("We moved the index. Why? Speed.", False),  # the last sentence tells
    ("Moved to London", False),
    ("", False),
])
def test_an_entry_asks_when_its_last_sentence_ends_with_a_question_mark(text: str, expected: bool) -> None:
    assert asks(text) == expected


@pytest.mark.parametrize(("query", "code", "expected"), [
    ("Is Deborah married?", "en", True),
    ("where does Peter live", "en", True),
    ("did we move the index to Postgres", "en", True),
    ("Postgres migration", "en", False),
    ("Naschmarkt", "en", False),
    ("", "en", False),
    ("wo wohnt Peter", "de", True),
    ("wann ist der Zahnarzttermin", "de", True),
    ("dónde vive Peter", "es", True),
    ("¿Dónde vive Peter", "es", True),
    ("où habite Peter", "fr", True),
    ("onde mora o Peter", "pt", True),
    ("谁是Tom", "zh", True),
    ("Postgres Rechnungswarteschlange", "de", False),
    ("wo wohnt Peter", None, False),  # a language without data: the question mark only, never English's words
    ("where does Peter live", "xx", False),
])
def test_a_query_is_a_question_by_its_mark_or_its_first_word(query: str, code: str | None, expected: bool) -> None:
    assert is_question(query, lang.table("words", code) if code else None) == expected


def test_the_entry_that_tells_outranks_the_one_that_asks(ws: Path) -> None:
    hits = recall_json(ws, "Did we move the search index to Postgres?", "--explain", "--mode", "lexical",
                       now="2025-06-11")["results"]
    texts = [h["content"] for h in hits]
    told = next(h for h in hits if "Moved the search index" in h["content"])
    asked = next(h for h in hits if "Should we move" in h["content"])
    assert hits.index(told) < hits.index(asked), texts
    assert asked["explain"]["factors"]["question"] == QUESTION_MISS
    assert "question" not in told["explain"]["factors"]
    # The asking entry matches the question more closely (shorter, every word): without the
    # factor it would lead.
    assert asked["explain"]["factors"]["relevance"] > told["explain"]["factors"]["relevance"]


def test_a_keyword_query_leaves_questions_alone(ws: Path) -> None:
    hits = recall_json(ws, "Postgres search index", "--explain", "--mode", "lexical", now="2025-06-11")["results"]
    assert hits and all("question" not in h["explain"]["factors"] for h in hits)
