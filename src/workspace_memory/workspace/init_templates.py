"""`memory init`: lay out a workspace from bank_templates/ without overwriting anything.

The templates ship inside the package as `workspace_memory.bank_templates`
(src/workspace_memory/bank_templates/: edit them there).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import date
from importlib import resources

from ..errors import UserError
from ..files import atomic_write_text
from .layout import Workspace

GITIGNORE_LINE = ".memory/"


@dataclass
class InitReport:
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # not written: a folder on the way is a symlink


def _template_files() -> list[tuple[str, str]]:
    """(relative path, text) of every template, daily.md excluded, in a stable order."""
    root = resources.files("workspace_memory.bank_templates")
    out: list[tuple[str, str]] = []

    def walk(node, prefix: str) -> None:  # a Traversable
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            rel = f"{prefix}{child.name}"
            if child.is_dir():
                walk(child, rel + "/")
            elif child.name.endswith(".md") and rel != "daily.md":
                out.append((rel, child.read_text(encoding="utf-8")))

    walk(root, "")
    return out


@functools.cache
def template_boilerplate() -> frozenset[str]:
    """The templates' own text, as entries (whitespace collapsed): what `memory init` wrote, not memory.

    Each paragraph and list item of every template (headings and HTML comments are structure,
    not entries): the introductions of the bank pages and MEMORY.md, the default persona, the
    empty "- Name:" fields. The indexer leaves an entry out when its text is one of these, so
    "who is Priya" never returns "Objective facts about the world and the people in it"; the
    same words edited by a person are theirs and are indexed.
    """
    found: set[str] = set()
    for _, text in _template_files():
        block: list[str] = []
        for line in [*text.splitlines(), ""]:
            plain = line.strip()
            if plain.startswith("- "):
                found.add(" ".join(plain.split()))
            if not plain or plain.startswith(("#", "<!--", "- ")):
                if block:
                    found.add(" ".join(" ".join(block).split()))
                block = []
            else:
                block.append(plain)
    return frozenset(found)


def daily_template(day: date) -> str:
    """Today's log skeleton from bank_templates/daily.md."""
    text = resources.files("workspace_memory.bank_templates").joinpath("daily.md").read_text(encoding="utf-8")
    return text.replace("{date}", day.isoformat())


def init_workspace(ws: Workspace, today: date) -> InitReport:
    """Create MEMORY.md, bank/ pages, bank/entities/, today's log and a .gitignore entry."""
    report = InitReport()
    ws.root.mkdir(parents=True, exist_ok=True)
    planned = _template_files() + [(ws.key_for(ws.daily_path(today)), daily_template(today))]
    for rel, text in planned:
        target = ws.root / rel
        if rel == "MEMORY.md" and ws.core_path.exists():
            target = ws.core_path  # a legacy memory.md counts as the core file
        link = _linked_folder(ws, rel)
        if link is not None:  # never write through a link to somewhere outside the workspace
            report.skipped.append(f"{rel} ({link} is a symbolic link)")
            continue
        with ws.write_lock(ws.key_for(target)):
            if target.exists() or target.is_symlink():
                report.kept.append(ws.key_for(target))
                continue
            atomic_write_text(target, text)
        report.created.append(rel)
    entities = ws.root / "bank" / "entities"
    if _linked_folder(ws, "bank/entities/x") is None:
        entities.mkdir(parents=True, exist_ok=True)
    gitignore = ws.root / ".gitignore"
    if gitignore.is_symlink():
        report.skipped.append(".gitignore (a symbolic link)")
        return report
    with ws.write_lock(".gitignore"):
        try:
            existing = gitignore.read_text(encoding="utf-8") if gitignore.exists() else ""
        except UnicodeDecodeError:  # rewriting would damage it: leave it as it is
            raise UserError(f"{gitignore} is not UTF-8 text; add the line {GITIGNORE_LINE} to it yourself") from None
        if GITIGNORE_LINE not in existing.splitlines():
            sep = "" if not existing or existing.endswith("\n") else "\n"
            atomic_write_text(gitignore, existing + sep + GITIGNORE_LINE + "\n")
            report.created.append(".gitignore" if not existing else ".gitignore (+ .memory/)")
    return report


def _linked_folder(ws: Workspace, rel: str) -> str | None:
    """The first folder on the way to `rel` (inside the workspace) that is a symbolic link, or None."""
    parts = rel.split("/")[:-1]
    for depth in range(1, len(parts) + 1):
        folder = "/".join(parts[:depth])
        if (ws.root / folder).is_symlink():
            return folder
    return None
