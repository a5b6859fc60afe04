"""The calibration of a model without fitted constants (embed/calibration.py), measured by `memory index`
on the workspace's own vectors and used by recall; against a real OpenAI-shaped server on 127.0.0.1
(tests/provider_servers.py: hashed bag-of-words vectors), through the installed CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import recall_ws as R
from conftest import run_memory
from provider_servers import ProviderServer, serving
from workspace_memory.embed import calibration
from workspace_memory.recall.semantic import COS_CEIL, COS_FLOOR, calibrate

KEY = "sk-cJ4nW7pX41b7"  # random, as real keys are (any 8-character piece of a key is blanked)


@pytest.fixture
def server() -> Iterator[ProviderServer]:
    with serving(KEY) as srv:
        yield srv


def workspace(root: Path, server: ProviderServer, dimensions: int = 48) -> Path:
    files = dict(R.FILES)
    # Enough entries to measure (calibration.MIN_ENTRIES): a log of distinct facts.
    files["memory/2025-11-20.md"] = "# 2025-11-20\n\n" + "".join(
        f"- Task {i}: the {w} report for {c} is due on day {i % 28 + 1}.\n"
        for i, (w, c) in enumerate((w, c) for w in ("budget", "travel", "hiring", "security", "audit", "design")
                                   for c in ("Vienna", "Lisbon", "Osaka", "Quito", "Accra")))
    return R.build(root, files=files, toml=(
        f'[embedding]\nprovider = "openai"\n\n[embedding.openai]\nbase_url = "{server.base("openai")}"\n'
        f'dimensions = {dimensions}\n'))


def mem(ws: Path, *args: str) -> dict:
    code, out, err = run_memory(ws, *args, "--json", now=R.NOW, env={"MEMORY_EMBED_PROVIDER": None, "OPENAI_API_KEY": KEY})
    assert code == 0, err
    return json.loads(out)


def records(ws: Path) -> dict:
    return json.loads((ws / ".memory" / calibration.FILE).read_text(encoding="utf-8"))


def test_index_measures_an_unseen_model_and_recall_uses_it(tmp_path: Path, server: ProviderServer) -> None:
    ws = workspace(tmp_path / "a", server)
    mem(ws, "index")
    [(identity, rec)] = records(ws).items()
    assert identity.startswith("openai/text-embedding-3-small/48")
    assert rec["entries"] == rec["workspace_entries"] >= calibration.MIN_ENTRIES
    assert (rec["floor"], rec["ceil"]) == calibration.derive(rec)
    # bag-of-words vectors: unrelated entries near 0 and a wide band, another scale than MiniLM's 0.2..1.6.
    assert rec["floor"] < COS_FLOOR and rec["ceil"] > COS_CEIL
    assert KEY not in (ws / ".memory" / calibration.FILE).read_text(encoding="utf-8")

    status = mem(ws, "status")["embedding_space"]["calibration"]
    assert status == {"source": "measured", "floor": rec["floor"], "ceil": rec["ceil"]}

    hits = mem(ws, "recall", "hiring report Osaka", "--mode", "semantic", "--explain")["results"]
    assert hits
    for hit in hits:
        channels = hit["explain"]["channels"]
        want = calibrate(channels["cosine"], (rec["floor"], rec["ceil"]))
        assert channels["vector"] == pytest.approx(want, abs=1e-3), hit
        if rec["floor"] + 0.01 < channels["cosine"]:  # where the two maps differ, the measured one is used
            assert channels["vector"] != pytest.approx(calibrate(channels["cosine"], (COS_FLOOR, COS_CEIL)), abs=1e-3)


def test_the_measurement_is_deterministic_and_kept_until_the_space_changes(tmp_path: Path,
                                                                           server: ProviderServer) -> None:
    a, b = workspace(tmp_path / "a", server), workspace(tmp_path / "b", server)
    mem(a, "index")
    mem(b, "index")
    assert records(a) == records(b), "the same entries and model give the same calibration"
    first = records(a)
    mem(a, "index")
    assert records(a) == first
    log = a / "memory" / "2025-11-20.md"
    log.write_text(log.read_text(encoding="utf-8") + "- One more task about the garden.\n", encoding="utf-8")
    mem(a, "index")
    assert records(a) == first, "a small change keeps the measurement"
    log.write_text(log.read_text(encoding="utf-8") + "".join(f"- Note {i}: bring {i} chairs to the hall.\n"
                                                             for i in range(12)), encoding="utf-8")
    mem(a, "index")
    [grown] = records(a).values()
    [before] = first.values()
    assert grown["workspace_entries"] > before["workspace_entries"] * 1.1, "more than 10% more entries: measured again"
    first = records(a)

    # Another model (here: another dimension, another space) is measured on its own; the old record stays.
    (a / "memory.toml").write_text((a / "memory.toml").read_text().replace("dimensions = 48", "dimensions = 24"))
    mem(a, "index")
    both = records(a)
    assert set(both) == set(first) | {next(iter(first)).replace("/48", "/24")}
    new = both[next(iter(first)).replace("/48", "/24")]
    assert new["random_pairs"] != next(iter(first.values()))["random_pairs"]


def test_a_model_with_fitted_constants_keeps_them() -> None:
    from workspace_memory.recall.semantic import calibration_of

    class Fitted:
        calibration = (0.0, 2.0)

    class Unseen:
        calibration = None

    assert calibration_of(Fitted(), (0.3, 1.1)) == (0.0, 2.0)  # type: ignore[arg-type]
    assert calibration_of(Unseen(), (0.3, 1.1)) == (0.3, 1.1)  # type: ignore[arg-type]
    assert calibration_of(Unseen(), None) == (COS_FLOOR, COS_CEIL)  # type: ignore[arg-type]


def test_the_rule_scales_with_the_models_band() -> None:
    """Two models that rank alike but spread their cosines differently get maps that agree on every
    pair of entries: the same calibrated value (what the rule is for)."""
    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(200, 32))
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    narrow = calibration.measure(vecs)
    wide_pairs = {k: 2 * v for k, v in narrow["random_pairs"].items()}
    floor_n, ceil_n = calibration.derive(narrow)
    floor_w, ceil_w = calibration.derive({"random_pairs": wide_pairs})
    assert ceil_w - floor_w == pytest.approx(2 * (ceil_n - floor_n), abs=1e-3)
    for cos in (0.1, 0.3, 0.5):
        assert calibrate(2 * cos, (floor_w, ceil_w)) == pytest.approx(calibrate(cos, (floor_n, ceil_n)), abs=1e-3)
    assert calibration.measure(vecs) == narrow
    assert calibration.sample_rows(list(range(10)), 4) == [0, 2, 5, 7]


def test_rows_of_zeros_are_left_out(tmp_path: Path) -> None:
    """Entries inside a vector window of a big file have no vector of their own (zeros): they must
    not pull the percentiles to 0 (which gave a ceiling of 0.006 and ranked every entry alike)."""
    rng = np.random.default_rng(3)
    real = rng.normal(size=(40, 16)).astype(np.float32)
    real /= np.linalg.norm(real, axis=1, keepdims=True)
    with_zeros = np.vstack([real, np.zeros((200, 16), np.float32)])
    alone = calibration.record(tmp_path / "a", "space", real, 40)
    mixed = calibration.record(tmp_path / "b", "space", with_zeros, 240)
    assert alone is not None and mixed is not None
    assert (mixed["floor"], mixed["ceil"]) == (alone["floor"], alone["ceil"])
    assert calibration.record(tmp_path / "c", "space", np.vstack([real[:10], with_zeros[40:]]), 210) is None
