"""Core proposals: facts durable enough for MEMORY.md, listed in bank/proposals.md (pure functions).

A statement is proposed when it is not superseded, not already in MEMORY.md, and either
- it *recurs*: near-duplicate facts (same primary entity, same polarity, canonical token-sort
  ratio >= RECUR_THRESHOLD) were written on RECUR_DAYS = 3 or more different days; or
- it is an opinion held with high confidence (>= HIGH_CONFIDENCE = 0.9), or one supported by
  evidence on RECUR_DAYS or more days at confidence >= 0.7.
At most MAX_PROPOSALS, most days first, then most confident, then alphabetical.

Proposals are only listed (in the command's output and in bank/proposals.md); `--apply-core`
appends them to MEMORY.md under a "## Learned" block (created at the end when missing), a core
block with a limit and maybe read-only like any other (agent/core.py). An applied proposal is then in MEMORY.md and is
no longer proposed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from ..agent import core
from ..agent.core import CoreSettings, parse_core
from ..errors import CoreEditError
from ..facts.model import Fact
from ..facts.textmatch import Claim, analyze, cluster
from ..files import detect_newline
from ..fuzzy import RECURS
from .opinions import Opinion
from .regions import one_line, relative_link

RECUR_DAYS = 3
RECUR_THRESHOLD = RECURS
HIGH_CONFIDENCE = 0.9
SUPPORTED_CONFIDENCE = 0.7
MAX_PROPOSALS = 20
IN_CORE_THRESHOLD = RECURS
PAGE = "bank/proposals.md"
LEARNED = "Learned"
NEW_PAGE = (
    "# Proposals\n\nWhat `memory reflect` suggests; a human decides. Core proposals are applied with\n"
    "`memory reflect --apply-core`; anything written outside the generated regions is kept.\n\n"
    "## Core memory (MEMORY.md)\n"
)


@dataclass(frozen=True)
class Proposal:
    """One line proposed for MEMORY.md and why."""

    text: str
    reason: str
    source: str  # path#Lline of the newest fact, or bank/opinions.md
    days: int
    confidence: float | None

    def to_dict(self) -> dict:
        return {"text": self.text, "reason": self.reason, "source": self.source, "days": self.days,
                "confidence": self.confidence}


def _core_lines(core_text: str) -> list[str]:
    lines = []
    for line in core_text.splitlines():
        stripped = re.sub(r"^\s*[-*+]\s+", "", line).strip()
        if stripped and not stripped.startswith(("#", "<!--")):
            lines.append(stripped)
    return lines


def in_core(text: str, core_lines: list[str]) -> bool:
    """True when MEMORY.md already says this (exactly, or nearly: token-sort ratio >= IN_CORE_THRESHOLD)."""
    target = " ".join(text.split()).casefold()
    for line in core_lines:
        low = line.casefold()
        if target in low or fuzz.token_sort_ratio(target, low) >= IN_CORE_THRESHOLD:
            return True
    return False


def core_proposals(facts: list[Fact], opinions: list[Opinion], superseded: dict[int, int],
                   core_text: str) -> list[Proposal]:
    """The proposals for MEMORY.md (see the module docstring for the rule)."""
    core = _core_lines(core_text)
    found: list[Proposal] = []
    for op in opinions:
        days = len({ev.day for ev in op.evidence if ev.role == "+" and ev.day})
        strong = op.confidence >= HIGH_CONFIDENCE
        supported = days >= RECUR_DAYS and op.confidence >= SUPPORTED_CONFIDENCE
        if (strong or supported) and not in_core(op.statement, core):
            reason = f"opinion at confidence {op.confidence:.2f}, supported on {days} day(s)"
            found.append(Proposal(op.statement, reason, "bank/opinions.md", days, op.confidence))
    groups: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.kind != "opinion":
            groups.setdefault(fact.entities[0] if fact.entities else "", []).append(fact)
    for _, group in sorted(groups.items()):
        group.sort(key=lambda f: f.order, reverse=True)  # newest first: the newest wording represents
        for members in cluster([f.content for f in group], RECUR_THRESHOLD):
            head = group[members[0]]
            days = len({group[i].day for i in members if group[i].day})
            if days < RECUR_DAYS or head.id in superseded or in_core(head.content, core):
                continue
            found.append(Proposal(one_line(head.content), f"{head.kind} fact on {days} days", head.source,
                                  days, None))
    found.sort(key=lambda p: (-p.days, -(p.confidence or 0.0), p.text.casefold(), p.text))
    unique: list[Proposal] = []
    seen: set[Claim] = set()  # the claims kept so far: one lookup each, not a scan of `unique`
    for prop in found:
        claim = analyze(prop.text)
        if claim not in seen:
            seen.add(claim)
            unique.append(prop)
            if len(unique) == MAX_PROPOSALS:
                break
    return unique


def core_region(proposals: list[Proposal]) -> list[str]:
    """The generated region listing core proposals."""
    if not proposals:
        return ["_Nothing to propose._"]
    lines = []
    for prop in proposals:
        path, _, line = prop.source.partition("#L")
        link = relative_link(PAGE, path, int(line) if line else None)
        lines.append(f"- {prop.text} — {prop.reason} · {link}")
    return lines


def apply_core(core_text: str, proposals: list[Proposal], settings: CoreSettings | None = None,
               ) -> tuple[str, list[Proposal], list[Proposal]]:
    """Append proposals to the "## Learned" block of MEMORY.md. Returns (text, applied, refused).

    The block is a core block like any other (agent/core.py): refused = would push it over its
    limit, or the block is read-only.
    """
    nl = detect_newline(core_text) if core_text else "\n"
    text = core_text.replace("\r\n", "\n")
    if parse_core(text, settings).find(LEARNED) is None:
        text = core.create(text, LEARNED, settings=settings).text
    applied: list[Proposal] = []
    refused: list[Proposal] = []
    for prop in proposals:
        try:
            text = core.append(text, LEARNED, f"- {prop.text}", settings).text
        except CoreEditError:
            refused.append(prop)
            continue
        applied.append(prop)
    return text.replace("\n", nl), applied, refused
