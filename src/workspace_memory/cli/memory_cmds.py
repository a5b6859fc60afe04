"""`memory forget`, `memory export` and `memory import`: pruning the memory and taking it elsewhere.

Thin shells over api.Memory.forget / purge / export / import_facts. Registered in cli/app.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..dates.parse import parse_day
from ..errors import UserError
from .context import echo_json, memory_of
from .option_types import Checked
from .option_values import day_problem, time_problem
from .render import echo


@click.command()
@click.argument("target", metavar="TEXT|CITATION")
@click.option("--reason", metavar="R", help="Why it is no longer true (kept in the mark).")
@click.option("--date", "day", type=Checked("--date", day_problem), metavar="YYYY-MM-DD",
              help="Since when it is no longer true (default: today).")
@click.option("--undo", is_flag=True, help="Take the mark off a fact marked before.")
@click.option("--purge", is_flag=True,
              help="TARGET is a text to remove for good (a secret): from the Markdown, the index and "
                   "every derived file. Shows what would change unless --yes.")
@click.option("--yes", is_flag=True, help="With --purge: really do it.")
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON.")
@click.pass_context
def forget(ctx: click.Context, target: str, reason: str | None, day: str | None, undo: bool, purge: bool,
           yes: bool, as_json: bool) -> None:
    """Mark a fact as no longer true (it stays, struck through), or --purge a text for good."""
    mem = memory_of(ctx)
    if purge:
        if undo or reason or day:
            raise click.UsageError("--purge takes no --undo, --reason or --date")
        _purge(mem, target, yes, as_json)
        return
    if yes:
        raise click.UsageError("--yes goes with --purge")
    done = mem.forget(target, reason=reason, undo=undo, day=parse_day(day, "--date") if day else None)
    if as_json:
        echo_json(done)
        return
    echo(f"{'unmarked' if undo else 'marked invalid'}: {done['source']}")
    echo(f"  - {done['before'].strip()}")
    echo(f"  + {done['after'].strip()}")


def _purge(mem, pattern: str, yes: bool, as_json: bool) -> None:  # api.Memory
    result = mem.purge(pattern, apply=yes)
    if as_json:
        echo_json(result)
        return
    verb = "purged" if yes else "would purge"
    for hit in result["lines"] + result["transcript_lines"]:
        echo(f"{hit['path']}:{hit['line']}: {hit['after']}")
    entries = result["session_entries"]
    how = f"replaced by {result['replacement']!r}" if result["replacement"] else "removed"
    transcripts = f", {len(result['transcript_lines'])} line(s) in {len(result['transcripts'])} transcript(s)" \
        if result["transcripts"] else ""
    echo(f"{verb}: {len(result['lines'])} line(s) in {len(result['files'])} Markdown file(s){transcripts} and "
         f"{entries} session entr{'y' if entries == 1 else 'ies'} ({how})")
    for copy in result["copies"]:
        echo(f"also in (not read by the engine, left as it is): {copy}")
    for notice in result["notices"]:
        echo(f"note: {notice}", err=True)
    if result.get("refused"):
        echo("cannot rewrite (a rebuild would read the text from them again): " + "; ".join(result["refused"]))
    elif not yes:
        echo("run again with --yes to purge (transcripts are redacted in place; the index, embedding cache and "
             "vector files are cleaned too)")


@click.command()
@click.option("--format", "fmt", type=click.Choice(["jsonl", "markdown-zip"]), default="jsonl", show_default=True,
              help="JSON lines, or a zip of Markdown daily logs plus facts.jsonl.")
@click.option("--since", type=Checked("--since", time_problem), metavar="30d|2w|6m|1y|DATE",
              help="Only facts whose time (the range they state, else the day written) reaches then.")
@click.option("-o", "--output", metavar="FILE", help="Write here (default: standard output; a zip needs a file).")
@click.pass_context
def export(ctx: click.Context, fmt: str, since: str | None, output: str | None) -> None:
    """Write every fact with kind, entities, confidence, stated time, source and validity."""
    data = memory_of(ctx).export(fmt, since)
    if output in (None, "-"):
        if isinstance(data, bytes):
            if sys.stdout.isatty():
                raise UserError("a zip is binary: give --output FILE")
            sys.stdout.buffer.write(data)
        else:
            click.echo(data, nl=False)
        return
    target = Path(output)
    try:
        target.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    except OSError as exc:
        raise UserError(f"--output {output}: {exc.strerror or exc}") from None
    echo(f"wrote {target}", err=True)


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE.jsonl")
@click.option("--json", "as_json", is_flag=True, help="Print what was imported as JSON.")
@click.pass_context
def import_(ctx: click.Context, file: str, as_json: bool) -> None:
    """Append exported facts as Retain bullets to their days (exact duplicates are skipped)."""
    try:
        raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as exc:
        raise UserError(f"{file}: {exc.strerror or exc}") from None
    report = memory_of(ctx).import_facts(raw.splitlines(), Path(file).name)
    if as_json:
        echo_json(report.to_dict())
        return
    echo(f"imported {report.added} fact(s), {report.duplicates} already there; "
         f"{len(report.files)} file(s) changed")


COMMANDS = (forget, export, import_)
