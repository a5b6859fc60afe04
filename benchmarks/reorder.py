"""Re-order LoCoMo's recall lists offline: how far can a change of ranking go without asking again?

    python benchmarks/reorder.py dump --workdir DIR --out /tmp/results.json      # once, about 70 s
    python benchmarks/reorder.py run /tmp/results.json none oracle "subject=0.65" \
        "subject-aggregate=0.75" "neighbours-top=5" learned sentence-max body-max word-expansion \
        --workdir DIR

`dump` asks every question once (hybrid, 60 results, `--explain`) over the workspaces that
`benchmarks/locomo.py --workdir DIR --model use-multilingual-v3` keeps, and stores each result with
its channels and factors. `run` re-scores those 60 results under a lever, sorts them again and
reports evidence recall at 2,000 characters, as `locomo.py` does, for the whole set, its two halves
(A: the 1st, 3rd, 5th ... conversation; B: the others) and the multi-hop category. A lever changes
one part of `score = relevance x factors` and keeps the rest (`relevance = (0.7 x calibrated
cosine + 0.3 x lexical)`, `recall/semantic.py`); a result whose relevance a neighbour lent it
(recall/neighbours.py) keeps the lent part. It cannot add candidates: it measures an ordering, and
`none` gives the engine's own figure back, to the third decimal. A lever that looks good here is
then measured for real with `benchmarks/sweep.py`.

Levers:
- `none`: the engine's order; `oracle`: the evidence first (the ceiling of any re-ordering of 60);
- `subject=S`: another speaker's turn x S instead of recall.subject.SUBJECT_MISS (0.85);
  `subject-aggregate=S`: the same, only for questions that ask for a list or a count ("both",
  "how many", "what kinds", "which <plural>");
- `neighbours-top=N`: only the N best matches lend their neighbours relevance (the engine: 10);
- `learned`: a logistic model over the results' own features (channels, factors, length, rank),
  fitted on one half and reported on the other: what a re-ranker without a new model could do;
  `learned-second`: the same with all-MiniLM-L6-v2's cosine as one more feature;
- `sentence-max`: an entry's cosine is the best of its sentences' (when it has two or more);
  `body-max`: the best of the entry's and its text without the "- Name:" of the speaker;
  `word-expansion`: each content word of the question also matches its 3 nearest words of the
  conversation in the model's space (cosine >= 0.6), adding 0.3 x their IDF share to the lexical
  score; `second-model=W`: the cosine is (1 - W) x USE's + W x all-MiniLM-L6-v2's (a second model
  as a re-ranking feature, what the `all-MiniLM-L6-v2+use-multilingual-v3` ensemble would give
  these candidates). These embed with the models (`--workdir` is needed).
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import re
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import BUDGET_CHARS, DATA, prepare, use_model
from workspace_memory.embed.use import CALIBRATION
from workspace_memory.lang.words.en import STOPWORDS as _STOPWORDS
from workspace_memory.recall.neighbours import NEIGHBOUR_SHARE
from workspace_memory.recall.query import RecallRequest
from workspace_memory.recall.subject import SUBJECT_MISS

MODEL = "use-multilingual-v3"
SPEAKER = re.compile(r"^- ([A-Z][a-z]+): ")
WORD = re.compile(r"[a-z][a-z'’]+")
AGGREGATE = re.compile(r"\b(both|all|each|share|common|how many|kinds?|types?|ways)\b|^(what|which) \w+s\b", re.I)


def dump(workdir: Path, out: Path) -> None:
    """Every question's 60 hybrid results with their explanation and the text of their lines."""
    use_model(MODEL)
    conversations, _ = prepare(json.loads(DATA.read_text()), workdir)
    rows = []
    for index, conv in enumerate(conversations):
        for question, category, evidence in conv.questions:
            found = conv.mem.recall(RecallRequest(question, k=60, mode="hybrid", explain=True))["results"]
            results = []
            for r in found:
                lines = conv.files.get(r["path"], [])
                text = "\n".join(lines[i - 1] for i in range(r["start_line"], r["end_line"] + 1) if 0 < i <= len(lines))
                results.append({k: r[k] for k in ("path", "start_line", "end_line", "score", "explain")} | {"text": text})
            rows.append({"conv": index, "q": question, "cat": category, "ev": evidence, "res": results})
    out.write_text(json.dumps(rows))
    print(f"{len(rows)} questions -> {out}")


