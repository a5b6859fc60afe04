"""A hostile embedding provider on loopback, and every byte the engine writes or prints searched for its key.

    python benchmarks/reliability.py providers          (every behaviour with a long and a short key)

The provider answers every request in one hostile way (BEHAVIOURS): it echoes the key in a long
error body, in plain text, in its status line, in its headers, split across fields, JSON-escaped,
inside an answer's field the client quotes; it redirects to another origin (with the key in the
Location) or to its own; and a key read from the environment may end in a carriage return. For
each scenario (a behaviour and a key) a small workspace runs the commands a user or an agent runs
(`index --json`, `recall --json`, `recall`, `status --json`, `doctor --json`) through the installed
`memory` executable with the key in OPENAI_API_KEY, plus a `memory_search` over `memory mcp`
(stdio) for some; then every byte of their stdout and stderr, and of every file under the
workspace (`.memory/` included: the SQLite files, embedding.json, the breaker's state), is
searched for every 8-character piece of the key. A second server on another port stands for
another host: it must see no request at all.

tests/test_secrets.py runs the corpus in the ordinary test suite (no network: loopback only).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import string
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

NOW = "2025-11-30T18:00"
PIECE = 8  # every run of this many characters of the key is searched for
KEY_ALPHABET = string.ascii_letters + string.digits + "_-"


def make_key(length: int, seed: int = 7) -> str:
    """A key shaped like OpenAI's ("sk-proj-" and random characters), `length` characters long."""
    rng = random.Random(seed * 1000 + length)
    prefix = "sk-proj-" if length > 40 else "sk-"
    return prefix + "".join(rng.choice(KEY_ALPHABET) for _ in range(length - len(prefix)))


KEYS = {"long": make_key(164), "short": make_key(20)}


def _reply(handler: BaseHTTPRequestHandler, status: int, body: bytes, *, reason: str | None = None,
           headers: dict[str, str] | None = None, content_type: str = "application/json") -> None:
    handler.send_response(status, reason)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


def _json(data: object) -> bytes:
    return json.dumps(data).encode()


def _escaped(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in text)


