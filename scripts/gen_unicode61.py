"""Write src/workspace_memory/index/postgres/unicode61.json: SQLite FTS5 unicode61's view of Unicode.

    python scripts/gen_unicode61.py

FTS5's `unicode61 remove_diacritics 2` tokenizer splits on the characters its own Unicode tables
call separators and folds the others to lower case without diacritics. Those tables are older
than Python's `unicodedata` (an emoji is a token character to FTS5), so the Postgres store asks
SQLite itself, once, and ships the answer as data (index/postgres/words.py reads it): token-character
ranges and the folds that differ from plain lower-casing. tests/test_postgres_store.py regenerates
it from the SQLite it runs on and compares.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "workspace_memory" / "index" / "postgres" / "unicode61.json"
LAST = 0x30000  # beyond: CJK extensions and unassigned code points, all token characters to FTS5


def probe() -> tuple[list[tuple[int, int]], dict[int, str]]:
    """(token-character ranges, {code point: folded text} where folding is not str.lower) from SQLite."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 2')")
    points = [c for c in range(0x80, LAST) if not 0xD800 <= c <= 0xDFFF]
    db.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", [(c, "q" + chr(c) + "q") for c in points])
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    # One term "q<c folded>q" when c is a token character; two terms "q" when it separates.
    terms: dict[int, list[str]] = {}
    for doc, term in db.execute("SELECT doc, term FROM v"):
        terms.setdefault(doc, []).append(term)
    folded = {c: t[0][1:-1] for c, t in terms.items() if len(t) == 1}
    ranges: list[tuple[int, int]] = []
    folds: dict[int, str] = {}
    for c in points:
        if c not in folded:
            continue
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1] = (ranges[-1][0], c)
        else:
            ranges.append((c, c))
        if folded[c] != chr(c).lower():
            folds[c] = folded[c]
    return ranges, folds


def render(ranges: list[tuple[int, int]], folds: dict[int, str]) -> str:
    """The JSON file: one range or fold a line, so that a change of SQLite shows as a readable diff."""
    head = {"generated": "scripts/gen_unicode61.py from SQLite FTS5 unicode61 (remove_diacritics 2); do not edit",
            "last": LAST}  # from LAST on, every code point is a token character
    lines = ["{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in head.items()) + ","]
    lines += ['"token_ranges": [', ",\n".join(f"[{a}, {b}]" for a, b in ranges), "],"]
    lines += ['"folds": {', ",\n".join(f'"{c}": {json.dumps(t)}' for c, t in sorted(folds.items())), "}}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    OUT.write_text(render(*probe()), encoding="utf-8")
    sys.stdout.write(f"wrote {OUT}\n")
