"""Serving the UI (imported only by `memory ui`): uvicorn on a socket bound here, stopped cleanly by SIGINT or SIGTERM.

The socket is bound before uvicorn starts so that a port in use is one clear error (uvicorn
would log and exit), and so that `--port 0` can pick a free port and still print its URL.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from dataclasses import replace
from urllib.parse import urlencode

import uvicorn

from ..errors import UserError
from .security import UiSettings

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (port 0: any free port); UserError when it cannot bind."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise UserError(f"--host {host}: {exc.strerror or exc}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        hint = "; choose another with --port" if exc.errno in (98, 48) else ""
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}{hint}") from None
    sock.set_inheritable(True)
    return sock


def serve(mem, settings: UiSettings, *, fixed_now: bool = False, open_browser: bool = False,
          announce: Callable[[str], None] = print) -> None:
    """Serve the UI for `mem` until SIGINT or SIGTERM; `announce` gets the URL, then "stopped"."""
    from .. import secrecy
    from .app import create_app

    secrecy.blank_stderr()  # uvicorn's and the app's logs: no key
    sock = bind(settings.host, settings.port)
    settings = replace(settings, port=sock.getsockname()[1])
    config = uvicorn.Config(create_app(mem, settings, fixed_now=fixed_now), log_level="warning",
                            access_log=False, lifespan="on")
    server = _Server(config)
    announce(f"memory ui: serving {settings.url} (Ctrl+C to stop)")
    if open_browser:
        url = settings.url + (f"?{urlencode({'token': settings.token})}" if settings.token else "")
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    announce("memory ui: stopped")


class _Server(uvicorn.Server):
    """uvicorn's server, except that a stop signal ends `run` normally instead of being re-raised."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only (a server started by a test in a thread)
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _open_when_started(server: _Server, url: str, wait: float = 15.0) -> None:
    deadline = time.monotonic() + wait
    while not server.started and not server.should_exit and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)
