"""Which query terms each recall candidate holds, matched with FTS5's own tokenizer in a scratch table.

recall.lexical scores a candidate by the terms it contains (and those its previous entry
contains, its context). Matching each term against the candidates in a private in-memory FTS5
table takes microseconds, where the same MATCH on the main table walks the term's whole posting
list; the table uses the index's tokenizer, so "replies" matches "reply" exactly as the index does.

Tokenizing the candidates was most of that cost (100-200 rows a question, each with its context),
and a long-lived process (the MCP server behind an agent's gateway, `memory watch`, a benchmark)
sees the same entries again question after question. So the rows stay in the table while the index
does not change (the key of index.sqlite.read_cache: PRAGMA data_version, the generation, the FTS
journal's last row) and only new candidates are added; a term's matches are then filtered to the
candidates asked about. When the key moves, when the table would pass SCRATCH_ROWS, or when its row
count is not what this object added (a transaction that rolled back took rows with it), the table is
emptied and filled again: what a question sees is always what a fresh table would give.

A term's matches are then the rows of the whole table it matches, kept until rows are added (or the
table emptied): a common word walks its posting list over every row the table holds (a person's
name: nearly all of them), and the words of the questions an agent asks repeat (the people, the
project). On LoCoMo's conv-26, 1.4 ms of a hybrid recall's CPU became 0.3 ms (docs/benchmarks.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from ...tokens import has_cjk
from ..base import Term
from ..rows import path_words
from .lexical import MAIN_COLUMNS, fts_phrase
from .schema import FTS_TOKENIZER

SCRATCH_ROWS = 5_000  # rows kept at most (a few MB): beyond, the table starts again from the candidates
FOUND_IDS = 100_000  # row ids kept in `found` at most (a few MB): beyond, it starts again
_TABLE = "recall_scratch"


class TermScratch:
    """The scratch table of one connection and what it holds (see the module docstring)."""

    def __init__(self) -> None:
        self.conn: sqlite3.Connection | None = None  # the connection whose temp table this is
        self.key: tuple | None = None  # the index state the rows were read in
        self.texts: dict[int, str] = {}  # id -> text of the rows in the table
        # id -> text.casefold() of those rows whose text holds CJK: the only rows where a glued word
        # counts (index.base.holds_glued), and in most workspaces none.
        self.cjk: dict[int, str] = {}
        # FTS5 expression -> the ids of every row of the table it matches, while the table holds the
        # same rows: a question's terms repeat (the people it asks about), and a common word's match
        # walks its whole posting list in the table (a name in every row: 0.1 ms a column).
        self.found: dict[str, frozenset[int]] = {}
        self._found_ids = 0

    def matches(self, conn: sqlite3.Connection, key: tuple, terms: Sequence[Term], ids: Sequence[int],
                context_share: float) -> dict[str, dict[int, float]]:
        """For each term, the candidates `ids` that contain it (1.0) or whose context does (`context_share`).

        `key` is the index state (index.sqlite.read_cache.ReadCache.state) the caller reads in."""
        self._hold(conn, key, ids)
        wanted = {cid: self.texts[cid] for cid in ids if cid in self.texts}  # ids of deleted rows: none
        cjk = [(cid, low) for cid, low in self.cjk.items() if cid in wanted]
        out: dict[str, dict[int, float]] = {}
        for term in terms:
            if term.cjk:
                out[term.label] = {cid: 1.0 for cid, text in wanted.items() if term.label in text}
                continue
            weights: dict[int, float] = {}
            phrase = fts_phrase(term)
            for column, share in ((f"context_text : {phrase}", context_share), (f"{MAIN_COLUMNS} : {phrase}", 1.0)):
                weights.update(dict.fromkeys(self._found(conn, column).intersection(wanted), share))
            glued = term.glued_text
            if glued is not None:
                weights.update((cid, 1.0) for cid, low in cjk if glued in low)
            out[term.label] = weights
        return out

    def _found(self, conn: sqlite3.Connection, expression: str) -> frozenset[int]:
        """The ids of the rows of the table that match an FTS5 expression (kept in `found`)."""
        found = self.found.get(expression)
        if found is None:
            # Every match, not `AND +rowid IN (the candidates)`: SQLite would walk them all anyway (and a
            # bare `rowid IN` is handed to FTS5, which then runs the MATCH once per id).
            found = frozenset(cid for (cid,) in conn.execute(
                f"SELECT rowid FROM temp.{_TABLE} WHERE {_TABLE} MATCH ?", (expression,)))
            if self._found_ids + len(found) > FOUND_IDS:
                self.found, self._found_ids = {}, 0
            self.found[expression] = found
            self._found_ids += len(found)
        return found

    def _hold(self, conn: sqlite3.Connection, key: tuple, ids: Sequence[int]) -> None:
        """Make the table hold the rows of `ids` (those that exist), tokenized as the index tokenizes them."""
        missing = [cid for cid in dict.fromkeys(ids) if cid not in self.texts]
        if (conn is not self.conn or key != self.key or len(self.texts) + len(missing) > SCRATCH_ROWS
                or not self._intact(conn)):
            self._empty(conn)
            self.conn, self.key = conn, key
            missing = list(dict.fromkeys(ids))
        if not missing:
            return
        marks = ",".join("?" * len(missing))
        rows = conn.execute(
            "SELECT c.id, c.heading, c.text, c.path, COALESCE(p.text, '') FROM chunks c LEFT JOIN chunks p"
            f" ON p.id = c.id - 1 AND p.path = c.path AND p.heading = c.heading WHERE c.id IN ({marks})",
            missing,
        ).fetchall()
        try:
            conn.executemany(
                f"INSERT INTO temp.{_TABLE}(rowid, search_text, path_text, context_text) VALUES (?, ?, ?, ?)",
                [(cid, f"{heading}\n{text}" if heading else text, path_words(path), previous)
                 for cid, heading, text, path, previous in rows],
            )
        except BaseException:
            self._empty(conn)  # some rows in, some not: start again next time
            raise
        self.found, self._found_ids = {}, 0  # what an expression matches may now hold new rows
        self.texts.update((cid, text) for cid, _, text, _, _ in rows)
        self.cjk.update((cid, text.casefold()) for cid, _, text, _, _ in rows if has_cjk(text))

    def _intact(self, conn: sqlite3.Connection) -> bool:
        """Whether the table holds exactly the rows this object added (a rollback can take some back)."""
        if not self.texts:
            return True
        try:
            return conn.execute(f"SELECT COUNT(*) FROM temp.{_TABLE}_docsize").fetchone()[0] == len(self.texts)
        except sqlite3.OperationalError:  # the rollback took the table itself
            return False

    def _empty(self, conn: sqlite3.Connection) -> None:
        # Contentless, so that 'delete-all' empties it without tokenizing every row again (half the cost).
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{_TABLE} USING "
                     f"fts5(search_text, path_text, context_text, content='', tokenize='{FTS_TOKENIZER}')")
        conn.execute(f"INSERT INTO temp.{_TABLE}({_TABLE}) VALUES ('delete-all')")
        self.texts, self.cjk, self.key = {}, {}, None
        self.found, self._found_ids = {}, 0
