"""Optional model assist against a real OpenAI-compatible HTTP server on 127.0.0.1 (no network)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from http_fixtures import JsonServer, send_json
from workspace_memory.api import Memory
from workspace_memory.reflect import reflect
from workspace_memory.reflect.model import ChatModel, ModelError, model_from_config

SUMMARY = "Peter lives in Vienna and prefers short replies. -->He travels often."
RETAIN = "W @Peter: Flew to Tokyo for a meeting.\nnot a bullet at all\n- B @warelay: I restarted the bridge.\nW:"


class FakeChat(JsonServer):
    """Answers /v1/chat/completions like llama.cpp's server; records every request."""

    requests: list[dict] = []
    fail = False

    def handle(self, handler: BaseHTTPRequestHandler, method: str, path: str, raw: bytes) -> None:
        body = json.loads(raw)
        type(self).requests.append({"path": path, "body": body, "auth": handler.headers.get("Authorization")})
        if type(self).fail or path != "/v1/chat/completions":
            handler.send_response(500)
            handler.end_headers()
            return
        system = body["messages"][0]["content"]
        content = SUMMARY if "summarise" in system else RETAIN
        send_json(handler, 200, {"choices": [{"message": {"role": "assistant", "content": content}}]})


@pytest.fixture
def server() -> Iterator[str]:
    FakeChat.requests, FakeChat.fail = [], False
    srv = FakeChat()
    try:
        yield srv.base_url
    finally:
        srv.close()


def make_workspace(root: Path, base_url: str) -> Path:
    (root / "memory").mkdir(parents=True)
    (root / "memory.toml").write_text(
        f'[reflect.model]\nbase_url = "{base_url}"\nmodel = "tiny-test"\napi_key_env = "REFLECT_TEST_KEY"\n'
        "timeout = 5\n")
    (root / "memory/2025-11-27.md").write_text(
        "# 2025-11-27\n\n## Retain\n- W @Peter: Lives in Vienna.\n- O(c=0.9) @Peter: Prefers short replies.\n")
    (root / "memory/2025-11-28.md").write_text("# 2025-11-28\n\n## Notes\n- Peter flew to Tokyo for a meeting.\n")
    (root / "memory/2025-11-29.md").write_text("# 2025-11-29\n\n## Notes\n\n## Retain\n")  # empty template
    return root


def run(root: Path, **kw: object):
    mem = Memory.open(str(root), now="2025-11-30")
    try:
        return reflect(mem.workspace, mem.store, mem.now, "7d", **kw)
    finally:
        mem.close()


