"""The data-loss and crash defects of issue 8, each with its reproduction: parallel retains lose
nothing, a damaged index is rebuilt, recall does not block on an embedding backlog, bad config types
are named, binary files are skipped, control characters never reach the terminal, and the smaller ones."""

from __future__ import annotations

import json
import os
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from conftest import assert_one_line_error, clean_env, memory_executable, run_memory, run_ok
from http_fixtures import RecordingServer, send_json
from workspace_memory.api import RECALL_EMBED_BUDGET

# ------------------------------------------------------------------ 1. parallel retain loses nothing


def test_twenty_parallel_retains_keep_every_fact(workspace: Path) -> None:
    """`for i in $(seq 20); do memory retain "W @X: fact $i" --date 2026-11-28 & done` kept 3 to 9 of 20."""
    cmd = [memory_executable(), "--workspace", str(workspace), "retain"]
    procs = [subprocess.Popen([*cmd, f"W @X: fact {i}", "--date", "2026-11-28"], env=clean_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(1, 21)]
    codes = [p.wait(timeout=120) for p in procs]
    assert codes == [0] * 20, [p.stderr.read() for p in procs if p.returncode]
    text = (workspace / "memory" / "2026-11-28.md").read_text(encoding="utf-8")
    assert sorted(line for line in text.splitlines() if line.startswith("- W @X: fact")) == sorted(
        f"- W @X: fact {i}" for i in range(1, 21))


def test_retain_and_reflect_on_the_same_file_lose_nothing(indexed_workspace: Path) -> None:
    """Reflect rewrites bank pages while retains append to a log: both writers hold the per-file lock."""
    def retain(i: int) -> int:
        return run_memory(indexed_workspace, "retain", f"O(c=0.8) @Peter: Likes green tea variant {i}",
                          "--date", "2025-11-30")[0]

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(retain, i) for i in range(8)]
        reflect = pool.submit(run_memory, indexed_workspace, "reflect", "--since", "30d")
        assert [f.result() for f in futures] == [0] * 8
        assert reflect.result()[0] == 0
    text = (indexed_workspace / "memory" / "2025-11-30.md").read_text(encoding="utf-8")
    assert all(f"Likes green tea variant {i}" in text for i in range(8))


def test_temporary_files_of_killed_writers_are_swept_by_index(indexed_workspace: Path) -> None:
    """A writer killed mid-write leaves `.<name>.<hex>.tmp`; `memory index` removes those nobody holds."""
    stale = indexed_workspace / "memory" / ".2025-11-12.md.0123456789ab.tmp"
    stale.write_text("half a file", encoding="utf-8")
    core = indexed_workspace / ".MEMORY.md.abcdefabcdef.tmp"
    core.write_text("half", encoding="utf-8")
    keep = indexed_workspace / "memory" / ".notes.tmp"  # not ours: left alone
    keep.write_text("x", encoding="utf-8")
    run_ok(indexed_workspace, "index")
    assert not stale.exists() and not core.exists() and keep.exists()


