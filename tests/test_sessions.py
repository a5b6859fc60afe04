"""Session transcripts as a recall source (issue 13, part 2): OpenClaw's JSONL read incrementally.

Every test of what a store does with transcripts runs on both stores (`sessions_ws` takes `store`):
the same entries, read state, scores and notices on SQLite and on Postgres.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conftest import assert_one_line_error, index_db, recall_json, run_memory, run_ok
from pg_fixtures import store_env, store_environ
from session_files import conversation, header, message, tool_result, write_lines
from workspace_memory.index.sessions import DELTA_BYTES, DELTA_LINES, message_text, parse_line, parse_time

SESSION = "5f0c2b7e-0d3a-4c55-9a57-3f1d1c3a9e10"


@pytest.fixture
def sessions_ws(store: str, workspace: Path, tmp_path: Path) -> Path:
    """The realistic workspace with one OpenClaw transcript configured (not indexed yet), on each store."""
    folder = tmp_path / "agents" / "main" / "sessions"
    (workspace / "memory.toml").write_text(f'[sessions]\npaths = ["{folder}"]\n', encoding="utf-8")
    write_lines(folder / f"{SESSION}.jsonl", [
        header(SESSION, "2025-11-29T08:00:00.000Z"),
        message("user", "Which museum did we visit in Lisbon? The one with the blue tiles.",
                "2025-11-29T08:01:00.000Z"),
        message("assistant", "The Museu Nacional do Azulejo, in the old Madre de Deus convent.",
                "2025-11-29T08:01:05.000Z", thinking="recall the zanzibar tiles", tool=True),
        tool_result("hosts file: 127.0.0.1 quetzalcoatl", "2025-11-29T08:01:06.000Z"),
        {"type": "model_change", "provider": "openai", "modelId": "gpt-5"},
        {"type": "custom", "customType": "model-snapshot", "data": {}},
        "not json at all {",
        ["a", "list"],
        message("user", "Book the ferry to Cacilhas for Saturday.", "2025-11-20T17:30:00.000Z"),
    ])
    return workspace


def transcript(ws: Path) -> Path:
    return ws.parent / "agents" / "main" / "sessions" / f"{SESSION}.jsonl"


def chunk_rows(ws: Path, where: str, columns: str) -> list[tuple[Any, ...]]:
    """`SELECT columns FROM chunks WHERE where` over the workspace's entries, in its store (one SQL
    for both: dates read as text)."""
    env = store_env(ws)
    sql = f"SELECT {columns} FROM chunks WHERE {where}"
    if not env:
        with index_db(ws) as conn:
            return conn.execute(sql).fetchall()
    import psycopg

    with psycopg.connect(env["MEMORY_STORE_URL"]) as conn:
        conn.execute("SET search_path TO workspace_memory")
        return conn.execute(sql.replace("%", "%%") + " AND workspace_id = (SELECT workspace_id FROM workspaces"
                            " WHERE name = %s)",
                            (env["MEMORY_STORE_WORKSPACE"],)).fetchall()


@contextlib.contextmanager
def opened(ws: Path) -> Iterator[Any]:
    """`Memory` of the workspace in this process, on its store."""
    from workspace_memory.api import Memory

    with store_environ(ws):
        mem = Memory.open(str(ws), "2025-11-30")
        _ = mem.store  # settled while the environment names it
    try:
        yield mem
    finally:
        mem.close()


def hold_writer_lock(ws: Path, held: threading.Event, release: threading.Event) -> None:
    """Hold the workspace's writer lock as another process indexing it would (SQLite's lock file,
    Postgres' advisory lock of the workspace) until `release`."""
    env = store_env(ws)
    if not env:
        from workspace_memory.index.sqlite.connection import writer_lock

        with writer_lock(ws / ".memory", wait=10):
            held.set()
            release.wait(60)
        return
    from workspace_memory.index.postgres.connection import LOCK_INDEX, Database

    db = Database(env["MEMORY_STORE_URL"])
    try:
        ws_id = db.conn.execute("SELECT workspace_id FROM workspaces WHERE name = %s",
                                (env["MEMORY_STORE_WORKSPACE"],)).fetchone()[0]
        db.conn.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_INDEX, ws_id))
        held.set()
        release.wait(60)
    finally:
        db.close()  # the session's advisory lock goes with it


