"""Reads per connection that stay valid while the index does not change: term counts, table
totals, the entity list, the rows recall read, and whether any transcript, struck fact or CJK text is indexed.

Counting a word's matches walks its whole posting list (2-5 ms for a word in 100,000 entries),
and the entities are read (and their aliases decoded) for every question; a long-lived process
(MCP server, watch, benchmark) asks for the same again and again. The key is `PRAGMA
data_version` (bumped by other connections' commits), the index generation (bumped by every
sync that changes chunks, ours included) and the FTS journal's last row. When the key moves,
the entities and totals are read again, and the term counts are brought up to date from the
journal (index.sqlite.journal): each cached term is counted in the rows that changed, and the
tables' new totals must equal the old plus the change, or every count is thrown away. So a
count is never stale, and an edit does not cost the next searches a recount of every word.
(Not `total_changes`: the scratch tables bump it.)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ..base import Term, in_batches
from . import bm25 as table_bm25
from . import journal
from .lexical import MAIN_COLUMNS, count_matches, fts_phrase
from .schema import FTS_TOKENIZER
from .writer import FTS_TABLES

_SCRATCH = "recall_journal"
ENTRIES_KEPT = 20_000  # ids whose entry_keys are kept at most (about 2 MB)


class ReadCache:
    """See the module docstring."""

    def __init__(self) -> None:
        self.state: tuple | None = None
        self.generation = 0
        self.seq = 0
        self.counts: dict[tuple[str, Term], int] = {}  # (table, term) -> entries with it in text or path
        self.hits: dict[tuple[str, str], int] = {}  # (table, FTS5 phrase) -> rows with it in any column
        self.sizes: dict[str, tuple[int, int]] = {}  # table -> (rows, tokens)
        self.entities: list | None = None  # [EntityInfo], filled by the store
        self.flags: tuple[bool, bool] | None = None  # (any session transcript, any fact struck)
        self.cjk: bool | None = None  # whether the trigram table holds an entry (one with CJK text)
        self.rows: dict[int, dict] = {}  # id -> the row SqliteReads.rows read (index.base.ChunkRow)
        self.entries: dict[int, tuple[str, int]] = {}  # id -> (path, its entry's first line): entry_keys
        # Inside a read transaction the store began (SqliteStore.snapshot: a recall), the index cannot
        # change: fresh() then checks once, not at each of the dozen reads of a question.
        self.pinned = False

    def fresh(self, conn: sqlite3.Connection) -> ReadCache:
        """This cache, brought up to date (or emptied) if the index changed since it was filled."""
        if self.pinned and self.state is not None:
            return self
        row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        generation = int(row[0]) if row and str(row[0]).isdigit() else 0
        seq = journal.last_seq(conn)
        state = (conn.execute("PRAGMA data_version").fetchone()[0], generation, seq)
        if state == self.state:
            return self
        if self.state is not None and (generation, seq) != (self.generation, self.seq) and not self._replay(conn):
            self.counts, self.hits = {}, {}
        self.state, self.generation, self.seq = state, generation, seq
        self.sizes = {table: table_bm25.totals(conn, table) for table in FTS_TABLES}
        self.entities = self.flags = self.cjk = None
        self.rows, self.entries = {}, {}
        return self

    def holds(self, conn: sqlite3.Connection) -> tuple[bool, bool]:
        """(any session transcript indexed, any entry struck as no longer true): what filters can skip."""
        self.fresh(conn)
        if self.flags is None:
            self.flags = (conn.execute("SELECT 1 FROM session_files LIMIT 1").fetchone() is not None,
                          conn.execute("SELECT 1 FROM chunks WHERE invalid_at IS NOT NULL LIMIT 1").fetchone() is not None)
        return self.flags

    def holds_cjk(self, conn: sqlite3.Connection) -> bool:
        """Whether any entry holds CJK text (the trigram table holds those only): else no word is
        glued to CJK text anywhere, and its search (lexical.FtsSearch.glued) is skipped."""
        self.fresh(conn)
        if self.cjk is None:
            self.cjk = conn.execute("SELECT 1 FROM chunks_trigram LIMIT 1").fetchone() is not None
        return self.cjk

    def entry_keys(self, conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, tuple[str, int]]:
        """(path, first line of its entry) of these rows, by id (rows no longer there: none): what tells
        the pieces of one long entry apart (index.sqlite.lexical), for the ids of every lexical pool."""
        self.fresh(conn)
        missing = [cid for cid in ids if cid not in self.entries]
        if len(self.entries) + len(missing) > ENTRIES_KEPT:
            self.entries, missing = {}, list(ids)
        for part in in_batches(missing):
            self.entries.update((cid, (path, first)) for cid, path, first in conn.execute(
                "SELECT id, path, COALESCE(entry_start, start_line) FROM chunks"
                f" WHERE id IN ({','.join('?' * len(part))})", part))
        return self.entries

    def _replay(self, conn: sqlite3.Connection) -> bool:
        """Move the cached counts by the journal's rows since this cache's state; False when it cannot."""
        if not (self.counts or self.hits):
            return True
        rows = journal.since(conn, self.seq, self.generation)
        if rows is None:
            return False
        changed = journal.by_table(rows)
        for table in FTS_TABLES:
            rows_delta, tokens_delta = _apply(conn, changed.get(table, []), table, self.counts, self.hits)
            old_rows, old_tokens = self.sizes.get(table, (None, None))
            if old_rows is None or table_bm25.totals(conn, table) != (old_rows + rows_delta, old_tokens + tokens_delta):
                return False  # a change the journal did not see: count again
        return True

    def phrase_rows(self, conn: sqlite3.Connection, table: str, phrase: str) -> int:
        """Rows of an FTS table that hold the phrase in any column (BM25's IDF; see index.sqlite.bm25)."""
        self.fresh(conn)
        if (table, phrase) not in self.hits:
            self.hits[table, phrase] = table_bm25.phrase_rows(conn, table, phrase)
        return self.hits[table, phrase]

    def totals(self, conn: sqlite3.Connection, table: str) -> tuple[int, int]:
        """(rows, tokens) of an FTS table (BM25's length normalisation)."""
        return self.fresh(conn).sizes[table]

    def frequencies(self, conn: sqlite3.Connection, terms: Sequence[Term],
                    table: str | None = None) -> dict[str, int]:
        """Term counts in one FTS table, or (None) in the whole index."""
        self.fresh(conn)
        tables = FTS_TABLES if table is None else (table,)
        for term in terms:
            for name in tables:
                if (name, term) not in self.counts:
                    self.counts[name, term] = count_matches(conn, term, name)
        return {t.label: sum(self.counts[name, t] for name in tables) for t in terms}


def _apply(conn: sqlite3.Connection, rows: list[tuple], table: str, counts: dict[tuple[str, Term], int],
           hits: dict[tuple[str, str], int]) -> tuple[int, int]:
    """Add the journal `rows` of `table` to its counts; returns the change in (rows, tokens)."""
    for key in [key for key in counts if key[0] == table and key[1].cjk]:
        del counts[key]  # CJK runs are counted over the trigram table, which the journal does not follow
    if not rows:
        return 0, 0
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{_SCRATCH} USING "
                 f"fts5(search_text, path_text, context_text, content='', tokenize='{FTS_TOKENIZER}')")
    sign = {seq: s for seq, _, s, *_ in rows}
    try:
        conn.executemany(f"INSERT INTO temp.{_SCRATCH}(rowid, search_text, path_text, context_text)"
                         " VALUES (?, ?, ?, ?)", [(seq, *columns) for seq, _, _, *columns in rows])

        def delta(expression: str) -> int:
            return sum(sign[r] for (r,) in conn.execute(
                f"SELECT rowid FROM temp.{_SCRATCH} WHERE {_SCRATCH} MATCH ?", (expression,)))

        for key in [key for key in counts if key[0] == table]:
            counts[key] += delta(f"{MAIN_COLUMNS} : {fts_phrase(key[1])}")
        for key in [key for key in hits if key[0] == table]:
            hits[key] += delta(key[1])
        tokens = sum(sign[r] * sum(table_bm25.varints(sz)) for r, sz in conn.execute(
            f"SELECT id, sz FROM temp.{_SCRATCH}_docsize"))
    finally:
        conn.execute(f"INSERT INTO temp.{_SCRATCH}({_SCRATCH}) VALUES ('delete-all')")
    return sum(sign.values()), tokens
