"""`memory mcp`: the memory tools over the Model Context Protocol (the official `mcp` SDK).

A thin shell over one `api.Memory` (tools.py: one small function per tool). The process is
long-lived, so it keeps what a one-shot CLI pays for on every call: the embedding model and
vector store stay loaded, and a watchdog observer marks the files that change, so a search
syncs only those instead of stat-scanning the workspace (watch.py).

Every input and output is bounded (limits.py, docs/mcp.md); errors come back as tool
errors carrying the library's one-line message, and protocol errors as JSON-RPC errors; the
server never dies on a bad call or a bad line.

Transports: stdio (default; stdio.py), or streamable HTTP with `--http HOST:PORT`
(http.py: a token off 127.0.0.1/::1/localhost, Host and Origin checks on every bind).
"""

from __future__ import annotations

import contextlib
import sys
import threading

from .. import secrecy
from .http import DEFAULT_TOKEN_ENV, auth_options, http_token, is_loopback, parse_address, serve_http
from .tools import INSTRUCTIONS, build_server

__all__ = ["DEFAULT_TOKEN_ENV", "INSTRUCTIONS", "build_server", "http_token", "is_loopback", "parse_address",
           "serve"]


def serve(mem, http: str | None = None) -> None:  # api.Memory
    """Run the server until the client disconnects (stdio) or the process is stopped (HTTP)."""
    token = host = port = None
    secrecy.blank_stderr()  # the SDK's and uvicorn's logs: any key is blanked there too
    if http is not None:
        host, port = parse_address(http)
        token = http_token(mem.workspace.config, host)
    mem.workspace.require()
    lock = threading.Lock()
    server = build_server(mem, lock, **(auth_options(token, host, port) if host else {}))
    try:
        mem.start_watching()
    except OSError as exc:  # e.g. the inotify watch limit: searches stat-scan instead
        print(f"memory mcp: file events unavailable ({exc}); every search scans the workspace", file=sys.stderr)
    # Load the model and the vector store now, not in the first search.
    threading.Thread(target=_warm_up, args=(mem, lock), daemon=True).start()
    stop = threading.Event()
    threading.Thread(target=_follow_sessions, args=(mem, lock, stop), daemon=True).start()
    try:
        if http is None:
            _run_stdio(server, mem.request_arrived)
        else:
            serve_http(server, host, port, token)
    finally:
        stop.set()
        mem.stop_watching()


def _run_stdio(server, on_call) -> None:  # MCPServer
    """Stdio through stdio.py: spec-exact JSON-RPC framing, read and written by the event loop."""
    import anyio

    from .stdio import serve_stdio

    anyio.run(serve_stdio, server, on_call)


def _follow_sessions(mem, lock: threading.Lock, stop: threading.Event) -> None:  # api.Memory
    """Index session transcripts as they grow (workspace/watch.SessionFollower), one delta at a time."""
    from ..workspace.watch import SessionFollower

    follower = SessionFollower(mem.follow_sessions)
    while follower.enabled and not stop.wait(1.0):
        with lock, contextlib.suppress(Exception):  # a failing sync shows in the next search's notices
            follower.tick()


def _warm_up(mem, lock: threading.Lock) -> None:
    with lock, contextlib.suppress(Exception):  # an optimisation: the first search reports any error
        mem.warm_up()
