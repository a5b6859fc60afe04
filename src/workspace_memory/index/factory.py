"""Which store a workspace's index lives in: SQLite under `.memory/` (the default) or Postgres.

The choice is `[store]` in memory.toml or $MEMORY_STORE_URL (index.store_config). Neither store
module is imported until it is chosen, so SQLite users never load psycopg.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..errors import UserError
from .store_config import StoreConfig

if TYPE_CHECKING:
    from ..workspace.layout import Workspace
    from .base import Store


def store_config(ws: Workspace, env: Mapping[str, str] | None = None) -> StoreConfig:
    """The workspace's `[store]` settings, checked (a bad value is one UserError line naming the key)."""
    try:
        return StoreConfig.from_mapping(ws.config.get("store"), os.environ if env is None else env, ws.root.name)
    except ValueError as exc:
        raise UserError(f"memory.toml [store]: {exc}") from None


def open_store(ws: Workspace, config: StoreConfig) -> Store:
    """The store `config` names, for workspace `ws` (opened lazily: nothing connects yet)."""
    if config.url is not None:
        from .postgres.store import PostgresStore

        return PostgresStore(config.url, config.workspace)
    from .sqlite.store import SqliteStore

    return SqliteStore(ws.state_dir)
