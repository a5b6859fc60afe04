"""`memory doctor [--fix] [--json]`: each finding with what, where (path:line) and how to fix it;
exit 0 when clean, 1 while findings remain; --fix merges a split core file without losing a line,
re-points moved evidence links and rebuilds a stale or unreadable index."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from conftest import NOW, index_db, run_memory, run_ok, write_files


def doctor(root: Path, *args: str) -> tuple[int, dict]:
    code, out, err = run_memory(root, "doctor", "--json", *args)
    assert "Traceback" not in err, err
    return code, json.loads(out)


def codes(report: dict) -> list[tuple[str, str]]:
    return [(f["code"], f["where"]) for f in report["findings"]]


CLEAN = {
    "MEMORY.md": "# Core memory\n\n## Human\n- Name: Peter\n",
    "memory/2025-11-30.md": "# 2025-11-30\n\n## Retain\n- W @Peter: Back in Vienna.\n",
    "bank/entities/Peter.md": "# Peter\n\nLives in Vienna.\n",
}


def test_a_clean_workspace_exits_0(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write_files(root, CLEAN)
    run_ok(root, "index")
    code, report = doctor(root)
    assert (code, report["clean"], report["findings"]) == (0, True, [])
    assert run_ok(root, "doctor").strip() == "no problems found"


def test_findings_say_what_where_and_how(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    os.symlink(ws / "memory" / "2025-11-10.md", ws / "memory" / "link.md")
    (ws / "memory" / "blob.md").write_bytes(bytes(range(256)) * 20)
    code, report = doctor(ws)
    assert code == 1 and not report["clean"]
    found = codes(report)
    assert ("malformed-retain", "memory/2025-11-16.md:8") in found
    assert ("missing-entity-page", "memory/2025-11-10.md:8") in found  # @Acme, first mentioned there
    assert ("symlink-skipped", "memory/link.md") in found
    assert ("binary-skipped", "memory/blob.md") in found
    assert all(f["what"] and f["how"] for f in report["findings"])
    human = run_memory(ws, "doctor")[1]
    assert "memory/2025-11-16.md:8: not a Retain fact" in human and "    fix: " in human


def test_fix_merges_a_split_core_file_and_loses_nothing(workspace: Path) -> None:
    legacy = ("# Old core\n\nA loose line from the old file.\n\n## Human\n- Name: Peter\n- Has a cat named Miso.\n\n"
              "## Projects\n<!-- limit: 400 -->\n- warelay relay\n")
    (workspace / "memory.md").write_text(legacy)
    canonical = (workspace / "MEMORY.md").read_text()
    run_ok(workspace, "index")
    code, report = doctor(workspace)
    assert ("split-core", "memory.md") in codes(report) and code == 1
    code, report = doctor(workspace, "--fix")
    assert [f["code"] for f in report["fixed"]] == ["split-core"]
    assert not (workspace / "memory.md").exists()
    archived = list((workspace / ".memory-repair").glob("*/memory.md"))
    assert len(archived) == 1 and archived[0].read_text() == legacy  # byte for byte
    merged = (workspace / "MEMORY.md").read_text()
    assert merged.startswith(canonical)  # the canonical file only grows
    for line in legacy.splitlines():
        if line.strip() and not line.startswith("# "):
            assert line in merged.splitlines(), line
    assert merged.count("- Name: Peter") == 1  # what both had is not doubled
    with index_db(workspace) as conn:
        assert conn.execute("SELECT COUNT(*) FROM files WHERE path LIKE '.memory-repair%'").fetchone()[0] == 0
    assert "split-core" not in [f["code"] for f in doctor(workspace)[1]["findings"]]


def test_fix_repoints_moved_evidence_and_reports_vanished(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    run_ok(ws, "reflect", "--since", "30d")
    log = ws / "memory" / "2025-11-18.md"
    log.write_text(log.read_text().replace("## Notes\n", "## Notes\n- An added line moves the facts down.\n"))
    code, report = doctor(ws)
    moved = [f for f in report["findings"] if f["code"] == "evidence-moved"]
    assert moved and all(f["fixable"] for f in moved)
    page = ws / "bank" / "entities" / "Andy.md"
    before = page.read_text().splitlines()
    cited = [i for i, line in enumerate(before) if "2025-11-18.md#L" in line]  # every fact moved one down
    assert len(cited) == 3  # on Nov 30 Peter is still in Marrakech: the Dec 8 flight replaces nothing yet
    code, report = doctor(ws, "--fix")
    assert {f["code"] for f in report["fixed"]} >= {"evidence-moved"}
    assert "evidence-moved" not in [f["code"] for f in report["findings"]]
    after = page.read_text().splitlines()
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed == cited  # only the lines with the moved link, and in them only the line number
    one_down = lambda m: f"2025-11-18.md#L{int(m[1]) + 1}"  # noqa: E731
    assert all(re.sub(r"2025-11-18\.md#L(\d+)", one_down, before[i]) == after[i] for i in cited)
    # a fact deleted from its log: its link has nothing to point at
    log.write_text(log.read_text().replace("- O(c=0.6) @Andy: Likes surprise parties more than dinners.\n", ""))
    code, report = doctor(ws)
    vanished = [f for f in report["findings"] if f["code"] == "evidence-vanished"]
    assert code == 1 and any(f["path"] == "bank/entities/Andy.md" for f in vanished)


def test_fix_rebuilds_an_index_with_other_settings(indexed_workspace: Path) -> None:
    db = indexed_workspace / ".memory" / "index.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (json.dumps({"schema": 0}),))
    code, report = doctor(indexed_workspace)
    assert ("index-settings", ".memory/index.sqlite") in codes(report)
    code, report = doctor(indexed_workspace, "--fix")
    assert "index-settings" in [f["code"] for f in report["fixed"]]


def test_fix_rebuilds_an_unreadable_index(indexed_workspace: Path) -> None:
    db = indexed_workspace / ".memory" / "index.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    code, report = doctor(indexed_workspace)
    assert code == 1 and codes(report)[0] == ("index-unreadable", ".memory/index.sqlite")
    code, report = doctor(indexed_workspace, "--fix")
    assert "index-unreadable" in [f["code"] for f in report["fixed"]]
    with index_db(indexed_workspace) as conn:
        assert conn.execute("SELECT COUNT(*) FROM files").fetchone()[0] > 10


def test_a_failed_store_check_is_a_finding(indexed_workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workspace_memory.api import Memory
    from workspace_memory.index.sqlite.store import SqliteStore

    failed = {"check": "migrations", "ok": False, "detail": "5 of 7 applied"}
    monkeypatch.setattr(SqliteStore, "health", lambda self: [failed])
    mem = Memory.open(str(indexed_workspace), NOW)
    report = mem.doctor()
    found = [f for f in report.findings if f.code == "store-migrations"]
    assert found and found[0].what == "5 of 7 applied" and "memory store health" in found[0].how


def test_a_forged_invalid_mark_is_text_to_the_evidence_checker_as_to_the_parser(tmp_path: Path) -> None:
    """Issue 25: a fact whose text ends in a forged "~~ (invalid since …)" is valid text; reflect
    cites it, and doctor found "the line it cites is no longer in …" that nothing could clear."""
    root = tmp_path / "ws"
    run_ok(root, "init")
    run_ok(root, "retain", "W @Sam: Lives in Rome.~~ (invalid since 2025-01-01: forged)")
    run_ok(root, "reflect", "--since", "30d")
    assert "Lives in Rome" in (root / "bank" / "entities" / "Sam.md").read_text(encoding="utf-8")
    run_ok(root, "index")
    code, out, err = run_memory(root, "doctor", "--json")
    findings = json.loads(out)["findings"]
    assert not [f for f in findings if f["code"].startswith("evidence")], findings


def test_the_link_to_the_fact_that_superseded_a_line_is_not_moved_evidence(tmp_path: Path) -> None:
    """A superseded line on a bank page cites two facts: "(superseded by [the newer fact]; ...) ·
    [the old fact]". The first link points at the newer fact, which never holds the old claim:
    doctor called it moved evidence ("the text is at line N") and --fix re-pointed it at the old fact."""
    root = tmp_path / "ws"
    write_files(root, {"memory/2025-11-28.md": "# 2025-11-28\n\n## Retain\n- W @Peter: Lives in Vienna.\n"
                                               "- W @Peter: Moved to London.\n"})
    run_ok(root, "reflect", "--since", "30d")
    page = root / "bank" / "entities" / "Peter.md"
    assert "(superseded by [memory/2025-11-28.md#L5]" in page.read_text(encoding="utf-8")
    run_ok(root, "index")
    code, report = doctor(root)
    assert not [f for f in report["findings"] if f["code"].startswith("evidence")], report["findings"]
    before = page.read_text(encoding="utf-8")
    doctor(root, "--fix")
    assert page.read_text(encoding="utf-8") == before
    # The newer fact's line gone: that link is reported, never re-pointed at the old claim.
    (root / "memory" / "2025-11-28.md").write_text("# 2025-11-28\n\n## Retain\n- W @Peter: Lives in Vienna.\n")
    vanished = [f for f in doctor(root)[1]["findings"] if f["code"].startswith("evidence")]
    assert vanished and all(f["code"] == "evidence-vanished" for f in vanished), vanished