# --- scoring -------------------------------------------------------------------------------

def within_budget(results: list[dict]) -> list[dict]:
    """locomo.within_budget on the stored line texts."""
    used, out = 0, []
    for r in results:
        cost = sum(len(line) for line in r["text"].split("\n"))
        if used + cost > BUDGET_CHARS:
            break
        used += cost
        out.append(r)
    return out


def is_evidence(r: dict, evidence: list) -> bool:
    return any(r["path"] == p and r["start_line"] <= line <= r["end_line"] for p, line in evidence)


def recall_of(results: list[dict], evidence: list) -> float:
    return sum(any(is_evidence(r, [e]) for r in results) for e in evidence) / len(evidence)


def report(rows: list[dict], order: Callable[[dict], list[dict]]) -> dict[str, float]:
    """Recall at 2,000 characters per group, under `order` (a question -> its results re-sorted)."""
    groups: dict[str, list[float]] = {}
    for row in rows:
        found = recall_of(within_budget(order(row)), row["ev"])
        half = "AB"[row["conv"] % 2]
        keys = ["all", half] + (["multi-hop", f"multi-hop {half}"] if row["cat"] == "multi-hop" else [])
        for key in keys:
            groups.setdefault(key, []).append(found)
    return {k: statistics.mean(v) for k, v in groups.items()}


def vector_cosine(r: dict) -> float:
    channels = r["explain"]["channels"]
    return channels.get("topic", channels.get("cosine", 0.0))


def own_relevance(r: dict, cosine: float | None = None, lexical: float | None = None) -> float:
    """The hybrid relevance from the result's channels, with one of them replaced."""
    floor, ceil = CALIBRATION
    channels = r["explain"]["channels"]
    cosine = vector_cosine(r) if cosine is None else cosine
    lexical = channels.get("lexical", 0.0) if lexical is None else lexical
    return 0.7 * min(1.0, max(0.0, (cosine - floor) / (ceil - floor))) + 0.3 * lexical


def rescored(row: dict, relevance: Callable[[dict], float]) -> list[dict]:
    """The results sorted by their factors x a new own relevance; a neighbour's loan is kept."""
    scored = []
    for r in row["res"]:
        old = r["explain"]["factors"].get("relevance", own_relevance(r))
        factors = r["score"] / old if old > 0 else 0.0
        new = relevance(r)
        lent = old > own_relevance(r) + 1e-3
        scored.append((factors * (max(new, old) if lent else new), r))
    return [r for _, r in sorted(scored, key=lambda t: -t[0])]


# --- levers without the model --------------------------------------------------------------

def by_factor(miss: float, only: re.Pattern | None = None) -> Callable[[dict], list[dict]]:
    def order(row: dict) -> list[dict]:
        change = miss / SUBJECT_MISS if only is None or only.search(row["q"]) else 1.0
        return sorted(row["res"], key=lambda r: -r["score"] * (change if "subject" in r["explain"]["factors"] else 1))
    return order


def neighbours_top(depth: int) -> Callable[[dict], list[dict]]:
    """Only loans from the `depth` best matches (by own relevance) are kept."""
    def order(row: dict) -> list[dict]:
        owns = sorted((own_relevance(r) for r in row["res"]), reverse=True)
        cut = owns[depth - 1] if len(owns) >= depth else 0.0

        def relevance(r: dict) -> float:
            old, own = r["explain"]["factors"].get("relevance", own_relevance(r)), own_relevance(r)
            return own if old > own + 1e-3 and old / NEIGHBOUR_SHARE < cut - 1e-6 else old
        scored = []
        for r in row["res"]:
            old = r["explain"]["factors"].get("relevance", own_relevance(r))
            scored.append(((r["score"] / old if old > 0 else 0.0) * relevance(r), r))
        return [r for _, r in sorted(scored, key=lambda t: -t[0])]
    return order


def features(r: dict, rank: int) -> list[float]:
    channels, factors, found_by = r["explain"]["channels"], r["explain"]["factors"], r["explain"]["found_by"]
    return [vector_cosine(r), channels.get("cosine", 0.0), channels.get("lexical", 0.0),
            math.log1p(channels.get("bm25", 0.0)), "subject" in factors, "question" in factors,
            "window" in factors, factors.get("recency", 1.0), factors.get("relevance", 0.0),
            "neighbour" in found_by, "vector" in found_by, "lexical" in found_by,
            math.log1p(len(r["text"])), r["text"].rstrip().endswith("?"), r["score"], 1 / (1 + rank)]


