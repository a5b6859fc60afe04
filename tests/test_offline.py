"""The suite runs offline: sockets reach loopback only, in this process and in every `memory` child."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from conftest import clean_env


def test_this_process_cannot_reach_past_loopback() -> None:
    with pytest.raises(OSError, match="blocked in tests"):
        socket.create_connection(("192.0.2.1", 80), timeout=1)  # TEST-NET-1: never routed
    with pytest.raises(OSError, match="blocked in tests"):
        socket.getaddrinfo("pypi.org", 443)


def test_loopback_still_works() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    with socket.create_connection(server.getsockname(), timeout=2):
        pass
    server.close()


def test_children_are_offline_too() -> None:
    code = "import socket; socket.create_connection(('192.0.2.1', 80), timeout=1)"
    proc = subprocess.run([sys.executable, "-c", code], env=clean_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "blocked in tests" in proc.stderr
