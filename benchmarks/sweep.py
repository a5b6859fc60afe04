"""Tune recall constants on LoCoMo: re-ask every question under patched settings, one line per setting.

    python benchmarks/sweep.py --workdir DIR [--model use-multilingual-v3] [--mode hybrid] \
        "floor=0.2,ceil=1.6" "floor=0.3,ceil=1.2" "vector_weight=0.6,text_weight=0.4" \
        "semantic.NEAR_DUPLICATE_COS=0.95"

Uses the workspaces and indexes that `benchmarks/locomo.py --workdir DIR` keeps (indexing
them again is a no-op), so a configuration costs only the questions (about a minute for the
1,982). Each argument is one configuration, comma-separated `key=value`:

- `floor`, `ceil`: the embedder's cosine calibration (recall/semantic.py);
- `unseen=1`: the model treated as one without fitted constants, so recall uses the calibration
  `memory index` measured on each conversation (embed/calibration.py); `p_floor`, `width`: that
  measuring rule with other parameters (to fit them);
- a field of `RecallSettings` (`vector_weight`, `text_weight`, `mmr_lambda`, ...);
- `module.NAME`: a constant of `workspace_memory.recall.<module>` (e.g. `semantic.NEAR_DUPLICATE_COS`).

The unpatched settings run first as the baseline (unless --no-baseline), and every
configuration starts from them: the patches of one never leak into the next.

Each line also gives the figure at 2,000 characters on the two halves of the conversations
(A: the 1st, 3rd, 5th, ... conversation; B: the others), and the run ends with the **cross-fit**:
the configuration that scores best on A, reported on B, and the best on B, reported on A, with
the mean of those two held-out figures. A constant is trustworthy when its held-out mean stays
where the whole-set figure says; one that wins only on the half it was chosen on goes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from locomo import BUDGET_CHARS, DATA, KS, Conversation, evaluate, prepare, use_model


def parse_config(text: str) -> dict[str, float]:
    """'floor=0.2,ceil=1.6' -> {'floor': 0.2, 'ceil': 1.6}."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        out[key.strip()] = float(value)
    return out


@contextmanager
def patched(conversations: list[Conversation], config: dict[str, float]) -> Iterator[None]:
    """Apply `config` to every conversation's Memory (and to module constants); undo it on exit."""
    undo = []
    settings_fields = set(conversations[0].mem.recall_settings.FIELDS)
    try:
        for conv in conversations:
            mem = conv.mem
            embedder, _ = mem.embedder()
            if {"floor", "ceil", "unseen", "p_floor", "width"} & set(config):
                from workspace_memory.recall.semantic import calibration_of

                floor, ceil = calibration_of(embedder)
                had = "calibration" in vars(embedder)
                old = vars(embedder).get("calibration")
                embedder.calibration = (config.get("floor", floor), config.get("ceil", ceil))
                if config.get("unseen"):  # the model as if it had no fitted constants: recall reads the measured ones
                    embedder.calibration = None
                if "p_floor" in config or "width" in config:  # the measuring rule with other parameters
                    embedder.calibration = measured_rule(mem, embedder, config)
                undo.append(lambda e=embedder, h=had, o=old: setattr(e, "calibration", o) if h
                            else delattr(e, "calibration"))
            changes = {k: v for k, v in config.items() if k in settings_fields}
            if changes:
                old_settings = mem.recall_settings
                mem.__dict__["recall_settings"] = old_settings.replace(**changes)
                undo.append(lambda m=mem, s=old_settings: m.__dict__.__setitem__("recall_settings", s))
        for key, value in config.items():
            if "." in key:
                module_name, name = key.rsplit(".", 1)
                module = importlib.import_module(f"workspace_memory.recall.{module_name}")
                old_value = getattr(module, name)  # AttributeError: a typo never silently sweeps nothing
                setattr(module, name, type(old_value)(value))
                undo.append(lambda m=module, n=name, o=old_value: setattr(m, n, o))
            elif key not in settings_fields | {"floor", "ceil", "unseen", "p_floor", "width"}:
                raise SystemExit(f"unknown key {key!r}: floor, ceil, unseen, p_floor, width, a RecallSettings field, "
                                 "or module.NAME")
        yield
    finally:
        for step in reversed(undo):
            step()


