"""The SQLite schema, as numbered migrations (after llm's embeddings_migrations).

Everything here is derived from Markdown and can be thrown away: `memory index --rebuild`
drops the rows and parses every file again. Migrations run under the writer lock.

Tables
  meta        key/value: schema version, settings fingerprint, last sync, the workspace's languages
  files       one row a Markdown file: hash, mtime_ns, size, role, day, title, frontmatter
  chunks      one row an entry (or a piece of a long one): path, 1-based inclusive lines, the
              entry's first line, kind, heading, text, dates, hashes of its embedded texts
              (alone, and after the previous entry)
  facts       one row a Retain fact; id = its chunk's id
  mentions    chunk -> entity key (lower-cased slug) and the slug as written: fact-entity
              links (a fact's id is its chunk's id) and @mentions in notes
  entities    one row an entity: slug, display name, page path, aliases
  warnings    path, line, message: what status and doctor report
  chunk_days  chunk -> a day or range the entry names besides its own (m010; index.rows.named_days)
  embedding_cache  provider, model, text hash -> dim, float32 vector (see vectors/embedding_cache.py)
  session_files   one row a session transcript (JSONL, outside the workspace): where it is, how
                  far it was read (byte offset, lines), a hash of its head (a replaced file is
                  read again whole) and what was skipped; its messages are chunks with role
                  'session' and path 'sessions/<file name>' (see index.sessions)
  chunks_fts      FTS5 (porter + unicode61) over search text, path words and the previous
                  entry of the section (context, weighted low); rowid = chunk id. External
                  content: the columns are read from the view chunks_fts_rows (fts_content.py)
  chunks_trigram  FTS5 trigram over the text of chunks that contain CJK characters
  fts_journal     the FTS rows that the last small syncs inserted (+1) and deleted (-1), or a reset
                  row: cached term counts follow it (journal.py)
  sessions_fts    chunks_fts for session entries: a recall of memory alone never walks past a
                  transcript's words, nor does one of transcripts past the Markdown's
                  (view sessions_fts_rows)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

# The FTS5 tokenizer is part of the settings fingerprint: changing it requires a rebuild.
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"

Migration = Callable[[sqlite3.Connection], None]


def m001_core_tables(conn: sqlite3.Connection) -> None:
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["files"].create(
        {"path": str, "hash": str, "mtime_ns": int, "size": int, "role": str, "day": str,
         "title": str, "meta": str, "indexed_at": str},
        pk="path",
    )
    db["chunks"].create(
        {"id": int, "path": str, "start_line": int, "end_line": int, "kind": str, "heading": str,
         "text": str, "role": str, "day": str, "t_start": str, "t_end": str, "text_hash": str},
        pk="id",
    )
    db["chunks"].create_index(["path"])
    db["chunks"].create_index(["day"])
    db["facts"].create(
        {"id": int, "path": str, "line": int, "kind": str, "content": str, "confidence": float,
         "day": str, "occurred_start": str, "occurred_end": str},
        pk="id",
    )
    db["facts"].create_index(["kind"])
    db["mentions"].create({"chunk_id": int, "entity_key": str, "slug": str}, pk=("chunk_id", "entity_key"))
    db["mentions"].create_index(["entity_key"])
    db["entities"].create(
        {"key": str, "slug": str, "name": str, "page_path": str, "aliases": str, "fact_count": int},
        pk="key",
    )
    db["warnings"].create({"path": str, "line": int, "message": str})
    db["warnings"].create_index(["path"])
    conn.execute(
        f"CREATE VIRTUAL TABLE chunks_fts USING fts5(search_text, path_text, tokenize='{FTS_TOKENIZER}')"
    )
    conn.execute("CREATE VIRTUAL TABLE chunks_trigram USING fts5(text, tokenize='trigram')")


def m002_context_vectors(conn: sqlite3.Connection) -> None:
    """Entries get a second vector, embedded with the entry before them (see rows.EMBED_SCHEME)."""
    conn.execute("ALTER TABLE chunks ADD COLUMN ctx_hash TEXT")


def m003_fts_context(conn: sqlite3.Connection) -> None:
    """chunks_fts gains the previous entry of the section as a low-weight `context_text` column.

    The rows are refilled by the rebuild that the new schema version in the settings
    fingerprint triggers.
    """
    conn.execute("DROP TABLE IF EXISTS chunks_fts")
    conn.execute(
        "CREATE VIRTUAL TABLE chunks_fts USING "
        f"fts5(search_text, path_text, context_text, tokenize='{FTS_TOKENIZER}')"
    )


def m004_superseded_by(conn: sqlite3.Connection) -> None:
    """facts.superseded_by: the id of the newer world fact that replaced this one (facts.supersession, applied by index.indexer)."""
    conn.execute("ALTER TABLE facts ADD COLUMN superseded_by INTEGER")


def m005_embedding_cache(conn: sqlite3.Connection) -> None:
    """The embedding cache joins the migrations (it was created on first use before; hence IF NOT EXISTS)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS embedding_cache ("
        " provider TEXT NOT NULL, model TEXT NOT NULL, hash TEXT NOT NULL,"
        " dim INTEGER NOT NULL, vector BLOB NOT NULL,"
        " PRIMARY KEY (provider, model, hash))"
    )


