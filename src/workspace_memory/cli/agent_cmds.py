"""The agent-facing commands: core, mcp, triggers, doctor, watch, flush-prompt, entities.

Thin click shells over `api.Memory` (registered in cli/app.py with the other COMMANDS): parse,
call one library method, print. Errors are the library's typed exceptions, which cli.main turns
into one stderr line and an exit code.
"""

from __future__ import annotations

import signal
import sys
import threading
from datetime import datetime
from typing import Any

import click

from ..errors import UserError
from .context import BulletArgsCommand, echo_json, memory_of
from .render import echo


def _memory():  # api.Memory
    return memory_of(click.get_current_context())


# -- core ---------------------------------------------------------------------------------------


@click.group()
def core() -> None:
    """Core memory: the ## blocks of MEMORY.md, each with a character limit (Letta style)."""


@core.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print the blocks as JSON.")
def core_show(as_json: bool) -> None:
    """Print the blocks as an agent's system prompt should see them (label, size / limit, value)."""
    data = _memory().core_show()
    if as_json:
        echo_json({k: v for k, v in data.items() if k != "prompt"})
    else:
        echo(data["prompt"])


def _edited(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        echo_json(result)
        return
    if not result["changed"]:
        echo(f"{result['path']}: block {result['block']} unchanged")
        return
    size = f"{result['chars_before']} -> {result['chars_current']} of {result['chars_limit']} chars"
    echo(f"{result['path']}: {result['operation']} block {result['block']} ({size})")
    echo(result["diff"])
    for notice in result["notices"]:
        echo(f"note: {notice}", err=True)


_JSON = click.option("--json", "as_json", is_flag=True, help="Print the result (with the diff) as JSON.")


@core.command("append", cls=BulletArgsCommand)
@click.argument("block")
@click.argument("text")
@_JSON
def core_append(block: str, text: str, as_json: bool) -> None:
    """Add TEXT (one or more lines) at the end of BLOCK."""
    _edited(_memory().core_append(block, text), as_json)


@core.command("replace", cls=BulletArgsCommand)
@click.argument("block")
@click.argument("old")
@click.argument("new")
@_JSON
def core_replace(block: str, old: str, new: str, as_json: bool) -> None:
    """Replace OLD by NEW in BLOCK; OLD must occur exactly once (NEW may be "" to delete)."""
    _edited(_memory().core_replace(block, old, new), as_json)


@core.command("insert", cls=BulletArgsCommand)
@click.argument("block")
@click.argument("text")
@click.option("--line", "line", type=int, required=True, metavar="N",
              help="Line of the block's value TEXT becomes (1 = first; -1 = after the last).")
@_JSON
def core_insert(block: str, text: str, line: int, as_json: bool) -> None:
    """Insert TEXT into BLOCK so that it starts at line N of the block's value."""
    _edited(_memory().core_insert(block, text, line), as_json)


@core.command("rethink", cls=BulletArgsCommand)
@click.argument("block")
@click.argument("text")
@_JSON
def core_rethink(block: str, text: str, as_json: bool) -> None:
    """Rewrite the whole value of BLOCK with TEXT."""
    _edited(_memory().core_rethink(block, text), as_json)


@core.command("create", cls=BulletArgsCommand)
@click.argument("block")
@click.argument("text", required=False, default="")
@_JSON
def core_create(block: str, text: str, as_json: bool) -> None:
    """Add a new block (## BLOCK) at the end of MEMORY.md, optionally with TEXT."""
    _edited(_memory().core_create(block, text), as_json)


@core.command("delete")
@click.argument("block")
@_JSON
def core_delete(block: str, as_json: bool) -> None:
    """Remove BLOCK (its heading and value) from MEMORY.md."""
    _edited(_memory().core_delete(block), as_json)


# -- the other agent commands ------------------------------------------------------------------


@click.command()
@click.argument("message")
@click.option("--json", "as_json", is_flag=True, help="Print the entries as JSON.")
def triggers(message: str, as_json: bool) -> None:
    """Core entries whose <!-- trigger: ... --> phrases MESSAGE names (at most 3, 1,800 chars)."""
    found = _memory().triggers(message)
    if as_json:
        echo_json(found)
        return
    for item in found["results"]:
        echo(f"{item['source']}  (trigger: {item['trigger']}, score {item['score']:.0f})")
        for line in item["text"].splitlines():
            echo(f"    {line}")


@click.command()
@click.option("--fix", is_flag=True, help="Repair what can be repaired (each write locked and atomic).")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def doctor(fix: bool, as_json: bool) -> None:
    """Check the workspace and its index; exit 1 while findings remain."""
    report = _memory().doctor(fix=fix)
    if as_json:
        echo_json(report.to_dict())
    else:
        for item in report.fixed:
            echo(f"fixed  {item.where}: {item.what}")
        for item in report.findings:
            echo(f"{item.where}: {item.what}")
            echo(f"    fix: {item.how}")
        remaining = len(report.findings)
        echo("no problems found" if not remaining and not report.fixed else f"{remaining} finding(s) remain")
    if report.findings:
        sys.exit(1)


@click.command()
def watch() -> None:
    """Keep the index fresh as files change (file events, 1.5 s debounce) until Ctrl-C or SIGTERM."""
    mem = _memory()
    stop = threading.Event()

    def _stop(signum: int, frame: object) -> None:  # the signal handler's signature
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, _stop)

    def _batch(report) -> None:  # index.base.SyncReport
        for notice in report.notices:
            echo(f"note: {notice}", err=True)
        if not report.dirty:
            return
        stamp = datetime.now().strftime("%H:%M:%S")
        echo(f"{stamp} indexed {report.added} added, {report.changed} changed, {report.removed} removed "
             f"in {report.seconds:.2f}s")

    def _sessions(report) -> None:  # index.records.SessionReport
        for notice in report.notices:
            echo(f"note: {notice}", err=True)
        if report.dirty:
            stamp = datetime.now().strftime("%H:%M:%S")
            echo(f"{stamp} indexed {report.messages} session message(s) from {report.read} transcript(s) "
                 f"in {report.seconds:.2f}s")

    echo(f"watching {mem.workspace.root} (Ctrl-C to stop)", err=True)
    try:
        mem.watch(_batch, stop, _sessions)
    except OSError as exc:
        raise UserError(f"cannot watch {mem.workspace.root}: {exc.strerror or exc}") from None
    echo("stopped", err=True)


