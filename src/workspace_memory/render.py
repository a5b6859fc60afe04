"""Human-readable output for the CLI (JSON output needs none of this)."""

from __future__ import annotations

from typing import Any

import click


def render_recall(result: dict[str, Any]) -> None:
    """Numbered results: source, kind, date, score, then the content indented."""
    for notice in result["notices"]:
        click.echo(f"note: {notice}", err=True)
    if not result["results"]:
        click.echo("no results")
        return
    for n, item in enumerate(result["results"], 1):
        meta = [item["kind"], item["timestamp"] or "evergreen", f"score {item['score']:.2f}"]
        if item["confidence"] is not None:
            meta.insert(1, f"c={item['confidence']:.2f}")
        click.echo(f"{n:>2}. {click.style(item['source'], bold=True)}  ({', '.join(meta)})")
        for line in item["content"].splitlines() or [""]:
            click.echo(f"    {line}")
        if "explain" in item:
            ex = item["explain"]
            found = f"found by {'+'.join(ex['found_by'])}; " if ex.get("found_by") else ""
            click.echo("    why: " + found + ", ".join(f"{k}={v}" for k, v in (ex["channels"] | ex["factors"]).items()))


def render_status(data: dict[str, Any]) -> None:
    """A rich table of counts, then warnings as path:line lines."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    kinds = ", ".join(f"{k} {v}" for k, v in data["facts_by_kind"].items())
    rows = [
        ("workspace", data["workspace"]),
        ("files", str(data["files"])),
        ("chunks", str(data["chunks"])),
        ("facts", f"{data['facts']}" + (f" ({kinds})" if kinds else "")),
        ("entities", str(data["entities"])),
        ("last sync", f"{data['last_sync']} ({data['index_age_seconds']}s ago)" if data["last_sync"] else "never"),
        ("search modes", ", ".join(data["modes"])),
        ("embedding", data.get("embedding") or "none (lexical search)"),
        ("warnings", str(len(data["warnings"]))),
    ]
    for key, value in rows:
        table.add_row(key, value)
    console.print(table)
    for w in data["warnings"]:
        console.print(f"  {w['path']}:{w['line']}: {w['message']}", markup=False, highlight=False)
    for notice in data.get("notices", []):
        console.print(f"note: {notice}", markup=False)


def render_entity(report: dict[str, Any]) -> None:
    """The entity's name and aliases, its page, then facts and opinions with sources."""
    aliases = f" (also: {', '.join(report['aliases'])})" if report["aliases"] else ""
    click.echo(click.style(report["entity"], bold=True) + aliases)
    if report["page"]:
        click.echo(f"\n{report['page']['path']}:")
        for line in report["page"]["text"].splitlines():
            click.echo(f"    {line}")
    for title, items in (("facts", report["facts"]), ("opinions", report["opinions"])):
        if not items:
            continue
        click.echo(f"\n{title}:")
        for item in items:
            conf = f" c={item['confidence']:.2f}" if item["confidence"] is not None else ""
            old = f"  [superseded by {item['superseded_by']}]" if item.get("superseded_by") else ""
            click.echo(f"  {item['timestamp'] or 'evergreen'} {item['kind']}{conf}: {item['content']}"
                       f"  ({item['source']}){old}")
