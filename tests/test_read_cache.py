"""Cached term counts follow the index through the FTS journal: after an edit they equal a fresh
count without counting again; a big change, a rebuild, a purge or a change the journal did not
see makes the cache count again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from workspace_memory.api import Memory
from workspace_memory.index.base import Term
from workspace_memory.index.indexer import settings_changed
from workspace_memory.index.sqlite import bm25, journal, lexical, read_cache
from workspace_memory.index.sqlite.read_cache import ReadCache

TERMS = [Term("deploy"), Term("pipeline"), Term("deploy pipeline"), Term("quokka"), Term("rollback")]
PHRASES = ['"deploy"', '"pipeline"', '"quokka"']


def _write(root: Path, day: int, lines: list[str]) -> None:
    (root / "memory" / f"2025-03-{day:02d}.md").write_text(
        "\n".join([f"# 2025-03-{day:02d}", "", "## Notes", "", *lines]) + "\n", encoding="utf-8")


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Memory:
    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    (tmp_path / "memory").mkdir()
    for day in range(1, 11):
        _write(tmp_path, day, [f"- Watched the deploy of build {day}.", "- The deploy pipeline was slow.",
                               "- Lunch with the team."])
    mem = Memory.open(str(tmp_path), "2025-04-01")
    mem.index()
    yield mem
    mem.close()


def _fresh_counts(conn: sqlite3.Connection) -> tuple[dict, dict]:
    counts = {(table, t.label): lexical.count_matches(conn, t, table) for t in TERMS
              for table in ("chunks_fts", "sessions_fts")}
    hits = {(table, p): bm25.phrase_rows(conn, table, p) for p in PHRASES for table in ("chunks_fts", "sessions_fts")}
    return counts, hits


def _cached(cache: ReadCache, conn: sqlite3.Connection) -> tuple[dict, dict]:
    counts = {}
    for table in ("chunks_fts", "sessions_fts"):
        for label, n in cache.frequencies(conn, TERMS, table).items():
            counts[table, label] = n
    hits = {(table, p): cache.phrase_rows(conn, table, p) for p in PHRASES for table in ("chunks_fts", "sessions_fts")}
    return counts, hits


def _no_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_a, **_k):
        raise AssertionError("the cache counted again instead of following the journal")

    monkeypatch.setattr(read_cache, "count_matches", refuse)
    monkeypatch.setattr(bm25, "phrase_rows", refuse)


def test_counts_follow_edits_without_counting_again(ws: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = ws.store.conn
    cache = ReadCache()
    assert _cached(cache, conn) == _fresh_counts(conn)
    root = Path(ws.workspace.root)
    edits = [
        lambda: _write(root, 3, ["- The quokka broke the deploy pipeline.", "- Rollback done."]),  # modify
        lambda: _write(root, 20, ["- A new deploy, a new pipeline, a quokka."]),  # add
        lambda: (root / "memory" / "2025-03-05.md").unlink(),  # delete
        lambda: _write(root, 3, ["- Nothing about it any more."]),  # modify again
    ]
    for edit in edits:
        edit()
        ws.index()
        with monkeypatch.context() as m:
            _no_counting(m)
            cached = _cached(cache, conn)
        assert cached == _fresh_counts(conn)
        assert cache.totals(conn, "chunks_fts") == bm25.totals(conn, "chunks_fts")


def test_a_change_bigger_than_the_journal_counts_again(ws: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = ws.store.conn
    cache = ReadCache()
    _cached(cache, conn)
    monkeypatch.setattr(journal, "MAX_ROWS", 2)
    root = Path(ws.workspace.root)
    for day in range(1, 8):
        _write(root, day, ["- The quokka deploy.", "- Pipeline rollback."])
    ws.index()
    assert conn.execute("SELECT COUNT(*) FROM fts_journal WHERE tbl = '*'").fetchone()[0] == 1
    assert journal.since(conn, cache.seq, cache.generation) is None
    assert _cached(cache, conn) == _fresh_counts(conn)


def test_a_rebuild_resets_the_journal(ws: Memory) -> None:
    conn = ws.store.conn
    cache = ReadCache()
    _cached(cache, conn)
    ws.index(rebuild=True)
    assert conn.execute("SELECT tbl FROM fts_journal").fetchall() == [("*",)]
    assert _cached(cache, conn) == _fresh_counts(conn)


def test_a_change_the_journal_missed_is_caught_by_the_totals(ws: Memory) -> None:
    conn = ws.store.conn
    cache = ReadCache()
    _cached(cache, conn)
    # Written behind the journal's back (as a future code path might): the totals no longer add up.
    conn.execute("INSERT INTO chunks_fts(rowid, search_text, path_text, context_text) VALUES (999999, ?, '', '')",
                 ("an extra deploy pipeline quokka",))
    conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
    conn.commit()
    assert _cached(cache, conn) == _fresh_counts(conn)


def test_a_purge_leaves_no_copy_in_the_journal(ws: Memory) -> None:
    root = Path(ws.workspace.root)
    _write(root, 4, ["- The door code is 4711-secret.", "- The deploy pipeline was slow."])
    ws.index()
    _write(root, 4, ["- The deploy pipeline was slow."])
    ws.index()  # the old line is now a deleted row in the journal
    conn = ws.store.conn
    assert conn.execute("SELECT COUNT(*) FROM fts_journal WHERE instr(search_text, '4711-secret') > 0").fetchone()[0]
    ws.purge("4711-secret", apply=True)
    conn = ws.store.conn
    assert conn.execute("SELECT COUNT(*) FROM fts_journal WHERE instr(search_text, '4711-secret') > 0").fetchone()[0] == 0


def test_the_journal_migration_does_not_rebuild(ws: Memory) -> None:
    """m008 adds a side table: an index built before it keeps its rows (no fingerprint change: the
    fingerprint names ROWS_SCHEMA, the last migration that changed the rows, not the number of migrations)."""
    from workspace_memory.index.sqlite.schema import ROWS_SCHEMA

    conn = ws.store.conn
    assert settings_changed(ws.store.writer(), ws.workspace.date_order) is None
    fingerprint = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0]
    assert f'"schema": {ROWS_SCHEMA}' in fingerprint
