"""Whether an option's value can be read at all, before any work: times, days, kinds.

A value the command cannot read is bad usage, exit 2 with one line, as click says of a --k that is no
number (docs/cli.md: 1 a user error, 2 bad usage). The library reads these values again when it
uses them (against the workspace's "now"); this only refuses what no "now" could read. Plain
functions without click: cli/quick.py (the hot recall path, which never imports click) asks them
too and hands a bad value to click, so that both paths print the same line and exit 2
(cli/option_types.Checked turns them into click's usage errors).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from ..errors import UserError


def _refusal(read: Callable[[], object], errors: type[Exception] | tuple[type[Exception], ...]) -> str | None:
    """What `read()` says when it refuses its value (one line), or None."""
    try:
        read()
    except errors as exc:
        return str(exc)
    return None


def _too_long(option: str, value: str) -> str | None:
    """A text option over its limit, in the library's words ("since: 1,001 characters; the limit is
    1,000", as the MCP tools say it: tests/test_limit_wording.py), before what it says."""
    from ..limits import MAX_ARG_CHARS, too_long

    return too_long(option.lstrip("-"), len(value), MAX_ARG_CHARS) if len(value) > MAX_ARG_CHARS else None


def time_problem(option: str, value: str) -> str | None:
    """Why a --since/--until value is unreadable ("30d", "+7d", "2025-11-20", "today"), or None."""
    from ..dates.parse import parse_since

    if (over := _too_long(option, value)) is not None:
        return over
    problem = _refusal(lambda: parse_since(value, datetime.now(UTC)), ValueError)
    return f"{option}: {problem}" if problem else None


def day_problem(option: str, value: str) -> str | None:
    """Why a --date value is no YYYY-MM-DD day, or None."""
    from ..dates.parse import parse_day

    return _refusal(lambda: parse_day(value, option), UserError)


def now_problem(option: str, value: str) -> str | None:
    """Why a --now value (or MEMORY_NOW) is no ISO date or time, or None."""
    from ..clock import parse_now

    return _refusal(lambda: parse_now(value), UserError)


def kind_problem(option: str, value: str) -> str | None:
    """Why a --kind value names a kind recall does not know ("world,fish"), or None."""
    from ..recall.query import parse_kind

    return _too_long(option, value) or _refusal(lambda: parse_kind(value), UserError)


# The recall options by field name (recall/params.py) whose values must be readable.
RECALL_CHECKS: dict[str, Callable[[str, str], str | None]] = {
    "since": time_problem, "until": time_problem, "kind": kind_problem}
