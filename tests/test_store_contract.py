"""The store contract (index.base, index.ports), run on both stores: the rows one indexer writes through
each store's IndexWriter, and what a store declares instead of leaving to `getattr`.

Every test that takes `any_store` runs once on SQLite and once on Postgres (pg_fixtures). The
settings test indexes one workspace with every setting that shapes rows (`[time] date_order`, session
transcripts as a source, extra paths, the embedding model) on both stores and compares the rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from conftest import run_ok, write_files
from pg_fixtures import STORES, store_name
from session_files import conversation, write_lines
from workspace_memory.index.base import Store
from workspace_memory.index.indexer import settings_changed, sync
from workspace_memory.workspace.layout import Workspace

FAKE = {"MEMORY_EMBED_PROVIDER": "fake"}

# A workspace with every setting that shapes rows. "03/04/2025" reads 3 April with DMY (and 4 March
# with MDY): a store that ignores date_order stores another day, or none.
SETTINGS_FILES = {
    "MEMORY.md": "# Memory\n\n- Peter prefers espresso.\n",
    "memory/2025-03-01.md": (
        "# 2025-03-01\n\n## Retain\n- W @Peter: Dentist appointment on 03/04/2025.\n"
        "- W @Peter: Peter lives in Vienna.\n- W @Peter: Peter lives in Graz.\n"
        "- O(c=0.8) @Peter: Peter should switch dentists.\n\nSome notes on the day; the follow-up is on Mar 12 and Peter will"
        " be back on the 20th.\n"),
    "bank/entities/Peter.md": "---\nname: Peter Steinberger\naliases: [Pete]\n---\n# Peter\n\nA friend.\n",
}
EXTRA_FILES = {"notes/trip.md": "# Trip\n\nThe 12/05/2025 flight to Lisbon with @Anna.\n"}


def settings_workspace(root: Path) -> Path:
    """SETTINGS_FILES under `root/ws`, an extra folder, a session transcript, and memory.toml naming all three."""
    extra, sessions = root / "extra", root / "sessions"
    write_files(extra, EXTRA_FILES)
    from datetime import UTC, datetime

    write_lines(sessions / "s1.jsonl", conversation("s1", datetime(2025, 3, 2, 9, tzinfo=UTC), [
        ("user", "Remind me about the dentist on 03/04/2025"), ("assistant", "I will remind you.")]))
    toml = (f'extra_paths = ["{extra.as_posix()}"]\n\n[time]\ndate_order = "DMY"\n\n'
            f'[sessions]\npaths = ["{sessions.as_posix()}"]\n')
    write_files(root / "ws", SETTINGS_FILES | {"memory.toml": toml})
    return root / "ws"


def _plain(value: Any) -> Any:
    """A cell as comparable text: days as ISO, JSON (text or jsonb) as sorted JSON."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.dumps(json.loads(value), sort_keys=True)
        except ValueError:
            return value
    return value


CHUNK_COLS = ("path", "start_line", "end_line", "entry_start", "kind", "heading", "text", "role", "day", "t_start",
              "t_end", "at", "invalid_at", "text_hash", "ctx_hash")
FACT_COLS = ("path", "line", "kind", "content", "confidence", "day", "occurred_start", "occurred_end", "end_line",
             "bullet", "invalid_at", "invalid_reason")


def table_rows(execute: Any, where: str) -> dict[str, Any]:
    """The rows one store holds for the workspace, with chunk ids replaced by (path, line, text)."""
    entry = {r[0]: (r[1], r[2], r[3]) for r in execute(f"SELECT id, path, start_line, text FROM chunks {where}")}
    out: dict[str, Any] = {
        "files": sorted(tuple(map(_plain, r)) for r in execute(
            f"SELECT path, hash, size, role, day, title, meta, languages FROM files {where}")),
        "chunks": sorted(tuple(map(_plain, r)) for r in execute(f"SELECT {', '.join(CHUNK_COLS)} FROM chunks {where}")),
        "facts": sorted((*map(_plain, r[:-1]), entry.get(r[-1])) for r in execute(
            f"SELECT {', '.join(FACT_COLS)}, superseded_by FROM facts {where}")),
        "mentions": sorted((entry[r[0]], r[1], r[2]) for r in execute(
            f"SELECT chunk_id, entity_key, slug FROM mentions {where}")),
        "entities": sorted(tuple(map(_plain, r)) for r in execute(
            f"SELECT key, slug, name, page_path, aliases, fact_count FROM entities {where}")),
        "warnings": sorted(tuple(r) for r in execute(f"SELECT path, line, message FROM warnings {where}")),
        "chunk_days": sorted((entry[r[0]], _plain(r[1]), _plain(r[2])) for r in execute(
            f"SELECT chunk_id, t_start, t_end FROM chunk_days {where}")),
        "sessions": sorted(tuple(r) for r in execute(f"SELECT path, size, lines, messages FROM session_files {where}")),
    }
    return out


