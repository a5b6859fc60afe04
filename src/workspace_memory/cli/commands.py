"""The core commands: init, index, status, recall, get, retain, entity."""

from __future__ import annotations

import json
from typing import Any

import click

from .. import secrecy
from ..dates.parse import parse_day
from ..errors import MemoryError_, UserError
from .context import BulletArgsCommand, echo_json, memory_of
from .option_types import Bounded, Checked
from .option_values import RECALL_CHECKS, day_problem
from .render import echo


@click.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Lay out a workspace from the bank templates (never overwrites a file)."""
    report = memory_of(ctx, create=True).init()
    for path in report.created:
        echo(f"created {path}")
    for path in report.kept:
        echo(f"kept    {path} (exists)")
    for path in report.skipped:
        echo(f"skipped {path}", err=True)


@click.command()
@click.option("--rebuild", is_flag=True, help="Drop the derived rows and parse every file again.")
@click.option("--estimate", is_flag=True, help="Only say how many texts and tokens would be sent to the embedding "
              "provider; embed nothing.")
@click.option("--no-batch", "no_batch", is_flag=True, help="Embed with ordinary requests only, never batch jobs.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def index(ctx: click.Context, rebuild: bool, estimate: bool, no_batch: bool, as_json: bool) -> None:
    """Index changed Markdown files (incremental; --rebuild for everything)."""
    from .progress import progress_bar

    mem = memory_of(ctx)
    if estimate:
        data = mem.estimate()
        if as_json:
            echo_json(data)
            return
        echo(f"{data['texts']} text(s), ~{data['tokens']} token(s) to embed with {data['provider'] or 'no provider'}"
             f"/{data['model'] or '-'}" + (f" in {data['requests']} request(s)" if data.get("requests") else ""))
        for notice in data["notices"]:
            echo(f"note: {notice}", err=True)
        return
    with progress_bar("indexing", enabled=not as_json) as progress:
        report = mem.index(rebuild=rebuild, progress=progress, batch=not no_batch)
    fields = {k: getattr(report, k) for k in ("added", "changed", "removed", "touched", "unchanged")}
    sessions = report.sessions
    if as_json:
        extra = {"sessions": sessions.to_dict()} if sessions else {}
        echo_json(fields | {"embedded": report.embedded, "seconds": round(report.seconds, 3),
                            "notices": report.notices} | extra)
        return
    echo(", ".join(f"{v} {k}" for k, v in fields.items()) + f" in {report.seconds:.2f}s")
    if sessions:
        echo(f"sessions: {sessions.read} of {sessions.files} transcript(s) read, {sessions.messages} message(s), "
             f"{sessions.other + sessions.malformed} line(s) skipped ({sessions.malformed} malformed)")
    for notice in report.notices:
        echo(f"note: {notice}", err=True)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Files, chunks, facts, entities, warnings (path:line), index age and search modes."""
    data = memory_of(ctx).status()
    if as_json:
        echo_json(data)
        return
    from .render import render_status

    render_status(data)


def recall_options(command: Any) -> Any:
    """Recall's argument and options, as recall/params.py declares them (one declaration for the
    CLI, the quick path and the MCP tool)."""
    from ..recall.params import PARAMS

    for param in reversed(PARAMS):
        if param.option is None:
            command = click.argument(param.name, required=False, default=param.default)(command)
            continue
        kwargs: dict[str, Any] = {"help": param.help, "metavar": param.metavar}
        if param.kind == "flag":
            kwargs["is_flag"] = True
        elif param.kind == "multiple":
            kwargs["multiple"] = True
        elif param.kind == "int":
            kwargs["type"] = Bounded(param.name, param.low, param.high)
        elif param.name in RECALL_CHECKS:  # --since/--until: unreadable is bad usage, as on the quick path
            kwargs["type"] = Checked(param.option, RECALL_CHECKS[param.name])
        elif param.kind == "choice":
            kwargs["type"] = click.Choice(list(param.choices))
            kwargs["metavar"] = None
        if param.kind in ("int", "choice") and param.default is not None:
            kwargs["default"], kwargs["show_default"] = param.default, True
        command = click.option(param.option, param.name, **kwargs)(command)
    return command


