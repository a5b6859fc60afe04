"""The MCP conformance suite (`@modelcontextprotocol/conformance`, a client this project did not
write) against `memory mcp --http`, on 127.0.0.1 and on the long form of ::1 (issue 22 §5).

`make node` installs it into .node/ (Node 26). Every scenario of its active suite that applies
runs here and must pass. Not applicable, with the reason (they answer -32602 or -32601, as they
should):
- tools-call-* (simple-text, image, audio, embedded-resource, mixed-content, with-logging, error,
  with-progress, sampling, elicitation) and elicitation-sep1034/sep1330: they call the suite's own
  fixture tools (`test_simple_text`, ...), which this server does not have;
- logging-set-level, completion-complete, resources-*, prompts-*: capabilities this server does
  not advertise (it serves tools only).
The tests skip when Node is missing outside CI; in CI (`$CI` set) that is a failure.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import clean_env, memory_executable, run_ok, wait_listening

pytestmark = pytest.mark.node

REPO = Path(__file__).resolve().parents[1]
CONFORMANCE = REPO / ".node" / "bin" / "conformance"
SCENARIOS = ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection"]


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CONFORMANCE.exists():
        reason = f"{CONFORMANCE} is missing (run `make node`)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the conformance suite")
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("conformance") / "ws"
    run_ok(root, "init")
    return root


@contextlib.contextmanager
def serving(root: Path, host: str, token: str | None = None) -> Iterator[str]:
    port = _free_port("::1" if ":" in host else host)
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    proc = subprocess.Popen([memory_executable(), "--workspace", str(root), "mcp", "--http", bind],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=clean_env({"MEMORY_EMBED_PROVIDER": "none", "MEMORY_MCP_TOKEN": token}))
    try:
        wait_listening(proc, "::1" if ":" in host else host, port, "memory mcp --http")
        yield f"http://{bind}/mcp"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
        assert b"Traceback" not in err, err.decode(errors="replace")


@pytest.mark.parametrize("host", ["127.0.0.1", "0:0:0:0:0:0:0:1"])
def test_every_applicable_conformance_scenario_passes(workspace: Path, host: str) -> None:
    env = {**os.environ, "PATH": f"{CONFORMANCE.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    with serving(workspace, host) as url:
        for scenario in SCENARIOS:
            run = subprocess.run([str(CONFORMANCE), "server", "--url", url, "--scenario", scenario],
                                 capture_output=True, text=True, timeout=300, env=env)
            out = re.sub(r"\x1b\[[0-9;]*m", "", run.stdout + run.stderr)
            result = re.search(r"Passed: (\d+)/(\d+), (\d+) failed", out)
            assert run.returncode == 0 and result, (scenario, out[-2000:])
            passed, total, failed = map(int, result.groups())
            assert passed == total > 0 and failed == 0, (scenario, host, out[-2000:])


INSPECTOR = REPO / ".node" / "bin" / "inspector"


def _inspector(*args: str, tmp: Path) -> dict:
    import json

    env = {**os.environ, "PATH": f"{INSPECTOR.parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "MCP_CATALOG_PATH": str(tmp / "catalog.json")}
    run = subprocess.run([str(INSPECTOR), "--cli", *args], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, (args, run.stdout[-2000:], run.stderr[-2000:])
    return json.loads(run.stdout)


def test_the_inspector_lists_and_calls_the_tools_over_stdio_and_http_with_a_token(workspace: Path,
                                                                                  tmp_path: Path) -> None:
    """`@modelcontextprotocol/inspector --cli`, a client this project did not write (issue 22 §5)."""
    run_ok(workspace, "retain", "W @Peter: Prefers green tea in the afternoon.")
    stdio = [memory_executable(), "--workspace", str(workspace), "mcp"]
    listed = _inspector(*stdio, "--method", "tools/list", "-e", "MEMORY_EMBED_PROVIDER=none", tmp=tmp_path)
    names = {tool["name"] for tool in listed["tools"]}
    assert {"memory_search", "memory_get", "memory_retain"} <= names
    called = _inspector(*stdio, "--method", "tools/call", "--tool-name", "memory_search", "--tool-arg",
                        "query=green tea", "-e", "MEMORY_EMBED_PROVIDER=none", tmp=tmp_path)
    assert "green tea" in called["structuredContent"]["results"][0]["content"]
    token = "conformance-" + "t" * 24
    with serving(workspace, "127.0.0.2", token) as url:
        called = _inspector(url, "--method", "tools/call", "--tool-name", "memory_search", "--tool-arg",
                            "query=green tea", "--header", f"Authorization: Bearer {token}", tmp=tmp_path)
        assert "green tea" in called["structuredContent"]["results"][0]["content"]
