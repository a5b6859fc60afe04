"""Images and recordings embedded as themselves by Gemini's gemini-embedding-2, beside the offline
text (issue 41 "remote, when chosen"; src/workspace_memory/media_space.py, embed/media.py).

The wire shape is OpenClaw 2026.9.6's (GeminiWire.media_request); the server is the loopback one of
tests/provider_servers.py, which decodes the inline bytes and "sees" what the test says a photo
shows. The text space is the offline fake provider, the photos have no text (OCR off), so a photo
found by what it shows was found through the media space and nowhere else.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest

from conftest import run_memory, run_ok
from provider_servers import ProviderServer, serving
from workspace_memory.embed.wire import DOCUMENT, QUERY, GeminiWire
from workspace_memory.media.settings import MediaSettings

PIL = pytest.importorskip("PIL", reason="the media extra (pip install 'workspace-memory[media]')")
from PIL import Image  # noqa: E402

KEY = "gk-7QwZr2Lp9xVt4c"
NOW = "2026-12-06T12:00"
PHOTO = "memory/2026-11-20-IMG_4711.jpg"
SHOWS = "a red bicycle leaning against a garden fence"
ENV = {"MEMORY_EMBED_PROVIDER": None, "GEMINI_API_KEY": KEY}


def test_the_wire_is_openclaws_multimodal_shape() -> None:
    wire = GeminiWire()
    path, body = wire.media_request("gemini-embedding-2", [("Image file: memory/a.png", "image/png", b"\x89PNG")], 768)
    assert path == "models/gemini-embedding-2:batchEmbedContents"
    assert body == {"requests": [{"model": "models/gemini-embedding-2", "outputDimensionality": 768, "content": {
        "parts": [{"text": "Image file: memory/a.png"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw=="}}]}}]}
    # the stable model says its task in the text, never as taskType; the preview and older models take taskType
    path, body = wire.request("gemini-embedding-2", ["bicycle"], QUERY, None)
    assert path == "models/gemini-embedding-2:embedContent"
    assert body == {"content": {"parts": [{"text": "task: search result | query: bicycle"}]}}
    _, body = wire.request("gemini-embedding-2", ["a", "b"], DOCUMENT, None)
    assert body["requests"][1]["content"]["parts"] == [{"text": "title: none | text: b"}]
    _, body = wire.request("gemini-embedding-2-preview", ["a"], QUERY, None)
    assert body["taskType"] == "RETRIEVAL_QUERY" and body["content"]["parts"] == [{"text": "a"}]
    _, body = wire.request("gemini-embedding-001", ["a"], QUERY, None)
    assert body["taskType"] == "RETRIEVAL_QUERY"


@pytest.mark.parametrize("table, message", [
    ({"embedding": "openai"}, "embedding must be one of"),
    ({"embedding": "gemini", "embedding_model": "gemini-embedding-001"}, "embedding_model must be one of"),
    ({"embedding": "gemini", "embedding_dimensions": 64}, "embedding_dimensions must be"),
])
def test_a_bad_media_embedding_setting_is_refused_by_name(table: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MediaSettings.from_config({"media": {"enabled": True, **table}})
    assert MediaSettings.from_config({"media": {"enabled": True, "modalities": ["image"], "embedding": "gemini"}}
                                     ).embedded == ("image",)
    assert MediaSettings.from_config({"media": {"enabled": False, "embedding": "gemini"}}).embedded == ()


def _jpeg(color: str, size: tuple[int, int] = (320, 240)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "JPEG", quality=80)
    return out.getvalue()


def _workspace(root: Path, server: ProviderServer, embedding: str = "gemini", extra: str = "") -> Path:
    (root / "memory").mkdir(parents=True, exist_ok=True)
    (root / "memory" / "2026-11-20.md").write_text(
        "# 2026-11-20\n\n- Cleaned the garage and sorted the winter tyres.\n- Called Ana about the plumber.\n",
        encoding="utf-8")
    (root / "memory" / "2026-11-21.md").write_text("# 2026-11-21\n\n- Baked bread for the neighbours.\n",
                                                   encoding="utf-8")
    photo = _jpeg("red")
    (root / PHOTO).write_bytes(photo)
    server.pictures[hashlib.sha256(photo).hexdigest()] = SHOWS
    (root / "memory.toml").write_text(
        '[embedding]\nprovider = "fake"\n\n'
        f'[embedding.gemini]\nbase_url = "{server.base("gemini")}"\n\n'
        f'[media]\nenabled = true\nocr = "none"\nembedding = "{embedding}"\nembedding_dimensions = 128\n{extra}',
        encoding="utf-8")
    return root


def _index(root: Path, env: dict) -> str:
    """`memory index`: its output and its notices (stderr)."""
    code, out, err = run_memory(root, "index", now=NOW, env=env)
    assert code == 0 and "Traceback" not in err, err
    return out + err


def _found(root: Path, query: str, env: dict | None = None) -> dict:
    return json.loads(run_ok(root, "recall", query, "--json", "--mode", "hybrid", "--explain", now=NOW,
                             env=env or ENV))


def test_a_photo_is_found_by_what_it_shows_through_the_media_space(tmp_path: Path) -> None:
    with serving(KEY) as server:
        root = _workspace(tmp_path / "ws", server)
        out = _index(root, ENV)
        [batch] = [r for r in server.requests if r["path"].endswith(":batchEmbedContents")]
        assert batch["path"] == "/v1beta/models/gemini-embedding-2:batchEmbedContents"
        assert {r["headers"].get("X-Goog-Api-Key", r["headers"].get("x-goog-api-key")) for r in server.requests} == {KEY}
        assert server.media_seen == [("image/jpeg", hashlib.sha256((root / PHOTO).read_bytes()).hexdigest())]
        assert "1 file(s) embedded by gemini/gemini-embedding-2/128" in out
        assert list((root / ".memory" / "media" / "space").glob("gemini-gemini-embedding-2-128.npz"))
        answer = _found(root, "red bicycle")
        [hit] = [r for r in answer["results"] if r["source"].startswith(PHOTO)]
        assert "media" in hit["explain"]["found_by"] and hit["explain"]["channels"]["media"] > 0.25
        assert answer["results"][0]["source"].startswith(PHOTO), answer["results"][0]
        # an unchanged file, or the same photo renamed, is not sent again
        sent = len(server.media_seen)
        (root / PHOTO).rename(root / "memory" / "2026-11-20-bike.jpg")
        run_ok(root, "index", now=NOW, env=ENV)
        assert len(server.media_seen) == sent
        assert _found(root, "red bicycle")["results"][0]["source"].startswith("memory/2026-11-20-bike.jpg")
        # a lexical recall never asks the provider
        before = len(server.requests)
        run_ok(root, "recall", "red bicycle", "--json", "--mode", "lexical", now=NOW, env=ENV)
        assert len(server.requests) == before


def test_without_the_media_space_the_photo_is_not_found_by_what_it_shows(tmp_path: Path) -> None:
    with serving(KEY) as server:
        root = _workspace(tmp_path / "ws", server, embedding="none")
        run_ok(root, "index", now=NOW, env=ENV)
        assert server.requests == [] and server.media_seen == []
        results = _found(root, "red bicycle")["results"]
        assert not any("media" in r["explain"]["found_by"] for r in results)
        assert not any(r["source"].startswith(PHOTO) for r in results[:3]), results


def test_a_rejected_key_is_blanked_and_recall_still_answers(tmp_path: Path) -> None:
    with serving(KEY) as server:
        root = _workspace(tmp_path / "ws", server)
        wrong = {**ENV, "GEMINI_API_KEY": "gk-Wr0ngKeyAbCdEf99"}
        code, out, err = run_memory(root, "index", now=NOW, env=wrong)
        assert code == 0, err
        assert "media space:" in out + err and "key rejected" in out + err
        assert "Wr0ngKey" not in out + err  # the server echoed it; we never repeat any piece of it
        run_ok(root, "index", now=NOW, env=ENV)  # the right key: embedded now
        code, out, err = run_memory(root, "recall", "red bicycle", "--json", "--mode", "hybrid", now=NOW, env=wrong)
        assert code == 0, err
        answer = json.loads(out)
        assert answer["results"] and any("media space not searched" in n for n in answer["notices"]), answer
        assert "Wr0ngKey" not in out + err
        stored = b"".join(p.read_bytes() for p in (root / ".memory").rglob("*") if p.is_file())
        assert KEY.encode() not in stored and b"Wr0ngKey" not in stored


def test_no_key_is_one_notice_and_nothing_is_sent(tmp_path: Path) -> None:
    with serving(KEY) as server:
        root = _workspace(tmp_path / "ws", server)
        out = _index(root, {"MEMORY_EMBED_PROVIDER": None, "GEMINI_API_KEY": None, "GOOGLE_API_KEY": None})
        assert "media space:" in out and "GEMINI_API_KEY" in out
        assert server.requests == []


def test_a_file_over_the_limit_or_not_an_image_is_never_sent(tmp_path: Path) -> None:
    with serving(KEY) as server:
        root = _workspace(tmp_path / "ws", server, extra="max_file_bytes = 20000\n")
        (root / "memory" / "2026-11-22-big.jpg").write_bytes(_jpeg("blue", (2000, 1500)) + b"\0" * 30000)
        (root / "memory" / "2026-11-22-fake.png").write_bytes(b"%PDF-1.4 not an image")
        out = _index(root, ENV)
        assert [m for m, _ in server.media_seen] == ["image/jpeg"]  # the red photo only
        assert "2 file(s) not sent" in out


def test_the_media_space_on_every_store(store: str, workspace: Path) -> None:
    """The media channel asks the store for a file's entries (Store.entries_in): SQLite and Postgres."""
    with serving(KEY) as server:
        root = _workspace(workspace, server)
        _index(root, ENV)
        hits = [r for r in _found(root, "red bicycle")["results"] if r["source"].startswith(PHOTO)]
        assert hits and all("media" in r["explain"]["found_by"] for r in hits), store
        # a filter applies to the media channel's entries too
        later = json.loads(run_ok(root, "recall", "red bicycle", "--json", "--mode", "hybrid", "--since",
                                  "2026-11-25", now=NOW, env=ENV))
        assert not any(r["source"].startswith(PHOTO) for r in later["results"])
