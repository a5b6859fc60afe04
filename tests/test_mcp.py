"""`memory mcp` end to end with the SDK's own client: over a real stdio pipe (the client spawns the
server) and over a real loopback HTTP port (streamable HTTP, with and without a bearer token)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from conftest import (
    NOW,
    assert_one_line_error,
    clean_env,
    memory_executable,
    recall_json,
    run_memory,
    run_ok,
    tree_hashes,
    wait_listening,
)

TOOLS = {"memory_search", "memory_get", "memory_retain", "memory_entity", "memory_entities", "memory_core_show",
         "memory_core_append", "memory_core_replace", "memory_core_insert", "memory_core_rethink", "memory_reflect",
         "memory_triggers", "memory_status"}


def stdio(workspace: Path) -> StdioServerParameters:
    return StdioServerParameters(command=memory_executable(), args=["--workspace", str(workspace), "--now", NOW, "mcp"],
                                 env=clean_env())


async def call(client: Client, tool: str, **args: Any) -> tuple[bool, Any]:
    """(is_error, structured result or the error text)."""
    result = await client.call_tool(tool, args)
    if result.is_error:
        return True, result.content[0].text
    return False, result.structured_content


def test_every_tool_over_stdio(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    (ws / "memory.toml").write_text('[core]\nread_only = ["Persona"]\n')
    expected_search = recall_json(ws, "espresso", "--mode", "auto")

    async def session() -> None:
        async with Client(stdio(ws)) as client:
            listed = (await client.list_tools()).tools
            assert {t.name for t in listed} == TOOLS
            assert all(len(t.description or "") > 80 for t in listed)  # written for an agent deciding
            assert next(t for t in listed if t.name == "memory_search").annotations.read_only_hint

            # search: the recall --json contract, the same answer as the CLI
            error, found = await call(client, "memory_search", query="espresso")
            assert not error and found == expected_search
            # get: paged, confined, and it takes the citations search returns
            source = found["results"][0]["source"]
            error, page = await call(client, "memory_get", path=source)
            assert not error and page["start_line"] == found["results"][0]["start_line"]
            error, page = await call(client, "memory_get", path="memory/2025-11-12.md#L7-L8")
            assert (page["start_line"], page["end_line"]) == (7, 8)
            error, message = await call(client, "memory_get", path="../../etc/passwd.md")
            assert error and message.startswith("../../etc/passwd.md: outside the workspace")

            # retain, then the next search sees it (no stat scan: the watcher marked the file)
            error, written = await call(client, "memory_retain", bullet="W @Peter: Plays the cello on Sundays.")
            assert not error and written["path"] == "memory/2025-11-30.md"
            error, found = await call(client, "memory_search", query="cello", mode="lexical")
            assert found["results"][0]["source"] == f"memory/2025-11-30.md#L{written['line']}"
            error, message = await call(client, "memory_retain", bullet="Z not a fact")
            assert error and message.startswith("not retained: not a Retain fact")

            # entities
            error, people = await call(client, "memory_entities")
            assert people["entities"][0]["slug"] == "Peter" and people["entities"][0]["facts"] >= 6
            error, peter = await call(client, "memory_entity", name="Pete")
            assert not error and peter["entity"] == "Peter Steinberger"

            # core memory
            error, shown = await call(client, "memory_core_show")
            assert [(b["label"], b["read_only"]) for b in shown["blocks"]] == [("Persona", True), ("Human", False)]
            error, edit = await call(client, "memory_core_append", block="Human", text="- Cello on Sundays.")
            assert not error and edit["diff"].endswith("+- Cello on Sundays.")
            error, message = await call(client, "memory_core_replace", block="Human", old="e", new="x")
            cli = assert_one_line_error(*run_memory(ws, "core", "replace", "Human", "e", "x"))
            assert error and cli == f"memory: error: {message}"  # the same one-line message
            error, edit = await call(client, "memory_core_replace", block="Human", old="Cello", new="Viola")
            assert not error and "+- Viola on Sundays." in edit["diff"]
            error, edit = await call(client, "memory_core_insert", block="Human", text="- Born in Graz.", line=1)
            assert not error
            error, message = await call(client, "memory_core_rethink", block="Persona", text="I am new.")
            assert error and "read-only" in message
            error, edit = await call(client, "memory_core_rethink", block="Human", text="- Name: Peter")
            assert not error and (ws / "MEMORY.md").read_text().endswith("## Human\n- Name: Peter\n")

            # status: the index's figures, as `memory status --json` gives them
            error, status = await call(client, "memory_status")
            cli_status = json.loads(run_ok(ws, "status", "--json"))
            assert not error and (status["files"], status["chunks"]) == (cli_status["files"], cli_status["chunks"])
            # triggers: the entries a message names, or all of them with their phrases
            (ws / "bank").mkdir(exist_ok=True)
            (ws / "bank" / "world.md").write_text("# World\n\n- No deploys on Fridays. <!-- trigger: deploy freeze -->\n")
            error, listed = await call(client, "memory_triggers")
            assert not error and [(r["source"], r["phrases"]) for r in listed["results"]] == [
                ("bank/world.md#L3", ["deploy freeze"])]
            error, named = await call(client, "memory_triggers", message="Is there a deploy freeze today?")
            assert not error and [r["source"] for r in named["results"]] == ["bank/world.md#L3"]
            error, named = await call(client, "memory_triggers", message="Good morning")
            assert not error and named["results"] == []

            # reflect: a dry run unless asked
            before = tree_hashes(ws)
            error, report = await call(client, "memory_reflect", since="30d")
            assert not error and report["dry_run"] and report["changed"] and tree_hashes(ws) == before
            error, report = await call(client, "memory_reflect", since="30d", apply=True)
            assert not error and not report["dry_run"] and (ws / "bank/entities/Andy.md").exists()

            # bad arguments come back as tool errors, and the server keeps serving
            for tool, args in (("memory_search", {"query": "x", "k": "many"}), ("memory_search", {}),
                               ("memory_search", {"query": "x", "mode": "psychic"}),
                               ("memory_core_insert", {"block": "Human", "text": "x", "line": 99}),
                               ("memory_retain", {"bullet": "W @P: x", "day": "2026-02-30"})):
                error, message = await call(client, tool, **args)
                assert error and "\n" not in message and message, (tool, message)
            error, found = await call(client, "memory_search", query="espresso", k=1)
            assert not error and len(found["results"]) == 1

    anyio.run(session)


def test_file_edits_are_visible_to_the_next_search(indexed_workspace: Path) -> None:
    """Created, modified (in place and by an editor's atomic rename) and deleted files, searched at once."""
    ws = indexed_workspace
    note = ws / "memory" / "2025-11-29.md"

    async def search(client: Client, word: str) -> list[str]:
        """The files of the results that contain `word` (neighbouring entries may join them)."""
        error, found = await call(client, "memory_search", query=word, mode="lexical")
        assert not error, found
        return sorted({r["path"] for r in found["results"] if word in r["content"]})

    async def session() -> None:
        async with Client(stdio(ws)) as client:
            await search(client, "warmup")
            note.write_text("# 2025-11-29\n\n- The plumber fixed the zanzibar valve.\n")
            assert await search(client, "zanzibar") == ["memory/2025-11-29.md"]
            with note.open("a") as fh:
                fh.write("- Bought a quetzal feather.\n")
            assert await search(client, "quetzal") == ["memory/2025-11-29.md"]
            tmp = ws / "memory" / ".2025-11-29.md.swp"
            tmp.write_text("# 2025-11-29\n\n- Replaced by an editor: xylophone lessons.\n")
            os.replace(tmp, note)
            assert await search(client, "xylophone") == ["memory/2025-11-29.md"]
            assert await search(client, "zanzibar") == []
            note.unlink()
            assert await search(client, "xylophone") == []

    anyio.run(session)


# -- streamable HTTP ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def http_server(workspace: Path, env: dict[str, str | None] | None = None) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen([memory_executable(), "--workspace", str(workspace), "--now", NOW, "mcp", "--http",
                             f"127.0.0.1:{port}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=clean_env(env))
    try:
        wait_listening(proc, "127.0.0.1", port, "the HTTP server")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def http_client(url: str, token: str | None = None) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return Client(streamable_http_client(url, http_client=create_mcp_http_client(headers=headers)))


async def http_search(url: str, token: str | None = None) -> dict:
    async with http_client(url, token) as client:
        error, found = await call(client, "memory_search", query="espresso", k=2)
        assert not error, found
        return found


def test_http_on_loopback(indexed_workspace: Path) -> None:
    with http_server(indexed_workspace) as url:
        found = anyio.run(http_search, url)
    assert found["results"][0]["source"] == "memory/2025-11-20.md#L8"


def test_http_bearer_token(indexed_workspace: Path) -> None:
    (indexed_workspace / "memory.toml").write_text('[mcp]\ntoken_env = "TEAM_MEMORY_TOKEN"\n')
    with http_server(indexed_workspace, {"TEAM_MEMORY_TOKEN": "s3cret"}) as url:
        assert anyio.run(http_search, url, "s3cret")["results"]
        for wrong in (None, "guess"):
            with pytest.raises(Exception):  # noqa: B017 - the client fails as its transport does
                anyio.run(http_search, url, wrong)
            request = urllib.request.Request(url, data=b"{}", method="POST", headers={
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                **({"Authorization": f"Bearer {wrong}"} if wrong else {})})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code == 401 and "Bearer" in refused.value.headers["WWW-Authenticate"]


def test_http_off_loopback_needs_a_token(workspace: Path) -> None:
    line = assert_one_line_error(*run_memory(workspace, "mcp", "--http", f"0.0.0.0:{free_port()}"))
    assert "needs a bearer token: set the environment variable MEMORY_MCP_TOKEN" in line
    line = assert_one_line_error(*run_memory(workspace, "mcp", "--http", "localhost"))
    assert "expected HOST:PORT" in line


def test_http_token_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from workspace_memory.errors import UserError
    from workspace_memory.mcp import http_token, is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    monkeypatch.delenv("MEMORY_MCP_TOKEN", raising=False)
    assert http_token({}, "127.0.0.1") is None
    with pytest.raises(UserError, match="192.168.1.5"):
        http_token({}, "192.168.1.5")
    with pytest.raises(UserError, match="unknown setting"):
        http_token({"mcp": {"token": "inline secrets are not read"}}, "127.0.0.1")


def test_descriptions_match_the_readme_notes() -> None:
    notes = Path(__file__).parent.parent / "docs" / "mcp.md"
    text = notes.read_text(encoding="utf-8")
    assert all(f"`{tool}`" in text for tool in TOOLS), "every MCP tool is documented"


def test_stdio_streams_keep_stray_prints_off_the_wire() -> None:
    """mcp/stdio.py: lines come from fd 0 through the event loop, replies go to the real stdout, and a
    print while serving lands on stderr (the protocol stream stays clean); fds are restored after."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import asyncio, os, sys
        from workspace_memory.mcp.stdio import claimed_stdio

        async def main():
            with claimed_stdio() as (lines, writer):
                print("stray output")  # must not reach the wire
                sys.stdout.flush()
                async for line in lines:
                    await writer.write("echo:" + line.decode() + "\\n")  # lines come without their newline
            print("after")  # fd 1 is the wire again

        asyncio.run(main())
    """)
    proc = subprocess.run([sys.executable, "-c", script], input="one\ntwo\n", capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "echo:one\necho:two\nafter\n"
    assert "stray output" in proc.stderr


@pytest.mark.parametrize(("value", "message"), [("20251130", "day '20251130': expected YYYY-MM-DD"),
                                                ("2025-W48-1", "expected YYYY-MM-DD"),
                                                ("2026-02-30", "day 2026-02-30: no such date")])
def test_the_day_argument_is_read_as_the_cli_reads_it(value: str, message: str) -> None:
    """timeparse.parse_day, as `memory retain --date` (date.fromisoformat alone takes 20251130)."""
    from mcp.server.mcpserver.exceptions import ToolError

    from workspace_memory.mcp.tools import _day

    with pytest.raises(ToolError, match=message):
        _day(value)
    assert str(_day(" 2025-11-30 ")) == "2025-11-30" and _day(None) is None
