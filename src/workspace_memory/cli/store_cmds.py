"""`memory store ...`: the index's store: its health, its workspaces, moving between SQLite and Postgres."""

from __future__ import annotations

import click

from ..errors import UserError
from .context import echo_json, memory_of
from .render import echo


@click.group()
def store() -> None:
    """The store that holds the index: SQLite under .memory/ or Postgres ([store] url)."""


@store.command()
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.pass_context
def health(ctx: click.Context, as_json: bool) -> None:
    """Check the store: server version, pgvector, pg_trgm, migrations (exit 1 when a check fails)."""
    mem = memory_of(ctx)
    findings = mem.store_health()
    if as_json:
        echo_json({"store": mem.store.describe(), "findings": findings})
    else:
        echo(mem.store.describe())
        for f in findings:
            echo(f"  {'ok  ' if f['ok'] else 'FAIL'} {f['check']}: {f['detail']}")
    failed = [f["check"] for f in findings if not f["ok"]]
    if failed:
        raise UserError(f"store check failed: {', '.join(failed)}")


@store.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print the names as JSON.")
@click.pass_context
def list_(ctx: click.Context, as_json: bool) -> None:
    """The workspaces of the store (names for recall --workspace-name)."""
    names = memory_of(ctx).store_workspaces()
    if as_json:
        echo_json(names)
        return
    for name in names:
        echo(name)


def _move(ctx: click.Context, direction: str, url: str | None, as_json: bool) -> None:
    report = memory_of(ctx).move_store(direction, url)
    if as_json:
        echo_json(report.__dict__)
        return
    echo(f"{report.source} -> {report.target}: {report.files} files, {report.embeddings} cached embeddings copied"
         + (f", {report.vectors_missing} texts without a vector (memory index embeds them)"
            if report.vectors_missing else ""))
    for notice in report.notices:
        echo(f"note: {notice}", err=True)


@store.command(name="export")
@click.option("--to", "url", metavar="URL", help="The Postgres to move to (when the workspace is on SQLite).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def export(ctx: click.Context, url: str | None, as_json: bool) -> None:
    """Copy this workspace's rows and cached embeddings to the other store (nothing is embedded again)."""
    _move(ctx, "export", url, as_json)


@store.command(name="import")
@click.option("--from", "url", metavar="URL", help="The Postgres to move from (when the workspace is on SQLite).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def import_(ctx: click.Context, url: str | None, as_json: bool) -> None:
    """Copy this workspace's rows and cached embeddings from the other store (nothing is embedded again)."""
    _move(ctx, "import", url, as_json)


COMMANDS = (store,)
