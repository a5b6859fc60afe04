"""The OpenClaw plugin (integrations/openclaw) inside the real OpenClaw 2026.9.6, with no LLM key.

`make node` installs Node 26 and openclaw into .node/ (tools/node/*/package-lock.json). The tests
give OpenClaw a throwaway HOME and config that loads the plugin from this checkout, selects it for
the memory slot and points it at this environment's `memory` executable, then drive:
  - `openclaw plugins inspect workspace-memory --runtime --json` (loaded, the slot, tools, CLI);
  - `openclaw memory recall|search|reflect|get|promote` (the engine's answers, exit codes, --json);
  - `openclaw gateway run` on loopback with token auth, and `POST /tools/invoke` for memory_search,
    memory_get (path traversal refused), memory_retain, and the engine child killed mid-session;
  - the plugin's node unit tests (node --test, a recording fake api and a fake engine).
They skip when the toolchain is missing outside CI; in CI (`$CI` set) a missing toolchain fails.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from conftest import NOW, build_workspace, clean_env, memory_executable, run_memory, run_ok, tree_hashes

pytestmark = pytest.mark.node

REPO = Path(__file__).resolve().parents[1]
NODE_BIN = REPO / ".node" / "bin"
PLUGIN_DIR = REPO / "integrations" / "openclaw"
TOKEN = "test-token-29"
# Every tool of the engine's tools/list (src/engine-tools.json; memory-core's two under their names), but
# the two that serve OpenClaw's memory runtime, not the agent (src/tools.js RUNTIME_ONLY).
RUNTIME_ONLY = {"memory_triggers", "memory_status"}
TOOLS = {t["name"] for t in json.loads((PLUGIN_DIR / "src" / "engine-tools.json").read_text(encoding="utf-8"))
         } - RUNTIME_ONLY
CITATION = re.compile(r"^(MEMORY\.md|memory/[\w./-]+\.md|bank/[\w./-]+\.md)#L\d+(-L\d+)?$")


def _toolchain() -> None:
    missing = [p for p in (NODE_BIN / "node", NODE_BIN / "openclaw") if not os.access(p, os.X_OK)]
    if missing:
        reason = f"the Node toolchain is missing ({', '.join(map(str, missing))}): run `make node`"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the OpenClaw tests (make test installs it)")
        pytest.skip(reason)


class OpenClaw:
    """A throwaway OpenClaw home whose config selects the plugin for the memory slot."""

    def __init__(self, root: Path, workspace: Path, command: str) -> None:
        self.root = root
        self.workspace = workspace
        self.home = root / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.model_port = _free_port()
        self.config = root / "openclaw.json"
        self.write_config(command)
        self.env = clean_env({"MEMORY_NOW": NOW}) | {
            "HOME": str(self.home), "OPENCLAW_CONFIG_PATH": str(self.config),
            "OPENCLAW_STATE_DIR": str(self.home / ".openclaw"), "PATH": f"{NODE_BIN}{os.pathsep}{os.environ['PATH']}",
            "OPENCLAW_NO_AUTO_UPDATE": "1", "DO_NOT_TRACK": "1", "OPENCLAW_DISABLE_BONJOUR": "1",
            "OPENCLAW_SKIP_CHANNELS": "1", "OPENCLAW_NO_ONBOARD": "1", "OPENCLAW_NO_PROMPT": "1",
            "TMPDIR": str(root), "FORCE_COLOR": "0",
        }

    def write_config(self, command: str, path: Path | None = None, search: dict[str, Any] | None = None,
                     compaction: dict[str, Any] | None = None) -> Path:
        config = {
            "agents": {"defaults": {"workspace": str(self.workspace), "model": {"primary": "scripted/scripted-1"}}},
            "update": {"checkOnStart": False},
            "models": {  # loopback only: no catalog download; the one model is the scripted server below
                "catalogRefresh": {"enabled": False},
                "providers": {"scripted": {
                    "baseUrl": f"http://127.0.0.1:{self.model_port}/v1", "apiKey": "none", "api": "openai-completions",
                    "models": [{"id": "scripted-1", "name": "Scripted", "reasoning": False, "input": ["text"],
                                "contextWindow": 128000, "maxTokens": 4096}]}},
            },
            "tools": {"toolSearch": False},
            "gateway": {"mode": "local", "bind": "loopback", "port": self.port,
                        "auth": {"mode": "token", "token": TOKEN}},
            "plugins": {
                "allow": ["workspace-memory"],
                "load": {"paths": [str(PLUGIN_DIR)]},
                "slots": {"memory": "workspace-memory"},
                # dreaming off, as the install sets it (docs/openclaw.md): else the plugin writes it at the
                # gateway's first start, and OpenClaw reloads the plugin mid-test
                "entries": {"workspace-memory": {"enabled": True, "config": {"command": command,
                                                                             "dreaming": {"enabled": False}}}},
            },
        }
        if search:
            config["memory"] = {"search": search}
        if compaction:
            config["agents"]["defaults"]["compaction"] = compaction
        target = path or self.config
        target.write_text(json.dumps(config, indent=2), encoding="utf-8")
        return target

    def run(self, *args: str, timeout: float = 120, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([str(NODE_BIN / "openclaw"), *args], capture_output=True, text=True, timeout=timeout,
                              env=self.env | (env or {}), cwd=self.root)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def indexed_openclaw(tmp_path_factory: pytest.TempPathFactory, name: str) -> OpenClaw:
    """A throwaway OpenClaw home (the plugin selected) over a fresh, indexed workspace."""
    _toolchain()
    root = tmp_path_factory.mktemp(name)
    ws = build_workspace(root / "workspace")
    run_ok(ws, "index")
    return OpenClaw(root, ws, memory_executable())


@pytest.fixture(scope="module")
def oc(tmp_path_factory: pytest.TempPathFactory) -> OpenClaw:
    oc = indexed_openclaw(tmp_path_factory, "openclaw")
    # OpenClaw's first command in a new home migrates its state and says so on stdout (the
    # plugin prints nothing; test_inspect... checks it): get that done before the tests read stdout
    # (with a command that runs OpenClaw's config guard: `recall` and `search` skip it).
    first = oc.run("memory", "entities", "--json")
    assert first.returncode == 0, first.stderr
    return oc


def _engine_recall(ws: Path, *args: str) -> dict[str, Any]:
    return json.loads(run_ok(ws, "recall", *args, "--json"))


# ------------------------------------------------------------------------------------ the CLI


def test_inspect_shows_the_plugin_loaded_in_the_memory_slot(oc: OpenClaw) -> None:
    proc = oc.run("plugins", "inspect", "workspace-memory", "--runtime", "--json")
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)  # the whole stdout is JSON: registration printed nothing
    plugin = info["plugin"]
    assert plugin["status"] == "loaded" and plugin["activated"] is True
    assert plugin["activationReason"] == "selected memory slot"
    assert set(plugin["toolNames"]) == TOOLS
    assert plugin["cliCommands"] == ["memory"]
    assert plugin["services"] == ["workspace-memory-engine", "workspace-memory-reflect-schedule"]
    assert plugin["rootDir"] == str(PLUGIN_DIR)


def test_recall_answers_from_the_engine_with_citations(oc: OpenClaw) -> None:
    proc = oc.run("memory", "recall", "Baileys reconnect crash", "--k", "25", "--since", "30d", "--json")
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    want = _engine_recall(oc.workspace, "Baileys reconnect crash", "--k", "25", "--since", "30d")
    assert got["results"], "no results"
    assert [r["source"] for r in got["results"]] == [r["source"] for r in want["results"]]
    assert all(CITATION.match(r["source"]) for r in got["results"])
    # --since 30d (now = 2025-11-30): nothing older than 2025-10-31, though 2025-03-14 mentions Baileys.
    assert all(r["timestamp"] is None or r["timestamp"] >= "2025-10-31" for r in got["results"])
    assert not any(r["source"].startswith("memory/2025-03-14.md") for r in got["results"])


def test_recall_skips_openclaws_config_guard_as_search_does(oc: OpenClaw, tmp_path: Path) -> None:
    """OpenClaw exempts only `memory search` and `memory status` from its config guard (state migrations,
    seconds of CPU); `recall` is an alias of the plugin's `search` command, so it is exempt too. Seen in
    OpenClaw's own startup timeline: the guard is its `config-ready` stage."""
    timeline = tmp_path / "timeline.jsonl"
    env = {"OPENCLAW_DIAGNOSTICS": "1", "OPENCLAW_DIAGNOSTICS_TIMELINE_PATH": str(timeline)}
    for args, guarded in ((["recall", "Baileys", "--json"], False), (["search", "Baileys", "--json"], False),
                          (["entities", "--json"], True)):
        timeline.unlink(missing_ok=True)
        proc = oc.run("memory", *args, env=env)
        assert proc.returncode == 0, (args, proc.stderr)
        stages = {(json.loads(line).get("attributes") or {}).get("stage") for line in timeline.read_text().splitlines()}
        assert ("config-ready" in stages) is guarded, (args, sorted(filter(None, stages)))
    listed = oc.run("memory", "--help")
    assert re.search(r"^\s+recall, search\s", listed.stdout, re.M), listed.stdout


