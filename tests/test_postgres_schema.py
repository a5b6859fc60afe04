"""The Postgres schema: migrations that add only an index rebuild nothing, and time windows are
served by their index (on a database of their own, so that the migrations run from the start)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from conftest import build_workspace
from workspace_memory.index.base import Filters
from workspace_memory.index.indexer import settings_changed, sync
from workspace_memory.index.postgres import schema
from workspace_memory.index.postgres.lexical import ends_in_the_past
from workspace_memory.index.postgres.reads import DIALECT, scope
from workspace_memory.index.postgres.store import PostgresStore
from workspace_memory.index.sql_filters import filter_sql
from workspace_memory.workspace.layout import Workspace


@pytest.fixture
def fresh_url(pg_url: str) -> Iterator[str]:
    """A new, empty database on the test server (dropped afterwards)."""
    import psycopg

    name = f"wm_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(pg_url)
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _an_index_only_migration(conn) -> None:  # a psycopg connection
    conn.execute("CREATE INDEX chunks_test_only ON chunks (workspace_id, kind)")


def test_migrations_that_only_add_indexes_rebuild_nothing(tmp_path: Path, fresh_url: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A workspace indexed, then opened by code with one more migration that only adds an index:
    the migration runs, and the rows stay as they were (the fingerprint names ROWS_SCHEMA, which
    stays). ROWS_SCHEMA is 10: m010 (the languages of a file's entries) and m009 (chunk_days, the days
    an entry names) hold rows; m007 (an index) and m008 (session tables) rebuilt none."""
    ws = Workspace.open(build_workspace(tmp_path / "ws"))
    before = PostgresStore(fresh_url, "ws")
    assert sync(ws, before.writer()).added
    ids = before.db.conn.execute("SELECT array_agg(id ORDER BY id) FROM chunks").fetchone()[0]
    generation = before.generation()
    before.close()
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, _an_index_only_migration])
    monkeypatch.setattr(schema, "SCHEMA_VERSION", len(schema.MIGRATIONS))
    after = PostgresStore(fresh_url, "ws")
    try:
        report = sync(ws, after.writer())
        assert schema.applied(after.db.conn) == schema.SCHEMA_VERSION
        assert after.db.conn.execute("SELECT to_regclass('chunks_test_only')").fetchone()[0] is not None
        assert not report.notices and not report.dirty and report.unchanged == len(list(ws.root.rglob("*.md")))
        assert settings_changed(after.writer(), ws.date_order) is None
        assert after.generation() == generation
        assert after.db.conn.execute("SELECT array_agg(id ORDER BY id) FROM chunks").fetchone()[0] == ids
        stored = after.db.conn.execute("SELECT fingerprint FROM workspaces").fetchone()[0]
        assert stored["schema"] == schema.ROWS_SCHEMA == 10 < schema.SCHEMA_VERSION
    finally:
        after.close()


def _plan(conn, sql: str, params: list) -> str:  # a psycopg connection
    return "\n".join(r[0] for r in conn.execute(f"EXPLAIN {sql}", params))


_ENTRIES = 20_000  # a workspace's entries in the window test: enough for the planner to choose an index


@pytest.mark.parametrize("names", [["a"], ["a", "b"]])
def test_time_windows_are_served_by_their_index(fresh_url: str, names: list[str]) -> None:
    """The window clause of the reads, on one workspace and on a view over several, is served by
    chunks_window (EXPLAIN after ANALYZE, on rows made in SQL: 20,000 a workspace, 20 a day)."""
    for name in ("a", "b"):
        store = PostgresStore(fresh_url, name)
        ws_id = store.own_id()
        store.db.conn.execute(
            "INSERT INTO chunks (workspace_id, id, path, start_line, end_line, kind, text, role, day, t_start,"
            " t_end, text_hash, n_tokens, words, cjk) SELECT %s, (%s::bigint << 32) | g, 'memory/x.md', g, g,"
            " 'note', 'x', 'daily', d, d, d, 'h', 1, ''::tsvector, false"
            " FROM generate_series(1, %s) g, LATERAL (SELECT date '2023-01-01' + g / 20 AS d) x",
            (ws_id, ws_id, _ENTRIES))
        store.close()
    store = PostgresStore(fresh_url, "a").across(names) if len(names) > 1 else PostgresStore(fresh_url, "a")
    try:
        conn = store.db.conn
        conn.execute("ANALYZE chunks")
        window = Filters(include_invalid=True).within((date(2024, 11, 24), date(2024, 11, 30)))
        where, params = filter_sql(window, DIALECT)
        in_ws, ws_params = scope(store.ids)
        assert "chunks_window" in _plan(conn, f"SELECT c.id FROM chunks c WHERE {in_ws} AND {where}",
                                        [*ws_params, *params])
        assert store.holds_entries(window)
        assert not store.holds_entries(Filters(include_invalid=True).within((date(2030, 1, 1), None)))
        ids = store.browse(window, 1000, per_day=12)
        assert len(ids) == 7 * 12  # 12 a day of the view (as on SQLite: days, not workspaces)
    finally:
        store.close()


def test_a_newest_first_step_walks_back_only_without_an_end() -> None:
    """A window or --until sorts the matches it holds; --since alone keeps the walk (see ends_in_the_past)."""
    assert ends_in_the_past(Filters(window=(date(2019, 3, 14), date(2019, 3, 14))))
    assert ends_in_the_past(Filters(until=date(2019, 3, 14)))
    assert ends_in_the_past(Filters(since=date(2019, 3, 1)).within((None, date(2019, 3, 14))))
    assert not ends_in_the_past(Filters(since=date(2025, 11, 1)))
    assert not ends_in_the_past(Filters(kinds=("world",)))
