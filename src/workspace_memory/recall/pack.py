"""Turning ranked chunks into the result packets of DESIGN §3, within k and a token budget.

Budget packing: results are taken in rank order while the estimated tokens of their
`content` (tokens.estimate_tokens) plus a fixed per-result overhead for the metadata
stay within the budget; the first result is always returned (truncated if need be),
so a small budget never comes back empty.
"""

from __future__ import annotations

from typing import Any

from ..tokens import estimate_tokens, fit_chars
from ..workspace.layout import ANY_MEDIA_SUFFIX

SNIPPET_CHARS = 700
RESULT_OVERHEAD_TOKENS = 20  # path, lines, kind, date: what a packet costs beyond its content


def source_ref(path: str, start: int, end: int) -> str:
    """`path#L12` or `path#L12-L15`: the citation form agents and GitHub understand."""
    return f"{path}#L{start}" if start == end else f"{path}#L{start}-L{end}"


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The content, cut at a word boundary to at most `limit` characters."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", limit // 2, limit - 1) if limit > 2 else -1
    return text[: cut if cut > 0 else max(0, limit - 1)].rstrip() + "…"


def packet(row: dict[str, Any], score: float, entities: list[str]) -> dict[str, Any]:
    """One result in the recall JSON contract (led by its `workspace` in a recall across workspaces)."""
    content = row["fact_content"] if row.get("fact_content") else row["text"]
    where = {"workspace": row["workspace"]} if "workspace" in row else {}  # a recall across workspaces
    item = where | {
        "kind": row["kind"],
        "content": snippet(content),
        "entities": entities,
        "timestamp": row.get("at") or row["day"],  # a session message's time; else the day
        "confidence": row.get("confidence"),
        "source": source_ref(row["path"], row["start_line"], row["end_line"]),
        "path": row["path"],
        "start_line": row["start_line"],
        "end_line": row["end_line"],
        "score": round(score, 4),
    }
    if row["path"].lower().endswith(ANY_MEDIA_SUFFIX):  # an image, PDF or voice note: say what read its text
        from ..media.derive import label_of_entry

        item["derived"] = label_of_entry(row.get("heading"))
    if row.get("invalid_at"):  # only with --include-invalid
        item["invalid_at"] = row["invalid_at"]
    return item


def pack(packets: list[dict[str, Any]], k: int, budget: int | None) -> list[dict[str, Any]]:
    """Keep the first `k` packets, and with a budget only as many as fit (at least one)."""
    out: list[dict[str, Any]] = []
    used = 0
    for item in packets[:k]:
        cost = estimate_tokens(item["content"]) + RESULT_OVERHEAD_TOKENS
        if budget is not None and used + cost > budget:
            if not out:
                # The first result always comes back, cut to what the budget leaves for content
                # (one token kept for the ellipsis).
                room = fit_chars(item["content"], max(0, budget - RESULT_OVERHEAD_TOKENS - 1))
                out.append(item | {"content": snippet(item["content"], min(SNIPPET_CHARS, room + 1))})
            break
        out.append(item)
        used += cost
    return out
