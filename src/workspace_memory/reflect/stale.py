"""Stale core lines: a MEMORY.md line that a newer fact supersedes (pure).

MEMORY.md is always in the agent's context, so a line there that says "lives in Hamburg" after a
note that Jonas moved to Leipzig misleads every conversation. The rule:

1. A core line (a bullet or a sentence of a block) is about an entity when it names it (a name,
   an alias or an @mention, facts.entities).
2. A clause of it is *stale* against a world fact about that entity that a newer fact superseded
   (facts.supersession) by the clause rule of facts.stale: the same attribute, a value of the old
   fact ("Hamburg") and none of the new one's ("Leipzig", "Plagwitz"). So "lives in Hamburg" is
   stale after the move, and "lives in Leipzig" is not; a line that names no superseded value is
   never touched. Recall uses the same rule (recall.supersession.stale_core).
3. The proposal replaces the stale clause by the current fact's claim, keeps the rest of the line
   byte for byte, and cites the current fact: `memory reflect` lists it, bank/proposals.md shows
   it, `memory doctor` reports it (`stale-core-line`), and `memory reflect --apply-core` applies it
   as one `core replace` (agent/core.py): one line changes, or none when the line moved.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..facts.entities import mentioned
from ..facts.model import EntityInfo, Fact, strip_entity_prefix
from ..facts.stale import replace_stale
from ..facts.supersession import attributes, why


@dataclass(frozen=True)
class StaleLine:
    """One MEMORY.md line a newer fact supersedes, and the line that would replace it."""

    line: int  # 1-based, in MEMORY.md as on disk
    old: str  # the line's text (without its ending)
    new: str  # the replacement line
    source: str  # path#Lline of the current fact
    reason: str  # what matched ("residence: lives in -> moved")

    def to_dict(self) -> dict:
        return {"line": self.line, "old": self.old, "new": self.new, "source": self.source, "reason": self.reason}


def stale_lines(core_text: str, facts: list[Fact], superseded: dict[int, int],
                entities: list[EntityInfo]) -> list[StaleLine]:
    """Every MEMORY.md line a newer fact supersedes, with its replacement (see the module docstring)."""
    by_id = {f.id: f for f in facts}
    # entity -> [(superseded fact, the current fact that replaced it, its attributes)]
    chains: dict[str, list[tuple[Fact, Fact, tuple[str, ...]]]] = {}
    for old_id, new_id in superseded.items():
        old, new = by_id.get(old_id), by_id.get(new_id)
        while new is not None and new.id in superseded:  # follow to the current fact
            new = by_id.get(superseded[new.id])
        if old is not None and new is not None and old.entities:
            chains.setdefault(old.entities[0], []).append((old, new, tuple(attributes(old.content))))
    if not chains:
        return []
    known = [e for e in entities if e.key in chains]
    out: list[StaleLine] = []
    for number, raw in enumerate(core_text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith(("#", "<!--")):
            continue
        keys = [k for k in mentioned(known, raw) if k in chains]
        if keys:
            stale = _stale(raw, chains[keys[0]], next(e for e in known if e.key == keys[0]))
            if stale is not None:
                new_line, current, reason = stale
                out.append(StaleLine(number, raw, new_line, current.source, reason))
    return out


def _stale(raw: str, chain: list[tuple[Fact, Fact, tuple[str, ...]]],
           entity: EntityInfo) -> tuple[str, Fact, str] | None:
    """(the replacement line, the current fact, why) when a clause of `raw` is stale; else None."""
    names = entity.names()
    found = replace_stale(raw, [(old.content, new.content) for old, new, _ in chain],
                          lambda i: strip_entity_prefix(chain[i][1].content, names),
                          lambda label: bool(mentioned([entity], label)))
    if found is None:
        return None
    line, i = found
    old, new, _ = chain[i]
    return line, new, why(old.content, new.content)


def region_lines(stale: list[StaleLine], page: str, core_key: str) -> list[str]:
    """bank/proposals.md's lines for stale core lines (in the core proposals region)."""
    from .regions import one_line, relative_link

    out = []
    for item in stale:
        path, _, line = item.source.partition("#L")
        link = relative_link(page, path, int(line) if line else None)
        out.append(f"- replace {core_key} line {item.line}: ~~{one_line(item.old.strip(' -'))}~~ with "
                   f"\"{one_line(item.new.strip(' -'))}\" — superseded by {link} ({item.reason})")
    return out


def apply_stale(core_text: str, stale: list[StaleLine], settings) -> tuple[str, list[StaleLine], list[StaleLine]]:
    """Replace each stale line in MEMORY.md by its replacement, as `core replace` does (agent/core.py:
    the block's limit and read-only setting hold). Returns (text, applied, refused)."""
    from ..agent import core
    from ..errors import CoreEditError
    from ..files import detect_newline

    nl = detect_newline(core_text) if core_text else "\n"
    text = core_text.replace("\r\n", "\n")
    applied: list[StaleLine] = []
    refused: list[StaleLine] = []
    for item in stale:
        doc = core.parse_core(text, settings)
        number = next((i for i, line in enumerate(doc.lines) if line.rstrip("\n") == item.old), None)
        block = next((b for b in doc.blocks if number is not None and number in b.value_index), None)
        if block is None:
            refused.append(item)  # the line moved out of a block, or is gone: nothing to replace
            continue
        try:
            text = core.replace(text, block.label, item.old.strip(), item.new.strip(), settings).text
        except CoreEditError:
            refused.append(item)
            continue
        applied.append(item)
    return text.replace("\n", nl), applied, refused


def findings(root, store, today) -> list[tuple[str, str, str, int | None, str]]:  # (Path, index.base.Store, date)
    """What `memory doctor` reports for reflect's pages: (code, what, path, line, how) for every stale
    MEMORY.md line and every hand edit inside a generated region (reflect.writer's copy)."""
    from ..facts.model import by_key
    from ..facts.supersession import superseded_ids
    from ..files import decode_markdown
    from ..workspace.layout import CORE_NAME
    from .writer import UNGUARDED, load_written, region_conflicts

    out: list[tuple[str, str, str, int | None, str]] = []
    core_path = root / CORE_NAME
    if core_path.is_file() and not core_path.is_symlink():
        with store.reading():
            facts = [f for f in store.facts(today) if f.valid]
            entities = list(by_key(store.entities()).values())
        core_text = decode_markdown(core_path.read_bytes()).text
        for item in stale_lines(core_text, facts, superseded_ids(facts, today=today), entities):
            out.append(("stale-core-line", f"a newer fact supersedes it ({item.source}: {item.reason})", CORE_NAME,
                        item.line, f"replace it with \"{item.new.strip()}\" (`memory reflect --apply-core` does)"))
    for page, regions in sorted(load_written(root).items()):
        path = root / page
        if page in UNGUARDED or not path.is_file() or path.is_symlink():
            continue
        text = decode_markdown(path.read_bytes()).text
        for name, line, _ in region_conflicts(page, text, regions):
            out.append(("region-hand-edit", f"the generated region '{name}' was edited by hand; reflect keeps the "
                        "edit and does not update the region", page, line,
                        "move the text outside the region, or undo the edit or delete the region to let reflect "
                        "write it"))
    return out
