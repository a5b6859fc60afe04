"""`[embedding]` settings: defaults, the TOML table, environment overrides, and clear errors."""

from __future__ import annotations

import pytest

from workspace_memory.embed import EmbeddingConfig


def test_defaults_are_auto_with_the_packaged_model():
    cfg = EmbeddingConfig.from_mapping({}, {})
    assert (cfg.provider, cfg.model, cfg.batch_size) == ("auto", "use-multilingual-v3", 32)
    assert not cfg.explicit
    assert cfg.remote.base_url == "" and cfg.remote.headers == {} and cfg.remote.dimensions is None


def test_reads_the_remote_table_and_the_key_from_the_named_variable():
    table = {
        "provider": "remote",
        "batch_size": 8,
        "remote": {
            "base_url": "http://127.0.0.1:8080/v1/",
            "model": "nomic-embed-text",
            "api_key_env": "MY_KEY",
            "headers": {"X-Team": "ops"},
            "timeout": 5,
            "dimensions": 256,
        },
    }
    cfg = EmbeddingConfig.from_mapping(table, {"MY_KEY": "sekrit"})
    assert cfg.explicit and cfg.provider == "remote" and cfg.batch_size == 8
    r = cfg.remote
    assert r.base_url == "http://127.0.0.1:8080/v1"  # trailing slash dropped
    assert (r.model, r.api_key_env, r.api_key, r.headers) == (
        "nomic-embed-text",
        "MY_KEY",
        "sekrit",
        {"X-Team": "ops"},
    )
    assert (r.timeout, r.dimensions) == (5.0, 256)
    assert "sekrit" not in repr(cfg)  # the key never reaches a log line


def test_environment_overrides_the_file():
    env = {
        "MEMORY_EMBED_PROVIDER": "REMOTE",
        "MEMORY_EMBED_MODEL": "bge-small",
        "MEMORY_EMBED_BASE_URL": "http://10.0.0.2:11434/v1",
    }
    cfg = EmbeddingConfig.from_mapping(
        {"provider": "none", "remote": {"model": "x", "base_url": "http://a/v1"}}, env
    )
    assert cfg.provider == "remote"
    assert cfg.model == cfg.remote.model == "bge-small"
    assert cfg.remote.base_url == "http://10.0.0.2:11434/v1"


def test_unknown_provider_is_a_clear_value_error():
    with pytest.raises(
        ValueError, match=r"unknown embedding provider 'cohere'.*auto, auto-remote, local, openai, gemini, voyage, "
        r"mistral, ollama, remote, none, fake"
    ):
        EmbeddingConfig.from_mapping({"provider": "cohere"}, {})
    with pytest.raises(ValueError, match="unknown embedding provider"):
        EmbeddingConfig.from_mapping({}, {"MEMORY_EMBED_PROVIDER": "bogus"})


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"batch_size": 0}, "batch_size must be a positive number"),
        ({"batch_size": True}, "batch_size must be a positive number"),
        ({"remote": {"timeout": "soon"}}, "timeout must be a positive number"),
        ({"remote": {"dimensions": -3}}, "dimensions must be a positive number"),
        ({"remote": {"headers": ["a"]}}, "headers must be a table"),
        ({"remote": "http://x"}, r"\[embedding.remote\] must be a table"),
    ],
)
def test_bad_values_name_the_key(table, message):
    with pytest.raises(ValueError, match=message):
        EmbeddingConfig.from_mapping(table, {})
