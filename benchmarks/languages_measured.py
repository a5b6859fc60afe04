"""The languages a workspace's notes are written in, as the index measures them: the data MIN_SHARE is fitted on.

    python benchmarks/languages_measured.py [--data locomo10.json] [--workspaces DIR ...]

Each entry's language is read as the index reads it (lang.identify.line_language; here every line
of the Markdown files, or every LoCoMo turn) and the shares of the entries whose language is told
are printed per workspace: LoCoMo's ten conversations (English), benchmarks/languages.py's notes in
each of its eleven languages, and any workspace folder given (e.g. a new user's). Fit part: LoCoMo
conversations 0-4, the en, de, es, fr and pt notes and the first workspace given; report part: the
rest. `lang.identify.MIN_SHARE` must lie above every share of a language the notes are not written
in and below every share of one they are, on the fit part; the report part says whether that holds.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from languages_notes import LANGS, files
from locomo import DATA  # ../shared/benchmarks/locomo/locomo10.json beside the checkout
from workspace_memory.lang.identify import MIN_SHARE, line_language

FIT_LANGS = ("en", "de", "es", "fr", "pt")


def shares(lines: list[str]) -> tuple[dict[str, float], int]:
    """Each language's share of the lines whose language is told, largest first, and their number."""
    counts = Counter(line_language(line) for line in lines if line.strip())
    told = sum(n for code, n in counts.items() if code)
    return {code: round(n / told, 3) for code, n in counts.most_common() if code}, told


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--workspaces", nargs="*", default=[], help="workspace folders (their Markdown files)")
    args = ap.parse_args()
    rows: list[tuple[str, str, set[str], list[str]]] = []  # (part, name, its languages, lines)
    for i, conv in enumerate(json.loads(args.data.read_text(encoding="utf-8"))):
        talk = conv["conversation"]
        turns = [t["text"] for key, v in talk.items() if key.startswith("session_") and isinstance(v, list) for t in v]
        rows.append(("fit" if i < 5 else "report", f"locomo {i}", {"en"}, turns))
    for code in LANGS:
        lines = [line for text in files(code).values() for line in text.splitlines()]
        rows.append(("fit" if code in FIT_LANGS else "report", f"notes {code}", {code}, lines))
    for n, folder in enumerate(args.workspaces):
        lines = [line for path in sorted(Path(folder).rglob("*.md")) if ".memory" not in path.parts
                 for line in path.read_text(encoding="utf-8").splitlines()]
        rows.append(("fit" if n == 0 else "report", folder, set(), lines))  # a user's: every share shown
    for part in ("fit", "report"):
        print(f"\n{part}: shares of the entries whose language is told (MIN_SHARE = {MIN_SHARE})")
        others: list[float] = []
        for row_part, name, own, lines in rows:
            if row_part != part:
                continue
            found, told = shares(lines)
            if own:
                others += [v for code, v in found.items() if code not in own]
            listed = ", ".join(f"{code} {v:.3f}" for code, v in found.items())
            print(f"  {name:28} {told:5} told   {listed}")
        print(f"  largest share of a language a benchmark's notes are not written in: {max(others, default=0):.3f}")


if __name__ == "__main__":
    main()
