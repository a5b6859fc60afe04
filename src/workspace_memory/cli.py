"""The `memory` command: a thin click shell over `workspace_memory.api.Memory`.

Each command parses its options, calls one library method and prints. Library errors
(errors.py) become one line on stderr and a non-zero exit, never a traceback.
Exit codes: 0 ok, 1 user error, 2 usage, 3 provider unavailable, 4 index busy.
"""

from __future__ import annotations

import json
import os
import sys
from datetime import date
from typing import Any

import click

from .cli_agent import BulletArgsCommand
from .errors import IndexBusy, MemoryError_, ProviderUnavailable, UserError
from .render import echo


def _memory(ctx: click.Context, create: bool = False):  # noqa: ANN202
    from .api import Memory

    obj = ctx.find_root().obj
    if "memory" not in obj:
        obj["memory"] = Memory.open(obj["workspace"], obj["now"], create=create)
    return obj["memory"]


def parse_day(value: str, option: str = "--date") -> date:
    """A calendar day given as YYYY-MM-DD; "no such date" for 2026-02-30, the format otherwise."""
    import re

    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        raise UserError(f"{option} {value!r}: expected YYYY-MM-DD")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise UserError(f"{option} {value}: no such date") from None


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, list) else 2, default=str))


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


@cli.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Lay out a workspace from the bank templates (never overwrites a file)."""
    report = _memory(ctx, create=True).init()
    for path in report.created:
        echo(f"created {path}")
    for path in report.kept:
        echo(f"kept    {path} (exists)")
    for path in report.skipped:
        echo(f"skipped {path}", err=True)


@cli.command()
@click.option("--rebuild", is_flag=True, help="Drop the derived rows and parse every file again.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def index(ctx: click.Context, rebuild: bool, as_json: bool) -> None:
    """Index changed Markdown files (incremental; --rebuild for everything)."""
    from .progress import progress_bar

    mem = _memory(ctx)
    with progress_bar("indexing", enabled=not as_json) as progress:
        report = mem.index(rebuild=rebuild, progress=progress)
    fields = {k: getattr(report, k) for k in ("added", "changed", "removed", "touched", "unchanged")}
    if as_json:
        _echo_json(fields | {"seconds": round(report.seconds, 3), "notices": report.notices})
        return
    echo(", ".join(f"{v} {k}" for k, v in fields.items()) + f" in {report.seconds:.2f}s")
    for notice in report.notices:
        echo(f"note: {notice}", err=True)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Files, chunks, facts, entities, warnings (path:line), index age and search modes."""
    data = _memory(ctx).status()
    if as_json:
        _echo_json(data)
        return
    from .render import render_status

    render_status(data)


@cli.command()
@click.argument("query", required=False, default="")
@click.option("--k", "k", type=click.IntRange(1, 1000), default=10, show_default=True, help="Results to return.")
@click.option("--since", metavar="30d|2w|6m|1y|DATE", help="Only entries from this time on.")
@click.option("--until", metavar="30d|2w|6m|1y|DATE", help="Only entries up to this time.")
@click.option("--kind", metavar="KIND", help="world|experience|opinion|observation|note (comma-separated).")
@click.option("--entity", metavar="NAME", help="Only entries about this entity.")
@click.option("--mode", type=click.Choice(["auto", "lexical", "semantic", "hybrid"]), default="auto",
              show_default=True, help="Search channels to use.")
@click.option("--budget", type=click.IntRange(1), metavar="TOKENS", help="Pack results into this many tokens.")
@click.option("--explain", is_flag=True, help="Show which channels found each result and every score factor.")
@click.option("--batch", type=click.File("rb"), metavar="FILE.jsonl",
              help="One query object per line in, one result object per line out.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract.")
@click.pass_context
def recall(ctx: click.Context, query: str, batch, as_json: bool, **options: Any) -> None:  # noqa: ANN001
    """Find what memory says about QUERY, with sources as path#Lline."""
    from .recall.query import RecallRequest

    mem = _memory(ctx)
    if batch is not None:
        failed = _recall_batch(mem, batch, options)
        if failed:
            raise UserError(f"{failed} batch line(s) failed; see their \"error\" fields")
        return
    if not query.strip() and not (options["since"] or options["until"] or options["entity"] or options["kind"]):
        raise click.UsageError("give a QUERY (or a filter such as --since or --entity)")
    result = mem.recall(RecallRequest(query=query, **options))
    if as_json:
        _echo_json(result)
        return
    from .render import render_recall

    render_recall(result)


