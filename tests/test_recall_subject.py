"""Whose turn it is: a question that names a person prefers that person's entries ("Name: ...")."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import recall_json
from workspace_memory.recall.subject import SUBJECT_MISS, asked, misses, names, subject_of

# A chat kept as a log, one turn a line: Ben talks about cats more than Ana does, but the
# question is about Ana's.
CHAT = """\
# 2025-03-02

## Chat
- Ana: Morning! The new flat finally has a garden.
- Ben: Ana, how are the cats? I adore cats, my neighbour's cats visit me every day.
- Ana: I have two cats now, Miso and Tofu; Tofu hides under the sofa.
- Ben: Lovely. My sister wants cats too.

## Notes
- Decision: cats stay indoors until the garden fence is fixed.
- Fixed the fence post near the shed.
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2025-03-02.md").write_text(CHAT, encoding="utf-8")
    return tmp_path


def by_content(hits: list[dict], needle: str) -> dict:
    hit = next((h for h in hits if needle in h["content"]), None)
    assert hit is not None, [h["content"] for h in hits]
    return hit


@pytest.mark.parametrize(("text", "subject"), [
    ("- Ana: I have two cats", "ana"),
    ("Ana: hello", "ana"),
    ("* **Ben Miller:** lovely", "ben miller"),
    ("1. Dr. Jones: take two", "dr. jones"),
    ("- @peter: ships on Friday", "peter"),
    ("- José: hola", "josé"),
    ("- Decision: cats stay indoors", None),  # a label, not a person
    ("- TODO: fence", None),
    ("- Monday: hiking with Ana", None),  # a day heads the entry, no one speaks
    ("- Q1: ship the importer", None),  # a digit: a label, not a name
    ("- @bot42: deployed", "bot42"),  # a handle may hold digits
    ("- fixed: the fence", None),  # lower case: no name
    ("- Fixed the fence post", None),  # no colon
    ("- It was 10:30 when we left", None),
    ("- A very long sentence that ends: with a colon", None),  # more than three words
    ("Peter's cat: Miso", None),
])
def test_the_subject_is_the_name_before_the_colon(text: str, subject: str | None) -> None:
    assert subject_of(text) == subject


def test_a_question_names_a_subject_by_full_name_given_name_or_family_name() -> None:
    assert names("ana", {"many", "cats", "ana"})
    assert names("ben miller", {"ben"}) and names("ben miller", {"miller"}) and names("ben miller", {"ben", "miller"})
    assert not names("ben miller", {"ana", "cats"})


def test_only_the_pools_subjects_that_the_question_names_count() -> None:
    rows = [{"kind": "note", "text": "- Ana: two cats"}, {"kind": "note", "text": "- Ben: cats"},
            {"kind": "world", "text": "Ana: works in Graz"}]
    assert asked({"cats", "ana"}, rows) == {"ana"}
    assert asked({"cats"}, rows) == frozenset()
    assert misses(rows[1], frozenset({"ana"})) and not misses(rows[0], frozenset({"ana"}))
    assert not misses({"kind": "world", "text": "Ben: likes tea"}, frozenset({"ana"})), "facts name their entities"
    assert not misses({"kind": "note", "text": "no subject here"}, frozenset({"ana"}))
    assert not misses(rows[1], frozenset()), "a question that names nobody changes nothing"


def test_the_named_persons_turn_outranks_anothers_that_shares_more_words(ws: Path) -> None:
    hits = recall_json(ws, "How many cats does Ana have?", "--explain", "--mode", "lexical",
                       now="2025-03-03")["results"]
    anas, bens = by_content(hits, "I have two cats now"), by_content(hits, "how are the cats")
    assert hits.index(anas) < hits.index(bens), [h["content"] for h in hits]
    assert bens["explain"]["factors"]["subject"] == SUBJECT_MISS
    assert "subject" not in anas["explain"]["factors"]
    # Without the factor Ben's turn would have ranked first: it holds "cats" three times.
    assert bens["explain"]["factors"]["relevance"] > anas["explain"]["factors"]["relevance"]
    # A label is no one's turn, and a question that names nobody leaves every turn alone.
    assert "subject" not in by_content(hits, "Decision: cats stay indoors")["explain"]["factors"]
    anyone = recall_json(ws, "cats", "--explain", "--mode", "lexical", now="2025-03-03")["results"]
    assert all("subject" not in h["explain"]["factors"] for h in anyone)


def test_a_question_about_both_speakers_prefers_neither(ws: Path) -> None:
    hits = recall_json(ws, "What did Ana and Ben say about cats?", "--explain", "--mode", "lexical",
                       now="2025-03-03")["results"]
    assert hits and all("subject" not in h["explain"]["factors"] for h in hits)
