"""The lexical channel's FTS plan: BM25 ranks the rarest words within a budget, common words
are taken newest first, and the score still counts every word."""

from __future__ import annotations

from pathlib import Path

import pytest

from workspace_memory.api import Memory
from workspace_memory.index import lexical_plan
from workspace_memory.index.base import Term
from workspace_memory.index.sqlite import lexical
from workspace_memory.recall.query import RecallRequest


def term(word: str) -> Term:
    return Term(word)


def _fts_plan(terms: list[Term], dfs: dict[str, int]) -> list[tuple[str, bool]]:
    """The FTS5 expressions SQLite's lexical channel runs, each with whether BM25 orders it: the
    store-neutral plan within the store's budget, as lexical.py renders it."""
    return [(lexical.fts_expression(step), step.ranked) for step in lexical_plan.plan(terms, dfs, lexical_plan.RANK_BUDGET)]


def test_rare_words_are_ranked_together_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical_plan, "RANK_BUDGET", 100)
    plan = _fts_plan([term("quokka"), term("wombat")], {"quokka": 3, "wombat": 40})
    assert plan == [('"quokka" OR "wombat"', True)]


def test_common_words_are_taken_newest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical_plan, "RANK_BUDGET", 100)
    dfs = {"deploy": 5000, "pipeline": 900, "quokka": 3, "risk": 90}
    plan = _fts_plan([term(w) for w in dfs], dfs)
    # rarest first: quokka (3) and risk (90) fit in 100; the rest are common
    assert plan == [
        ('"quokka" OR "risk"', True),
        ('"pipeline" AND "deploy"', False),
        ('"pipeline" OR "deploy"', False),
    ]


def test_words_that_never_occur_are_not_searched() -> None:
    assert _fts_plan([term("zzz")], {"zzz": 0}) == []


def test_a_single_common_word_still_finds_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical_plan, "RANK_BUDGET", 10)
    assert _fts_plan([term("deploy")], {"deploy": 500}) == [('"deploy"', False)]


@pytest.fixture
def busy_workspace(tmp_path: Path) -> Path:
    """60 daily logs that all mention the deploy; one old log also names the quokka incident."""
    memory = tmp_path / "memory"
    memory.mkdir()
    teams = ["Ravi", "Mei", "Lukas", "Sofia", "Omar", "Yuki", "Nora", "Diego", "Ines", "Tomas"]
    for day in range(1, 61):
        stamp = f"2025-{(day - 1) // 28 + 9:02d}-{(day - 1) % 28 + 1:02d}"
        lines = [f"# {stamp}", "", "## Notes", "", f"- Watched the deploy of build {day}.",
                 f"- {teams[day % 10]} reviewed the deploy pipeline dashboards with {teams[(day * 3) % 7]}."]
        if day == 2:
            lines.append("- The quokka incident broke the deploy for an hour.")
        (memory / f"{stamp}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_old_rare_word_beats_many_newer_common_ones(busy_workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    monkeypatch.setattr(lexical_plan, "RANK_BUDGET", 10)  # "deploy" (120 chunks) is common here
    mem = Memory.open(str(busy_workspace), "2025-11-30")
    mem.index()
    hits = mem.recall(RecallRequest("deploy quokka", k=5, mode="lexical"))["results"]
    assert "The quokka incident" in hits[0]["content"], hits[0]
    mem.close()


def test_common_words_alone_prefer_chunks_with_all_of_them(busy_workspace: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    monkeypatch.setattr(lexical_plan, "RANK_BUDGET", 10)
    mem = Memory.open(str(busy_workspace), "2025-11-30")
    mem.index()
    hits = mem.recall(RecallRequest("deploy pipeline dashboards", k=5, mode="lexical"))["results"]
    assert len(hits) == 5
    assert all("pipeline dashboards" in h["content"] for h in hits)
    assert hits[0]["timestamp"] == max(h["timestamp"] for h in hits), "equal matches: the newest first"
    mem.close()
