"""Which store holds a workspace's index: the `[store]` table of memory.toml and its environment twins.

    [store]
    url = "postgresql://memory@db.internal:5432/memory"   # or $MEMORY_STORE_URL
    workspace = "peter-assistant"                           # or $MEMORY_STORE_WORKSPACE; default: the folder name

Without a url the index is SQLite under `.memory/` (the embedded default). Credentials come from
the URL in the environment or from libpq's own PG* variables (PGPASSWORD, PGPASSFILE, ...),
never from a file in the workspace: a url in memory.toml that carries a password is refused.
No import of a driver here: this is read by every command.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

KEYS = ("url", "workspace")
SCHEMES = ("postgresql", "postgres")
_NAME_RE = re.compile(r"^[\w.@+-][\w .@+-]{0,99}$", re.UNICODE)


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every command reads this.
class StoreConfig:
    """The store of one workspace: a Postgres URL (None: SQLite) and the workspace's name in it."""

    __slots__ = ("url", "workspace")

    def __init__(self, url: str | None, workspace: str) -> None:
        self.url, self.workspace = url, workspace

    def __repr__(self) -> str:
        return f"StoreConfig(url={self.url!r}, workspace={self.workspace!r})"

    @property
    def postgres(self) -> bool:
        return self.url is not None

    @classmethod
    def from_mapping(cls, table: Mapping[str, Any] | None, env: Mapping[str, str], folder_name: str) -> StoreConfig:
        """Read and check `[store]` (ValueError with a one-line reason naming the key)."""
        table = dict(table or {})
        unknown = sorted(set(table) - set(KEYS))
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r}; expected one of: {', '.join(KEYS)}")
        for key, value in table.items():
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"{key} must be a non-empty string, not {value!r:.40}")
        url = env.get("MEMORY_STORE_URL") or table.get("url")
        if table.get("url") and _password(table["url"]):
            raise ValueError("url must not hold a password (a file in the workspace is no place for one); "
                             "put the URL in $MEMORY_STORE_URL or the password in PGPASSWORD / ~/.pgpass")
        if url is not None:
            check_url(url)
        name = (env.get("MEMORY_STORE_WORKSPACE") or table.get("workspace") or folder_name).strip()
        if not _NAME_RE.match(name):
            raise ValueError(f"workspace {name!r}: a name of letters, digits, spaces and . @ + - _ "
                             "(at most 100 characters) is expected")
        return cls(url, name)


def check_url(url: str) -> None:
    """A postgresql:// URL or raise ValueError saying what is wrong (without echoing a password)."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ValueError(f"url {redact(url)!r} is not a URL: {exc}") from None
    if parts.scheme not in SCHEMES:
        raise ValueError(f"url {redact(url)!r}: expected postgresql://[user@]host[:port]/database")


def _password(url: str) -> bool:
    try:
        return bool(urlsplit(url).password)
    except ValueError:
        return False


def redact(url: str) -> str:
    """`postgresql://host:5432/db` for messages: no user, no password, no query options.

    A server on a Unix socket (`postgresql:///db?host=/run/pg`) is shown with its socket folder.
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return "postgresql://<invalid url>"
    scheme = parts.scheme or "postgresql"
    socket = re.search(r"(?:^|&)host=([^&]+)", parts.query)
    if not host and socket:
        return f"{scheme}://{parts.path}?host={socket.group(1)}"
    host = host or os.environ.get("PGHOST", "localhost")
    return f"{scheme}://{host}:{port}{parts.path}" if port else f"{scheme}://{host}{parts.path}"
