"""A provider's key never leaves the engine: checked when read, blanked (whole and in pieces)
before any cut, never sent on a redirect or to another origin.

The hostile provider corpus (benchmarks/hostile_provider.py) runs here on loopback: each scenario
runs the real `memory` commands (and a `memory mcp` search for some) against a server that echoes
the key every way it can, then searches every byte printed or written under the workspace for
any 8-character piece of the key. `python benchmarks/reliability.py providers` runs every
behaviour with both keys and prints the figures of docs/reliability.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import hostile_provider as corpus
from workspace_memory import secrecy
from workspace_memory.embed import EmbeddingConfig, resolve_embedder
from workspace_memory.endpoints import EndpointError, JsonEndpoint
from workspace_memory.errors import ProviderUnavailable


@pytest.fixture(autouse=True)
def _no_secrets_between_tests():
    yield
    secrecy.forget_all()


@pytest.mark.parametrize(("behaviour", "key", "fallback", "mcp", "breaker"), corpus.CI_SCENARIOS,
                         ids=[f"{b}-{k}{'' if f else '-nofallback'}{'-breaker' if r else ''}"
                              for b, k, f, _, r in corpus.CI_SCENARIOS])
def test_a_hostile_provider_gets_no_piece_of_the_key_out(tmp_path: Path, behaviour: str, key: str,
                                                         fallback: bool, mcp: bool, breaker: bool) -> None:
    report = corpus.run_scenario(tmp_path, behaviour, key, fallback=fallback, mcp=mcp, breaker=breaker)
    assert report["leaks"] == [], report["leaks"]
    assert report["requests_to_another_origin"] == 0
    assert report["bad_exits"] == [], report["commands"]
    assert report["places_searched"] >= 15 and report["bytes_searched"] > 100_000  # the SQLite files too
    if behaviour == "key-with-cr":
        assert report["requests"] == 0  # the key never reached a header
    if behaviour.startswith("redirect"):
        assert report["requests"] >= 1  # asked once, the redirect not followed
    if breaker:  # the index's failure opened it, and its state file (holding the reason) was searched too
        assert ".memory/breaker.json" in report["places"]
    if not fallback:  # with a fallback recall starts from the space the index recorded, the fallback's
        assert report["requests"] >= 3  # index and both recalls met the server's answer


def test_a_key_with_a_trailing_cr_is_one_line_naming_the_variable_and_the_fallback_runs(tmp_path: Path) -> None:
    key = corpus.KEYS["long"]
    with corpus.hostile("echo-json", key) as provider:
        ws = corpus.make_workspace(tmp_path / "ws", provider.base_url, fallback=True)
        table = {"provider": "openai", "fallback": ["fake"], "openai": {"base_url": provider.base_url}}
        cfg = EmbeddingConfig.from_mapping(table, {"OPENAI_API_KEY": key + "\r"})
        with pytest.raises(ProviderUnavailable) as info:
            resolve_embedder(cfg, ws / ".memory")
        assert provider.server.requests == []
    message = str(info.value)
    assert message == ("openai embeddings unavailable: the key in OPENAI_API_KEY holds a carriage return (CR) "
                       "(at its end); a key is one printable word: set OPENAI_API_KEY again without it")
    assert cfg.chain == ("openai", "fake")


@pytest.mark.parametrize(("value", "said"), [
    ("sk-abc def", "a space (inside it)"), ("sk-abc\n", "a newline (at its end)"),
    ("sk-abc\u200bdef", "the control character U+200B (inside it)"),
    ("sk-abc\u2019def", "a character outside ASCII (U+2019) (inside it)"), ("\tsk-abc", "a tab (inside it)"),
])
def test_a_key_that_cannot_travel_in_a_header_is_named_never_shown(value: str, said: str) -> None:
    problem = secrecy.key_problem(value, "MY_KEY")
    assert problem is not None and said in problem and "MY_KEY" in problem
    assert "sk-abc" not in problem
    assert secrecy.key_problem("sk-abc_DEF-123", "MY_KEY") is None


def test_a_header_with_a_line_break_is_refused_by_name(tmp_path: Path) -> None:
    table = {"provider": "remote", "remote": {"base_url": "http://127.0.0.1:9/v1", "model": "m",
                                              "headers": {"X-Api-Key": "s3cr3t-token-value\r\n"}}}
    with pytest.raises(ValueError) as info:
        EmbeddingConfig.from_mapping(table, {})
    assert str(info.value) == "the value of [embedding.remote] headers.X-Api-Key holds a carriage return (CR) (at its end)"


def test_every_piece_of_eight_characters_or_more_is_blanked_before_a_cut() -> None:
    key = corpus.make_key(164)
    secrecy.register(key)
    text = f"a: {key[:100]} b: {key[30:38]} c: {key[-9:]} d: {key[:7]} e: {key}"
    out = secrecy.blank(text)
    assert out == "a: [key] b: [key] c: [key] d: sk-proj e: [key]"
    assert corpus.leaks({"out": out.encode()}, key) == []
    assert secrecy.blank_data({"fallback_reason": f"x {key} y", "n": [key[5:20]], 3: 1}) == \
        {"fallback_reason": "x [key] y", "n": ["[key]"], 3: 1}


def test_short_keys_are_blanked_whole_and_tiny_ones_are_not_secrets() -> None:
    secrecy.register("k3y9z")
    secrecy.register("ab")
    assert secrecy.blank("key k3y9z and ab") == "key [key] and ab"


def test_a_long_echoed_error_body_is_blanked_before_it_is_cut(tmp_path: Path) -> None:
    key = corpus.make_key(164)
    with corpus.hostile("echo-json", key) as provider:
        endpoint = JsonEndpoint(provider.base_url, api_key=key, timeout=5)
        with pytest.raises(EndpointError) as info:
            endpoint.post("embeddings", {"input": ["x"]})
    assert str(info.value).startswith("HTTP 401 Unauthorized: Incorrect API key provided: [key]. You can find")
    assert corpus.leaks({"error": str(info.value).encode()}, key) == []


@pytest.mark.parametrize("behaviour", ["redirect-elsewhere", "redirect-same-origin"])
def test_a_redirect_is_not_followed_and_says_where_it_pointed(behaviour: str) -> None:
    key = corpus.make_key(40)
    with corpus.hostile(behaviour, key) as provider:
        endpoint = JsonEndpoint(provider.base_url, api_key=key, timeout=5)
        with pytest.raises(EndpointError) as info:
            endpoint.post("embeddings", {"input": ["x"]})
        assert provider.elsewhere.requests == [] and len(provider.server.requests) == 1
        port = provider.elsewhere_port if behaviour == "redirect-elsewhere" else provider.server.port
    assert str(info.value) == (f"HTTP {302 if behaviour == 'redirect-elsewhere' else 307}: the server redirects to "
                               f"http://127.0.0.1:{port}; redirects are not followed (a request carries the key): "
                               "set base_url to the address it names")
    assert info.value.status in (302, 307)


def test_a_request_never_leaves_the_configured_origin() -> None:
    with corpus.hostile("echo-json", "sk-whatever-0000") as provider:
        endpoint = JsonEndpoint(provider.base_url, api_key="sk-whatever-0000", timeout=5)
        for path in ("//127.0.0.1:9/steal", "/@127.0.0.2:9/x"):
            try:
                endpoint.post(path, {})
            except EndpointError as exc:
                assert "leaves base_url" in str(exc) or "HTTP 401" in str(exc)
        assert provider.elsewhere.requests == []
        assert all(r["path"].startswith("/v1/") for r in provider.server.requests)


def test_an_old_embedding_record_holding_a_key_is_blanked_when_shown(tmp_path: Path) -> None:
    from workspace_memory.embed.chain import describe

    key = corpus.make_key(164)
    state = tmp_path / ".memory"
    state.mkdir()
    (state / "embedding.json").write_text(json.dumps({
        "space": "fake/hash-trigram/64", "provider": "fake", "model": "hash-trigram", "dim": 64,
        "fallback_reason": f"openai embeddings unavailable: HTTP 401: {key[:132]}", "tokens": {}}))
    cfg = EmbeddingConfig.from_mapping({"provider": "openai", "fallback": ["fake"]}, {"OPENAI_API_KEY": key})
    embedder, _ = resolve_embedder(cfg.with_provider("fake"), state)
    shown = describe(cfg, embedder, state)
    assert shown["fallback_reason"] == "openai embeddings unavailable: HTTP 401: [key]"


def test_auto_remote_chooses_a_provider_whose_key_is_set_but_broken_and_says_why() -> None:
    cfg = EmbeddingConfig.from_mapping({"provider": "auto-remote"}, {"OPENAI_API_KEY": "sk-abcdefgh1234\r"})
    assert cfg.provider == "openai" and cfg.remote_config("openai").api_key is None
    assert cfg.remote_config("openai").key_problem.startswith("the key in OPENAI_API_KEY holds a carriage return")
