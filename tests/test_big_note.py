"""Issue 27, one big note: vector windows cite line by line, memory stays bounded, a killed index resumes.

Small versions of benchmarks/big_note.py (the figures are in docs/benchmarks.md, "One big note").
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import NOW, clean_env, memory_executable, run_memory
from workspace_memory.index import rows as rows_module

FAKE = '[embedding]\nprovider = "fake"\n'
WORDS = [f"{a}{b}" for a in ("ka", "lo", "mi", "ne", "su", "ta", "ri", "vo") for b in ("bel", "dor", "fim", "gat",
                                                                                     "hul", "jex", "kop", "lun")]


def note_text(sections: int, bullets: int, seed: int = 27) -> str:
    """A note of 12-word bullets in `sections` sections under `## headings` (deterministic)."""
    rng = random.Random(seed)
    out = ["# Big note\n"]
    for s in range(sections):
        out.append(f"\n## Section {s}\n\n")
        out += ["- " + " ".join(rng.choices(WORDS, k=12)) + "\n" for _ in range(bullets)]
    return "".join(out)


def make_workspace(root: Path, text: str) -> Path:
    (root / "memory").mkdir(parents=True)
    (root / "memory.toml").write_text(FAKE, encoding="utf-8")
    (root / "memory" / "big-note.md").write_text(text, encoding="utf-8")
    return root


def test_windows_of_short_entries_share_one_vector_and_cite_their_own_line(tmp_path, monkeypatch, store, request):
    """In a file over the threshold, short bullets of a section share a vector; a semantic hit on the
    window still cites each bullet's own line (path#Lline), on either store."""
    from pg_fixtures import register, store_environ
    from workspace_memory.api import Memory

    monkeypatch.setattr(rows_module, "WINDOW_FILE_CHARS", 1_000)  # the rule at a test's size
    monkeypatch.delenv("MEMORY_EMBED_PROVIDER", raising=False)
    text = note_text(sections=4, bullets=16)
    ws = register(make_workspace(tmp_path / "ws", text), request)
    with store_environ(ws):
        mem = Memory.open(str(ws), NOW)
        _windows_cite_their_lines(mem, ws, text, store)


def _windows_cite_their_lines(mem, ws: Path, text: str, store: str) -> None:
    from workspace_memory.recall.query import RecallRequest

    assert mem.store.describe().startswith(store)
    report = mem.index()
    lines = text.splitlines()
    bullets = [n + 1 for n, line in enumerate(lines) if line.startswith("- ")]
    # 64 entries, windows of WINDOW_ENTRIES within a section: 4 x 2 vectors, no context vectors.
    assert report.embedded == 8
    if store == "sqlite":
        with sqlite3.connect(ws / ".memory" / "index.sqlite") as conn:
            hashes = conn.execute("SELECT COUNT(*), COUNT(DISTINCT text_hash), COUNT(ctx_hash) FROM chunks").fetchone()
        assert hashes == (64, 8, 0)
    target = bullets[16 + 5]  # the sixth bullet of the second section: inside a window, not its first
    query = lines[target - 1][2:]
    found = mem.recall(RecallRequest(query, k=10, mode="semantic"))["results"]
    cited = [r["source"] for r in found]
    assert f"memory/big-note.md#L{target}" in cited
    assert all("-" not in source.rsplit("#L", 1)[1] for source in cited)  # one line each, never a range
    hybrid = mem.recall(RecallRequest(query, k=3, mode="hybrid"))["results"]
    assert hybrid[0]["source"] == f"memory/big-note.md#L{target}"
    # Two lines of one window, both asked for: both come first (window-mates share a vector, and
    # diversity must not take the second for a near-duplicate of the first).
    other = bullets[16 + 6]
    both = " ".join(lines[target - 1][2:].split()[:6] + lines[other - 1][2:].split()[:6])
    top = {r["source"] for r in mem.recall(RecallRequest(both, k=5, mode="hybrid"))["results"][:2]}
    assert top == {f"memory/big-note.md#L{target}", f"memory/big-note.md#L{other}"}
    # Through the store's interface: a window's first entry has the window's vector as its own; the
    # next entry has none of its own (a zero first row) and the window's as its second.
    from workspace_memory.index.base import Filters

    embedder = mem.embedder()[0]
    vectors = mem.store.vectors(embedder)
    found = vectors.search(embedder.embed_query(lines[bullets[16] - 1][2:]), 10, Filters())
    by_line = {row["start_line"]: cid for cid, row in mem.store.rows([cid for cid, _ in found]).items()}
    head_id, member_id = by_line[bullets[16]], by_line[bullets[17]]
    stored = vectors.vectors_of([head_id, member_id])
    assert stored[head_id].shape[0] == 1 and not stored[member_id][0].any()
    assert np.allclose(stored[member_id][1], stored[head_id][0])
    mem.close()


