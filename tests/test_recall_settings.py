"""The `[recall]` table of memory.toml: defaults, validation, and its effect on a recall."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import recall_json, run_memory
from workspace_memory.recall.settings import RecallSettings


def test_defaults_are_the_documented_ones() -> None:
    s = RecallSettings.from_mapping(None)
    assert (s.vector_weight, s.text_weight, s.candidate_multiplier, s.half_life_days, s.mmr_lambda,
            s.min_score) == (0.7, 0.3, 4, 30.0, 0.7, 0.05)


@pytest.mark.parametrize(("table", "message"), [
    ({"vector_wieght": 0.5}, "unknown key 'vector_wieght'"),
    ({"vector_weight": "high"}, "vector_weight must be a number"),
    ({"mmr_lambda": 1.5}, "mmr_lambda must be between 0 and 1"),
    ({"candidate_multiplier": 0}, "candidate_multiplier must be at least 1"),
    ({"half_life_days": 0}, "half_life_days must be positive"),
    ({"vector_weight": 0, "text_weight": 0}, "cannot both be 0"),
    ({"min_score": True}, "min_score must be a number"),
])
def test_bad_values_name_the_key(table: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RecallSettings.from_mapping(table)


def _workspace(root: Path, toml: str) -> Path:
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2025-10-01.md").write_text("# 2025-10-01\n\n- Rotated the quokka API keys.\n",
                                                   encoding="utf-8")
    (root / "memory" / "2025-11-29.md").write_text("# 2025-11-29\n\n- Checked the quokka API dashboards.\n",
                                                   encoding="utf-8")
    (root / "memory.toml").write_text(toml, encoding="utf-8")
    return root


def test_a_bad_recall_table_is_one_clear_error(tmp_path: Path) -> None:
    ws = _workspace(tmp_path, "[recall]\nmmr_lambda = 3\n")
    code, out, err = run_memory(ws, "recall", "quokka")
    assert code == 1 and out == ""
    assert err.strip().splitlines() == ["memory: error: memory.toml [recall]: mmr_lambda must be between 0 and 1, not 3.0"]


def test_half_life_changes_the_recency_factor(tmp_path: Path) -> None:
    def recency(ws: Path) -> float:
        hits = recall_json(ws, "quokka keys", "--explain", now="2025-11-30")["results"]
        old = next(h for h in hits if h["timestamp"] == "2025-10-01")
        return old["explain"]["factors"]["recency"]

    default = recency(_workspace(tmp_path / "a", ""))
    longer = recency(_workspace(tmp_path / "b", "[recall]\nhalf_life_days = 365\n"))
    assert default < longer < 1.0
