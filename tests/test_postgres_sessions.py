"""Session transcripts on the Postgres store: the same recall as SQLite (each source ranked with its own
word counts), and `forget --purge` rewrites their entries there too. (The behaviour both stores share
is tested on each in test_sessions.py.)"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import psycopg

from conftest import build_workspace, run_ok
from pg_fixtures import store_name
from session_files import conversation, message, write_lines

FAKE = {"MEMORY_EMBED_PROVIDER": "fake"}
# Words that are in the Markdown and in the transcripts, some only in one: a store that counted them
# over both sources (or ranked sessions with the Markdown's counts) gives other scores.
QUERIES = ["espresso beans for Peter", "warelay reconnect", "Baileys socket", "Marrakech birthday", "tram timetable",
           "sourdough starter", "what did we talk about yesterday", "Lisbon museum tiles", "OPS-4471", "東京"]
TURNS = [
    ("user", "Remind me which espresso beans Peter likes, the ones from the Vienna roaster."),
    ("assistant", "Peter likes the Ethiopian espresso beans from the roaster near the Naschmarkt."),
    ("user", "Did the warelay reconnect fix ship? The Baileys socket kept dropping."),
    ("assistant", "Yes: warelay 0.9 wraps the socket handlers; reconnects no longer drop messages."),
    ("user", "Add the tram 28 timetable to my notes, and the Lisbon museum with the blue tiles."),
    ("assistant", "Noted the tram 28 timetable and the Museu do Azulejo."),
    ("user", "東京の会議は何時ですか"),
]


def _transcripts(folder: Path) -> None:
    write_lines(folder / "a.jsonl", conversation("a", datetime(2025, 11, 29, 8, tzinfo=UTC), TURNS))
    write_lines(folder / "b.jsonl", conversation("b", datetime(2025, 11, 20, 17, tzinfo=UTC), [
        ("user", "How long does a sourdough starter need before the first bake?"),
        ("assistant", "About a week of daily feeding; the sourdough starter should double in 6 hours.")]))


def test_session_recall_gives_the_same_results_and_scores_on_both_stores(tmp_path: Path, pg_url: str) -> None:
    """Every source, lexical and hybrid, after a first read and after an appended delta."""
    root = build_workspace(tmp_path / "ws")
    folder = tmp_path / "sessions"
    (root / "memory.toml").write_text(f'[sessions]\npaths = ["{folder}"]\n', encoding="utf-8")
    _transcripts(folder)
    pg = FAKE | {"MEMORY_STORE_URL": pg_url, "MEMORY_STORE_WORKSPACE": store_name(tmp_path / "pg")}
    batch = tmp_path / "q.jsonl"
    batch.write_text("".join(json.dumps({"query": q, "k": 8, "source": source}) + "\n"
                             for q in QUERIES for source in ("sessions", "all", "memory")), encoding="utf-8")
    for step in ("first read", "appended"):
        if step == "appended":  # read from the stored offset: the new message's context is the one before it
            write_lines(folder / "a.jsonl", [message("user", "And the espresso grinder setting for those beans?",
                                                     "2025-11-30T09:00:00Z")], mode="a")
        on_sqlite = json.loads(run_ok(root, "index", "--json", env=FAKE))["sessions"]
        on_postgres = json.loads(run_ok(root, "index", "--json", env=pg))["sessions"]
        assert on_sqlite | {"seconds": 0} == on_postgres | {"seconds": 0}, step
        assert json.loads(run_ok(root, "status", "--json", env=FAKE))["sessions"] == \
            json.loads(run_ok(root, "status", "--json", env=pg))["sessions"]
        for mode in ("lexical", "hybrid"):
            sqlite_out = run_ok(root, "recall", "--batch", batch, "--json", "--explain", "--mode", mode, env=FAKE)
            pg_out = run_ok(root, "recall", "--batch", batch, "--json", "--explain", "--mode", mode, env=pg)
            for a, b in zip(sqlite_out.splitlines(), pg_out.splitlines(), strict=True):
                a, b = json.loads(a), json.loads(b)
                assert [(r["source"], r["score"], r["timestamp"]) for r in a["results"]] == \
                       [(r["source"], r["score"], r["timestamp"]) for r in b["results"]], (step, mode, a["query"])
                assert [r["explain"]["channels"] for r in a["results"]] == \
                       [r["explain"]["channels"] for r in b["results"]], (step, mode, a["query"])
        assert any(r["kind"] == "session" for line in pg_out.splitlines() for r in json.loads(line)["results"])


def _rows(url: str, name: str, sql: str, *params: object) -> list[tuple]:
    with psycopg.connect(url) as conn:
        conn.execute("SET search_path TO workspace_memory")
        ws_id = conn.execute("SELECT workspace_id FROM workspaces WHERE name = %s", (name,)).fetchone()[0]
        return conn.execute(sql, (ws_id, *params)).fetchall()


def test_a_purge_rewrites_session_entries_on_postgres(tmp_path: Path, pg_url: str) -> None:
    """The message's text, words and vectors, the next message's context, and the word counts."""
    secret, token = "sk-live-4F9a8B7c6D5e3A21", "4f9a8b7c6d5e3a21"
    root = build_workspace(tmp_path / "ws")
    folder = tmp_path / "sessions"
    (root / "memory.toml").write_text(f'[sessions]\npaths = ["{folder}"]\n', encoding="utf-8")
    write_lines(folder / "s1.jsonl", conversation("s1", datetime(2025, 11, 29, 8, tzinfo=UTC), [
        ("user", f"The staging API key is {secret}, use it for the relay."),
        ("assistant", "Understood, I will use that key for the relay tests.")]))
    name = store_name(tmp_path / "pg")
    env = FAKE | {"MEMORY_STORE_URL": pg_url, "MEMORY_STORE_WORKSPACE": name}
    run_ok(root, "index", env=env)
    ctx_before = _rows(pg_url, name, "SELECT ctx_hash FROM chunks WHERE workspace_id = %s AND start_line = 3"
                       " AND role = 'session'")
    assert "1 session entry" in run_ok(root, "forget", "--purge", secret, env=env)  # the preview counts it
    result = json.loads(run_ok(root, "forget", "--purge", secret, "--yes", "--json", env=env))
    assert result["applied"] and result["session_entries"] == 1
    assert _rows(pg_url, name, "SELECT count(*) FROM chunks WHERE workspace_id = %s AND (strpos(lower(text), %s) > 0"
                 " OR strpos(words::text, %s) > 0)", token, token) == [(0,)]
    for table in ("lexemes", "session_lexemes"):
        assert _rows(pg_url, name, f"SELECT count(*) FROM {table} WHERE workspace_id = %s AND strpos(lexeme, %s) > 0",
                     token) == [(0,)]
    assert _rows(pg_url, name, "SELECT ctx_hash FROM chunks WHERE workspace_id = %s AND start_line = 3"
                 " AND role = 'session'") == ctx_before == [(None,)]  # a message has no context vector
    for mode in ("lexical", "semantic", "hybrid"):
        for query in (secret, token, "staging API key relay"):
            out = json.loads(run_ok(root, "recall", query, "--json", "--mode", mode, "--source", "all", env=env))
            assert not any(token in r["content"].lower() for r in out["results"]), (mode, query)
    found = json.loads(run_ok(root, "recall", "staging API key relay", "--json", "--source", "sessions", env=env))
    assert any("[purged]" in r["content"] for r in found["results"])
