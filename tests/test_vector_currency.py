"""Which vector copy is current, and what to do (index/sqlite/vectors/currency.py): the decision
table over every combination of states, the states as the real files show them, and what a writer
and a reader do with real damaged, foreign, stale and missing files (the store then holds SQLite's
vectors, and says what it did)."""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import recall_ws as R
from conftest import index_db
from test_recent_vectors import assert_store_matches_sqlite, edit, index, vector_files
from workspace_memory.api import Memory
from workspace_memory.index.sqlite.vectors import currency as C
from workspace_memory.index.sqlite.vectors import int8_copy, recent_file
from workspace_memory.index.sqlite.vectors.hnsw import VectorStore

# The decision table, written out: (HNSW file, recent file) -> what a writer does and what a reader
# does with them, as (hnsw, recent, notice). "*" = any recent state. Notices: "rebuilt" (vector
# index rebuilt from SQLite), "recent" (recent vector file not used), "" (nothing to say).
TABLE = """
missing  *        | rebuild  drop      rebuilt | rebuild  ignore    rebuilt
damaged  *        | rebuild  drop      rebuilt | rebuild  ignore    rebuilt
foreign  *        | rebuild  drop      rebuilt | rebuild  ignore    rebuilt
stale    none     | catch-up ignore    -       | catch-up ignore    -
stale    missing  | catch-up ignore    -       | catch-up ignore    -
stale    damaged  | catch-up drop      recent  | catch-up ignore    recent
stale    foreign  | catch-up drop      recent  | catch-up ignore    recent
stale    stale    | catch-up lay-over  -       | catch-up lay-over  -
stale    current  | catch-up lay-over  -       | catch-up lay-over  -
current  none     | use      ignore    -       | use      ignore    -
current  missing  | catch-up ignore    -       | catch-up ignore    -
current  damaged  | catch-up drop      recent  | catch-up ignore    recent
current  foreign  | catch-up drop      recent  | catch-up ignore    recent
current  stale    | catch-up lay-over  -       | catch-up lay-over  -
current  current  | use      lay-over  -       | use      lay-over  -
"""


def _rows() -> dict[tuple[str, str, bool], tuple[str, str, str]]:
    rows = {}
    for line in TABLE.strip().splitlines():
        left, writer, reader = (part.split() for part in line.split("|"))
        hnsw, recent = left
        for state in C.RECENT_STATES if recent == "*" else (recent,):
            for is_writer, (plan, laid, notice) in ((True, writer), (False, reader)):
                rows[(hnsw, state, is_writer)] = (plan.replace("-", " "), laid.replace("-", " "), notice)
    return rows


def test_the_table_names_every_combination_once() -> None:
    assert set(_rows()) == set(itertools.product(C.HNSW_STATES, C.RECENT_STATES, (True, False)))


@pytest.mark.parametrize(("hnsw", "recent", "int8", "writer"),
                         list(itertools.product(C.HNSW_STATES, C.RECENT_STATES, C.INT8_STATES, (True, False))))
def test_every_combination_of_states_is_decided_as_the_table_says(hnsw: str, recent: str, int8: str,
                                                                  writer: bool) -> None:
    plan = C.decide(hnsw, recent, int8, writer=writer, why="file corrupt")
    want_hnsw, want_recent, notice = _rows()[(hnsw, recent, writer)]
    assert (plan.hnsw, plan.recent) == (want_hnsw, want_recent)
    said = {"vector index rebuilt from SQLite (file corrupt)": "rebuilt", C.RECENT_NOT_USED: "recent"}
    assert [said[n] for n in plan.notices] == ([] if notice == "-" else [notice])
    # The int8 copy follows the HNSW file: a rebuilt file gets a new one (a writer) or none (a
    # reader reads in memory); a kept file's copy is mapped (a reader) or kept (a writer) when
    # current, else read past (a reader) or written again (a writer) for the next cold reader.
    if plan.hnsw == C.REBUILD:
        assert plan.int8 == (C.WRITE if writer else C.READ_WHOLE)
    else:
        current = int8 == C.CURRENT
        assert plan.int8 == ((C.KEEP if current else C.WRITE) if writer else (C.MAP if current else C.READ_WHOLE))
    # A reader never plans to write or delete a file; a first build never reports a rebuild.
    assert writer or (plan.recent != C.DROP and plan.int8 not in (C.WRITE, C.KEEP))
    assert not C.decide(hnsw, recent, int8, writer=writer, first=True).notices or plan.hnsw != C.REBUILD


