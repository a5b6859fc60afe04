"""Typed errors. The library raises these; the CLI and the MCP server translate them.

Every message is one line that names the problem and, where there is one, the fix.
"""

from __future__ import annotations


class MemoryError_(Exception):
    """Base class for every error the library raises on purpose."""


class UserError(MemoryError_):
    """The caller asked for something that cannot be done (bad argument, bad path, bad bullet)."""


class PathRefused(UserError):
    """A path is outside the workspace's Markdown, a symlink, or not a .md file."""


class InvalidFact(UserError):
    """A Retain bullet does not follow the fact grammar."""


class ProviderUnavailable(MemoryError_):
    """An explicitly configured embedding (or chat) provider cannot be used."""


class ProviderTimeout(ProviderUnavailable):
    """A remote provider did not answer within its deadline (a recall then answers lexically)."""


class StoreUnavailable(MemoryError_):
    """The configured store (a Postgres server) cannot be reached or used; the message never holds a password."""


class IndexBusy(MemoryError_):
    """Another process holds a lock for longer than we are willing to wait."""


class CoreEditError(UserError):
    """A core-memory edit cannot be applied (text not found, ambiguous, over the block limit)."""
