"""Keep one workspace's rows in Postgres in step with its Markdown (the steps of index.sqlite.sync).

1. Stat every file against the workspace's `files` rows; nothing changed: stop (all a recall pays).
2. Take the workspace's advisory lock (two indexers of one workspace take turns; indexers of
   different workspaces run side by side), and look again.
3. Hash each candidate; same hash: only the stat is updated.
4. Parse changed files and replace their rows, 200 files a transaction (a rebuild: one
   transaction, so readers see the old rows until the new ones are whole). Rows go in with COPY.
5. Keep the per-workspace word counts (`lexemes`), entities and superseded facts up to date,
   then the workspace's counters and generation.

Indexing never writes Markdown: files are only opened for reading.
"""

from __future__ import annotations

import contextlib
import json
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ...files import decode_markdown, looks_binary, read_bounded
from ...workspace.layout import MarkdownFile, Workspace
from ..base import SyncReport
from ..rows import DocumentRows, file_rows
from ..sync_plan import (
    Known,
    Pending,
    changed_paths,
    entity_rows,
    fingerprint_change,
    page_key,
    recheck,
    scan,
    settings_fingerprint,
    superseded_changes,
)
from .schema import ROWS_SCHEMA
from .words import TOKENIZER, WEIGHT_CONTEXT, WEIGHT_PATH, WEIGHT_TEXT, tsvector_literal

if TYPE_CHECKING:
    from .connection import Database

_BATCH = 200  # files a transaction
ID_SHIFT = 32  # chunk id = workspace_id << ID_SHIFT | the workspace's own counter
CHUNK_COLUMNS = ("workspace_id", "id", "path", "start_line", "end_line", "entry_start", "kind", "heading", "text",
                 "role", "day", "t_start", "t_end", "text_hash", "ctx_hash", "n_tokens", "words", "cjk", "invalid_at",
                 "at")
_FACT_COLUMNS = ("workspace_id", "id", "path", "line", "kind", "content", "confidence", "day", "occurred_start",
                 "occurred_end", "end_line", "bullet", "invalid_at", "invalid_reason")


def fingerprint(date_order: str | None = None) -> dict[str, object]:
    return settings_fingerprint(ROWS_SCHEMA, TOKENIZER, date_order)


def known(db: Database, ws_id: int, paths: list[str] | None = None) -> Known:
    sql = "SELECT path, mtime_ns, size, hash FROM files WHERE workspace_id = %s"
    rows = db.conn.execute(sql, (ws_id,)) if paths is None else db.conn.execute(
        sql + " AND path = ANY(%s)", (ws_id, paths))
    return {p: (m, s, h) for p, m, s, h in rows}


def stale_and_known(db: Database, ws_id: int, paths: list[str] | None,
                    date_order: str | None = None) -> tuple[str | None, Known]:
    """What changed in the settings since the rows were built (or None), and the stored file stats.

    A recall pays this before every answer, so the stats of the whole workspace (thousands of
    rows) are kept in `db.file_stats` with the (generation, last sync) they were read at, and
    read again only when those changed: every sync that takes the indexer lock ends by setting
    both (_finish). A sync that died halfway leaves them as they were; the stats kept then only
    make files look changed that another process already indexed, and the sync that follows
    looks again under the lock (recheck) before it writes anything.
    """
    conn = db.conn
    head = conn.execute("SELECT fingerprint, generation, last_sync, EXISTS (SELECT 1 FROM files x"
                        " WHERE x.workspace_id = w.workspace_id) FROM workspaces w WHERE w.workspace_id = %s",
                        (ws_id,)).fetchone()
    stored, version, has_rows = (head[0], head[1:3], head[3]) if head else (None, None, False)
    stale = fingerprint_change(stored, fingerprint(date_order), has_rows and stored is None)
    if paths is not None:
        return stale, known(db, ws_id, paths) if paths else {}
    kept = db.file_stats.get(ws_id)
    if kept is None or kept[0] != version:
        kept = db.file_stats[ws_id] = (version, known(db, ws_id))
    return stale, kept[1]


