"""Keep the index in step with the Markdown: cheap stat check first, then parse what changed.

1. Scan the workspace (no symlinks) and compare (mtime_ns, size) with the `files` table.
2. If nothing differs, stop: this is all a recall pays when nothing changed.
3. Take the writer lock and scan again (another process may have just synced).
4. For each candidate, hash its bytes; same hash = only touched, update the stat.
5. Parse changed files and replace their rows in one transaction per batch;
   delete the rows of files that are gone (a rename is a delete plus an add, and the
   embedding cache keyed by text hash makes it cheap).
6. Rebuild the small `entities` table from mentions and entity pages.

Indexing never writes Markdown: files are only opened for reading.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterable
from datetime import UTC, datetime

from ...workspace.layout import MarkdownFile, Workspace
from .. import sync_plan
from ..base import SyncReport, in_batches
from ..rows import file_rows, key_scope
from ..sync_plan import (
    Known,
    Pending,
    changed_paths,
    entity_rows,
    fingerprint_change,
    page_key,
    recheck,
    scan,
)
from . import journal
from .connection import transaction, writer_lock

_BATCH = 200  # files a transaction: keeps readers' view fresh and memory flat on big rebuilds
FTS_TABLES = ("chunks_fts", "sessions_fts")  # the words of Markdown entries, and of session messages


def fts_table(role: str) -> str:
    """The FTS5 table that holds the words of an entry of this role."""
    return "sessions_fts" if role == "session" else "chunks_fts"


def _known(conn: sqlite3.Connection, paths: list[str] | None = None) -> Known:
    """The stored (mtime_ns, size, hash) of every file, or of `paths`."""
    if paths is None:
        return {p: (m, s, h) for p, m, s, h in conn.execute("SELECT path, mtime_ns, size, hash FROM files")}
    known: Known = {}
    for part in in_batches(sorted(paths)):
        known.update({p: (m, s, h) for p, m, s, h in conn.execute(
            f"SELECT path, mtime_ns, size, hash FROM files WHERE path IN ({','.join('?' * len(part))})", part)})
    return known


def _scan(ws: Workspace, conn: sqlite3.Connection, everything: bool, only: set[str] | None = None) -> Pending:
    """Stat every Markdown file (or, with `only`, just those workspace keys) against the files table."""
    return scan(ws, _known(conn, None if only is None else list(only)), everything, only)


def settings_fingerprint(date_order: str | None = None) -> dict[str, object]:
    """Everything that shapes the derived rows; when it changes the index must be rebuilt.

    `date_order` is the workspace's `[time] date_order` (how facts' slashed dates read).
    """
    from .schema import FTS_TOKENIZER, ROWS_SCHEMA

    return sync_plan.settings_fingerprint(ROWS_SCHEMA, FTS_TOKENIZER, date_order)


def stale_settings(conn: sqlite3.Connection, date_order: str | None = None) -> str | None:
    """What changed since the index was built ("chunk_tokens 200 -> 180"), or None."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
    has_rows = row is None and conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None
    return fingerprint_change(row[0] if row else None, settings_fingerprint(date_order), has_rows)


