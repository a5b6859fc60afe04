"""The Postgres schema: migrations that add only an index rebuild nothing (on a database of its own,
so that the migrations run from the start)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from conftest import build_workspace
from workspace_memory.index.postgres import schema
from workspace_memory.index.postgres.store import PostgresStore
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


def _an_index_only_migration(conn) -> None:  # noqa: ANN001 - a psycopg connection
    conn.execute("CREATE INDEX chunks_test_only ON chunks (workspace_id, kind)")


def test_migrations_that_only_add_indexes_rebuild_nothing(tmp_path: Path, fresh_url: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A database built at ROWS_SCHEMA, opened by code with more migrations (the real ones after it
    and one more that adds an index): the migrations run, and the rows stay as they were."""
    ws = Workspace.open(build_workspace(tmp_path / "ws"))
    with monkeypatch.context() as old:
        old.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:schema.ROWS_SCHEMA])
        old.setattr(schema, "SCHEMA_VERSION", schema.ROWS_SCHEMA)
        before = PostgresStore(fresh_url, "ws")
        assert before.sync(ws).added
        ids = before.db.conn.execute("SELECT array_agg(id ORDER BY id) FROM chunks").fetchone()[0]
        generation = before.generation()
        before.close()
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, _an_index_only_migration])
    monkeypatch.setattr(schema, "SCHEMA_VERSION", len(schema.MIGRATIONS))
    after = PostgresStore(fresh_url, "ws")
    try:
        report = after.sync(ws)
        assert schema.applied(after.db.conn) == schema.SCHEMA_VERSION > schema.ROWS_SCHEMA
        assert not report.notices and not report.dirty and report.unchanged == len(list(ws.root.rglob("*.md")))
        assert after.settings_changed(ws.date_order) is None
        assert after.generation() == generation
        assert after.db.conn.execute("SELECT array_agg(id ORDER BY id) FROM chunks").fetchone()[0] == ids
        stored = after.db.conn.execute("SELECT fingerprint FROM workspaces").fetchone()[0]
        assert stored["schema"] == schema.ROWS_SCHEMA
    finally:
        after.close()
