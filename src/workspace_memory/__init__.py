"""workspace-memory: an offline-first memory engine for AI agents.

Markdown in a workspace is the source of truth; the index is derived and can always be rebuilt.

    from workspace_memory import Memory, RecallRequest
    mem = Memory.open("~/.openclaw/workspace")
    mem.recall(RecallRequest("where does Peter live", k=5))

The names below load on first use, so `import workspace_memory.<module>` stays cheap (this
file imports nothing, not even typing: the console script imports click with the collector
off, cli/__init__.py).
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["Memory", "MemoryError_", "RecallRequest", "__version__"]


def __getattr__(name: str) -> object:
    if name in ("Memory", "RecallRequest"):
        from . import api

        return getattr(api, name)
    if name == "MemoryError_":
        from .errors import MemoryError_

        return MemoryError_
    raise AttributeError(f"module 'workspace_memory' has no attribute {name!r}")
