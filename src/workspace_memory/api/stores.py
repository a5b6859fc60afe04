"""The façade's session transcripts and store moves (a mixin of Memory)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ProviderUnavailable, UserError
from ..index.base import INDEX_WAIT
from .repair import _repairing

if TYPE_CHECKING:
    from ..index.base import Store
    from ..index.records import SessionReport
    from ..index.transfer import TransferReport


class StoreOps:
    """Transcripts as a source, and moving a workspace between SQLite and Postgres."""

    # -- session transcripts ------------------------------------------------------------------
    def session_files(self):  # (list[workspace.transcripts.SessionFile], notices)
        """The transcripts `[sessions] paths` names, and notices (a missing folder, a link, a clash)."""
        from ..workspace.transcripts import session_files

        return session_files(self.workspace)

    @_repairing
    def sync_sessions(self, *, min_bytes: int = 0, min_lines: int = 0,
                      wait: float | None = INDEX_WAIT) -> SessionReport:
        """Index what was added to the configured session transcripts (see index.sessions).

        `memory index` reads everything. A long-lived process (watch, the MCP server) calls
        `sync_sessions(min_bytes=DELTA_BYTES, min_lines=DELTA_LINES, wait=0)` when a transcript
        changes (OpenClaw's delta thresholds; `wait=0` never waits for another writer and says
        `busy`), and without thresholds when it is idle or stops. Recall never calls it.
        """
        from ..index.sessions import sync_sessions
        from ..workspace.transcripts import session_paths

        files, notices = self.session_files()
        report = sync_sessions(self.store, files, self.tz, min_bytes=min_bytes, min_lines=min_lines, wait=wait,
                               configured=bool(session_paths(self.workspace.config)))
        report.notices[:0] = notices
        return report

    def follow_sessions(self, rest: bool = False) -> SessionReport | None:
        """For a long-lived process (`memory watch`, the MCP server): index the transcripts that grew.

        Only transcripts past OpenClaw's delta thresholds (index.sessions.DELTA_BYTES / DELTA_LINES),
        or with `rest` every new line (when idle, or stopping). Never waits for another writer (the
        report says `busy`). None when `[sessions] paths` names nothing.
        """
        from ..index.sessions import DELTA_BYTES, DELTA_LINES
        from ..workspace.transcripts import session_paths

        if not session_paths(self.workspace.config):
            return None
        before = self.store.generation()
        report = self.sync_sessions(wait=0) if rest else self.sync_sessions(
            min_bytes=DELTA_BYTES, min_lines=DELTA_LINES, wait=0)
        if report.dirty:
            self._follow_vectors(report, before)
        return report


    def move_store(self, direction: str, url: str | None = None) -> TransferReport:
        """Copy this workspace between SQLite and Postgres without embedding again (index.transfer).

        `export`: from the configured store to the other one; `import`: from the other one into the
        configured store. The other store is SQLite under `.memory/` when Postgres is configured,
        else the Postgres at `url`.
        """
        from ..index.sqlite.store import SqliteStore
        from ..index.transfer import transfer

        self._needs_checkout(f"memory store {direction}")
        if self.store_config.postgres:
            other: Store = SqliteStore(self.workspace.state_dir)
        else:
            if not url:
                raise UserError(f"memory store {direction}: give the Postgres URL ({'--to' if direction == 'export' else '--from'} "
                                "postgresql://...) or configure [store] url")
            from ..index.postgres.store import PostgresStore
            from ..index.store_config import check_url

            try:
                check_url(url)
            except ValueError as exc:
                raise UserError(str(exc)) from None
            other = PostgresStore(url, self.store_config.workspace)
        source, target = (self.store, other) if direction == "export" else (other, self.store)
        try:
            embedder, _ = self.embedder()
        except ProviderUnavailable:
            embedder = None
        try:
            return transfer(self.workspace, source, target, embedder)
        finally:
            other.close()

    def store_workspaces(self) -> list[str]:
        """The workspaces of a Postgres store, by name (SQLite holds only this one)."""
        names = self.store.workspace_names()
        return names if names is not None else [self.store_config.workspace]

    def store_health(self) -> list[dict[str, Any]]:
        """What `memory doctor` checks of the store: [{check, ok, detail}] (server, extensions, migrations)."""
        return self.store.health()
