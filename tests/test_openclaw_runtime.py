"""OpenClaw's own surfaces that read the memory slot, answered by this engine through the plugin's
memory runtime (integrations/openclaw/src/runtime.js), in the real OpenClaw 2026.9.6 gateway:

  - the gateway's `memory.search` RPC (what the Control UI's Memories tab searches with) returns the
    hits the agent's memory_search tool returns, in memory-core's shape;
  - `doctor.memory.status` names this engine;
  - active-memory's trigger recall puts a core entry whose trigger phrase a message names into that
    turn, before the (scripted) model answers, and nothing when the message names none;
  - the Control UI's Memories tab, in headless Chromium, shows the engine's results (a screenshot;
    $MEMORY_UI_DOCS=docs/screenshots refreshes docs/openclaw.md's);
  - with the engine missing, each surface says why in one line.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from conftest import build_workspace, memory_executable, run_ok
from test_openclaw_plugin import (
    TOKEN,
    Gateway,
    OpenClaw,
    _details,
    _engine_recall,
    _toolchain,
    answer_completion,
    running_gateway,
)

pytestmark = pytest.mark.node

KITCHEN = "The espresso machine at the castle is broken; the new pump arrives Friday."
ZEPPELIN = "The zeppelin hangar in Friedrichshafen opens at nine on Saturdays."
TRIGGERS = {
    # a core entry (MEMORY.md, which OpenClaw also loads as the agent's bootstrap context) ...
    "MEMORY.md": f"\n## Kitchen <!-- trigger: espresso machine -->\n- {KITCHEN}\n",
    # ... and a bank entry (in no bootstrap file: it reaches a turn only through trigger recall)
    "bank/world.md": f"# World\n\n- {ZEPPELIN} <!-- trigger: zeppelin hangar -->\n",
}


def configure(oc: OpenClaw, command: str, path: Path | None = None) -> Path:
    """The plugin in the slot, with OpenClaw's active-memory on for the main agent (trigger recall)."""
    target = oc.write_config(command, path)
    config = json.loads(target.read_text(encoding="utf-8"))
    config["plugins"]["allow"].append("active-memory")
    config["plugins"]["entries"]["active-memory"] = {"enabled": True, "config": {"agents": ["main"], "logging": True}}
    target.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def oc(tmp_path_factory: pytest.TempPathFactory) -> OpenClaw:
    _toolchain()
    root = tmp_path_factory.mktemp("openclaw-runtime")
    ws = build_workspace(root / "workspace")
    with (ws / "MEMORY.md").open("a", encoding="utf-8") as fh:
        fh.write(TRIGGERS["MEMORY.md"])
    (ws / "bank").mkdir(exist_ok=True)
    (ws / "bank" / "world.md").write_text(TRIGGERS["bank/world.md"], encoding="utf-8")
    run_ok(ws, "index")
    oc = OpenClaw(root, ws, memory_executable())
    configure(oc, memory_executable())
    first = oc.run("memory", "status")  # OpenClaw's first command in a new home migrates its state
    assert first.returncode == 0, first.stderr
    return oc


