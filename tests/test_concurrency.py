"""Several processes at once: two `memory index --rebuild` loops and a `memory recall` loop must all
succeed, and nobody may see "database is locked"."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from conftest import index_db, run_memory, run_ok

DURATION = 8.0  # seconds of overlap; each loop runs several times in it


def add_bulk_notes(root: Path, count: int = 120) -> None:
    """Enough extra files that a rebuild's write transactions overlap the other processes."""
    for n in range(count):
        day = f"2025-10-{(n % 28) + 1:02d}"
        path = root / "memory" / "bulk" / f"{day}-note{n:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        bullets = "\n".join(f"- Entry {n}.{k}: relay check {k}, latency {n * k % 97} ms." for k in range(15))
        path.write_text(f"# {day}\n\n## Notes\n{bullets}\n\n## Retain\n- B @warelay: I ran check {n}.\n",
                        encoding="utf-8")


def loop(root: Path, args: tuple[str, ...], deadline: float, log: list) -> None:
    while time.monotonic() < deadline:
        log.append((args, *run_memory(root, *args, timeout=120)))


def test_rebuilds_and_recalls_at_the_same_time(indexed_workspace: Path) -> None:
    add_bulk_notes(indexed_workspace)
    run_ok(indexed_workspace, "index")
    logs: list[list] = [[], [], []]
    deadline = time.monotonic() + DURATION
    jobs = [
        ("index", "--rebuild"),
        ("index", "--rebuild"),
        ("recall", "a828e60", "--json", "--mode", "lexical"),
    ]
    threads = [threading.Thread(target=loop, args=(indexed_workspace, job, deadline, log))
               for job, log in zip(jobs, logs, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=DURATION + 150)
    assert not any(t.is_alive() for t in threads)
    runs = [entry for log in logs for entry in log]
    for args, code, _out, err in runs:
        assert "locked" not in err.lower(), (args, err)
        assert "Traceback" not in err, (args, err)
        assert code == 0, (args, code, err)
    assert all(len(log) >= 2 for log in logs), [len(log) for log in logs]
    for args, _code, out, _err in logs[2]:
        answer = json.loads(out)  # every recall printed a complete JSON answer...
        assert answer["query"] == "a828e60", args
        # ...and found the entry: a rebuild never shows readers an empty or half-built index.
        assert answer["results"] and answer["results"][0]["path"] == "memory/2025-11-12.md", answer
    # When the dust settles the index is whole again.
    status = json.loads(run_ok(indexed_workspace, "status", "--json"))
    with index_db(indexed_workspace) as conn:
        ids = {r[0] for r in conn.execute("SELECT id FROM chunks")}
        assert {r[0] for r in conn.execute("SELECT rowid FROM chunks_fts")} == ids
        assert {r[0] for r in conn.execute("SELECT id FROM facts")} <= ids
    assert status["files"] == 21 + 120
    hits = json.loads(run_ok(indexed_workspace, "recall", "a828e60", "--json", "--mode", "lexical"))["results"]
    assert hits and hits[0]["path"] == "memory/2025-11-12.md"