def learned(rows: list[dict], second: Model | None = None) -> Callable[[dict], list[dict]]:
    """A logistic model per half, fitted on the other half's results (evidence or not); with
    `second`, that model's cosine is one more feature."""
    from sklearn.linear_model import LogisticRegression  # a dependency of sentence-transformers

    if second is not None:
        second.vectors(sorted({r["text"] for row in rows for r in row["res"]}))

    def row_features(row: dict) -> np.ndarray:
        out = []
        for rank, r in enumerate(row["res"]):
            extra = []
            if second is not None:
                named = "topic" in r["explain"]["channels"]
                extra = [float(second.vectors([r["text"]])[0] @ second.question(row["q"], without_names=named))]
            out.append(features(r, rank) + extra)
        return np.array(out, float)

    models = {}
    for half in (0, 1):
        fitted = [row for row in rows if row["conv"] % 2 != half]
        x = np.vstack([row_features(row) for row in fitted])
        y = np.array([is_evidence(r, row["ev"]) for row in fitted for r in row["res"]])
        models[half] = LogisticRegression(max_iter=3000).fit(x, y)

    def order(row: dict) -> list[dict]:
        x = row_features(row)
        score = models[row["conv"] % 2].decision_function(x)
        return [row["res"][i] for i in np.argsort(-score, kind="stable")]
    return order


# --- levers with the model -----------------------------------------------------------------

class Model:
    """USE, as the workspaces were indexed with, and the names of the conversations' speakers."""

    def __init__(self, workdir: Path, rows: list[dict], name: str = MODEL) -> None:
        from workspace_memory.api import Memory

        use_model(name)
        self.embedder, _ = Memory.open(str(sorted(workdir.glob("conv-*"))[0]), "2024-01-01").embedder()
        use_model(MODEL)
        self.names = {m.group(1) for row in rows for r in row["res"] if (m := SPEAKER.match(r["text"]))}
        self.cache: dict[str, np.ndarray] = {}

    def vectors(self, texts: list[str]) -> list[np.ndarray]:
        todo = sorted({t for t in texts if t not in self.cache})
        if todo:
            self.cache.update(zip(todo, self.embedder.embed_documents(todo), strict=True))
        return [self.cache[t] for t in texts]

    def question(self, text: str, without_names: bool = True) -> np.ndarray:
        """The question, by default without its speakers' names (recall/topic.py does this with the
        workspace's people)."""
        for name in self.names if without_names else ():
            text = re.sub(rf"\b{name}('s|’s)?\b", "", text)
        key = "\0q" + re.sub(r"\s+", " ", text).strip()
        if key not in self.cache:
            self.cache[key] = self.embedder.embed_query(key[2:])
        return self.cache[key]


def body(text: str) -> str:
    return SPEAKER.sub("", text)


def sentences(text: str) -> list[str]:
    plain = re.sub(r"\[shares an image[^\]]*\]", "", body(text)).strip()
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", plain) if len(s.strip()) > 3]


def best_of(model: Model, rows: list[dict], parts: Callable[[str], list[str]], minimum: int) -> Callable:
    model.vectors(sorted({p for row in rows for r in row["res"] for p in parts(r["text"])}))

    def order(row: dict) -> list[dict]:
        q = model.question(row["q"])

        def relevance(r: dict) -> float:
            pieces = parts(r["text"])
            if len(pieces) < minimum or "topic" not in r["explain"]["channels"]:
                return own_relevance(r)
            best = max(float(v @ q) for v in model.vectors(pieces))
            return own_relevance(r, cosine=max(vector_cosine(r), best))
        return rescored(row, relevance)
    return order


