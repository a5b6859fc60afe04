"""The FTS5 tables' words, read from the rows that hold them (external content, issue 27).

`chunks_fts` and `sessions_fts` index three columns of an entry: its search text (heading and
text), its path's words and the previous entry's text (context). They used to store a copy of
all three, 287 B an entry, beside the `chunks` row that already holds the text: 40 % of an
entry's bytes. Now each is an external-content table (`content=` a view, `content_rowid='id'`):
FTS5 keeps only its index, and reads the columns from the view when a query asks for them.

The view derives the columns from `chunks` with the rules index.rows and index.sessions apply
when they build a row (a test compares the two on every entry of a varied workspace):

- search text: "heading\\ntext", or the text when the heading is empty;
- path words: the path without ".md", with `/ \\ . _ -` made spaces, which unicode61 tokenizes
  exactly as rows.path_words (those characters are separators; a test checks the tokens);
- context: the text of the entry just before (id - 1) in the same file; in a Markdown file only
  between two notes under the same heading (not for Retain facts). Ids of one file are
  consecutive (writer.insert_chunks), and a session's appended messages are linked to the last
  one only when the ids stay consecutive (index.sessions.apply_delta).

Why external content and not contentless (`content=''`): both need a delete to pass the values a
row was indexed with (SQLite 3.40 has no `contentless_delete`), but an external-content table
still answers `SELECT search_text ...` (bm25.py and the journal read rows back), `rebuild`
and `integrity-check` with rank 1, which compares the index with the view.

The rule that follows: **a row's FTS entry must be deleted while the view still gives the values
it was indexed with**. A row's values depend on its own chunk and on the chunk before it, so:
- a file's rows are unindexed before its chunks are deleted (writer.delete_paths), all of them
  (a file is always replaced whole, so no entry outlives the one that is its context);
- new ids are larger than every old one, so an insert never changes an indexed row's context;
- a purge rewrites a session entry's text: that entry and the next one of its file are
  unindexed before the text changes, and indexed again after (writer.SqliteWriter).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ..base import in_batches

FTS_TABLES = ("chunks_fts", "sessions_fts")  # the words of Markdown entries, and of session messages
VIEWS = {"chunks_fts": "chunks_fts_rows", "sessions_fts": "sessions_fts_rows"}
COLUMNS = "search_text, path_text, context_text"

# rows.path_words in SQL: the same tokens (the characters it splits on are unicode61 separators).
_STEM = "CASE WHEN lower(substr(c.path, -3)) = '.md' THEN substr(c.path, 1, length(c.path) - 3) ELSE c.path END"
_PATH_WORDS = _STEM
for _separator in ("/", "\\", ".", "_", "-"):
    _PATH_WORDS = f"replace({_PATH_WORDS}, '{_separator}', ' ')"
_SEARCH_TEXT = "CASE WHEN c.heading <> '' THEN c.heading || char(10) || c.text ELSE c.text END"
# The entry before, when it is this one's context (rows.ChunkRows.parts, sessions.link_previous).
_CONTEXT = {
    "chunks_fts": "p.id = c.id - 1 AND p.path = c.path AND c.kind = 'note' AND p.kind = 'note'"
                  " AND p.heading IS c.heading",
    "sessions_fts": "p.id = c.id - 1 AND p.path = c.path",
}
_ROLE = {"chunks_fts": "c.role IS NOT 'session'", "sessions_fts": "c.role = 'session'"}


def create(conn: sqlite3.Connection, tokenizer: str) -> None:
    """(Re)create both FTS tables over their views and index every row (migration m009).

    An index made before holds its own copy of the columns: it is dropped, and `rebuild` reads
    the rows again from the view, so a user's index is not parsed again from Markdown.
    """
    for table, view in VIEWS.items():
        conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute(f"DROP VIEW IF EXISTS {view}")
        conn.execute(
            f"CREATE VIEW {view} AS SELECT c.id AS id, {_SEARCH_TEXT} AS search_text, {_PATH_WORDS} AS path_text,"
            f" COALESCE(p.text, '') AS context_text FROM chunks c LEFT JOIN chunks p ON {_CONTEXT[table]}"
            f" WHERE {_ROLE[table]}")
        conn.execute(f"CREATE VIRTUAL TABLE {table} USING fts5({COLUMNS}, content='{view}', content_rowid='id',"
                     f" tokenize='{tokenizer}')")
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")


def index(conn: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Add the FTS rows of chunks `ids`, none of which is indexed yet, from the views."""
    if ids and max(ids) - min(ids) + 1 == len(set(ids)) == len(ids):  # a file's new rows: one range, one statement
        for table, view in VIEWS.items():
            conn.execute(f"INSERT INTO {table}(rowid, {COLUMNS}) SELECT id, {COLUMNS} FROM {view}"
                         " WHERE id BETWEEN ? AND ?", (min(ids), max(ids)))
        return
    for part in in_batches(ids):
        marks = ",".join("?" * len(part))
        for table, view in VIEWS.items():
            conn.execute(f"INSERT INTO {table}(rowid, {COLUMNS}) SELECT id, {COLUMNS} FROM {view}"
                         f" WHERE id IN ({marks})", part)


def unindex(conn: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Remove the FTS rows of chunks `ids` that are indexed, with the values the views give now
    (see the module docstring: the caller has not yet changed what they were indexed from)."""
    for part in in_batches(ids):
        for table, view in VIEWS.items():
            held = indexed(conn, table, part)
            if held:
                conn.execute(f"INSERT INTO {table}({table}, rowid, {COLUMNS}) SELECT 'delete', id, {COLUMNS}"
                             f" FROM {view} WHERE id IN ({','.join('?' * len(held))})", held)


def indexed(conn: sqlite3.Connection, table: str, ids: Sequence[int]) -> list[int]:
    """Which of `ids` the FTS table holds (its docsize rows: the index's own record, not the view's)."""
    return [r[0] for r in conn.execute(f"SELECT id FROM {table}_docsize WHERE id IN ({','.join('?' * len(ids))})",
                                       list(ids))]


def clear(conn: sqlite3.Connection) -> None:
    """Empty both FTS tables (without reading the views)."""
    for table in FTS_TABLES:
        conn.execute(f"INSERT INTO {table}({table}) VALUES ('delete-all')")
