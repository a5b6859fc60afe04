"""SqliteWriter: the IndexWriter port (index.ports) over `.memory/index.sqlite` — SQL only.

The algorithm (what changed, the rows of a file, entities, supersession, the fingerprint, when the
generation moves) is index.indexer's and index.sessions'; this module says how each step is
written in SQLite: an FTS5 table per source (Markdown entries, session messages), a trigram
table for CJK entries, the `meta` table for the fingerprint, the generation and the id counter,
and the FTS journal that lets cached term counts follow small syncs (journal.py).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..base import in_batches
from ..rows import key_scope, row_parts
from . import fts_content, journal
from .connection import transaction, writer_lock
from .fts_content import FTS_TABLES

if TYPE_CHECKING:
    import numpy as np

    from ..ports import Cached, Document, EntitySources, Known
    from ..records import SessionState

DELTA_LIMIT = 5_000  # chunk ids a sync records as its change (vectors.sync: an edit's vectors without the HNSW file)
_SESSION_COLUMNS = {"key": "path", "digest": "head"}  # SessionState field -> session_files column, where they differ


def fts_table(role: str) -> str:
    """The FTS5 table that holds the words of an entry of this role."""
    return "sessions_fts" if role == "session" else "chunks_fts"


def _meta_int(conn: sqlite3.Connection, key: str) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row and str(row[0]).isdigit() else 0


def generation(conn: sqlite3.Connection) -> int:
    """A counter bumped by every sync that changed chunks (0 for a new index)."""
    return _meta_int(conn, "generation")


def bump_generation(conn: sqlite3.Connection, changes: tuple[list[int], list[int]] | None = None) -> None:
    """Say that entries changed: readers of derived state (vectors, term counts) compare this to what they saw.

    `changes`: the chunk ids this change added and removed, when it knows them all. They are kept
    (meta `chunk_delta`, for this generation only) when there are few, so that the vector store
    can follow a small edit without reading its HNSW file (vectors.sync.open_store).
    """
    with transaction(conn):
        number = _meta_int(conn, "generation") + 1
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('generation', ?)", (str(number),))
        if changes is not None and len(changes[0]) + len(changes[1]) <= DELTA_LIMIT:
            delta = {"generation": number, "new": sorted(changes[0]), "removed": sorted(changes[1])}
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('chunk_delta', ?)", (json.dumps(delta),))
        else:
            conn.execute("DELETE FROM meta WHERE key = 'chunk_delta'")


def chunk_delta(conn: sqlite3.Connection) -> tuple[list[int], list[int]] | None:
    """The chunk ids (added, removed) of the change that made the current generation, when recorded."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'chunk_delta'").fetchone()
    if row is None:
        return None
    delta = json.loads(row[0])
    return (delta["new"], delta["removed"]) if delta["generation"] == generation(conn) else None


def count_languages(conn: sqlite3.Connection) -> None:
    """Sum the files' language counts (files.languages) into meta `languages`, after files changed:
    what a recall reads (SqliteReads.languages), one row, however many files."""
    totals = dict(conn.execute("SELECT j.key, SUM(j.value) FROM files f, json_each(f.languages) j"
                               " WHERE f.languages IS NOT NULL GROUP BY j.key"))
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('languages', ?)",
                 (json.dumps(totals, sort_keys=True),))


def next_chunk_id(conn: sqlite3.Connection) -> int:
    """The id the next inserted chunk gets.

    Ids are never reused (a counter in meta, not MAX(id) + 1): the vector index keys its
    vectors by chunk id, and a reused id would silently keep the old text's vector.
    """
    return max(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM chunks").fetchone()[0],
               _meta_int(conn, "next_chunk_id"))