class Model(ThreadingHTTPServer):
    """An OpenAI-compatible chat-completions server on loopback that answers every call "Noted."
    and records the requests."""

    def __init__(self, port: int) -> None:
        self.requests: list[dict[str, Any]] = []
        super().__init__(("127.0.0.1", port), _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: Model

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # http.server's name
        req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        self.server.requests.append(req)
        answer_completion(self, req, {"role": "assistant", "content": "Noted."}, "stop")


@pytest.fixture(scope="module")
def gateway(oc: OpenClaw) -> Iterator[Gateway]:
    model = Model(oc.model_port)
    threading.Thread(target=model.serve_forever, daemon=True).start()
    try:
        with running_gateway(oc) as gw:
            gw.model = model  # type: ignore[attr-defined]
            yield gw
    finally:
        model.shutdown()
        model.server_close()


def call(oc: OpenClaw, method: str, params: dict[str, Any], env: dict[str, str] | None = None) -> dict[str, Any]:
    """`openclaw gateway call METHOD --params JSON --json` against the test's gateway."""
    proc = oc.run("gateway", "call", method, "--params", json.dumps(params), "--url", f"ws://127.0.0.1:{oc.port}",
                  "--token", TOKEN, "--json", env=env)
    out = proc.stdout.strip()
    start = out.find("{")  # after OpenClaw's own notices, if any
    answer = json.loads(out[start:]) if start >= 0 else {}
    if proc.returncode != 0:  # {"ok": false, "error": {"code", "message"}}
        return {"exit": proc.returncode, "error": answer.get("error", {}).get("message", proc.stderr)}
    return {"exit": 0, **answer}


# ------------------------------------------------------------------------------------ memory.search


@pytest.mark.parametrize("query", ["Baileys reconnect", "espresso", "Tokyo"])
def test_memory_search_rpc_returns_the_engines_hits(gateway: Gateway, query: str) -> None:
    """What the Control UI's Memories tab gets: the hits the agent's memory_search tool gets (the
    same engine child), in memory-core's MemorySearchResult shape, with the engine's scores."""
    got = call(gateway.oc, "memory.search", {"query": query, "maxResults": 5})
    assert got["exit"] == 0, got
    assert got["provider"] == "workspace-memory" and got["agentId"] == "main"
    assert got["searchMode"] == "fts-only"  # the suite's engine is lexical (MEMORY_EMBED_PROVIDER=none)
    tool = _details(gateway.invoke("memory_search", {"query": query, "maxResults": 5}))["results"]
    engine = _engine_recall(gateway.oc.workspace, query, "--k", "5")["results"]
    assert got["results"], query
    assert [h["citation"] for h in got["results"]] == [h["citation"] for h in tool] == [r["source"] for r in engine]
    for hit, r in zip(got["results"], engine, strict=True):
        assert set(hit) == {"path", "startLine", "endLine", "score", "snippet", "source", "citation"}
        assert (hit["path"], hit["startLine"], hit["endLine"], hit["score"], hit["source"]) == (
            r["path"], r["start_line"], r["end_line"], r["score"], "memory")
        assert hit["snippet"] == r["content"][:700]
    assert len(gateway.engines()) == 1, "the runtime and the tools share one engine process"


def test_memory_search_rpc_keeps_min_score_and_refuses_bad_input(gateway: Gateway) -> None:
    high = call(gateway.oc, "memory.search", {"query": "Baileys", "minScore": 0.95})
    assert high["exit"] == 0 and all(h["score"] >= 0.95 for h in high["results"])
    empty = call(gateway.oc, "memory.search", {"query": "  "})
    assert empty["exit"] != 0 and empty["error"] == "query must be a non-empty string"


# ------------------------------------------------------------------------------------ doctor


def test_doctors_memory_status_names_this_engine(gateway: Gateway) -> None:
    status = call(gateway.oc, "doctor.memory.status", {"probe": True})
    assert status["exit"] == 0, status
    assert status["provider"] == "workspace-memory" and status["agentId"] == "main"
    # The suite's engine is lexical: OpenClaw shows that as embeddings not available, with the reason.
    assert status["embedding"]["ok"] is False and "lexically" in status["embedding"]["error"]


# ------------------------------------------------------------------------------------ trigger recall


def _turn(gw: Gateway, message: str, key: str) -> dict[str, Any]:
    """One webchat turn (the Control UI's chat.send); the model request that answered it."""
    model: Model = gw.model  # type: ignore[attr-defined]
    seen = len(model.requests)
    sent = call(gw.oc, "chat.send", {"sessionKey": "agent:main:main", "message": message, "idempotencyKey": key})
    assert sent["exit"] == 0 and sent["status"] == "started", sent
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for req in model.requests[seen:]:
            if message in json.dumps(req.get("messages", [])):
                return req
        time.sleep(0.2)
    pytest.fail(f"the model never got {message!r}:\n" + (gw.oc.root / "gateway.log").read_text()[-3000:])


def _turn_text(req: dict[str, Any], message: str) -> str:
    """The user message of this turn (where OpenClaw puts what a plugin adds before the reply)."""
    [user] = [m for m in req["messages"] if m["role"] == "user" and message in json.dumps(m)]
    content = user["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def test_trigger_recall_puts_the_named_entry_into_the_turn(gateway: Gateway) -> None:
    # Trigger recall has about 1.5 s before each reply, cold code paths included: one turn first, so a
    # loaded machine's first turn after the gateway starts does not decide the test.
    assert call(gateway.oc, "memory.search", {"query": "espresso"})["exit"] == 0
    _turn(gateway, "Good morning!", "trigger-0")
    named = "Is the espresso machine working again?"
    text = _turn_text(_turn(gateway, named, "trigger-1"), named)
    assert "<active_memory_plugin>" in text and KITCHEN in text and "Source: MEMORY.md#L" in text
    assert ZEPPELIN not in text

    bank = "When does the zeppelin hangar open?"
    request = _turn(gateway, bank, "trigger-2")
    assert ZEPPELIN in _turn_text(request, bank) and "Source: bank/world.md#L3" in _turn_text(request, bank)

    none = "Please draft a short poem about autumn leaves."
    request = _turn(gateway, none, "trigger-3")
    text = _turn_text(request, none)
    assert KITCHEN not in text and ZEPPELIN not in text
    # the bank entry is in no bootstrap file: without its phrase it reaches the model nowhere in that turn
    latest = [m for m in request["messages"] if m["role"] != "user" or none in json.dumps(m)]
    assert ZEPPELIN not in json.dumps(latest)


# ------------------------------------------------------------------------------------ the Control UI


def test_the_control_uis_memories_tab_shows_the_engines_results(gateway: Gateway, tmp_path: Path) -> None:
    pytest.importorskip("playwright")
    from test_ui_browser import CHROMIUM_ARGS, find_chromium

    executable = find_chromium()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium: CI must run the browser tests (.ci/run installs Debian's chromium)")
        pytest.skip("no chromium found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    query = "Baileys reconnect"
    want = _engine_recall(gateway.oc.workspace, query, "--k", "20")["results"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{gateway.oc.port}/settings/memory#token={TOKEN}")
            page.get_by_role("tab", name="Memories").click()
            # The tab resets its search when the gateway connection comes up: type until the
            # Search button takes the query (it is disabled while not connected or empty).
            button = page.locator(".memory-memories__search button[type=submit]")
            deadline = time.monotonic() + 60
            while True:
                page.fill("#memory-search-input", query)
                page.wait_for_timeout(300)
                if button.is_enabled() or time.monotonic() > deadline:
                    break
            button.click()
            results = page.locator(".memory-memories__result")
            results.first.wait_for(timeout=60_000)
            shown = [r.locator(".memory-memories__path").inner_text() for r in results.all()]
            titles = [r.locator(".settings-row__title").inner_text() for r in results.all()]
            assert shown == [f"{r['path']} · lines {r['start_line']}–{r['end_line']}" for r in want]
            assert titles == [r["content"][:700].strip() for r in want]
            # a daily-note hit opens the file with the cited lines marked (OpenClaw reads the file itself)
            results.first.locator("button").click()
            mark = page.locator(".memory-memories__file mark").first
            mark.wait_for(timeout=30_000)
            assert want[0]["content"] in mark.inner_text()
            page.screenshot(path=str(tmp_path / "openclaw-memories.png"))
            if os.environ.get("MEMORY_UI_DOCS"):
                page.screenshot(path=str(Path(os.environ["MEMORY_UI_DOCS"]) / "openclaw-memories.png"))
        finally:
            browser.close()


# ------------------------------------------------------------------------------------ the engine down


def test_without_the_engine_every_surface_says_why_in_one_line(oc: OpenClaw) -> None:
    down = OpenClaw(oc.root / "engine-down", oc.workspace, str(oc.root / "no-such-memory"))  # a port of its own
    configure(down, str(oc.root / "no-such-memory"))
    with running_gateway(down):
        found = call(down, "memory.search", {"query": "espresso"})
        assert found["exit"] != 0
        line = found["error"]
        assert "\n" not in line and "workspace-memory: the engine" in line and "was not found" in line
        assert "config.command" in line
        status = call(down, "doctor.memory.status", {})
        assert status["exit"] == 0 and "provider" not in status
        error = status["embedding"]["error"]
        assert "was not found" in error and "\n" not in error