def sync(ws: Workspace, conn: sqlite3.Connection, *, rebuild: bool = False,  # noqa: ANN001
         wait: float | None = 60.0, progress=None, rebuild_if_stale: bool = True,
         only: set[str] | None = None) -> SyncReport:
    """Bring the index up to date with the workspace; see the module docstring for the steps.

    `wait=0` returns at once with `busy=True` when another process is writing.
    `progress(done, total)` is called while parsing, for progress bars.
    `only` limits the scan to these workspace keys (a watcher that saw them change).
    When the settings fingerprint changed, the whole index is rebuilt; with
    `rebuild_if_stale=False` (a recall) it is left as it is and a notice says so.
    """
    started = time.perf_counter()
    report = SyncReport()
    stale = None if rebuild else stale_settings(conn, ws.date_order)
    if stale:
        if not rebuild_if_stale:
            report.notices.append(f"index settings changed ({stale}); run `memory index` to rebuild")
            return report
        rebuild = True
        report.notices.append(f"index settings changed ({stale}); rebuilt the index")
    if rebuild:
        only = None
    if not rebuild:
        pending = _scan(ws, conn, everything=False, only=only)
        if not pending.candidates and not pending.removed:
            report.unchanged = pending.total
            report.seconds = time.perf_counter() - started
            return report
    # What follows runs only when something changed: a recall of an unchanged workspace imports
    # none of it.
    from .supersession import update_superseded

    with writer_lock(ws.state_dir, wait=wait) as held:
        if not held:
            report.busy = True
            return report
        # A rebuild is one transaction: readers keep seeing the old index until the new one is
        # whole, instead of an empty or half-filled one (WAL lets them read meanwhile).
        with transaction(conn) if rebuild else contextlib.nullcontext():
            if rebuild:
                _clear(conn)
                pending = _scan(ws, conn, everything=True)
            else:
                pending = _recheck(conn, pending)  # another writer may have synced some meanwhile
            report.unchanged = pending.total - len(pending.candidates)
            _apply(ws, conn, pending, report, progress)
            if rebuild:
                rebuild_entities(conn)
                update_superseded(conn)
            elif report.entity_keys:
                rebuild_entities(conn, report.entity_keys)
                with transaction(conn):
                    update_superseded(conn, report.entity_keys)
        conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('last_sync', ?)",
            (datetime.now(UTC).isoformat(timespec="seconds"),),
        )
        if rebuild or conn.execute("SELECT 1 FROM meta WHERE key = 'fingerprint'").fetchone() is None:
            conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('fingerprint', ?)",
                         (json.dumps(settings_fingerprint(ws.date_order), sort_keys=True),))
        if report.dirty or rebuild:
            bump_generation(conn, None if rebuild else (report.new_chunk_ids, report.removed_chunk_ids))
    report.seconds = time.perf_counter() - started
    return report


def _meta_int(conn: sqlite3.Connection, key: str) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row and str(row[0]).isdigit() else 0


DELTA_LIMIT = 5_000  # chunk ids a sync records as its change (vector_sync: an edit's vectors without the HNSW file)


