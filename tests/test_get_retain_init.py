"""The commands that read or write Markdown: `get` (paged, confined), `retain` (validated, minimal
diffs), `init` (lays out, never overwrites)."""

from __future__ import annotations

import difflib
import json
import os
import stat
from pathlib import Path

import pytest

from conftest import (
    NOW,
    assert_one_line_error,
    recall_json,
    run_memory,
    run_ok,
    tree_hashes,
)

# ------------------------------------------------------------------------------------------ get


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_get_reads_a_whole_small_file(workspace: Path) -> None:
    out = run_ok(workspace, "get", "memory/2025-11-12.md")
    text = (workspace / "memory/2025-11-12.md").read_text(encoding="utf-8")
    n = len(text.rstrip("\n").split("\n"))
    body, hint = out.rstrip("\n").rsplit("\n", 1)
    assert body == text.rstrip("\n")
    assert hint == f"[memory/2025-11-12.md: lines 1-{n} of {n}; end of file]"


def test_get_pages_by_120_lines_with_next_hint(workspace: Path) -> None:
    lines = [f"line {n}: something worth remembering" for n in range(1, 301)]
    write(workspace, "memory/notes/long.md", "\n".join(lines) + "\n")
    out = run_ok(workspace, "get", "memory/notes/long.md")
    shown = out.rstrip("\n").split("\n")
    assert shown[:-1] == lines[:120]
    assert shown[-1] == "[memory/notes/long.md: lines 1-120 of 300; next: memory get memory/notes/long.md --from 121]"
    page2 = json.loads(run_ok(workspace, "get", "memory/notes/long.md", "--from", "121", "--json"))
    assert (page2["start_line"], page2["end_line"], page2["total_lines"], page2["next_from"]) == (121, 240, 300, 241)
    assert page2["text"] == "\n".join(lines[120:240])
    page3 = json.loads(run_ok(workspace, "get", "memory/notes/long.md", "--from", "241", "--json"))
    assert (page3["end_line"], page3["next_from"]) == (300, None)
    assert page3["text"] == "\n".join(lines[240:])
    few = json.loads(run_ok(workspace, "get", "memory/notes/long.md", "--from", "10", "--lines", "5", "--json"))
    assert few["text"] == "\n".join(lines[9:14]) and few["next_from"] == 15


def test_get_pages_by_12000_characters(workspace: Path) -> None:
    lines = [f"{n:04d} " + "x" * 95 for n in range(1, 201)]  # 100 characters a line
    write(workspace, "bank/wide.md", "\n".join(lines) + "\n")
    pages, start = [], 1
    while True:
        page = json.loads(run_ok(workspace, "get", "bank/wide.md", "--from", str(start), "--json"))
        assert len(page["text"]) <= 12_000
        assert page["end_line"] - page["start_line"] + 1 < 120, "the character limit cut the page first"
        pages.append(page["text"])
        if page["next_from"] is None:
            break
        assert page["next_from"] == page["end_line"] + 1
        start = page["next_from"]
    assert len(pages) == 2
    assert "\n".join(pages) == "\n".join(lines), "the pages together are the file"


def test_get_absolute_path_inside_workspace_is_fine(workspace: Path) -> None:
    out = run_ok(workspace, "get", str(workspace / "MEMORY.md"))
    assert "# Core memory" in out


@pytest.mark.parametrize(
    "target",
    [
        "../outside.md",
        "memory/../../outside.md",
        "ABSOLUTE_OUTSIDE",
        "/etc/passwd",
        "memory/link.md",
        "memory/linked-folder/secret.md",
        "memory/notes.txt",
        "memory/.hidden/secret.md",
        ".memory-repair/MEMORY.md",
        ".memory/index.sqlite",
        "README.md",
        "memory/missing.md",
    ],
)
def test_get_refuses_paths_outside_memory_files(workspace: Path, target: str) -> None:
    outside = write(workspace.parent, "outside.md", "TOP SECRET outside\n")
    write(workspace.parent, "elsewhere/secret.md", "TOP SECRET linked\n")
    write(workspace, "memory/notes.txt", "TOP SECRET text\n")
    write(workspace, "memory/.hidden/secret.md", "TOP SECRET hidden\n")
    write(workspace, ".memory-repair/MEMORY.md", "TOP SECRET archive\n")
    write(workspace, "README.md", "TOP SECRET readme\n")
    os.symlink(outside, workspace / "memory" / "link.md")
    os.symlink(workspace.parent / "elsewhere", workspace / "memory" / "linked-folder", target_is_directory=True)
    if target == "ABSOLUTE_OUTSIDE":
        target = str(outside)
    code, out, err = run_memory(workspace, "get", target)
    assert_one_line_error(code, out, err)
    assert "SECRET" not in out + err and "root:" not in out


