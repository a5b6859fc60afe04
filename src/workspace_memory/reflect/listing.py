"""`memory opinions`: the opinions of bank/opinions.md as data, for scripts and agents.

Read-only: the page is parsed as it is (a human's edits included, even before the next
reflect has folded them into the ledger), evidence comes from the ledger.
"""

from __future__ import annotations

from typing import Any

from ..errors import UserError
from ..facts.model import EntityInfo, entity_info, load_entities, load_facts
from ..markdown.retain import slugify
from .opinions import Opinion, confidence_trail
from .opinions_md import PAGE, parse_page, visible
from .regions import RegionError


def _entity_keys(name: str, entities: dict[str, EntityInfo]) -> set[str]:
    """Keys an --entity argument may mean: its slug, or an entity whose name or alias it is."""
    wanted = name.strip().lstrip("@")
    keys = {slugify(wanted).lower(), wanted.lower()}
    folded = wanted.casefold()
    for key, info in entities.items():
        if any(n.casefold() == folded for n in info.names()):
            keys.add(key)
    return keys


def list_opinions(mem, entity: str | None = None) -> list[dict[str, Any]]:  # noqa: ANN001 - api.Memory
    """Every opinion (statement, entities, confidence, last_updated, history, evidence), page order."""
    path = mem.workspace.root / PAGE
    if not path.is_file() or path.is_symlink():
        return []
    try:
        page = parse_page(path.read_bytes().decode("utf-8", errors="replace").lstrip("\ufeff"))
    except RegionError as exc:
        raise UserError(f"{PAGE}: {exc}") from None
    mem.refresh()
    entities = load_entities(mem.conn)
    wanted = _entity_keys(entity, entities) if entity else None
    out = []
    for sec in page.sections:
        if sec.duplicate:
            continue
        try:
            shown = visible(page, sec)
        except RegionError:
            continue
        op = page.opinions.get(sec.key)
        keys = shown.entities if shown.entities is not None else (op.entities if op else [])
        if wanted is not None and not wanted & set(keys):
            continue
        confidence = shown.confidence if shown.confidence is not None else (op.confidence if op else None)
        if op is not None and confidence is not None and f"{confidence:.2f}" == f"{op.confidence:.2f}":
            confidence = op.confidence  # the page shows 2 decimals; the ledger keeps the exact value
        out.append({
            "key": sec.key,
            "statement": shown.statement or (op.statement if op else ""),
            "entities": [entity_info(entities, k).name for k in keys],
            "confidence": confidence,
            "last_updated": shown.last_updated or (op.last_updated if op else None),
            "history": [{"day": h.day, "event": h.event, "statement": h.statement, "confidence": h.confidence}
                        | ({"value": h.value} if h.value is not None else {}) for h in (op.history if op else [])],
            "evidence": _evidence(mem, op) if op else [],
            "source": f"{PAGE}#L{sec.start + 1}",
        })
    return out


def _evidence(mem, op: Opinion) -> list[dict[str, Any]]:  # noqa: ANN001 - api.Memory
    """The opinion's evidence in the order applied, each with the confidence it left."""
    confidence_of: dict[str, float | None] = {}
    if any(ev.after is None for ev in op.evidence[1:]):  # only old ledgers need the facts (an estimate)
        confidence_of = {f.hash: f.confidence for f in load_facts(mem.conn)}
    trail = confidence_trail(op, confidence_of.get)
    return [{"role": "supporting" if ev.role == "+" else "contradicting", "path": ev.path,
             "line": ev.line, "day": ev.day or None, "source": f"{ev.path}#L{ev.line}",
             "kind": {"O": "opinion", "W": "world", "B": "experience"}.get(ev.kind, ev.kind),
             "confidence_after": after, "estimated": estimated}
            for ev, (after, estimated) in zip(op.evidence, trail, strict=True)]
