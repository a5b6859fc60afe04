"""Vector windows in the SQLite store: consecutive entries of a file that share one vector.

index.rows.share_vectors gives runs of short entries of a huge file one text hash (the hash of
their texts joined). The vector store keeps that vector once, under the label of the window's
first entry (sync._LABELED skips an entry whose previous entry of the file has its hash);
these two lookups map between the first entry and the others, by chunk id (ids are consecutive
within a file, so a window is a range of ids).

Both ask SQLite only for the entries near the given ones that share their file and hash (almost
always none): a recall looks up a hundred candidates twice a question, and reading the 8 ids
around each one and comparing them in Python cost more than the vector search itself.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from ...base import in_batches
from ...rows import WINDOW_ENTRIES

# The entries within WINDOW_ENTRIES - 1 ids after (`near.id > c.id`) or before each of the given
# ones that have its file and text hash; a window is the consecutive run of them (checked in Python).
_SHARING = ("SELECT c.id, near.id FROM chunks c JOIN chunks near"
            " ON near.id BETWEEN c.id {low} AND c.id {high}"
            " AND near.path = c.path AND near.text_hash = c.text_hash"
            " WHERE c.id IN ({marks})")
_AFTER = ("+ 1", f"+ {WINDOW_ENTRIES - 1}")
_BEFORE = (f"- {WINDOW_ENTRIES - 1}", "- 1")


def _sharing(conn: sqlite3.Connection, ids: list[int], bounds: tuple[str, str]) -> dict[int, set[int]]:
    """id -> the ids within the window's reach (`bounds`) that share its path and text hash (only ids that have some)."""
    out: dict[int, set[int]] = {}
    for part in in_batches(sorted(set(ids))):
        sql = _SHARING.format(low=bounds[0], high=bounds[1], marks=",".join("?" * len(part)))
        for cid, other in conn.execute(sql, part):
            out.setdefault(cid, set()).add(other)
    return out


def members(conn: sqlite3.Connection, heads: Iterable[int]) -> dict[int, list[int]]:
    """For each entry of `heads`: the entries after it that share its vector (usually none)."""
    heads = list(heads)
    sharing = _sharing(conn, heads, _AFTER)
    out: dict[int, list[int]] = {}
    for head in heads:
        same = sharing.get(head, ())
        following = []
        cid = head + 1
        while cid in same:
            following.append(cid)
            cid += 1
        out[head] = following
    return out


def heads(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, int]:
    """For each entry of `ids` that is inside a window (not its first): the window's first entry."""
    ids = list(ids)
    sharing = _sharing(conn, ids, _BEFORE)
    out: dict[int, int] = {}
    for cid in ids:
        same = sharing.get(cid, ())
        head = cid
        while head - 1 in same:
            head -= 1
        if head != cid:
            out[cid] = head
    return out
