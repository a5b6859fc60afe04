"""The workspace layout: which files count, root-file rules, symlinks, hidden folders, extra paths."""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path

import pytest

from conftest import run_ok
from workspace_memory.errors import PathRefused, UserError
from workspace_memory.workspace.layout import Workspace, day_from_name, file_role


def touch(root: Path, rel: str, text: str = "# x\n\nbody\n") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def keys(ws: Workspace) -> list[str]:
    return [mf.key for mf in ws.markdown_files()]


# ---------------------------------------------------------------------------------------- core file


def test_memory_md_is_canonical_when_both_exist(tmp_path: Path) -> None:
    touch(tmp_path, "MEMORY.md", "# canonical\n")
    touch(tmp_path, "memory.md", "# legacy\n")
    ws = Workspace.open(tmp_path, env={})
    assert ws.core_path == tmp_path / "MEMORY.md"
    listed = keys(ws)
    assert "MEMORY.md" in listed
    assert "memory.md" not in listed


def test_legacy_memory_md_used_only_when_canonical_absent(tmp_path: Path) -> None:
    touch(tmp_path, "memory.md", "# legacy\n")
    ws = Workspace.open(tmp_path, env={})
    assert ws.core_path == tmp_path / "memory.md"
    assert keys(ws) == ["memory.md"]
    # Once MEMORY.md appears, the legacy file is no longer read.
    touch(tmp_path, "MEMORY.md", "# canonical\n")
    assert keys(ws) == ["MEMORY.md"]


def test_no_core_file_is_fine(tmp_path: Path) -> None:
    touch(tmp_path, "memory/2025-11-27.md")
    ws = Workspace.open(tmp_path, env={})
    assert ws.core_path == tmp_path / "MEMORY.md"
    assert keys(ws) == ["memory/2025-11-27.md"]


# ---------------------------------------------------------------------------------------- listing


def test_lists_memory_and_bank_recursively_and_nothing_else(tmp_path: Path) -> None:
    wanted = [
        "MEMORY.md",
        "memory/2025-11-27.md",
        "memory/notes/deep/idea.md",
        "memory/UPPER.MD",
        "bank/world.md",
        "bank/entities/Peter.md",
        "bank/entities/people/Andy.md",
    ]
    for rel in wanted:
        touch(tmp_path, rel)
    unwanted = [
        "README.md",  # top-level files other than the core file
        "notes/other.md",  # folders other than memory/ and bank/ (without config)
        "memory/notes.txt",
        "memory/2025-11-27.md.bak",
        "bank/image.png",
    ]
    for rel in unwanted:
        touch(tmp_path, rel)
    listed = keys(Workspace.open(tmp_path, env={}))
    assert sorted(listed) == sorted(wanted)
    assert len(listed) == len(set(listed))
    assert listed == keys(Workspace.open(tmp_path, env={})), "the order must be stable"


def test_state_and_hidden_folders_never_listed(tmp_path: Path) -> None:
    touch(tmp_path, "memory/2025-11-27.md")
    for rel in [
        ".memory/index.md",
        ".memory/memory/2025-11-27.md",
        ".memory-repair/2025-11-30T10-00/memory.md",
        "memory/.hidden/secret.md",
        "memory/.drafts/2025-11-28.md",
        "bank/.trash/world.md",
        "memory/.2025-11-27.md.tmp.md",
        ".git/memory.md",
    ]:
        touch(tmp_path, rel)
    (tmp_path / "memory.toml").write_text('extra_paths = ["extra"]\n', encoding="utf-8")
    touch(tmp_path, "extra/ok.md")
    touch(tmp_path, "extra/.hidden/no.md")
    listed = keys(Workspace.open(tmp_path, env={}))
    assert sorted(listed) == ["extra/ok.md", "memory/2025-11-27.md"]


