"""Can the embedding model sign an evaluative word no lexicon holds? (issue 38; a measurement, no rule)

    PYTHONPATH=src python benchmarks/stance_orientation.py

facts.stance calls two unsigned predicates that differ ("sloppy" / "thorough") *unclear* unless
the newer statement says something changed. This script measures three rules that would sign
them with use-multilingual-v3 (the model of `[embedding] model = "use-multilingual-v3"`, 16
languages), on every pair of the stance sets that reaches that step (the `contrast` signal, label
unclear or contradiction), and on PROBES: pairs of two unsigned predicates that do not contradict
(synonyms, other aspects), written for this measurement, none of the test set's words.

- **word**: each predicate's orientation, the mean cosine of the word to the lexicon's positive
  stems (lang/stance POSITIVE, every language) less the mean to its negative ones; a contradiction
  would be a difference of orientation of at least m.
- **shift**: the cosine between the difference of the two statements' vectors (new - old) and the
  lexicon's axis (mean positive - mean negative); a contradiction would be |shift| >= t.
- **cosine**: the two statements' own cosine (an antonym pair about one subject was expected to sit
  in a band of its own, apart from paraphrases).
- **nearest** (a sign, not a measure): each predicate takes the sign most of its NEAREST lexicon
  stems have (by cosine); a contradiction would be two opposite signs. It is counted, not ranged:
  how many contradictions it signs opposite, and how many other pairs.

A rule is usable when some threshold puts every contradiction on one side and every other pair on
the other; the summary gives each measure's range on both, and whether they overlap.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from workspace_memory import lang
from workspace_memory.embed.use import UseEmbedder
from workspace_memory.facts.stance import read, stance

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
NEAREST = 5  # lexicon stems that vote on a word's sign (1, 3, 5 and 9 were tried: docs/change.md)
SETS = ("stance_pairs_change.jsonl", "stance_pairs.jsonl", "stance_pairs_heldout.jsonl")
# (opinion, statement): two unsigned predicates about one subject that do not contradict.
PROBES = (
    ("Her code reviews are careful.", "Her code reviews are meticulous."),
    ("The office is quiet.", "The office is bright."),
    ("His talks are long.", "His talks are detailed."),
    ("The API is verbose.", "The API is explicit."),
    ("Her writing is concise.", "Her writing is terse."),
    ("The new laptop is heavy.", "The new laptop is sturdy."),
    ("Das Café ist gemütlich.", "Das Café ist ruhig."),
    ("El piso es luminoso.", "El piso es tranquilo."),
    ("Le quartier est calme.", "Le quartier est verdoyant."),
    ("这家店很安静。", "这家店很干净。"),
)


def lexicon() -> tuple[list[str], list[str]]:
    positive: list[str] = []
    negative: list[str] = []
    for code in lang.available("stance"):
        table = lang.table("stance", code)
        positive += getattr(table, "POSITIVE", "").split()
        negative += getattr(table, "NEGATIVE", "").split()
    return positive, negative


def pairs() -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(label, opinion, statement, names) of every pair that reaches the contrast step, and the probes."""
    out = []
    for name in SETS:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            pair = json.loads(line)
            names = (pair["entity"],) if "entity" in pair else ()
            if stance(pair["opinion"], pair["statement"], names).signal == "contrast":
                out.append((pair["label"], pair["opinion"], pair["statement"], names))
    return out + [("probe", a, b, ()) for a, b in PROBES]


def main() -> None:
    embedder = UseEmbedder()
    positive, negative = lexicon()
    pos_vecs, neg_vecs = embedder.embed_documents(positive), embedder.embed_documents(negative)
    axis = pos_vecs.mean(0) - neg_vecs.mean(0)
    axis /= np.linalg.norm(axis)

    def orientation(word: str) -> float:
        vec = embedder.embed_documents([word])[0]
        return float((vec @ pos_vecs.T).mean() - (vec @ neg_vecs.T).mean())

    stems = np.vstack([pos_vecs, neg_vecs])
    votes = np.array([1] * len(positive) + [-1] * len(negative))

    def nearest(word: str) -> int:
        vec = embedder.embed_documents([word])[0]
        return int(np.sign(votes[np.argsort(-(stems @ vec))[:NEAREST]].sum()))

    rows = []
    for label, opinion, statement, names in pairs():
        old, new = read(opinion, names), read(statement, names)
        words = (" ".join(sorted(old.predicates)) or "-", " ".join(sorted(new.predicates)) or "-")
        word = abs(orientation(words[0]) - orientation(words[1]))
        vecs = embedder.embed_documents([opinion, statement])
        diff = vecs[1] - vecs[0]
        shift = abs(float(diff @ axis / (np.linalg.norm(diff) + 1e-9)))
        cosine = float(vecs[0] @ vecs[1])
        signs = (nearest(words[0]), nearest(words[1]))
        opposite = signs[0] * signs[1] < 0
        rows.append((label == "contradiction", word, shift, cosine, opposite))
        print(f"{label:13} word {word:.3f}  shift {shift:.3f}  cosine {cosine:.3f}  nearest {signs[0]:+d}/{signs[1]:+d}"
              f"  {words[0]} / {words[1]}")
    print()
    for i, measure in enumerate(("word", "shift", "cosine"), start=1):
        yes = [r[i] for r in rows if r[0]]
        no = [r[i] for r in rows if not r[0]]
        overlap = min(yes) <= max(no) and min(no) <= max(yes)
        print(f"{measure:7} contradictions {min(yes):.3f}..{max(yes):.3f} ({len(yes)})  others {min(no):.3f}.."
              f"{max(no):.3f} ({len(no)})  {'overlap: no threshold separates them' if overlap else 'separable'}")
    yes = [r[4] for r in rows if r[0]]
    no = [r[4] for r in rows if not r[0]]
    print(f"nearest contradictions signed opposite {sum(yes)} of {len(yes)}  others {sum(no)} of {len(no)}")


if __name__ == "__main__":
    main()
