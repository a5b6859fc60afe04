"""The generated parts of docs/: the CLI reference (docs/cli.md) and the module table (docs/layout.md).

Both are written by cog (cogapp) between the `[[[cog` and `[[[end]]]` markers of the page, from the
code itself: the command reference is click's own help for every command, the module table is
every module's path and the first sentence of its docstring. `tests/test_docs_generated.py` runs
`cog --check` and fails when a page has drifted from the code; to bring the pages up to date:

    cog -r -I tools docs/cli.md docs/layout.md

Nothing here is imported by the package: it reads the package's source (ast, no import) for the
module table and imports only the CLI group (`workspace_memory.cli.app`) for the reference.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "workspace_memory"
WIDTH = 100  # the help's width, fixed so that the reference does not depend on the terminal
LANGUAGE_CODE = re.compile(r"[a-z]{2}")  # lang/<concern>/<code>.py: one row per concern, naming each code
SUMMARY_CHARS = 220  # a docstring's first sentence longer than this is cut at a word


def cli_reference() -> str:
    """Markdown: a section per `memory` command (groups and their subcommands), each its --help."""
    from workspace_memory.cli.app import cli

    root = cli.make_context("memory", [], resilient_parsing=True, terminal_width=WIDTH, max_content_width=WIDTH)
    parts = [_help_section(("memory",), cli, root)]

    def walk(group: click.Group, ctx: click.Context, path: tuple[str, ...]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            sub = command.make_context(name, [], parent=ctx, resilient_parsing=True)
            parts.append(_help_section((*path, name), command, sub))
            if isinstance(command, click.Group):
                walk(command, sub, (*path, name))

    walk(cli, root, ("memory",))
    return "\n".join(parts)


def _help_section(path: tuple[str, ...], command: click.Command, ctx: click.Context) -> str:
    """A heading (deeper for a subcommand) and the command's help as a text block."""
    lines = [line.rstrip() for line in command.get_help(ctx).splitlines()]
    heading = "#" * min(len(path) + 1, 4)
    return f"{heading} {' '.join(path)}\n\n```text\n" + "\n".join(lines) + "\n```\n"


def module_table() -> str:
    """Markdown: a table row for every module and package under src/workspace_memory/, by path.

    The per-language data modules (lang/<concern>/<code>.py) are named on their concern's row.
    """
    paths = sorted(PACKAGE.rglob("*.py"), key=_order)
    languages = [path for path in paths if path.parent.parent.name == "lang" and LANGUAGE_CODE.fullmatch(path.stem)]
    rows = ["| module | what it is |", "|---|---|"]
    for path in paths:
        if path in languages:
            continue
        summary = _summary(path)
        codes = [f"`{lang.stem}`" for lang in languages if path.name == "__init__.py" and lang.parent == path.parent]
        if codes:
            summary += f" Languages: {', '.join(codes)}."
        rows.append(f"| `{_name(path)}` | {summary} |")
    return "\n".join(rows) + "\n"


def _order(path: Path) -> tuple[str, ...]:
    """A package's __init__ first, then its modules, then its sub-packages."""
    parts = path.relative_to(PACKAGE).parts
    return (*parts[:-1], "" if parts[-1] == "__init__.py" else parts[-1])


def _name(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    if relative.name == "__init__.py":
        return f"{relative.parent.as_posix()}/" if relative.parent.parts else "workspace_memory/"
    return relative.as_posix()


def _summary(path: Path) -> str:
    """The first sentence of the module's docstring, on one line, `|` escaped for a table."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    sentence = re.split(r"(?<=[.!?])\s(?=[A-Z`\"(])", paragraph, maxsplit=1)[0]
    if len(sentence) > SUMMARY_CHARS:
        sentence = sentence[:SUMMARY_CHARS].rsplit(" ", 1)[0] + " …"
    return sentence.replace("|", "\\|") or "(no docstring)"
