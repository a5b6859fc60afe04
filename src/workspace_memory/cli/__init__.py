"""The `memory` command: thin click shells over `api.Memory` (app: the group and main; commands
by topic; render and progress: human output)."""

from __future__ import annotations

from .app import cli, main

__all__ = ["cli", "main"]
