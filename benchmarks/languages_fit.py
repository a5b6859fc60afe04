"""Re-fit recall's constants with whole languages held out: leave one language out, report on it.

    python benchmarks/languages_fit.py [--workdir DIR] [--modes lexical,hybrid] [--out FILE.json] \
        "subject.SUBJECT_MISS=0.85,1.0,0.7" "asking.QUESTION_MISS=0.85,1.0,0.7" ...

Each argument is one constant and the values to try, the first being the current one. For every
value, both parallel benchmarks run with the constant patched (`languages.py`: en/de/es/fr/pt/zh/ja,
24 questions; `time_questions.py --configs languages`: en/de/es/fr/zh, 30 questions), in a child
process each. Then, per mode, for each language L: the value with the most hits at 3 (then at 1)
over the *other* languages, summed over both benchmarks (ties keep the current value), and L's own
hits under that value next to its hits under the current one. A value is worth adopting when it wins
held out in most languages and loses in none; LoCoMo's halves (benchmarks/sweep.py) are the
English check.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LINE = re.compile(r"^languages\s+(\w+)\s+(\w+)\s+hit@1\s+(\d+)/\d+\s+hit@3\s+(\d+)/\d+")


def measure(patch: str, modes: str, workdir: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """mode -> language -> (hit@1, hit@3), both benchmarks summed, under `patch`."""
    out: dict[str, dict[str, tuple[int, int]]] = {}

    def add(mode: str, lang: str, at1: int, at3: int) -> None:
        a1, a3 = out.setdefault(mode, {}).get(lang, (0, 0))
        out[mode][lang] = (a1 + at1, a3 + at3)

    json_out = workdir / "languages.json"
    subprocess.run([sys.executable, str(HERE / "languages.py"), "--modes", modes, "--workdir",
                    str(workdir / "languages"), "--out", str(json_out), "--constants", patch],
                   check=True, stdout=subprocess.DEVNULL)
    for mode, rows in json.loads(json_out.read_text()).items():
        if mode == "coming":  # languages.py's questions about the coming days (it, nl, ru, ko only)
            continue
        for lang, row in rows.items():
            if "->" not in lang:
                add(mode, lang, row["at1"], row["at3"])
    text = subprocess.run([sys.executable, str(HERE / "time_questions.py"), "--modes", modes, "--configs",
                           "languages", "--workdir", str(workdir / "time"), "--constants", patch],
                          check=True, capture_output=True, text=True).stdout
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            add(m[2], m[1], int(m[3]), int(m[4]))
    return out


def held_out(results: dict[str, dict], mode: str, current: str) -> dict[str, tuple[str, tuple, tuple]]:
    """language -> (value chosen on the others, its hits on the language, the current value's hits)."""
    langs = sorted(results[current][mode])
    out = {}
    for lang in langs:
        def others(value: str, lang: str = lang) -> tuple[int, int, int]:
            rows = results[value][mode]
            return (sum(rows[x][1] for x in langs if x != lang), sum(rows[x][0] for x in langs if x != lang),
                    value == current)
        best = max(results, key=others)
        out[lang] = (best, results[best][mode][lang], results[current][mode][lang])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("constants", nargs="*", help='"module.NAME=current,other,..."')
    ap.add_argument("--report", help="print the held-out table of a JSON an earlier --out wrote (no runs)")
    ap.add_argument("--modes", default="lexical,hybrid")
    ap.add_argument("--workdir", default="/tmp/languages-fit")
    ap.add_argument("--out", help="write every measurement as JSON here")
    args = ap.parse_args()
    if args.report:
        for name, results in json.loads(Path(args.report).read_text()).items():
            show(name, results, args.modes)
        return
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    report = {}
    for spec in args.constants:
        name, _, values = spec.partition("=")
        report[name] = {v: measure(f"{name}={v}", args.modes, workdir) for v in values.split(",")}
        show(name, report[name], args.modes)
        if args.out:
            Path(args.out).write_text(json.dumps(report, indent=1))


def show(name: str, results: dict[str, dict], modes: str) -> None:
    """One line per mode: for each held-out language, the value chosen on the others and the language's
    hits at 3 (and at 1) under it / under the current value (the first of `results`)."""
    current = next(iter(results))
    for mode in modes.split(","):
        rows = held_out(results, mode, current)
        cells = "  ".join(f"{lang} {best}: {got[1]}/{cur[1]} ({got[0]}/{cur[0]})"
                          for lang, (best, got, cur) in rows.items())
        gain3 = sum(got[1] - cur[1] for _, got, cur in rows.values())
        gain1 = sum(got[0] - cur[0] for _, got, cur in rows.values())
        print(f"{name} {mode}: held out, chosen value: hit@3 (hit@1) chosen/current  {cells}"
              f"  total {gain3:+d} ({gain1:+d})", flush=True)


if __name__ == "__main__":
    main()