def _recall_batch(mem, lines, defaults: dict[str, Any]) -> int:  # noqa: ANN001
    """One result object (or {"query", "error"}) per input line; returns how many lines failed."""
    from .recall.query import RecallRequest

    allowed = set(RecallRequest.__dataclass_fields__)
    failed = 0
    for number, raw in enumerate(lines, 1):
        spec: Any = None
        try:
            line = raw.decode("utf-8")
            if not line.strip():
                continue
            spec = json.loads(line)
            if not isinstance(spec, dict) or not isinstance(spec.get("query"), str):
                raise UserError(f"line {number}: expected an object with a \"query\" string")
            unknown = set(spec) - allowed
            if unknown:
                raise UserError(f"line {number}: unknown field(s) {', '.join(sorted(unknown))}")
            out = mem.recall(RecallRequest(**(defaults | spec)))
        except UnicodeDecodeError:
            failed += 1
            out = {"query": None, "error": f"line {number}: not valid UTF-8"}
        except (MemoryError_, ValueError, TypeError) as exc:
            failed += 1
            query = spec.get("query") if isinstance(spec, dict) else None
            out = {"query": query, "error": str(exc) if str(exc).startswith("line") else f"line {number}: {exc}"}
        click.echo(json.dumps(out, ensure_ascii=False))
    return failed


@cli.command()
@click.argument("path")
@click.option("--from", "start", type=int, default=None, help="First line (1-based; default 1).")
@click.option("--lines", type=int, default=None, help="How many lines (default 120, at most 12,000 chars).")
@click.option("--json", "as_json", is_flag=True, help="Print the page as JSON.")
@click.pass_context
def get(ctx: click.Context, path: str, start: int | None, lines: int | None, as_json: bool) -> None:
    """Read a workspace Markdown file page by page (PATH may be a citation: memory/x.md#L7-L9)."""
    page = _memory(ctx).get(path, start, lines)
    if as_json:
        _echo_json(page.to_dict())
        return
    if page.text:
        echo(page.text)
    echo(page.hint())


@cli.command(cls=BulletArgsCommand)
@click.argument("bullet")
@click.option("--date", "day", metavar="YYYY-MM-DD", help="The day's log to write to (default: today).")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@click.pass_context
def retain(ctx: click.Context, bullet: str, day: str | None, as_json: bool) -> None:
    """Validate a fact ("O(c=0.8) @Peter: ...") and append it to the day's ## Retain (a leading "- " is fine)."""
    when = parse_day(day) if day else None
    written = _memory(ctx).retain(bullet, when)
    if as_json:
        _echo_json(written.__dict__)
    elif written.duplicate:
        echo(f"already retained at {written.path}#L{written.line}")
    else:
        echo(f"retained at {written.path}#L{written.line}")


@cli.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def entity(ctx: click.Context, name: str, as_json: bool) -> None:
    """Tell me about NAME: its page, its facts newest first, its opinions with confidence."""
    report = _memory(ctx).entity(name)
    if as_json:
        _echo_json(report)
        return
    from .render import render_entity

    render_entity(report)


def _register_more() -> None:
    from .cli_agent import COMMANDS
    from .cli_reflect import opinions, reflect

    cli.add_command(reflect)
    cli.add_command(opinions)
    for command in COMMANDS:
        cli.add_command(command)


def _global_option(name: str) -> click.Option:
    """A hidden copy of a global option for every command: `memory recall x --workspace D` works too."""

    def remember(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        if value is not None:
            ctx.find_root().obj[name] = value

    return click.Option([f"--{name}"], hidden=True, expose_value=False, is_eager=True, callback=remember)


def _accept_global_options_after(group: click.Group) -> None:
    for command in group.commands.values():
        if isinstance(command, click.Group):
            _accept_global_options_after(command)
        elif not any(o in p.opts for p in command.params for o in ("--workspace", "--now")):
            command.params += [_global_option("workspace"), _global_option("now")]


_register_more()
_accept_global_options_after(cli)

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
