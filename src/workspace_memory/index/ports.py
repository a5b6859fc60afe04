"""The narrow ports a store implements for the one indexer (index.indexer) and for moving a workspace.

index.base's `Store` is the roles of a store (what recall and reflect read, its vectors, its
maintenance); `VectorIndex` is one embedder's vectors (an HNSW file, or pgvector). This module
is the write side: the indexer owns the algorithm (scan, hash, rows with the workspace's settings,
entities, supersession, the settings fingerprint, the generation, transcripts' deltas) and a store
only says how each step is done in its SQL. SQLite (index.sqlite.writer) and Postgres
(index.postgres.writer) implement it; tests/test_store_contract.py runs both through it.

Every method is required: a capability a store lacks is declared (`keeps_texts`), never probed
with `getattr`. The methods run inside the indexer's `lock()` and, where they write, inside one
of its `transaction()`s.

Only indexing and `memory store export/import` import this module (a recall never does), so its
types may be as plain or as rich as they need to be.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from .records import SessionState

# provider, model, text hash, vector: an embedding cache's rows, as `memory store export/import` moves them.
Cached = list[tuple[str, str, str, "np.ndarray"]]
# path -> (mtime_ns, size, hash): a store's `files` rows, as a scan compares the workspace with them.
Known = dict[str, tuple[int, int, str]]
# A file to insert: its rows.DocumentRows (the `files` row carries hash, mtime_ns and size) and its text,
# when the store keeps texts (else None). Typed loosely: index.rows imports index.base, which names
# this module, and the architecture test allows no circle, lazy or typing-only.
Document = tuple[Any, "str | None"]
# What entities are computed from: {key: {slug as written: mentions}}, {key: facts}, and the entity
# pages' (path, frontmatter, title).
EntitySources = tuple[dict[str, dict[str, int]], dict[str, int], list[tuple[str, dict[str, Any], str | None]]]


class SessionWriter(Protocol):
    """What a store does for index.sessions.apply_delta, inside its transaction (part of IndexWriter):
    the steps are the same, the SQL is the store's."""

    def forget(self, key: str) -> list[int]:
        """Delete the transcript's entries and its read state; return the ids of the entries deleted."""

    def read_to(self, key: str) -> int:
        """How many bytes of the transcript the stored state says were read (0 when none)."""

    def last_entry(self, key: str) -> tuple[int, str] | None:
        """The id and text of the transcript's last entry, if any."""

    def next_id(self) -> int:
        """The id the next inserted entry gets."""

    def insert(self, rows: list[dict[str, Any]]) -> list[int]:
        """Insert the entries' rows; return their ids."""

    def save(self, state: SessionState) -> None:
        """Store the transcript's read state (insert or replace)."""


class IndexWriter(SessionWriter, Protocol):
    """One workspace's rows in one store, as the indexer writes them.

    The session steps (forget, read_to, last_entry, next_id, insert, save) are index.sessions'
    SessionWriter: a transcript's delta is applied by the same code on every store.
    """

    schema: int  # the version of the store's rows; part of the settings fingerprint
    tokenizer: str  # how the store splits words (FTS5's, or words.py's); part of the fingerprint
    keeps_texts: bool  # True: the store keeps each file's text (`file_text`), so Document carries it

    # -- lock and transactions ------------------------------------------------------------------
    def lock(self, wait: float | None) -> AbstractContextManager[bool]:
        """Hold the workspace's writer lock: yields False when `wait=0` and another writer holds it;
        raises IndexBusy after `wait` seconds (None: wait forever)."""
        ...

    def transaction(self) -> AbstractContextManager[Any]:
        """One transaction (joins the caller's when one is open)."""
        ...

    # -- what is stored ---------------------------------------------------------------------------
    def stored(self, paths: Sequence[str] | None) -> tuple[str | dict[str, Any] | None, bool, Known]:
        """(the stored settings fingerprint or None, whether rows exist when it is None, the stored
        (mtime_ns, size, hash) of every file, or of `paths`). A recall pays this on every answer."""
        ...

    def session_states(self) -> dict[str, SessionState]:
        """How far each transcript was read, by key."""
        ...

    # -- writing rows ---------------------------------------------------------------------------
    def clear(self) -> None:
        """Delete every row of the workspace (Markdown, transcripts and their read state, entities, vectors)."""
        ...

    def touch(self, path: str, mtime_ns: int, size: int) -> None:
        """A file whose bytes did not change: store its new stat."""
        ...

    def delete_files(self, paths: Sequence[str]) -> tuple[list[int], set[str]]:
        """Delete every row of these Markdown files; return the entry ids deleted and the entity keys
        their entries mentioned."""
        ...

    def insert_documents(self, documents: Sequence[Document]) -> list[int]:
        """Insert the files, entries, facts, mentions and warnings of `documents`; return the new
        entry ids, consecutive within a file in file order (index.base), never reused."""
        ...

    def entity_sources(self, keys: set[str] | None) -> EntitySources:
        """What the entities `keys` (None: all) are computed from: mentions, fact counts, pages."""
        ...

    def replace_entities(self, keys: set[str] | None, rows: list[tuple]) -> None:
        """Replace the entities `keys` (None: all) by `rows` (sync_plan.entity_rows)."""
        ...

    def world_facts(self, keys: set[str] | None) -> list[tuple]:
        """The world facts that mention `keys` (None: all): (id, path, line, content, confidence, ISO day,
        entity key), one row per mention, by id then mention order."""
        ...

    def set_superseded(self, judged: list[int], replaced: dict[int, int]) -> None:
        """Clear superseded_by on the facts `judged`, then set it for `replaced` (old id -> newer id)."""
        ...

    def finish(self, fingerprint: str, replace: bool) -> None:
        """Record the time of this sync, and the settings fingerprint (JSON) when `replace` or when none
        is stored yet."""
        ...

    def bump_generation(self, changes: tuple[list[int], list[int]] | None) -> None:
        """A new generation: entries changed (`changes`: the ids added and removed, when known)."""
        ...

    # -- purging text from session entries (index.sessions.rewrite_sessions) -----------------------
    def session_hits(self, pattern: str) -> list[tuple[int, str]]:
        """(id, text) of the session entries whose text holds `pattern`."""
        ...

    def set_session_text(self, cid: int, text: str, digest: str) -> None:
        """A session entry's new text and the hash of its embedded text."""
        ...

    def session_entry(self, cid: int) -> tuple[str, str, str | None, str | None] | None:
        """(text, path, context hash, text of the entry before it in the same file) of a session
        entry, or None when `cid` is not one."""
        ...

    def set_search_rows(self, cid: int, words: dict[str, str], ctx_hash: str | None) -> None:
        """A session entry's searchable words (search_text, path_text, context_text) and context hash,
        rewritten from its texts; its stored vectors go (they are made again from the new texts)."""
        ...

    # -- the embedding cache (moving a workspace between stores) -----------------------------------
    def cached_embeddings(self) -> Cached:
        """The cached vectors of every text this workspace's entries use (alone and in context)."""
        ...

    def put_embeddings(self, provider: str, model: str, vectors: Mapping[str, np.ndarray]) -> None:
        """Add one embedder's vectors ({text hash: vector}) to the store's embedding cache."""
        ...

    def texts_without_vectors(self, provider: str, model: str, dim: int) -> list[tuple[str, str]]:
        """(text hash, text) of every text this workspace's entries embed (alone and in context)
        that the cache holds no vector of, `dim` long, for this provider and model: what
        `memory index` would send (`--estimate`, batch jobs). `dim` -1: every text counts."""
        ...