def insert_chunks(conn: sqlite3.Connection, chunks: Sequence[tuple[dict, dict | None, tuple[str, ...]]]) -> list[int]:
    """Insert (chunk, fact, mentions) rows and their FTS rows, a statement per table; returns the ids.

    The ids are consecutive, in the order given (index.base: neighbours are id - 1 and id + 1).
    """
    first = next_chunk_id(conn)
    ids = list(range(first, first + len(chunks)))
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('next_chunk_id', ?)", (str(first + len(chunks)),))
    conn.executemany(
        "INSERT INTO chunks(id, path, start_line, end_line, entry_start, kind, heading, text, role, day, t_start,"
        " t_end, at, invalid_at, text_hash, ctx_hash) VALUES (:id, :path, :start_line, :end_line, :entry_start,"
        " :kind, :heading, :text, :role, :day, :t_start, :t_end, :at, :invalid_at, :text_hash, :ctx_hash)",
        [chunk | {"id": cid} for cid, (chunk, _, _) in zip(ids, chunks, strict=True)],
    )
    # The FTS rows are read from the chunks just written (fts_content): the search text, path words
    # and context of the row dicts are what the views give, and a view is what a delete reads.
    fts_content.index(conn, ids)
    for table in FTS_TABLES:
        journal.inserted(conn, table, [cid for cid, (c, _, _) in zip(ids, chunks, strict=True)
                                       if fts_table(c["role"]) == table])
    conn.executemany("INSERT INTO chunks_trigram(rowid, text) VALUES (?, ?)",
                     [(cid, c["text"]) for cid, (c, _, _) in zip(ids, chunks, strict=True) if c["cjk"]])
    facts = [fact | {"id": cid} for cid, (_, fact, _) in zip(ids, chunks, strict=True) if fact is not None]
    if facts:
        cols = list(facts[0])
        conn.executemany(f"INSERT OR REPLACE INTO facts({', '.join(cols)}) VALUES ({', '.join(':' + c for c in cols)})",
                         facts)
    conn.executemany(
        "INSERT INTO chunk_days(chunk_id, t_start, t_end) VALUES (?, ?, ?)",
        [(cid, start, end) for cid, (c, _, _) in zip(ids, chunks, strict=True) for start, end in c.get("named", ())],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO mentions(chunk_id, entity_key, slug) VALUES (?, ?, ?)",
        [(cid, slug.lower(), slug) for cid, (_, _, mentions) in zip(ids, chunks, strict=True) for slug in mentions],
    )
    return ids


def delete_paths(conn: sqlite3.Connection, paths: Sequence[str], keys: set[str] | None = None) -> list[int]:
    """Delete every row of these files (entries, their FTS and trigram rows, facts, mentions, warnings);
    return the entry ids, and add the entity keys they mentioned to `keys`."""
    removed: list[int] = []
    for path in paths:
        ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE path = ?", (path,))]
        if keys is not None:
            keys.update(r[0] for r in conn.execute(
                "SELECT DISTINCT m.entity_key FROM mentions m JOIN chunks c ON c.id = m.chunk_id WHERE c.path = ?",
                (path,)))
        removed += ids
        for part in in_batches(ids):
            marks = ",".join("?" * len(part))
            for table in FTS_TABLES:
                journal.deleting(conn, table, part)
            # Before the chunks go: the views still give the values these rows were indexed with.
            fts_content.unindex(conn, part)
            for table, col in (("chunks_trigram", "rowid"), ("facts", "id"), ("mentions", "chunk_id"),
                               ("chunk_days", "chunk_id")):
                conn.execute(f"DELETE FROM {table} WHERE {col} IN ({marks})", part)
        conn.execute("DELETE FROM chunks WHERE path = ?", (path,))
        conn.execute("DELETE FROM warnings WHERE path = ?", (path,))
        conn.execute("DELETE FROM files WHERE path = ?", (path,))
    return removed


