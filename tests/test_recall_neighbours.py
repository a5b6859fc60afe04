"""Neighbours: the entries next to a strong match, in the same section of a log, join the results."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import recall_json
from workspace_memory.recall.neighbours import NEIGHBOUR_SHARE

LOG = """\
# 2025-11-20

## Before
- Packed the camera bag.

## Trip
- Took the early train from Salzburg with Anna.
- We visited the Hundertwasser museum; the floors are not level anywhere.
- Lunch was schnitzel at a place near the canal.

## Retain
- W @Anna: Works as a tram driver in Graz.
- B: Visited the Hundertwasser museum with Anna.
- W @Anna: Collects vintage postcards.
"""


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2025-11-20.md").write_text(LOG, encoding="utf-8")
    return tmp_path


def by_content(hits: list[dict], needle: str) -> dict | None:
    return next((h for h in hits if needle in h["content"]), None)


def test_the_entry_before_a_strong_match_joins_it(ws: Path) -> None:
    hits = recall_json(ws, "Hundertwasser museum", "--explain", now="2025-11-21")["results"]
    match = by_content(hits, "We visited the Hundertwasser museum")
    before = by_content(hits, "Took the early train")
    assert match is not None and before is not None, [h["content"] for h in hits]
    assert before["explain"]["found_by"] == ["neighbour"], before["explain"]
    relevance = match["explain"]["factors"]["relevance"]
    assert before["explain"]["factors"]["relevance"] == pytest.approx(NEIGHBOUR_SHARE * relevance, abs=1e-3)
    assert hits.index(before) > hits.index(match)


def test_neighbours_stay_inside_their_section_and_skip_facts(ws: Path) -> None:
    hits = recall_json(ws, "Hundertwasser museum", now="2025-11-21")["results"]
    assert by_content(hits, "Packed the camera bag") is None, "another section"
    # A Retain fact matches, but facts are self-contained: the facts around it do not join.
    assert by_content(hits, "Visited the Hundertwasser museum with Anna") is not None
    assert by_content(hits, "tram driver") is None
    assert by_content(hits, "vintage postcards") is None


def test_neighbours_obey_the_filters(ws: Path) -> None:
    hits = recall_json(ws, "Hundertwasser museum", "--kind", "note", "--explain", now="2025-11-21")["results"]
    assert by_content(hits, "Took the early train") is not None
    facts = recall_json(ws, "Hundertwasser museum", "--kind", "experience", now="2025-11-21")["results"]
    assert facts and all(h["kind"] == "experience" for h in facts)