def sqlite_rows(root: Path) -> dict[str, Any]:
    import sqlite3

    conn = sqlite3.connect(root / ".memory" / "index.sqlite")
    try:
        return table_rows(lambda sql: conn.execute(sql).fetchall(), "")
    finally:
        conn.close()


def postgres_rows(url: str, name: str) -> dict[str, Any]:
    import psycopg

    from workspace_memory.index.postgres.schema import SCHEMA

    with psycopg.connect(url) as conn:
        conn.execute(f"SET search_path TO {SCHEMA}, public")
        (ws_id,) = conn.execute("SELECT workspace_id FROM workspaces WHERE name = %s", (name,)).fetchone()
        return table_rows(lambda sql: conn.execute(sql).fetchall(), f"WHERE workspace_id = {int(ws_id)}")


def test_one_workspace_with_every_setting_gives_the_same_rows_on_both_stores(tmp_path: Path, pg_url: str) -> None:
    """date_order, sessions, extra paths and the model: `memory index` on SQLite and on Postgres writes the
    same files, entries, facts (their stated days too), mentions, entities, warnings and transcripts."""
    root = settings_workspace(tmp_path)
    name = store_name(tmp_path / "settings")
    pg = {"MEMORY_STORE_URL": pg_url, "MEMORY_STORE_WORKSPACE": name}
    run_ok(root, "index", env=FAKE)
    run_ok(root, "index", env=FAKE | pg)
    on_sqlite, on_postgres = sqlite_rows(root), postgres_rows(pg_url, name)
    dentist = [r for r in on_sqlite["facts"] if "Dentist" in r[3]]
    assert [(r[6], r[7]) for r in dentist] == [("2025-04-03", "2025-04-03")]  # DMY: 3 April
    assert any(r[0].startswith("sessions/") for r in on_sqlite["chunks"])
    assert any(r[0].startswith("notes/") or "trip" in r[0] for r in on_sqlite["files"])
    for table in on_sqlite:
        assert on_postgres[table] == on_sqlite[table], table
    # The setting changes: both stores see it, and both rebuild with the new reading (4 March).
    toml = (root / "memory.toml").read_text(encoding="utf-8").replace('"DMY"', '"MDY"')
    (root / "memory.toml").write_text(toml, encoding="utf-8")
    run_ok(root, "index", env=FAKE)
    run_ok(root, "index", env=FAKE | pg)
    on_sqlite, on_postgres = sqlite_rows(root), postgres_rows(pg_url, name)
    assert [(r[6], r[7]) for r in on_sqlite["facts"] if "Dentist" in r[3]] == [("2025-03-04", "2025-03-04")]
    for table in on_sqlite:
        assert on_postgres[table] == on_sqlite[table], table


# ------------------------------------------------------------------------------------------ both stores


@pytest.fixture(params=STORES)
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Workspace, Store]]:
    """A workspace (SETTINGS_FILES without sessions) and an empty store of each kind for it."""
    root = tmp_path / "ws"
    write_files(root, SETTINGS_FILES | {"memory.toml": '[time]\ndate_order = "DMY"\n'})
    ws = Workspace.open(root)
    store: Store
    if request.param == "postgres":
        from workspace_memory.index.postgres.store import PostgresStore

        store = PostgresStore(request.getfixturevalue("pg_url"), store_name(tmp_path / "contract"))
    else:
        from workspace_memory.index.sqlite.store import SqliteStore

        store = SqliteStore(ws.state_dir)
    try:
        yield ws, store
    finally:
        store.close()


def _second(ws: Workspace, store: Store) -> Store:
    """Another connection to the same store: another process, as far as locks go."""
    from workspace_memory.index.postgres.store import PostgresStore
    from workspace_memory.index.sqlite.store import SqliteStore

    if isinstance(store, PostgresStore):
        return PostgresStore(store.db.url, store.name)
    assert isinstance(store, SqliteStore)
    return SqliteStore(ws.state_dir)


def _facts(store: Store) -> dict[str, Any]:
    return {f.content: f for f in store.facts()}


