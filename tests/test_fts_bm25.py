"""index.sqlite.bm25 gives FTS5's own bm25() for rows found newest first, without FTS5's walk of
every match: the same numbers on a real index, phrases, diacritics and all three columns."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from workspace_memory.api import Memory
from workspace_memory.index import lexical_plan
from workspace_memory.index.base import Filters, Term
from workspace_memory.index.sqlite import bm25, lexical
from workspace_memory.index.sqlite.read_cache import ReadCache

NOTES = [
    "- Deployed the café build; the deploy pipeline was slow again.",
    "- Reviewed the deploy pipeline with Zoë. Pipeline pipeline: the rollback worked.",
    "- Rate limits of the API were hit twice; the API team raised the rate.",
    "- Follow up on invoices: the follow up is overdue.",
    "- Nothing about the topic here, only lunch.",
]


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> sqlite3.Connection:
    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    memory = tmp_path / "memory"
    memory.mkdir()
    for day in range(1, 21):
        lines = [f"# 2025-03-{day:02d}", "", "## Notes", ""] + [NOTES[(day + i) % len(NOTES)] for i in range(3)]
        (memory / f"2025-03-{day:02d}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (memory / "deploy-pipeline.md").write_text("# Deploy pipeline\n\n- Owned by the platform team.\n")
    mem = Memory.open(str(tmp_path), "2025-04-01")
    mem.index()
    mem.close()
    conn = sqlite3.connect(tmp_path / ".memory" / "index.sqlite")
    yield conn
    conn.close()


@pytest.mark.parametrize("phrases", [
    ['"deploy"', '"pipeline"'],
    ['"deploy pipeline"'],
    ['"api"', '"rate"', '"limits"'],
    ['"follow up"', '"invoices"'],
    ['"cafe"'],  # diacritics folded as the tokenizer folds them
    ['"zoe"', '"rollback"'],
])
def test_scores_equal_fts5_bm25(index: sqlite3.Connection, phrases: list[str]) -> None:
    expr = " OR ".join(phrases)
    expected = dict(index.execute(
        "SELECT rowid, -bm25(chunks_fts, 1.0, 0.6, 0.3) FROM chunks_fts WHERE chunks_fts MATCH ?", (expr,)))
    assert expected, expr
    hits = [bm25.phrase_rows(index, "chunks_fts", p) for p in phrases]
    ours = bm25.scores(index, "chunks_fts", phrases, hits, sorted(expected), bm25.totals(index, "chunks_fts"))
    assert ours.keys() == expected.keys()
    for cid, value in expected.items():
        assert ours[cid] == pytest.approx(value, rel=1e-9, abs=1e-12), cid


def test_totals_read_the_averages_record(index: sqlite3.Connection) -> None:
    rows, tokens = bm25.totals(index, "chunks_fts")
    assert rows == index.execute("SELECT COUNT(*) FROM chunks_fts").fetchone()[0]
    sizes = [sum(bm25.varints(sz)) for (sz,) in index.execute("SELECT sz FROM chunks_fts_docsize")]
    assert tokens == sum(sizes)


def test_varints_follow_sqlite_encoding() -> None:
    assert bm25.varints(bytes([0x05])) == [5]
    assert bm25.varints(bytes([0x86, 0xAF, 0x3B])) == [104379]
    assert bm25.varints(bytes([0x81, 0x00, 0x7F])) == [128, 127]
    assert bm25.varints(bytes([0xFF] * 8 + [0x01])) == [(1 << 64) - 256 + 1]


def test_newest_first_pool_keeps_fts5_numbers(index: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a budget of 1 every word is 'common': the pool's values are still FTS5's bm25()."""
    monkeypatch.setattr(lexical_plan, "RANK_BUDGET", 1)
    terms = [Term("deploy"), Term("pipeline")]
    dfs = {table: {t.label: lexical.count_matches(index, t, table) for t in terms}
           for table in ("chunks_fts", "sessions_fts")}
    pool = lexical_plan.candidates(lexical.FtsSearch(index, dfs, ReadCache()), terms, 50, Filters())
    fts = dict(index.execute("SELECT rowid, -bm25(chunks_fts, 1.0, 0.6, 0.3) FROM chunks_fts "
                             "WHERE chunks_fts MATCH '\"deploy\" OR \"pipeline\"'"))
    assert pool
    for cid, value in pool.items():
        assert value == pytest.approx(fts[cid], rel=1e-9)