def test_the_loaders_reasons_are_states() -> None:
    assert C.hnsw_state(None) == C.CURRENT and C.hnsw_state(None, behind=True) == C.STALE
    assert C.hnsw_state("file missing") == C.MISSING
    assert C.hnsw_state("file corrupt") == C.DAMAGED == C.hnsw_state("file format changed")
    assert C.hnsw_state("dimension changed from 8 to 16") == C.FOREIGN == C.hnsw_state("embedding model changed")
    assert C.hnsw_state("stale: 3 vectors in file, 4 in SQLite") == C.DAMAGED


def test_the_recent_files_state() -> None:
    assert C.recent_state(None, True, True, True, 5) == C.NONE  # none recorded: the file is not looked at
    assert C.recent_state(5, False, False, False, None) == C.MISSING
    assert C.recent_state(5, True, False, False, None) == C.DAMAGED
    assert C.recent_state(5, True, True, False, 5) == C.FOREIGN
    assert C.recent_state(5, True, True, True, 4) == C.STALE
    assert C.recent_state(5, True, True, True, 5) == C.CURRENT


# ------------------------------------------------------------------------------------ real files


@pytest.fixture(autouse=True)
def _library_only(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in list(os.environ):
        if key.startswith("MEMORY_") and key != "MEMORY_CACHE_DIR":
            monkeypatch.delenv(key)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = R.build(tmp_path / "ws", toml=R.FAKE_TOML)
    index(root)
    return root


@contextlib.contextmanager
def as_reader(ws: Path) -> Iterator[None]:
    """Another process holds the writer lock: what opens the vectors meanwhile is a reader."""
    with open(ws / ".memory" / "index.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def opened(ws: Path) -> list[str]:
    """Open the vectors as a new process's first search does; the notices, after checking that
    the store holds SQLite's vectors."""
    mem = Memory.open(str(ws), R.NOW)
    try:
        notices = mem.store.vectors(mem.embedder()[0]).update(embed=False, defer=False).notices
    finally:
        mem.close()
    assert assert_store_matches_sqlite(ws) > 0
    return notices


def vector_bytes(ws: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (ws / ".memory" / "vectors").iterdir() if p.is_file()}


def sidecar(ws: Path) -> dict:
    hnsw, _ = vector_files(ws)
    return json.loads(hnsw.with_name(hnsw.name + ".json").read_text())


def _damage_hnsw(ws: Path, how: str) -> None:
    hnsw, _ = vector_files(ws)
    if how == C.MISSING:
        hnsw.unlink()
    elif how == C.DAMAGED:
        data = bytearray(hnsw.read_bytes())
        data[len(data) // 2] ^= 0xFF
        hnsw.write_bytes(bytes(data))
    elif how == C.FOREIGN:
        hnsw.with_name(hnsw.name + ".json").write_text(json.dumps(sidecar(ws) | {"identity": "another/model/8/x"}))


def _sync_only(ws: Path) -> None:
    """The chunks move past the vector files: a read's sync, and the new texts' vectors cached."""
    mem = Memory.open(str(ws), R.NOW)
    try:
        mem.refresh()
        mem.store.vectors(mem.embedder()[0]).embed_new()
    finally:
        mem.close()


@pytest.mark.parametrize("how", [C.MISSING, C.DAMAGED, C.FOREIGN])
def test_an_hnsw_file_that_cannot_be_used_is_rebuilt_from_sqlite(ws: Path, how: str) -> None:
    dim, identity = sidecar(ws)["dim"], sidecar(ws)["identity"]
    _damage_hnsw(ws, how)
    reason = VectorStore(next((ws / ".memory" / "vectors").glob("*.hnsw.json")).with_suffix(""), dim,
                         identity)._load_file()
    assert C.hnsw_state(reason) == how
    files = vector_bytes(ws)
    with as_reader(ws):
        said = opened(ws)
    assert vector_bytes(ws) == files, "a reader writes no vector file"
    assert said == [f"vector index rebuilt from SQLite ({reason})"]
    assert opened(ws) == said  # the writer rebuilds and saves
    assert opened(ws) == []  # and the next process uses the file


def test_an_hnsw_file_behind_the_chunks_is_caught_up(ws: Path) -> None:
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    _sync_only(ws)
    files = vector_bytes(ws)
    with as_reader(ws):
        assert opened(ws) == []  # STALE: the chunks changed since are applied in memory
    assert vector_bytes(ws) == files
    assert opened(ws) == [] and vector_bytes(ws) != files  # the writer keeps the change


def _recent_meta(ws: Path) -> int | None:
    with index_db(ws) as conn:
        row = conn.execute("SELECT value FROM meta WHERE key LIKE 'vectors:%:recent'").fetchone()
    return int(row[0]) if row else None


@pytest.mark.parametrize("how", [C.NONE, C.MISSING, C.DAMAGED, C.FOREIGN, C.STALE, C.CURRENT])
def test_each_state_of_the_recent_file(ws: Path, how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    edit(ws, "2025-12-02.md", "invoice PDF layout", "invoice PDF watermark")
    index(ws)  # a small edit: its vectors go to the recent file
    hnsw, recent = vector_files(ws)
    recorded = _recent_meta(ws)
    assert recent.exists() and recorded is not None
    head, _, payload = recent.read_bytes().partition(b"\n")
    if how == C.NONE:  # the next change folded into the HNSW file; an old recent file left behind
        left_over = recent.read_bytes()
        monkeypatch.setattr(recent_file, "LIMIT", 0)
        edit(ws, "2025-12-02.md", "invoice PDF watermark", "invoice PDF margins")
        index(ws)
        assert not recent.exists() and _recent_meta(ws) is None
        recent.write_bytes(left_over)
        recorded = None
    elif how == C.MISSING:
        recent.unlink()
    elif how == C.DAMAGED:
        recent.write_bytes(recent.read_bytes()[:-7])
    elif how in (C.FOREIGN, C.STALE):
        change = {"base": "0" * 64} if how == C.FOREIGN else {"generation": recorded - 1}
        recent.write_bytes(json.dumps(json.loads(head) | change).encode() + b"\n" + payload)
    got = recent_file.read(recent, sidecar(ws)["dim"], sidecar(ws)["identity"]) if recent.exists() else None
    state = C.recent_state(recorded, recent.exists(), got is not None,
                           got is not None and got.base == sidecar(ws)["sha256"], got.generation if got else None)
    assert state == how
    files = vector_bytes(ws)
    with as_reader(ws):
        said = opened(ws)
    assert vector_bytes(ws) == files, "a reader writes no vector file"
    assert said == ([C.RECENT_NOT_USED] if how in (C.DAMAGED, C.FOREIGN) else [])
    assert opened(ws) == said  # the writer: caught up (the recent file written again, or folded)
    assert opened(ws) == []


def test_the_int8_copys_states(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(int8_copy, "MAP_FROM_BYTES", 0)
    rng = np.random.default_rng(3)
    path = tmp_path / "v.hnsw"
    store = VectorStore(path, 8, "id")
    store.rebuild(np.arange(40), rng.normal(size=(40, 8)).astype(np.float32))
    store.save()
    digest = store.digest or ""
    assert int8_copy.state(path, 8, digest) == C.CURRENT
    assert int8_copy.state(path, 8, "0" * 64) == C.FOREIGN and int8_copy.state(path, 16, digest) == C.FOREIGN
    side = int8_copy.path_for(path)
    side.write_bytes(side.read_bytes()[:-1])
    assert int8_copy.state(path, 8, digest) == C.DAMAGED
    side.unlink()
    assert int8_copy.state(path, 8, digest) == C.MISSING
    writer = VectorStore(path, 8, "id")
    assert writer.load(lambda: pytest.fail("must not rebuild"), persist=True) == []  # WRITE: for the next reader
    assert int8_copy.state(path, 8, digest) == C.CURRENT
