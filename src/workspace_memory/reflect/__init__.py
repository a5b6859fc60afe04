"""Reflect: entity pages, opinions whose confidence moves with evidence, curated lists, core proposals.

    from workspace_memory.reflect import reflect, list_opinions
    report = reflect(mem, "7d")          # mem: workspace_memory.api.Memory
    print(report.summary_line())

Modules: facts (index reads), opinions (update rule + engine), opinions_md (bank/opinions.md),
entity_pages, curated (world/experience), proposals (core), supersede, textmatch, regions
(generated regions and frontmatter), model + assist (optional chat endpoint), run (the pass).
"""

from __future__ import annotations

from ..facts.supersession import superseded_ids
from .listing import list_opinions
from .run import BUSY_MESSAGE, ReflectReport, reflect

__all__ = ["BUSY_MESSAGE", "ReflectReport", "list_opinions", "reflect", "superseded_ids"]
