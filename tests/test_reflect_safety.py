"""Reflect never loses or corrupts a user's Markdown: broken markers, symlinks, bad bytes, races."""

from __future__ import annotations

from pathlib import Path

import pytest

from workspace_memory.api import Memory
from workspace_memory.errors import UserError
from workspace_memory.reflect import reflect
from workspace_memory.reflect.run import ReflectReport

LOG = "# 2025-11-28\n\n## Retain\n- W @Peter: Lives in Vienna.\n- O(c=0.8) @Peter: Prefers tea.\n"


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory/2025-11-28.md").write_text(LOG)
    return root


def run(root: Path, **kw: object) -> ReflectReport:
    mem = Memory.open(str(root), now="2025-11-30")
    try:
        return reflect(mem.workspace, mem.store, mem.now, "7d", **kw)
    finally:
        mem.close()


def test_a_page_with_broken_markers_is_left_alone(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    page = root / "bank/entities/Peter.md"
    page.parent.mkdir(parents=True)
    text = "# Peter\n\n<!-- reflect:begin entity -->\nhalf a region, the end marker was deleted\n"
    page.write_text(text)
    report = run(root)
    assert page.read_text() == text
    assert any("bank/entities/Peter.md" in n and "unbalanced" in n for n in report.notices)
    assert (root / "bank/opinions.md").exists()  # the rest of the run went ahead


def test_a_broken_ledger_stops_the_run_with_one_clear_error(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    run(root)
    page = root / "bank/opinions.md"
    broken = page.read_text().replace("<!-- reflect:end state -->\n", "")
    page.write_text(broken)
    world = (root / "bank/world.md").read_bytes()
    with pytest.raises(UserError, match="bank/opinions.md: .*unbalanced.*reflect changed nothing"):
        run(root)
    assert page.read_text() == broken and (root / "bank/world.md").read_bytes() == world


def test_symlinked_bank_folders_are_never_written_through(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "bank").mkdir()
    (root / "bank/entities").symlink_to(outside, target_is_directory=True)
    report = run(root)
    assert list(outside.iterdir()) == []
    assert any("symbolic link" in n for n in report.notices)


def test_pages_that_are_not_utf8_are_not_rewritten(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    (root / "bank").mkdir()
    data = b"# World\n\ncaf\xe9 in Latin-1\n"
    (root / "bank/world.md").write_bytes(data)
    report = run(root)
    assert (root / "bank/world.md").read_bytes() == data
    assert any("bank/world.md is not valid UTF-8" in n for n in report.notices)


def test_a_byte_order_mark_is_kept(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    (root / "bank/entities").mkdir(parents=True)
    (root / "bank/entities/Peter.md").write_bytes(b"\xef\xbb\xbf---\nname: Peter\n---\n# Peter\n")
    run(root)
    data = (root / "bank/entities/Peter.md").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf---\nname: Peter\naliases: []\nupdated: 2025-11-30\n---\n# Peter\n")


def test_a_page_saved_during_reflect_keeps_the_humans_version(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = workspace(tmp_path)
    run(root)
    (root / "memory/2025-11-29.md").write_text("# 2025-11-29\n\n## Retain\n- W @Peter: Moved to London.\n")
    from workspace_memory.reflect.writer import PageWriter

    original = PageWriter.commit

    def save_first(self, dry_run: bool):  # the human saves between reading and writing
        (root / "bank/world.md").write_text("# World\n\nMy edit.\n")
        return original(self, dry_run)

    monkeypatch.setattr(PageWriter, "commit", save_first)
    report = run(root)
    assert (root / "bank/world.md").read_text() == "# World\n\nMy edit.\n"
    assert "bank/world.md" not in report.changed
    assert any("changed while reflecting" in n for n in report.notices)


def test_no_workspace_is_an_error_that_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(UserError, match="no workspace"):
        run(missing)
    assert not missing.exists()


def test_an_unreadable_opinions_page_is_one_clear_error(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    (root / "bank").mkdir()
    (root / "bank/opinions.md").write_bytes(b"# Opinions\n\xff\xfe broken\n")
    with pytest.raises(UserError, match="bank/opinions.md is not valid UTF-8"):
        run(root)
    assert (root / "bank/opinions.md").read_bytes() == b"# Opinions\n\xff\xfe broken\n"
