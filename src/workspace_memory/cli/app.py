"""The `memory` group, its global options, and `main`: every expected failure is one stderr line.

Each command parses its options, calls one library method and prints. Library errors
(errors.py) become one line on stderr and a non-zero exit, never a traceback (cli.process,
which also lists the exit codes).

Commands load lazily: a command's module (and what it imports) is imported only when that
command runs, or for `memory --help`, which lists them all; a cold `memory recall` pays for
cli/commands.py alone. COMMAND_MODULES says where each command lives (tests/test_cli.py checks
it against every module's COMMANDS).
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Mapping

import click

from .context import accept_global_options_after
from .option_types import Checked
from .option_values import now_problem
from .process import guarded, one_blas_thread, say_error
from .render import echo

COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "commands": ("init", "index", "status", "recall", "get", "retain", "entity"),
    "reflect_cmds": ("reflect", "opinions"),
    "memory_cmds": ("forget", "export", "import"),
    "store_cmds": ("store",),
    "ui_cmds": ("ui",),
    "agent_cmds": ("core", "triggers", "doctor", "watch", "flush-prompt", "entities", "mcp"),
    "openclaw_cmds": ("openclaw",),
}


class LazyGroup(click.Group):
    """A click group whose commands are imported from their module on first use.

    `modules` maps a module of this package to the names of the commands in its COMMANDS.
    Listing (help, completion, "Did you mean") uses the names; running or describing a command
    imports its module, registers all of that module's COMMANDS and lets them take the group's
    global options after their name.
    """

    def __init__(self, *args: object, modules: Mapping[str, tuple[str, ...]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy = {name: module for module, names in modules.items() for name in names}
        self.invoked: str | None = None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module = importlib.import_module(f"{__package__}.{self.lazy[cmd_name]}")
            for command in module.COMMANDS:
                if command.name not in self.commands:
                    accept_global_options_after(command)
                    self.add_command(command)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            name, command, rest = super().resolve_command(ctx, args)
            self.invoked = name  # the command this invocation runs (cli.leave: how the process ends)
            return name, command, rest
        except click.exceptions.NoSuchCommand as exc:
            # click suggests from the commands loaded so far; suggest from every name instead.
            raise click.exceptions.NoSuchCommand(exc.command_name, possibilities=self.list_commands(ctx),
                                                 ctx=ctx) from None


@click.group(cls=LazyGroup, modules=COMMAND_MODULES,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--workspace", envvar="MEMORY_WORKSPACE", metavar="DIR",
              help="Workspace folder [env MEMORY_WORKSPACE; default ~/.openclaw/workspace].")
@click.option("--now", envvar="MEMORY_NOW", metavar="ISO", type=Checked("--now", now_problem),
              help="Fix 'now' for every time-relative behaviour, e.g. 2025-11-30 [env MEMORY_NOW].")
@click.version_option(package_name="workspace-memory", prog_name="memory")
@click.pass_context
def cli(ctx: click.Context, workspace: str | None, now: str | None) -> None:
    """Offline memory for AI agents: Markdown is the truth, the index is derived."""
    ctx.ensure_object(dict)
    ctx.obj.update(workspace=workspace, now=now)


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning every expected failure into one stderr line."""
    if argv is not None:  # in-process callers: their collector and their exit stay theirs
        sys.exit(_run(argv))
    # The console script: the process ends with this call. The interpreter's exit would run the
    # cyclic collector over every object of the ~170 modules imported, only to free memory the OS
    # takes back anyway (about a tenth of a cold recall's work). Frozen, they are left alone; and
    # after a read, cli.leave skips tearing the modules down. The Memory was closed with its click
    # context (cli.context.memory_of).
    from .leave import leave

    code: int | None = 0
    try:
        code = _run(None)
    except SystemExit as exc:
        if not isinstance(exc.code, int | None):
            raise  # a message to print: the interpreter's exit does that
        code = exc.code
    finally:
        gc.freeze()
    leave(code, cli.invoked)


def _run(argv: list[str] | None) -> int:
    """The exit code of one invocation; click's own failures become one stderr line here, the
    library's and every other one in process.guarded."""
    one_blas_thread()

    def invoke() -> object:
        try:
            return cli.main(args=argv, prog_name="memory", standalone_mode=False)
        except click.exceptions.Abort:
            say_error("memory: aborted")
            return 130
        except click.exceptions.NoArgsIsHelpError as exc:
            echo(exc.ctx.get_help() if exc.ctx else "Usage: memory [OPTIONS] COMMAND [ARGS]...")
            return 0
        except click.ClickException as exc:
            hint = " (see --help)" if isinstance(exc, click.UsageError) else ""
            say_error(f"memory: error: {exc.format_message()}{hint}")
            return exc.exit_code

    return guarded(invoke)


if __name__ == "__main__":
    main()
