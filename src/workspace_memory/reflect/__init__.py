"""Reflect: entity pages, opinions whose confidence moves with evidence, curated lists, core proposals.

    from workspace_memory.reflect import reflect, list_opinions
    report = reflect(workspace, store, now)     # 7d, or every fact on a first run (api.Memory.reflect)
    print(report.summary_line())

Modules: opinions (update rule + engine), opinions_md (bank/opinions.md), opinions_render,
entity_pages, curated (world/experience), proposals (core), regions (generated regions and
frontmatter), writer (read-plan-commit of pages), model + assist (optional chat endpoint),
listing (`memory opinions`), run (the pass). The facts and their rules live in facts/.
"""

from __future__ import annotations

from .listing import list_opinions
from .run import BUSY_MESSAGE, ReflectReport, embeddings_wanted, reflect

__all__ = ["BUSY_MESSAGE", "ReflectReport", "embeddings_wanted", "list_opinions", "reflect"]
