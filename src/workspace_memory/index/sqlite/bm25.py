"""FTS5's bm25() for rows that were found without it (the newest-first steps of the lexical plan).

FTS5 computes bm25() lazily, but its first call in a statement counts every row that holds each
phrase of the query (a walk of each phrase's whole posting list): 10 ms for three words common
in 100,000 entries, even when the statement returns 80 rows. The newest-first steps exist
precisely because their words are that common. So they select rows without bm25(), and the
same number is computed here from what FTS5 itself stores and tokenizes:

- the table's row count and total tokens (its "averages" record), and each row's tokens
  (its docsize record): the length normalisation;
- each phrase's rows (a COUNT that the caller caches until the index changes): the IDF;
- each phrase's instances per row and column, from the rows' own text put through the same
  tokenizer in a private in-memory table (fts5vocab lists their tokens and offsets).

index.lexical_plan holds the formula, which the Postgres store uses too; a test checks
this module's numbers against FTS5's bm25() on the same rows.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Sequence

from ..lexical_plan import BM25_WEIGHTS, bm25, bm25_idf
from .schema import FTS_TOKENIZER

_ROWS = "temp.recall_bm25_rows"
_PHRASES = "temp.recall_bm25_phrases"


def varints(blob: bytes) -> list[int]:
    """The SQLite varints in `blob` (how FTS5 stores sizes and totals)."""
    out, value, at, taken = [], 0, 0, 0
    while at < len(blob):
        byte = blob[at]
        at += 1
        taken += 1
        if taken == 9:  # the ninth byte carries eight bits
            out.append((value << 8) | byte)
            value, taken = 0, 0
        elif byte & 0x80:
            value = (value << 7) | (byte & 0x7F)
        else:
            out.append((value << 7) | byte)
            value, taken = 0, 0
    return out


def totals(conn: sqlite3.Connection, table: str) -> tuple[int, int]:
    """(rows, tokens in all columns) of an FTS5 table, from its averages record."""
    row = conn.execute(f"SELECT block FROM {table}_data WHERE id = 1").fetchone()
    numbers = varints(row[0]) if row and row[0] else [0]
    return numbers[0], sum(numbers[1:])


def phrase_rows(conn: sqlite3.Connection, table: str, phrase: str) -> int:
    """Rows that hold the FTS5 `phrase` in any column (bm25's nHit)."""
    return conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?", (phrase,)).fetchone()[0]


def _tables(conn: sqlite3.Connection) -> None:
    for name, columns in ((_ROWS, "search_text, path_text, context_text"), (_PHRASES, "phrase")):
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING "
                     f"fts5({columns}, content='', tokenize='{FTS_TOKENIZER}')")
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {name}_words USING "
                     f"fts5vocab(temp, {name.split('.')[1]}, instance)")


def scores(conn: sqlite3.Connection, table: str, phrases: Sequence[str], hits: Sequence[int],
           ids: Sequence[int], stats: tuple[int, int]) -> dict[int, float]:
    """bm25() (positive, larger is better) of rows `ids` of `table` for the FTS5 `phrases`,
    as `{table} MATCH 'p1 OR p2 ...'` would give it; `hits` are the phrases' row counts and
    `stats` the table's totals."""
    if not ids:
        return {}
    _tables(conn)
    try:
        # 1. the phrases' tokens, as the tokenizer makes them
        conn.executemany(f"INSERT INTO {_PHRASES}(rowid, phrase) VALUES (?, ?)", list(enumerate(phrases)))
        tokens: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for doc, offset, term in conn.execute(f"SELECT doc, offset, term FROM {_PHRASES}_words"):
            tokens[doc].append((offset, term))
        wanted = [[term for _, term in sorted(tokens[i])] for i in range(len(phrases))]
        # 2. the rows' tokens that are words of a phrase, by row and column
        marks = ",".join("?" * len(ids))
        conn.execute(f"INSERT INTO {_ROWS}(rowid, search_text, path_text, context_text) "
                     f"SELECT rowid, search_text, path_text, context_text FROM {table} WHERE rowid IN ({marks})",
                     list(ids))
        words = sorted({w for phrase in wanted for w in phrase})
        at: dict[tuple[int, str], set[tuple[int, int]]] = defaultdict(set)
        if words:
            for doc, column, offset, term in conn.execute(
                    f"SELECT doc, col, offset, term FROM {_ROWS}_words WHERE term IN ({','.join('?' * len(words))})",
                    words):
                at[doc, term].add((_COLUMNS[column], offset))
        lengths = {rowid: sum(varints(size)) for rowid, size in conn.execute(
            f"SELECT id, sz FROM {table}_docsize WHERE id IN ({marks})", list(ids))}
    finally:
        for name in (_ROWS, _PHRASES):
            conn.execute(f"INSERT INTO {name}({name.split('.')[1]}) VALUES ('delete-all')")
    rows, total = stats
    average = total / rows if rows else 1.0
    idfs = [bm25_idf(rows, n) for n in hits]
    return {cid: bm25([_frequency(at, cid, phrase) for phrase in wanted], idfs, lengths.get(cid, 0), average)
            for cid in ids}


_COLUMNS = {"search_text": 0, "path_text": 1, "context_text": 2}


def _frequency(at: dict[tuple[int, str], set[tuple[int, int]]], cid: int, phrase: list[str]) -> float:
    """The phrase's instances in one row, each weighted by its column's bm25 weight."""
    if not phrase:
        return 0.0
    total = 0.0
    for column, offset in at.get((cid, phrase[0]), ()):
        if all((column, offset + i) in at.get((cid, word), ()) for i, word in enumerate(phrase[1:], 1)):
            total += BM25_WEIGHTS[column]
    return total
