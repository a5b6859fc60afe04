"""A real HTTP server on 127.0.0.1 for tests of the OpenAI-compatible clients (no network).

`JsonServer` runs a ThreadingHTTPServer on a free port in a daemon thread; a subclass decides
every answer in `handle(handler, method, path, body)`, usually with `send_json`; a
`RecordingServer` also records each JSON request and replies in `answer`. `closed_port` gives a
port that nothing listens on.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def send_json(handler: BaseHTTPRequestHandler, code: int, payload: object) -> None:
    """Answer with `payload` as JSON; bytes are sent as they are (for malformed answers)."""
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    handler.send_response(code)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(raw)))
    handler.end_headers()
    handler.wfile.write(raw)


class JsonServer:
    """An http.server in a thread; `base_url` ends in /v1. Subclasses implement `handle`."""

    def __init__(self) -> None:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # (http.server's naming)
                self._dispatch("POST")

            def do_GET(self) -> None:
                self._dispatch("GET")

            def _dispatch(self, method: str) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.handle(self, method, self.path, body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def handle(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: bytes) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class RecordingServer(JsonServer):
    """Parses each JSON request body and records it in `requests` (path, headers, body), then lets
    `answer` reply; `mode` is for the subclass to pick a behaviour ("ok" to start with)."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.requests: list[dict] = []
        super().__init__()

    def handle(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: bytes) -> None:
        parsed = json.loads(body)
        self.requests.append({"path": path, "headers": dict(handler.headers), "body": parsed})
        self.answer(handler, path, parsed)

    def answer(self, handler: BaseHTTPRequestHandler, path: str, body: dict) -> None:
        raise NotImplementedError


def closed_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago and has nothing listening now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