def test_a_first_sync_adds_every_file_and_a_second_changes_nothing(any_store: tuple[Workspace, Store]) -> None:
    ws, store = any_store
    first = sync(ws, store.writer())
    assert (first.added, first.changed, first.removed) == (3, 0, 0) and first.dirty
    generation = store.generation()
    assert generation >= 1 and store.status()["files"] == 3
    again = sync(ws, store.writer())
    assert (again.added, again.changed, again.touched, again.unchanged) == (0, 0, 0, 3)
    assert store.generation() == generation and not again.notices


def test_an_edit_a_touch_and_a_removal(any_store: tuple[Workspace, Store]) -> None:
    """Only what changed is parsed; a touched file keeps its entries and the generation; ids are never reused."""
    ws, store = any_store
    sync(ws, store.writer())
    old_ids = {f.id for f in store.facts()}
    daily = ws.root / "memory" / "2025-03-01.md"
    daily.write_text(daily.read_text(encoding="utf-8") + "- W @Peter: Peter bought a bike.\n", encoding="utf-8")
    edited = sync(ws, store.writer())
    assert (edited.added, edited.changed, edited.removed) == (0, 1, 0)
    assert edited.new_chunk_ids and min(edited.new_chunk_ids) > max(old_ids)  # never reused
    assert sorted(edited.new_chunk_ids) == list(range(min(edited.new_chunk_ids), max(edited.new_chunk_ids) + 1))
    generation = store.generation()
    core = ws.root / "MEMORY.md"
    core.write_text(core.read_text(encoding="utf-8"), encoding="utf-8")  # same bytes, a new mtime
    import os

    os.utime(core, ns=(core.stat().st_atime_ns, core.stat().st_mtime_ns + 10**9))
    touched = sync(ws, store.writer())
    assert (touched.touched, touched.changed, touched.dirty) == (1, 0, False)
    assert store.generation() == generation
    core.unlink()
    removed = sync(ws, store.writer())
    assert removed.removed == 1 and removed.removed_chunk_ids and store.generation() > generation
    assert store.status()["files"] == 2


def test_date_order_reads_facts_and_a_change_of_it_rebuilds(any_store: tuple[Workspace, Store]) -> None:
    """`[time] date_order` is part of the settings on every store: "03/04/2025" is 3 April with DMY; with
    MDY a recall leaves the index as it is (and says so), and an index rebuilds it as 4 March."""
    ws, store = any_store
    sync(ws, store.writer())
    dentist = next(f for c, f in _facts(store).items() if "Dentist" in c)
    assert (dentist.occurred_start, dentist.occurred_end) == ("2025-04-03", "2025-04-03")
    assert settings_changed(store.writer(), "DMY") is None
    assert "date_order DMY -> MDY" in (settings_changed(store.writer(), "MDY") or "")
    (ws.root / "memory.toml").write_text('[time]\ndate_order = "MDY"\n', encoding="utf-8")
    ws = Workspace.open(ws.root)
    kept = sync(ws, store.writer(), rebuild_if_stale=False)
    assert kept.notices and "run `memory index`" in kept.notices[0] and not kept.dirty
    rebuilt = sync(ws, store.writer())
    assert "rebuilt the index" in rebuilt.notices[0] and rebuilt.added == 3
    dentist = next(f for c, f in _facts(store).items() if "Dentist" in c)
    assert (dentist.occurred_start, dentist.occurred_end) == ("2025-03-04", "2025-03-04")
    assert settings_changed(store.writer(), "MDY") is None


def test_an_indexer_that_waited_for_another_s_rebuild_does_not_rebuild_again(any_store: tuple[Workspace, Store]) -> None:
    """Two `memory index` after a settings change (or on a first index that another one is half through):
    both find the index stale, one takes the lock and rebuilds; the other, once it has the lock, looks
    again and finds the work done (CI saw both rebuild every file on Postgres)."""
    ws, store = any_store
    sync(ws, store.writer())
    (ws.root / "memory.toml").write_text('[time]\ndate_order = "MDY"\n', encoding="utf-8")
    ws = Workspace.open(ws.root)
    other, writer = _second(ws, store), store.writer()
    lock = writer.lock

    def lock_after_the_other_rebuilt(wait: float | None) -> Any:
        first = sync(ws, other.writer())  # the other process took the lock first
        assert "rebuilt the index" in first.notices[0] and first.added == 3
        return lock(wait)

    writer.lock = lock_after_the_other_rebuilt  # type: ignore[method-assign]
    try:
        report = sync(ws, writer)
    finally:
        other.close()
    assert (report.added, report.changed, report.unchanged, report.notices, report.dirty) == (0, 0, 3, [], False)
    assert settings_changed(store.writer(), "MDY") is None


