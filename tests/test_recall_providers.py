"""Embedding providers as recall sees them, through the installed CLI and `memory.toml`:
remote (a real OpenAI-compatible server on 127.0.0.1), failing remotes, auto without a model, none."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

import recall_ws as R
from conftest import assert_one_line_error, disk_lines, needs_local, run_memory, run_ok
from http_fixtures import RecordingServer, closed_port, send_json

DIM = 64
API_KEY = "sk-recall-test-3f9a1c"
KEY_VAR = "RECALL_TEST_EMBED_KEY"
TOML_ENV: dict[str, str | None] = {"MEMORY_EMBED_PROVIDER": None}  # let memory.toml choose


def bag_of_words(text: str, dim: int = DIM) -> list[float]:
    """Hashed bag of lower-cased words: texts that share words are close (deliberately not normalised)."""
    vec = [0.0] * dim
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.sha256(word.encode()).digest()
        vec[int.from_bytes(digest[:4], "little") % dim] += 3.0 if digest[4] & 1 else -3.0
    return vec


class EmbeddingServer(RecordingServer):
    """POST /v1/embeddings in a thread; `mode` "ok" or "500"; `requests` records what arrived."""

    def answer(self, handler: BaseHTTPRequestHandler, path: str, body: dict) -> None:
        if self.mode == "500" or path != "/v1/embeddings":
            return send_json(handler, 500, {"error": {"message": "embedding model crashed"}})
        data = [{"object": "embedding", "index": i, "embedding": bag_of_words(t)}
                for i, t in enumerate(body["input"])]
        send_json(handler, 200, {"object": "list", "data": data[::-1], "model": body["model"]})


@pytest.fixture
def server() -> Iterator[EmbeddingServer]:
    srv = EmbeddingServer()
    yield srv
    srv.close()


def closed_port_url() -> str:
    return f"http://127.0.0.1:{closed_port()}/v1"


def remote_toml(base_url: str) -> str:
    return f"""\
[embedding]
provider = "remote"

