"""memory-core's standing intents with the plugin holding the memory slot alone (memory-core off), in
the real OpenClaw 2026.9.6 gateway, and the first call after `ready` answered by the warmed engine.

One throwaway OpenClaw home set up as `memory openclaw install` sets it up (the plugin in the slot,
memory-core off, `hooks.allowConversationAccess` on), whose agent `main` has memory.search settings of
its own. Before the gateway starts, an intent is stored as memory-core stores one (through OpenClaw's
own SQLite runtime, in the agent's database): the data a user who had intents has. Then webchat turns
through the gateway's `chat.send` against a scripted model on loopback:
  - a turn that names the intent's trigger gets memory-core's `<standing_intents>` block in the
    model's prompt, and the row is fired (its count and time recorded) in OpenClaw's database;
  - a turn that does not name it gets nothing;
  - the `intent` tool and the hooks are registered, none blocked (the tool itself, offered to an
    owner's turns only, is tested under node: integrations/openclaw/test/intents.test.js).
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from test_openclaw_plugin import (
    NODE_BIN,
    Gateway,
    OpenClaw,
    _details,
    indexed_openclaw,
    running_gateway,
)
from test_openclaw_runtime import Model, call

pytestmark = pytest.mark.node

SDK = NODE_BIN.parent / "node_modules" / "openclaw" / "dist" / "plugin-sdk" / "sqlite-runtime.js"
DESCRIPTION = "Ask who owns the rollback before the launch."
# memory-core 2026.9.6's createStandingIntent, as a row: anywhere, anyone, created by sender u1.
SEED = """
const sdk = await import(process.argv[1]);
await sdk.withOpenClawAgentDatabaseWrite({agentId: "main"}, ({db}) => {
  sdk.ensureOpenClawAgentStandingIntentsSchema(db);
  db.prepare(`INSERT INTO standing_intents (id, description, trigger_keywords, trigger_embedding, channel_scope,
    sender_scope, creator_sender, status, expires_at, max_fires, fire_count, cooldown_seconds, last_fired_at, created_at,
    source_session_id) VALUES ('seeded-1', ?, '["launch checklist"]', NULL, NULL, NULL, 'u1', 'armed', ?, 3, 0, 86400,
    NULL, ?, NULL)`).run(process.argv[2], Date.now() + 864e5 * 30, Date.now() - 864e5);
});
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> OpenClaw:
    oc = indexed_openclaw(tmp_path_factory, "openclaw-intents")
    config = json.loads(oc.config.read_text(encoding="utf-8"))
    entries = config["plugins"]["entries"]
    entries["memory-core"] = {"enabled": False}
    entries["workspace-memory"]["hooks"] = {"allowConversationAccess": True}
    notes = oc.root / "extra-notes"
    notes.mkdir()
    (notes / "fish.md").write_text("# Fish\n\n- The zebrafish aquarium needs a new heater.\n", encoding="utf-8")
    # the agent's own memory.search settings: its engine is another overlay than the defaults'
    config["agents"]["entries"] = {"main": {"memory": {"search": {"extraPaths": [str(notes)]}}}}
    oc.config.write_text(json.dumps(config, indent=2), encoding="utf-8")
    first = oc.run("memory", "entities", "--json")  # OpenClaw's first command in a home migrates its state
    assert first.returncode == 0, first.stderr
    seeded = subprocess.run([str(NODE_BIN / "node"), "--input-type=module", "-e", SEED, str(SDK), DESCRIPTION],
                            capture_output=True, text=True, env=oc.env, timeout=120)
    assert seeded.returncode == 0, seeded.stderr
    return oc


@pytest.fixture(scope="module")
def gateway(home: OpenClaw) -> Iterator[Gateway]:
    with running_gateway(home) as gw:
        deadline = time.monotonic() + 300
        while "[gateway] ready" not in (home.root / "gateway.log").read_text(encoding="utf-8"):
            assert time.monotonic() < deadline, "the gateway did not get ready"
            time.sleep(0.5)
        yield gw


def test_the_first_call_after_ready_is_the_warmed_engines(gateway: Gateway) -> None:
    """The service warms the engine the default agent's calls get (its own memory.search settings):
    the first call starts no second engine, and it sees the agent's extra path."""
    assert len(gateway.engines()) == 1
    answer = _details(gateway.invoke("memory_search", {"query": "zebrafish aquarium heater"}))
    assert any("fish.md" in r["path"] for r in answer["results"]), answer
    assert len(gateway.engines()) == 1


def _row(oc: OpenClaw) -> dict[str, Any]:
    script = """
const sdk = await import(process.argv[1]);
const row = await sdk.withOpenClawAgentDatabaseWrite({agentId: "main"}, ({db}) =>
  db.prepare("SELECT status, fire_count, last_fired_at FROM standing_intents WHERE id = 'seeded-1'").get());
console.log(JSON.stringify(row));
"""
    proc = subprocess.run([str(NODE_BIN / "node"), "--input-type=module", "-e", script, str(SDK)], capture_output=True,
                          text=True, env=oc.env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _turn(oc: OpenClaw, model: Model, message: str, key: str) -> list[dict[str, Any]]:
    """One webchat turn through `chat.send`; the model requests it made (one: the model answers in text)."""
    before = len(model.requests)
    sent = call(oc, "chat.send", {"sessionKey": "main", "message": message, "idempotencyKey": key})
    assert sent["exit"] == 0, sent
    deadline = time.monotonic() + 180
    while len(model.requests) == before:
        if time.monotonic() > deadline:
            pytest.fail(f"no model call for {message!r}:\n" + (oc.root / "gateway.log").read_text()[-3000:])
        time.sleep(0.5)
    return model.requests[before:]


def test_a_stored_intent_fires_on_a_turn_that_names_its_trigger(gateway: Gateway, home: OpenClaw) -> None:
    model = Model(home.model_port)
    thread = threading.Thread(target=model.serve_forever, daemon=True)
    thread.start()
    try:
        quiet = _turn(home, model, "How is the weather today?", "turn-1")
        assert "<standing_intents>" not in json.dumps(quiet)
        assert _row(home)["fire_count"] == 0
        named = _turn(home, model, "Is the launch checklist ready?", "turn-2")
        text = json.dumps(named[0]["messages"])
        assert "<standing_intents>" in text and DESCRIPTION in text
        row = _row(home)
        assert row["fire_count"] == 1 and row["status"] == "fired" and row["last_fired_at"], row
    finally:
        model.shutdown()
        model.server_close()


def test_the_intent_tool_and_hooks_are_registered(home: OpenClaw) -> None:
    """The tool (offered to an owner's turns, memory-core's rule) and the two hooks, not blocked."""
    proc = home.run("plugins", "inspect", "workspace-memory", "--runtime", "--json")
    info = json.loads(proc.stdout[proc.stdout.index("{"):])
    assert "intent" in info["plugin"]["toolNames"]
    assert {"before_prompt_build", "before_agent_reply"} <= {h["name"] for h in info["typedHooks"]}
    assert not [d for d in info["diagnostics"] if "blocked" in d["message"]], info["diagnostics"]