def test_get_bad_page_arguments(workspace: Path) -> None:
    for args in (("--from", "0"), ("--from", "999"), ("--lines", "0"), ("--from", "abc")):
        assert_one_line_error(*run_memory(workspace, "get", "MEMORY.md", *args))


# ------------------------------------------------------------------------------------------ retain


DAY_LOG = """\
# 2025-11-29

## Notes
- A quiet Saturday.

## Retain
- W @Peter: Went hiking in the Wienerwald.

## Later
- Evening notes stay below Retain.
"""


def diff_added_only(before: str, after: str) -> list[str]:
    """The added lines; fails if any line was removed or changed."""
    diff = list(difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True)))
    removed = [d for d in diff if d.startswith("- ")]
    assert not removed, "".join(diff)
    return [d[2:] for d in diff if d.startswith("+ ")]


def retain(ws: Path, bullet: str, *args: str) -> dict:
    return json.loads(run_ok(ws, "retain", "--json", *args, "--", bullet))


def test_retain_appends_under_the_retain_section_with_a_minimal_diff(workspace: Path) -> None:
    path = write(workspace, "memory/2025-11-29.md", DAY_LOG)
    written = retain(workspace, "B @Peter: I booked the Wienerwald cabin.", "--date", "2025-11-29")
    after = path.read_text(encoding="utf-8")
    assert diff_added_only(DAY_LOG, after) == ["- B @Peter: I booked the Wienerwald cabin.\n"]
    lines = after.split("\n")
    assert written["path"] == "memory/2025-11-29.md"
    assert lines[written["line"] - 1] == "- B @Peter: I booked the Wienerwald cabin."
    assert lines.index("- W @Peter: Went hiking in the Wienerwald.") + 1 == written["line"] - 1
    assert lines.index("## Later") > written["line"] - 1
    assert written["duplicate"] is False and written["created_file"] is False
    hits = recall_json(workspace, "Wienerwald cabin")["results"]
    assert hits[0]["path"] == "memory/2025-11-29.md" and hits[0]["start_line"] == written["line"]
    assert hits[0]["kind"] == "experience"


def test_retain_creates_the_days_file(workspace: Path) -> None:
    written = retain(workspace, "- O(c=0.7) @Peter: Likes the new relay dashboard.", "--date", "2025-12-05")
    path = workspace / "memory/2025-12-05.md"
    text = path.read_text(encoding="utf-8")
    assert text == "# 2025-12-05\n\n## Retain\n- O(c=0.7) @Peter: Likes the new relay dashboard.\n"
    assert written["created_file"] is True and written["line"] == 4
    hits = recall_json(workspace, "relay dashboard", "--kind", "opinion")["results"]
    assert hits and hits[0]["confidence"] == pytest.approx(0.7)


def test_retain_defaults_to_today_from_now(workspace: Path) -> None:
    (workspace / "memory/2025-11-30.md").unlink()
    written = retain(workspace, "W @Peter: Arrived home.")
    assert written["path"] == "memory/2025-11-30.md"
    code, out, err = run_memory(workspace, "retain", "W @Peter: Left early.", now="2025-12-24T23:59")
    assert code == 0, err
    assert (workspace / "memory/2025-12-24.md").is_file()


def test_retain_creates_a_section_when_missing(workspace: Path) -> None:
    before = "# 2025-11-29\n\n## Notes\n- Only notes today.\n"
    path = write(workspace, "memory/2025-11-29.md", before)
    written = retain(workspace, "S @Peter: Prefers mornings.", "--date", "2025-11-29")
    after = path.read_text(encoding="utf-8")
    added = diff_added_only(before, after)
    assert [a.strip() for a in added if a.strip()] == ["## Retain", "- S @Peter: Prefers mornings."]
    assert written["created_section"] is True
    assert after.split("\n")[written["line"] - 1] == "- S @Peter: Prefers mornings."


def test_retain_duplicate_is_a_no_op(workspace: Path) -> None:
    path = write(workspace, "memory/2025-11-29.md", DAY_LOG)
    first = retain(workspace, "B @Peter: I fixed the gate.", "--date", "2025-11-29")
    once = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    again = retain(workspace, "  -   B @Peter:   I fixed the gate.  ", "--date", "2025-11-29")
    assert again["duplicate"] is True and again["line"] == first["line"]
    assert path.read_bytes() == once and path.stat().st_mtime_ns == mtime
    out = run_ok(workspace, "retain", "W @Peter: Went hiking in the Wienerwald.", "--date", "2025-11-29")
    assert "already retained" in out
    assert path.read_bytes() == once


