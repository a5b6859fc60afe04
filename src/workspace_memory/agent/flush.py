"""The pre-compaction flush: the prompt pair an agent runtime sends before it compacts a session (pure).

OpenClaw runs a silent "memory flush" turn when a session nears compaction, so that what the
agent learned is written down before the context is summarised away. `memory flush-prompt`
prints the same pair for any runtime: send `system` and `user` as one extra turn, let the agent
call the `memory_retain` tool (or `memory retain`), and drop the turn's reply when it is exactly
NO_REPLY.
"""

from __future__ import annotations

from datetime import date

NO_REPLY = "NO_REPLY"

SYSTEM = """\
Pre-compaction memory flush. This session is about to be compacted: whatever is not written to \
memory now will be lost. Store what is worth keeping beyond this session: decisions, facts \
learned about people and projects, preferences, commitments, open threads.

- Write to {path}, today's log in the user's timezone ({tz}). Create memory/ if it is missing.
- Facts go in as Retain bullets, one fact each, through the memory_retain tool (or \
`memory retain "..."`): "W @Entity: ..." a fact about the world, "B @Entity: ..." what you did \
(first person), "O(c=0.8) @Entity: ..." an opinion with its confidence in 0..1, "S @Entity: ..." \
an observation or summary. Mention people and projects as @Slug.
- Narrative that is not a fact (what happened, in order) may go into the same file as plain \
Markdown above its "## Retain" section.
- MEMORY.md and the pages under bank/ are read-only in this turn: do not edit them.
- Do not store secrets, and do not repeat what memory already holds.
- If there is nothing worth storing, reply with exactly {no_reply} and nothing else."""

USER = """\
Store the durable memories of this session now, in {path} (Retain bullets for facts). \
If there is nothing to store, reply {no_reply}."""


def flush_prompt(today: date, tz: str) -> dict[str, str]:
    """{"system", "user", "path", "no_reply"} for a flush turn on `today` in timezone `tz`."""
    path = f"memory/{today.isoformat()}.md"
    fields = {"path": path, "tz": tz, "no_reply": NO_REPLY}
    return {"system": SYSTEM.format(**fields), "user": USER.format(**fields), "path": path, "no_reply": NO_REPLY}