[embedding.remote]
base_url = "{base_url}"
model = "bow-test-embed"
api_key_env = "{KEY_VAR}"
headers = {{ "X-Team" = "ops", "X-Trace" = "recall-suite" }}
timeout = 5
"""


def remote_ws(tmp_path: Path, base_url: str) -> Path:
    return R.build(tmp_path / "ws", toml=remote_toml(base_url))


REMOTE_ENV = TOML_ENV | {KEY_VAR: API_KEY}


def mem(ws: Path, *args: str, env: dict[str, str | None] | None = None) -> tuple[int, str, str]:
    return run_memory(ws, *args, now=R.NOW, env=REMOTE_ENV if env is None else env)


def assert_unavailable(code: int, out: str, err: str) -> str:
    line = assert_one_line_error(code, out, err)
    assert code == 3, (code, err)
    assert "unavailable" in line, line
    assert API_KEY not in out + err
    return line


# ------------------------------------------------------------------------------------------ remote


def test_remote_provider_end_to_end(tmp_path: Path, server: EmbeddingServer) -> None:
    ws = remote_ws(tmp_path, server.base_url)
    code, out, err = mem(ws, "index")
    assert code == 0, err
    indexed = len(server.requests)
    assert indexed >= 1
    code, out, err = mem(ws, "recall", "portal deploy rollback drill", "--mode", "hybrid", "--json", "--explain")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["mode"] == "hybrid" and answer["notices"] == []
    top = answer["results"][0]
    assert "rollback drill" in top["content"] and top["source"] == "memory/2025-12-02.md#L4"
    assert top["content"] in disk_lines(ws, top["path"])[top["start_line"] - 1]
    assert {"cosine", "vector", "lexical"} <= set(top["explain"]["channels"])
    assert top["explain"]["channels"]["cosine"] > 0.5
    assert all(0.0 <= h["score"] <= 1.0 for h in answer["results"])
    assert len(server.requests) > indexed, "the query was embedded by the server"
    embedded = [t for r in server.requests for t in r["body"]["input"]]
    assert "portal deploy rollback drill" in embedded
    assert any("invoice PDF layout" in t for t in embedded), "the entries were embedded by the server"
    for request in server.requests:
        assert request["path"] == "/v1/embeddings"
        assert request["body"]["model"] == "bow-test-embed"
        assert request["headers"]["Authorization"] == f"Bearer {API_KEY}"
        assert request["headers"]["X-Team"] == "ops" and request["headers"]["X-Trace"] == "recall-suite"
    assert API_KEY not in out + err


def test_remote_provider_from_the_environment(tmp_path: Path, server: EmbeddingServer) -> None:
    ws = R.build(tmp_path / "ws")  # no memory.toml
    env = {"MEMORY_EMBED_PROVIDER": "remote", "MEMORY_EMBED_BASE_URL": server.base_url,
           "MEMORY_EMBED_MODEL": "env-model"}
    assert mem(ws, "index", env=env)[0] == 0
    code, out, err = mem(ws, "recall", "invoice rounding bug", "--mode", "hybrid", "--json", env=env)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["mode"] == "hybrid" and "rounding bug" in answer["results"][0]["content"]
    assert server.requests and {r["body"]["model"] for r in server.requests} == {"env-model"}
    assert all("Authorization" not in r["headers"] for r in server.requests)


@pytest.mark.parametrize("mode", [None, "auto", "hybrid", "semantic"])
def test_remote_that_starts_failing_is_an_error_not_a_downgrade(tmp_path: Path, server: EmbeddingServer,
                                                                mode: str | None) -> None:
    ws = remote_ws(tmp_path, server.base_url)
    assert mem(ws, "index")[0] == 0
    server.mode = "500"
    args = ("--mode", mode) if mode else ()
    line = assert_unavailable(*mem(ws, "recall", "portal deploy", "--json", *args))
    assert "500" in line


def test_remote_failing_at_index_time(tmp_path: Path, server: EmbeddingServer) -> None:
    server.mode = "500"
    ws = remote_ws(tmp_path, server.base_url)
    line = assert_unavailable(*mem(ws, "index"))
    assert "500" in line


@pytest.mark.parametrize("command", [("index",), ("recall", "portal deploy", "--json"),
                                     ("recall", "portal deploy", "--json", "--mode", "hybrid")])
def test_remote_on_a_closed_port(tmp_path: Path, command: tuple[str, ...]) -> None:
    ws = remote_ws(tmp_path, closed_port_url())
    line = assert_unavailable(*mem(ws, *command))
    assert "refused" in line


def test_explicit_lexical_mode_does_not_touch_the_remote(tmp_path: Path, server: EmbeddingServer) -> None:
    ws = remote_ws(tmp_path, server.base_url)
    assert mem(ws, "index")[0] == 0
    server.mode, server.requests[:] = "500", []
    code, out, err = mem(ws, "recall", "portal deploy", "--json", "--mode", "lexical")
    assert code == 0, err
    assert json.loads(out)["mode"] == "lexical" and server.requests == []


# ------------------------------------------------------------------------------------------ auto and none


@pytest.mark.parametrize("toml", [
    '[embedding]\nmodel = "no-such-model"\n',
    '[embedding]\nprovider = "auto"\nmodel = "no-such-model"\n',
])
@needs_local
def test_auto_without_a_model_is_lexical_and_says_why(tmp_path: Path, toml: str) -> None:
    ws = R.build(tmp_path / "ws", toml=toml)
    run_ok(ws, "index", now=R.NOW, env=TOML_ENV)
    answer = json.loads(run_ok(ws, "recall", "invoice rounding bug", "--json", now=R.NOW, env=TOML_ENV))
    assert answer["mode"] == "lexical"
    assert "rounding bug" in answer["results"][0]["content"]
    assert any("no-such-model" in n and "lexical" in n for n in answer["notices"]), answer["notices"]
    status = json.loads(run_ok(ws, "status", "--json", now=R.NOW, env=TOML_ENV))
    assert status["modes"] == ["lexical"]
    assert not (ws / ".memory" / "vectors").exists() or not list((ws / ".memory" / "vectors").glob("*.hnsw"))


@needs_local
def test_auto_without_a_model_refuses_an_explicit_semantic_mode(tmp_path: Path) -> None:
    ws = R.build(tmp_path / "ws", toml='[embedding]\nmodel = "no-such-model"\n')
    code, out, err = run_memory(ws, "recall", "invoice", "--json", "--mode", "hybrid", now=R.NOW, env=TOML_ENV)
    line = assert_unavailable(code, out, err)
    assert "no-such-model" in line


@pytest.mark.parametrize("mode", ["hybrid", "semantic"])
@pytest.mark.parametrize("where", ["config", "env"])
def test_provider_none_refuses_semantic_modes(tmp_path: Path, mode: str, where: str) -> None:
    if where == "config":
        ws, env = R.build(tmp_path / "ws", toml='[embedding]\nprovider = "none"\n'), TOML_ENV
    else:
        ws, env = R.build(tmp_path / "ws", toml=R.FAKE_TOML), {"MEMORY_EMBED_PROVIDER": "none"}  # env wins
    code, out, err = run_memory(ws, "recall", "invoice", "--json", "--mode", mode, now=R.NOW, env=env)
    line = assert_unavailable(code, out, err)
    assert "none" in line
    lexical = json.loads(run_ok(ws, "recall", "invoice", "--json", now=R.NOW, env=env))
    assert lexical["mode"] == "lexical" and lexical["results"]


def test_unknown_provider_is_a_config_error(tmp_path: Path) -> None:
    ws = R.build(tmp_path / "ws", toml='[embedding]\nprovider = "telepathy"\n')
    code, out, err = run_memory(ws, "recall", "invoice", "--json", now=R.NOW, env=TOML_ENV)
    line = assert_one_line_error(code, out, err)
    assert "telepathy" in line and "memory.toml" in line
