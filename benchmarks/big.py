"""Big inputs (issue 27): each workload as a new user meets it, one row per workload.

    python benchmarks/big.py --workdir DIR [--only note,transcript,...] [--src BASE/src --src NEW/src]

Every row lives in a module of its own, `benchmarks/big_<row>.py`, found by name: it defines

- `ROW`: the row's name (what `--only` takes);
- `TARGET`: the issue's target, in words;
- `prepare(workdir: Path, args) -> Path`: makes (or reuses) the row's input under `workdir`;
- `run(input_dir: Path, env: dict, args) -> dict`: measures it once in child processes
  (`stats.measured` gives wall, CPU and peak RSS) and returns the figures: at least `wall_s`,
  `cpu_s`, `rss_mib`, and `memory_mib` where the row writes an index.

With `--src` (repeatable), each row is run once per source tree, in turn and `--rounds` times, so
that two versions are compared under the same load; the report then gives each source's medians and
their ratio to the first's. Children run with the bytecode cache on (PYTHONDONTWRITEBYTECODE
removed), BLAS on one thread, as the CLI runs. The machine's load averages are printed with the
figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import alternate, child_env, load, show_medians

HERE = Path(__file__).parent


def rows() -> dict[str, object]:
    """Every `big_<row>.py` beside this file, by its ROW name."""
    found = {}
    for path in sorted(HERE.glob("big_*.py")):
        module = importlib.import_module(path.stem)
        found[module.ROW] = module
    return found


def dir_mib(path: Path) -> float:
    """The bytes of every file under `path`, in MiB (0 when it does not exist)."""
    if not path.exists():
        return 0.0
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def main() -> None:
    available = rows()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--only", default=",".join(available), help=f"rows: {', '.join(available)}")
    parser.add_argument("--src", action="append", default=[], metavar="DIR")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    for module in available.values():
        if hasattr(module, "add_arguments"):
            module.add_arguments(parser)
    args = parser.parse_args()
    wanted = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in available]
    if unknown:
        raise SystemExit(f"unknown rows: {', '.join(unknown)} (known: {', '.join(available)})")
    sources = args.src or [None]
    report: dict[str, dict] = {}
    print(f"load before: {load()}")
    for name in wanted:
        module = available[name]
        input_dir = module.prepare(args.workdir / name, args)
        runs = alternate(sources, args.rounds, lambda src, m, d: m.run(d, child_env(src), args), module, input_dir)
        report[name] = {"target": module.TARGET, "runs": runs}
        print(f"\n## {name}  (target: {module.TARGET})")
        show_medians(runs)
        print(f"load: {load()}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
