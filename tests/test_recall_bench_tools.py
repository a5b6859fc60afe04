"""The offline tools of issue 24's measurements: benchmarks/reorder.py re-scores stored recall lists,
benchmarks/locomo_bursts.py writes a conversation as bursts of messages. Their figures are in
docs/recall.md; these tests keep the parts that decide a figure honest."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import locomo_bursts
import reorder


def result(line: int, score: float, text: str = "- Ana: x" * 10, **factors: float) -> dict:
    return {"path": "memory/2025-01-01.md", "start_line": line, "end_line": line, "score": score, "text": text,
            "explain": {"channels": {"topic": 0.4, "lexical": 0.5}, "found_by": ["vector"],
                        "factors": {"relevance": 0.29} | factors}}


def test_within_budget_costs_the_lines_and_stops_at_the_first_that_does_not_fit() -> None:
    rows = [result(1, 0.9, "a" * 1500), result(2, 0.8, "b" * 600), result(3, 0.7, "c" * 10)]
    assert [r["start_line"] for r in reorder.within_budget(rows)] == [1]


def test_none_keeps_the_engines_order_and_oracle_puts_the_evidence_first() -> None:
    res = [result(line, 1.0 - line / 100) for line in range(1, 40)]
    rows = [{"conv": 0, "q": "What does Ana do?", "cat": "multi-hop", "ev": [["memory/2025-01-01.md", 30]], "res": res},
            {"conv": 1, "q": "What does Ana do?", "cat": "single-hop", "ev": [["memory/2025-01-01.md", 2]], "res": res}]
    engine = reorder.report(rows, reorder.lever("none", rows, None, []))
    assert engine == {"all": 0.5, "A": 0.0, "multi-hop": 0.0, "multi-hop A": 0.0, "B": 1.0}
    best = reorder.report(rows, reorder.lever("oracle", rows, None, []))
    assert best["all"] == 1.0


def test_a_harsher_whose_turn_factor_moves_only_the_other_speakers_turns() -> None:
    mine, theirs = result(1, 0.30), result(2, 0.32, subject=0.85)
    row = {"conv": 0, "q": "q", "cat": "multi-hop", "ev": [], "res": [theirs, mine]}
    assert reorder.lever("subject=0.85", [row], None, [])(row) == [theirs, mine]
    assert reorder.lever("subject=0.75", [row], None, [])(row) == [mine, theirs]  # 0.32 x 0.75 / 0.85 < 0.30


def test_a_neighbours_loan_is_kept_when_its_own_relevance_changes() -> None:
    lent = result(1, 0.5)
    lent["explain"]["factors"]["relevance"] = 0.6  # more than its own 0.29: a neighbour lent it
    own = result(2, 0.4)
    ordered = reorder.rescored({"res": [own, lent]}, lambda r: 0.1)
    assert ordered == [lent, own]


def test_a_turn_becomes_its_sentences_and_its_image() -> None:
    assert locomo_bursts.messages("I went to a group yesterday. It was so powerful! Are you coming?", "a poster") == [
        "I went to a group yesterday.", "It was so powerful!", "Are you coming?", "[shares an image: a poster]"]
    assert locomo_bursts.messages("It cost 3.5 euros. fine by me", None) == ["It cost 3.5 euros. fine by me"]


def test_bursts_map_each_turn_to_all_of_its_lines(tmp_path: Path) -> None:
    sample = {"conversation": {
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": "Ana", "dia_id": "D1:1", "text": "Hi there. How are you?"},
                      {"speaker": "Tom", "dia_id": "D1:2", "text": "Fine!", "blip_caption": "a dog"}]}}
    where, files, _ = locomo_bursts.write_bursts(sample, tmp_path)
    lines = files["memory/2023-05-08.md"]
    assert [lines[line - 1] for _, line in where["D1:1"]] == ["- Ana: Hi there.", "- Ana: How are you?"]
    assert [lines[line - 1] for _, line in where["D1:2"]] == ["- Tom: Fine!", "- Tom: [shares an image: a dog]"]
    assert (tmp_path / "memory" / "2023-05-08.md").read_text().splitlines() == lines