@click.command()
@recall_options
@click.option("--batch", type=click.File("rb"), metavar="FILE.jsonl",
              help="One query object per line in, one result object per line out.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON contract.")
@click.pass_context
def recall(ctx: click.Context, query: str, batch, as_json: bool, **options: Any) -> None:
    """Find what memory says about QUERY, with sources as path#Lline."""
    from ..recall.query import RecallRequest

    mem = memory_of(ctx)
    if batch is not None:
        failed = _recall_batch(mem, batch, options)
        if failed:
            raise UserError(f"{failed} batch line(s) failed; see their \"error\" fields")
        return
    if not query.strip() and not (options["since"] or options["until"] or options["entity"] or options["kind"]):
        raise click.UsageError("give a QUERY (or a filter such as --since or --entity)")
    result = mem.recall(RecallRequest(query=query, **options))
    if as_json:
        echo_json(result)
        return
    from .render import render_recall

    render_recall(result)


def _recall_batch(mem, lines, defaults: dict[str, Any]) -> int:
    """One result object (or {"query", "error"}) per input line; returns how many lines failed."""
    from ..limits import check_something_asked
    from ..recall.query import RecallRequest

    allowed = set(RecallRequest.__slots__)
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
            asked = defaults | spec
            # An empty query with no filter asks for nothing: refused as `memory recall ""` and MCP refuse it.
            check_something_asked(asked["query"], **{f: asked.get(f) for f in ("since", "until", "kind", "entity")})
            out = mem.recall(RecallRequest(**asked))
        except UnicodeDecodeError:
            failed += 1
            out = {"query": None, "error": f"line {number}: not valid UTF-8"}
        except (MemoryError_, ValueError, TypeError) as exc:
            failed += 1
            query = spec.get("query") if isinstance(spec, dict) else None
            out = {"query": query, "error": str(exc) if str(exc).startswith("line") else f"line {number}: {exc}"}
        click.echo(json.dumps(secrecy.blank_data(out), ensure_ascii=False))
    return failed


@click.command()
@click.argument("path")
@click.option("--from", "start", type=Bounded("--from", 1, None), default=None, help="First line (1-based; default 1).")
@click.option("--lines", type=Bounded("--lines", 1, None), default=None,
              help="How many lines (default 120, at most 12,000 chars).")
@click.option("--json", "as_json", is_flag=True, help="Print the page as JSON.")
@click.pass_context
def get(ctx: click.Context, path: str, start: int | None, lines: int | None, as_json: bool) -> None:
    """Read a workspace Markdown file page by page (PATH may be a citation: memory/x.md#L7-L9)."""
    page = memory_of(ctx).get(path, start, lines)
    if as_json:
        echo_json(page.to_dict())
        return
    if page.text:
        echo(page.text)
    echo(page.hint())


@click.command(cls=BulletArgsCommand)
@click.argument("bullet")
@click.option("--date", "day", type=Checked("--date", day_problem), metavar="YYYY-MM-DD",
              help="The day's log to write to (default: today).")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@click.pass_context
def retain(ctx: click.Context, bullet: str, day: str | None, as_json: bool) -> None:
    """Validate a fact ("O(c=0.8) @Peter: ...") and append it to the day's ## Retain (a leading "- " is fine)."""
    when = parse_day(day, "--date") if day else None
    written = memory_of(ctx).retain(bullet, when)
    if as_json:
        echo_json(written.__dict__)
    elif written.duplicate:
        echo(f"already retained at {written.path}#L{written.line}")
    else:
        echo(f"retained at {written.path}#L{written.line}")


@click.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def entity(ctx: click.Context, name: str, as_json: bool) -> None:
    """Tell me about NAME: its page, its facts newest first, its opinions with confidence."""
    report = memory_of(ctx).entity(name)
    if as_json:
        echo_json(report)
        return
    from .render import render_entity

    render_entity(report)


COMMANDS = (init, index, status, recall, get, retain, entity)
