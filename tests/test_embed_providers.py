"""The remote providers in their native shapes, against a real server on 127.0.0.1 (provider_servers):
shapes, query/document, keys, splitting to limits, retries (429 + Retry-After, 5xx), timeouts,
malformed answers, a rejected key that is never repeated, and `auto-remote`."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from provider_servers import DIM, ProviderServer, bag_of_words, dim_for, serving
from workspace_memory.embed import EmbeddingConfig, resolve_embedder
from workspace_memory.errors import ProviderTimeout, ProviderUnavailable
from workspace_memory.tokens import estimate_tokens

KEY = "sk-pR3dK9mZ7d1e"  # random, as real keys are (any 8-character piece of a key is blanked)
KEY_VAR = "WM_PROVIDER_TEST_KEY"


@pytest.fixture
def server() -> Iterator[ProviderServer]:
    with serving(KEY) as srv:
        yield srv


def embedder(server: ProviderServer, provider: str, env: dict[str, str] | None = None, **table: object):
    table = {"base_url": server.base(provider), "api_key_env": KEY_VAR, **table}
    if provider == "remote":
        table.setdefault("model", "served-model")
    cfg = EmbeddingConfig.from_mapping({"provider": provider, provider: table}, {KEY_VAR: KEY} if env is None else env)
    emb, notices = resolve_embedder(cfg, None)  # type: ignore[arg-type] - remote providers keep no state
    assert notices == []
    return emb


def unit(vectors: list[list[float]]) -> np.ndarray:
    arr = np.asarray(vectors, dtype=np.float32)
    return arr / np.linalg.norm(arr, axis=-1, keepdims=True)


# What each provider must send: (path of a document request, of a query request, body checks).
SHAPES = {
    "openai": ("/v1/embeddings", "/v1/embeddings",
               lambda b, kind: b["model"] == "text-embedding-3-small" and b["dimensions"] == DIM
               and b["encoding_format"] == "float"),
    "gemini": ("/v1beta/models/gemini-embedding-001:batchEmbedContents",
               "/v1beta/models/gemini-embedding-001:embedContent",
               lambda b, kind: all(r["taskType"] == ("RETRIEVAL_QUERY" if kind == "query" else "RETRIEVAL_DOCUMENT")
                                   and r["outputDimensionality"] == DIM for r in b.get("requests", [b]))),
    "voyage": ("/v1/embeddings", "/v1/embeddings",
               lambda b, kind: b["model"] == "voyage-3.5" and b["input_type"] == kind and b["output_dimension"] == DIM),
    "mistral": ("/v1/embeddings", "/v1/embeddings", lambda b, kind: b["model"] == "mistral-embed"),
    "ollama": ("/api/embed", "/api/embed", lambda b, kind: b["model"] == "nomic-embed-text" and b["truncate"] is True),
    "remote": ("/v1/embeddings", "/v1/embeddings", lambda b, kind: b["model"] == "served-model"),
}


@pytest.mark.parametrize("provider", list(SHAPES))
def test_each_provider_speaks_its_native_shape(server, provider):
    dims = {} if provider in ("mistral", "ollama", "remote") else {"dimensions": DIM}
    emb = embedder(server, provider, **dims)
    dim = dim_for(emb.model, dims.get("dimensions"))
    texts = ["invoice rounding bug", "Peter moved to London", ""]
    docs = emb.embed_documents(texts)
    np.testing.assert_allclose(docs, unit([bag_of_words(t or " ", dim) for t in texts]), rtol=1e-5)
    query = emb.embed_query("where does Peter live")
    np.testing.assert_allclose(query, unit([bag_of_words("where does Peter live", dim)])[0], rtol=1e-5)
    doc_path, query_path, check = SHAPES[provider]
    assert server.paths() == [doc_path, query_path]
    assert check(server.requests[0]["body"], "document") and check(server.requests[1]["body"], "query")
    headers = {k.lower(): v for k, v in server.requests[0]["headers"].items()}
    if provider == "gemini":  # the key travels in its header, never in the URL
        assert headers["x-goog-api-key"] == KEY and "authorization" not in headers and KEY not in doc_path
    else:
        assert headers["authorization"] == f"Bearer {KEY}"
    assert emb.identity() == f"{provider}/{emb.model}/{dim}"
    assert emb.texts_sent == 4 and emb.tokens > 0


def test_keys_come_from_each_providers_usual_variable(server):
    for provider, var in (("openai", "OPENAI_API_KEY"), ("gemini", "GOOGLE_API_KEY"), ("voyage", "VOYAGE_API_KEY"),
                          ("mistral", "MISTRAL_API_KEY")):
        cfg = EmbeddingConfig.from_mapping({"provider": provider, provider: {"base_url": server.base(provider)}},
                                           {var: KEY})
        assert cfg.remote_config(provider).api_key_from == var
        emb, _ = resolve_embedder(cfg, None)  # type: ignore[arg-type]
        emb.embed_query("hello")
    assert len(server.requests) == 4  # every key was accepted
    with pytest.raises(ProviderUnavailable, match=r"gemini embeddings unavailable: no API key \(set GEMINI_API_KEY "
                                                  r"or GOOGLE_API_KEY"):
        resolve_embedder(EmbeddingConfig.from_mapping({"provider": "gemini"}, {}), None)  # type: ignore[arg-type]


def test_auto_remote_is_openais_order_and_opt_in():
    pick = lambda env: EmbeddingConfig.from_mapping({"provider": "auto-remote"}, env).provider  # noqa: E731
    assert pick({"OPENAI_API_KEY": "a", "GEMINI_API_KEY": "b"}) == "openai"
    assert pick({"GEMINI_API_KEY": "b"}) == "gemini"
    assert pick({}) == "auto"
    assert EmbeddingConfig.from_mapping({}, {"OPENAI_API_KEY": "a"}).provider == "auto"  # auto stays local


def test_requests_are_split_to_the_providers_limits(server):
    emb = embedder(server, "gemini", dimensions=DIM)
    emb.embed_documents([f"note {i}" for i in range(250)])
    assert [len(r["body"]["requests"]) for r in server.requests] == [100, 100, 50]  # batchEmbedContents: 100

    server.requests.clear()
    emb = embedder(server, "mistral")
    long = "word " * 2000  # ~2,500 tokens each by our estimate
    emb.embed_documents([long] * 15 + ["x" * 60_000])
    per_request = [sum(estimate_tokens(t) for t in r["body"]["input"]) for r in server.requests]
    assert len(server.requests) > 2 and max(per_request) <= emb.wire.max_request_tokens
    assert sum(len(r["body"]["input"]) for r in server.requests) == 16
    cut = server.requests[-1]["body"]["input"][-1]
    assert estimate_tokens(cut) <= emb.wire.max_text_tokens < estimate_tokens("x" * 60_000)


def spent(emb) -> tuple[list[float], list[float]]:
    """The time the embedder gives away, as it says it: each request's timeout, and each wait between
    tries (recorded, then slept). Their sum is what a call can cost, whatever the machine's load."""
    timeouts: list[float] = []
    waits: list[float] = []
    post, sleep = emb._endpoint.post, emb._sleep

    def timed_post(path, payload, *, timeout=None):
        timeouts.append(timeout)
        return post(path, payload, timeout=timeout)

    emb._endpoint.post = timed_post
    emb._sleep = lambda seconds: (waits.append(seconds), sleep(seconds))
    return timeouts, waits


