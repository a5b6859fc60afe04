"""The plugin installed by `memory openclaw install` into a real OpenClaw 2026.9.6, in its gateway.

One throwaway OpenClaw home with no plugin settings; `memory openclaw install` (dry run first) links
integrations/openclaw, selects it for the memory slot, points it at this `memory` and turns memory-core
off. Then one `openclaw gateway run` (loopback, token auth) with a 3 s call deadline, and:
  - the slot held alone: after the start and 20 tool calls, the gateway's log has no tool-name
    conflict, no second `memory` CLI and no dreaming job (memory-core is not loaded);
  - refusals: a bad maxResults, a long query, a bad corpus reach the caller as the engine's own
    line (what `memory mcp` answers for the same arguments), never an HTTP 500 or "unavailable";
    `openclaw memory search|recall` exit and say what `memory recall` does;
  - a child that stops answering (SIGSTOP) is killed and replaced within one call, a write cut short
    says it was applied, and no child outlives the gateway;
  - every engine command is an `openclaw memory` command, with the engine's output and exit code.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import build_workspace, memory_executable
from test_mcp_hostile import raw_stdio
from test_openclaw_plugin import (
    NODE_BIN,
    PLUGIN_DIR,
    Gateway,
    OpenClaw,
    _details,
    _toolchain,
    indexed_openclaw,
    running_gateway,
)

pytestmark = pytest.mark.node

ALONE = ("plugin tool name conflict", "already registered", "dreaming", "memory-core")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> OpenClaw:
    oc = indexed_openclaw(tmp_path_factory, "openclaw-slot")
    config = json.loads(oc.config.read_text(encoding="utf-8"))
    del config["plugins"]  # nothing of ours: the install adds it
    oc.config.write_text(json.dumps(config, indent=2), encoding="utf-8")
    assert oc.run("config", "get", "gateway.port").returncode == 0  # OpenClaw's first run migrates its state
    return oc


def _install(oc: OpenClaw, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([memory_executable(), "openclaw", "install", "--plugin-dir", str(PLUGIN_DIR),
                           "--command", memory_executable(), "--openclaw", str(NODE_BIN / "openclaw"), *extra],
                          capture_output=True, text=True, env=oc.env, timeout=600, cwd=oc.root)


def test_install_is_one_idempotent_step_with_a_dry_run(installed: OpenClaw) -> None:
    before = installed.config.read_bytes()
    dry = _install(installed, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert installed.config.read_bytes() == before, "a dry run changes nothing"
    assert "would run: openclaw plugins install --link" in dry.stdout
    assert "would run: openclaw config set plugins.entries.memory-core.enabled false" in dry.stdout
    done = _install(installed)
    assert done.returncode == 0, done.stderr
    plugins = json.loads(installed.config.read_text(encoding="utf-8"))["plugins"]
    assert plugins["slots"]["memory"] == "workspace-memory"
    assert plugins["entries"]["workspace-memory"]["config"]["command"] == memory_executable()
    assert plugins["entries"]["memory-core"]["enabled"] is False
    settled = installed.config.read_bytes()
    again = _install(installed)
    assert again.returncode == 0 and again.stdout.startswith("already installed"), again.stdout
    assert installed.config.read_bytes() == settled
    inspect = installed.run("plugins", "inspect", "workspace-memory", "--runtime", "--json")
    plugin = json.loads(inspect.stdout[inspect.stdout.index("{"):])["plugin"]
    assert plugin["status"] == "loaded" and plugin["rootDir"] == str(PLUGIN_DIR)


@pytest.fixture(scope="module")
def gateway(installed: OpenClaw) -> Iterator[Gateway]:
    if _install(installed).returncode != 0:
        pytest.fail("memory openclaw install failed")
    set_deadline = installed.run("config", "set", "plugins.entries.workspace-memory.config.timeoutMs", "3000")
    assert set_deadline.returncode == 0, set_deadline.stderr
    with running_gateway(installed) as gw:
        yield gw


def _log(gw: Gateway) -> str:
    return (gw.oc.root / "gateway.log").read_text(encoding="utf-8")


def test_the_slot_is_held_alone(gateway: Gateway) -> None:
    for i in range(10):
        assert _details(gateway.invoke("memory_search", {"query": f"espresso {i}"}))["provider"] == "workspace-memory"
        assert _details(gateway.invoke("memory_get", {"path": "MEMORY.md", "lines": 2}))["status"] == "ok"
    lines = [ln for ln in _log(gateway).splitlines() if any(mark in ln for mark in ALONE)]
    assert not lines, "\n".join(lines)
    assert "(memory-core" not in _log(gateway) and "workspace-memory" in _log(gateway)


def test_the_first_search_after_ready_is_warm(gateway: Gateway) -> None:
    """The service warms the engine before the gateway reports ready (OpenClaw awaits it)."""
    log = _log(gateway)
    assert "[gateway] ready" in log
    assert len(gateway.engines()) == 1, "the engine was started with the gateway"


@pytest.mark.parametrize("args", [
    {"query": "x", "maxResults": 0}, {"query": "x", "maxResults": -5}, {"query": "x", "maxResults": 5000},
    {"query": "x", "maxResults": "banana"}, {"query": "x" * 200_000}, {"query": "x", "corpus": "banana"},
    {"query": ""},
], ids=["max0", "max-5", "max5000", "banana", "200KB", "corpus", "empty"])
def test_a_refusal_reaches_the_agent_as_the_engines_line(gateway: Gateway, args: dict) -> None:
    engine_args = {"query": args["query"].strip(), "k": args.get("maxResults", 6)}
    if "corpus" in args:
        engine_args["source"] = args["corpus"]
    with raw_stdio(gateway.oc.workspace) as server:
        reply = server.call(1, "memory_search", **engine_args)["result"]
    answer = gateway.invoke("memory_search", args)
    assert answer.get("http_status") is None and answer.get("ok") is True, answer
    details = answer["result"]["details"]
    assert "unavailable" not in details and "disabled" not in details, details
    if reply.get("isError"):
        assert details == {"results": [], "provider": "workspace-memory", "error": reply["content"][0]["text"]}
    else:  # the engine answers it (an empty query: no results)
        assert details["results"] == [] and "error" not in details


def test_the_cli_refuses_as_memory_recall_does(gateway: Gateway) -> None:
    oc = gateway.oc
    for theirs, ours in ((["search", "espresso", "--max-results", "0"], ["recall", "espresso", "--k", "0"]),
                         (["search", "espresso", "--max-results", "banana"], ["recall", "espresso", "--k", "banana"]),
                         (["search", ""], ["recall", ""]), (["recall", "x", "--k", "5000"], ["recall", "x", "--k", "5000"])):
        proc = oc.run("memory", *theirs)
        engine = subprocess.run([memory_executable(), "--workspace", str(oc.workspace), *ours], capture_output=True,
                                text=True, env=oc.env)
        assert proc.returncode == engine.returncode != 0, (theirs, proc.stderr)
        assert engine.stderr.strip().splitlines()[-1] in proc.stderr, (theirs, proc.stderr)


def test_every_engine_command_is_an_openclaw_memory_command(gateway: Gateway) -> None:
    from workspace_memory.cli.app import COMMAND_MODULES

    script = "import {PASSED} from './src/cli.js'; console.log(JSON.stringify(Object.keys(PASSED)));"
    proc = subprocess.run([str(NODE_BIN / "node"), "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, cwd=PLUGIN_DIR)
    engine = {name for names in COMMAND_MODULES.values() for name in names} - {"openclaw"}
    assert set(json.loads(proc.stdout)) == engine
    oc = gateway.oc
    for args in (["opinions", "--json"], ["entities", "--json"], ["export", "--format", "jsonl"],
                 ["opinions", "--nonsense"]):
        theirs = oc.run("memory", *args)
        ours = subprocess.run([memory_executable(), "--workspace", str(oc.workspace), *args], capture_output=True,
                              text=True, env=oc.env)
        assert theirs.returncode == ours.returncode, (args, theirs.stderr)
        assert theirs.stdout == ours.stdout, args


def test_a_killed_cli_engine_says_so(installed: OpenClaw, tmp_path: Path) -> None:
    dies = tmp_path / "memory"
    dies.write_text("#!/bin/sh\nkill -9 $$\n", encoding="utf-8")
    dies.chmod(0o755)
    config = json.loads(installed.config.read_text(encoding="utf-8"))
    config["plugins"]["entries"]["workspace-memory"]["config"]["command"] = str(dies)
    other = tmp_path / "openclaw.json"
    other.write_text(json.dumps(config), encoding="utf-8")
    proc = installed.run("memory", "recall", "espresso", env={"OPENCLAW_CONFIG_PATH": str(other)})
    assert proc.returncode == 128 + signal.SIGKILL
    assert "`memory recall` was killed (SIGKILL) before it finished" in proc.stderr


def _stop_the_engine(gateway: Gateway) -> int:
    [pid] = gateway.engines()
    os.kill(pid, signal.SIGSTOP)
    return pid


def test_a_hung_engine_is_replaced_within_the_call(gateway: Gateway) -> None:
    _details(gateway.invoke("memory_search", {"query": "espresso"}))
    stopped = _stop_the_engine(gateway)
    started = time.monotonic()
    answer = _details(gateway.invoke("memory_search", {"query": "espresso"}))
    assert answer["results"], answer
    assert time.monotonic() - started < 60
    assert not Path(f"/proc/{stopped}").exists(), "the hung child was killed"
    assert len(gateway.engines()) == 1
    assert "got no answer within 3 s, nor a ping" not in json.dumps(answer), "a read is retried on the new engine"


def test_a_write_cut_short_says_it_was_applied(gateway: Gateway) -> None:
    _stop_the_engine(gateway)
    bullet = "W @Peter: Keeps a bonsai named Ferdinand."
    answer = _details(gateway.invoke("memory_retain", {"bullet": bullet}))
    assert answer["applied"] is True and "got no answer within 3 s" in answer["error"], answer
    log = (gateway.oc.workspace / "memory" / "2025-11-30.md").read_text(encoding="utf-8")
    assert log.count("Ferdinand") == 1


def test_no_engine_outlives_the_gateway(tmp_path: Path) -> None:
    """A gateway of its own (the module's keeps running): its engine stopped, then the gateway ends."""
    _toolchain()
    oc = OpenClaw(tmp_path, build_workspace(tmp_path / "workspace"), memory_executable())
    with running_gateway(oc) as gw:
        _details(gw.invoke("memory_search", {"query": "espresso"}))
        stopped = _stop_the_engine(gw)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{stopped}").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not Path(f"/proc/{stopped}").exists(), "a stopped engine was left behind"