def bump_generation(conn: sqlite3.Connection, changes: tuple[list[int], list[int]] | None = None) -> None:
    """Say that entries changed: readers of derived state (vectors, term counts) compare this to what they saw.

    `changes`: the chunk ids this change added and removed, when it knows them all. They are kept
    (meta `chunk_delta`, for this generation only) when there are few, so that the vector store
    can follow a small edit without reading its HNSW file (vector_sync.open_store).
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


def generation(conn: sqlite3.Connection) -> int:
    """A counter bumped by every sync that changed chunks (0 for a new index)."""
    return _meta_int(conn, "generation")


def _recheck(conn: sqlite3.Connection, pending: Pending) -> Pending:
    """Drop the candidates that another process indexed between our scan and our lock."""
    return recheck(pending, _known(conn, changed_paths(pending)))


def _apply(ws: Workspace, conn: sqlite3.Connection, pending: Pending, report: SyncReport, progress) -> None:  # noqa: ANN001
    if pending.removed:
        with transaction(conn):
            report.removed_chunk_ids += delete_paths(conn, pending.removed, report.entity_keys)
        report.removed += len(pending.removed)
    total = len(pending.candidates)
    for start in range(0, total, _BATCH):
        batch = pending.candidates[start : start + _BATCH]
        with transaction(conn):
            for mf, mtime_ns, size in batch:
                _sync_file(ws, conn, mf, mtime_ns, size, pending.known.get(mf.key), report)
        if progress:
            progress(min(start + _BATCH, total), total)


def _sync_file(ws: Workspace, conn: sqlite3.Connection, mf: MarkdownFile, mtime_ns: int, size: int,
               old: tuple[int, int, str] | None, report: SyncReport) -> None:
    from ...files import read_bounded  # lazy: see sync

    try:
        digest, head, total = read_bounded(mf.path)  # read only: indexing never writes Markdown
    except OSError:
        return
    if old is not None and old[2] == digest and _has_rows(conn, mf.key):
        conn.execute("UPDATE files SET mtime_ns = ?, size = ? WHERE path = ?", (mtime_ns, size, mf.key))
        report.touched += 1
        return
    if old is not None:
        report.removed_chunk_ids += delete_paths(conn, [mf.key], report.entity_keys)
        report.changed += 1
    else:
        report.added += 1
    rows = file_rows(mf.key, mf.role, mf.day, head, total, ws.date_order)
    file_row = rows.file | {"hash": digest, "mtime_ns": mtime_ns, "size": size,
                            "indexed_at": datetime.now(UTC).isoformat(timespec="seconds")}
    _insert(conn, "files", [file_row])
    report.entity_keys.update(page_key(mf.key))
    if rows.chunks:
        report.new_chunk_ids += insert_chunks(conn, rows.chunks)
        report.entity_keys.update(slug.lower() for _, _, mentions in rows.chunks for slug in mentions)
    if rows.warnings:
        conn.executemany("INSERT INTO warnings(path, line, message) VALUES (?, ?, ?)",
                         [(mf.key, line, msg) for line, msg in rows.warnings])


def insert_chunks(conn: sqlite3.Connection, chunks: list) -> list[int]:
    """Insert a file's (chunk, fact, mentions) rows and their FTS rows, a statement per table; returns the ids.

    The ids are consecutive, in the order given (index.base: neighbours are id - 1 and id + 1).
    """
    # Ids are never reused (a counter in meta, not MAX(id) + 1): the vector index keys its
    # vectors by chunk id, and a reused id would silently keep the old text's vector.
    first = max(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM chunks").fetchone()[0], _meta_int(conn, "next_chunk_id"))
    ids = list(range(first, first + len(chunks)))
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('next_chunk_id', ?)", (str(first + len(chunks)),))
    conn.executemany(
        "INSERT INTO chunks(id, path, start_line, end_line, entry_start, kind, heading, text, role, day, t_start,"
        " t_end, at, invalid_at, text_hash, ctx_hash) VALUES (:id, :path, :start_line, :end_line, :entry_start,"
        " :kind, :heading, :text, :role, :day, :t_start, :t_end, :at, :invalid_at, :text_hash, :ctx_hash)",
        [chunk | {"id": cid} for cid, (chunk, _, _) in zip(ids, chunks, strict=True)],
    )
    for table in FTS_TABLES:
        rows = [(cid, c["search_text"], c["path_text"], c["context_text"])
                for cid, (c, _, _) in zip(ids, chunks, strict=True) if fts_table(c["role"]) == table]
        conn.executemany(f"INSERT INTO {table}(rowid, search_text, path_text, context_text) VALUES (?, ?, ?, ?)", rows)
        journal.inserted(conn, table, [row[1:] for row in rows])
    conn.executemany("INSERT INTO chunks_trigram(rowid, text) VALUES (?, ?)",
                     [(cid, c["text"]) for cid, (c, _, _) in zip(ids, chunks, strict=True) if c["cjk"]])
    facts = [fact | {"id": cid} for cid, (_, fact, _) in zip(ids, chunks, strict=True) if fact is not None]
    if facts:
        cols = list(facts[0])
        conn.executemany(f"INSERT OR REPLACE INTO facts({', '.join(cols)}) VALUES ({', '.join(':' + c for c in cols)})",
                         facts)
    conn.executemany(
        "INSERT OR IGNORE INTO mentions(chunk_id, entity_key, slug) VALUES (?, ?, ?)",
        [(cid, slug.lower(), slug) for cid, (_, _, mentions) in zip(ids, chunks, strict=True) for slug in mentions],
    )
    return ids


def _insert(conn: sqlite3.Connection, table: str, rows: Iterable[dict]) -> None:
    for row in rows:
        cols = ", ".join(row)
        marks = ", ".join(f":{c}" for c in row)
        conn.execute(f"INSERT OR REPLACE INTO {table}({cols}) VALUES ({marks})", row)


def _has_rows(conn: sqlite3.Connection, path: str) -> bool:
    return conn.execute("SELECT 1 FROM files WHERE path = ?", (path,)).fetchone() is not None


def delete_paths(conn: sqlite3.Connection, paths: list[str], keys: set[str] | None = None) -> list[int]:
    removed: list[int] = []
    for path in paths:
        ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE path = ?", (path,))]
        if keys is not None:
            keys.update(r[0] for r in conn.execute(
                "SELECT DISTINCT m.entity_key FROM mentions m JOIN chunks c ON c.id = m.chunk_id WHERE c.path = ?",
                (path,)))
            keys.update(page_key(path))
        removed += ids
        for part in in_batches(ids):
            marks = ",".join("?" * len(part))
            for table in FTS_TABLES:
                journal.deleting(conn, table, part)
            for table, col in (("chunks_fts", "rowid"), ("sessions_fts", "rowid"), ("chunks_trigram", "rowid"),
                               ("facts", "id"), ("mentions", "chunk_id")):
                conn.execute(f"DELETE FROM {table} WHERE {col} IN ({marks})", part)
        conn.execute("DELETE FROM chunks WHERE path = ?", (path,))
        conn.execute("DELETE FROM warnings WHERE path = ?", (path,))
        conn.execute("DELETE FROM files WHERE path = ?", (path,))
    return removed


def _clear(conn: sqlite3.Connection) -> None:
    with transaction(conn):
        # Session rows go too (their offsets with them): the next session sync reads every transcript whole.
        for table in ("chunks_fts", "sessions_fts", "chunks_trigram", "facts", "mentions", "chunks", "warnings",
                      "files", "entities", "session_files"):
            conn.execute(f"DELETE FROM {table}")
        journal.reset(conn)


def rebuild_entities(conn: sqlite3.Connection, keys: set[str] | None = None) -> None:
    """Recompute `entities` from @mentions and bank/entities/*.md pages (names, aliases).

    With `keys`, only those entities are recomputed (a one-file sync stays cheap on a
    10,000-file workspace); without, the whole table.
    """
    if keys is not None and not keys:
        return
    scope, params = key_scope(keys, "entity_key IN ({})")
    spellings: dict[str, dict[str, int]] = {}
    for key, slug, count in conn.execute(
        f"SELECT entity_key, slug, COUNT(*) FROM mentions WHERE 1{scope} GROUP BY entity_key, slug", params
    ):
        spellings.setdefault(key, {})[slug] = count
    fact_counts = dict(conn.execute(
        "SELECT m.entity_key, COUNT(*) FROM mentions m JOIN facts f ON f.id = m.chunk_id"
        f" WHERE 1{scope.replace('entity_key', 'm.entity_key')} GROUP BY m.entity_key", params
    ))
    pages: dict[str, tuple[str, str, dict]] = {}
    for path, meta, title in conn.execute(
        "SELECT path, meta, title FROM files WHERE path LIKE 'bank/entities/%'"
    ):
        key = next(iter(page_key(path)), None)
        if key and (keys is None or key in keys):
            pages[key] = (path, path.rsplit("/", 1)[-1][:-3], json.loads(meta or "{}") | {"_title": title})
    rows = entity_rows(spellings, fact_counts, pages)
    with transaction(conn):
        if keys is None:
            conn.execute("DELETE FROM entities")
        else:
            conn.execute(f"DELETE FROM entities WHERE key IN ({','.join('?' * len(keys))})", params)
        conn.executemany(
            "INSERT INTO entities(key, slug, name, page_path, aliases, fact_count) VALUES (?, ?, ?, ?, ?, ?)", rows
        )
