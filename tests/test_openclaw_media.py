"""OpenClaw's `memory.search.multimodal` reaches the engine through the plugin, in the real gateway.

Two throwaway OpenClaw homes (OpenClaw 2026.9.6 in .node/) over the same kind of workspace: the
realistic notes plus a whiteboard photo (a PNG whose only words are in its pixels) and a voice
note's transcript. One home's openclaw.json says `memory.search.multimodal: {enabled: true,
modalities: ["image"]}`, the other says nothing of it. In each, `openclaw memory index` (the
plugin's CLI, which runs the engine with the plugin's environment) reads the workspace, and
`openclaw memory status --json` shows the engine's `[media]`; then `openclaw gateway run` and
`POST /tools/invoke memory_search` ask for the photo's words. With the setting: `[media]` is image
only (the voice note is not read), the photo's OCR text is found and cited as the photo's lines,
and the engine the gateway started holds the overlay in its environment. Without it: no `[media]`,
and the photo's words are found nowhere.

Third, OpenClaw's own multimodal choice, `memory.search.provider: "gemini"`, `model:
"gemini-embedding-2"` with its key in `memory.search.remote.apiKey`: the plugin passes `[media]
embedding = "gemini"` and the key (as GEMINI_API_KEY, keys.js); `openclaw memory index` sends the
photo (no words in it, OCR off) to the loopback Gemini of tests/provider_servers.py, which "sees" a
red bicycle, and the gateway's memory_search finds it by that; the key is in no answer, log or file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import build_workspace, memory_executable
from provider_servers import serving
from test_openclaw_keys import KEY_VARS
from test_openclaw_plugin import OpenClaw, _details, _toolchain, running_gateway

pytestmark = pytest.mark.node
pytest.importorskip("rapidocr", reason="the media extra (pip install 'workspace-memory[media]')")
from test_media import png_bytes, text_picture, wav_bytes  # noqa: E402  (Pillow: the media extra)
from test_media_space import SHOWS, _jpeg  # noqa: E402

PHOTO = "memory/2025-11-28-whiteboard.png"
WORDS = ["Kombucha budget review", "Ferment the new batch Friday"]
QUESTION = "kombucha budget review"
MULTIMODAL = {"enabled": True, "modalities": ["image"]}


def _home(root: Path, multimodal: dict | None) -> OpenClaw:
    ws = build_workspace(root / "workspace")
    (ws / PHOTO).write_bytes(png_bytes(text_picture(WORDS)))
    (ws / "memory" / "2025-11-29-voice.wav").write_bytes(wav_bytes(2.0))
    (ws / "memory" / "2025-11-29-voice.wav.txt").write_text("Call the kombucha supplier.\n", encoding="utf-8")
    oc = OpenClaw(root, ws, memory_executable())
    if multimodal is not None:
        oc.write_config(memory_executable(), search={"multimodal": multimodal})
    return oc


def _engine_json(oc: OpenClaw, *args: str) -> dict:
    proc = oc.run("memory", *args, "--json", timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout[proc.stdout.index("{"):])


def _search(oc: OpenClaw) -> tuple[list[str], bytes]:
    """The citations memory_search gives for the photo's words, and the gateway's engine's environment."""
    with running_gateway(oc) as gw:
        found = _details(gw.invoke("memory_search", {"query": QUESTION, "maxResults": 5}))
        [pid] = gw.engines()
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    return [r["citation"] for r in found["results"]], environ


def test_openclaws_multimodal_setting_reaches_the_engine(tmp_path: Path) -> None:
    _toolchain()
    oc = _home(tmp_path / "on", MULTIMODAL)
    assert oc.run("config", "get", "memory.search.multimodal").returncode == 0  # OpenClaw takes its own setting
    indexed = oc.run("memory", "index", timeout=900)
    assert indexed.returncode == 0, indexed.stderr
    media = _engine_json(oc, "status")["media"]
    assert media["enabled"] is True and media["modalities"] == ["image"], media
    citations, environ = _search(oc)
    assert any(c.startswith(f"{PHOTO}#L") for c in citations), citations
    overlay = next(v for v in environ.split(b"\0") if v.startswith(b"MEMORY_CONFIG_OVERLAY="))
    assert json.loads(overlay.split(b"=", 1)[1])["media"] == {"enabled": True, "modalities": ["image"]}
    # image only: the voice note's transcript is not a media entry
    whole = _engine_json(oc, "recall", "kombucha supplier")
    assert not any(r["source"].startswith("memory/2025-11-29-voice") for r in whole["results"]), whole


def test_without_the_setting_the_photo_is_not_read(tmp_path: Path) -> None:
    _toolchain()
    oc = _home(tmp_path / "off", None)
    indexed = oc.run("memory", "index", timeout=900)
    assert indexed.returncode == 0, indexed.stderr
    assert "media" not in _engine_json(oc, "status")
    citations, environ = _search(oc)
    assert not any(c.startswith(PHOTO) for c in citations), citations
    assert b"MEMORY_CONFIG_OVERLAY=" not in environ
    assert not (oc.workspace / ".memory" / "media").exists()


def test_openclaws_gemini_embedding_2_embeds_the_photo_through_the_plugin(tmp_path: Path) -> None:
    import hashlib

    _toolchain()
    key = "gk-Pl4gInK3yQ8w2Zx"
    with serving(key) as server:
        ws = build_workspace(tmp_path / "workspace")
        photo = _jpeg("red")
        (ws / "memory" / "2025-11-28-IMG_0815.jpg").write_bytes(photo)
        server.pictures[hashlib.sha256(photo).hexdigest()] = SHOWS
        (ws / "memory.toml").write_text(f'[embedding]\nprovider = "fake"\n\n[embedding.gemini]\nbase_url = '
                                        f'"{server.base("gemini")}"\n\n[media]\nocr = "none"\n', encoding="utf-8")
        oc = OpenClaw(tmp_path, ws, memory_executable())
        oc.write_config(memory_executable(), search={
            "provider": "gemini", "model": "gemini-embedding-2", "outputDimensionality": 128,
            "remote": {"apiKey": key}, "multimodal": {"enabled": True, "modalities": ["image"]}})
        # the engine's own settings decide its text space; no key comes from the environment
        oc.env = {k: v for k, v in oc.env.items() if k != "MEMORY_EMBED_PROVIDER" and k not in KEY_VARS}
        indexed = oc.run("memory", "index", timeout=900)
        assert indexed.returncode == 0, indexed.stderr
        assert "1 file(s) embedded by gemini/gemini-embedding-2/128" in indexed.stdout + indexed.stderr
        assert [m for m, _ in server.media_seen] == ["image/jpeg"]
        with running_gateway(oc, oc.env) as gw:
            answer = gw.invoke("memory_search", {"query": "red bicycle", "maxResults": 3})
        citations = [r["citation"] for r in _details(answer)["results"]]
        assert any(c.startswith("memory/2025-11-28-IMG_0815.jpg#L") for c in citations), citations
        assert {r["headers"].get("X-Goog-Api-Key") for r in server.requests} == {key}
    assert key not in json.dumps(answer) + (tmp_path / "gateway.log").read_text(encoding="utf-8", errors="replace")
    assert not [p for p in (ws / ".memory").rglob("*") if p.is_file() and key.encode() in p.read_bytes()]
