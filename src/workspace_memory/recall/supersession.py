"""Superseded facts in recall: "lives in Vienna" ranks below a newer "moved to London".

The rule itself (which newer world fact replaces which older one) lives in
facts.supersession, so recall, entity pages and bank/world.md agree; the store applies
it whenever facts change and keeps the answer.

For a present-tense question a superseded fact's relevance is multiplied by
SUPERSEDED_FACTOR; when the question names a time ("where did Peter live in March?")
nothing is demoted, since the old fact may be exactly what was true then.
"""

from __future__ import annotations

from ..index.base import ChunkRow, Store

SUPERSEDED_FACTOR = 0.6


def superseded_among(store: Store, rows: dict[int, ChunkRow]) -> dict[int, int]:
    """For candidate world facts, {superseded chunk id: id of the fact that replaced it}.

    Read from the store, which keeps the answer up to date at every sync (facts.supersession's rule).
    """
    return store.superseded([cid for cid, row in rows.items() if row["kind"] == "world"])
