"""bfloat16 matrix products for long encodes (issue 27): the engine's encoder both ways, alternating, in one run.

    python benchmarks/bf16.py [--texts 3200] [--rounds 3] [--kind windows|bullets|prose]

Encodes the same texts with `UseEmbedder` as a recall does (numpy, float32) and as a long
`memory index` does after `expect(count)` (embed/use_bf16.py: the model's seven matrix products in
bfloat16 through torch), alternating rounds, and prints each round's wall and CPU time, the median
CPU ratio, and the least and mean cosine between the two vectors of each text.

Texts: `windows` are 8 made-up bullets joined as the engine's windows join short items
(benchmarks/big_note.py's vocabulary), `bullets` single such bullets, `prose` the paragraphs of the
project's docs. The load average is printed at start and end: compare CPU times when it is high.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))
from big_note import WORDS_PER_BULLET, vocabulary  # noqa: E402


def texts_of(kind: str, count: int) -> list[str]:
    rng = random.Random(27)
    vocab = vocabulary(rng)
    bullets = ["- " + " ".join(rng.choices(vocab, k=WORDS_PER_BULLET)) for _ in range(count * 8)]
    if kind == "bullets":
        return bullets[:count]
    if kind == "windows":
        return ["\n".join(bullets[i * 8:(i + 1) * 8]) for i in range(count)]
    paragraphs = [p.strip() for doc in sorted((ROOT / "docs").glob("*.md"))
                  for p in doc.read_text().split("\n\n") if len(p.strip()) > 40]
    return (paragraphs * (count // max(1, len(paragraphs)) + 1))[:count]


def timed(embed, texts: list[str]) -> tuple[float, float, np.ndarray]:
    wall, cpu = time.perf_counter(), time.process_time()
    vectors = embed(texts)
    return time.perf_counter() - wall, time.process_time() - cpu, vectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=3200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kind", choices=("windows", "bullets", "prose"), default="windows")
    args = parser.parse_args()
    from workspace_memory.embed import use_bf16
    from workspace_memory.embed.use import UseEmbedder

    print(f"load average {os.getloadavg()[0]:.2f} at start; bfloat16: {use_bf16.unavailable_reason() or 'available'}")
    texts = texts_of(args.kind, args.texts)
    plain, fast = UseEmbedder(), UseEmbedder()
    plain.embed_documents(texts[:16])
    started = time.perf_counter()
    fast.expect(use_bf16.LONG_JOB)
    print(f"switch (torch import, weights, parity check): {time.perf_counter() - started:.2f} s; "
          f"engaged: {fast._long is not None}")
    ratios = []
    for round_ in range(args.rounds):
        wall_p, cpu_p, ref = timed(plain.embed_documents, texts)
        wall_f, cpu_f, got = timed(fast.embed_documents, texts)
        cosines = np.sum(ref * got, axis=1)
        ratios.append(cpu_p / cpu_f)
        print(f"round {round_ + 1}: float32 {wall_p:.1f} s wall / {cpu_p:.1f} s CPU; bfloat16 {wall_f:.1f} s / "
              f"{cpu_f:.1f} s; CPU ratio {cpu_p / cpu_f:.2f}; cosine min {cosines.min():.6f} mean {cosines.mean():.6f}")
    print(f"{len(texts)} {args.kind}: median CPU ratio {statistics.median(ratios):.2f}; "
          f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
