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
from workspace_memory.workspace.layout import Workspace

FAKE = {"MEMORY_EMBED_PROVIDER": "fake"}

# A workspace with every setting that shapes rows. "03/04/2025" reads 3 April with DMY (and 4 March
# with MDY): a store that ignores date_order stores another day, or none.
SETTINGS_FILES = {
    "MEMORY.md": "# Memory\n\n- Peter prefers espresso.\n",
    "memory/2025-03-01.md": (
        "# 2025-03-01\n\n## Retain\n- W @Peter: Dentist appointment on 03/04/2025.\n"
        "- W @Peter: Peter lives in Vienna.\n- W @Peter: Peter lives in Graz.\n"
        "- O(c=0.8) @Peter: Peter should switch dentists.\n\nSome notes on the day.\n"),
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
            f"SELECT path, hash, size, role, day, title, meta FROM files {where}")),
        "chunks": sorted(tuple(map(_plain, r)) for r in execute(f"SELECT {', '.join(CHUNK_COLS)} FROM chunks {where}")),
        "facts": sorted((*map(_plain, r[:-1]), entry.get(r[-1])) for r in execute(
            f"SELECT {', '.join(FACT_COLS)}, superseded_by FROM facts {where}")),
        "mentions": sorted((entry[r[0]], r[1], r[2]) for r in execute(
            f"SELECT chunk_id, entity_key, slug FROM mentions {where}")),
        "entities": sorted(tuple(map(_plain, r)) for r in execute(
            f"SELECT key, slug, name, page_path, aliases, fact_count FROM entities {where}")),
        "warnings": sorted(tuple(r) for r in execute(f"SELECT path, line, message FROM warnings {where}")),
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