def test_symlinked_files_and_folders_never_listed(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    touch(outside, "secret.md", "# secret\n")
    touch(outside, "folder/inner.md", "# inner\n")
    real = touch(root, "memory/2025-11-27.md")
    touch(root, "bank/world.md")
    (root / "memory" / "link-to-outside.md").symlink_to(outside / "secret.md")
    (root / "memory" / "link-to-inside.md").symlink_to(real)
    (root / "memory" / "linked-folder").symlink_to(outside / "folder", target_is_directory=True)
    (root / "bank" / "entities").symlink_to(outside / "folder", target_is_directory=True)
    ws = Workspace.open(root, env={})
    assert sorted(keys(ws)) == ["bank/world.md", "memory/2025-11-27.md"]


def test_symlinked_core_file_and_scanned_roots_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    touch(outside, "MEMORY.md", "# elsewhere\n")
    touch(outside, "mem/2025-11-27.md")
    root.mkdir()
    (root / "MEMORY.md").symlink_to(outside / "MEMORY.md")
    (root / "memory").symlink_to(outside / "mem", target_is_directory=True)
    touch(root, "bank/world.md")
    assert keys(Workspace.open(root, env={})) == ["bank/world.md"]


def test_extra_paths_from_config(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    touch(root, "MEMORY.md")
    touch(root, "projects/alpha.md")
    touch(root, "projects/sub/beta.md")
    touch(root, "projects/skip.txt")
    touch(outside, "team/handbook.md")
    single = touch(outside, "single.md")
    touch(outside, "linked-target/x.md")
    (tmp_path / "link").symlink_to(outside / "linked-target", target_is_directory=True)
    extra = ["projects", str(outside / "team"), str(single), str(tmp_path / "link"), "missing-folder"]
    (root / "memory.toml").write_text(f"extra_paths = {json.dumps(extra)}\n", encoding="utf-8")
    ws = Workspace.open(root, env={})
    listed = keys(ws)
    assert "MEMORY.md" in listed
    assert "projects/alpha.md" in listed and "projects/sub/beta.md" in listed
    assert (outside / "team" / "handbook.md").as_posix() in listed
    assert single.as_posix() in listed
    assert not any("linked-target" in k or k.endswith("/x.md") for k in listed), listed
    assert not any(k.endswith(".txt") for k in listed)
    roles = {mf.key: mf.role for mf in ws.markdown_files()}
    assert roles["projects/alpha.md"] == "extra"
    assert roles[single.as_posix()] == "extra"


def test_extra_path_overlapping_memory_folder_is_listed_once(tmp_path: Path) -> None:
    touch(tmp_path, "memory/2025-11-27.md")
    (tmp_path / "memory.toml").write_text('extra_paths = ["memory"]\n', encoding="utf-8")
    assert keys(Workspace.open(tmp_path, env={})).count("memory/2025-11-27.md") >= 1
    run_ok(tmp_path, "index")
    assert json.loads(run_ok(tmp_path, "status", "--json"))["files"] == 1


def test_broken_config_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "memory.toml").write_text("extra_paths = [unclosed\n", encoding="utf-8")
    with pytest.raises(UserError, match="memory.toml"):
        Workspace.open(tmp_path, env={})


def test_workspace_that_is_a_file_is_refused(tmp_path: Path) -> None:
    target = touch(tmp_path, "plain.md")
    with pytest.raises(UserError, match="not a directory"):
        Workspace.open(target, env={})


def test_workspace_from_environment(tmp_path: Path) -> None:
    ws = Workspace.open(None, env={"MEMORY_WORKSPACE": str(tmp_path)})
    assert ws.root == tmp_path.resolve()


# ---------------------------------------------------------------------------------------- names and roles


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("memory/2025-11-27.md", date(2025, 11, 27)),
        ("memory/2025-11-27-standup.md", date(2025, 11, 27)),
        ("memory/2025-11-27_call.md", date(2025, 11, 27)),
        ("memory/2024/2024-02-29.md", date(2024, 2, 29)),
        ("memory/2025-02-29.md", None),  # not a real day
        ("memory/2025-13-01.md", None),
        ("memory/2025-11-27x.md", None),
        ("memory/20251127.md", None),
        ("memory/notes.md", None),
        ("memory/notes/ideas.md", None),
        ("bank/2025-11-27.md", None),  # only memory/ files are daily logs
        ("MEMORY.md", None),
        ("2025-11-27.md", None),
    ],
)
def test_day_from_name(key: str, expected: date | None) -> None:
    assert day_from_name(key) == expected


