"""What every command shares: the Memory of this invocation, JSON output, day arguments."""

from __future__ import annotations

from typing import Any

import click

from .option_types import Checked
from .option_values import now_problem
from .process import json_text


def memory_of(ctx: click.Context, create: bool = False):  # api.Memory, imported lazily
    """The invocation's api.Memory (opened once, from the global --workspace and --now)."""
    from ..api import Memory

    root = ctx.find_root()
    if "memory" not in root.obj:
        root.obj["memory"] = memory = Memory.open(root.obj["workspace"], root.obj["now"], create=create)
        root.call_on_close(memory.close)  # the index connection closes with the invocation, not with GC
    return root.obj["memory"]


def echo_json(data: Any) -> None:
    """JSON output: exact (no escaping of control characters beyond JSON's own)."""
    click.echo(json_text(data))


_MARK = "\x00"  # cannot occur in a command line argument


class BulletArgsCommand(click.Command):
    """A command whose arguments may be Markdown bullets: "- W @Peter: x" is text, not an option.

    click reads any argument that starts with "-" as options ("- Keeps bees" would even run -h);
    a dash followed by a space never is one, so such arguments are marked before parsing and
    unmarked after.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rest = super().parse_args(ctx, [_MARK + a if a.startswith("- ") else a for a in args])
        for name, value in ctx.params.items():
            if isinstance(value, str) and value.startswith(_MARK):
                ctx.params[name] = value[1:]
        return rest


def _global_option(name: str) -> click.Option:
    """A hidden copy of a global option for a command: `memory recall x --workspace D` works too."""

    def remember(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        if value is not None:
            ctx.find_root().obj[name] = value

    checked = Checked("--now", now_problem) if name == "now" else None  # as the group's own --now
    return click.Option([f"--{name}"], hidden=True, expose_value=False, is_eager=True, callback=remember,
                        type=checked)


def accept_global_options_after(command: click.Command, names: tuple[str, ...] = ("workspace", "now")) -> None:
    """Let a command (every command of a group, also in subgroups) take the global options after its name."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            accept_global_options_after(sub, names)
    elif not any(f"--{n}" in p.opts for p in command.params for n in names):
        command.params += [_global_option(n) for n in names]