def m006_sessions_and_validity(conn: sqlite3.Connection) -> None:
    """Session transcripts (session_files; chunks.at, the message's time) and facts that are no longer
    true (facts.invalid_at / invalid_reason, chunks.invalid_at for every piece; `memory forget`), plus
    what export and forget need of a fact: its whole bullet's last line and its text as written."""
    for table, column in (("chunks", "at"), ("chunks", "invalid_at"), ("facts", "end_line INTEGER"),
                          ("facts", "bullet"), ("facts", "invalid_at"), ("facts", "invalid_reason")):
        name, _, kind = column.partition(" ")
        conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind or 'TEXT'}")
    # Few entries are invalid: a partial index answers "is there any?" and keeps the filter cheap.
    conn.execute("CREATE INDEX chunks_invalid ON chunks(id) WHERE invalid_at IS NOT NULL")
    conn.execute(
        f"CREATE VIRTUAL TABLE sessions_fts USING fts5(search_text, path_text, context_text, tokenize='{FTS_TOKENIZER}')"
    )
    conn.execute(
        "CREATE TABLE session_files ("
        " path TEXT PRIMARY KEY, source TEXT NOT NULL, dev INTEGER, ino INTEGER, size INTEGER,"
        " mtime_ns INTEGER, offset INTEGER NOT NULL DEFAULT 0, lines INTEGER NOT NULL DEFAULT 0,"
        " head TEXT, session_id TEXT, last_at TEXT, messages INTEGER NOT NULL DEFAULT 0,"
        " other INTEGER NOT NULL DEFAULT 0, malformed INTEGER NOT NULL DEFAULT 0, first_malformed INTEGER,"
        " indexed_at TEXT)"
    )


def m007_entry_start(conn: sqlite3.Connection) -> None:
    """chunks.entry_start: the first line of the entry a chunk is a piece of (one result per entry).

    Filled by the rebuild that the new schema version in the settings fingerprint triggers.
    """
    conn.execute("ALTER TABLE chunks ADD COLUMN entry_start INTEGER")


def m008_fts_journal(conn: sqlite3.Connection) -> None:
    """fts_journal: the FTS rows the last small syncs changed, so that cached term counts follow (journal.py)."""
    from .journal import create

    create(conn)


def m009_fts_external_content(conn: sqlite3.Connection) -> None:
    """chunks_fts and sessions_fts keep no copy of their columns: they read them from views over
    `chunks` (fts_content, issue 27). An existing index is re-indexed from its own rows, not parsed
    again; the pages of the old copies are free pages, which the file reuses as it grows."""
    from . import fts_content, journal

    fts_content.create(conn, FTS_TOKENIZER)
    journal.reset(conn)  # cached term counts are counted again, from the new index


def m010_chunk_days(conn: sqlite3.Connection) -> None:
    """chunk_days: the days an entry names besides its own ("Dec 4 is the API deep-dive" written on
    Nov 10: Dec 4), one row a day or range (index.rows.named_days). A time filter keeps an entry whose
    own days or one of these overlap it. Filled by the rebuild that ROWS_SCHEMA asks for."""
    conn.execute("CREATE TABLE IF NOT EXISTS chunk_days (chunk_id INTEGER NOT NULL, t_start TEXT NOT NULL,"
                 " t_end TEXT NOT NULL)")
    conn.execute("CREATE INDEX IF NOT EXISTS chunk_days_window ON chunk_days(t_end, t_start)")
    conn.execute("CREATE INDEX IF NOT EXISTS chunk_days_chunk ON chunk_days(chunk_id)")


def m011_file_languages(conn: sqlite3.Connection) -> None:
    """files.languages: how many of a file's entries each language is written in (index.rows.language_counts);
    their sum is kept in meta `languages` (writer.count_languages). Filled by the rebuild that ROWS_SCHEMA asks for."""
    if "languages" not in {row[1] for row in conn.execute("PRAGMA table_info(files)")}:  # run again: as it is
        conn.execute("ALTER TABLE files ADD COLUMN languages TEXT")


MIGRATIONS: list[Migration] = [m001_core_tables, m002_context_vectors, m003_fts_context, m004_superseded_by,
                               m005_embedding_cache, m006_sessions_and_validity, m007_entry_start, m008_fts_journal,
                               m009_fts_external_content, m010_chunk_days, m011_file_languages]
SCHEMA_VERSION = len(MIGRATIONS)
# The version the settings fingerprint names: the last migration that changed what the derived rows
# hold, so that a new one rebuilds the index. Later migrations only add side tables (m008) or
# re-index the FTS tables from the rows (m009), which need no rebuild: a user's 100,000-entry
# index is not parsed again for them.
ROWS_SCHEMA = 11  # m011: the languages of a file's entries (files.languages)


def current_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database (0 for an empty file)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.OperationalError:
        return 0
    return int(row[0]) if row else 0