def test_recall_exit_code_and_error_are_the_engines(oc: OpenClaw) -> None:
    proc = oc.run("memory", "recall", "Baileys", "--since", "yesterdayish")
    engine = subprocess.run([memory_executable(), "--workspace", str(oc.workspace), "recall", "Baileys", "--since",
                             "yesterdayish"], capture_output=True, text=True, env=oc.env)
    assert proc.returncode == engine.returncode != 0
    assert engine.stderr.strip().splitlines()[-1] in proc.stderr


def test_search_is_memory_cores_alias_and_shape(oc: OpenClaw) -> None:
    proc = oc.run("memory", "search", "espresso", "--max-results", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert set(got) == {"results"}
    want = _engine_recall(oc.workspace, "espresso", "--k", "3")["results"]
    assert len(got["results"]) == len(want) > 0
    for hit, r in zip(got["results"], want, strict=True):
        assert {"path", "startLine", "endLine", "score", "snippet", "source"} <= set(hit)
        assert (hit["path"], hit["startLine"], hit["endLine"]) == (r["path"], r["start_line"], r["end_line"])
        assert hit["snippet"] == r["content"] and hit["score"] == r["score"] and hit["source"] == "memory"
    high = json.loads(oc.run("memory", "search", "espresso", "--min-score", "2", "--json").stdout)
    assert high == {"results": []}


def test_reflect_dry_run_writes_nothing(oc: OpenClaw) -> None:
    before = tree_hashes(oc.workspace)
    proc = oc.run("memory", "reflect", "--since", "7d", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "would change" in proc.stdout
    assert tree_hashes(oc.workspace) == before
    as_json = oc.run("memory", "reflect", "--since", "7d", "--dry-run", "--json")
    assert as_json.returncode == 0 and isinstance(json.loads(as_json.stdout), dict)


def test_get_refuses_paths_outside_memory(oc: OpenClaw) -> None:
    proc = oc.run("memory", "get", "../../etc/passwd.md")
    assert proc.returncode != 0 and "outside" in proc.stderr and proc.stdout == ""


def test_memory_core_commands_without_counterpart_say_where_they_went(oc: OpenClaw) -> None:
    proc = oc.run("memory", "promote", "--apply")
    assert proc.returncode == 2
    line = [ln for ln in proc.stderr.splitlines() if "promote" in ln]
    assert len(line) == 1 and "reflect --apply-core" in line[0]


def test_a_missing_engine_is_one_clear_error(oc: OpenClaw) -> None:
    config = oc.write_config(str(oc.root / "no-such-memory"), oc.root / "missing.json")
    proc = oc.run("memory", "recall", "Baileys", env={"OPENCLAW_CONFIG_PATH": str(config)})
    assert proc.returncode == 127
    assert "cannot run" in proc.stderr and "config.command" in proc.stderr


def test_openclaw_extra_paths_and_sources_reach_the_engine(oc: OpenClaw) -> None:
    notes = oc.root / "extra-notes"
    notes.mkdir(exist_ok=True)
    (notes / "fish.md").write_text("# Fish\n\n- The zebrafish aquarium needs a new heater.\n", encoding="utf-8")
    plain = oc.run("memory", "recall", "zebrafish aquarium", "--json")
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout)["results"] == [], plain.stdout
    config = oc.write_config(memory_executable(), oc.root / "extra.json",
                             search={"extraPaths": [str(notes)], "sources": ["memory"]})
    proc = oc.run("memory", "recall", "zebrafish aquarium", "--json", env={"OPENCLAW_CONFIG_PATH": str(config)})
    assert proc.returncode == 0, proc.stderr
    [hit] = json.loads(proc.stdout)["results"]
    assert hit["source"] == f"{notes / 'fish.md'}#L3"


def test_config_overlay_is_checked_like_memory_toml(tmp_path: Path) -> None:
    ws = build_workspace(tmp_path / "ws")
    for overlay, message in (("[1]", "must be a JSON object"), ("{", "invalid JSON"),
                             ('{"extra_paths": "x"}', "extra_paths must be a list"),
                             ('{"nonsense": 1}', "unknown setting 'nonsense'")):
        code, _, err = run_memory(ws, "status", env={"MEMORY_CONFIG_OVERLAY": overlay})
        assert code != 0 and "MEMORY_CONFIG_OVERLAY" in err and message in err, (overlay, err)
    (ws / "memory.toml").write_text('extra_paths = ["a"]\n[recall]\nmode = "lexical"\n', encoding="utf-8")
    from workspace_memory.workspace.layout import Workspace

    merged = Workspace.open(ws, env={"MEMORY_CONFIG_OVERLAY": '{"extra_paths": ["a", "b"], "recall": {"sources": ["memory"]}}'})
    assert merged.config == {"extra_paths": ["a", "b"], "recall": {"mode": "lexical", "sources": ["memory"]}}


# ------------------------------------------------------------------------------------ the gateway


class Gateway:
    def __init__(self, oc: OpenClaw, proc: subprocess.Popen) -> None:
        self.oc = oc
        self.proc = proc

    def invoke(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.oc.port}/tools/invoke", data=json.dumps({"tool": tool, "args": args}).encode(),
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return {"http_status": exc.code, **json.loads(exc.read() or b"{}")}

    def engines(self) -> list[int]:
        """Pids of the `memory ... mcp` processes serving this workspace."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"mcp" in argv and str(self.oc.workspace).encode() in argv:
                pids.append(int(entry.name))
        return pids


@pytest.fixture(scope="module")
def gateway(oc: OpenClaw) -> Iterator[Gateway]:
    with running_gateway(oc) as gw:
        yield gw


@contextmanager
def running_gateway(oc: OpenClaw, env: dict[str, str] | None = None) -> Iterator[Gateway]:
    """`openclaw gateway run` for `oc` (its environment, or `env`), once it listens; its output in gateway.log."""
    log = (oc.root / "gateway.log").open("w")
    proc = subprocess.Popen([str(NODE_BIN / "openclaw"), "gateway", "run", "--port", str(oc.port), "--bind", "loopback",
                             "--auth", "token", "--token", TOKEN], stdout=log, stderr=subprocess.STDOUT,
                            env=oc.env if env is None else env, cwd=oc.root)
    gw = Gateway(oc, proc)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert proc.poll() is None, (oc.root / "gateway.log").read_text()
            try:
                with socket.create_connection(("127.0.0.1", oc.port), timeout=1):
                    break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("the gateway did not listen within 120 s:\n" + (oc.root / "gateway.log").read_text())
        yield gw
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _details(answer: dict[str, Any]) -> dict[str, Any]:
    assert answer.get("ok") is True, answer
    return answer["result"]["details"]


def test_gateway_memory_search_answers_from_the_engine(gateway: Gateway) -> None:
    got = _details(gateway.invoke("memory_search", {"query": "Baileys reconnect", "maxResults": 5}))
    want = _engine_recall(gateway.oc.workspace, "Baileys reconnect", "--k", "5")["results"]
    assert got["provider"] == "workspace-memory" and got["citations"] == "auto"
    assert [r["citation"] for r in got["results"]] == [r["source"] for r in want]
    for hit in got["results"]:
        assert CITATION.match(hit["citation"]) and hit["snippet"].endswith(f"Source: {hit['citation']}")
        assert len(hit["snippet"]) <= 700 + len("\n\nSource: ") + len(hit["citation"])
    assert _details(gateway.invoke("memory_search", {"query": "Baileys", "minScore": 5}))["results"] == []
    assert len(gateway.engines()) == 1, "one engine process for the workspace"


def test_gateway_memory_get_reads_a_citation_and_refuses_traversal(gateway: Gateway) -> None:
    hit = _details(gateway.invoke("memory_search", {"query": "Tokyo", "maxResults": 1}))["results"][0]
    page = _details(gateway.invoke("memory_get", {"path": hit["citation"]}))
    lines = (gateway.oc.workspace / hit["path"]).read_text(encoding="utf-8").splitlines()
    assert page["status"] == "ok" and page["path"] == hit["path"] and page["from"] == hit["startLine"]
    assert page["text"] == "\n".join(lines[hit["startLine"] - 1:hit["endLine"]])
    paged = _details(gateway.invoke("memory_get", {"path": "memory/2025-11-30.md", "from": 1, "lines": 2}))
    assert paged["lines"] == 2 and paged["truncated"] is True and paged["nextFrom"] == 3
    for bad in ("../../etc/passwd", "memory/../../outside.md", "/etc/hostname.md", ".memory/index.md"):
        refused = _details(gateway.invoke("memory_get", {"path": bad}))
        assert refused["status"] in {"error", "not_found"} and refused["text"] == "", (bad, refused)
    missing = _details(gateway.invoke("memory_get", {"path": "memory/1999-01-01.md"}))
    assert missing["status"] == "not_found"


def test_gateway_retain_then_search_finds_it(gateway: Gateway) -> None:
    stored = _details(gateway.invoke("memory_retain", {"bullet": "W @Peter: Keeps a bonsai named Ferdinand."}))
    assert stored, stored
    assert "Ferdinand" in (gateway.oc.workspace / "memory" / "2025-11-30.md").read_text(encoding="utf-8")
    found = _details(gateway.invoke("memory_search", {"query": "bonsai Ferdinand", "maxResults": 3}))
    assert found["results"] and "Ferdinand" in found["results"][0]["snippet"]


def test_gateway_restarts_a_killed_engine(gateway: Gateway) -> None:
    _details(gateway.invoke("memory_search", {"query": "espresso"}))
    [pid] = gateway.engines()
    os.kill(pid, 9)
    deadline = time.monotonic() + 10
    while pid in gateway.engines() and time.monotonic() < deadline:
        time.sleep(0.1)
    after = _details(gateway.invoke("memory_search", {"query": "espresso"}))
    assert after["results"], after
    pids = gateway.engines()
    assert len(pids) == 1 and pids != [pid], "one new engine process"


# ------------------------------------------------------------------------------------ an agent turn


INTERNAL = "<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>"  # OpenClaw's own user messages (context after tool results)
FLUSH_ASK = "Store the durable memories of this session now"  # the engine's flush prompt (memory flush-prompt)
FLUSH_FACT = "W @Peter: Asked twice about the Baileys reconnects."


class ScriptedModel(ThreadingHTTPServer):
    """An OpenAI-compatible chat-completions server on loopback. In a turn, the first call asks for
    memory_search(QUERY) and, once the tool answered, it replies in text. In OpenClaw's pre-compaction
    flush (the engine's flush prompt) it appends one Retain bullet with `write`, then says NO_REPLY; a
    call without tools (the compaction summary) gets a summary. It records every request."""

    def __init__(self, port: int, query: str) -> None:
        self.query = query
        self.requests: list[dict[str, Any]] = []
        super().__init__(("127.0.0.1", port), _ModelHandler)


class _ModelHandler(BaseHTTPRequestHandler):
    server: ScriptedModel

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # http.server's name
        req = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        self.server.requests.append(req)
        msgs = req.get("messages", [])
        asked = [i for i, m in enumerate(msgs) if m.get("role") == "user" and INTERNAL not in json.dumps(m)[:300]]
        last = asked[-1] if asked else 0
        answered = any(m.get("role") == "tool" for m in msgs[last + 1:])
        flushing = bool(asked) and FLUSH_ASK in json.dumps(msgs[last])
        call = None
        if not req.get("tools"):
            delta, finish = {"role": "assistant", "content": "Summary: Peter asked about the Baileys reconnects."}, "stop"
        elif flushing and answered:
            delta, finish = {"role": "assistant", "content": "NO_REPLY"}, "stop"
        elif flushing:
            [write] = [t for t in req["tools"] if t["function"]["name"] == "write"]
            rel = re.search(r"append to (memory/[\w-]+\.md)", write["function"]["description"])[1]
            call = {"name": "write", "arguments": json.dumps({"path": rel, "content": f"\n## Retain\n- {FLUSH_FACT}\n"})}
        elif answered:
            delta, finish = {"role": "assistant", "content": "You fixed it; see your memory."}, "stop"
        else:
            call = {"name": "memory_search", "arguments": json.dumps({"query": self.server.query})}
        if call:
            calls = [{"index": 0, "id": f"call_{len(self.server.requests)}", "type": "function", "function": call}]
            delta, finish = {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"
        answer_completion(self, req, delta, finish)


def answer_completion(handler: BaseHTTPRequestHandler, req: dict[str, Any], delta: dict[str, Any], finish: str) -> None:
    """Write one OpenAI chat-completions answer (`delta` as the assistant's message), streamed as server-sent
    events when the request asks for a stream; the scripted models of the gateway tests share it."""
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if req.get("stream"):
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        for choice, extra in (({"index": 0, "delta": delta, "finish_reason": None}, {}),
                              ({"index": 0, "delta": {}, "finish_reason": finish}, {"usage": usage})):
            chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "scripted-1",
                     "choices": [choice], **extra}
            handler.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        handler.wfile.write(b"data: [DONE]\n\n")
        return
    message = dict(delta)
    message["tool_calls"] = [{k: v for k, v in c.items() if k != "index"} for c in message.get("tool_calls", [])]
    if not message["tool_calls"]:
        del message["tool_calls"]
    body = json.dumps({"id": "c1", "object": "chat.completion", "created": 0, "model": "scripted-1", "usage": usage,
                       "choices": [{"index": 0, "message": message, "finish_reason": finish}]}).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def test_an_agent_turn_calls_the_engines_memory_search(oc: OpenClaw) -> None:
    model = ScriptedModel(oc.model_port, "Baileys reconnect")
    thread = threading.Thread(target=model.serve_forever, daemon=True)
    thread.start()
    try:
        proc = oc.run("agent", "exec", "What did I do about the Baileys reconnects?", "--cwd", str(oc.workspace),
                      "--model", "scripted/scripted-1", "--json", "--timeout", "120", timeout=180)
    finally:
        model.shutdown()
        model.server_close()
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = json.loads(proc.stdout)
    assert run["ok"] is True and run["final"] == "You fixed it; see your memory."
    assert run["toolSummary"]["tools"] == ["memory_search"] and run["toolSummary"].get("failures", 0) == 0
    first, second = model.requests[0], model.requests[-1]
    names = [t["function"]["name"] for t in first["tools"]]
    assert set(names) >= TOOLS and names.count("memory_search") == names.count("memory_get") == 1
    system = "\n".join(str(m["content"]) for m in first["messages"] if m["role"] in ("system", "developer"))
    assert "## Memory Recall" in system and "memory_search" in system
    [tool_message] = [m for m in second["messages"] if m["role"] == "tool"]
    content = tool_message["content"]
    text = content if isinstance(content, str) else "".join(part.get("text", "") for part in content)
    answer = json.loads(text)
    want = _engine_recall(oc.workspace, "Baileys reconnect", "--k", "6")["results"]
    assert answer["provider"] == "workspace-memory"
    assert [r["citation"] for r in answer["results"]] == [r["source"] for r in want] and want


def test_the_pre_compaction_flush_writes_a_retain_bullet(oc: OpenClaw) -> None:
    """Two turns of one session; transcript limits set tiny, so OpenClaw compacts before the second and
    flushes first, with the plugin's plan: the engine's prompt, and OpenClaw's write tool."""
    config = oc.write_config(memory_executable(), oc.root / "flush.json", compaction={
        "maxActiveTranscriptBytes": 1000, "memoryFlush": {"forceFlushTranscriptBytes": 100}})
    model = ScriptedModel(oc.model_port, "Baileys reconnect")
    thread = threading.Thread(target=model.serve_forever, daemon=True)
    thread.start()
    try:
        for turn in (1, 2):
            proc = oc.run("agent", "--local", "--session-id", "flush-test", "-m", f"Baileys reconnects? ({turn})",
                          "--json", "--timeout", "120", timeout=180,
                          # a state folder of its own: `agent --local` refuses one that a gateway serves
                          env={"OPENCLAW_CONFIG_PATH": str(config), "OPENCLAW_STATE_DIR": str(oc.root / "flush-state")})
            assert proc.returncode == 0, proc.stderr[-3000:]
    finally:
        model.shutdown()
        model.server_close()
    assert len(model.requests) < 20, "the scripted turns must not loop"
    flushes = [r for r in model.requests if r.get("tools") and FLUSH_ASK in json.dumps(r["messages"])]
    assert flushes, "OpenClaw ran no memory flush"
    flush_text = json.dumps(flushes[0]["messages"])
    assert "Retain bullets" in flush_text and "append the facts there as a" in flush_text
    written = [p for p in (oc.workspace / "memory").glob("*.md") if FLUSH_FACT in p.read_text(encoding="utf-8")]
    assert len(written) == 1, "the flush appended the Retain bullet to one daily log"
    found = _engine_recall(oc.workspace, "asked twice Baileys reconnects", "--k", "3")["results"]
    assert found and FLUSH_FACT.split(": ", 1)[1] in found[0]["content"]


# ------------------------------------------------------------------------------------ node unit tests


def test_plugin_unit_tests_pass_under_node() -> None:
    _toolchain()
    proc = subprocess.run([str(NODE_BIN / "node"), "--test", "--test-reporter=tap", "test/"], capture_output=True, text=True, timeout=120,
                          cwd=PLUGIN_DIR, env=clean_env() | {"PATH": f"{NODE_BIN}{os.pathsep}{os.environ['PATH']}"})
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"^# fail 0$", proc.stdout, re.M) and not re.search(r"^# pass 0$", proc.stdout, re.M)


def test_the_plugin_javascript_type_checks() -> None:
    """`tsc -p integrations/openclaw` (strict, checkJs over the JSDoc types; typescript pinned in
    tools/node's lock) finds nothing."""
    _toolchain()
    tsc = REPO / ".node" / "node_modules" / "typescript" / "bin" / "tsc"
    if not tsc.exists():
        pytest.skip("typescript is missing from .node/: run `make node` (tools/node/package.json pins it)")
    proc = subprocess.run([str(NODE_BIN / "node"), str(tsc), "-p", str(PLUGIN_DIR)], capture_output=True, text=True,
                          timeout=300, cwd=PLUGIN_DIR, env=clean_env())
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_the_plugins_memory_search_maps_onto_the_declared_parameters() -> None:
    """memory-core's memory_search (query, maxResults, corpus) becomes the engine's memory_search
    arguments: maxResults bounded as recall/params.py's k, corpus a declared source, values passed as
    given (the engine refuses what is out of bounds), and no argument the engine's tool does not take."""
    from workspace_memory.recall.params import BY_NAME, PARAMS

    _toolchain()
    script = ("import {searchArgs} from './src/mapping.js';\n"
              "import {MEMORY_SEARCH_PARAMETERS as p} from './src/schemas.js';\n"
              "const corpora = p.properties.corpus.enum;\n"
              "console.log(JSON.stringify({schema: p, low: searchArgs({query: 'x', maxResults: 0}),\n"
              "  high: searchArgs({query: 'x', maxResults: 1e9}),\n"
              "  corpora: corpora.map((corpus) => [corpus, searchArgs({query: 'x', corpus})])}));\n")
    proc = subprocess.run([str(NODE_BIN / "node"), "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, cwd=PLUGIN_DIR, env=clean_env())
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    k, source = BY_NAME["k"], BY_NAME["source"]
    bounds = got["schema"]["properties"]["maxResults"]
    assert (bounds["minimum"], bounds["maximum"]) == (k.low, k.high)
    assert (got["low"]["k"], got["high"]["k"]) == (0, 10**9), "out of range goes to the engine, which refuses it"
    sent = [got["low"], got["high"], *(args for _, args in got["corpora"])]
    offered = {p.name for p in PARAMS if p.agent is not None}
    assert all(set(args) <= offered for args in sent), sent
    assert {args["source"] for _, args in got["corpora"] if "source" in args} <= set(source.choices)
    assert {corpus for corpus, args in got["corpora"] if "source" not in args} == {"wiki"}  # no such source here
