"""Per-clause queries (prototype): "What schools did John play in and how many years was he with his team?"
is two questions; each clause is embedded and searched, and a candidate's cosine is the best of the
question's and its clauses'."""

from __future__ import annotations

import re

from . import lexical

ENABLED = 0


def split(text: str, names: set[str]) -> list[str]:
    """The clauses of a question joined by "and" / "both", each with a content word that is no name; [] if one."""
    parts: list[str] = []
    for piece in re.split(r",?\s+(?:and|both)\s+", text):
        before = re.findall(r"[\w'’]+", parts[-1])[-1:] if parts else []
        after = re.findall(r"[\w'’]+", piece)[:1]
        if parts and any(re.sub(r"['’]s?$", "", w).lower() in names for w in before + after):
            parts[-1] += " and " + piece  # "Ana and Tom": names joined, not clauses
        else:
            parts.append(piece)
    parts = [p.strip(" ,?") for p in parts]
    kept = []
    for part in parts:
        words = [w for t in lexical.query_terms(part) for w in t.words if w not in names]
        if words and lexical.has_content(lexical.query_terms(" ".join(words))):
            kept.append(part)
    return kept if len(kept) >= 2 else []