def sync(db: Database, ws_id: int, ws: Workspace, *, rebuild: bool = False, wait: float | None = 60.0,
         progress=None, rebuild_if_stale: bool = True, only: set[str] | None = None) -> SyncReport:  # noqa: ANN001
    """Bring workspace `ws_id` up to date with `ws`; the arguments are those of Store.sync."""
    started = time.perf_counter()
    report = SyncReport()
    stale, stored = (None, {}) if rebuild else stale_and_known(db, ws_id, None if only is None else sorted(only),
                                                                       ws.date_order)
    if stale:
        if not rebuild_if_stale:
            report.notices.append(f"index settings changed ({stale}); run `memory index` to rebuild")
            return report
        rebuild = True
        report.notices.append(f"index settings changed ({stale}); rebuilt the index")
    if rebuild:
        only = None
    else:
        pending = scan(ws, stored, False, only)
        if not pending.candidates and not pending.removed:
            report.unchanged = pending.total
            report.seconds = time.perf_counter() - started
            return report
    with db.index_lock(ws_id, wait) as held:
        if not held:
            report.busy = True
            return report
        with db.transaction() if rebuild else contextlib.nullcontext():
            if rebuild:
                _clear(db, ws_id)
                pending = scan(ws, {}, True)
            else:
                pending = recheck(pending, known(db, ws_id, changed_paths(pending)))
            report.unchanged = pending.total - len(pending.candidates)
            _apply(db, ws_id, pending, report, progress)
            keys = None if rebuild else report.entity_keys
            with db.transaction():
                rebuild_entities(db, ws_id, keys)
                update_superseded(db, ws_id, keys)
                _finish(db, ws_id, report, rebuild, ws.date_order)
    report.seconds = time.perf_counter() - started
    return report


def _finish(db: Database, ws_id: int, report: SyncReport, rebuild: bool, date_order: str | None) -> None:
    """Counters for BM25 and IDF (and of struck entries), the last sync, the fingerprint, and the
    generation when rows changed."""
    sets = ["last_sync = now()"]
    if report.dirty or rebuild:
        recount(db, ws_id)
    sets.append("fingerprint = COALESCE(fingerprint, %(fp)s)" if not rebuild else "fingerprint = %(fp)s")
    db.conn.execute(f"UPDATE workspaces SET {', '.join(sets)} WHERE workspace_id = %(ws)s",
                    {"ws": ws_id, "fp": json.dumps(fingerprint(date_order), sort_keys=True)})


def recount(db: Database, ws_id: int) -> None:
    """A new generation, and the counters BM25 and IDF use (per source) and those of struck entries,
    after rows changed (a Markdown sync, or session transcripts: index.postgres.sessions)."""
    db.conn.execute(
        "UPDATE workspaces w SET generation = generation + 1, chunk_count = n.chunks, token_count = n.tokens,"
        " session_count = n.sessions, session_tokens = n.session_tokens, invalid_count = n.invalid"
        " FROM (SELECT count(*) FILTER (WHERE role <> 'session') AS chunks,"
        " COALESCE(sum(n_tokens) FILTER (WHERE role <> 'session'), 0) AS tokens,"
        " count(*) FILTER (WHERE role = 'session') AS sessions,"
        " COALESCE(sum(n_tokens) FILTER (WHERE role = 'session'), 0) AS session_tokens,"
        " count(*) FILTER (WHERE invalid_at IS NOT NULL) AS invalid FROM chunks WHERE workspace_id = %(ws)s) n"
        " WHERE w.workspace_id = %(ws)s", {"ws": ws_id})
    for table in WORD_TABLES:
        db.conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s AND df_any <= 0", (ws_id,))


