"""The generated parts of docs/ match the code: `cog --check` (as sqlite-utils and llm check theirs).

docs/cli.md's command reference is click's help of every command, docs/layout.md's module table
names every module with its docstring's first sentence; both are written by tools/docgen.py. When
this fails, regenerate: `cog -r -I tools docs/cli.md docs/layout.md`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "docs" / "cli.md", ROOT / "docs" / "layout.md"]
SRC = ROOT / "src" / "workspace_memory"

sys.path.insert(0, str(ROOT / "tools"))
import docgen  # noqa: E402  (tools/ is not a package; the generator the pages name)


def test_the_generated_docs_match_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    from cogapp import Cog

    status = Cog().main(["cog", "--check", "--diff", "-I", str(ROOT / "tools"), *map(str, PAGES)])
    out = capsys.readouterr().out
    assert status == 0, f"{out}\ndocs drifted from the code: run `cog -r -I tools docs/cli.md docs/layout.md`"


def test_the_check_fails_on_a_page_that_drifted(tmp_path: Path) -> None:
    """A stale page (an option's line removed from the generated part) fails `cog --check`."""
    page = tmp_path / "cli.md"
    text = PAGES[0].read_text(encoding="utf-8")
    stale = re.sub(r"^  --k [^\n]*\n", "", text, count=1, flags=re.M)
    assert stale != text
    page.write_text(stale, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "cogapp", "--check", "-I", str(ROOT / "tools"), str(page)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "changed" in proc.stdout + proc.stderr


def test_the_reference_has_every_command_and_option() -> None:
    import click

    from workspace_memory.cli.app import cli

    text = PAGES[0].read_text(encoding="utf-8")
    ctx = click.Context(cli)
    missing = []

    def walk(group: click.Group, path: tuple[str, ...]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            heading = f"\n#{'#' * min(len(path) + 2, 3)} {' '.join(('memory', *path, name))}\n"
            section = text.split(heading, 1)[1].split("\n#", 1)[0] if heading in text else ""
            if not section:
                missing.append(" ".join((*path, name)))
            for param in command.params:
                if isinstance(param, click.Option) and not param.hidden and param.opts[0] not in section:
                    missing.append(f"{' '.join((*path, name))} {param.opts[0]}")
            if isinstance(command, click.Group):
                walk(command, (*path, name))

    walk(cli, ())
    assert not missing, f"not in docs/cli.md: {missing}"


def test_the_module_table_names_every_module() -> None:
    table = docgen.module_table()
    assert (ROOT / "docs" / "layout.md").read_text(encoding="utf-8").count(table) == 1
    missing = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC)
        if relative.parent.parent.name == "lang" and len(path.stem) == 2:
            named = f"`{path.stem}`" in table.split(f"`{relative.parent.as_posix()}/`", 1)[1].split("\n", 1)[0]
        elif path.name == "__init__.py":
            named = f"`{relative.parent.as_posix()}/`" in table if relative.parent.parts else True
        else:
            named = f"`{relative.as_posix()}`" in table
        if not named:
            missing.append(relative.as_posix())
    assert not missing, f"not in docs/layout.md's module table: {missing}"
