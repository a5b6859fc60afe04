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


def _openclaw_with_key(root: Path, server: ProviderServer | None, key: str = KEY, base_url: str = "") -> OpenClaw:
    base_url = base_url or server.base("openai")  # type: ignore[union-attr]
    ws = build_workspace(root / "workspace")
    (ws / "memory.toml").write_text(
        f'[embedding]\nprovider = "openai"\n\n[embedding.openai]\nbase_url = "{base_url}"\n'
        'model = "text-embedding-3-small"\ndimensions = 64\n', encoding="utf-8")
    oc = OpenClaw(root, ws, memory_executable())
    config = json.loads(oc.config.read_text(encoding="utf-8"))
    # OpenClaw's own key for OpenAI, as `openclaw configure` leaves it; no model of it is used here.
    config["models"]["providers"]["openai"] = {
        "baseUrl": base_url, "apiKey": key, "api": "openai-completions", "models": []}
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


def test_a_provider_that_echoes_the_key_gets_no_piece_of_it_through_the_gateway(tmp_path: Path) -> None:
    """The hostile provider of the corpus (benchmarks/hostile_provider.py) echoes the 164-character
    key in a long 401 body: memory_search's answer (its `error` field, which the model reads), the
    gateway's log and `.memory/` hold no 8-character piece of it."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    import hostile_provider as corpus

    _toolchain()
    key = corpus.KEYS["long"]
    with corpus.hostile("echo-json", key) as provider:
        oc = _openclaw_with_key(tmp_path, None, key, provider.base_url)
        env = {k: v for k, v in oc.env.items() if k != "MEMORY_EMBED_PROVIDER" and k not in KEY_VARS}
        with running_gateway(oc, env) as gw:
            answer = gw.invoke("memory_search", {"query": "Baileys reconnect", "maxResults": 3})
        assert provider.server.requests, "the engine asked the provider"
        assert provider.elsewhere.requests == []
    text = json.dumps(answer)
    assert "[key]" in text, answer  # the server's message came through, blanked
    blobs = {"answer": text.encode(), "gateway.log": (oc.root / "gateway.log").read_bytes()}
    blobs |= {str(p): p.read_bytes() for p in (oc.workspace / ".memory").rglob("*") if p.is_file()}
    assert corpus.leaks(blobs, key) == []