def _apply(db: Database, ws_id: int, pending: Pending, report: SyncReport, progress) -> None:  # noqa: ANN001
    if pending.removed:
        with db.transaction():
            report.removed_chunk_ids += delete_paths(db, ws_id, pending.removed, report.entity_keys)
        report.removed += len(pending.removed)
    total = len(pending.candidates)
    for start in range(0, total, _BATCH):
        batch = pending.candidates[start : start + _BATCH]
        with db.transaction():
            documents = []
            for mf, mtime_ns, size in batch:
                document = _read(db, ws_id, mf, mtime_ns, size, pending.known.get(mf.key), report)
                if document is not None:
                    documents.append(document)
            _insert(db, ws_id, documents, report)
        if progress:
            progress(min(start + _BATCH, total), total)


def _read(db: Database, ws_id: int, mf: MarkdownFile, mtime_ns: int, size: int,
          old: tuple[int, int, str] | None, report: SyncReport) -> tuple[DocumentRows, str | None] | None:
    """The new rows of one file (its old rows deleted), or None when only its stat changed."""
    try:
        digest, head, total = read_bounded(mf.path)  # read only: indexing never writes Markdown
    except OSError:
        return None
    if old is not None and old[2] == digest:
        db.conn.execute("UPDATE files SET mtime_ns = %s, size = %s WHERE workspace_id = %s AND path = %s",
                        (mtime_ns, size, ws_id, mf.key))
        report.touched += 1
        return None
    if old is not None:
        report.removed_chunk_ids += delete_paths(db, ws_id, [mf.key], report.entity_keys)
        report.changed += 1
    else:
        report.added += 1
    rows = file_rows(mf.key, mf.role, mf.day, head, total)
    # The text is kept for `get` and recall on machines without a checkout (binary files: none).
    body = None if looks_binary(head) else decode_markdown(head).text
    rows.file |= {"hash": digest, "mtime_ns": mtime_ns, "size": size}
    report.entity_keys.update(page_key(mf.key))
    return rows, body


def _insert(db: Database, ws_id: int, documents: list[tuple[DocumentRows, str | None]], report: SyncReport) -> None:
    """Insert the files, chunks, facts, mentions and warnings of a batch, and count their words."""
    conn = db.conn
    now = datetime.now(UTC)
    n_chunks = sum(len(rows.chunks) for rows, _ in documents)
    base = next_ids(conn, ws_id, n_chunks) if n_chunks else 0
    chunks, facts, mentions, warnings, files = [], [], [], [], []
    for rows, body in documents:
        f = rows.file
        files.append((ws_id, f["path"], f["hash"], f["mtime_ns"], f["size"], f["role"], f["day"], f["title"],
                      f["meta"], now, body))
        warnings += [(ws_id, f["path"], i, line, msg) for i, (line, msg) in enumerate(rows.warnings)]
        for chunk, fact, slugs in rows.chunks:
            cid = base + len(chunks)
            chunks.append(chunk_row(ws_id, cid, chunk))
            if fact is not None:
                facts.append((ws_id, cid, fact["path"], fact["line"], fact["kind"], fact["content"],
                              fact["confidence"], fact["day"], fact["occurred_start"], fact["occurred_end"],
                              fact["end_line"], fact["bullet"], fact["invalid_at"], fact["invalid_reason"]))
            seen: set[str] = set()
            for order, slug in enumerate(slugs):
                if slug.lower() not in seen:
                    seen.add(slug.lower())
                    mentions.append((ws_id, cid, slug.lower(), slug, order))
                    report.entity_keys.add(slug.lower())
    copy_rows(conn, "files", ("workspace_id", "path", "hash", "mtime_ns", "size", "role", "day", "title", "meta",
                              "indexed_at", "body"), files)
    copy_rows(conn, "chunks", CHUNK_COLUMNS, chunks)
    copy_rows(conn, "facts", _FACT_COLUMNS, facts)
    copy_rows(conn, "mentions", ("workspace_id", "chunk_id", "entity_key", "slug", "ord"), mentions)
    copy_rows(conn, "warnings", ("workspace_id", "path", "ord", "line", "message"), warnings)
    if chunks:
        report.new_chunk_ids += [c[1] for c in chunks]
        count_words(conn, ws_id, base, base + len(chunks), +1)


