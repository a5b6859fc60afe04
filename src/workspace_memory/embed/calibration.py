"""A cosine calibration for a model the engine has never seen, measured on the workspace's own vectors.

Recall maps a cosine to 0..1 with the model's (floor, ceiling) (recall/semantic.py). The local
models have constants fitted on LoCoMo; a remote model (text-embedding-3-small, gemini-embedding-001,
voyage-3.5, ...) has none, and its cosines live on a scale of their own: one model puts unrelated
texts near 0.1, another near 0.4 and squeezes everything into a band of 0.2.

So `memory index` measures the space it just filled: the cosines of every pair of a sample of
the workspace's entries (a deterministic spread over the entries, by id) say where "unrelated" lies
and how wide the model's band is:

    floor = P_FLOOR (1st) percentile of the random-pair cosines
    ceil  = floor + WIDTH x (90th - 10th percentile of the random-pair cosines)

The width matters most: hybrid recall adds 0.7 x vector + 0.3 x lexical, so the slope
1 / (ceil - floor) decides how much a cosine difference counts against exact wording, and a
model with a narrow band needs a steep map. The floor only clips the unrelated tail. The two
parameters were fitted on one half of LoCoMo and checked on the other, for both local models
treated as unseen (docs/embeddings.md, "Calibration for a model the engine has never seen").

The measurement is stored per space (the embedder's identity) in `.memory/calibration.json`, with
the statistics it came from; recall reads it for a model without fitted constants. It is measured
again when the space changes (another model, provider or dimension) or when the number of entries
has moved by more than RE_MEASURE since. Names and numbers only: no text, no key, no URL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..files import read_json_object, write_json_object

FILE = "calibration.json"
SAMPLE = 1000  # entries measured: 499,500 pairs, ~0.1 s; more moved the percentiles by < 0.005 on LoCoMo
MIN_ENTRIES = 20  # below this the percentiles are noise: recall keeps the default calibration
P_FLOOR = 1.0  # fitted on LoCoMo half A (see the module docstring): 1 beat 10 and 50 there
WIDTH = 6.0  # likewise
RE_MEASURE = 0.10  # measure again when the entry count moved by more than this share
PERCENTILES = (1, 10, 50, 90, 99)
VERSION = 1  # of the statistics; another version is measured again
RULE = f"floor p{P_FLOOR:g}, width {WIDTH:g} x (p90 - p10)"  # stored: a record of another rule is measured again


def measure(vectors: np.ndarray) -> dict[str, Any]:
    """The statistics of a sample of unit vectors (rows): random-pair and nearest-neighbour
    cosine percentiles. Deterministic for the same rows."""
    vecs = np.asarray(vectors, dtype=np.float64)
    sims = vecs @ vecs.T
    pairs = sims[np.triu_indices(len(vecs), 1)]
    np.fill_diagonal(sims, -np.inf)
    nearest = sims.max(axis=1)
    return {
        "version": VERSION,
        "entries": len(vecs),
        "random_pairs": {f"p{q}": round(float(np.percentile(pairs, q)), 4) for q in PERCENTILES},
        "nearest": {f"p{q}": round(float(np.percentile(nearest, q)), 4) for q in (10, 50, 90)},
    }


def derive(stats: dict[str, Any], p_floor: float = P_FLOOR, width: float = WIDTH) -> tuple[float, float]:
    """(floor, ceiling) from `measure`'s statistics (see the module docstring)."""
    rand = stats["random_pairs"]
    floor = _percentile(rand, p_floor)
    spread = max(rand["p90"] - rand["p10"], 1e-3)  # a degenerate model (all texts alike) still maps
    return round(floor, 4), round(floor + width * spread, 4)


def _percentile(rand: dict[str, float], q: float) -> float:
    """A random-pair percentile, linear between the stored ones (q within 1..99)."""
    qs = [float(p) for p in PERCENTILES]
    return float(np.interp(q, qs, [rand[f"p{p}"] for p in PERCENTILES]))


def sample_rows(ids: list[int], n: int = SAMPLE) -> list[int]:
    """Up to `n` of the sorted `ids`, evenly spread: the same ids give the same sample."""
    ids = sorted(ids)
    if len(ids) <= n:
        return ids
    step = len(ids) / n
    return [ids[int(i * step)] for i in range(n)]


def read_all(state_dir: Path) -> dict[str, Any]:
    """Every space's record ({} when none, or unreadable: derived data, measured again)."""
    return read_json_object(state_dir / FILE)


def stored(state_dir: Path, identity: str) -> tuple[float, float] | None:
    """The measured (floor, ceiling) of the space `identity`, or None."""
    record = read_all(state_dir).get(identity)
    try:
        return float(record["floor"]), float(record["ceil"])  # type: ignore[index]
    except (TypeError, KeyError, ValueError):
        return None


def outdated(state_dir: Path, identity: str) -> bool:
    """True when the space has no record of this version and rule (a new space, or a new rule)."""
    record = read_all(state_dir).get(identity)
    return not isinstance(record, dict) or record.get("version") != VERSION or record.get("rule") != RULE


def needs_measuring(state_dir: Path, identity: str, entries: int) -> bool:
    """True when the space's record is outdated, or the entry count moved by > RE_MEASURE since."""
    if outdated(state_dir, identity):
        return entries >= MIN_ENTRIES
    counted = int(read_all(state_dir)[identity].get("workspace_entries") or 0)
    return abs(entries - counted) > RE_MEASURE * max(counted, 1)


def record(state_dir: Path, identity: str, vectors: np.ndarray, entries: int) -> dict[str, Any] | None:
    """Measure `vectors` (the sample) and store the space's calibration; the record, or None when
    there are too few entries to measure. Atomic (files.write_json_object).

    Rows of zeros are left out: an entry inside a vector window of a big file (index.rows) has no
    vector of its own, and its zeros would pull every percentile to 0 (a ceiling of 0.006)."""
    vectors = np.asarray(vectors)
    vectors = vectors[np.abs(vectors).sum(axis=1) > 0] if len(vectors) else vectors
    if len(vectors) < MIN_ENTRIES:
        return None
    stats = measure(vectors)
    floor, ceil = derive(stats)
    entry = stats | {"workspace_entries": entries, "floor": floor, "ceil": ceil, "rule": RULE}
    data = read_all(state_dir)
    data[identity] = entry
    write_json_object(state_dir / FILE, data)
    return entry