@pytest.mark.parametrize(
    ("key", "role"),
    [
        ("MEMORY.md", "core"),
        ("memory.md", "core"),
        ("memory/2025-11-27.md", "daily"),
        ("memory/2025-11-27-standup.md", "daily"),
        ("memory/notes/coffee.md", "note"),
        ("memory/2025-02-30.md", "note"),
        ("bank/world.md", "bank"),
        ("bank/entities/Peter.md", "bank"),
        ("projects/alpha.md", "extra"),
        ("/abs/elsewhere/x.md", "extra"),
    ],
)
def test_file_role(key: str, role: str) -> None:
    assert file_role(key) == role


def test_markdown_file_day_and_role(tmp_path: Path) -> None:
    touch(tmp_path, "memory/2025-11-27.md")
    touch(tmp_path, "bank/world.md")
    files = {mf.key: mf for mf in Workspace.open(tmp_path, env={}).markdown_files()}
    assert files["memory/2025-11-27.md"].day == date(2025, 11, 27)
    assert files["memory/2025-11-27.md"].role == "daily"
    assert files["bank/world.md"].day is None
    assert files["bank/world.md"].role == "bank"


# ---------------------------------------------------------------------------------------- path safety


def test_resolve_markdown_accepts_memory_paths(tmp_path: Path) -> None:
    touch(tmp_path, "MEMORY.md")
    touch(tmp_path, "memory/2025-11-27.md")
    ws = Workspace.open(tmp_path, env={})
    assert ws.resolve_markdown("MEMORY.md").key == "MEMORY.md"
    assert ws.resolve_markdown("memory/2025-11-27.md").key == "memory/2025-11-27.md"
    assert ws.resolve_markdown(str(tmp_path / "memory" / "2025-11-27.md")).key == "memory/2025-11-27.md"
    assert ws.resolve_markdown("memory/../MEMORY.md").key == "MEMORY.md"


@pytest.mark.parametrize(
    "user_path",
    [
        "",
        "../outside.md",
        "memory/../../outside.md",
        "OUTSIDE_ABS",
        "memory/notes.txt",
        "memory/.hidden/secret.md",
        ".memory-repair/MEMORY.md",
        "README.md",
        "memory/link.md",
        "memory/linked/inner.md",
        "memory/missing.md",
        "memory/bad\x00name.md",
    ],
)
def test_resolve_markdown_refuses(tmp_path: Path, user_path: str) -> None:
    root = tmp_path / "ws"
    touch(root, "MEMORY.md")
    touch(root, "README.md")
    touch(root, "memory/notes.txt")
    touch(root, "memory/.hidden/secret.md")
    touch(root, ".memory-repair/MEMORY.md")
    outside = touch(tmp_path, "outside.md")
    touch(tmp_path, "elsewhere/inner.md")
    os.symlink(root / "MEMORY.md", root / "memory" / "link.md")
    os.symlink(tmp_path / "elsewhere", root / "memory" / "linked", target_is_directory=True)
    ws = Workspace.open(root, env={})
    if user_path == "OUTSIDE_ABS":
        user_path = str(outside)
    with pytest.raises(PathRefused):
        ws.resolve_markdown(user_path)


def test_the_state_folder_ignores_itself_in_git_without_init(tmp_path: Path) -> None:
    """`.memory/` holds a .gitignore of its own (`*`), written by whatever creates the folder first
    (here `memory index` in a folder where `memory init` never ran), so `git status` shows none of it;
    a .gitignore the user changed is left as it is."""
    import shutil
    import subprocess

    ws = tmp_path / "notes"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2025-11-30.md").write_text("# Sunday\n\n- Peter drinks espresso.\n", encoding="utf-8")
    run_ok(ws, "index")
    assert (ws / ".memory" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(ws)], check=True)
        status = subprocess.run(["git", "-C", str(ws), "status", "--porcelain", "--untracked-files=all"],
                                capture_output=True, text=True, check=True).stdout
        assert ".memory" not in status and "memory/2025-11-30.md" in status, status
    (ws / ".memory" / ".gitignore").write_text("index.sqlite\n", encoding="utf-8")
    run_ok(ws, "retain", "W @Peter: Lives in Vienna.")
    assert (ws / ".memory" / ".gitignore").read_text(encoding="utf-8") == "index.sqlite\n"
