"""What every command shares: the Memory of this invocation, JSON output, day arguments."""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import click

from ..errors import UserError


def memory_of(ctx: click.Context, create: bool = False):  # noqa: ANN201 - api.Memory, imported lazily
    """The invocation's api.Memory (opened once, from the global --workspace and --now)."""
    from ..api import Memory

    obj = ctx.find_root().obj
    if "memory" not in obj:
        obj["memory"] = Memory.open(obj["workspace"], obj["now"], create=create)
    return obj["memory"]


def parse_day(value: str, option: str = "--date") -> date:
    """A calendar day given as YYYY-MM-DD; "no such date" for 2026-02-30, the format otherwise."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        raise UserError(f"{option} {value!r}: expected YYYY-MM-DD")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise UserError(f"{option} {value}: no such date") from None


def echo_json(data: Any) -> None:
    """JSON output: exact (no escaping of control characters beyond JSON's own)."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=None if isinstance(data, list) else 2, default=str))
