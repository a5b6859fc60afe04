"""workspace-memory: an offline-first memory engine for AI agents.

Markdown in a workspace is the source of truth; `.memory/index.sqlite` is derived.
"""

__version__ = "0.1.0"
