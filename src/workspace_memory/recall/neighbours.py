"""Neighbours: the entries next to a strong match share its context.

In a log, consecutive entries of a section are often one story: a question and its
answer, an event told over a few bullets ("We went there yesterday" after the line that
names the museum). So the entry just before and just after each of the best
NEIGHBOUR_DEPTH matches is at least NEIGHBOUR_SHARE as relevant as that match:

    relevance(n) = max(own relevance of n, NEIGHBOUR_SHARE x relevance(best match next to n))

and then gets its own factors (recency, importance, what the question asks for).

Only plain entries (notes) in the same section, or messages of the same session transcript,
count: Retain facts are self-contained by design, as for the context vector (index.rows). A
neighbour must pass the query's filters.
Measured on LoCoMo: see docs/benchmarks.md, "What moved it".
"""

from __future__ import annotations

from typing import Any

from ..index.base import ChunkRow, Filters, Store
from .candidates import Candidate

NEIGHBOUR_SHARE = 0.85
NEIGHBOUR_DEPTH = 10
NARRATIVE = ("note", "session")  # kinds whose entries are told in sequence (Retain facts stand alone)


def _same_section(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a["path"] == b["path"] and a["heading"] == b["heading"]
            and a["kind"] in NARRATIVE and a["kind"] == b["kind"])


def neighbour_ids(store: Store, best: list[Candidate], candidates: dict[int, Candidate],
                  filters: Filters) -> dict[int, ChunkRow]:
    """Rows of the neighbours of the best matches that are not candidates yet (and pass the filters)."""
    sources = [c for c in best[:NEIGHBOUR_DEPTH] if c.row["kind"] in NARRATIVE]
    wanted = sorted({n for c in sources for n in (c.chunk_id - 1, c.chunk_id + 1)} - set(candidates))
    if not wanted:
        return {}
    rows = store.rows(wanted, filters)
    by_id = {c.chunk_id: c for c in sources}
    # Only those that are really next to a source in its section.
    return {cid: row for cid, row in rows.items()
            if any(s in by_id and _same_section(row, by_id[s].row) for s in (cid - 1, cid + 1))}


def propagate(best: list[Candidate], candidates: dict[int, Candidate]) -> list[Candidate]:
    """Raise the relevance of each neighbour of the best matches (module docstring); return those raised.

    The shares come from the relevances before any was raised, so they never chain.
    """
    sources = [(c, c.relevance) for c in best[:NEIGHBOUR_DEPTH] if c.row["kind"] in NARRATIVE]
    raised: dict[int, Candidate] = {}
    for source, relevance in sources:
        for cid in (source.chunk_id - 1, source.chunk_id + 1):
            near = candidates.get(cid)
            share = NEIGHBOUR_SHARE * relevance
            if near is None or not _same_section(near.row, source.row) or near.relevance >= share:
                continue
            near.relevance = share
            near.channels["neighbour"] = share
            if "neighbour" not in near.found_by:
                near.found_by.append("neighbour")
            raised[cid] = near
    return list(raised.values())
