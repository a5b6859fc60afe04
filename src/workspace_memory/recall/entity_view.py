"""`memory entity NAME`: everything memory holds about one entity ("tell me about X").

The entity's page (bank/entities/<Slug>.md) when there is one, then its facts newest
first (superseded ones, and ones no longer true, marked), then its opinions with confidence,
each with its source.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from ..errors import UserError
from ..facts.entities import near, resolve
from ..facts.entity_info import EntityInfo
from ..facts.supersession import in_effect
from ..index.base import Store
from .pack import source_ref

MAX_FACTS = 200


def unknown_entity(entities: list[EntityInfo], name: str) -> str:
    """The one line for a name no entity has: the nearest names, and where the list is."""
    if not name.strip().lstrip("@").strip():
        return "give an entity's name (`memory entities` lists them)"
    if not entities:
        return f"no entity called {name!r}: no entities yet (an @Name in a Retain fact creates one)"
    alike = near(entities, name)
    hint = f"did you mean {', '.join(repr(n) for n in alike)}? " if alike else ""
    return f"no entity called {name!r} ({hint}`memory entities` lists all {len(entities)})"


def entity_report(store: Store, name: str, today: date | None = None) -> dict[str, Any]:
    """Build the report; `page` is the page's path (the caller, which owns I/O, reads it)."""
    entities = store.entities()
    key = resolve(entities, name)
    if key is None:
        raise UserError(unknown_entity(entities, name))
    info = next(e for e in entities if e.key == key)
    facts = []
    for row in store.entity_facts(key, MAX_FACTS):
        start, end = row["occurred_start"], row["occurred_end"]
        facts.append({
            "id": row["id"], "kind": row["kind"], "content": row["content"], "timestamp": row["day"],
            "confidence": row["confidence"], "occurred": [start, end] if start or end else None,
            "source": source_ref(row["path"], row["line"], row["line"]), "path": row["path"], "line": row["line"],
        } | ({"invalid_at": row["invalid_at"], "invalid_reason": row["invalid_reason"]} if row.get("invalid_at") else {}))
    by_id = {f["id"]: f for f in facts}
    replaced = in_effect(store.superseded([f["id"] for f in facts if f["kind"] == "world"]),
                         {i: (f["occurred"] or [None])[0] for i, f in by_id.items()}, today)
    for fact in facts:
        if fact["id"] in replaced:
            newer = by_id.get(replaced[fact["id"]])
            fact["superseded_by"] = newer["source"] if newer else replaced[fact["id"]]
    return {
        "entity": info.name, "slug": info.slug, "aliases": list(info.aliases), "fact_count": info.fact_count,
        "page": info.page_path,
        "facts": [f for f in facts if f["kind"] != "opinion"],
        "opinions": [f for f in facts if f["kind"] == "opinion"],
    }
