"""Several processes at once: two `memory index --rebuild` loops and a `memory recall` loop must all
succeed, and nobody may see "database is locked"."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from conftest import index_db, run_memory, run_ok

REBUILDS = 3  # per rebuild loop; the recall loop runs until both are done (at least RECALLS times)
RECALLS = 3


def add_bulk_notes(root: Path, count: int = 120) -> None:
    """Enough extra files that a rebuild's write transactions overlap the other processes."""
    for n in range(count):
        day = f"2025-10-{(n % 28) + 1:02d}"
        path = root / "memory" / "bulk" / f"{day}-note{n:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        bullets = "\n".join(f"- Entry {n}.{k}: relay check {k}, latency {n * k % 97} ms." for k in range(15))
        path.write_text(f"# {day}\n\n## Notes\n{bullets}\n\n## Retain\n- B @warelay: I ran check {n}.\n",
                        encoding="utf-8")


def test_rebuilds_and_recalls_at_the_same_time(indexed_workspace: Path) -> None:
    """Counts operations, not seconds: a loaded machine makes each slower, never fewer."""
    add_bulk_notes(indexed_workspace)
    run_ok(indexed_workspace, "index")
    logs: list[list] = [[], [], []]
    rebuild = ("index", "--rebuild")
    recall = ("recall", "a828e60", "--json", "--mode", "lexical")

    def rebuilds(log: list) -> None:
        for _ in range(REBUILDS):
            log.append((rebuild, *run_memory(indexed_workspace, *rebuild, timeout=300)))

    writers = [threading.Thread(target=rebuilds, args=(log,)) for log in logs[:2]]
    for thread in writers:
        thread.start()
    while any(t.is_alive() for t in writers) or len(logs[2]) < RECALLS:
        logs[2].append((recall, *run_memory(indexed_workspace, *recall, timeout=300)))
    for thread in writers:
        thread.join()
    runs = [entry for log in logs for entry in log]
    for args, code, _out, err in runs:
        assert "locked" not in err.lower(), (args, err)
        assert "Traceback" not in err, (args, err)
        assert code == 0, (args, code, err)
    assert [len(log) for log in logs[:2]] == [REBUILDS, REBUILDS] and len(logs[2]) >= RECALLS
    for args, _code, out, _err in logs[2]:
        answer = json.loads(out)  # every recall printed a complete JSON answer...
        assert answer["query"] == "a828e60", args
        # ...and found the entry: a rebuild never shows readers an empty or half-built index.
        assert answer["results"] and answer["results"][0]["path"] == "memory/2025-11-12.md", answer
    # When the dust settles the index is whole again.
    status = json.loads(run_ok(indexed_workspace, "status", "--json"))
    with index_db(indexed_workspace) as conn:
        ids = {r[0] for r in conn.execute("SELECT id FROM chunks")}
        assert {r[0] for r in conn.execute("SELECT id FROM chunks_fts_docsize")} == ids  # the index, not its view
        assert {r[0] for r in conn.execute("SELECT id FROM facts")} <= ids
    assert status["files"] == 21 + 120
    hits = json.loads(run_ok(indexed_workspace, "recall", "a828e60", "--json", "--mode", "lexical"))["results"]
    assert hits and hits[0]["path"] == "memory/2025-11-12.md"
