"""`memory mcp` under hostile input: raw JSON-RPC lines over a real stdio pipe and raw HTTP requests
to a real `memory mcp --http`, for each case of issue 22 (bounded work, spec-exact JSON-RPC, binds
and auth, what an agent sees). No SDK client here: the point is what goes over the wire."""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import workspace_memory
from conftest import NOW, assert_one_line_error, clean_env, memory_executable, run_memory, wait_listening
from test_mcp import free_port
from workspace_memory.limits import (
    MAX_FACT_CHARS,
    MAX_FTS_TERMS,
    MAX_QUERY_CHARS,
    MAX_REQUEST_BYTES,
    MAX_RESULT_CHARS,
    cap_result,
)

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class RawStdio:
    """`memory mcp` as a child process, spoken to line by line."""

    def __init__(self, workspace: Path) -> None:
        self.proc = subprocess.Popen([memory_executable(), "--workspace", str(workspace), "--now", NOW, "mcp"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=clean_env({"MEMORY_EMBED_PROVIDER": "none"}))
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.initialize = self.request(INIT)
        self.send(INITIALIZED)

    def _pump(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put(line)

    def send(self, message: dict | bytes | str) -> None:
        raw = message if isinstance(message, bytes) else (
            message.encode() if isinstance(message, str) else json.dumps(message).encode())
        self.proc.stdin.write(raw.rstrip(b"\n") + b"\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def recv(self, timeout: float = 30) -> dict:
        try:
            return json.loads(self.lines.get(timeout=timeout))
        except queue.Empty:
            raise AssertionError(f"no reply within {timeout}s (server alive: {self.proc.poll() is None})") from None

    def request(self, message: dict | bytes | str, timeout: float = 30) -> dict:
        self.send(message)
        return self.recv(timeout)

    def call(self, rid: int, tool: str, **arguments: Any) -> dict:
        return self.request({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                             "params": {"name": tool, "arguments": arguments}})

    def close(self) -> None:
        """End the session (EOF on stdin); the server must exit cleanly, with no traceback on stderr
        (its background threads included: the session follower, the warm-up)."""
        self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.stdout.close()  # type: ignore[union-attr]
            errors = self.proc.stderr.read().decode("utf-8", "replace")  # type: ignore[union-attr]
            self.proc.stderr.close()  # type: ignore[union-attr]
        assert "Traceback" not in errors, errors


@contextlib.contextmanager
def raw_stdio(workspace: Path) -> Iterator[RawStdio]:
    server = RawStdio(workspace)
    try:
        yield server
    finally:
        server.close()


def tool_error(reply: dict) -> str:
    """The text of a tool error (isError: true); fails on anything else."""
    result = reply.get("result") or {}
    assert result.get("isError"), reply
    return result["content"][0]["text"]


def rpc_error(reply: dict, code: int) -> str:
    assert reply.get("error", {}).get("code") == code, reply
    return reply["error"]["message"]


# ------------------------------------------------------------------------------------------ stdio framing


def test_stdio_answers_every_bad_line_and_goes_on(shared_ws: Path) -> None:
    with raw_stdio(shared_ws) as server:
        reply = server.request("not json")
        assert reply["id"] is None and rpc_error(reply, -32700)
        reply = server.request(b"\xff\xfe{}")  # not UTF-8
        assert reply["id"] is None and rpc_error(reply, -32700)
        reply = server.request([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])  # type: ignore[arg-type]
        assert reply["id"] is None and "batch" in rpc_error(reply, -32600)
        reply = server.request({"id": 2, "method": "ping"})  # no "jsonrpc"
        assert reply["id"] == 2 and rpc_error(reply, -32600)
        for bad_id in (None, {"a": 1}, 1.5, True):
            reply = server.request({"jsonrpc": "2.0", "id": bad_id, "method": "ping"})
            assert reply["id"] is None and rpc_error(reply, -32600), bad_id
        reply = server.request('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search",'
                               '"arguments":{"query":"\\ud800"}}}')
        assert reply["id"] == 3 and "surrogate" in rpc_error(reply, -32602)
        reply = server.request({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": [1]})
        assert reply["id"] == 4 and rpc_error(reply, -32602)
        # an invalid notification is never answered: the next answer is the ping's
        server.send({"method": "notifications/cancelled"})
        assert server.request({"jsonrpc": "2.0", "id": 5, "method": "ping"}) == {"jsonrpc": "2.0", "id": 5,
                                                                                 "result": {}}


def test_stdio_line_over_the_limit_is_skipped_and_the_server_goes_on(shared_ws: Path) -> None:
    with raw_stdio(shared_ws) as server:
        huge = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "memory_search", "arguments": {"query": "Peter " * (MAX_REQUEST_BYTES // 3)}}})
        reply = server.request(huge)
        assert reply["id"] is None and f"{MAX_REQUEST_BYTES:,} bytes" in rpc_error(reply, -32600)
        assert server.request({"jsonrpc": "2.0", "id": 2, "method": "ping"})["result"] == {}
        assert server.proc.poll() is None  # how fast: benchmarks/mcp_hostile.py (MAX_SECONDS)


def test_unknown_tool_and_prompt_are_invalid_params_and_only_tools_are_advertised(shared_ws: Path) -> None:
    with raw_stdio(shared_ws) as server:
        init = server.initialize["result"]
        assert init["serverInfo"]["version"] == workspace_memory.__version__
        assert set(init["capabilities"]) - {"experimental", "extensions"} == {"tools"}
        rpc_error(server.call(1, "memory_delete_everything"), -32602)
        reply = server.request({"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {"name": "x"}})
        rpc_error(reply, -32602)
        for method in ("prompts/list", "resources/list"):
            rpc_error(server.request({"jsonrpc": "2.0", "id": 3, "method": method}), -32601)


# ------------------------------------------------------------------------------------------ bounded work


def test_oversized_arguments_are_refused_before_any_work(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    before = (ws / "MEMORY.md").read_bytes()
    with raw_stdio(ws) as server:
        text = tool_error(server.call(1, "memory_search", query="Peter " * 50_000, k=3))  # 300 KB
        assert "query" in text and f"{MAX_QUERY_CHARS}" in text.replace(",", "")
        assert "k" in tool_error(server.call(2, "memory_search", query="Peter", k=5000))
        text = tool_error(server.call(3, "memory_retain", bullet="W @Peter: " + "x" * 1_000_000))
        assert "bullet" in text
        assert "text" in tool_error(server.call(4, "memory_core_append", block="Human", text="y" * 1_000_000))
        assert "name" in tool_error(server.call(5, "memory_entity", name="P" * 100_000))
        assert "path" in tool_error(server.call(6, "memory_get", path="a/" * 100_000 + "x.md"))
        text = tool_error(server.call(7, "memory_search", query="Peter", colour="blue"))
        assert "unknown argument 'colour'" in text  # each refused before any work: the test below
        reply = server.call(8, "memory_search", query="espresso", k=2)
        assert not reply["result"].get("isError") and reply["result"]["structuredContent"]["results"]
    assert (ws / "MEMORY.md").read_bytes() == before
    assert "x" * 1000 not in "".join(p.read_text() for p in (ws / "memory").glob("*.md"))


# Lines of our code a refusal may run (benchmarks/reliability.count_steps): 20-420 on 2026-12-06,
# where an ordinary recall of the same workspace runs about 3,500 and a 300 KB query that was
# looked at would run hundreds of thousands. A count of work, the same on any machine.
MAX_REFUSAL_STEPS = 1_000


def test_oversized_arguments_cost_a_bounded_number_of_steps(indexed_workspace: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    from reliability import count_steps
    from workspace_memory.api import Memory
    from workspace_memory.errors import UserError
    from workspace_memory.recall.query import RecallRequest

    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    mem = Memory.open(str(indexed_workspace), NOW)
    mem.refresh()  # the index opened and synced: what is counted is the refusal alone
    big_line = json.dumps({"bullet": "W @Peter: " + "x" * 2_000_000, "kind": "world"}).encode() + b"\n"
    calls = {
        "query": lambda: mem.recall(RecallRequest("Peter " * 50_000, k=3)),
        "k": lambda: mem.recall(RecallRequest("Peter", k=5000)),
        "bullet": lambda: mem.retain("W @Peter: " + "x" * 1_000_000),
        "text": lambda: mem.core_append("Human", "y" * 1_000_000),
        "name": lambda: mem.entity("P" * 100_000),
        "path": lambda: mem.get("a/" * 100_000 + "x.md"),
        "big.jsonl:1": lambda: mem.import_facts([big_line], "big.jsonl"),
    }
    said: dict[str, str] = {}

    def refused(name: str, call) -> None:
        with pytest.raises(UserError) as caught:
            call()
        said[name] = str(caught.value)

    try:
        for name, call in calls.items():
            steps = count_steps(((refused, name, call),))
            assert name in said[name] and steps < MAX_REFUSAL_STEPS, (name, steps, said[name])
    finally:
        mem.close()


def test_the_cli_has_the_same_limits(indexed_workspace: Path, tmp_path: Path) -> None:
    ws = indexed_workspace
    line = assert_one_line_error(*run_memory(ws, "recall", "x" * (MAX_QUERY_CHARS + 1), "--json"))
    assert f"query: {MAX_QUERY_CHARS + 1:,} characters; the limit is {MAX_QUERY_CHARS:,}" in line
    line = assert_one_line_error(*run_memory(ws, "retain", "W @Peter: " + "x" * MAX_FACT_CHARS))
    assert "bullet" in line and f"{MAX_FACT_CHARS:,}" in line
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({"bullet": "W @Peter: " + "x" * 2_000_000, "kind": "world"}) + "\n")
    line = assert_one_line_error(*run_memory(ws, "import", str(big)))
    assert "big.jsonl:1" in line
    fact = tmp_path / "fact.jsonl"
    fact.write_text(json.dumps({"bullet": "W @Peter: " + "x" * MAX_FACT_CHARS, "kind": "world"}) + "\n")
    line = assert_one_line_error(*run_memory(ws, "import", str(fact)))
    assert f"at most {MAX_FACT_CHARS:,} characters" in line


def test_a_long_query_searches_its_first_words_with_a_notice(shared_ws: Path) -> None:
    words = " ".join(f"zq{i}" for i in range(MAX_FTS_TERMS + 20)) + " espresso"
    out = run_memory(shared_ws, "recall", words, "--json", "--mode", "lexical")
    assert out[0] == 0, out
    assert any(f"first {MAX_FTS_TERMS} were searched" in n for n in json.loads(out[1])["notices"])


def test_tool_results_are_capped_with_a_mark(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    log = ws / "memory" / "2025-11-29.md"  # a hand-written megabyte fact and many facts about one entity
    bullets = [f"- W @Peter: Hand-written fact number {i} about the garden shed{' and more' * 300}."
               for i in range(300)]
    log.write_text("# 2025-11-29\n\n## Retain\n- W @Peter: " + "long " * 200_000 + "\n" + "\n".join(bullets) + "\n")
    run_memory(ws, "index")
    with raw_stdio(ws) as server:
        result = server.call(1, "memory_entity", name="Peter")["result"]
    text = result["content"][0]["text"]
    assert len(text) <= MAX_RESULT_CHARS + 500 and "\n" not in text  # compact JSON, bounded
    data = result["structuredContent"]
    assert json.loads(text) == data
    assert data["truncated"]["items_left_out"]["facts"] > 0


def test_cap_result_keeps_small_results_and_cuts_lists_from_the_end() -> None:
    small = {"results": [{"content": "a"}]}
    assert cap_result(small) is small
    big = {"results": [{"content": f"{i} " + "x" * 100} for i in range(2000)], "notices": []}
    capped = cap_result(big, limit=10_000)
    assert len(json.dumps(capped, separators=(",", ":"))) <= 10_200
    assert capped["results"][0]["content"].startswith("0 ")
    assert capped["truncated"]["items_left_out"]["results"] == 2000 - len(capped["results"])
    one = cap_result({"page": {"text": "y" * 100_000}}, limit=20_000)
    assert len(one["page"]["text"]) <= 8_000 and one["truncated"]["fields_clipped"] == {"page.text": 1}


# ------------------------------------------------------------------------------------------ what an agent sees


def test_the_tool_list_is_written_for_an_agent(shared_ws: Path) -> None:
    with raw_stdio(shared_ws) as server:
        tools = server.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
        for tool in tools:
            assert "  " not in tool["description"] and "\n" not in tool["description"], tool["name"]
            schema = tool["inputSchema"]
            assert schema["additionalProperties"] is False, tool["name"]
            for name, prop in schema.get("properties", {}).items():
                assert prop.get("description"), (tool["name"], name)
                assert "maxLength" in prop or "enum" in prop or prop.get("type") != "string", (tool["name"], name)
            assert tool["outputSchema"]["type"] == "object", tool["name"]
        reply = server.call(2, "memory_search", query="espresso", k=2)["result"]
        text = reply["content"][0]["text"]
        assert json.loads(text) == reply["structuredContent"] and "\n" not in text and ", " not in text[:20]
        text = tool_error(server.call(3, "memory_get", path="../outside.md"))
        assert str(shared_ws) not in text


# ------------------------------------------------------------------------------------------ concurrency


def test_reads_do_not_queue_behind_a_refused_slow_call(shared_ws: Path) -> None:
    """One 300 KB query (once 40 s of embedding) and 10 normal searches in flight together."""
    with raw_stdio(shared_ws) as server:
        server.call(1, "memory_search", query="warm up", k=1)
        server.send({"jsonrpc": "2.0", "id": 100, "method": "tools/call",
                     "params": {"name": "memory_search", "arguments": {"query": "Peter " * 50_000}}})
        for i in range(10):
            server.send({"jsonrpc": "2.0", "id": 200 + i, "method": "tools/call",
                         "params": {"name": "memory_search", "arguments": {"query": "espresso", "k": 3}}})
        replies = {r["id"]: r for r in (server.recv() for _ in range(11))}  # how fast: benchmarks/mcp_hostile.py
    assert replies[100]["result"]["isError"]
    assert all(replies[200 + i]["result"]["structuredContent"]["results"] for i in range(10))


def test_a_call_cancelled_while_it_waits_never_runs() -> None:
    import anyio

    from workspace_memory.mcp import build_server

    class Slow:
        def __init__(self) -> None:
            self.release = threading.Event()
            self.calls: list[str] = []

        def entities(self) -> list:
            self.calls.append("entities")
            self.release.wait(10)
            return []

        def entity(self, name: str) -> dict:
            self.calls.append(name)
            return {"entity": name, "slug": name, "facts": [], "opinions": []}

    mem = Slow()
    server = build_server(mem)

    async def scenario() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.call_tool, "memory_entities", {})
            await anyio.sleep(0.2)
            with anyio.move_on_after(0.3):  # what notifications/cancelled does to the request's task
                await server.call_tool("memory_entity", {"name": "Peter"})
            mem.release.set()
        result = await server.call_tool("memory_entity", {"name": "Andy"})
        assert not result.is_error

    anyio.run(scenario)
    assert mem.calls == ["entities", "Andy"]


STEPS = 1000


def test_a_running_call_that_is_cancelled_stops_at_the_next_checkpoint() -> None:
    import anyio

    from workspace_memory.cancel import Cancelled, checkpoint
    from workspace_memory.mcp import build_server

    class Looping:
        stopped = threading.Event()
        steps = 0  # of the pipeline, run so far

        def entities(self) -> list:
            try:
                for _ in range(STEPS):  # 10 s unless cancelled: one step of a long pipeline per turn
                    checkpoint()
                    self.steps += 1
                    time.sleep(0.01)
            except Cancelled:
                self.stopped.set()
                raise
            return []

        def entity(self, name: str) -> dict:
            return {"entity": name, "slug": name, "facts": [], "opinions": []}

    mem = Looping()
    server = build_server(mem)

    async def scenario() -> int:
        with anyio.move_on_after(0.3):
            await server.call_tool("memory_entities", {})
        answered_at = mem.steps
        result = await server.call_tool("memory_entity", {"name": "Peter"})  # the lock is free again
        assert not result.is_error
        return answered_at

    assert anyio.run(scenario) < STEPS  # the caller is answered while the pipeline still runs
    assert mem.stopped.wait(10) and mem.steps < STEPS  # which stops at its next checkpoint


def test_a_cancelled_request_is_never_answered_and_the_server_goes_on(shared_ws: Path) -> None:
    with raw_stdio(shared_ws) as server:
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "memory_search", "arguments": {"query": "espresso"}}})
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
        reply = server.request({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        if reply["id"] == 1:  # the search may have finished before the cancellation arrived
            reply = server.recv()
        assert reply == {"jsonrpc": "2.0", "id": 2, "result": {}}


# ------------------------------------------------------------------------------------------ HTTP


@contextlib.contextmanager
def http_server(workspace: Path, host: str = "127.0.0.1", token: str | None = None) -> Iterator[str]:
    port = free_port()
    env = {"MEMORY_EMBED_PROVIDER": "none", "MEMORY_MCP_TOKEN": token}
    proc = subprocess.Popen([memory_executable(), "--workspace", str(workspace), "--now", NOW, "mcp", "--http",
                             f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=clean_env(env))
    connect = host if ":" not in host else "::1"
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    try:
        wait_listening(proc, connect, port, "the HTTP server")
        yield base
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def initialize_body() -> bytes:
    return json.dumps(INIT).encode()


def http_session(url: str) -> dict[str, str]:
    """Initialize a session on `url` (/mcp); the Mcp-Session-Id header to send with every next request."""
    _, headers, _ = post(url, initialize_body())
    session = {k: v for k, v in headers.items() if k.lower() == "mcp-session-id"}
    post(url, json.dumps(INITIALIZED).encode(), session)
    return session


def test_http_body_limit_and_dns_rebinding_on_loopback(shared_ws: Path) -> None:
    with http_server(shared_ws) as base:
        url = base + "/mcp"
        code, _, _ = post(url, b'{"x":"' + b"a" * (MAX_REQUEST_BYTES + 10) + b'"}')
        assert code == 413
        code, _, body = post(url, b"not json")
        assert code == 400 and json.loads(body)["error"]["code"] == -32700
        assert post(url, initialize_body(), {"Host": "attacker.example"})[0] == 421
        assert post(url, initialize_body(), {"Origin": "http://attacker.example"})[0] == 403
        code, headers, _ = post(url, initialize_body())
        assert code == 200, code


def test_long_form_ipv6_loopback_is_loopback_and_checks_the_host(shared_ws: Path) -> None:
    """0:0:0:0:0:0:0:1 is ::1: no token needed (the conformance suite's dns-rebinding scenario binds
    it and sends none), and Host and Origin are checked as on every bind."""
    with http_server(shared_ws, "0:0:0:0:0:0:0:1") as base:
        port = base.rsplit(":", 1)[1]
        assert post(base + "/mcp", initialize_body())[0] == 200
        assert post(base + "/mcp", initialize_body(), {"Host": f"[0:0:0:0:0:0:0:1]:{port}"})[0] == 200
        assert post(base + "/mcp", initialize_body(), {"Host": f"attacker.example:{port}"})[0] == 421
        assert post(base + "/mcp", initialize_body(), {"Origin": "http://attacker.example"})[0] == 403


def test_only_the_two_loopback_addresses_and_localhost_go_without_a_token() -> None:
    from workspace_memory.binds import needs_token

    assert [needs_token(h) for h in ("127.0.0.1", "::1", "[::1]", "0:0:0:0:0:0:0:1", "LocalHost")] == [False] * 5
    assert all(needs_token(h) for h in ("127.0.0.2", "::ffff:127.0.0.1", "0.0.0.0", "::", "127.000.000.001", "example"))


@pytest.mark.parametrize("host", ["127.0.0.2"])
def test_other_loopback_spellings_need_a_token_and_check_the_host(shared_ws: Path, host: str) -> None:
    address = f"[{host}]:{free_port()}" if ":" in host else f"{host}:{free_port()}"
    line = assert_one_line_error(*run_memory(shared_ws, "mcp", "--http", address))
    assert "needs a bearer token" in line
    token = "s3cret-" + "t" * 20
    with http_server(shared_ws, host, token) as base:
        auth = {"Authorization": f"Bearer {token}"}
        port = base.rsplit(":", 1)[1]
        assert post(base + "/mcp", initialize_body(), auth)[0] == 200
        assert post(base + "/mcp", initialize_body(), {**auth, "Host": f"attacker.example:{port}"})[0] == 421
        assert post(base + "/mcp", initialize_body(), {**auth, "Origin": "http://attacker.example"})[0] == 403


def test_a_401_says_bearer_only_without_an_oauth_flow(shared_ws: Path) -> None:
    token = "s3cret-" + "t" * 20
    with http_server(shared_ws, token=token) as base:
        code, headers, body = post(base + "/mcp", initialize_body())
        assert code == 401 and "MEMORY_MCP_TOKEN" in json.loads(body)["error_description"]
        # what an OAuth client falls back to (the MCP inspector: dynamic client registration here)
        code, _, body = post(base + "/register", b'{"client_name": "inspector"}')
        assert code == 400 and "there is no OAuth" in json.loads(body)["error_description"]
        challenge = headers["www-authenticate"] if "www-authenticate" in headers else headers["WWW-Authenticate"]
        assert challenge.startswith("Bearer ") and f'resource_metadata="{base}/.well-known/' in challenge
        with urllib.request.urlopen(base + "/.well-known/oauth-protected-resource/mcp", timeout=10) as response:
            metadata = json.loads(response.read())
        assert metadata["resource"] == base + "/mcp"
        assert metadata["authorization_servers"] == [] and metadata["bearer_methods_supported"] == ["header"]
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(base + "/.well-known/oauth-authorization-server", timeout=10)
        assert missing.value.code == 404


def test_http_answers_json_rpc_as_stdio_does(shared_ws: Path) -> None:
    with http_server(shared_ws) as base:
        url = base + "/mcp"
        session = http_session(url)
        for body, code, rid in ((b"not json", -32700, None),
                                (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600, None),
                                (b'{"id":2,"method":"ping"}', -32600, 2),
                                (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, None),
                                (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600, None),
                                (b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search",'
                                 b'"arguments":{"query":"\\ud800"}}}', -32602, 3)):
            status, _, answer = post(url, body, session)
            reply = json.loads(answer)
            assert status == 400 and reply["error"]["code"] == code and reply["id"] == rid, (body, status, answer)
        call = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}
        _, _, body = post(url, json.dumps(call).encode(), session)
        text = body.decode()
        payload = json.loads(text.split("data: ", 1)[1].splitlines()[0] if "data: " in text else text)
        assert payload["error"]["code"] == -32602
        status, _, body = post(url, json.dumps({"jsonrpc": "2.0", "id": 10, "method": "ping"}).encode(), session)
        assert status == 200 and b'"result":{}' in body


def test_the_ui_follows_the_same_bind_rules(shared_ws: Path) -> None:
    line = assert_one_line_error(*run_memory(shared_ws, "ui", "--host", "127.0.0.2", "--port", "0"))
    assert "token" in line


# ------------------------------------------------------------------------------------------ the files (part 6)


def test_memory_toml_is_checked_whole_with_its_name_in_every_command(workspace: Path) -> None:
    (workspace / "memory.toml").write_bytes(b"[core]\nlimit = 10 # caf\xe9\n")
    for args in (("recall", "x"), ("status",), ("index",)):
        line = assert_one_line_error(*run_memory(workspace, *args))
        assert "memory.toml: not valid UTF-8" in line, args
    (workspace / "memory.toml").write_text("[sessions]\npaths = 3\n")
    for args in (("recall", "x"), ("index",)):
        assert "[sessions] paths must be a list" in assert_one_line_error(*run_memory(workspace, *args)), args


def test_forget_undo_twice_and_purge_preview_without_sessions(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    assert run_memory(ws, "forget", "Lives in Vienna")[0] == 0
    assert run_memory(ws, "forget", "--undo", "Lives in Vienna")[0] == 0
    line = assert_one_line_error(*run_memory(ws, "forget", "--undo", "Lives in Vienna"))
    assert "nothing to undo" in line and "no no" not in line
    code, out, err = run_memory(ws, "forget", "--purge", "espresso", "--json")  # a preview
    assert code == 0, err
    assert not any("transcript" in n for n in json.loads(out)["notices"])


def test_transcripts_keep_broken_utf8_count_untimed_messages_and_count_files_once(
        workspace: Path, tmp_path: Path) -> None:
    from workspace_memory.index.records import SessionDelta, SessionReport
    from workspace_memory.index.sessions import parse_line

    kind, message = parse_line(b'{"type":"message","timestamp":"2025-11-29T08:00:00Z","message":{"role":"user",'
                               b'"content":"caf\xe9 au lait"}}', 1)
    assert kind == "message" and message.text == "caf\ufffd au lait"
    report = SessionReport(files=1)
    for _ in range(4):  # one 30 MB transcript read in 8 MB parts
        report.count_read(SessionDelta("sessions/a.jsonl", None, [], counts={"message": 1}), 10)
    assert report.read == 1

    folder = tmp_path / "sessions"
    folder.mkdir()
    lines = [{"type": "session", "id": "s1", "timestamp": "2025-11-28T09:00:00Z"},
             {"type": "message", "timestamp": "2025-11-28T09:01:00Z",
              "message": {"role": "user", "content": "the otter plan"}},
             {"type": "message", "timestamp": "not a time", "message": {"role": "user", "content": "beaver plan"}}]
    (folder / "s1.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (workspace / "memory.toml").write_text(f'[sessions]\npaths = ["{folder}"]\n')
    code, out, err = run_memory(workspace, "index", "--json")
    assert code == 0, err
    sessions = json.loads(out)["sessions"]
    assert sessions["untimed"] == 1 and any("unreadable timestamp" in n for n in sessions["notices"]), sessions