def test_retain_keeps_crlf_files_crlf(workspace: Path) -> None:
    before = DAY_LOG.replace("\n", "\r\n").encode("utf-8")
    path = workspace / "memory/2025-11-29.md"
    path.write_bytes(before)
    retain(workspace, "W @Peter: Likes CRLF files.", "--date", "2025-11-29")
    after = path.read_bytes()
    assert after.count(b"\n") == after.count(b"\r\n") == before.count(b"\r\n") + 1
    added = diff_added_only(before.decode(), after.decode())
    assert added == ["- W @Peter: Likes CRLF files.\r\n"]


def test_retain_keeps_a_byte_order_mark(workspace: Path) -> None:
    before = "\ufeff" + DAY_LOG
    path = workspace / "memory/2025-11-29.md"
    path.write_bytes(before.encode("utf-8"))
    retain(workspace, "W @Peter: Has a BOM.", "--date", "2025-11-29")
    after = path.read_bytes().decode("utf-8")
    assert after.startswith("\ufeff# 2025-11-29")
    assert diff_added_only(before, after) == ["- W @Peter: Has a BOM.\n"]


def test_retain_ignores_a_retain_heading_inside_a_code_fence(workspace: Path) -> None:
    before = (
        "# 2025-11-29\n\n## Notes\nThe grammar looks like this:\n\n```md\n## Retain\n- W @Example: sample\n```\n\n"
        "## Retain\n- W @Peter: real fact.\n"
    )
    path = write(workspace, "memory/2025-11-29.md", before)
    written = retain(workspace, "B @Peter: another real fact.", "--date", "2025-11-29")
    after = path.read_text(encoding="utf-8")
    assert diff_added_only(before, after) == ["- B @Peter: another real fact.\n"]
    assert after.endswith("- W @Peter: real fact.\n- B @Peter: another real fact.\n")
    hits = recall_json(workspace, "another real fact", "--kind", "experience")["results"]
    assert hits and hits[0]["start_line"] == written["line"]


@pytest.mark.parametrize(
    ("bullet", "reason"),
    [
        ("w @Peter: lowercase", "uppercase"),
        ("X @Peter: unknown prefix", "W|B|O|S"),
        ("O(c=1.5) @Peter: too sure", "0..1"),
        ("W(c=0.5) @Peter: confidence on a world fact", "opinion"),
        ("W", "empty"),
        ("W @Peter: rings a bell\x07", "control"),
        ("", ""),
    ],
)
def test_retain_refuses_bad_bullets_and_touches_nothing(workspace: Path, bullet: str, reason: str) -> None:
    path = write(workspace, "memory/2025-11-29.md", DAY_LOG)
    before = tree_hashes(workspace)
    line = assert_one_line_error(*run_memory(workspace, "retain", bullet, "--date", "2025-11-29"))
    assert reason in line
    assert path.read_text(encoding="utf-8") == DAY_LOG
    assert tree_hashes(workspace) == before


def test_retain_joins_a_multi_line_bullet_into_one_line(workspace: Path) -> None:
    path = write(workspace, "memory/2025-11-29.md", DAY_LOG)
    retain(workspace, "W @Peter: spans\n  two lines", "--date", "2025-11-29")
    assert diff_added_only(DAY_LOG, path.read_text(encoding="utf-8")) == ["- W @Peter: spans two lines\n"]


def test_retain_refuses_to_rewrite_a_file_with_invalid_utf8(workspace: Path) -> None:
    data = DAY_LOG.encode("utf-8").replace(b"A quiet Saturday.", b"A quiet \xff\xfe Saturday.")
    path = workspace / "memory/2025-11-29.md"
    path.write_bytes(data)
    line = assert_one_line_error(*run_memory(workspace, "retain", "W @Peter: x y z", "--date", "2025-11-29"))
    assert "2025-11-29.md" in line
    assert path.read_bytes() == data, "undecodable bytes must never be replaced"


