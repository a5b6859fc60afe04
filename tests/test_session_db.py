"""OpenClaw 2026.9's SQLite transcript store as a session source (index/session_db.py), without Node.

The table is created with the statement OpenClaw 2026.9.6 declares (openclaw-agent-db-schema-helpers:
`transcript_events(session_id, seq, event_json, created_at)`); each row's event is a JSONL line of
session_files.py. The real store a gateway writes: tests/test_openclaw_sessions.py.
"""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from conftest import recall_json, run_ok
from session_files import conversation, message

TABLE = """CREATE TABLE IF NOT EXISTS transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, seq)
) STRICT;"""


def _db(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = wal")
    conn.execute(TABLE)
    return conn


def _append(conn: sqlite3.Connection, session: str, events: list[dict], start: int = 0) -> None:
    for n, event in enumerate(events):
        conn.execute("INSERT INTO transcript_events VALUES (?, ?, ?, ?)",
                     (session, start + n, json.dumps(event), 1764500000000 + start + n))


def _ws(tmp_path: Path, db: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2025-11-30.md").write_text("# Sunday\n\n- Peter drinks espresso.\n", encoding="utf-8")
    (ws / "memory.toml").write_text(f'[sessions]\npaths = ["{db}"]\n\n[recall]\nsources = ["memory", "sessions"]\n',
                                    encoding="utf-8")
    return ws


def _read(out: str) -> tuple[int, int]:
    found = re.search(r"sessions: (\d+) of \d+ transcript\(s\) read, (\d+) message\(s\)", out)
    assert found, out
    return int(found[1]), int(found[2])


def test_sessions_in_the_database_are_indexed_incrementally_and_cited_by_seq(tmp_path: Path) -> None:
    db = tmp_path / "openclaw-agent.sqlite"
    conn = _db(db)
    start = datetime(2025, 11, 28, 9, 0, tzinfo=UTC)
    _append(conn, "s1", conversation("s1", start, [("user", "Where is the zebra crossing in Graz?"),
                                                   ("assistant", "At Jakominiplatz, by the tram stop.")]))
    ws = _ws(tmp_path, db)
    assert _read(run_ok(ws, "index")) == (1, 2)
    hit = recall_json(ws, "zebra crossing Graz")["results"][0]
    assert hit["source"] == "sessions/s1#L2" and hit["content"].startswith("user: Where is the zebra")
    _append(conn, "s1", [message("user", "And the bakery on Herrengasse?", "2025-11-28T09:05:00.000Z")], start=3)
    assert _read(run_ok(ws, "index")) == (1, 1), "only the new event"
    assert _read(run_ok(ws, "index")) == (0, 0)
    assert recall_json(ws, "bakery Herrengasse")["results"][0]["source"] == "sessions/s1#L4"


def test_a_rewritten_session_is_read_again_and_a_deleted_one_goes(tmp_path: Path) -> None:
    db = tmp_path / "openclaw-agent.sqlite"
    conn = _db(db)
    start = datetime(2025, 11, 28, 9, 0, tzinfo=UTC)
    _append(conn, "s1", conversation("s1", start, [("user", "The heron at the pond was back.")]))
    _append(conn, "s2", conversation("s2", start, [("user", "Book the dentist for Friday.")]))
    ws = _ws(tmp_path, db)
    assert _read(run_ok(ws, "index")) == (2, 2)
    conn.execute("DELETE FROM transcript_events WHERE session_id = 's1'")  # OpenClaw rewound it
    _append(conn, "s1", conversation("s1", start, [("user", "The kingfisher at the pond was back.")]))
    conn.execute("DELETE FROM transcript_events WHERE session_id = 's2'")
    run_ok(ws, "index")
    assert recall_json(ws, "kingfisher pond")["results"][0]["source"] == "sessions/s1#L2"
    assert not [r for r in recall_json(ws, "heron pond")["results"] if "heron" in r["content"]]
    assert not [r for r in recall_json(ws, "dentist Friday")["results"] if "dentist" in r["content"]]


def test_the_database_is_only_read(tmp_path: Path) -> None:
    db = tmp_path / "openclaw-agent.sqlite"
    conn = _db(db)
    _append(conn, "s1", conversation("s1", datetime(2025, 11, 28, 9, tzinfo=UTC), [("user", "Kiwi jam.")]))
    conn.close()
    before = db.read_bytes()
    db.chmod(0o444)
    try:
        assert _read(run_ok(_ws(tmp_path, db), "index")) == (1, 1)
    finally:
        db.chmod(0o644)
    assert db.read_bytes() == before


def test_a_file_that_is_not_openclaws_database_is_a_notice(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite"
    sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.close()
    notices = recall_json(_ws(tmp_path, db), "espresso")["notices"]
    assert any("not readable as OpenClaw's agent database" in n for n in notices), notices
