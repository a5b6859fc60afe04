"""Bytes of an index by what they hold, from SQLite's `dbstat`: what an entry costs (issue 27).

    python benchmarks/index_size.py WORKSPACE/.memory/index.sqlite [...]

For each index: its pages by group (the `chunks` rows, their indexes, each FTS5 table's stored
copy of its columns (`*_content`, none since the tables read a view over `chunks`), its index
(`*_data`, `*_idx`) and its row sizes (`*_docsize`), the embedding cache, the rest), in bytes and
bytes per entry (per row of `chunks`). Free pages are counted apart: after migration m009 the
copies' pages stay in the file as free pages until it grows into them.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path


def _group(name: str, table: str) -> str:
    if table.endswith(("_fts", "_trigram")) or "_fts_" in table or "_trigram_" in table:
        base = table.rsplit("_", 1)[0] if table.endswith(("_data", "_idx", "_docsize", "_content", "_config")) else table
        part = table[len(base) + 1:] or "index"
        kind = {"data": "index", "idx": "index", "content": "content", "docsize": "docsize", "config": "index"}.get(
            part, part)
        return f"{base} {kind}"
    if table == "chunks":
        return "chunks rows" if name == "chunks" else "chunks indexes"
    if table == "embedding_cache":
        return "embedding cache"
    return "other"


def breakdown(path: Path) -> dict[str, float]:
    """{group: bytes} of the index at `path`, plus `entries`, `free` (free pages' bytes) and `file`."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')"))
        out: dict[str, float] = {}
        for name, size in conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
            group = _group(name, owner.get(name, name))
            out[group] = out.get(group, 0) + size
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        out["free"] = conn.execute("PRAGMA freelist_count").fetchone()[0] * page
        out["file"] = conn.execute("PRAGMA page_count").fetchone()[0] * page
        out["entries"] = conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        return out
    finally:
        conn.close()


def per_entry(figures: dict[str, float]) -> dict[str, float]:
    """The row-side bytes per entry (everything but the embedding cache and free pages)."""
    entries = figures["entries"] or 1
    rows = sum(v for k, v in figures.items() if k not in ("entries", "free", "file", "embedding cache"))
    fts = sum(v for k, v in figures.items() if k.startswith(("chunks_fts", "sessions_fts")))
    return {"row_bytes_per_entry": rows / entries, "fts_bytes_per_entry": fts / entries}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index", nargs="+", type=Path)
    args = parser.parse_args()
    for path in args.index:
        figures = breakdown(path)
        entries = figures["entries"] or 1
        print(f"{path}: {figures['entries']:,.0f} entries, file {figures['file'] / 2**20:.1f} MiB")
        for group, size in sorted(figures.items(), key=lambda kv: -kv[1]):
            if group not in ("entries", "file"):
                print(f"  {group:<24} {size / 2**20:9.2f} MiB  {size / entries:8.1f} B/entry")
        print("  " + ", ".join(f"{k} {v:.0f} B" for k, v in per_entry(figures).items()))


if __name__ == "__main__":
    main()