def test_retain_never_writes_through_a_symlink(workspace: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text(DAY_LOG, encoding="utf-8")
    os.symlink(elsewhere, workspace / "memory/2025-11-29.md")
    assert_one_line_error(*run_memory(workspace, "retain", "W @Peter: via link", "--date", "2025-11-29"))
    assert elsewhere.read_text(encoding="utf-8") == DAY_LOG


def test_retain_never_writes_into_a_symlinked_memory_folder(tmp_path: Path) -> None:
    root, outside = tmp_path / "ws", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    os.symlink(outside, root / "memory", target_is_directory=True)
    assert_one_line_error(*run_memory(root, "retain", "W @Peter: via a linked folder", "--date", "2025-11-29"))
    assert list(outside.iterdir()) == []


def test_retain_refuses_a_missing_workspace(tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    assert_one_line_error(*run_memory(missing, "retain", "W @Peter: lost?"))
    assert not missing.exists(), "a mistyped --workspace must not grow a new workspace"


def test_retain_bad_date(workspace: Path) -> None:
    for bad in ("2025-13-01", "yesterday", "30/11/2025"):
        line = assert_one_line_error(*run_memory(workspace, "retain", "W @Peter: x", "--date", bad))
        assert "--date" in line


def test_new_files_get_the_usual_permissions(workspace: Path) -> None:
    retain(workspace, "W @Peter: permissions.", "--date", "2025-12-06")
    mode = stat.S_IMODE((workspace / "memory/2025-12-06.md").stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask
    existing = workspace / "memory/2025-11-30.md"
    existing.chmod(0o640)
    retain(workspace, "W @Peter: keeps mode.")
    assert stat.S_IMODE(existing.stat().st_mode) == 0o640


# ------------------------------------------------------------------------------------------ init


INIT_FILES = {"MEMORY.md", "bank/world.md", "bank/experience.md", "bank/opinions.md", "memory/2025-11-30.md",
              ".gitignore"}


def test_init_lays_out_a_workspace(tmp_path: Path) -> None:
    root = tmp_path / "new"
    run_ok(root, "init")
    for rel in INIT_FILES:
        assert (root / rel).is_file(), rel
    assert (root / "bank" / "entities").is_dir()
    assert ".memory/" in (root / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert (root / "memory/2025-11-30.md").read_text(encoding="utf-8").startswith("# 2025-11-30")
    assert "## Retain" in (root / "memory/2025-11-30.md").read_text(encoding="utf-8")
    run_ok(root, "index")
    st = json.loads(run_ok(root, "status", "--json"))
    assert st["files"] >= 5 and st["warnings"] == []


def test_init_uses_now_for_the_daily_log(tmp_path: Path) -> None:
    root = tmp_path / "new"
    run_ok(root, "init", now="2026-02-03T08:00")
    assert (root / "memory/2026-02-03.md").is_file()
    assert not (root / "memory/2025-11-30.md").exists()


def test_init_never_overwrites(tmp_path: Path) -> None:
    root = tmp_path / "new"
    run_ok(root, "init")
    (root / "MEMORY.md").write_text("# Mine\n\nHand-written core memory.\n", encoding="utf-8")
    (root / "bank/world.md").write_bytes(b"# World\r\n\r\n- edited with CRLF\r\n")
    (root / "memory/2025-11-30.md").write_text("# 2025-11-30\n\n## Retain\n- W @Me: kept\n", encoding="utf-8")
    (root / ".gitignore").write_text("node_modules/\n.memory/\n*.log", encoding="utf-8")
    (root / "bank/opinions.md").unlink()
    before = tree_hashes(root)
    out = run_ok(root, "init")
    after = tree_hashes(root)
    assert (root / "bank/opinions.md").is_file(), "a missing template file is created again"
    assert "bank/opinions.md" in out
    del after["bank/opinions.md"]
    assert after == before, "every existing file keeps its bytes"
    run_ok(root, "init")
    assert (root / ".gitignore").read_text(encoding="utf-8") == "node_modules/\n.memory/\n*.log"


@pytest.mark.parametrize(
    ("name", "before", "expected", "absent"),
    [
        (".gitignore", "*.log", "*.log\n.memory/\n", None),  # appended to, once
        ("memory.md", "# legacy core\n", "# legacy core\n", "MEMORY.md"),  # counts as the core file
    ],
)
def test_init_keeps_what_a_new_workspace_already_has(tmp_path: Path, name: str, before: str, expected: str,
                                                     absent: str | None) -> None:
    root = tmp_path / "new"
    root.mkdir()
    (root / name).write_text(before, encoding="utf-8")
    for _ in range(2):  # a second init changes nothing more
        run_ok(root, "init")
        assert (root / name).read_text(encoding="utf-8") == expected
    assert absent is None or not (root / absent).exists()


def test_init_in_existing_workspace_changes_nothing(workspace: Path) -> None:
    before = tree_hashes(workspace)
    run_ok(workspace, "init", now=NOW)
    after = tree_hashes(workspace)
    created = set(after) - set(before)
    assert {k: after[k] for k in before} == before
    assert created <= INIT_FILES | {"bank/entities/README.md"}
