"""The workspace: layout and path safety (layout), memory.toml (config), and the writes people see:
Retain facts appended to daily logs (retain_writer), `memory init` (init_templates), paged reads (paging)."""

from __future__ import annotations

from .layout import MarkdownFile, Workspace, day_from_name, file_role

__all__ = ["MarkdownFile", "Workspace", "day_from_name", "file_role"]