def measured_rule(mem, embedder, config: dict[str, float]) -> tuple[float, float]:
    """(floor, ceiling) by embed.calibration's rule from the statistics `memory index` stored for
    this conversation's space, with the configuration's `p_floor` and `width` instead of the defaults."""
    from workspace_memory.embed import calibration

    stats = calibration.read_all(mem.workspace.state_dir).get(embedder.identity())
    if stats is None:
        raise SystemExit(f"{mem.workspace.root}: no measured calibration for {embedder.identity()}")
    return calibration.derive(stats, config.get("p_floor", calibration.P_FLOOR), config.get("width", calibration.WIDTH))


def main() -> None:
    parser = argparse.ArgumentParser(description="sweep recall constants on LoCoMo")
    parser.add_argument("configs", nargs="*", help="key=value[,key=value...] per configuration")
    parser.add_argument("--workdir", type=Path, required=True, help="the workdir of benchmarks/locomo.py")
    parser.add_argument("--model", default=None, help="local embedding model (default: the configured one)")
    parser.add_argument("--mode", default="hybrid")
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=None, help="append one JSON line per configuration")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unpatched run")
    parser.add_argument("--categories", default=None,
                        help="ask only these categories (comma-separated, e.g. multi-hop): a quicker first look")
    args = parser.parse_args()
    use_model(args.model)
    samples = json.loads(args.data.read_text())[: args.conversations]
    conversations, index_s = prepare(samples, args.workdir)
    if args.categories:
        wanted = set(args.categories.split(","))
        for conv in conversations:
            conv.questions = [q for q in conv.questions if q[1] in wanted]
    print(f"model {args.model or 'configured'}, mode {args.mode}, index/sync {index_s:.1f} s")
    metrics = [f"r@{k}" for k in KS] + [f"r@{BUDGET_CHARS}c"]
    print(f"{'configuration':<44} " + " ".join(f"{m:>8}" for m in metrics) + "   seconds")
    results: list[tuple[str, tuple[float, float]]] = []
    for text in ([] if args.no_baseline else [""]) + args.configs:
        config = parse_config(text)
        t0 = time.perf_counter()
        with patched(conversations, config):
            halves = [evaluate(conversations[i::2], args.mode)[0] for i in (0, 1)]
        table = merged(halves)
        row = table["all"]
        budget = f"r@{BUDGET_CHARS}c"
        split = (halves[0]["all"][budget], halves[1]["all"][budget])
        results.append((text or "(baseline)", split))
        hops = [h.get("multi-hop", {}).get(budget, 0.0) for h in halves]
        print(f"{text or '(baseline)':<44} " + " ".join(f"{row[m]:>8.3f}" for m in metrics)
              + f"   A {split[0]:.3f}  B {split[1]:.3f}"
              + f"   multi-hop {table.get('multi-hop', {}).get(budget, 0.0):.3f} (A {hops[0]:.3f} B {hops[1]:.3f})"
              + f"   {time.perf_counter() - t0:5.0f} s", flush=True)
        if args.out:
            with args.out.open("a") as fh:
                fh.write(json.dumps({"model": args.model, "mode": args.mode, "config": config} | table) + "\n")
    for conv in conversations:
        conv.mem.close()
    if len(results) > 1:
        best_a = max(results, key=lambda r: r[1][0])
        best_b = max(results, key=lambda r: r[1][1])
        held_out = (best_a[1][1] + best_b[1][0]) / 2
        print(f"cross-fit at {BUDGET_CHARS} chars: best on A = {best_a[0]!r} -> B {best_a[1][1]:.3f}; "
              f"best on B = {best_b[0]!r} -> A {best_b[1][0]:.3f}; held-out mean {held_out:.3f}")


def merged(halves: list[dict]) -> dict:
    """The whole-set table from the two halves' tables (means weighted by their question counts)."""
    out = {}
    for cat in set(halves[0]) | set(halves[1]):
        rows = [h[cat] for h in halves if cat in h]
        n = sum(r["n"] for r in rows)
        out[cat] = {m: round(sum(r[m] * r["n"] for r in rows) / n, 3) for m in rows[0] if m != "n"} | {"n": n}
    return out


if __name__ == "__main__":
    main()