def next_ids(conn: Any, ws_id: int, n: int) -> int:
    """The first of `n` new chunk ids of the workspace. Ids are never reused: vectors and neighbours
    key on them (see index.base)."""
    first = conn.execute("UPDATE workspaces SET next_chunk_id = next_chunk_id + %s WHERE workspace_id = %s"
                         " RETURNING next_chunk_id - %s", (n, ws_id, n)).fetchone()[0]
    return (ws_id << ID_SHIFT) + first


def chunk_words(chunk: dict[str, Any]) -> tuple[str, int]:
    """A chunk's words as a tsvector literal (words.py: text, path, previous entry), and their number."""
    return tsvector_literal(((WEIGHT_TEXT, chunk["search_text"]), (WEIGHT_PATH, chunk["path_text"]),
                             (WEIGHT_CONTEXT, chunk["context_text"])))


def chunk_row(ws_id: int, cid: int, chunk: dict[str, Any]) -> tuple:
    """A chunk's row for COPY (CHUNK_COLUMNS), with its words as a tsvector (words.py)."""
    words, n_tokens = chunk_words(chunk)
    return (ws_id, cid, chunk["path"], chunk["start_line"], chunk["end_line"], chunk["entry_start"], chunk["kind"],
            chunk["heading"], chunk["text"], chunk["role"], chunk["day"], chunk["t_start"], chunk["t_end"],
            chunk["text_hash"], chunk["ctx_hash"], n_tokens, words, chunk["cjk"], chunk["invalid_at"], chunk["at"])


def copy_rows(conn: Any, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    if not rows:
        return
    with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


# Where the words of each source are counted: Markdown entries, session messages (kept apart, as SQLite
# keeps them in two FTS tables, so that a recall of one source ranks with that source's counts).
WORD_TABLES = ("lexemes", "session_lexemes")

_COUNT_WORDS = """
    INSERT INTO {table} AS l (workspace_id, lexeme, df_main, df_any)
    SELECT %(ws)s, u.lexeme, %(sign)s * count(*) FILTER (WHERE u.weights && ARRAY['A', 'B']), %(sign)s * count(*)
    FROM chunks c, unnest(c.words) u WHERE c.workspace_id = %(ws)s AND {where} GROUP BY u.lexeme
    ON CONFLICT (workspace_id, lexeme) DO UPDATE
    SET df_main = l.df_main + EXCLUDED.df_main, df_any = l.df_any + EXCLUDED.df_any"""


def count_words(conn: Any, ws_id: int, first: int, end: int, sign: int, table: str = WORD_TABLES[0]) -> None:
    """Add (or, with sign -1, take away) the words of chunks [first, end) to the workspace's counts in `table`."""
    conn.execute(_COUNT_WORDS.format(table=table, where="c.id >= %(first)s AND c.id < %(end)s"),
                 {"ws": ws_id, "sign": sign, "first": first, "end": end})


def delete_paths(db: Database, ws_id: int, paths: list[str], keys: set[str] | None = None,
                 words: str = WORD_TABLES[0]) -> list[int]:
    """Delete every row of these files (chunks, their words' counts in `words`, facts, mentions, vectors);
    return chunk ids."""
    conn = db.conn
    ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE workspace_id = %s AND path = ANY(%s)",
                                      (ws_id, paths))]
    if keys is not None:
        keys.update(r[0] for r in conn.execute(
            "SELECT DISTINCT m.entity_key FROM mentions m JOIN chunks c ON c.workspace_id = m.workspace_id"
            " AND c.id = m.chunk_id WHERE c.workspace_id = %s AND c.path = ANY(%s)", (ws_id, paths)))
        for path in paths:
            keys.update(page_key(path))
    if ids:
        conn.execute(_COUNT_WORDS.format(table=words, where="c.id = ANY(%(ids)s)"),
                     {"ws": ws_id, "sign": -1, "ids": ids})
        for table, column in (("chunk_vectors", "chunk_id"), ("facts", "id"), ("mentions", "chunk_id"),
                              ("chunks", "id")):
            conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s AND {column} = ANY(%s)", (ws_id, ids))
    for table in ("warnings", "files"):
        conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s AND path = ANY(%s)", (ws_id, paths))
    return ids


