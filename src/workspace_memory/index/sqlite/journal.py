"""The FTS journal: what the last small syncs added to and removed from the FTS tables.

A long-lived process (MCP server, watch) caches term counts: counting a common word walks its
whole posting list, 2-4 ms at 100,000 entries, and BM25 needs two counts per term. Every sync
changes the index's generation, and without this journal every cached count would be thrown
away, so that an edit per second costs the next searches a recount of all their words. With it,
the cache brings each count up to date exactly: it counts the term in the few rows that changed
(index.sqlite.lexical.ReadCache.fresh).

A row holds one FTS row's three columns, +1 for an insert or -1 for a delete, the table, and the
generation the sync will publish. A sync that changes more than MAX_ROWS rows in all, a rebuild
and a purge write a reset row instead (and drop the rows before it): a cache that sees a reset
newer than its own generation counts again. A purge must not leave copies of what it removed,
so it resets too. The rows are a copy of derived text: like the rest of the index, they can be
thrown away at any time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

MAX_ROWS = 1000  # journal rows kept since the last reset; a bigger change resets
RESET = "*"
_COLUMNS = "search_text, path_text, context_text"


def create(conn: sqlite3.Connection) -> None:
    """The table (migration m008)."""
    conn.execute("CREATE TABLE IF NOT EXISTS fts_journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, generation INTEGER,"
                 f" tbl TEXT, sign INTEGER, {_COLUMNS})")


def _next_generation(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return (int(row[0]) if row and str(row[0]).isdigit() else 0) + 1


def _room(conn: sqlite3.Connection, rows: int) -> bool:
    """True when `rows` more fit; otherwise the journal is reset (once per sync) and False."""
    generation = _next_generation(conn)
    last = conn.execute("SELECT seq, generation FROM fts_journal WHERE tbl = ? ORDER BY seq DESC LIMIT 1",
                        (RESET,)).fetchone()
    if last is not None and last[1] == generation and \
            conn.execute("SELECT MAX(seq) FROM fts_journal").fetchone()[0] == last[0]:
        return False  # this sync already reset: what it changes next is covered
    since = conn.execute("SELECT COUNT(*) FROM fts_journal WHERE seq > ?", (last[0] if last else 0,)).fetchone()[0]
    if since + rows <= MAX_ROWS:
        return True
    reset(conn)
    return False


def reset(conn: sqlite3.Connection) -> None:
    """Forget every row: caches newer than nothing here count again."""
    conn.execute("DELETE FROM fts_journal")
    conn.execute("INSERT INTO fts_journal(generation, tbl, sign) VALUES (?, ?, 0)", (_next_generation(conn), RESET))


def inserted(conn: sqlite3.Connection, table: str, rowids: Sequence[int]) -> None:
    """Note the FTS rows `rowids`, all of them just inserted into `table` by this sync."""
    _note(conn, table, rowids, 1, len(rowids))


def deleting(conn: sqlite3.Connection, table: str, rowids: Sequence[int]) -> None:
    """Note FTS rows of `table` that this sync is about to delete (call before the delete)."""
    if rowids:
        marks = ",".join("?" * len(rowids))
        held = conn.execute(f"SELECT COUNT(*) FROM {table}_docsize WHERE id IN ({marks})", list(rowids)).fetchone()[0]
        _note(conn, table, rowids, -1, held)


def _note(conn: sqlite3.Connection, table: str, rowids: Sequence[int], sign: int, count: int) -> None:
    """Copy the columns of `count` indexed rows among `rowids` (read through the table: fts_content's
    view) with `sign`, when they fit."""
    if count and _room(conn, count):
        conn.execute(f"INSERT INTO fts_journal(generation, tbl, sign, {_COLUMNS}) SELECT ?, ?, ?, {_COLUMNS}"
                     f" FROM {table} WHERE rowid IN ({','.join('?' * len(rowids))})",
                     [_next_generation(conn), table, sign, *rowids])


def last_seq(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT COALESCE(MAX(seq), 0) FROM fts_journal").fetchone()[0]


def since(conn: sqlite3.Connection, seq: int, generation: int) -> list[tuple[int, str, int, str, str, str]] | None:
    """The rows after `seq` (seq, table, sign, columns...), or None when they cannot bring a cache
    made at (`seq`, `generation`) up to date: a reset since, or rows already dropped."""
    if conn.execute("SELECT 1 FROM fts_journal WHERE tbl = ? AND generation > ? LIMIT 1",
                    (RESET, generation)).fetchone():
        return None
    rows = conn.execute(f"SELECT seq, tbl, sign, {_COLUMNS} FROM fts_journal WHERE seq > ? ORDER BY seq",
                        (seq,)).fetchall()
    if rows and rows[0][0] != seq + 1:
        return None
    return rows


def by_table(rows: Iterable[tuple]) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {}
    for row in rows:
        out.setdefault(row[1], []).append(row)
    return out
