"""The small things a new user tripped over (get with a citation, entities, options after the
command, a retained bullet with its dash) and the flush prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import NOW, assert_one_line_error, run_memory, run_ok


@pytest.mark.parametrize(("cited", "lines"), [
    ("memory/2025-11-12.md#L7", (7, 14)),  # from line 7 to the end (the file has 14 lines)
    ("memory/2025-11-12.md#L7-L9", (7, 9)),
    ("memory/2025-11-12.md#L7-9", (7, 9)),
])
def test_get_accepts_the_citations_recall_prints(shared_ws: Path, cited: str, lines: tuple[int, int]) -> None:
    page = json.loads(run_ok(shared_ws, "get", cited, "--json"))
    assert (page["path"], page["start_line"], page["end_line"]) == ("memory/2025-11-12.md", *lines)
    source = json.loads(run_ok(shared_ws, "recall", "a828e60", "--json"))["results"][0]["source"]
    assert "a828e60" in run_ok(shared_ws, "get", source)
    line = assert_one_line_error(*run_memory(shared_ws, "get", "memory/2025-11-12.md#L9-L7"))
    assert "ends before it starts" in line


def test_entities(shared_ws: Path) -> None:
    found = json.loads(run_ok(shared_ws, "entities", "--json"))
    assert found[0] == {"slug": "Peter", "name": "Peter Steinberger", "page": "bank/entities/Peter.md",
                        "aliases": ["Pete", "steipete"], "facts": 8}
    assert run_ok(shared_ws, "entities").splitlines()[0].split() == ["8", "@Peter", "Peter", "Steinberger",
                                                                     "bank/entities/Peter.md"]


def test_global_options_after_the_command(shared_ws: Path) -> None:
    after = run_memory(None, "recall", "espresso", "--json", "--workspace", shared_ws, "--now", NOW, now=None)
    before = run_memory(shared_ws, "recall", "espresso", "--json")
    assert after[0] == 0 and after[1] == before[1]
    assert run_memory(None, "core", "show", "--workspace", shared_ws, now=None)[0] == 0


def test_retain_a_bullet_copied_with_its_dash(workspace: Path) -> None:
    out = run_ok(workspace, "retain", "- W @Peter: Hikes on the Schneeberg.")  # "-h" inside must not print help
    assert out.startswith("retained at memory/2025-11-30.md#L")
    assert "- W @Peter: Hikes on the Schneeberg.\n" in (workspace / "memory" / "2025-11-30.md").read_text()
    line = assert_one_line_error(*run_memory(workspace, "retain", "--dtae", "2025-11-01", "W @P: x"))
    assert "No such option" in line


def test_flush_prompt(workspace: Path) -> None:
    prompt = json.loads(run_ok(workspace, "flush-prompt", "--json", now="2025-11-30T23:30"))
    assert prompt["path"] == "memory/2025-11-30.md" and prompt["no_reply"] == "NO_REPLY"
    assert "memory_retain" in prompt["system"] and "read-only" in prompt["system"] and "NO_REPLY" in prompt["user"]
    (workspace / "memory.toml").write_text('timezone = "Pacific/Auckland"\n')  # already Dec 1 there
    prompt = json.loads(run_ok(workspace, "flush-prompt", "--json", now="2025-11-30T23:30+00:00"))
    assert prompt["path"] == "memory/2025-12-01.md" and "Pacific/Auckland" in prompt["system"]
    human = run_ok(workspace, "flush-prompt")
    assert human.startswith("[system]\n") and "\n[user]\n" in human


@pytest.mark.parametrize("command", ["core", "core show", "core append", "core replace", "core insert",
                                     "core rethink", "core create", "core delete", "mcp", "triggers", "doctor",
                                     "watch", "flush-prompt", "entities"])
def test_every_new_command_has_help(command: str) -> None:
    out = run_ok(None, *command.split(), "--help", now=None)
    assert "Usage: memory" in out and len(out.splitlines()) > 3
