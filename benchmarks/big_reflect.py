"""Row "reflect" of benchmarks/big.py: `memory reflect` over 10,000 facts (issue 27: <= 3 s).

The workspace is scale.py's generator (benchmarks/workspace_gen.py, 50 entities, one log a day
with a ## Retain section of 12-16 facts): `--reflect-days` (default 715) days make about 10,000
facts. It is indexed once without a model (reflect reads the index's facts, never its vectors).
Each run reflects a fresh copy with `memory reflect --since 4000d` (every fact is new: every
opinion, entity page and list is built) in a process of its own.

The check: every source tree must write the same bank pages, opinion ledger and proposals, byte
for byte, and print the same report (its timing aside); the row stops with the first difference.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stats import measured
from workspace_gen import generate

ROW = "reflect"
TARGET = "reflect over 10,000 facts <= 3 s"
NOW = "2025-11-30T18:00"
MEMORY = str(Path(sys.executable).parent / "memory")
_outputs: dict[str, str] = {}  # source tree -> digest of what its reflect wrote


def add_arguments(parser) -> None:
    parser.add_argument("--reflect-days", type=int, default=715, help="days of logs (715: about 10,000 facts)")


def prepare(workdir: Path, args) -> Path:
    """The indexed workspace (kept under `workdir` and reused)."""
    root = workdir / f"days-{args.reflect_days}"
    if not (root / ".memory").exists():
        shutil.rmtree(root, ignore_errors=True)
        generate(root, args.reflect_days, 50)
        (root / "memory.toml").write_text('[embedding]\nprovider = "none"\n')
        subprocess.run([MEMORY, "--workspace", str(root), "--now", NOW, "index"], check=True,
                       stdout=subprocess.DEVNULL)
    return root


def written(root: Path, report: str) -> str:
    """A digest of every file reflect may write (bank/, MEMORY.md) and of its report."""
    digest = hashlib.sha256(re.sub(r"; [0-9.]+s$", "", report.strip().splitlines()[0]).encode())
    for path in sorted([*(root / "bank").rglob("*.md"), root / "MEMORY.md"]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def run(input_dir: Path, env: dict, args) -> dict:
    copy = input_dir.parent / "run"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(input_dir, copy)
    try:
        wall, cpu, rss, out = measured([MEMORY, "--workspace", str(copy), "--now", NOW, "reflect", "--since",
                                        "4000d"], env)
        digest = written(copy, out)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    source = env.get("PYTHONPATH", "")
    _outputs.setdefault(source, digest)
    if len(set(_outputs.values())) > 1 or _outputs[source] != digest:
        raise SystemExit(f"reflect wrote different pages under {source!r}: {_outputs}")
    facts = int(re.search(r"reflect: (\d+) facts", out).group(1))
    return {"wall_s": wall, "cpu_s": cpu, "rss_mib": rss / 1024, "facts": facts}
