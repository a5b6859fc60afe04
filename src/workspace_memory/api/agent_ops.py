"""The façade's agent surface: core blocks, triggers, the flush prompt, doctor (a mixin of Memory)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..limits import MAX_EDIT_CHARS, check_text

if TYPE_CHECKING:
    from ..agent.core import CoreSettings
    from ..doctor import DoctorReport
    from ..index.base import SyncReport


class AgentOps:
    """Core memory edits (Letta-style), trigger phrases, the flush prompt and doctor."""

    # -- the agent surface: core blocks, triggers, flush prompt, doctor, file watching -------------
    @cached_property
    def core_settings(self) -> CoreSettings:
        """The `[core]` table of memory.toml, checked (block limits, read-only blocks)."""
        from ..agent.core import CoreSettings

        return CoreSettings.from_mapping(self.workspace.config.get("core"))

    def core_show(self) -> dict[str, Any]:
        """The core blocks of MEMORY.md: label, chars_current, chars_limit, read_only, value; and the prompt text."""
        from ..agent.core import parse_core, render_blocks
        from ..agent.core_write import read_core_text

        self.workspace.require()
        path = self.workspace.core_path
        key = self.workspace.key_for(path)
        blocks = parse_core(read_core_text(path)[0], self.core_settings).blocks
        return {"path": key, "exists": path.is_file(), "blocks": [b.to_dict() for b in blocks],
                "prompt": render_blocks(blocks, key)}

    def core_append(self, label: str, text: str) -> dict[str, Any]:
        """Append lines to a core block (refused over its limit or when read-only)."""
        from ..agent import core

        _check_edit(label, text=text)
        return self._core_edit(lambda t: core.append(t, label, text, self.core_settings))

    def core_replace(self, label: str, old: str, new: str) -> dict[str, Any]:
        """Replace the one occurrence of `old` in a core block; 0 or 2+ occurrences are refused."""
        from ..agent import core

        _check_edit(label, old=old, new=new)
        return self._core_edit(lambda t: core.replace(t, label, old, new, self.core_settings))

    def core_insert(self, label: str, text: str, line: int) -> dict[str, Any]:
        """Insert lines at line `line` of a core block's value (1-based; -1 = at the end)."""
        from ..agent import core

        _check_edit(label, text=text)
        return self._core_edit(lambda t: core.insert(t, label, text, line, self.core_settings))

    def core_rethink(self, label: str, text: str) -> dict[str, Any]:
        """Rewrite a core block's whole value."""
        from ..agent import core

        _check_edit(label, text=text)
        return self._core_edit(lambda t: core.rethink(t, label, text, self.core_settings))

    def core_create(self, label: str, text: str = "") -> dict[str, Any]:
        """Add a new core block at the end of MEMORY.md (creating the file if needed)."""
        from ..agent import core

        _check_edit(label, text=text)
        return self._core_edit(lambda t: core.create(t, label, text, self.core_settings), create=True)

    def core_delete(self, label: str) -> dict[str, Any]:
        """Remove a core block (heading and value)."""
        from ..agent import core

        return self._core_edit(lambda t: core.delete(t, label, self.core_settings))

    def _core_edit(self, edit: Callable[[str], Any], create: bool = False) -> dict[str, Any]:
        from ..agent.core_write import edit_core_file
        from ..workspace.watch import Changes

        key, result = edit_core_file(self.workspace, edit, create=create)
        notices: list[str] = []
        if result.changed:  # the index follows the file at once
            report = self._sync_changes(Changes(frozenset({key})), wait=10)
            notices = report.notices + (["the index is busy; it will catch up on the next read"] if report.busy else [])
        return {"path": key, **result.to_dict(), "notices": notices}

    def triggers(self, message: str) -> dict[str, Any]:
        """Core entries whose `<!-- trigger: ... -->` phrases match `message` strongly (agent/triggers.py)."""
        from ..agent.triggers import find_triggers

        return find_triggers(message, self._trigger_sources())

    def trigger_entries(self, limit: int | None = None) -> dict[str, Any]:
        """Every trigger entry with its phrases (agent/triggers.list_triggers), for a runtime that
        matches messages itself."""
        from ..agent.triggers import MAX_LISTED, list_triggers

        return list_triggers(self._trigger_sources(), MAX_LISTED if limit is None else limit)

    def _trigger_sources(self) -> list[tuple[str, str]]:
        """(key, text) of MEMORY.md and the bank pages: where triggers live."""
        from ..files import decode_markdown

        sources = []
        for mf in self.workspace.core_and_bank_files():
            try:
                with open(mf.path, "rb") as fh:
                    sources.append((mf.key, decode_markdown(fh.read()).text))
            except OSError:
                continue
        return sources

    def flush_prompt(self) -> dict[str, str]:
        """The system/user prompt pair a runtime sends before compacting a session (agent/flush.py)."""
        from ..agent.flush import flush_prompt

        return flush_prompt(self.today, str(self.tz))

    def doctor(self, fix: bool = False) -> DoctorReport:
        """Find (and with `fix`, repair) what is wrong with the workspace and its index (doctor.py)."""
        from ..doctor import Examined, run_doctor
        from ..reflect.stale import findings

        def reindex(rebuild: bool) -> SyncReport:
            if rebuild:
                self.close()  # an unreadable index is moved aside and rebuilt when it is opened again
            return self.index(rebuild=rebuild)

        def pages() -> list:
            return findings(self.workspace.root, self.store, self.today)

        return run_doctor(Examined(self.workspace, self.store, self.vector_space, self.refresh, reindex), fix=fix,
                          pages=pages)


def _check_edit(label: str, **texts: str) -> None:
    """The bounds of a core edit (MAX_EDIT_CHARS per text, a short block label), before the file is read."""
    check_text("block", label)
    for name, text in texts.items():
        check_text(name, text, MAX_EDIT_CHARS)
