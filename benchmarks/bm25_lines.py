"""The baseline recall must beat: plain BM25 over single lines, on LoCoMo.

    python benchmarks/bm25_lines.py [--data PATH] [--conversations 10]

The data set README's first reference row: SQLite FTS5 BM25 (porter), one turn per
chunk, the OR of the question's words, nothing else (no coverage score, no recency, no
neighbours, no time or entity understanding). Each conversation's turns go into an
in-memory FTS5 table, one row per line of the same workspace files that
benchmarks/locomo.py writes, and are scored the same way (locomo.score_question), so
"hybrid beats plain BM25 by X" compares like with like.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from locomo import CATEGORIES, DATA, FETCH_K, normalize_evidence, print_table, score_question, write_workspace

_WORD_RE = re.compile(r"\w+")


def line_index(files: dict[str, list[str]]) -> sqlite3.Connection:
    """An in-memory FTS5 table of every non-empty line: (path, line number, text)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE lines USING fts5(text, path UNINDEXED, line UNINDEXED,"
                 " tokenize='porter unicode61')")
    conn.executemany("INSERT INTO lines(text, path, line) VALUES (?, ?, ?)",
                     [(text, path, n) for path, lines in files.items()
                      for n, text in enumerate(lines, 1) if text.strip() and not text.startswith("#")])
    return conn


def search(conn: sqlite3.Connection, question: str, k: int) -> list[dict]:
    """The k best lines for the OR of the question's words, as recall-like results."""
    words = sorted({w.lower() for w in _WORD_RE.findall(question)})
    if not words:
        return []
    expr = " OR ".join(f'"{w}"' for w in words)
    rows = conn.execute("SELECT path, line FROM lines WHERE lines MATCH ? ORDER BY bm25(lines) LIMIT ?",
                        (expr, k)).fetchall()
    return [{"path": path, "start_line": line, "end_line": line} for path, line in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description="plain BM25 per line on LoCoMo (the baseline)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--conversations", type=int, default=10)
    args = parser.parse_args()
    samples = json.loads(args.data.read_text())[: args.conversations]
    per_cat: dict[str, list[dict]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="wm-bm25-") as tmp:
        for sample in samples:
            where, files, _ = write_workspace(sample, Path(tmp) / sample["sample_id"])
            conn = line_index(files)
            for qa in sample["qa"]:
                evidence = [where[d] for d in normalize_evidence(qa.get("evidence", [])) if d in where]
                if not evidence:
                    continue
                scores = score_question(search(conn, qa["question"], FETCH_K), evidence, files)
                per_cat[CATEGORIES[qa["category"]]].append(scores)
                per_cat["all"].append(scores)
            conn.close()
    table = {cat: {m: round(statistics.mean(s[m] for s in rows), 3) for m in rows[0]} | {"n": len(rows)}
             for cat, rows in per_cat.items()}
    print("plain BM25 per line (FTS5 porter, OR of the question's words)")
    print_table(table)


if __name__ == "__main__":
    main()
