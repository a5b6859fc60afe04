"""`memory opinions`: the opinions of bank/opinions.md as data, for scripts and agents.

Read-only: the page is parsed as it is (a human's edits included, even before the next
reflect has folded them into the ledger), evidence comes from the ledger.
"""

from __future__ import annotations

from typing import Any

from ..errors import UserError
from ..facts.entities import resolve
from ..facts.model import by_key, entity_info
from ..index.base import Store
from ..markdown.retain import slugify
from ..workspace.layout import Workspace
from .opinions import Opinion, confidence_trail
from .opinions_md import PAGE, parse_page, visible
from .regions import RegionError


def list_opinions(ws: Workspace, store: Store, entity: str | None = None) -> list[dict[str, Any]]:
    """Every opinion (statement, entities, confidence, last_updated, history, evidence), page order.

    `--entity` is resolved like everywhere else (facts.entities: names, aliases, typos).
    """
    path = ws.root / PAGE
    if path.is_file() and not path.is_symlink():
        text = path.read_bytes().decode("utf-8", errors="replace")
    else:
        text = store.file_text(PAGE)  # no checkout here: the page as the store last indexed it
    if text is None:
        return []
    try:
        page = parse_page(text.lstrip("\ufeff"))
    except RegionError as exc:
        raise UserError(f"{PAGE}: {exc}") from None
    known = store.entities()
    entities = by_key(known)
    wanted = None
    if entity:
        wanted = {resolve(known, entity) or slugify(entity.strip().lstrip("@")).lower()}
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
            "evidence": _evidence(store, op) if op else [],
            "source": f"{PAGE}#L{sec.start + 1}",
            # A changed mind: the newer opinion that holds the current view, and since when.
            "current": not (op and op.superseded_by),
            "may_contradict": [h.note for h in (op.history if op else []) if h.event == "may contradict" and h.note],
            "superseded_by": _statement_of(page, op.superseded_by) if op and op.superseded_by else None,
            "until": op.until if op else None,
        })
    return out


def _statement_of(page, key: str) -> str:  # opinions_md.Page
    newer = page.opinions.get(key)
    return newer.statement if newer else key


def _evidence(store: Store, op: Opinion) -> list[dict[str, Any]]:
    """The opinion's evidence in the order applied, each with the confidence it left."""
    confidence_of: dict[str, float | None] = {}
    if any(ev.after is None for ev in op.evidence[1:]):  # only old ledgers need the facts (an estimate)
        confidence_of = {f.hash: f.confidence for f in store.facts()}
    trail = confidence_trail(op, confidence_of.get)
    return [{"role": "supporting" if ev.role == "+" else "contradicting", "path": ev.path,
             "line": ev.line, "day": ev.day or None, "source": f"{ev.path}#L{ev.line}",
             "kind": {"O": "opinion", "W": "world", "B": "experience"}.get(ev.kind, ev.kind),
             "confidence_after": after, "estimated": estimated, "signal": ev.signal}
            for ev, (after, estimated) in zip(op.evidence, trail, strict=True)]
