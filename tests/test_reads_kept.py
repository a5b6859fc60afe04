"""What a long-lived process keeps between questions while the index does not change: the scratch
table that tells which query terms each candidate holds (index.sqlite.term_scratch) and the rows
recall read (index.sqlite.reads, read_cache) and the candidates' vectors (SqliteVectors.vectors_of). None
ever answers from a row the index no longer has."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import recall_ws as R
from workspace_memory.api import Memory, RecallRequest
from workspace_memory.index.base import Term
from workspace_memory.index.sqlite import term_scratch

LOG = """\
# 2025-11-20

## Trip
- Took the early train from Salzburg with Anna.
- We visited the Hundertwasser museum; the floors are not level anywhere.
- Lunch was schnitzel at a place near the canal.
"""
CONTEXT = 0.5


@pytest.fixture
def mem(tmp_path: Path):
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2025-11-20.md").write_text(LOG, encoding="utf-8")
    mem = Memory.open(str(tmp_path), "2025-11-21")
    mem.index()
    yield mem
    mem.close()


def ids_by_text(mem) -> dict[str, int]:
    return {text: cid for cid, text in mem.store.conn.execute("SELECT id, text FROM chunks")}


def entry(ids: dict[str, int], needle: str) -> int:
    return next(cid for text, cid in ids.items() if needle in text)


def test_a_term_matches_its_entry_and_the_next_one_by_context(mem) -> None:
    ids = ids_by_text(mem)
    train, museum, lunch = (entry(ids, w) for w in ("train", "museum", "schnitzel"))
    with mem.store.snapshot():
        found = mem.store.term_matches([Term("train"), Term("museum")], [train, museum, lunch], CONTEXT)
        # Asked again about fewer candidates: only those, though the table holds all three rows.
        again = mem.store.term_matches([Term("train")], [museum, lunch], CONTEXT)
    assert found == {"train": {train: 1.0, museum: CONTEXT}, "museum": {museum: 1.0, lunch: CONTEXT}}
    assert again == {"train": {museum: CONTEXT}}


def test_what_a_term_matched_is_asked_again_when_new_rows_join_the_table(mem) -> None:
    ids = ids_by_text(mem)
    train, museum = entry(ids, "train"), entry(ids, "museum")
    with mem.store.snapshot():
        first = mem.store.term_matches([Term("train")], [train], CONTEXT)
        # The museum's row joins the table: "train" (kept for the table as it was) matches it too now.
        again = mem.store.term_matches([Term("train")], [train, museum], CONTEXT)
    assert first == {"train": {train: 1.0}}
    assert again == {"train": {train: 1.0, museum: CONTEXT}}


def test_rows_stay_between_questions_until_the_index_changes(mem, tmp_path: Path) -> None:
    ids = ids_by_text(mem)
    lunch = entry(ids, "schnitzel")
    with mem.store.snapshot():
        assert mem.store.term_matches([Term("schnitzel")], [lunch], CONTEXT) == {"schnitzel": {lunch: 1.0}}
    held = mem.store._terms.texts
    assert lunch in held, "the row stays for the next question"
    log = tmp_path / "memory" / "2025-11-20.md"
    log.write_text(LOG.replace("schnitzel", "dumplings"), encoding="utf-8")
    mem.refresh()
    lunch = entry(ids_by_text(mem), "dumplings")
    with mem.store.snapshot():
        found = mem.store.term_matches([Term("schnitzel"), Term("dumplings")], [lunch], CONTEXT)
    assert found == {"schnitzel": {}, "dumplings": {lunch: 1.0}}


def test_a_rolled_back_transaction_does_not_leave_the_table_behind_what_it_holds(mem) -> None:
    ids = ids_by_text(mem)
    train, museum = entry(ids, "train"), entry(ids, "museum")
    conn = mem.store.conn
    conn.execute("BEGIN")
    mem.store.term_matches([Term("train")], [train, museum], CONTEXT)
    conn.execute("ROLLBACK")  # the rows inserted inside are gone; the object still lists them
    with mem.store.snapshot():
        assert mem.store.term_matches([Term("train")], [train, museum], CONTEXT) == {
            "train": {train: 1.0, museum: CONTEXT}}


def test_a_full_table_starts_again_from_the_candidates(mem, monkeypatch) -> None:
    monkeypatch.setattr(term_scratch, "SCRATCH_ROWS", 2)
    ids = ids_by_text(mem)
    train, museum, lunch = (entry(ids, w) for w in ("train", "museum", "schnitzel"))
    with mem.store.snapshot():
        mem.store.term_matches([Term("train")], [train, museum], CONTEXT)
        found = mem.store.term_matches([Term("canal")], [lunch], CONTEXT)
    assert found == {"canal": {lunch: 1.0}}
    assert set(mem.store._terms.texts) == {lunch}


def test_rows_come_back_the_same_and_a_caller_cannot_change_the_kept_ones(mem) -> None:
    ids = sorted(ids_by_text(mem).values())
    first = mem.store.rows(list(reversed(ids)))
    assert list(first) == ids, "SQLite's order: by id"
    first[ids[0]]["entity_names"].append("changed by a caller")
    first[ids[0]]["text"] = "changed by a caller"
    again = mem.store.rows(ids)
    assert again[ids[0]]["entity_names"] == [] and "changed" not in again[ids[0]]["text"]
    assert again == mem.store.rows(ids) and list(mem.store.rows(ids[1:])) == ids[1:]


def test_kept_rows_are_dropped_when_the_index_changes(mem, tmp_path: Path) -> None:
    lunch = entry(ids_by_text(mem), "schnitzel")
    assert "schnitzel" in mem.store.rows([lunch])[lunch]["text"]
    log = tmp_path / "memory" / "2025-11-20.md"
    log.write_text(LOG.replace("schnitzel", "dumplings"), encoding="utf-8")
    mem.refresh()
    now = entry(ids_by_text(mem), "dumplings")
    assert "dumplings" in mem.store.rows([now])[now]["text"]
    assert lunch == now or mem.store.rows([lunch]) == {}, "a removed row is not read from the cache"


def test_kept_entry_keys_are_dropped_when_the_index_changes(mem, tmp_path: Path) -> None:
    conn = mem.store.conn
    lunch = entry(ids_by_text(mem), "schnitzel")
    assert mem.store._cache.entry_keys(conn, [lunch])[lunch] == ("memory/2025-11-20.md", 6)
    log = tmp_path / "memory" / "2025-11-20.md"
    log.write_text(LOG.replace("## Trip\n", "## Trip\n- Rain all day.\n"), encoding="utf-8")
    mem.refresh()
    now = entry(ids_by_text(mem), "schnitzel")
    keys = mem.store._cache.entry_keys(conn, [lunch, now])
    assert keys[now] == ("memory/2025-11-20.md", 7)
    assert lunch == now or lunch not in keys, "a removed row's entry is not kept"


def test_kept_vectors_follow_an_edit_in_a_long_lived_process(tmp_path: Path, monkeypatch) -> None:
    for key in [k for k in __import__("os").environ if k.startswith("MEMORY_") and k != "MEMORY_CACHE_DIR"]:
        monkeypatch.delenv(key)
    ws = R.build(tmp_path / "ws", toml=R.FAKE_TOML)  # the deterministic fake provider
    mem = Memory.open(str(ws), R.NOW)
    try:
        mem.index()
        mem.recall(RecallRequest("invoice PDF layout", k=5, mode="hybrid"))
        vectors = mem.store.vectors(mem.embedder()[0])
        pdf = entry(ids_by_text(mem), "invoice PDF layout")
        before = vectors.vectors_of([pdf])[pdf]
        assert vectors.vectors_of([pdf])[pdf] is before, "kept: the same answer, not read again"
        day = ws / "memory" / "2025-12-02.md"
        day.write_text(day.read_text(encoding="utf-8").replace("invoice PDF layout", "tram timetable"),
                       encoding="utf-8")
        mem.recall(RecallRequest("tram timetable", k=5, mode="hybrid"))  # syncs, and follows the edit
        tram = entry(ids_by_text(mem), "tram timetable")
        after = vectors.vectors_of([pdf, tram])
    finally:
        mem.close()
    fresh = Memory.open(str(ws), R.NOW)  # what a new process reads
    try:
        expected = fresh.store.vectors(fresh.embedder()[0]).vectors_of([pdf, tram])
    finally:
        fresh.close()
    assert set(after) == set(expected) and tram in after
    assert all(np.array_equal(after[cid], expected[cid]) for cid in expected)
    assert not np.array_equal(after[tram], before)


def test_a_word_glued_to_cjk_text_is_found_once_an_entry_holds_cjk(mem, tmp_path: Path) -> None:
    # No entry holds CJK text: the search for words glued to it is skipped (the read cache says so).
    assert mem.recall(RecallRequest("Schwabing", k=5, mode="lexical"))["results"] == []
    log = tmp_path / "memory" / "2025-11-20.md"
    log.write_text(LOG + "- 周末住在慕尼黑Schwabing区的朋友家。\n", encoding="utf-8")
    found = mem.recall(RecallRequest("Schwabing", k=5, mode="lexical"))["results"]
    assert found and "慕尼黑Schwabing区" in found[0]["content"]
