"""Remote provider against a real OpenAI-compatible HTTP server started on 127.0.0.1 by the test."""

from __future__ import annotations

import hashlib
import socket
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import numpy as np
import pytest

from http_fixtures import RecordingServer, closed_port, send_json
from workspace_memory.embed import EmbeddingConfig, resolve_embedder
from workspace_memory.embed.remote import RemoteEmbedder
from workspace_memory.errors import ProviderUnavailable

DIM = 8


def server_vector(text: str, dim: int = DIM) -> list[float]:
    """What the test server returns for a text: deterministic and deliberately not normalised."""
    digest = hashlib.sha256(text.encode()).digest()
    return [float(b) - 100.0 for b in digest[:dim]]


class EmbeddingServer(RecordingServer):
    """POST /v1/embeddings; `mode` picks a behaviour, `requests` records what arrived."""

    def answer(self, handler: BaseHTTPRequestHandler, path: str, body: dict) -> None:
        if self.mode == "500":
            return send_json(handler, 500, {"error": {"message": "model crashed\nwhile loading"}})
        if self.mode == "badjson":
            return send_json(handler, 200, b"{not json")
        inputs = body["input"]
        dim = body.get("dimensions", DIM)
        data = [
            {"object": "embedding", "index": i, "embedding": server_vector(t, dim)}
            for i, t in enumerate(inputs)
        ]
        data.reverse()  # the protocol allows any order; clients must use `index`
        if self.mode == "short":
            data = data[:-1]
        if self.mode == "ragged":
            data[0]["embedding"] = data[0]["embedding"][:-1]
        send_json(handler, 200, {"object": "list", "data": data, "model": body["model"]})


@pytest.fixture
def server() -> Iterator[EmbeddingServer]:
    srv = EmbeddingServer()
    yield srv
    srv.close()


def test_embeds_in_batches_restores_order_and_normalises(server):
    emb = RemoteEmbedder(server.base_url, "nomic-embed-text", batch_size=3)
    texts = [f"text number {i}" for i in range(7)]
    out = emb.embed_documents(texts)
    assert out.shape == (7, DIM) and out.dtype == np.float32
    expected = np.array([server_vector(t) for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    assert [len(r["body"]["input"]) for r in server.requests] == [3, 3, 1]
    assert {r["path"] for r in server.requests} == {"/v1/embeddings"}
    assert all(r["body"]["model"] == "nomic-embed-text" for r in server.requests)
    assert emb.dim == DIM and len(server.requests) == 3  # dim learned, no extra probe
    assert emb.identity() == f"remote/nomic-embed-text/{DIM}"
    np.testing.assert_allclose(emb.embed_query("text number 3"), expected[3], rtol=1e-6)


def test_api_key_from_env_and_extra_headers_arrive(server, tmp_path):
    table = {
        "provider": "remote",
        "batch_size": 2,
        "remote": {
            "base_url": server.base_url,
            "model": "m",
            "api_key_env": "WM_TEST_EMBED_KEY",
            "headers": {"X-Team": "ops"},
            "dimensions": 4,
        },
    }
    cfg = EmbeddingConfig.from_mapping(table, {"WM_TEST_EMBED_KEY": "sk-test-123"})
    emb, notices = resolve_embedder(cfg, tmp_path)
    assert notices == [] and emb.dim == 4 and server.requests == []  # configured dim: no probe
    assert emb.embed_documents(["a", "b", "c"]).shape == (3, 4)
    headers = server.requests[0]["headers"]
    assert headers["Authorization"] == "Bearer sk-test-123"
    assert headers["X-Team"] == "ops"
    assert server.requests[0]["body"]["dimensions"] == 4
    assert len(server.requests) == 2


def test_dim_is_probed_lazily_when_not_configured(server):
    emb = RemoteEmbedder(server.base_url, "m")
    assert server.requests == []
    assert emb.dim == DIM
    assert len(server.requests) == 1
    assert emb.embed_documents([]).shape == (0, DIM)


def test_empty_text_is_sent_as_a_blank(server):
    emb = RemoteEmbedder(server.base_url, "m")
    emb.embed_documents(["", "x"])
    assert server.requests[0]["body"]["input"] == [" ", "x"]


def test_http_500_is_unavailable_with_the_servers_message_on_one_line(server):
    server.mode = "500"
    emb = RemoteEmbedder(server.base_url, "m")
    with pytest.raises(ProviderUnavailable) as info:
        emb.embed_query("hello")
    msg = str(info.value)
    assert msg.startswith(f"remote embeddings unavailable: {server.base_url}: HTTP 500")
    assert "model crashed while loading" in msg and "\n" not in msg


@pytest.mark.parametrize(
    ("mode", "message"),
    [("badjson", "not valid JSON"), ("short", "expected 2 embeddings, got 1"), ("ragged", "equal-length")],
)
def test_malformed_answers_are_unavailable(server, mode, message):
    server.mode = mode
    with pytest.raises(ProviderUnavailable, match=message):
        RemoteEmbedder(server.base_url, "m").embed_documents(["a", "b"])


def test_wrong_dimension_is_unavailable(server):
    emb = RemoteEmbedder(server.base_url, "m", dimensions=16)
    server_dims = server.requests  # the server ignores nothing: ask for 16, answer 16
    assert emb.embed_documents(["a"]).shape == (1, 16) and server_dims
    emb._dim = 12  # as if the server had been swapped for one serving another size
    with pytest.raises(ProviderUnavailable, match="expected dimension 12, got 16"):
        emb.embed_documents(["a"])


def test_closed_port_is_connection_refused():
    base = f"http://127.0.0.1:{closed_port()}/v1"
    with pytest.raises(ProviderUnavailable) as info:
        RemoteEmbedder(base, "m", timeout=2).embed_query("hello")
    assert str(info.value) == f"remote embeddings unavailable: {base}: connection refused"


def test_timeout_is_reported(server):
    # A listening socket that never answers.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        base = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
        with pytest.raises(ProviderUnavailable, match="timed out after 0.3s"):
            RemoteEmbedder(base, "m", timeout=0.3).embed_query("hello")