@click.command("flush-prompt")
@click.option("--json", "as_json", is_flag=True, help="Print {system, user, path, no_reply} as JSON.")
def flush_prompt(as_json: bool) -> None:
    """Print the system and user prompts a runtime sends before compacting a session."""
    prompt = _memory().flush_prompt()
    if as_json:
        echo_json(prompt)
        return
    echo(f"[system]\n{prompt['system']}\n\n[user]\n{prompt['user']}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the entities as JSON.")
def entities(as_json: bool) -> None:
    """List the known entities with their fact counts, most facts first."""
    found = _memory().entities()
    if as_json:
        echo_json(found)
        return
    if not found:
        echo("no entities")
    for ent in found:
        page = f"  {ent['page']}" if ent["page"] else ""
        echo(f"{ent['facts']:>5}  @{ent['slug']}  {ent['name']}{page}")


@click.command()
@click.option("--http", "http", metavar="HOST:PORT", help="Serve streamable HTTP here instead of stdio.")
def mcp(http: str | None) -> None:
    """Serve the memory tools over MCP (stdio, or streamable HTTP with --http 127.0.0.1:8765)."""
    from ..mcp import serve

    serve(_memory(), http)


COMMANDS = (core, triggers, doctor, watch, flush_prompt, entities, mcp)
