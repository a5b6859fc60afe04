"""`memory reflect` and `memory opinions`: thin click commands over workspace_memory.reflect.

Registered in cli/app.py with the other COMMANDS.
Exit codes: 0 ok (also when another reflect is running: cron should not alarm), 1 error, 2 bad usage
(an unreadable --since).
"""

from __future__ import annotations

import click

from .context import echo_json, memory_of
from .option_types import Checked
from .option_values import time_problem
from .render import echo


def _memory():  # api.Memory, imported lazily
    return memory_of(click.get_current_context())


@click.command()
@click.option("--since", default=None, type=Checked("--since", time_problem), metavar="7d|2w|6m|1y|DATE",
              help="Facts written since then count as new evidence (default 7d; a workspace's first reflect "
                   "takes every fact).")
@click.option("--dry-run", is_flag=True, help="Compute everything, write nothing; list the files that would change.")
@click.option("--apply-core", is_flag=True, help="Append the core proposals to MEMORY.md (## Learned).")
@click.option("--no-model", is_flag=True, help="Do not call the configured model endpoint.")
@click.option("--json", "as_json", is_flag=True, help="Print the run's summary as JSON.")
@click.option("--check", is_flag=True, help="Exit 1 when a generated region holds a hand edit (kept, reported); reflect still writes the rest (--dry-run: nothing).")
def reflect(since: str | None, dry_run: bool, apply_core: bool, no_model: bool, as_json: bool, check: bool) -> None:
    """Update entity pages, opinions, world/experience lists and core proposals from recent facts."""
    report = _memory().reflect(since, dry_run=dry_run, apply_core=apply_core, use_model=not no_model)
    if as_json:
        echo_json(report.to_dict())
        _check(check, report)
        return
    echo(report.summary_line())
    if report.first_run:
        echo(f"  first reflect in this workspace: every fact counted (written since {report.since}); "
             f"later runs take the last 7 days (--since)")
    for prop in report.new_proposals:
        echo(f"  propose for MEMORY.md: {prop.text} ({prop.reason})")
    for item in report.stale_core:
        echo(f"  stale in MEMORY.md line {item.line}: {item.old.strip()}  ->  {item.new.strip()} "
             f"(superseded by {item.source}: {item.reason}; --apply-core replaces it)")
    for text in report.applied_core:
        echo(f"  added to MEMORY.md: {text}")
    for notice in report.notices:
        echo(f"note: {notice}", err=True)
    _check(check, report)


def _none_yet(mem, entity: str | None) -> str:
    """Why the list is empty: an unknown name, or (as the UI says too) no reflect has run since the O facts."""
    from ..errors import MemoryError_

    about, holder = "", "the workspace"
    if entity:
        try:
            report = mem.entity(entity)
        except MemoryError_ as exc:
            return f"no opinions: {exc}"
        about, holder = f" about {report['entity']}", report["entity"]
        waiting = len(report["opinions"])  # the entity's O facts, reflected or not
        if not waiting and mem.opinions(None):
            return f"no opinions{about}"
    else:
        waiting = mem.status()["facts_by_kind"].get("opinion", 0)
    if not waiting:
        return f"no opinions{about}: no O facts yet (`memory retain \"O(c=0.8) @Name: ...\"` states one)"
    return (f"no opinions{about} in bank/opinions.md yet; {holder} has {waiting} O fact(s): "
            f"they become opinions when `memory reflect` runs")


def _check(check: bool, report) -> None:
    """--check: a hand edit inside a generated region (kept, reported above) is exit 1."""
    if check and report.conflicts:
        raise click.exceptions.Exit(1)


@click.command()
@click.option("--entity", metavar="NAME", help="Only opinions about this entity (@Slug, name or alias).")
@click.option("--json", "as_json", is_flag=True, help="Print the opinions as JSON.")
def opinions(entity: str | None, as_json: bool) -> None:
    """List the opinions in bank/opinions.md with confidence, history and evidence (path#Lline)."""
    mem = _memory()
    found = mem.opinions(entity)
    if as_json:
        echo_json(found)
        return
    if not found:
        echo(_none_yet(mem, entity))
        return
    for op in found:
        conf = "?" if op["confidence"] is None else f"{op['confidence']:.2f}"
        was = f"; superseded {op['until']} by: {op['superseded_by']}" if op["superseded_by"] else ""
        was += "".join(f"; may contradict: {other}" for other in op.get("may_contradict") or ())
        echo(f"{conf}  {op['statement']}  ({', '.join(op['entities']) or 'no entity'}; "
             f"updated {op['last_updated']}; {len(op['evidence'])} evidence{was})")


COMMANDS = (reflect, opinions)