def test_the_days_a_line_names_are_times_of_it(any_store: tuple[Workspace, Store]) -> None:
    """A line written on Mar 1 that names Mar 12 and "the 20th" (issue 37): a window on either day holds it,
    its row carries the days it names, and an edit that drops them drops them from the store."""
    from workspace_memory.index.base import Filters

    ws, store = any_store
    sync(ws, store.writer())
    for day in (date(2025, 3, 12), date(2025, 3, 20)):
        window = Filters().within((day, day))
        assert store.holds_entries(window)
        ids = store.browse(window, 10)
        rows = store.rows(ids)
        assert [r["text"][:21] for r in rows.values()] == ["Some notes on the day"], rows
        assert sorted(next(iter(rows.values()))["named"]) == [("2025-03-12", "2025-03-12"), ("2025-03-20", "2025-03-20")]
    daily = ws.root / "memory" / "2025-03-01.md"
    daily.write_text(daily.read_text(encoding="utf-8").replace("on Mar 12", "soon"), encoding="utf-8")
    sync(ws, store.writer())
    assert not store.holds_entries(Filters().within((date(2025, 3, 12), date(2025, 3, 12))))
    assert store.holds_entries(Filters().within((date(2025, 3, 20), date(2025, 3, 20))))


def test_entities_and_superseded_facts_follow_the_files(any_store: tuple[Workspace, Store]) -> None:
    ws, store = any_store
    sync(ws, store.writer())
    peter = next(e for e in store.entities() if e.key == "peter")
    assert peter.name == "Peter Steinberger" and "Pete" in peter.aliases and peter.page_path == "bank/entities/Peter.md"
    facts = _facts(store)
    vienna, graz = (next(f.id for c, f in facts.items() if town in c) for town in ("Vienna", "Graz"))
    assert store.superseded([vienna, graz]) == {vienna: graz}
    (ws.root / "bank" / "entities" / "Peter.md").unlink()  # the page goes: the name comes from the slug again
    sync(ws, store.writer())
    assert next(e for e in store.entities() if e.key == "peter").page_path is None


def test_the_languages_of_the_notes_follow_the_files(any_store: tuple[Workspace, Store]) -> None:
    """Each sync that changes files sums their entries' languages (index.rows.language_counts): a new
    German file adds to them, an edit replaces its file's share, a removal takes it away."""
    ws, store = any_store
    sync(ws, store.writer())
    english = store.languages()
    assert set(english) == {"en"} and english["en"] >= 3
    german = ws.root / "memory" / "2025-03-02.md"
    german.write_text("# 2025-03-02\n\n- Peter zieht am 15. März nach Graz.\n- Ich habe die Wohnung mit Anna"
                      " besichtigt und wir sind begeistert.\n", encoding="utf-8")
    sync(ws, store.writer())
    assert store.languages() == english | {"de": 2}
    german.write_text("# 2025-03-02\n\n- Peter zieht am 15. März nach Graz.\n", encoding="utf-8")
    sync(ws, store.writer())
    assert store.languages() == english | {"de": 1}
    german.unlink()
    sync(ws, store.writer())
    assert store.languages() == english


def test_a_busy_writer_lets_a_recall_read_at_once(any_store: tuple[Workspace, Store]) -> None:
    """wait=0 (a recall) never waits for another writer: it says busy and reads the index as it is."""
    ws, store = any_store
    sync(ws, store.writer())
    (ws.root / "memory" / "2025-03-02.md").write_text("# 2025-03-02\n\nA new day.\n", encoding="utf-8")
    other = _second(ws, store)
    try:
        with other.writer().lock(60) as held:
            assert held
            report = sync(ws, store.writer(), wait=0)
            assert report.busy and not report.dirty
    finally:
        other.close()
    assert sync(ws, store.writer(), wait=0).added == 1


