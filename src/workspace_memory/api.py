"""The library API: one object per workspace that the CLI and the MCP server both call.

    mem = Memory.open("~/.openclaw/workspace", now="2025-11-30")
    mem.index()
    mem.recall(RecallRequest("where does Peter live", k=5))

Nothing here prints or exits; errors are the typed exceptions of `errors.py`.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime
from functools import cached_property
from typing import Any

from .clock import parse_now, workspace_tz
from .errors import UserError
from .index.store import connect, ensure_schema
from .index.sync import SyncReport, sync
from .recall.query import RecallRequest
from .workspace import Workspace


class Memory:
    """A workspace plus its derived index, opened lazily."""

    def __init__(self, workspace: Workspace, now: datetime | None = None) -> None:
        self.workspace = workspace
        self.tz = workspace_tz(workspace.config)
        self.now = now or datetime.now(self.tz)

    @classmethod
    def open(cls, root: str | None = None, now: str | None = None) -> Memory:
        """Open the workspace at `root` (or $MEMORY_WORKSPACE / the default) with an optional fixed now."""
        ws = Workspace.open(root)
        return cls(ws, parse_now(now, workspace_tz(ws.config)))

    @property
    def today(self) -> date:
        return self.now.date()

    @cached_property
    def conn(self) -> sqlite3.Connection:
        """The index connection (schema created or migrated on first use)."""
        if not self.workspace.root.is_dir():
            raise UserError(f"no workspace at {self.workspace.root} (run `memory init` or pass --workspace)")
        conn = connect(self.workspace.index_path)
        ensure_schema(conn, self.workspace.state_dir)
        return conn

    def close(self) -> None:
        if "conn" in self.__dict__:
            self.conn.close()
            del self.__dict__["conn"]

    # -- index -------------------------------------------------------------------------
    def index(self, rebuild: bool = False, progress=None) -> SyncReport:  # noqa: ANN001
        """Bring the index up to date (waiting for another writer if needed)."""
        return sync(self.workspace, self.conn, rebuild=rebuild, progress=progress)

    def refresh(self) -> list[str]:
        """The cheap sync a read does first; never waits for another writer. Returns notices."""
        report = sync(self.workspace, self.conn, wait=0)
        if report.busy:
            return ["the index is being updated by another process; results may be a moment behind"]
        return []

    # -- recall ------------------------------------------------------------------------
    def recall(self, request: RecallRequest) -> dict[str, Any]:
        """Answer a query with cited results (the JSON contract of DESIGN §3)."""
        from .recall.engine import recall

        notices = self.refresh()
        if request.mode in ("semantic", "hybrid"):
            raise UserError(f"--mode {request.mode}: semantic recall is not available in this build; use lexical")
        return recall(self.conn, request, now=self.now, notices=notices)

    # -- status ------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """Counts, warnings with path:line, index age and available search modes."""
        notices = self.refresh()
        conn = self.conn
        count = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        last_sync = conn.execute("SELECT value FROM meta WHERE key = 'last_sync'").fetchone()
        age = None
        if last_sync:
            age = round((datetime.now(UTC) - datetime.fromisoformat(last_sync[0])).total_seconds(), 1)
        warnings = [
            {"path": p, "line": line, "message": m}
            for p, line, m in conn.execute("SELECT path, line, message FROM warnings ORDER BY path, line")
        ]
        return {
            "workspace": str(self.workspace.root),
            "index": str(self.workspace.index_path),
            "files": count("SELECT COUNT(*) FROM files"),
            "chunks": count("SELECT COUNT(*) FROM chunks"),
            "facts": count("SELECT COUNT(*) FROM facts"),
            "facts_by_kind": dict(conn.execute("SELECT kind, COUNT(*) FROM facts GROUP BY kind ORDER BY kind")),
            "entities": count("SELECT COUNT(*) FROM entities"),
            "warnings": warnings,
            "last_sync": last_sync[0] if last_sync else None,
            "index_age_seconds": age,
            "modes": ["lexical"],
            "notices": notices,
        }

    def entities(self) -> list[dict[str, Any]]:
        """Known entities, most facts first."""
        return [
            {"slug": s, "name": n, "page": p, "aliases": json.loads(a or "[]"), "facts": c}
            for s, n, p, a, c in self.conn.execute(
                "SELECT slug, name, page_path, aliases, fact_count FROM entities ORDER BY fact_count DESC, slug"
            )
        ]

    # -- Markdown reads and writes -------------------------------------------------------
    def get(self, path: str, start: int = 1, lines: int | None = None, max_chars: int | None = None):  # noqa: ANN201
        """A paged read of one workspace Markdown file (see `pages.read_page`)."""
        from .pages import read_page

        return read_page(self.workspace, path, start, lines, max_chars)

    def retain(self, bullet: str, day: date | None = None):  # noqa: ANN201
        """Append a validated Retain bullet to a day's log (see `journal.retain`)."""
        from .journal import retain

        return retain(self.workspace, bullet, day or self.today)

    def init(self):  # noqa: ANN201
        """Lay out a new workspace from the bank templates (never overwrites)."""
        from .templates import init_workspace

        return init_workspace(self.workspace, self.today)
