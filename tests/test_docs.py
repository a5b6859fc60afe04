"""The README and docs/ against the code (in the spirit of sqlite-utils' tests/test_docs.py).

- every `memory` command and option the docs name exists in click, and every click command and
  option is named somewhere (in a `memory ...` code span, a code-block line, or the README's
  command table);
- every relative link resolves to a file, and every `#anchor` to a heading of it (docs/history/ too);
- every `MEMORY_*` environment variable the code reads is documented;
- the Layout section lists every package folder under src/workspace_memory/;
- every command and option has help text.
"""

import re
from pathlib import Path

import click
import pytest

from workspace_memory.cli.app import cli

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "workspace_memory"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# The dated working records (docs/history/): their links must resolve; the commands they name are
# those of their day, so they are not held against today's CLI.
HISTORY = sorted((ROOT / "docs" / "history").glob("*.md"))
FENCE = re.compile(r"^\s*(```|~~~)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])")


def text_and_code(text: str) -> tuple[list[str], list[str]]:
    """The lines outside code fences and the lines inside them."""
    prose, code, fenced = [], [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif fenced:
            code.append(line)
        else:
            prose.append(line)
    return prose, code


GENERATED = re.compile(r"\[\[\[cog.*?\[\[\[end\]\]\]", re.S)


def written(text: str) -> str:
    """The page without its generated parts (cog's, checked by tests/test_docs_generated.py): a
    command a docstring or a --help names there does not count as the docs naming it."""
    return GENERATED.sub("", text)


def table_entries(text: str) -> list[str]:
    """The README's command table as `memory ...` lines: continuations joined, `a | b` split."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("memory [--workspace"))
    entries: list[str] = []
    for line in lines[start + 1:]:
        if FENCE.match(line):
            break
        if re.match(r"  [a-z]", line):
            entries.append(line.strip())
        elif entries:
            entries[-1] += " " + line.strip()
    split: list[str] = []
    for entry in entries:
        # "core append X | core replace Y": alternatives, each naming its command again
        split += ["memory " + part.strip() for part in re.split(r" \| (?=[a-z])", entry)]
    return split


def invocations() -> list[tuple[str, str]]:
    """(file, `memory ...` text) for every code span, code-block line and table entry naming one."""
    found = []
    for path in DOCS:
        text = written(path.read_text(encoding="utf-8"))
        prose, code = text_and_code(text)
        for line in prose:
            found += [(path.name, span) for span in re.findall(r"`(memory [^`]+)`", line)]
        for line in code:
            line = re.sub(r"^\s*\$\s+", "", line)
            if line.startswith("memory "):
                found.append((path.name, line))
        if path.name == "README.md":
            found += [(path.name, entry) for entry in table_entries(text)]
    return found


def parse(invocation: str) -> tuple[list[str], list[str]] | None:
    """The command path and the options of `memory ...`; None when no command is named."""
    invocation = re.sub(r"\s#\s.*", "", invocation)  # a shell comment
    words = re.sub(r"[\[\]()]", " ", invocation).split()[1:]
    while words and words[0] in ("--workspace", "--now"):
        words = words[2:]
    if not words or not re.fullmatch(r"[a-z][a-z-]*(\|[a-z][a-z-]*)*", words[0]):
        return None
    path = [words[0]]
    group = cli.get_command(click.Context(cli), words[0].split("|")[0])
    if isinstance(group, click.Group) and len(words) > 1:
        path.append(words[1])
    options = [opt for word in words for opt in OPTION.findall(word) if word.startswith("-")]
    return path, options


def commands() -> dict[tuple[str, ...], click.Command]:
    """Every leaf command of the `memory` group, by path (lazy commands resolved)."""
    ctx = click.Context(cli)
    found: dict[tuple[str, ...], click.Command] = {}

    def walk(group: click.Group, path: tuple[str, ...]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None, name
            if isinstance(command, click.Group):
                walk(command, (*path, name))
            else:
                found[(*path, name)] = command

    walk(cli, ())
    return found


def option_names(command: click.Command) -> set[str]:
    return {opt for param in command.params if isinstance(param, click.Option)
            for opt in (*param.opts, *param.secondary_opts)}


GLOBAL = option_names(cli) | {"--help", "-h"}


def named_paths(groups: set[tuple[str, ...]] | None = None):  # -> Iterator[(where, invocation, path, options)]
    """Each command path the docs name, with its options (alternatives like `health|list` expanded).

    With `groups` (the commands that have subcommands), a second word counts only after a group:
    `memory recall x` names `recall`, `memory store list` names `store list`.
    """
    for where, invocation in invocations():
        parsed = parse(invocation)
        if parsed is None:
            continue
        path, options = parsed
        for first in path[0].split("|"):
            for second in (path[1].split("|") if len(path) > 1 else [None]):
                single = second is None or (groups is not None and (first,) not in groups)
                yield where, invocation, (first,) if single else (first, second), options


def named() -> dict[tuple[str, ...], set[str]]:
    """The options the docs name for each command path."""
    names: dict[tuple[str, ...], set[str]] = {}
    for _, _, key, options in named_paths():
        names.setdefault(key, set()).update(options)
    return names


def test_named_commands_and_options_exist():
    known = commands()
    groups = {path[:1] for path in known if len(path) > 1}
    wrong = []
    for where, invocation, key, options in named_paths(groups):
        if key not in known:
            wrong.append(f"{where}: `{invocation}`: no command {' '.join(key)!r}")
            continue
        unknown = set(options) - option_names(known[key]) - GLOBAL
        if unknown:
            wrong.append(f"{where}: `{invocation}`: {' '.join(key)} has no {sorted(unknown)}")
    assert not wrong, "\n".join(wrong)


def test_every_command_and_option_is_documented():
    names = named()
    missing = []
    for path, command in commands().items():
        if command.hidden:
            continue
        if path not in names:
            missing.append(f"memory {' '.join(path)}: not named in README.md or docs/")
            continue
        undocumented = option_names(command) - GLOBAL - names[path]
        if undocumented:
            missing.append(f"memory {' '.join(path)}: {sorted(undocumented)} not named with it")
    everything = " ".join(written(p.read_text(encoding="utf-8")) for p in DOCS)
    missing += [f"global option {opt}" for opt in sorted(option_names(cli)) if opt not in everything]
    assert not missing, "\n".join(missing)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r"<!--.*?-->", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    prose, _ = text_and_code(path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for line in prose:
        match = re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            found.add(base if count == 0 else f"{base}-{count}")
            seen[base] = count + 1
    return found


@pytest.mark.parametrize("doc", DOCS + HISTORY, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(doc):
    prose, _ = text_and_code(doc.read_text(encoding="utf-8"))
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", "\n".join(prose)):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file, _, anchor = target.partition("#")
        resolved = (doc.parent / file).resolve() if file else doc
        if not resolved.exists():
            broken.append(f"{target}: no file {resolved}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {resolved.name}")
    assert not broken, "\n".join(broken)


def test_every_environment_variable_is_documented():
    used = {name for path in SRC.rglob("*.py")
            for name in re.findall(r"\bMEMORY_[A-Z][A-Z0-9_]*\b", path.read_text(encoding="utf-8"))}
    assert used  # the search itself works
    everything = " ".join(p.read_text(encoding="utf-8") for p in DOCS)
    undocumented = sorted(name for name in used if not re.search(rf"\b{name}\b", everything))
    assert not undocumented, f"not in README.md or docs/: {undocumented}"


def test_layout_lists_every_package():
    text = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    packages = sorted(init.parent.name for init in SRC.rglob("__init__.py") if init.parent != SRC)
    assert packages  # the search itself works
    missing = [name for name in packages if not re.search(rf"(?<![\w-]){re.escape(name)}/", section)]
    assert not missing, f"docs/layout.md's Layout section does not list: {missing}"


def test_every_command_and_option_has_help():
    """As sqlite-utils' test_docs: `memory COMMAND --help` explains every command and option."""
    missing = [f"memory {' '.join(path)}" for path, command in commands().items() if not command.help]
    missing += [f"memory {' '.join(path)} {param.opts[0]}" for path, command in commands().items()
                for param in command.params
                if isinstance(param, click.Option) and not param.hidden and not param.help]
    assert not missing, f"no help text: {missing}"