def _clear(db: Database, ws_id: int) -> None:
    # Session rows go too (their read state with them): the next session sync reads every transcript whole.
    for table in ("chunk_vectors", "vector_state", *WORD_TABLES, "facts", "mentions", "chunks", "warnings", "files",
                  "entities", "session_files"):
        db.conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s", (ws_id,))


def rebuild_entities(db: Database, ws_id: int, keys: set[str] | None = None) -> None:
    """Recompute the workspace's entities from mentions and entity pages (only `keys`, when given)."""
    if keys is not None and not keys:
        return
    conn = db.conn
    scope = "" if keys is None else " AND entity_key = ANY(%(keys)s)"
    params = {"ws": ws_id, "keys": sorted(keys or ())}
    spellings: dict[str, dict[str, int]] = {}
    for key, slug, count in conn.execute(
        f"SELECT entity_key, slug, count(*) FROM mentions WHERE workspace_id = %(ws)s{scope}"
        " GROUP BY entity_key, slug", params):
        spellings.setdefault(key, {})[slug] = count
    fact_counts = dict(conn.execute(
        "SELECT m.entity_key, count(*) FROM mentions m JOIN facts f ON f.workspace_id = m.workspace_id"
        f" AND f.id = m.chunk_id WHERE m.workspace_id = %(ws)s{scope.replace('entity_key', 'm.entity_key')}"
        " GROUP BY m.entity_key", params).fetchall())
    pages: dict[str, tuple[str, str, dict[str, Any]]] = {}
    for path, meta, title in conn.execute(
        "SELECT path, meta, title FROM files WHERE workspace_id = %s AND path LIKE 'bank/entities/%%'", (ws_id,)):
        key = next(iter(page_key(path)), None)
        if key and (keys is None or key in keys):
            pages[key] = (path, path.rsplit("/", 1)[-1][:-3], dict(meta or {}) | {"_title": title})
    rows = entity_rows(spellings, fact_counts, pages)
    conn.execute(f"DELETE FROM entities WHERE workspace_id = %(ws)s{scope.replace('entity_key', 'key')}", params)
    copy_rows(conn, "entities", ("workspace_id", "key", "slug", "name", "page_path", "aliases", "fact_count"),
          [(ws_id, *row) for row in rows])


def update_superseded(db: Database, ws_id: int, keys: set[str] | None = None) -> None:
    """Recompute facts.superseded_by for the world facts of these entities (None: all)."""
    if keys is not None and not keys:
        return
    scope = "" if keys is None else (" AND f.id IN (SELECT chunk_id FROM mentions WHERE workspace_id = %(ws)s"
                                     " AND entity_key = ANY(%(keys)s))")
    rows = db.conn.execute(
        "SELECT f.id, f.path, f.line, f.content, f.confidence, f.day, m.entity_key FROM facts f"
        " JOIN mentions m ON m.workspace_id = f.workspace_id AND m.chunk_id = f.id"
        f" WHERE f.workspace_id = %(ws)s AND f.kind = 'world'{scope} ORDER BY f.id, m.ord",
        {"ws": ws_id, "keys": sorted(keys or ())}).fetchall()
    judged, replaced = superseded_changes([(r[0], r[1], r[2], r[3], r[4], r[5].isoformat() if r[5] else None, r[6])
                                           for r in rows], keys)
    db.conn.execute("UPDATE facts SET superseded_by = NULL WHERE workspace_id = %s AND id = ANY(%s)", (ws_id, judged))
    with db.conn.cursor() as cur:
        cur.executemany("UPDATE facts SET superseded_by = %s WHERE workspace_id = %s AND id = %s",
                        [(new, ws_id, old) for old, new in replaced.items()])
