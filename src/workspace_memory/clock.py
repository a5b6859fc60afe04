""""Now" for every time-relative behaviour: --now / MEMORY_NOW, else the clock.

Dates are calendar days in the configured timezone (`timezone = "Europe/Vienna"` in
memory.toml; UTC by default), so "yesterday" means the user's yesterday.
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any

from .errors import UserError


def workspace_tz(config: dict[str, Any]) -> tzinfo:
    """The timezone named in the config, or UTC."""
    name = config.get("timezone")
    if not name:
        return UTC
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError(f"unknown timezone {name!r} in memory.toml (use a name like 'Europe/Vienna')") from None


def parse_now(value: str | None, tz: tzinfo = UTC) -> datetime:
    """Parse an ISO date or datetime for --now; naive values are in the workspace timezone."""
    if not value:
        return datetime.now(tz)
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UserError(f"--now {value!r}: expected an ISO date or time such as 2025-11-27 or 2025-11-27T09:30") from None
    return parsed.replace(tzinfo=tz) if parsed.tzinfo is None else parsed.astimezone(tz)