# ------------------------------------------------------------------ 2. a damaged index is rebuilt


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_index_is_moved_aside_and_rebuilt(indexed_workspace: Path, damage: str) -> None:
    index = indexed_workspace / ".memory" / "index.sqlite"
    run_ok(indexed_workspace, "status")  # checkpoint the WAL into the file
    data = index.read_bytes()
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(os.urandom(180224) if damage == "garbage" else data[: len(data) // 3])
    for command in (("index", "--rebuild"), ("recall", "a828e60", "--json"), ("status", "--json"),
                    ("reflect", "--dry-run")):
        code, out, err = run_memory(indexed_workspace, *command)
        assert code == 0 and "Traceback" not in err, (command, err)
    hits = json.loads(run_ok(indexed_workspace, "recall", "a828e60", "--json", "--mode", "lexical"))["results"]
    assert hits and hits[0]["path"] == "memory/2025-11-12.md"
    assert list((indexed_workspace / ".memory" / "corrupt").iterdir())  # kept for a post-mortem


def test_the_repair_is_announced_once(indexed_workspace: Path) -> None:
    (indexed_workspace / ".memory" / "index.sqlite").write_bytes(b"not a database at all" * 1000)
    for suffix in ("-wal", "-shm"):
        Path(f"{indexed_workspace / '.memory' / 'index.sqlite'}{suffix}").unlink(missing_ok=True)
    first = json.loads(run_ok(indexed_workspace, "recall", "espresso", "--json", "--mode", "lexical"))
    assert any("index was damaged" in n and "rebuilt it from Markdown" in n for n in first["notices"])
    assert first["results"]
    second = json.loads(run_ok(indexed_workspace, "recall", "espresso", "--json", "--mode", "lexical"))
    assert not any("damaged" in n for n in second["notices"])


# ------------------------------------------------------------------ 3. recall does not block on a backlog


class SlowEmbeddings(RecordingServer):
    """An OpenAI-compatible /v1/embeddings that takes DELAY seconds a request."""

    DELAY = 0.25

    def answer(self, handler: BaseHTTPRequestHandler, path: str, body: dict) -> None:
        time.sleep(self.DELAY)
        data = [{"object": "embedding", "index": i, "embedding": [1.0, float(len(t) % 7), 0.5]}
                for i, t in enumerate(body["input"])]
        send_json(handler, 200, {"object": "list", "data": data, "model": body["model"]})


@pytest.mark.slow
def test_recall_answers_within_its_embedding_budget(indexed_workspace: Path) -> None:
    server = SlowEmbeddings()
    try:
        (indexed_workspace / "memory.toml").write_text(
            f'[embedding]\nprovider = "remote"\nbatch_size = 16\n[embedding.remote]\n'
            f'base_url = "{server.base_url}"\nmodel = "slow"\n', encoding="utf-8")
        env = {"MEMORY_EMBED_PROVIDER": None}
        big = "\n\n".join(f"Backlog paragraph {n} about the espresso machine and relay {n * 7}." for n in range(400))
        (indexed_workspace / "memory" / "backlog.md").write_text(f"# Backlog\n\n{big}\n", encoding="utf-8")
        code, out, err = run_memory(indexed_workspace, "recall", "espresso machine", "--json", env=env)
        assert code == 0, err
        answer = json.loads(out)
        assert answer["results"]
        assert any("not embedded yet" in n and "memory index" in n for n in answer["notices"]), answer["notices"]
        # Counted, not timed: each request takes at least DELAY, so a recall's budget of
        # RECALL_EMBED_BUDGET seconds starts at most budget/DELAY batches (+1 for the query, +1 for
        # the one under way), however slow the machine; the backlog needs many more.
        by_recall = len(server.requests)
        assert by_recall <= RECALL_EMBED_BUDGET / SlowEmbeddings.DELAY + 2, by_recall
        code, _, err = run_memory(indexed_workspace, "index", env=env, timeout=600)
        assert code == 0, err
        texts = [len(r["body"]["input"]) for r in server.requests]
        assert sum(texts[by_recall:]) > 4 * sum(texts[:by_recall]), texts  # most of the backlog was left
        after = json.loads(run_ok(indexed_workspace, "recall", "espresso machine", "--json", env=env))
        assert not any("not embedded yet" in n for n in after["notices"])
    finally:
        server.close()


# ------------------------------------------------------------------ 4. config types


@pytest.mark.parametrize("toml, key", [
    ('extra_paths = "/etc"', "extra_paths"),
    ("extra_paths = [1, 2]", "extra_paths"),
    ("recall = 3", "recall"),
    ('embedding = "local"', "embedding"),
    ('timezone = ["x"]', "timezone"),
    ("colour = 1", "colour"),
    ('[reflect.model]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\ntimeout = "soon"', "timeout"),
])
def test_a_wrong_type_in_memory_toml_is_one_line_naming_the_key(workspace: Path, toml: str, key: str) -> None:
    (workspace / "memory.toml").write_text(toml + "\n", encoding="utf-8")
    command = ("reflect", "--dry-run") if "reflect" in toml else ("status",)
    line = assert_one_line_error(*run_memory(workspace, *command))
    assert "memory.toml" in line and key in line
    assert not (workspace / ".memory").exists() or key == "timeout"


# ------------------------------------------------------------------ 5. binary and hostile content


def test_a_binary_file_is_skipped_with_a_warning(indexed_workspace: Path) -> None:
    (indexed_workspace / "memory" / "x.md").write_bytes(bytes(range(256)) * 200)
    status = json.loads(run_ok(indexed_workspace, "status", "--json"))
    assert {"path": "memory/x.md", "line": 1, "message": "not a text file (binary data); skipped"} in status["warnings"]
    hits = json.loads(run_ok(indexed_workspace, "recall", "x", "--json", "--mode", "lexical"))["results"]
    assert all(h["path"] != "memory/x.md" for h in hits)


def test_control_characters_never_reach_the_terminal(workspace: Path) -> None:
    (workspace / "memory" / "2025-11-24.md").write_text(
        "# e\n\n## Retain\n- W @Esc: Evil \x1b]0;PWNED\x07 title \x9b2J.\n", encoding="utf-8")
    out = run_ok(workspace, "recall", "Evil title")
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert "\\x1b]0;PWNED\\x07" in out
    page = run_ok(workspace, "get", "memory/2025-11-24.md")
    assert "\x1b" not in page and "\\x1b" in page
    exact = json.loads(run_ok(workspace, "recall", "Evil title", "--json"))["results"][0]["content"]
    assert "\x1b]0;PWNED\x07" in exact  # JSON stays exact


# ------------------------------------------------------------------ 6. the smaller ones


def test_a_folder_that_is_not_a_workspace_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "notes.txt").write_text("hello", encoding="utf-8")
    for command in (("status",), ("recall", "x"), ("index",), ("retain", "W @X: y")):
        line = assert_one_line_error(*run_memory(plain, *command))
        assert "not a memory workspace" in line and "init" in line
    assert sorted(p.name for p in plain.iterdir()) == ["notes.txt"]
    run_ok(plain, "init")
    run_ok(plain, "status")


def test_init_never_writes_through_a_symlinked_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "bank").symlink_to(outside, target_is_directory=True)
    code, out, err = run_memory(ws, "init")
    assert code == 0 and "bank" in err and "symbolic link" in err
    assert list(outside.iterdir()) == []
    assert (ws / "MEMORY.md").is_file()


def test_an_impossible_date_says_no_such_date(workspace: Path) -> None:
    line = assert_one_line_error(*run_memory(workspace, "retain", "W @X: y", "--date", "2026-02-30"))
    assert "no such date" in line
    line = assert_one_line_error(*run_memory(workspace, "retain", "W @X: y", "--date", "30.02.2026"))
    assert "YYYY-MM-DD" in line


def test_get_says_when_a_long_line_was_cut(workspace: Path) -> None:
    (workspace / "memory" / "big.md").write_text("x" * 5_000_000 + "\n", encoding="utf-8")
    out = run_ok(workspace, "get", "memory/big.md")
    assert "line 1 cut after 12,000 of its 5,000,000 characters" in out
    page = json.loads(run_ok(workspace, "get", "memory/big.md", "--json"))
    assert page["cut_line"] == 1 and page["cut_line_chars"] == 5_000_000 and len(page["text"]) == 12_000
