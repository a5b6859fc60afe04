"""Vector windows in the SQLite store: consecutive entries of a file that share one vector.

index.rows.share_vectors gives runs of short entries of a huge file one text hash (the hash of
their texts joined). The vector store keeps that vector once, under the label of the window's
first entry (sync._LABELED skips an entry whose previous entry of the file has its hash);
these two lookups map between the first entry and the others, by chunk id (ids are consecutive
within a file, so a window is a range of ids).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from ...base import in_batches
from ...rows import WINDOW_ENTRIES


def _hashes(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """id -> (path, text_hash) of the chunks among `ids` that exist."""
    out: dict[int, tuple[str, str]] = {}
    for part in in_batches(sorted(set(ids))):
        out.update((cid, (path, digest)) for cid, path, digest in conn.execute(
            f"SELECT id, path, text_hash FROM chunks WHERE id IN ({','.join('?' * len(part))})", part))
    return out


def members(conn: sqlite3.Connection, heads: Iterable[int]) -> dict[int, list[int]]:
    """For each entry of `heads`: the entries after it that share its vector (usually none)."""
    heads = list(heads)
    rows = _hashes(conn, (h + n for h in heads for n in range(WINDOW_ENTRIES)))
    out: dict[int, list[int]] = {}
    for head in heads:
        own = rows.get(head)
        following = []
        cid = head + 1
        while own is not None and rows.get(cid) == own:
            following.append(cid)
            cid += 1
        out[head] = following
    return out


def heads(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, int]:
    """For each entry of `ids` that is inside a window (not its first): the window's first entry."""
    ids = list(ids)
    rows = _hashes(conn, (cid - n for cid in ids for n in range(WINDOW_ENTRIES)))
    out: dict[int, int] = {}
    for cid in ids:
        own = rows.get(cid)
        head = cid
        while own is not None and rows.get(head - 1) == own:
            head -= 1
        if head != cid:
            out[cid] = head
    return out