# behaviour -> answer(handler, key, server). Each answers every request the same hostile way.
Behaviour = Callable[[BaseHTTPRequestHandler, str, "HostileProvider"], None]
BEHAVIOURS: dict[str, Behaviour] = {
    # OpenAI's own 401 wording, long enough that a cut at 160 characters falls inside a long key.
    "echo-json": lambda h, key, s: _reply(h, 401, _json({"error": {
        "message": f"Incorrect API key provided: {key}. You can find your API key at "
                   "https://platform.openai.com/account/api-keys.", "type": "invalid_request_error",
        "param": None, "code": "invalid_api_key"}})),
    "echo-text": lambda h, key, s: _reply(h, 500, f"upstream failure authenticating {key} ".encode() * 3,
                                          content_type="text/plain"),
    "echo-status-line": lambda h, key, s: _reply(h, 503, _json({"error": {"message": "down"}}),
                                                 reason=f"Unavailable for {key}"),
    "echo-headers": lambda h, key, s: _reply(h, 429, _json({"error": {"message": "see the headers"}}), headers={
        "X-Echo-Key": key, "Retry-After": key, "WWW-Authenticate": f'Bearer error="invalid_token", token="{key}"'}),
    # The key cut in two: its halves in the status line and the message, and whole in fields no one shows.
    "split-fields": lambda h, key, s: _reply(h, 401, _json({"error": {
        "message": key[len(key) // 2:], "param": key[: len(key) // 2], "code": key}}),
        reason=key[: len(key) // 2]),
    "json-escaped": lambda h, key, s: _reply(h, 500, ('{"error": {"message": "bad key ' + _escaped(key) +
                                                      '"}}').encode()),
    # A 200 whose shape is wrong in a field the client quotes in its error (the item's index).
    "echo-in-answer": lambda h, key, s: _reply(h, 200, _json({"object": "list", "model": key, "data": [
        {"object": "embedding", "index": key, "embedding": [0.1] * 16} for _ in h.body.get("input") or [0]]})),
    "redirect-elsewhere": lambda h, key, s: _reply(h, 302, b"", headers={
        "Location": f"http://127.0.0.1:{s.elsewhere_port}/v1/embeddings?key={key}"}),
    "redirect-same-origin": lambda h, key, s: _reply(h, 307, b"", headers={"Location": "/v1/embeddings-moved"}),
    # The server would take the key; the key itself is broken (a CR from a file saved on Windows).
    "key-with-cr": lambda h, key, s: _reply(h, 500, _json({"error": {"message": f"got {key}"}})),
}


class Recorder:
    """A loopback HTTP server; `answer(handler)` replies, every request is recorded (path, headers)."""

    def __init__(self, answer: Callable[[BaseHTTPRequestHandler], None]) -> None:
        outer = self
        self.requests: list[dict] = []

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    self.body = json.loads(raw) if raw else {}
                except ValueError:
                    self.body = {}
                outer.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers)})
                answer(self)

            do_GET = do_POST = do_PUT = _any

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class HostileProvider:
    """The provider (one behaviour, one key) and the other host it may point at."""

    def __init__(self, behaviour: str, key: str) -> None:
        self.key = key
        self.elsewhere = Recorder(lambda h: _reply(h, 200, _json({"data": [], "stolen": True})))
        self.elsewhere_port = self.elsewhere.port
        answer = BEHAVIOURS[behaviour]
        self.server = Recorder(lambda h: answer(h, key, self))
        self.base_url = f"http://127.0.0.1:{self.server.port}/v1"

    def close(self) -> None:
        self.server.close()
        self.elsewhere.close()


@contextmanager
def hostile(behaviour: str, key: str) -> Iterator[HostileProvider]:
    provider = HostileProvider(behaviour, key)
    try:
        yield provider
    finally:
        provider.close()


def memory_executable() -> str:
    beside = Path(sys.executable).parent / "memory"
    return str(beside) if beside.exists() else shutil.which("memory") or "memory"


# Loaded by every `memory` process started here: sockets reach loopback only, so a request that
# went anywhere else (a key sent to another host) fails loudly instead of leaving the machine.
OFFLINE = Path(__file__).resolve().parents[1] / "tests" / "offline"


def engine_env(key: str) -> dict[str, str]:
    """The environment of every engine process: no MEMORY_* or *_API_KEY of the caller's, the key in
    OPENAI_API_KEY, loopback-only sockets."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_") and not k.endswith("_API_KEY")}
    path = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(OFFLINE)]))
    return out | {"OPENAI_API_KEY": key, "PYTHONUTF8": "1", "NO_COLOR": "1", "MEMORY_TEST_OFFLINE": "1",
                  "PYTHONPATH": path}


def make_workspace(ws: Path, base_url: str, fallback: bool, breaker: bool = False) -> Path:
    """A small workspace whose provider is `openai` at `base_url`; without `breaker` (cooldown = 0)
    every command asks the server, so every command meets its answer."""
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Core\n\n## Human\n- Name: Peter\n", encoding="utf-8")
    (ws / "memory" / "2025-11-28.md").write_text(
        "# 2025-11-28\n\nPeter fixed the invoice rounding bug in the billing service.\n\n## Retain\n"
        "- W @Peter: Lives in Vienna.\n- O(c=0.8) @Peter: Prefers short replies.\n", encoding="utf-8")
    chain = 'fallback = ["fake"]\n' if fallback else ""
    (ws / "memory.toml").write_text(
        f'[embedding]\nprovider = "openai"\n{chain}\n[embedding.openai]\nbase_url = "{base_url}"\n'
        'model = "text-embedding-3-small"\ndimensions = 16\nretries = 0\ntimeout = 5\nquery_timeout = 2\n'
        f"cooldown = {30 if breaker else 0}\n",
        encoding="utf-8")
    return ws


COMMANDS: tuple[tuple[str, ...], ...] = (
    ("index", "--json"), ("recall", "invoice rounding", "--json"), ("recall", "Peter"),
    ("status", "--json"), ("doctor", "--json"),
)


def mcp_search(ws: Path, env: dict[str, str], query: str = "invoice rounding") -> tuple[bytes, bytes]:
    """One `memory_search` over a `memory mcp` stdio session: (stdout, stderr) of the server, whole."""
    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "corpus", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "memory_search", "arguments": {"query": query, "k": 3}}},
    ]
    proc = subprocess.Popen([memory_executable(), "--workspace", str(ws), "--now", NOW, "mcp"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    for message in lines:
        proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()
    out = bytearray()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # read until the search's answer, then close stdin
        line = proc.stdout.readline()
        if not line:
            break
        out += line
        if json.loads(line).get("id") == 1:
            break
    proc.stdin.close()
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return bytes(out) + proc.stdout.read(), proc.stderr.read() if proc.stderr else b""


def pieces(key: str) -> set[str]:
    return {key[i:i + PIECE] for i in range(len(key) - PIECE + 1)} if len(key) >= PIECE else {key}


def leaks(blobs: dict[str, bytes], key: str) -> list[str]:
    """'where: piece' for every 8-character piece of `key` found in any blob."""
    found = []
    for where, blob in blobs.items():
        hit = next((p for p in sorted(pieces(key)) if p.encode() in blob), None)
        if hit is not None:
            found.append(f"{where}: holds {hit!r}")
    return found


def run_scenario(root: Path, behaviour: str, key_name: str, *, fallback: bool = True,
                 mcp: bool = False, breaker: bool = False) -> dict:
    """One behaviour with one key through every command: what leaked, what was printed, who was asked."""
    key = KEYS[key_name]
    env_key = key + "\r" if behaviour == "key-with-cr" else key
    blobs: dict[str, bytes] = {}
    results: list[dict] = []
    started = time.perf_counter()
    with hostile(behaviour, key) as provider:
        ws = make_workspace(root / f"{behaviour}-{key_name}{'' if fallback else '-nofallback'}"
                            f"{'-breaker' if breaker else ''}", provider.base_url, fallback, breaker)
        env = engine_env(env_key)
        for args in COMMANDS:
            proc = subprocess.run([memory_executable(), "--workspace", str(ws), "--now", NOW, *args],
                                  capture_output=True, env=env, timeout=300)
            name = " ".join(a for a in args if not a.startswith("invoice"))
            blobs[f"{name} stdout"], blobs[f"{name} stderr"] = proc.stdout, proc.stderr
            err = proc.stderr.decode("utf-8", "replace")
            results.append({"command": name, "exit": proc.returncode, "traceback": "Traceback" in err,
                            "stderr": err.strip().splitlines()[-1][:200] if err.strip() else ""})
        if mcp:
            blobs["mcp stdout"], blobs["mcp stderr"] = mcp_search(ws, env)
        for path in sorted(ws.rglob("*")):
            if path.is_file():
                blobs[str(path.relative_to(ws))] = path.read_bytes()
        requests = list(provider.server.requests)
        elsewhere = list(provider.elsewhere.requests)
    # 0, or 3 (provider unavailable, without a fallback); doctor exits 1 while findings remain.
    bad_exit = [r["command"] for r in results
                if r["exit"] not in ((0, 1, 3) if r["command"].startswith("doctor") else (0, 3)) or r["traceback"]]
    return {"behaviour": behaviour, "key": key_name, "key_chars": len(key), "fallback": fallback, "breaker": breaker,
            "leaks": leaks(blobs, key), "bytes_searched": sum(len(b) for b in blobs.values()),
            "places_searched": len(blobs), "places": sorted(blobs), "requests": len(requests),
            "requests_to_another_origin": len(elsewhere), "bad_exits": bad_exit,
            "commands": results, "seconds": round(time.perf_counter() - started, 2)}


# (behaviour, key, fallback, mcp, breaker): what the test suite runs; the benchmark runs every
# behaviour with both keys, then echo-json without a fallback and with the circuit breaker on (its
# state file records the failure's reason).
Scenario = tuple[str, str, bool, bool, bool]
CI_SCENARIOS: tuple[Scenario, ...] = (
    ("echo-json", "long", True, True, False),
    ("echo-json", "short", False, False, False),
    ("echo-json", "long", True, False, True),
    ("echo-text", "short", True, False, False),
    ("echo-status-line", "long", True, False, False),
    ("echo-headers", "long", True, False, False),
    ("split-fields", "long", True, True, False),
    ("json-escaped", "long", True, False, False),
    ("echo-in-answer", "long", True, False, False),
    ("redirect-elsewhere", "long", True, False, False),
    ("redirect-same-origin", "short", True, False, False),
    ("key-with-cr", "long", True, True, False),
)


def corpus(root: Path, scenarios: tuple[Scenario, ...] | None = None) -> list[dict]:
    """Every scenario (default: each behaviour with each key, then echo-json without a fallback and
    with the breaker on, for each key)."""
    if scenarios is None:
        scenarios = tuple((b, k, True, b in ("echo-json", "split-fields"), False) for b in BEHAVIOURS for k in KEYS)
        scenarios += tuple(("echo-json", k, False, True, False) for k in KEYS)  # no fallback: errors, exit 3
        scenarios += tuple(("echo-json", k, True, False, True) for k in KEYS)  # the breaker's state file
    return [run_scenario(root, b, k, fallback=f, mcp=m, breaker=r) for b, k, f, m, r in scenarios]