class SqliteWriter:
    """index.ports.IndexWriter over the SQLite index of one workspace (`state_dir`: its `.memory/`)."""

    keeps_texts = False  # the checkout beside the index is the truth: `file_text` is None

    def __init__(self, conn: sqlite3.Connection, state_dir: Path) -> None:
        from .schema import FTS_TOKENIZER, ROWS_SCHEMA

        self.conn, self.state_dir = conn, state_dir
        self.schema, self.tokenizer = ROWS_SCHEMA, FTS_TOKENIZER

    # -- lock and transactions ------------------------------------------------------------------
    def lock(self, wait: float | None) -> contextlib.AbstractContextManager[bool]:
        return writer_lock(self.state_dir, wait=wait)

    def transaction(self) -> contextlib.AbstractContextManager[Any]:
        return transaction(self.conn)

    # -- what is stored ---------------------------------------------------------------------------
    def stored(self, paths: Sequence[str] | None) -> tuple[str | None, bool, Known]:
        conn = self.conn
        row = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
        has_rows = row is None and conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None
        known: Known = {}
        if paths is None:
            known = {p: (m, s, h) for p, m, s, h in conn.execute("SELECT path, mtime_ns, size, hash FROM files")}
        for part in in_batches(sorted(paths or ())):
            known.update({p: (m, s, h) for p, m, s, h in conn.execute(
                f"SELECT path, mtime_ns, size, hash FROM files WHERE path IN ({','.join('?' * len(part))})", part)})
        return (row[0] if row else None), has_rows, known

    def session_states(self) -> dict[str, SessionState]:
        from dataclasses import fields  # lazy: a recall creates no dataclass and imports none of this

        from ..records import SessionState

        cols = ", ".join(_SESSION_COLUMNS.get(f.name, f.name) for f in fields(SessionState))
        return {row[0]: SessionState(*row) for row in self.conn.execute(f"SELECT {cols} FROM session_files")}

    # -- writing rows ---------------------------------------------------------------------------
    def clear(self) -> None:
        with transaction(self.conn):
            # Session rows go too (their offsets with them): the next session sync reads every transcript whole.
            fts_content.clear(self.conn)
            for table in ("chunks_trigram", "facts", "mentions", "chunk_days", "chunks", "warnings", "files",
                          "entities", "session_files"):
                self.conn.execute(f"DELETE FROM {table}")
            journal.reset(self.conn)

    def touch(self, path: str, mtime_ns: int, size: int) -> None:
        self.conn.execute("UPDATE files SET mtime_ns = ?, size = ? WHERE path = ?", (mtime_ns, size, path))

    def delete_files(self, paths: Sequence[str]) -> tuple[list[int], set[str]]:
        keys: set[str] = set()
        return delete_paths(self.conn, paths, keys), keys

    def insert_documents(self, documents: Sequence[Document]) -> list[int]:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        ids: list[int] = []
        for rows, _ in documents:
            file_row = rows.file | {"indexed_at": now}
            self.conn.execute(f"INSERT OR REPLACE INTO files({', '.join(file_row)})"
                              f" VALUES ({', '.join(':' + c for c in file_row)})", file_row)
            for part in row_parts(rows.chunks):  # a huge file's rows a part at a time (rows.ChunkRows)
                ids += insert_chunks(self.conn, part)
            if rows.warnings:
                self.conn.executemany("INSERT INTO warnings(path, line, message) VALUES (?, ?, ?)",
                                      [(file_row["path"], line, msg) for line, msg in rows.warnings])
        return ids

    def entity_sources(self, keys: set[str] | None) -> EntitySources:
        scope, params = key_scope(keys, "entity_key IN ({})")
        spellings: dict[str, dict[str, int]] = {}
        for key, slug, count in self.conn.execute(
                f"SELECT entity_key, slug, COUNT(*) FROM mentions WHERE 1{scope} GROUP BY entity_key, slug", params):
            spellings.setdefault(key, {})[slug] = count
        fact_counts = dict(self.conn.execute(
            "SELECT m.entity_key, COUNT(*) FROM mentions m JOIN facts f ON f.id = m.chunk_id"
            f" WHERE 1{scope.replace('entity_key', 'm.entity_key')} GROUP BY m.entity_key", params))
        pages = [(path, json.loads(meta or "{}"), title) for path, meta, title in self.conn.execute(
            "SELECT path, meta, title FROM files WHERE path LIKE 'bank/entities/%'")]
        return spellings, fact_counts, pages

    def replace_entities(self, keys: set[str] | None, rows: list[tuple]) -> None:
        with transaction(self.conn):
            if keys is None:
                self.conn.execute("DELETE FROM entities")
            else:
                scope, params = key_scope(keys, "key IN ({})")
                self.conn.execute(f"DELETE FROM entities WHERE 1{scope}", params)
            self.conn.executemany(
                "INSERT INTO entities(key, slug, name, page_path, aliases, fact_count) VALUES (?, ?, ?, ?, ?, ?)", rows)

    def world_facts(self, keys: set[str] | None) -> list[tuple]:
        scope, params = key_scope(keys, "f.id IN (SELECT chunk_id FROM mentions WHERE entity_key IN ({}))")
        return self.conn.execute(
            "SELECT f.id, f.path, f.line, f.content, f.confidence, f.day, m.entity_key FROM facts f"
            f" JOIN mentions m ON m.chunk_id = f.id WHERE f.kind = 'world'{scope} ORDER BY f.id, m.rowid",
            params).fetchall()

    def set_superseded(self, judged: list[int], replaced: dict[int, int]) -> None:
        for part in in_batches(judged):
            self.conn.execute(f"UPDATE facts SET superseded_by = NULL WHERE id IN ({','.join('?' * len(part))})", part)
        self.conn.executemany("UPDATE facts SET superseded_by = ? WHERE id = ?",
                              [(new, old) for old, new in replaced.items()])

    def finish(self, fingerprint: str, replace: bool) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('last_sync', ?)",
                          (datetime.now(UTC).isoformat(timespec="seconds"),))
        verb = "REPLACE" if replace else "IGNORE"
        self.conn.execute(f"INSERT OR {verb} INTO meta(key, value) VALUES ('fingerprint', ?)", (fingerprint,))

    def bump_generation(self, changes: tuple[list[int], list[int]] | None) -> None:
        count_languages(self.conn)
        bump_generation(self.conn, changes)

    # -- session transcripts (index.sessions.SessionWriter) --------------------------------------
    def forget(self, key: str) -> list[int]:
        removed = delete_paths(self.conn, [key])
        self.conn.execute("DELETE FROM session_files WHERE path = ?", (key,))
        return removed

    def read_to(self, key: str) -> int:
        row = self.conn.execute("SELECT offset FROM session_files WHERE path = ?", (key,)).fetchone()
        return row[0] if row else 0

    def last_entry(self, key: str) -> tuple[int, str] | None:
        return self.conn.execute("SELECT id, text FROM chunks WHERE path = ? ORDER BY id DESC LIMIT 1",
                                 (key,)).fetchone()

    def next_id(self) -> int:
        # The id insert_chunks will give: MAX(id) + 1 said "consecutive" for a message whose id
        # then came after the counter (the last chunks deleted), and linked it to a message that
        # is not id - 1, which the FTS view (fts_content) could not derive.
        return next_chunk_id(self.conn)

    def insert(self, rows: list[dict[str, Any]]) -> list[int]:
        return insert_chunks(self.conn, [(row, None, ()) for row in rows])

    def save(self, state: SessionState) -> None:
        from dataclasses import asdict

        values = asdict(state)
        cols = [_SESSION_COLUMNS.get(k, k) for k in values]
        self.conn.execute(f"INSERT OR REPLACE INTO session_files({', '.join(cols)}, indexed_at) VALUES "
                          f"({', '.join('?' * len(cols))}, ?)",
                          (*values.values(), datetime.now(UTC).isoformat(timespec="seconds")))

    # -- purging text from session entries --------------------------------------------------------
    def session_hits(self, pattern: str) -> list[tuple[int, str]]:
        return self.conn.execute("SELECT id, text FROM chunks WHERE role = 'session' AND instr(text, ?) > 0",
                                 (pattern,)).fetchall()

    def set_session_text(self, cid: int, text: str, digest: str) -> None:
        # The entry's FTS row and the next one's (its context) leave the index while the views still
        # give the old text (fts_content); set_search_rows indexes them again.
        following = self.conn.execute("SELECT n.id FROM chunks c JOIN chunks n ON n.id = c.id + 1 AND n.path = c.path"
                                      " WHERE c.id = ?", (cid,)).fetchall()
        fts_content.unindex(self.conn, [cid, *(r[0] for r in following)])
        self.conn.execute("UPDATE chunks SET text = ?, text_hash = ? WHERE id = ?", (text, digest, cid))

    def session_entry(self, cid: int) -> tuple[str, str, str | None, str | None] | None:
        return self.conn.execute(
            "SELECT c.text, c.path, c.ctx_hash, p.text FROM chunks c LEFT JOIN chunks p ON p.id = c.id - 1"
            " AND p.path = c.path WHERE c.id = ? AND c.role = 'session'", (cid,)).fetchone()

    def set_search_rows(self, cid: int, words: dict[str, str], ctx_hash: str | None) -> None:
        """The FTS row (and the trigram row of a CJK entry) rewritten; vectors live in the HNSW files,
        which a purge deletes whole (index.sqlite.purge)."""
        self.conn.execute("UPDATE chunks SET ctx_hash = ? WHERE id = ?", (ctx_hash, cid))
        # The words come from the views (fts_content), which give `words`. A row still indexed
        # (neither its text nor its context's changed) goes out with the values it went in with.
        fts_content.unindex(self.conn, [cid])
        fts_content.index(self.conn, [cid])
        if self.conn.execute("DELETE FROM chunks_trigram WHERE rowid = ?", (cid,)).rowcount:
            self.conn.execute("INSERT INTO chunks_trigram(rowid, text) VALUES (?, ?)", (cid, words["search_text"]))

    # -- the embedding cache ----------------------------------------------------------------------
    def cached_embeddings(self) -> Cached:
        from .vectors import from_blob  # lazy: numpy only when vectors move

        rows = self.conn.execute(
            "SELECT provider, model, hash, dim, vector FROM embedding_cache WHERE hash IN"
            " (SELECT text_hash FROM chunks UNION SELECT ctx_hash FROM chunks)").fetchall()
        return [(p, m, h, vec) for p, m, h, dim, blob in rows if (vec := from_blob(blob, dim)) is not None]

    def put_embeddings(self, provider: str, model: str, vectors: Mapping[str, np.ndarray]) -> None:
        from .vectors import EmbeddingCache

        EmbeddingCache(self.conn).put_many(provider, model, vectors)

    def texts_without_vectors(self, provider: str, model: str, dim: int) -> list[tuple[str, str]]:
        from .vectors import missing_vectors

        return missing_vectors(self.conn, provider, model, dim)