def word_expansion(model: Model, rows: list[dict], workdir: Path, near: float = 0.6, top: int = 3,
                   weight: float = 0.3) -> Callable:
    def words(text: str) -> list[str]:
        return [w for w in WORD.findall(text.lower()) if len(w) >= 3]
    frequency, lines = [], []
    for folder in sorted(glob.glob(str(workdir / "conv-*"))):
        counts, n = Counter(), 0
        for path in glob.glob(folder + "/memory/*.md"):
            for line in Path(path).read_text().splitlines():
                if line.startswith("- "):
                    n += 1
                    counts.update(set(words(line)))
        frequency.append(counts)
        lines.append(n)
    vocabulary = [sorted(c) for c in frequency]
    matrices = [np.vstack(model.vectors(v)) for v in vocabulary]
    names = {n.lower() for n in model.names}

    def order(row: dict) -> list[dict]:
        conv = row["conv"]
        asked = [w for w in dict.fromkeys(words(row["q"])) if w not in _STOPWORDS and w not in names]
        idf = {w: math.log(1 + lines[conv] / (1 + frequency[conv].get(w, 0))) for w in asked}
        total = sum(idf.values()) or 1.0
        nearest = {}
        for w in asked:
            sims = matrices[conv] @ model.vectors([w])[0]
            nearest[w] = {vocabulary[conv][j]: float(sims[j]) for j in np.argsort(-sims)[: top + 1]
                          if vocabulary[conv][j] != w and sims[j] >= near}

        def relevance(r: dict) -> float:
            present = set(words(r["text"]))
            cover = sum(idf[w] * max([s for v, s in nearest[w].items() if v in present], default=0.0)
                        for w in asked if w not in present) / total
            lexical = min(1.0, r["explain"]["channels"].get("lexical", 0.0) + weight * cover)
            return own_relevance(r, lexical=lexical)
        return rescored(row, relevance)
    return order


def second_model(second: Model, rows: list[dict], weight: float) -> Callable:
    """The vector channel as (1 - weight) x USE's calibrated cosine + weight x all-MiniLM-L6-v2's, on
    the same calibration (0, 2), each with the question without its speakers' names."""
    second.vectors(sorted({r["text"] for row in rows for r in row["res"]}))

    def order(row: dict) -> list[dict]:
        def relevance(r: dict) -> float:
            named = "topic" in r["explain"]["channels"]
            other = float(second.vectors([r["text"]])[0] @ second.question(row["q"], without_names=named))
            return own_relevance(r, cosine=(1 - weight) * vector_cosine(r) + weight * other)
        return rescored(row, relevance)
    return order


def lever(name: str, rows: list[dict], workdir: Path | None, model: list) -> Callable[[dict], list[dict]]:
    key, _, value = name.partition("=")
    if key in ("sentence-max", "body-max", "word-expansion", "second-model", "learned-second"):
        if workdir is None:
            raise SystemExit(f"reorder: {key} needs --workdir (the model embeds)")
        if not model:
            model.append(Model(workdir, rows))
        if key in ("second-model", "learned-second") and len(model) < 2:
            model.append(Model(workdir, rows, "all-MiniLM-L6-v2"))
    simple = {
        "none": lambda: lambda row: row["res"],
        "oracle": lambda: lambda row: sorted(row["res"], key=lambda r: not is_evidence(r, row["ev"])),
        "subject": lambda: by_factor(float(value)),
        "subject-aggregate": lambda: by_factor(float(value), AGGREGATE),
        "neighbours-top": lambda: neighbours_top(int(value or 10)),
        "learned": lambda: learned(rows),
        "learned-second": lambda: learned(rows, model[-1]),
        "sentence-max": lambda: best_of(model[0], rows, sentences, 2),
        "body-max": lambda: best_of(model[0], rows, lambda t: [body(t)] if SPEAKER.match(t) else [], 1),
        "word-expansion": lambda: word_expansion(model[0], rows, workdir),
        "second-model": lambda: second_model(model[-1], rows, float(value or 0.5)),
    }
    if key not in simple:
        raise SystemExit(f"reorder: unknown lever {name!r} (one of {', '.join(simple)})")
    return simple[key]()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--workdir", type=Path, required=True)
    d.add_argument("--out", type=Path, required=True)
    r = sub.add_parser("run")
    r.add_argument("results", type=Path)
    r.add_argument("levers", nargs="+")
    r.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.workdir, args.out)
        return
    rows = json.loads(args.results.read_text())
    model: list = []
    print(f"{'lever':<24} {'all':>6} {'A':>6} {'B':>6} {'multi-hop':>10} {'A':>6} {'B':>6}")
    for name in args.levers:
        t = report(rows, lever(name, rows, args.workdir, model))
        print(f"{name:<24} {t['all']:>6.3f} {t['A']:>6.3f} {t['B']:>6.3f} {t['multi-hop']:>10.3f} "
              f"{t['multi-hop A']:>6.3f} {t['multi-hop B']:>6.3f}", flush=True)


if __name__ == "__main__":
    main()