def test_transcripts_are_applied_through_the_writer(any_store: tuple[Workspace, Store], tmp_path: Path) -> None:
    """index.sessions reads a transcript's new lines; every store applies them the same way."""
    from datetime import UTC, datetime

    from workspace_memory.index.sessions import sync_sessions
    from workspace_memory.workspace.transcripts import SessionFile

    ws, store = any_store
    sync(ws, store.writer())
    path = tmp_path / "sessions" / "s1.jsonl"
    lines = conversation("s1", datetime(2025, 3, 2, 9, tzinfo=UTC), [("user", "Where is the dentist?"),
                                                                     ("assistant", "On Main Street.")])
    write_lines(path, lines)
    files = [SessionFile("sessions/s1.jsonl", path)]
    first = sync_sessions(store, files, UTC)
    assert (first.read, first.messages, len(first.new_chunk_ids)) == (1, 2, 2)
    before = store.generation()
    write_lines(path, [lines[-1]], mode="a")
    more = sync_sessions(store, files, UTC)
    assert more.messages == 1 and min(more.new_chunk_ids) > max(first.new_chunk_ids)
    assert store.generation() > before
    assert store.session_states()["sessions/s1.jsonl"].messages == 3
    rows = store.rows(first.new_chunk_ids + more.new_chunk_ids)
    assert {r["role"] for r in rows.values()} == {"session"}
    gone = sync_sessions(store, [], UTC)
    assert gone.removed == 1 and store.session_states() == {}


def test_the_store_is_its_roles() -> None:
    """`Store` is the roles its callers use, each member declared in one role; nothing of its own."""
    from workspace_memory.index.base import Maintenance, RecallReads, ReflectReads, VectorRecords
    from workspace_memory.index.base import Store as StorePort

    assert [name for name in vars(StorePort) if not name.startswith("_")] == []
    roles = (RecallReads, ReflectReads, VectorRecords, Maintenance)
    assert set(StorePort.__mro__) >= set(roles)
    declared = [name for role in roles for name in [*vars(role), *vars(role).get("__annotations__", {})]
                if not name.startswith("_")]
    assert len(declared) == len(set(declared)) and len(declared) >= 30, declared


def test_what_a_store_lacks_is_declared_not_probed(any_store: tuple[Workspace, Store]) -> None:
    """Every member of the ports (Store, VectorIndex, IndexWriter) exists on every store: the façade
    never asks `getattr(store, name, None)`."""
    from workspace_memory.embed.fake import FakeEmbedder
    from workspace_memory.index.base import Store as StorePort
    from workspace_memory.index.base import VectorIndex
    from workspace_memory.index.ports import IndexWriter

    ws, store = any_store
    sync(ws, store.writer())
    objects = {StorePort: store, VectorIndex: store.vectors(FakeEmbedder()), IndexWriter: store.writer()}
    for port, obj in objects.items():
        ours = [klass for klass in port.__mro__ if klass.__module__.startswith("workspace_memory")]
        members = {name for klass in ours for name in [*vars(klass), *vars(klass).get("__annotations__", {})]
                   if not name.startswith("_")}
        assert sorted(m for m in members if not hasattr(obj, m)) == [], (port.__name__, type(obj).__name__)


def test_a_purge_rewrites_session_entries_and_the_next_ones_context(any_store: tuple[Workspace, Store],
                                                                    tmp_path: Path) -> None:
    """index.sessions.rewrite_sessions through each store's writer: the text, its words, and the
    context of the message after it; nothing finds the old text afterwards."""
    from datetime import UTC, datetime

    from workspace_memory.index.base import Filters, Term
    from workspace_memory.index.sessions import sync_sessions
    from workspace_memory.workspace.transcripts import SessionFile

    ws, store = any_store
    sync(ws, store.writer())
    path = tmp_path / "sessions" / "s2.jsonl"
    write_lines(path, conversation("s2", datetime(2025, 3, 2, 9, tzinfo=UTC), [
        ("user", "My token is zebracode42, keep it"), ("assistant", "Noted, I will keep it safe.")]))
    ids = sync_sessions(store, [SessionFile("sessions/s2.jsonl", path)], UTC).new_chunk_ids
    with store.snapshot():
        assert set(store.lexical_pool([Term("zebracode42")], 10, Filters())) == {ids[0], ids[1]}  # text, context
    assert store.purge("zebracode42", "[purged]", dry_run=True) == 1
    assert store.purge("zebracode42", "[purged]") == 1
    with store.snapshot():
        assert store.lexical_pool([Term("zebracode42")], 10, Filters()) == {}
        assert set(store.lexical_pool([Term("purged")], 10, Filters())) == {ids[0], ids[1]}
        texts = [r["text"] for r in store.rows(ids).values()]
    assert "user: My token is [purged], keep it" in texts and not any("zebracode42" in t for t in texts)
