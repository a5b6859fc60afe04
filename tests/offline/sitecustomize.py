"""Loaded by every Python process the test suite starts (tests/conftest.py puts this folder on
PYTHONPATH): with MEMORY_TEST_OFFLINE=1, sockets may connect to loopback only.

The engine must never touch the network unless a remote provider is configured, and the suite's
remote providers are real HTTP servers on 127.0.0.1. A connection anywhere else fails loudly.
"""

from __future__ import annotations

import ipaddress
import os
import socket


def _loopback(host: object) -> bool:
    if not isinstance(host, str):
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def install() -> None:
    """Refuse every non-loopback IP connection and name lookup in this process."""
    real_connect, real_connect_ex, real_getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo

    def check(sock: socket.socket, address: object) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):  # type: ignore[index]
            raise ConnectionRefusedError(f"network access blocked in tests: {address!r}")

    def connect(self: socket.socket, address: object) -> None:
        check(self, address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: object) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: object, *args: object, **kwargs: object):
        if host is not None and not _loopback(host) and not (isinstance(host, str) and _numeric_loopback(host)):
            raise socket.gaierror(socket.EAI_NONAME, f"name lookup blocked in tests: {host!r}")
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]


def _numeric_loopback(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")  # binding a listening socket: local by definition


if os.environ.get("MEMORY_TEST_OFFLINE") == "1":
    install()
