"""A provider that stalls, and six searches at once: the circuit breaker makes them pay its timeout once.

    python benchmarks/reliability.py stall            (6 searches over MCP and 6 CLI processes, breaker on and off)

A loopback server answers OpenAI-shaped embeddings (a hashed bag of words) until it is told to
stall; then every request waits `stall_seconds` before answering. A workspace is indexed while it
answers; then it stalls and N searches start at once:

- over one `memory mcp` stdio server (what the OpenClaw plugin's child and any MCP client do): N
  `memory_search` requests sent together, each reply timed from the moment they were sent;
- as N `memory recall --json` processes started together (an agent's calls), with the breaker's
  state shared through `.memory/breaker.json`, then one more process after them.

The figure is the time until the last of the N answers, against one `query_timeout` plus their own
work (the same N searches while the provider answers, measured just before it stalls). `cooldown = 0` turns the
breaker off: the before figure.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import queue
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from hostile_provider import NOW, Recorder, _json, _reply, engine_env, memory_executable

DIM = 32


def bag_of_words(text: str) -> list[float]:
    vec = [0.0] * DIM
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vec[int.from_bytes(digest[:4], "little") % DIM] += 3.0 if digest[4] & 1 else -3.0
    vec[0] += 0.5
    return vec


class StallingProvider:
    """OpenAI-compatible /v1/embeddings on loopback; `stalled` makes every answer wait `stall_seconds`."""

    def __init__(self, stall_seconds: float = 20.0) -> None:
        self.stalled = False
        self.stall_seconds = stall_seconds
        self.stalled_requests = 0
        self.server = Recorder(self._answer)
        self.base_url = f"http://127.0.0.1:{self.server.port}/v1"

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        if self.stalled:
            self.stalled_requests += 1
            time.sleep(self.stall_seconds)
        texts = (getattr(handler, "body", None) or {}).get("input") or []
        data = [{"object": "embedding", "index": i, "embedding": bag_of_words(t)} for i, t in enumerate(texts)]
        with contextlib.suppress(OSError):  # the client gave up waiting
            _reply(handler, 200, _json({"object": "list", "data": data, "model": "m"}))

    def close(self) -> None:
        self.server.close()


@contextmanager
def stalling(stall_seconds: float = 20.0) -> Iterator[StallingProvider]:
    provider = StallingProvider(stall_seconds)
    try:
        yield provider
    finally:
        provider.stalled = False
        provider.close()


def make_workspace(ws: Path, base_url: str, query_timeout: float, cooldown: float) -> Path:
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Core\n\n## Human\n- Name: Peter\n", encoding="utf-8")
    for day in range(1, 21):
        (ws / "memory" / f"2025-11-{day:02d}.md").write_text(
            f"# 2025-11-{day:02d}\n\nPeter worked on the billing service, ticket {day}.\n\n## Retain\n"
            f"- W @Peter: Reviewed invoice batch {day} with @Anna.\n", encoding="utf-8")
    (ws / "memory.toml").write_text(
        f'[embedding]\nprovider = "remote"\n\n[embedding.remote]\nbase_url = "{base_url}"\nmodel = "m"\n'
        f"dimensions = {DIM}\nquery_timeout = {query_timeout}\ncooldown = {cooldown}\n", encoding="utf-8")
    return ws


class StdioServer:
    """`memory mcp` on pipes; replies read by a thread and timed as they arrive."""

    def __init__(self, ws: Path) -> None:
        self.proc = subprocess.Popen([memory_executable(), "--workspace", str(ws), "--now", NOW, "mcp"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=engine_env(""))
        self.replies: queue.Queue[tuple[float, dict]] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.send([{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "stall", "version": "1"}}}])
        self.replies.get(timeout=120)
        self.send([{"jsonrpc": "2.0", "method": "notifications/initialized"}])

    def _pump(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.replies.put((time.perf_counter(), json.loads(line)))

    def send(self, messages: list[dict]) -> None:
        self.proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def searches(self, queries: list[str], first_id: int, mode: str = "auto") -> tuple[list[float], list[dict]]:
        """Send every query at once; (seconds until each answer, the answers), in the order sent."""
        ids = list(range(first_id, first_id + len(queries)))
        started = time.perf_counter()
        self.send([{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "memory_search", "arguments": {"query": q, "k": 5, "mode": mode}}} for i, q in zip(ids, queries, strict=True)])
        got: dict[int, tuple[float, dict]] = {}
        while len(got) < len(ids):
            at, reply = self.replies.get(timeout=300)
            if reply.get("id") in ids:
                got[reply["id"]] = (round(at - started, 3), reply)
        return [got[i][0] for i in ids], [got[i][1] for i in ids]

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


QUERIES = ["invoice batch", "billing service ticket", "what did Peter review", "Anna", "ticket 7", "Peter"]


def _notices(reply: dict) -> list[str]:
    return (reply.get("result", {}).get("structuredContent") or {}).get("notices", [])


def mcp_case(root: Path, searches: int = 6, query_timeout: float = 1.0, cooldown: float = 30.0,
             stall_seconds: float = 20.0) -> dict:
    """N concurrent memory_search calls over one MCP server while the provider stalls."""
    queries = (QUERIES * (searches // len(QUERIES) + 1))[:searches]
    with stalling(stall_seconds) as provider:
        ws = make_workspace(root / f"mcp-{cooldown:g}", provider.base_url, query_timeout, cooldown)
        subprocess.run([memory_executable(), "--workspace", str(ws), "--now", NOW, "index"], check=True,
                       capture_output=True, env=engine_env(""), timeout=300)
        server = StdioServer(ws)
        try:
            server.searches(["warm up"], 100)  # the index opened, the vectors loaded: not the case measured
            healthy, _ = server.searches(queries, 200)  # their own work: the same searches, the provider answering
            provider.stalled = True
            seconds, replies = server.searches(queries, 1)
            provider.stalled = False
        finally:
            server.close()
    errors = [r for r in replies if "error" in r or r.get("result", {}).get("isError")]
    return {"case": "mcp", "searches": searches, "query_timeout": query_timeout, "cooldown": cooldown,
            "seconds": seconds, "last": max(seconds), "healthy_last": max(healthy),
            "bound": round(query_timeout + max(healthy), 3), "stalled_requests": provider.stalled_requests,
            "errors": len(errors), "breaker_notices": sum(any("circuit breaker" in n for n in _notices(r))
                                                          for r in replies)}


def cli_case(root: Path, searches: int = 6, query_timeout: float = 1.0, cooldown: float = 30.0,
             stall_seconds: float = 20.0) -> dict:
    """N `memory recall --json` processes at once while the provider stalls, then one more after them."""
    queries = (QUERIES * (searches // len(QUERIES) + 1))[:searches]
    env = engine_env("")

    def recall(query: str) -> subprocess.Popen:
        return subprocess.Popen([memory_executable(), "--workspace", str(ws), "--now", NOW, "recall", query, "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)

    def wait_all(procs: list[subprocess.Popen], started: float) -> tuple[list[float], list[dict]]:
        seconds, answers = [], []
        for proc in procs:
            out, _ = proc.communicate(timeout=300)
            seconds.append(round(time.perf_counter() - started, 3))
            answers.append(json.loads(out) if proc.returncode == 0 else {"error": proc.returncode})
        return seconds, answers

    with stalling(stall_seconds) as provider:
        ws = make_workspace(root / f"cli-{cooldown:g}", provider.base_url, query_timeout, cooldown)
        subprocess.run([memory_executable(), "--workspace", str(ws), "--now", NOW, "index"], check=True,
                       capture_output=True, env=env, timeout=300)
        started = time.perf_counter()
        healthy, _ = wait_all([recall(q) for q in queries], started)  # their own work, the provider answering
        provider.stalled = True
        started = time.perf_counter()
        seconds, answers = wait_all([recall(q) for q in queries], started)
        at_once = provider.stalled_requests
        started = time.perf_counter()
        after, late = wait_all([recall(queries[0])], started)
        status = json.loads(subprocess.run([memory_executable(), "--workspace", str(ws), "status", "--json"],
                                           capture_output=True, env=env, timeout=300).stdout)
    breaker = (status.get("embedding_space") or {}).get("breakers", {}).get("remote", {})
    return {"case": "cli", "searches": searches, "query_timeout": query_timeout, "cooldown": cooldown,
            "seconds": seconds, "last": max(seconds), "healthy_last": max(healthy),
            "bound": round(query_timeout + max(healthy), 3), "stalled_requests": at_once,
            "errors": sum("error" in a for a in answers), "one_more_after": after[0],
            "stalled_requests_after": provider.stalled_requests - at_once,
            "one_more_notices": late[0].get("notices", []), "status_breaker": breaker.get("state")}
