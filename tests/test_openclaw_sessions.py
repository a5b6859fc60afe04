"""OpenClaw 2026.9's SQLite session store as a read-only recall source, with sessions a real gateway wrote.

A real `openclaw gateway run` with the plugin in the memory slot, `memory.search.sources: ["memory",
"sessions"]` and a scripted OpenAI-compatible model on loopback; `openclaw agent --session-id ...`
turns go through the gateway, which keeps the transcript in `agents/main/agent/openclaw-agent.sqlite`
(no JSONL). Checked: memory_search with corpus=sessions through the gateway finds what the user said;
`memory index` reads the sessions incrementally (a second turn: only its new messages) while the
gateway keeps writing; and reading never changes OpenClaw's database or its WAL.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import threading
import time
from pathlib import Path

import pytest

from conftest import build_workspace, memory_executable, run_ok
from test_openclaw_plugin import OpenClaw, ScriptedModel, _details, _toolchain, running_gateway

pytestmark = pytest.mark.node

SESSION = "zebra-h44"


def _hashes(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("openclaw-agent.sqlite*"))
            if not p.name.endswith("-shm")}


def _sessions_line(out: str) -> tuple[int, int]:
    """(transcripts read, messages) of `memory index`'s sessions line."""
    found = re.search(r"sessions: (\d+) of \d+ transcript\(s\) read, (\d+) message\(s\)", out)
    assert found, out
    return int(found[1]), int(found[2])


def test_sessions_a_gateway_wrote_to_sqlite_are_recalled(tmp_path: Path) -> None:
    _toolchain()
    ws = build_workspace(tmp_path / "workspace")
    run_ok(ws, "index")
    oc = OpenClaw(tmp_path, ws, memory_executable())
    config = json.loads(oc.config.read_text(encoding="utf-8"))
    config["memory"] = {"search": {"sources": ["memory", "sessions"]}}
    config["plugins"]["entries"]["memory-core"] = {"enabled": False}
    oc.config.write_text(json.dumps(config, indent=2), encoding="utf-8")
    agent_dir = oc.home / ".openclaw" / "agents" / "main" / "agent"
    overlay = json.dumps({"recall": {"sources": ["memory", "sessions"]},
                          "sessions": {"paths": [str(agent_dir / "openclaw-agent.sqlite")]}})
    model = ScriptedModel(oc.model_port, "zebra crossing")
    threading.Thread(target=model.serve_forever, daemon=True).start()

    def turn(text: str) -> None:
        proc = oc.run("agent", "--session-id", SESSION, "-m", text, "--json", "--timeout", "120", timeout=240)
        assert proc.returncode == 0, proc.stderr[-3000:]

    # A workspace of its own reads the same store, so that its reports count only its own reads (the
    # gateway's engine indexes the sessions into the agent's workspace as they come).
    reader = build_workspace(tmp_path / "reader")

    def index(*args: str) -> tuple[int, int]:
        proc = subprocess.run([memory_executable(), "--workspace", str(reader), "index", *args], capture_output=True,
                              text=True, env=oc.env | {"MEMORY_CONFIG_OVERLAY": overlay}, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return _sessions_line(proc.stdout + proc.stderr)

    try:
        with running_gateway(oc) as gw:
            turn("Where is the zebra crossing in Graz that Anna asked about?")
            assert (agent_dir / "openclaw-agent.sqlite").exists() and not list(oc.home.rglob("*.jsonl"))
            # The engine follows the transcripts (a new session within its 5 s poll; workspace/watch.py).
            deadline, hit = time.monotonic() + 30, None
            while hit is None and time.monotonic() < deadline:
                found = _details(gw.invoke("memory_search", {"query": "zebra crossing Graz Anna", "corpus": "sessions"}))
                hit = next((r for r in found["results"] if "Anna" in r["snippet"]), None)
                time.sleep(0 if hit else 1)
            assert hit is not None, json.dumps(found)[:3000]
            assert hit["path"] == f"sessions/{SESSION}" and hit["source"] == "sessions"
            assert hit["snippet"].startswith("user: Where is the zebra crossing in Graz")
            assert index() == (1, 2)  # while the gateway runs: the session as far as it is committed
            turn("And the tram stop at Jakominiplatz?")
            assert index() == (1, 2), "the second turn: only its user and assistant messages"
            assert index()[0] == 0, "nothing new: nothing read"
        before = _hashes(agent_dir)
        assert index("--rebuild") == (1, 4)
        assert _hashes(agent_dir) == before, "OpenClaw's database and WAL are never written"
        recall = json.loads(run_ok(reader, "recall", "tram stop Jakominiplatz", "--json",
                                   env={"MEMORY_CONFIG_OVERLAY": overlay}))
        assert recall["results"][0]["source"].startswith(f"sessions/{SESSION}#L")
    finally:
        model.shutdown()
        model.server_close()
