"""A polarity probe: a linear classifier on use-multilingual-v3's vectors of VADER's English words.

Measured by `benchmarks/stance_orientation.py --vader WHEEL` as its fifth rule (issue 38); no rule
of the package uses it (docs/change.md, Round 5, says why). The idea: the multilingual model puts
a word and its translations near each other, so a direction fitted on English words with a known
valence may sign an evaluative word of any of its 16 languages that no lexicon holds ("schlampig",
"minucioso").

- **Data**: `vaderSentiment/vader_lexicon.txt` from the wheel `vaderSentiment==3.3.2` (MIT,
  C.J. Hutto; 7,519 entries, each the mean of ten raters' scores from -4 to +4). Fetch it with
  `pip download vaderSentiment==3.3.2 --no-deps -d DIR`; it is read from the wheel, not installed.
  Kept: entries that are words (letters, an inner apostrophe or hyphen; no emoticons), with
  |mean| >= a minimum valence; label: the sign of the mean.
- **Dropped**: every lexicon word that shares a word with the texts the probe is measured on (the
  stance pair sets and the probes): the same word, the same stem, or one the start of the other
  (5 letters or more), so the probe never saw a word of the measurement.
- **Held out**: a fifth of the words (by a hash of the word, so the split is fixed) measure the
  probe's own accuracy; the other four fifths fit it.
- **Fit**: L2-regularised logistic regression by Newton's method (numpy; 513 parameters), on the
  model's unit vectors of the bare words. The probe's score of a text is `w . vector + b`, a logit:
  > 0 positive, < 0 negative; its absolute value is the margin.
"""

from __future__ import annotations

import hashlib
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

LEXICON = "vaderSentiment/vader_lexicon.txt"
L2 = 1.0  # the regulariser; stance_orientation.py tries 0.1, 1 and 10
HELD_OUT = 5  # one word in HELD_OUT is held out
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]")
_TEXT_WORD = re.compile(r"[^\W\d_]+")


def read_vader(wheel: Path) -> dict[str, float]:
    """{word: mean valence} of the entries of VADER's lexicon in `wheel` that are words."""
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(LEXICON).decode("utf-8")
    out: dict[str, float] = {}
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) >= 2 and _WORD.fullmatch(fields[0]):
            out[fields[0]] = float(fields[1])
    return out


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s", "ed", "ly"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def shares_a_word(word: str, words: frozenset[str]) -> bool:
    """`word` is one of `words`, has the same stem as one, or one starts the other (5 letters or more)."""
    if word in words:
        return True
    stem = _stem(word)
    for other in words:
        short, long = sorted((word, other), key=len)
        if stem == _stem(other) or (len(short) >= 5 and long.startswith(short)):
            return True
    return False


def held_out(word: str) -> bool:
    """Whether `word` is in the held-out fifth (a fixed split: a hash of the word)."""
    return int(hashlib.sha256(word.encode()).hexdigest(), 16) % HELD_OUT == 0


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50) -> np.ndarray:
    """Weights and bias (the last entry) of logistic regression of y (0/1) on the rows of x, L2 on the weights."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    penalty = np.r_[np.full(x.shape[1], l2), 0.0]
    w = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        gradient = xb.T @ (p - y) + penalty * w
        hessian = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


@dataclass
class Probe:
    """The fitted direction and what it was fitted on."""

    weights: np.ndarray  # 513: 512 weights, then the bias
    min_valence: float
    trained: int
    held: int
    accuracy: float  # on the held-out words
    dropped: list[str]

    def score(self, vectors: np.ndarray) -> np.ndarray:
        """The logit of each row (a unit vector of the model): > 0 positive."""
        return vectors @ self.weights[:-1] + self.weights[-1]


def build(lexicon: dict[str, float], vectors: dict[str, np.ndarray], measured_texts: list[str],
          min_valence: float, l2: float = L2) -> Probe:
    """Fit the probe on the lexicon's words with |valence| >= `min_valence` that `measured_texts` do not use."""
    used = frozenset(w for text in measured_texts for w in _TEXT_WORD.findall(text.casefold()))
    strong = [w for w, v in lexicon.items() if abs(v) >= min_valence]
    dropped = [w for w in strong if shares_a_word(w, used)]
    words = [w for w in strong if w not in set(dropped)]
    x = np.array([vectors[w] for w in words], dtype=np.float64)
    y = np.array([lexicon[w] > 0 for w in words], dtype=np.float64)
    held = np.array([held_out(w) for w in words])
    weights = fit_logistic(x[~held], y[~held], l2)
    probe = Probe(weights, min_valence, int((~held).sum()), int(held.sum()), 0.0, dropped)
    probe.accuracy = float(((probe.score(x[held]) > 0) == (y[held] > 0)).mean())
    return probe
