"""One wording for every limit, in every shell: the CLI, `memory mcp` over stdio and over HTTP say
the same line for the same refused argument (limits.too_long / limits.out_of_range), never
pydantic's "String should have at most 2000 characters".

The OpenClaw plugin passes the engine's tool error through in memory_search's `error` field
(integrations/openclaw/src/tools.js `unavailable`); whether the gateway refuses by its own schema
first is the plugin's concern (issue 44), not checked here.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import assert_one_line_error, run_memory
from test_mcp_hostile import http_server, http_session, post, raw_stdio, tool_error

LONG_QUERY = "x" * 2_001
# (MCP tool, its arguments, the same refusal on the command line, the one line every shell says)
CASES = [
    ("memory_search", {"query": LONG_QUERY}, ["recall", LONG_QUERY, "--json"],
     "query: 2,001 characters; the limit is 2,000"),
    ("memory_search", {"query": "Peter", "k": 5_000}, ["recall", "Peter", "--k", "5000", "--json"],
     "k: 5,000; expected 1 to 1,000"),
    ("memory_search", {"query": "Peter", "budget": 0}, ["recall", "Peter", "--budget", "0"],
     "budget: 0; expected 1 to 1,000,000"),
    ("memory_search", {"query": "Peter", "since": "7" * 1_001}, ["recall", "Peter", "--since", "7" * 1_001],
     "since: 1,001 characters; the limit is 1,000"),
    ("memory_retain", {"bullet": "W @Peter: " + "x" * 3_996}, ["retain", "W @Peter: " + "x" * 3_996],
     "bullet: 4,006 characters; the limit is 4,000"),
    ("memory_entity", {"name": "P" * 1_001}, ["entity", "P" * 1_001], "name: 1,001 characters; the limit is 1,000"),
    ("memory_get", {"path": "a" * 1_001}, ["get", "a" * 1_001], "path: 1,001 characters; the limit is 1,000"),
    ("memory_core_append", {"block": "Human", "text": "y" * 20_001}, ["core", "append", "Human", "y" * 20_001],
     "text: 20,001 characters; the limit is 20,000"),
]


def _http_tool_error(url: str, session: dict[str, str], rid: int, tool: str, arguments: dict) -> str:
    call = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    status, _, body = post(url, json.dumps(call).encode(), session)
    assert status == 200, body
    text = body.decode()
    reply = json.loads(text.split("data: ", 1)[1].splitlines()[0] if "data: " in text else text)
    return tool_error(reply)


def test_every_shell_refuses_a_limit_in_the_same_words(shared_ws: Path) -> None:
    said: dict[str, list[tuple[str, str]]] = {line: [] for *_, line in CASES}
    for _, _, args, line in CASES:
        said[line].append(("cli", assert_one_line_error(*run_memory(shared_ws, *args)).removeprefix("memory: error: ")))
    with raw_stdio(shared_ws) as server:
        for rid, (tool, arguments, _, line) in enumerate(CASES, start=1):
            said[line].append(("mcp stdio", tool_error(server.call(rid, tool, **arguments))))
    with http_server(shared_ws) as base:
        url = base + "/mcp"
        session = http_session(url)
        for rid, (tool, arguments, _, line) in enumerate(CASES, start=1):
            said[line].append(("mcp http", _http_tool_error(url, session, rid, tool, arguments)))
    for line, answers in said.items():
        assert answers == [("cli", line), ("mcp stdio", line), ("mcp http", line)], answers


def test_an_empty_query_is_refused_over_mcp_as_on_the_command_line(shared_ws: Path) -> None:
    """`memory recall ""` exits 2; memory_search with an empty (or blank) query and no filter is a tool
    error in one line, never an empty result list that looks like "nothing remembered"."""
    assert run_memory(shared_ws, "recall", "")[0] == 2
    with raw_stdio(shared_ws) as server:
        for rid, query in enumerate(("", "   "), start=1):
            assert tool_error(server.call(rid, "memory_search", query=query)) == \
                "query: empty; give a query (or a filter such as since or entity)"
        reply = server.call(3, "memory_search", query="", since="2000-01-01")
        assert not reply["result"].get("isError"), reply