ROUNDING = 0.05  # a request is given at least 0.05 s (embed.remote.RemoteEmbedder.call)


def test_429_waits_for_retry_after_then_succeeds(server):
    server.script, server.retry_after = [429], "0.4"
    emb = embedder(server, "openai", dimensions=DIM)
    _, waits = spent(emb)
    assert emb.embed_documents(["a", "b"]).shape == (2, DIM)
    assert waits == [0.4] and len(server.requests) == 2


def test_500_is_retried_with_backoff_then_succeeds(server):
    server.script = [500, 503]
    emb = embedder(server, "voyage", dimensions=DIM)
    _, waits = spent(emb)
    assert emb.embed_query("a").shape == (DIM,)
    assert len(server.requests) == 3 and waits == [0.5, 1.0]  # 0.5 s, then 1 s


def test_retries_end_with_the_reason_and_the_attempts(server):
    server.dead = True
    emb = embedder(server, "mistral", retries=1)
    with pytest.raises(ProviderUnavailable, match=r"HTTP 500 .*upstream overloaded \(after 2 attempts\)"):
        emb.embed_documents(["a"])
    assert len(server.requests) == 2


def test_a_retry_after_past_the_budget_is_not_waited_for(server):
    server.script, server.retry_after = [429], "90"
    emb = embedder(server, "openai", dimensions=DIM)
    timeouts, waits = spent(emb)
    with pytest.raises(ProviderTimeout, match="asks to wait 90s"):
        emb.embed_documents(["a"])
    assert len(server.requests) == 1 and len(timeouts) == 1 and waits == []  # refused, never waited for


def test_a_request_that_hangs_times_out_and_the_total_bounds_the_retries(server):
    server.script, server.hang_seconds = ["hang", "hang", "hang", "hang"], 1.5
    emb = embedder(server, "ollama", timeout=0.3, total_timeout=1.2)
    timeouts, waits = spent(emb)
    with pytest.raises(ProviderTimeout, match="timed out after 0.3s"):
        emb.embed_documents(["a"])
    assert timeouts and max(timeouts) <= 0.3
    assert sum(timeouts) + sum(waits) <= 1.2 + ROUNDING * len(timeouts)  # the total bounds it all


def test_the_question_has_its_own_short_deadline(server):
    server.slow_queries = 1.5
    emb = embedder(server, "gemini", dimensions=DIM, query_timeout=0.4)
    timeouts, waits = spent(emb)
    with pytest.raises(ProviderTimeout):
        emb.embed_query("where does Peter live")
    assert timeouts and sum(timeouts) + sum(waits) <= 0.4 + ROUNDING * len(timeouts)  # not total_timeout


def test_malformed_json_is_unavailable_without_retrying(server):
    server.script = ["badjson"]
    with pytest.raises(ProviderUnavailable, match="not valid JSON"):
        embedder(server, "openai", dimensions=DIM).embed_documents(["a"])
    assert len(server.requests) == 1


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_a_rejected_key_is_not_retried_and_never_repeated(server, provider):
    emb = embedder(server, provider, env={KEY_VAR: "sk-wrong-key-55aa"}, dimensions=DIM)
    with pytest.raises(ProviderUnavailable) as info:
        emb.embed_documents(["a"])
    message = str(info.value)
    assert "key rejected (HTTP 401" in message and "sk-wrong-key-55aa" not in message and "[key]" in message
    assert len(server.requests) == 1
    assert "sk-wrong-key-55aa" not in repr(emb) + repr(EmbeddingConfig.from_mapping(
        {"provider": provider}, {KEY_VAR: "sk-wrong-key-55aa"}))