def test_model_writes_summaries_and_suggests_retain_bullets(tmp_path: Path, server: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFLECT_TEST_KEY", "sekret")
    root = make_workspace(tmp_path / "ws", server)
    logs = {p.name: p.read_bytes() for p in (root / "memory").iterdir()}
    report = run(root)
    assert not report.notices, report.notices
    page = (root / "bank/entities/Peter.md").read_text()
    assert "<!-- reflect:summary model=tiny-test input=" in page
    assert "Peter lives in Vienna and prefers short replies. ->He travels often." in page  # cannot end a comment
    assert "## Facts" in page and "Lives in Vienna." in page  # the facts stay deterministic
    proposals = (root / "bank/proposals.md").read_text()
    assert "### memory/2025-11-28.md" in proposals and "memory/2025-11-29.md" not in proposals
    assert "W @Peter: Flew to Tokyo for a meeting.\nB @warelay: I restarted the bridge.\n```" in proposals
    assert "not a bullet" not in proposals
    assert {p.name: p.read_bytes() for p in (root / "memory").iterdir()} == logs  # never into a daily log
    calls = len(FakeChat.requests)
    assert calls == 2 and all(r["auth"] == "Bearer sekret" for r in FakeChat.requests)
    assert FakeChat.requests[0]["body"]["temperature"] == 0
    # Nothing new: no model call, no byte changed.
    assert run(root).changed == [] and len(FakeChat.requests) == calls
    # Suggestions are facts nowhere: re-indexing does not count them.
    mem = Memory.open(str(root), now="2025-11-30")
    assert mem.store.conn.execute("SELECT COUNT(*) FROM facts WHERE path = 'bank/proposals.md'").fetchone()[0] == 0
    mem.close()


def test_a_failing_endpoint_is_a_notice_and_the_output_is_deterministic(tmp_path: Path, server: str) -> None:
    FakeChat.fail = True
    root = make_workspace(tmp_path / "ws", server)
    report = run(root)
    assert any("deterministic summary kept" in n for n in report.notices)
    page = (root / "bank/entities/Peter.md").read_text()
    assert "reflect:summary" not in page and "- Lives in Vienna. — world, 2025-11-27" in page


def test_unreachable_endpoint_and_no_model(tmp_path: Path) -> None:
    root = make_workspace(tmp_path / "ws", "http://127.0.0.1:9/v1")  # discard port: nothing listens
    report = run(root)
    assert report.notices and (root / "bank/entities/Peter.md").exists()
    quiet = make_workspace(tmp_path / "ws2", "http://127.0.0.1:9/v1")
    assert run(quiet, use_model=False).notices == []
    with pytest.raises(ModelError):
        ChatModel("http://127.0.0.1:9/v1", "m", timeout=2).complete("s", "u")


def test_model_config() -> None:
    assert model_from_config({}) is None
    assert model_from_config({"reflect": {"model": {"base_url": "http://x"}}}) is None
    model = model_from_config({"reflect": {"model": {"base_url": "http://x/v1", "model": "m", "retain": False}}})
    assert model == ChatModel("http://x/v1", "m", None, 30.0, True, False)


def test_embeddings_when_configured_blend_into_opinion_matching(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory.toml").write_text('[reflect]\nembeddings = true\n\n[embedding]\nprovider = "fake"\n')
    (root / "memory/2025-11-27.md").write_text(
        "# 2025-11-27\n\n## Retain\n- O(c=0.8) @Peter: Prefers tea over coffee.\n")
    (root / "memory/2025-11-28.md").write_text(
        "# 2025-11-28\n\n## Retain\n- O(c=0.8) @Peter: Prefers tea over coffee, again.\n")
    report = run(root)
    assert not report.notices and report.opinions == 1 and report.stats.reinforced


def test_embedding_similarity_is_a_cached_cosine() -> None:
    from workspace_memory.embed.fake import FakeEmbedder
    from workspace_memory.reflect.assist import embedding_similarity

    embedder = FakeEmbedder()
    sim = embedding_similarity(embedder)
    assert sim("likes tea", "likes tea") == pytest.approx(1.0)
    assert 0.0 <= sim("likes tea", "completely unrelated words") < 0.9
    calls = embedder.calls
    sim("likes tea", "likes tea")
    assert embedder.calls == calls


class StanceChat(JsonServer):
    """A scripted model that judges stances: "contradiction" for any pair, recording each question."""

    asked: list[str] = []

    def handle(self, handler: BaseHTTPRequestHandler, method: str, path: str, raw: bytes) -> None:
        body = json.loads(raw)
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        if "compare two opinions" in system:
            type(self).asked.append(user)
            content = "Contradiction."
        else:
            content = SUMMARY if "summarise" in system else RETAIN
        send_json(handler, 200, {"choices": [{"message": {"role": "assistant", "content": content}}]})


def test_a_configured_model_judges_the_pairs_the_rule_leaves_unclear(tmp_path: Path) -> None:
    StanceChat.asked = []
    srv = StanceChat()
    try:
        root = tmp_path / "ws"
        (root / "memory").mkdir(parents=True)
        (root / "memory.toml").write_text(f'[reflect.model]\nbase_url = "{srv.base_url}"\nmodel = "judge-test"\n'
                                          "summaries = false\nretain = false\n")
        (root / "memory/2025-11-25.md").write_text("# 2025-11-25\n\n## Retain\n- O(c=0.7) @Mara: Her code reviews "
                                                   "are sloppy.\n- O(c=0.7) @Sam: Rust is overhyped.\n")
        (root / "memory/2025-11-27.md").write_text("# 2025-11-27\n\n## Retain\n- O(c=0.8) @Mara: Her code reviews "
                                                   "are thorough.\n- O(c=0.8) @Sam: Rust is a good fit after all.\n")
        report = run(root)
        assert not report.notices, report.notices
        # Only the unclear pair went to the model; the rule decided the other (polarity).
        assert StanceChat.asked == ["First: Mara: Her code reviews are sloppy.\nSecond: Mara: Her code reviews "
                                    "are thorough."]
        page = (root / "bank/opinions.md").read_text()
        assert "(model judge-test: contrast: sloppy vs thorough)" in page
        assert "may contradict" not in page
        run(root)  # applied once: a second run asks nothing
        assert len(StanceChat.asked) == 1
    finally:
        srv.close()
