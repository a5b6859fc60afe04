"""A "where" question asks for a place: an entry that names one is preferred (recall.place)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import recall_json
from workspace_memory import lang
from workspace_memory.recall.place import PLACE_MISS, names_place
from workspace_memory.recall.query import holds_any


@pytest.mark.parametrize(("text", "code", "expected"), [
    ("W @Lena: In Porto (Mar 3–9) for the conference.", "en", True),
    ("Caroline moved from Sweden four years ago.", "en", True),
    ("Works at Kessler Logistics since May.", "en", True),
    ("Met Priya at @Fernwerk for lunch.", "en", True),
    ("Vom 15. bis 18. Oktober in Porto für seinen Vortrag.", "de", True),
    ("Arbeitet als Backend-Entwickler bei Kessler Logistics.", "de", True),
    ("Fliegt nach Lissabon.", "de", True),
    ("Del 15 al 18 de octubre en Oporto para su charla.", "es", True),
    ("Trabaja desde Valencia.", "es", True),
    ("Du 15 au 18 octobre à Lyon pour sa conférence.", "fr", True),
    ("Mora em Lisboa desde março.", "pt", True),
    ("Woont sinds maart in Utrecht.", "nl", True),
    ("Lavora a Milano.", "it", True),
    ("10月15日到18日在Porto参加会议。", "zh", True),
    ("10月にPortoで講演した。", "ja", True),
    # Not a place: a month, a common noun, a weekday, a label, a code with a digit.
    ("Lena is travelling less this spring.", "en", False),
    ("We met in March.", "en", False),
    ("In March the team grew.", "en", False),
    ("Finished in time for the demo.", "en", False),
    ("Raised it in the meeting.", "en", False),
    ("Planned in Q3.", "en", False),
    ("Moved the call to Monday; see you at Friday's standup.", "en", False),
    ("Im März hat das Team umgebaut.", "de", False),
    ("Hat es im Meeting angesprochen.", "de", False),
    ("Wohnt in der Stadt.", "de", False),
    ("Lo vimos en marzo.", "es", False),
    ("Nous l'avons vu en mars.", "fr", False),
    ("在公司工作。", "zh", False),  # a place in CJK characters is not read (recall.place)
    ("Lena is in Porto.", "xx", False),  # a language without data: neutral
    ("Lena is in Porto.", None, False),
])
def test_a_place_is_a_capitalised_name_right_after_a_preposition_of_place(text: str, code: str | None,
                                                                          expected: bool) -> None:
    assert names_place(text, code) == expected


@pytest.mark.parametrize(("query", "code", "expected"), [
    ("Where was Lena during March?", "en", True),
    ("where's Lena now", "en", True),
    ("What does Lena do?", "en", False),
    ("Wo war Jonas Mitte Oktober?", "de", True),
    ("¿Dónde trabaja Sam?", "es", True),
    ("Où était Tom du 19 au 23 novembre ?", "fr", True),
    ("Onde mora a Ana?", "pt", True),
    ("Lena三月在哪里？", "zh", True),
    ("Lenaは三月どこにいた？", "ja", True),
    ("Jonas在为谁工作？", "zh", False),
    ("Where was Lena?", "xx", False),
])
def test_a_question_asks_where_by_its_languages_words(query: str, code: str, expected: bool) -> None:
    table = lang.table("words", code)
    assert holds_any(query, getattr(table, "WHERE_WORDS", frozenset())) == expected


LOG = """\
# 2025-06-09

## Retain
- W @Sam: Spent the offsite week in Lisbon with the platform team.
"""
LATER = """\
# 2025-06-10

## Retain
- W @Sam: Spent the offsite week reviewing the budget.
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2025-06-09.md").write_text(LOG, encoding="utf-8")
    (tmp_path / "memory" / "2025-06-10.md").write_text(LATER, encoding="utf-8")
    return tmp_path


def test_the_entry_that_names_a_place_outranks_one_that_names_none(ws: Path) -> None:
    hits = recall_json(ws, "Where did Sam spend the offsite week?", "--explain", now="2025-06-12")["results"]
    lisbon = next(h for h in hits if "Lisbon" in h["content"])
    budget = next(h for h in hits if "budget" in h["content"])
    assert hits.index(lisbon) < hits.index(budget), [h["content"] for h in hits]
    assert budget["explain"]["factors"]["place"] == PLACE_MISS
    assert "place" not in lisbon["explain"]["factors"]
    # Without the factor the newer entry, as close to the question by its words, would lead.
    unfactored = {h["content"]: h["score"] / h["explain"]["factors"].get("place", 1.0) for h in (lisbon, budget)}
    assert unfactored[budget["content"]] > unfactored[lisbon["content"]]


def test_a_question_that_does_not_ask_where_leaves_places_alone(ws: Path) -> None:
    hits = recall_json(ws, "What did Sam do in the offsite week?", "--explain", now="2025-06-12")["results"]
    assert hits and all("place" not in h["explain"]["factors"] for h in hits)
