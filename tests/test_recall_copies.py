"""Recall returns a fact once: reflect's generated copies are not indexed, contained copies are dropped,
and an entry is found through the words of the entry before it (the lexical context column)."""

from __future__ import annotations

from pathlib import Path

from conftest import recall_json, run_ok, write_files

DAY = """\
# 2025-11-20

## Notes
- Peter asked which museum we should visit with the kids.
- We went there yesterday; the dinosaur hall was the highlight.

## Retain
- W @Peter: Adopted a grey cat named Mochi from the Vienna shelter.
"""


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    write_files(root, {"memory/2025-11-20.md": DAY, "MEMORY.md": "# Core\n"})
    run_ok(root, "index")
    return root


def test_a_fact_comes_back_once_after_reflect_copies_it(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    run_ok(root, "reflect", "--since", "30d")
    page = (root / "bank" / "entities" / "Peter.md").read_text()
    assert "Mochi" in page  # reflect did copy the fact into the entity page
    results = recall_json(root, "grey cat Mochi shelter", "--mode", "lexical")["results"]
    mochi = [r for r in results if "Mochi" in r["content"]]
    assert [r["path"] for r in mochi] == ["memory/2025-11-20.md"]


def test_hand_text_beside_a_generated_region_is_still_found(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    run_ok(root, "reflect", "--since", "30d")
    page = root / "bank" / "entities" / "Peter.md"
    page.write_text(page.read_text() + "\nPeter's cat is afraid of the vacuum cleaner.\n")
    results = recall_json(root, "vacuum cleaner", "--mode", "lexical")["results"]
    assert results and results[0]["path"] == "bank/entities/Peter.md"


def test_an_answer_is_found_through_the_entry_before_it(tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    results = recall_json(root, "dinosaur museum", "--mode", "lexical", "--explain")["results"]
    answer = next(r for r in results if "dinosaur" in r["content"])
    # "museum" is only in the line before; the answer still covers more of the query than that line.
    assert answer["start_line"] == 5
    assert answer["explain"]["channels"]["lexical"] > 0.5
    assert results[0]["start_line"] == 5
