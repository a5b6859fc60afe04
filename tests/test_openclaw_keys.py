"""OpenClaw's resolved provider key reaches the engine through the plugin, and nowhere else.

A real `openclaw gateway run` (OpenClaw 2026.9.6 in .node/) whose config holds an OpenAI key in
`models.providers.openai.apiKey`, nothing in the environment; the workspace's memory.toml says
`[embedding] provider = "openai"` with a loopback server (tests/provider_servers.py) that answers
401 to any other key. The plugin reads the key through the plugin SDK
(`api.runtime.modelAuth.resolveApiKeyForProvider`) and hands it to `memory mcp` in its
environment (integrations/openclaw/src/keys.js). Checked: the server saw `Authorization: Bearer
<key>`; the key is in the engine's environment but not its argv; it is in no file under `.memory/`,
not in the gateway's log and not in any tool answer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import build_workspace, memory_executable
from provider_servers import ProviderServer, serving
from test_openclaw_plugin import OpenClaw, _details, _toolchain, running_gateway

pytestmark = pytest.mark.node

KEY = "sk-oC5rV8nQ5f2c9a"  # random, as real keys are (any 8-character piece of a key is blanked)
KEY_VARS = ("OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "VOYAGE_API_KEY", "MISTRAL_API_KEY")


def _openclaw_with_key(root: Path, server: ProviderServer) -> OpenClaw:
    ws = build_workspace(root / "workspace")
    (ws / "memory.toml").write_text(
        f'[embedding]\nprovider = "openai"\n\n[embedding.openai]\nbase_url = "{server.base("openai")}"\n'
        'model = "text-embedding-3-small"\ndimensions = 64\n', encoding="utf-8")
    oc = OpenClaw(root, ws, memory_executable())
    config = json.loads(oc.config.read_text(encoding="utf-8"))
    # OpenClaw's own key for OpenAI, as `openclaw configure` leaves it; no model of it is used here.
    config["models"]["providers"]["openai"] = {
        "baseUrl": server.base("openai"), "apiKey": KEY, "api": "openai-completions", "models": []}
    oc.config.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return oc


def _files_holding(folder: Path, secret: str) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def test_openclaws_resolved_key_reaches_the_engine_in_its_environment_only(tmp_path: Path) -> None:
    _toolchain()
    with serving(KEY) as server:
        oc = _openclaw_with_key(tmp_path, server)
        # The engine's settings decide (no MEMORY_EMBED_PROVIDER=none), and no key comes from the environment.
        env = {k: v for k, v in oc.env.items() if k != "MEMORY_EMBED_PROVIDER" and k not in KEY_VARS}
        with running_gateway(oc, env) as gw:
            answer = gw.invoke("memory_search", {"query": "Baileys reconnect", "maxResults": 3})
            got = _details(answer)
            [pid] = gw.engines()
            argv = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        sent = {r["headers"].get("Authorization") for r in server.requests}
        assert sent == {f"Bearer {KEY}"}, f"the embedding server saw {sent}"
        assert any(r["path"] == "/v1/embeddings" for r in server.requests)
        assert got["results"], got
        assert f"OPENAI_API_KEY={KEY}".encode() in environ and KEY.encode() not in argv
        assert KEY not in json.dumps(answer)
        assert _files_holding(oc.workspace / ".memory", KEY) == []
        assert KEY not in (oc.root / "gateway.log").read_text(encoding="utf-8", errors="replace")
