"""Confidence over time: reflect keeps the confidence each evidence left (the opinion chart's points)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from test_reflect_scenarios import TEA, TEA_KEY, log, opinions, run, write


def reinforce(c: float, s: float) -> float:  # the rule in docs/reflect.md, written out independently
    return round(min(1.0, c + min(0.10, 0.25 * s * (1 - c))), 4)


def contradict(c: float, s: float) -> float:
    return round(max(0.0, c - min(0.20, 0.50 * s * c)), 4)


@pytest.fixture
def tea(tmp_path: Path) -> Path:
    """An opinion formed (0.8), reinforced (0.9), contradicted twice (0.8) and then replaced."""
    root = tmp_path / "ws"
    write(root, "memory/2025-11-03.md", log("2025-11-03", [TEA]))
    write(root, "memory/2025-11-05.md", log("2025-11-05", ["O(c=0.9) @Peter: Prefers tea over coffee, asked for tea again."]))
    write(root, "memory/2025-11-12.md", log("2025-11-12", ["O(c=0.8) @Peter: No longer prefers tea over coffee in the morning."]))
    write(root, "memory/2025-11-19.md", log("2025-11-19", ["O(c=0.8) @Peter: Avoids tea in the morning now."]))
    return root


def test_each_evidence_keeps_the_confidence_it_left(tea: Path) -> None:
    run(tea, "2025-11-30", "60d")
    [op] = opinions(tea, "Peter")
    assert op["key"] == TEA_KEY and [h["event"] for h in op["history"]] == ["formed", "replaced"]
    c1 = 0.8
    c2 = reinforce(c1, 0.9)
    c3 = contradict(c2, 0.8)
    c4 = contradict(c3, 0.8)  # the second contradiction on another day replaces the statement:
    # every value is then confidence in the new statement, 1 - c, as the evidence swaps sides.
    got = [(e["day"], e["role"], e["confidence_after"], e["estimated"]) for e in op["evidence"]]
    assert got == [("2025-11-03", "contradicting", round(1 - c1, 4), False),
                   ("2025-11-05", "contradicting", round(1 - c2, 4), False),
                   ("2025-11-12", "supporting", round(1 - c3, 4), False),
                   ("2025-11-19", "supporting", round(1 - c4, 4), False)]
    assert op["confidence"] == pytest.approx(1 - c4)
    ledger = (tea / "bank/opinions.md").read_text()
    assert ledger.count('"a":') == 4


def test_evidence_from_an_older_ledger_is_estimated_with_the_rule(tea: Path) -> None:
    run(tea, "2025-11-08", "60d")  # formed and reinforced only
    page = tea / "bank/opinions.md"
    old = re.sub(r',"a":[0-9.]+', "", page.read_text())  # as reflect wrote it before it kept confidences
    page.write_text(old)
    [op] = opinions(tea, "Peter")
    assert [(e["confidence_after"], e["estimated"]) for e in op["evidence"]] == [
        (0.8, False), (reinforce(0.8, 0.9), True)]  # the formed value is exact; the next one replayed
    assert page.read_text() == old  # listing never writes
