"""The `memory` group, its global options, and `main`: every expected failure is one stderr line.

Each command parses its options, calls one library method and prints. Library errors
(errors.py) become one line on stderr and a non-zero exit, never a traceback.
Exit codes: 0 ok, 1 user error, 2 usage, 3 provider unavailable, 4 index busy.
"""

from __future__ import annotations

import os
import sys

import click

from ..errors import IndexBusy, MemoryError_, ProviderUnavailable
from . import agent_cmds, commands, memory_cmds, reflect_cmds, ui_cmds
from .context import accept_global_options_after
from .render import echo


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--workspace", envvar="MEMORY_WORKSPACE", metavar="DIR",
              help="Workspace folder [env MEMORY_WORKSPACE; default ~/.openclaw/workspace].")
@click.option("--now", envvar="MEMORY_NOW", metavar="ISO",
              help="Fix 'now' for every time-relative behaviour, e.g. 2025-11-30 [env MEMORY_NOW].")
@click.version_option(package_name="workspace-memory", prog_name="memory")
@click.pass_context
def cli(ctx: click.Context, workspace: str | None, now: str | None) -> None:
    """Offline memory for AI agents: Markdown is the truth, the index is derived."""
    ctx.ensure_object(dict)
    ctx.obj.update(workspace=workspace, now=now)


for _command in (*commands.COMMANDS, *reflect_cmds.COMMANDS, *memory_cmds.COMMANDS, *ui_cmds.COMMANDS,
                 *agent_cmds.COMMANDS):
    cli.add_command(_command)
accept_global_options_after(cli)  # `memory recall x --workspace D` is taken as meant

EXIT_CODES = ((ProviderUnavailable, 3), (IndexBusy, 4), (MemoryError_, 1))


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning every expected failure into one stderr line."""
    try:
        code = cli.main(args=argv, prog_name="memory", standalone_mode=False)
    except click.exceptions.Abort:
        echo("memory: aborted", err=True)
        sys.exit(130)
    except click.exceptions.NoArgsIsHelpError as exc:
        echo(exc.ctx.get_help() if exc.ctx else "Usage: memory [OPTIONS] COMMAND [ARGS]...")
        sys.exit(0)
    except click.ClickException as exc:
        hint = " (see --help)" if isinstance(exc, click.UsageError) else ""
        echo(f"memory: error: {exc.format_message()}{hint}", err=True)
        sys.exit(exc.exit_code)
    except MemoryError_ as exc:
        echo(f"memory: error: {exc}", err=True)
        sys.exit(next(code for cls, code in EXIT_CODES if isinstance(exc, cls)))
    except BrokenPipeError:
        sys.exit(0)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        if os.environ.get("MEMORY_DEBUG"):
            raise
        detail = " ".join(str(exc).split())[:300] or type(exc).__name__
        echo(f"memory: error: {detail} ({type(exc).__name__}; MEMORY_DEBUG=1 shows the traceback)", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
