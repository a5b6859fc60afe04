"""The polarity probe of issue 38's fifth stance rule (benchmarks/polarity_probe.py, measured by
benchmarks/stance_orientation.py --vader; the figures are in docs/change.md, Round 5). No rule of the
package uses it; these tests keep the parts that decide its figures honest: the lexicon read from the
wheel, the words of the measurement kept out of training, the fit, the texts the probe reads."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import polarity_probe
import stance_orientation


def wheel(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "vaderSentiment-3.3.2-py2.py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(polarity_probe.LEXICON, "\n".join(lines) + "\n")
    return path


def test_the_lexicon_is_read_from_the_wheel_words_only(tmp_path: Path) -> None:
    path = wheel(tmp_path, [":)\t2.0\t0.6\t[2, 2]", "$:\t-1.5\t0.8\t[-1]", "sloppy\t-1.7\t0.5\t[-2, -1]",
                            "can't-stand\t-2.0\t0.7\t[-2]", "good\t1.9\t0.9\t[2, 2]", "10q\t2.1\t1.2\t[2]"])
    assert polarity_probe.read_vader(path) == {"sloppy": -1.7, "can't-stand": -2.0, "good": 1.9}


def test_a_word_of_the_measurement_and_its_inflections_are_dropped_others_kept() -> None:
    used = frozenset({"thorough", "reviews", "bright"})
    assert polarity_probe.shares_a_word("thoroughly", used)
    assert polarity_probe.shares_a_word("review", used)
    assert polarity_probe.shares_a_word("brightest", used)
    assert not polarity_probe.shares_a_word("brisk", used)  # shares "bri" only
    assert not polarity_probe.shares_a_word("careless", used)


def test_the_held_out_fifth_is_fixed_and_about_a_fifth() -> None:
    words = [f"word{i}" for i in range(2000)]
    held = [w for w in words if polarity_probe.held_out(w)]
    assert held == [w for w in words if polarity_probe.held_out(w)]
    assert 300 < len(held) < 500


def test_the_fit_finds_a_direction_and_its_bias() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 8))
    y = (x[:, 2] - 0.5 * x[:, 5] + 0.8 > 0).astype(float)  # a direction and an offset
    w = polarity_probe.fit_logistic(x, y, l2=0.01)
    assert (((x @ w[:-1] + w[-1]) > 0) == (y > 0)).mean() > 0.97
    assert w[-1] > 0 and w[2] > 0 > w[5]
    assert abs(w[2]) > 5 * max(abs(w[i]) for i in (0, 1, 3, 4, 6, 7))


def test_the_probe_is_never_fitted_on_a_word_of_the_measurement() -> None:
    rng = np.random.default_rng(3)
    lexicon = {f"good{i}x": 2.0 for i in range(60)} | {f"bad{i}x": -2.0 for i in range(60)}
    lexicon |= {"thorough": 1.5, "thoroughness": 1.6, "faint": 0.2}
    vectors = {w: rng.normal(size=4) + (2.0 if v > 0 else -2.0) for w, v in lexicon.items()}
    probe = polarity_probe.build(lexicon, vectors, ["Her code reviews are thorough."], min_valence=0.5)
    assert sorted(probe.dropped) == ["thorough", "thoroughness"]
    assert probe.trained + probe.held == 120  # "faint" is under the minimum valence
    assert probe.accuracy > 0.9 and probe.weights.shape == (5,)


def test_the_probe_reads_the_predicate_as_written_and_its_phrase_to_the_clause_end() -> None:
    texts = stance_orientation.probe_texts("Ses relectures de code sont minutieuses et trouvent de vrais bugs.", ())
    assert texts["word"] == "minutieuses"  # not the reading's stem "minutieus"
    assert texts["phrase"] == "minutieuses et trouvent de vrais bugs"
    assert stance_orientation.probe_texts("她的代码审查很仔细，能发现真正的错误。", ())["phrase"] == "仔细"