def test_a_small_file_keeps_two_vectors_an_entry(tmp_path, monkeypatch):
    """Under the threshold (every daily log of LoCoMo), nothing changes: entry alone plus context."""
    from workspace_memory.api import Memory

    monkeypatch.delenv("MEMORY_EMBED_PROVIDER", raising=False)
    ws = make_workspace(tmp_path / "ws", note_text(sections=2, bullets=10))
    mem = Memory.open(str(ws), NOW)
    mem.index()
    mem.close()
    with sqlite3.connect(ws / ".memory" / "index.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT text_hash), COUNT(ctx_hash) FROM chunks").fetchone() \
            == (20, 20, 18)


# The peak RSS of `memory index` of a 4 MB note (about 48,000 entries) with the fake embedder, in the
# child itself (VmHWM: its own peak; ru_maxrss would not do, since Linux keeps it across exec and a
# child of a big pytest worker reported the worker's peak): about 99 MiB measured (docs/benchmarks.md "One big note");
# parsed whole, 172 MiB; its rows made at once, 131 MiB; both, 169 MiB before this change.
RSS_BOUND_MIB = 120


@pytest.mark.slow
def test_indexing_a_big_note_stays_within_its_memory_bound(tmp_path):
    ws = make_workspace(tmp_path / "ws", note_text(sections=1_200, bullets=40))
    assert (ws / "memory" / "big-note.md").stat().st_size > 3_500_000
    script = textwrap.dedent(f"""
        import json
        from workspace_memory.api import Memory
        mem = Memory.open({str(ws)!r}, {NOW!r})
        report = mem.index()
        peak = int(next(x for x in open("/proc/self/status") if x.startswith("VmHWM")).split()[1]) / 1024
        print(json.dumps({{"added": report.added, "rss_mib": peak}}))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                          env=clean_env({"MEMORY_EMBED_PROVIDER": None}))
    assert proc.returncode == 0, proc.stderr[-2000:]
    figures = json.loads(proc.stdout.splitlines()[-1])
    assert figures["added"] == 1
    assert figures["rss_mib"] < RSS_BOUND_MIB, figures


def _cached(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.2) as conn:
            return conn.execute("SELECT COUNT(*) FROM embedding_cache").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_an_index_killed_midway_resumes_without_embedding_again(tmp_path):
    """SIGKILL `memory index` once some batches of vectors are committed: the next run embeds only the rest
    (the `embedded` count of `index --json`), and the rows committed before the kill are kept."""
    ws = make_workspace(tmp_path / "ws", note_text(sections=150, bullets=40))  # 6,000 entries, 11,850 texts
    db = ws / ".memory" / "index.sqlite"
    cmd = [memory_executable(), "--workspace", str(ws), "--now", NOW, "index", "--json"]
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=clean_env({"MEMORY_EMBED_PROVIDER": None}))
    deadline = time.monotonic() + 300
    while _cached(db) < 512 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    kept = _cached(db)
    total = 6_000 + 150 * 39  # each entry alone, and after the previous one of its section
    assert 0 < kept < total, kept  # killed mid-way through the embedding
    code, out, err = run_memory(ws, "index", "--json", env={"MEMORY_EMBED_PROVIDER": None})
    assert code == 0, err
    report = json.loads(out)
    assert report["added"] == 0 and report["unchanged"] == 1  # the rows were committed before the kill
    assert report["embedded"] == total - kept  # every text but those cached: none twice
    assert _cached(db) == report["embedded"] + kept


def test_a_note_over_the_limit_is_indexed_up_to_it_with_a_warning_in_status_and_doctor(tmp_path, monkeypatch):
    from workspace_memory import files
    from workspace_memory.api import Memory

    monkeypatch.setattr(files, "MAX_INDEXED_BYTES", 2_000)  # the 20 MB limit at a test's size
    monkeypatch.delenv("MEMORY_EMBED_PROVIDER", raising=False)
    text = note_text(sections=2, bullets=40)
    ws = make_workspace(tmp_path / "ws", text)
    (ws / "memory.toml").write_text('[embedding]\nprovider = "none"\n', encoding="utf-8")
    mem = Memory.open(str(ws), NOW)
    mem.index()
    kept = text.encode()[:2_000].decode()
    last_line = kept[: kept.rindex("\n")].count("\n") + 1  # the last whole line before the limit
    with sqlite3.connect(ws / ".memory" / "index.sqlite") as conn:
        assert conn.execute("SELECT MAX(end_line) FROM chunks").fetchone()[0] == last_line
    warnings = [w for w in mem.status()["warnings"] if w["path"] == "memory/big-note.md"]
    assert [w["message"] for w in warnings] == [f"file is {len(text.encode()):,} bytes; only the first 2,000 "
                                                "are indexed"]
    findings = [f for f in mem.doctor().findings if f.code == "file-truncated"]
    assert [(f.path, f.line) for f in findings] == [("memory/big-note.md", warnings[0]["line"])]
    mem.close()
