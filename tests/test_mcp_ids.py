"""A JSON-RPC id used again while its request runs, in one HTTP session, gets an error answer at once
(HTTP 409, -32600), never silence: the SDK keys each answer's stream by the id, and the two requests
used to wait forever. Once answered, an id may be used again."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import anyio

from test_mcp_hostile import http_server, http_session, post
from workspace_memory.mcp.http import JsonRpcGate


def _scope(session: bytes) -> dict:
    return {"type": "http", "method": "POST", "path": "/mcp",
            "headers": [(b"host", b"127.0.0.1:9"), (b"mcp-session-id", session)]}


def test_the_gate_refuses_an_id_in_progress_and_frees_it_when_answered() -> None:
    release = anyio.Event()
    answered: list[tuple[str, int]] = []

    async def slow_app(scope, receive, send) -> None:  # stands for the SDK: answers when released
        await receive()
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    gate = JsonRpcGate(slow_app, "127.0.0.1", None)

    async def request(name: str, rid: object, session: bytes = b"s1") -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {}}).encode()
        sent = False

        async def receive() -> dict:
            nonlocal sent
            if sent:
                await anyio.sleep_forever()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                answered.append((name, message["status"]))
            elif message["type"] == "http.response.body" and message["body"] != b"{}":
                reply = json.loads(message["body"])
                assert reply["id"] == rid and reply["error"]["code"] == -32600
                assert f"id {json.dumps(rid)} is the id of a request still in progress" in reply["error"]["message"]

        await gate(_scope(session), receive, send)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(request, "first", 7)
            await anyio.sleep(0.05)
            await request("again", 7)  # answered at once, while the first waits
            tg.start_soon(request, "other session", 7, b"s2")  # ids are per session
            tg.start_soon(request, "another id", "7")  # "7" is not 7
            await anyio.sleep(0.05)
            assert answered == [("again", 409)]
            release.set()
        await request("after", 7)  # answered: the id is free again

    anyio.run(main)
    assert sorted(answered) == sorted([("again", 409), ("first", 200), ("other session", 200), ("another id", 200),
                                       ("after", 200)])
    assert gate.running == set()


def test_a_real_server_answers_every_request_that_reuses_an_id(shared_ws: Path) -> None:
    with http_server(shared_ws) as base:
        url = base + "/mcp"
        session = http_session(url)
        call = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "memory_search", "arguments": {"query": "Peter espresso", "k": 5}}}).encode()
        for _ in range(5):
            statuses: list[int] = []

            def one(into: list[int] = statuses) -> None:
                into.append(post(url, call, session)[0])

            threads = [threading.Thread(target=one) for _ in range(3)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            assert not any(t.is_alive() for t in threads), "a request was never answered"
            assert len(statuses) == 3 and set(statuses) <= {200, 409} and 200 in statuses, statuses
