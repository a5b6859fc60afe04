"""Human-readable output for the CLI (JSON output needs none of this)."""

from __future__ import annotations

from typing import Any

import click

from .process import terminal_safe

__all__ = ["echo", "render_entity", "render_recall", "render_status", "terminal_safe"]


def echo(text: object = "", err: bool = False) -> None:
    """click.echo for human output: control characters escaped."""
    click.echo(terminal_safe(text), err=err)


def render_recall(result: dict[str, Any]) -> None:
    """Numbered results: source, kind, date, score, then the content indented."""
    for notice in result["notices"]:
        echo(f"note: {notice}", err=True)
    if result.get("space") and any("explain" in item for item in result["results"]):
        echo(f"searched: {result['mode']}, embedding space {result['space']}", err=True)
    if not result["results"]:
        echo("no results")
        return
    for n, item in enumerate(result["results"], 1):
        meta = [item["kind"], item["timestamp"] or "evergreen", f"score {item['score']:.2f}"]
        if item["confidence"] is not None:
            meta.insert(1, f"c={item['confidence']:.2f}")
        if item.get("invalid_at"):
            meta.append(f"invalid since {item['invalid_at']}")
        source = f"{item['workspace']}:{item['source']}" if "workspace" in item else item["source"]
        click.echo(f"{n:>2}. {click.style(terminal_safe(source), bold=True)}  ({terminal_safe(', '.join(meta))})")
        for line in item["content"].splitlines() or [""]:
            echo(f"    {line}")
        if "explain" in item:
            ex = item["explain"]
            found = f"found by {'+'.join(ex['found_by'])}; " if ex.get("found_by") else ""
            echo("    why: " + found + ", ".join(f"{k}={v}" for k, v in (ex["channels"] | ex["factors"]).items()))


def _media_rows(media: dict[str, Any] | None) -> list[tuple[str, str]]:
    """`[media]`: on or off, and each extractor (what is missing is in the notices, with how to add it)."""
    if not media:
        return []
    if not media["enabled"]:
        return [("media", "off ([media] enabled = false)")]
    found = ", ".join(f"{k} {v or 'missing'}" for k, v in media["extractors"].items())
    return [("media", f"{', '.join(media['modalities'])}; {found}")]


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
        ("workspace", data["workspace"] or "no checkout here (read from the store)"),
        ("index", data["index"]),
        ("files", str(data["files"])),
        ("chunks", str(data["chunks"])),
        ("facts", f"{data['facts']}" + (f" ({kinds})" if kinds else "")),
        ("entities", str(data["entities"])),
        *([("invalid facts", str(data["invalid_facts"]))] if data.get("invalid_facts") else []),
        *([("sessions", "{files} transcript(s), {messages} message(s), {entries} entries; skipped {other} "
                        "other and {malformed} malformed line(s)".format(**data["sessions"]))]
          if data.get("sessions") else []),
        ("last sync", f"{data['last_sync']} ({data['index_age_seconds']}s ago)" if data["last_sync"] else "never"),
        ("search modes", ", ".join(data["modes"])),
        ("embedding", data.get("embedding") or "none (lexical search)"),
        *_space_rows(data.get("embedding_space")),
        *_media_rows(data.get("media")),
        ("warnings", str(len(data["warnings"]))),
    ]
    for key, value in rows:
        table.add_row(key, terminal_safe(value))
    console.print(table)
    for w in data["warnings"]:
        console.print(terminal_safe(f"  {w['path']}:{w['line']}: {w['message']}"), markup=False, highlight=False)
    for notice in data.get("notices", []):
        console.print(terminal_safe(f"note: {notice}"), markup=False)


def _space_rows(space: dict[str, Any] | None) -> list[tuple[str, str]]:
    """Dimensions, the chain and a fallback in use, the key's variable and tokens sent (status)."""
    if not space or not space.get("provider"):
        return []
    rows = [("dimensions", str(space["dimensions"] or "learned from the first answer"))]
    if len(space["chain"]) > 1:
        rows.append(("fallback chain", " -> ".join(space["chain"])))
    if space["fallback_in_use"]:
        rows.append(("fallback in use", f"{space['provider']}" + (f" ({space['fallback_reason']})"
                                                                   if space["fallback_reason"] else "")))
    if space.get("key_from"):
        rows.append(("api key from", f"${space['key_from']}"))
    for name, breaker in (space.get("breakers") or {}).items():
        if breaker.get("state") != "closed":
            rows.append(("circuit breaker", f"{name} {breaker['state']} until {breaker['until']} "
                                            f"({breaker['failures_in_a_row']} failure(s) in a row: {breaker['reason']})"))
    for identity, tokens in (space.get("tokens_sent") or {}).items():
        rows.append(("tokens sent", f"{tokens} to {identity}"))
    cal = space.get("calibration") or {}
    if cal.get("source") in ("fitted", "measured"):
        rows.append(("calibration", f"{cal['source']}: cosine {cal['floor']:g} -> 0, {cal['ceil']:g} -> 1"))
    elif cal.get("source") == "default":
        rows.append(("calibration", "the default (measured by the next `memory index`)"))
    return rows


def render_entity(report: dict[str, Any]) -> None:
    """The entity's name and aliases, its page, then facts and opinions with sources."""
    aliases = f" (also: {', '.join(report['aliases'])})" if report["aliases"] else ""
    click.echo(click.style(terminal_safe(report["entity"]), bold=True) + terminal_safe(aliases))
    if report["page"]:
        echo(f"\n{report['page']['path']}:")
        for line in report["page"]["text"].splitlines():
            echo(f"    {line}")
    for title, items in (("facts", report["facts"]), ("opinions", report["opinions"])):
        if not items:
            continue
        echo(f"\n{title}:")
        for item in items:
            conf = f" c={item['confidence']:.2f}" if item["confidence"] is not None else ""
            old = f"  [superseded by {item['superseded_by']}]" if item.get("superseded_by") else ""
            old += f"  [invalid since {item['invalid_at']}]" if item.get("invalid_at") else ""
            echo(f"  {item['timestamp'] or 'evergreen'} {item['kind']}{conf}: {item['content']}"
                       f"  ({item['source']}){old}")