# ------------------------------------------------------------------------------------------ parsing


def test_lines_are_messages_or_counted_as_skipped() -> None:
    kind, msg = parse_line(json.dumps(message("assistant", "Hello", "2025-11-29T08:00:00Z", thinking="hm",
                                              tool=True)).encode(), 3)
    assert kind == "message" and (msg.line, msg.role, msg.text) == (3, "assistant", "Hello")
    assert msg.at == datetime(2025, 11, 29, 8, tzinfo=UTC)
    assert parse_line(json.dumps(tool_result("out", "2025-11-29T08:00:00Z")).encode(), 1)[0] == "other"
    assert parse_line(b'{"type": "model_change"}', 1)[0] == "other"
    assert parse_line(b'{"type": "message", "message": {"role": "assistant", "content": '
                      b'[{"type": "toolCall", "name": "x"}]}}', 1)[0] == "other"  # no text
    assert parse_line(b'{"type": "session", "id": "x"}', 1)[0] == "session"
    for bad in (b"{oops", b"[1, 2]", b'"text"', b'{"type": "message", "message": "hi"}', b"\xff\xfe"):
        assert parse_line(bad, 1)[0] == "malformed", bad
    assert message_text("plain string content") == "plain string content"
    assert message_text([{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]) == "a\n\nb"
    assert parse_time(1764403200000) == datetime(2025, 11, 29, 8, tzinfo=UTC)  # epoch milliseconds
    assert parse_time("2025-11-29T09:00:00+01:00") == datetime(2025, 11, 29, 8, tzinfo=UTC)
    assert parse_time("yesterday") is None and parse_time(True) is None


# ------------------------------------------------------------------------------------------ recall


def test_messages_are_entries_of_kind_session_with_their_time_and_line(sessions_ws: Path) -> None:
    report = json.loads(run_ok(sessions_ws, "index", "--json"))
    assert report["sessions"] | {"seconds": 0, "bytes": 0} == {
        "files": 1, "read": 1, "reread": 0, "removed": 0, "pending": 0, "messages": 3, "other": 3,
        "malformed": 2, "untimed": 0, "bytes": 0, "busy": False, "notices": [], "seconds": 0}
    found = recall_json(sessions_ws, "museum blue tiles Lisbon", "--source", "sessions")["results"]
    assert found[0] == {
        "kind": "session", "content": "user: Which museum did we visit in Lisbon? The one with the blue tiles.",
        "entities": [], "timestamp": "2025-11-29T08:01:00Z", "confidence": None,
        "source": f"sessions/{SESSION}.jsonl#L2", "path": f"sessions/{SESSION}.jsonl", "start_line": 2,
        "end_line": 2, "score": found[0]["score"]}
    # The answer one line later joins as the question's neighbour.
    assert f"sessions/{SESSION}.jsonl#L3" in [r["source"] for r in found]
    # Thinking, tool calls and tool results are not indexed.
    for word in ("zanzibar", "quetzalcoatl", "hosts"):
        assert recall_json(sessions_ws, word, "--source", "sessions")["results"] == [], word
    status = json.loads(run_ok(sessions_ws, "status", "--json"))
    assert status["sessions"] == {"files": 1, "messages": 3, "other": 3, "malformed": 2, "entries": 3}


def test_the_default_source_is_memory_and_the_option_or_config_adds_sessions(sessions_ws: Path) -> None:
    run_ok(sessions_ws, "index")
    query = "museum Lisbon tiles"
    assert recall_json(sessions_ws, query)["results"] == []  # sources default to ["memory"]
    both = recall_json(sessions_ws, "Peter Vienna museum Lisbon", "--source", "all", "--k", "25")["results"]
    assert {r["kind"] for r in both} >= {"session", "world"}
    toml = sessions_ws / "memory.toml"
    toml.write_text(toml.read_text() + '\n[recall]\nsources = ["memory", "sessions"]\n', encoding="utf-8")
    assert recall_json(sessions_ws, query)["results"][0]["kind"] == "session"
    assert recall_json(sessions_ws, query, "--source", "memory")["results"] == []


def test_curated_memory_ranks_above_a_message_of_equal_relevance(sessions_ws: Path) -> None:
    folder = transcript(sessions_ws).parent
    text = "The gondola lift to Penha opens at nine."
    write_lines(folder / "twin.jsonl", [header("twin", "2025-11-30T08:00:00Z"),
                                        message("user", text, "2025-11-30T08:00:00Z")])
    note = sessions_ws / "memory" / "2025-11-30.md"
    note.write_text(note.read_text() + f"\n## Trip\n- user: {text}\n", "utf-8")
    run_ok(sessions_ws, "index")
    query = ("gondola lift Penha", "--explain", "--k", "1")
    (said,) = recall_json(sessions_ws, *query, "--source", "sessions")["results"]
    (noted,) = recall_json(sessions_ws, *query, "--source", "memory")["results"]
    assert said["kind"] == "session" and noted["kind"] == "note"
    said_f, noted_f = said["explain"]["factors"], noted["explain"]["factors"]
    assert said_f["relevance"] == pytest.approx(noted_f["relevance"], abs=0.01)  # the same words
    assert (said_f["importance"], noted_f["importance"]) == (0.85, 0.92)
    assert said_f["recency"] == noted_f["recency"]  # both written on Nov 30
    # Together, the note wins and the message that only repeats it is dropped.
    both = recall_json(sessions_ws, "gondola lift Penha", "--source", "all")["results"]
    assert both[0]["source"] == noted["source"] and said["source"] not in [r["source"] for r in both]


def test_time_phrases_apply_to_message_times(sessions_ws: Path) -> None:
    run_ok(sessions_ws, "index")
    recent = recall_json(sessions_ws, "what did we talk about yesterday", "--source", "sessions")["results"]
    days = [r["timestamp"][:10] for r in recent]
    # A time phrase is evidence, not a filter (recall/query.py): yesterday's messages come first.
    assert days[:2] == ["2025-11-29", "2025-11-29"] and days == sorted(days, reverse=True)
    ferry = recall_json(sessions_ws, "ferry", "--source", "sessions", "--since", "2025-11-25")["results"]
    assert ferry == []  # the ferry message was written on Nov 20
    assert recall_json(sessions_ws, "ferry", "--source", "sessions", "--kind", "session")["results"][0][
        "timestamp"] == "2025-11-20T17:30:00Z"


def test_the_day_of_a_message_is_its_day_in_the_workspace_timezone(sessions_ws: Path) -> None:
    toml = sessions_ws / "memory.toml"
    toml.write_text('timezone = "Asia/Tokyo"\n' + toml.read_text(), encoding="utf-8")
    run_ok(sessions_ws, "index")
    # 17:30 UTC on Nov 20 is 02:30 on Nov 21 in Tokyo
    assert chunk_rows(sessions_ws, "text LIKE '%ferry%'", "CAST(day AS TEXT)") == [("2025-11-21",)]


def test_get_does_not_read_transcripts(sessions_ws: Path) -> None:
    run_ok(sessions_ws, "index")
    line = assert_one_line_error(*run_memory(sessions_ws, "get", f"sessions/{SESSION}.jsonl#L2"))
    assert "session transcripts are not read by get" in line


# ------------------------------------------------------------------------------------------ incremental


def _ids(ws: Path) -> list[tuple[int, int]]:
    return sorted(chunk_rows(ws, "role = 'session'", "id, start_line"))


def test_only_the_bytes_added_are_read_and_a_half_written_line_waits(sessions_ws: Path) -> None:
    run_ok(sessions_ws, "index")
    before = _ids(sessions_ws)
    path = transcript(sessions_ws)
    added = json.dumps(message("user", "Add the tram 28 timetable to my notes.", "2025-11-30T09:00:00Z"))
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(added + "\n" + '{"type": "message", "timestamp": "2025-11-30T09:00:01Z", "mess')  # being written
    report = json.loads(run_ok(sessions_ws, "index", "--json"))["sessions"]
    assert (report["read"], report["reread"], report["messages"], report["bytes"]) == (1, 0, 1, len(added) + 1)
    after = _ids(sessions_ws)
    assert after[: len(before)] == before and [line for _, line in after[len(before):]] == [10]
    with open(path, "a", encoding="utf-8") as fh:  # the writer finishes its line
        fh.write('age": {"role": "assistant", "content": [{"type": "text", "text": "Done: tram 28 added."}]}}\n')
    report = json.loads(run_ok(sessions_ws, "index", "--json"))["sessions"]
    assert (report["messages"], report["malformed"]) == (1, 0)
    assert recall_json(sessions_ws, "tram 28", "--source", "sessions")["results"][0]["source"].endswith("#L11")


def test_a_replaced_or_shrunk_transcript_is_read_again_whole(sessions_ws: Path) -> None:
    run_ok(sessions_ws, "index")
    path = transcript(sessions_ws)
    write_lines(path, conversation(SESSION, datetime(2025, 11, 30, 7, tzinfo=UTC),
                                   [("user", "Completely new conversation about sourdough starters.")]))
    report = json.loads(run_ok(sessions_ws, "index", "--json"))["sessions"]
    assert (report["read"], report["reread"], report["messages"]) == (1, 1, 1)
    assert recall_json(sessions_ws, "museum", "--source", "sessions")["results"] == []
    assert [line for _, line in _ids(sessions_ws)] == [2]
    path.unlink()
    assert json.loads(run_ok(sessions_ws, "index", "--json"))["sessions"]["removed"] == 1
    assert _ids(sessions_ws) == []


def test_watchers_index_a_transcript_once_the_delta_thresholds_are_reached(sessions_ws: Path) -> None:
    run_ok(sessions_ws, "index")
    with opened(sessions_ws) as mem:
        path = transcript(sessions_ws)
        write_lines(path, [message("user", "one small message", "2025-11-30T09:00:00Z")], mode="a")
        report = mem.sync_sessions(min_bytes=DELTA_BYTES, min_lines=DELTA_LINES, wait=0)
        assert (report.pending, report.read, report.messages) == (1, 0, 0)
        write_lines(path, [message("user", f"message number {n}", "2025-11-30T09:01:00Z")
                           for n in range(DELTA_LINES - 1)], mode="a")
        report = mem.sync_sessions(min_bytes=DELTA_BYTES, min_lines=DELTA_LINES, wait=0)
        assert (report.pending, report.read, report.messages) == (0, 1, DELTA_LINES)
        assert mem.sync_sessions(min_bytes=DELTA_BYTES, min_lines=DELTA_LINES).read == 0  # nothing new


def test_a_recall_never_waits_for_session_indexing(sessions_ws: Path) -> None:
    run_ok(sessions_ws, "index")
    write_lines(transcript(sessions_ws), [message("user", "a new line about kayaks", "2025-11-30T10:00:00Z")],
                mode="a")
    held, release = threading.Event(), threading.Event()

    # another process indexing sessions holds the writer lock
    thread = threading.Thread(target=hold_writer_lock, args=(sessions_ws, held, release))
    thread.start()
    held.wait(10)
    try:
        answer = recall_json(sessions_ws, "museum", "--source", "all")
        # The holder lets go only on `release` (or after 60 s): still holding means the recall
        # answered without waiting for the lock, whatever the machine's speed.
        assert thread.is_alive() and not release.is_set()
    finally:
        release.set()
        thread.join()
    assert answer["results"] and any("changed since they were indexed" in n for n in answer["notices"])


# ------------------------------------------------------------------------------------------ settings


@pytest.mark.parametrize(("toml", "needle"), [
    ('[sessions]\npaths = "~/.openclaw"\n', "[sessions] paths must be a list"),
    ('[sessions]\nfolders = ["x"]\n', "unknown key 'folders'"),
    ('[recall]\nsources = ["memory", "chats"]\n', "'chats'"),
])
def test_bad_session_settings_are_one_line(workspace: Path, toml: str, needle: str) -> None:
    (workspace / "memory.toml").write_text(toml, encoding="utf-8")
    line = assert_one_line_error(*run_memory(workspace, "recall", "x", "--source", "all"))
    assert needle in line


def test_asking_for_sessions_without_any_configured_says_how(workspace: Path) -> None:
    line = assert_one_line_error(*run_memory(workspace, "recall", "museum", "--source", "sessions"))
    assert "[sessions] paths" in line
    assert run_memory(workspace, "recall", "museum", "--source", "all")[0] == 0


def test_a_big_transcript_is_read_in_steps_and_a_giant_line_is_skipped(sessions_ws: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from workspace_memory.index import sessions

    monkeypatch.setattr(sessions, "MAX_READ", 900)  # bytes read at a time
    path = transcript(sessions_ws)
    write_lines(path, [message("user", f"step message {n} about otters", "2025-11-30T09:00:00Z") for n in range(12)]
                + [message("user", "zeppelin " + "x" * 2000, "2025-11-30T09:01:00Z"),
                   message("assistant", "after the giant line, beavers", "2025-11-30T09:02:00Z")], mode="a")
    with opened(sessions_ws) as mem:
        report = mem.sync_sessions()
        assert (report.messages, report.other, report.read) == (3 + 12 + 1, 3 + 1, report.read)
        assert report.read <= report.files  # read in many steps, each transcript counted once (issue 22)
        status = mem.status()["sessions"]
        assert (status["messages"], status["other"]) == (16, 4)
    found = recall_json(sessions_ws, "beavers", "--source", "sessions")["results"]
    assert found[0]["source"] == f"sessions/{SESSION}.jsonl#L23"
    assert recall_json(sessions_ws, "zeppelin", "--source", "sessions")["results"] == []


def test_vector_search_keeps_to_the_sources_asked_for(sessions_ws: Path) -> None:
    toml = sessions_ws / "memory.toml"
    toml.write_text('[embedding]\nprovider = "fake"\n\n' + toml.read_text(), encoding="utf-8")
    fake = {"MEMORY_EMBED_PROVIDER": None}
    run_ok(sessions_ws, "index", env=fake)

    def kinds(source: str) -> set[str]:
        out = run_ok(sessions_ws, "recall", "museum in Lisbon with blue tiles", "--mode", "semantic", "--json",
                     "--source", source, "--k", "20", env=fake)
        return {r["kind"] for r in json.loads(out)["results"]}

    assert "session" not in kinds("memory") and kinds("memory")
    assert kinds("sessions") == {"session"}
    assert "session" in kinds("all") and len(kinds("all")) > 1


def test_memory_watch_follows_transcripts_past_the_thresholds_and_the_rest_on_stop(sessions_ws: Path) -> None:
    import signal

    from test_watch import start_watch

    run_ok(sessions_ws, "index")
    path = transcript(sessions_ws)
    proc, out, err = start_watch(sessions_ws)
    try:
        err.wait_for("watching")
        write_lines(path, [message("user", f"the heron count was {n}", "2025-11-30T09:01:00Z")
                           for n in range(DELTA_LINES)], mode="a")
        out.wait_for(f"indexed {DELTA_LINES} session message(s) from 1 transcript(s)", timeout=60)
        assert recall_json(sessions_ws, "heron count", "--source", "sessions")["results"]
        # Under the thresholds, a line waits for the rest period (the fake-clock test below); SIGTERM
        # long before that period must still read it (SessionFollower.finish).
        write_lines(path, [message("user", "a lone kingfisher", "2025-11-30T10:00:00Z")], mode="a")
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=60)
    assert code == 0
    assert recall_json(sessions_ws, "kingfisher", "--source", "sessions")["results"]  # read on stop


def test_a_follower_polls_on_its_clock_and_reads_lines_under_the_thresholds_only_at_rest(sessions_ws: Path) -> None:
    """SessionFollower on a fake clock: no poll before SESSION_POLL_SECONDS, a poll that leaves a small
    delta pending, and the rest period that reads it (what `memory watch` and the MCP server do)."""
    from workspace_memory.workspace.watch import SESSION_POLL_SECONDS, SESSION_REST_SECONDS, SessionFollower

    run_ok(sessions_ws, "index")
    now = [0.0]
    with opened(sessions_ws) as mem:
        follower = SessionFollower(mem.follow_sessions, clock=lambda: now[0])
        write_lines(transcript(sessions_ws), [message("user", "a lone kingfisher", "2025-11-30T10:00:00Z")], mode="a")
        now[0] = SESSION_POLL_SECONDS / 2
        assert follower.tick() is None  # not yet time to compare sizes
        now[0] = SESSION_POLL_SECONDS
        report = follower.tick()
        assert (report.pending, report.read, report.messages) == (1, 0, 0)  # under the thresholds: it waits
        assert not recall_json(sessions_ws, "kingfisher", "--source", "sessions")["results"]
        now[0] = SESSION_REST_SECONDS
        report = follower.tick()
        assert (report.pending, report.read, report.messages) == (0, 1, 1)  # at rest: every new line
    assert recall_json(sessions_ws, "kingfisher", "--source", "sessions")["results"]
