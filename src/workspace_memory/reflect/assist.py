"""Optional helpers around models: entity summaries, Retain suggestions, embedding similarity.

Idempotence with a non-deterministic model: a model summary is stored with the hash of the
deterministic region it replaces (`<!-- reflect:summary model=NAME input=HASH -->`). While the
facts and opinions behind a page are unchanged, that hash is unchanged and the page's region is
kept as it is, without calling the model. Retain suggestions are asked once per day: a day that
already has suggestions in bank/proposals.md is not asked again, and a day that has gained
facts since (a human took the suggestions, or wrote their own) is dropped from the list.

Embeddings: with `[reflect] embeddings = true` in memory.toml, opinion matching blends the
workspace's embedder (the `[embedding]` settings recall uses) into the lexical similarity.
Off by default: loading a local model costs seconds, and lexical matching needs none.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from .model import ChatModel, ModelError, suggest_retain, summarize
from .regions import one_line

_MARK_RE = re.compile(r"^<!-- reflect:summary model=(\S+) input=([0-9a-f]+) -->$")
_DAY_HEADING_RE = re.compile(r"^### (\S+\.md)$")


def body_hash(body: list[str]) -> str:
    return hashlib.sha256("\n".join(body).encode("utf-8")).hexdigest()[:16]


def model_region(model: ChatModel, name: str, body: list[str], old_body: list[str] | None,
                 notices: list[str]) -> list[str]:
    """The entity region with a model summary, reusing the old one when its input is unchanged.

    `body` is the deterministic region ("## Summary", "", bullets..., "", "## Facts", ...).
    On a model failure the deterministic body is returned and a notice added.
    """
    digest = body_hash(body)
    if old_body and any((m := _MARK_RE.match(line)) and m[2] == digest for line in old_body):
        return old_body
    end = body.index("## Facts") if "## Facts" in body else len(body)
    bullets = [line[2:] for line in body[2:end] if line.startswith("- ")]
    try:
        summary = summarize(model, name, bullets + [line[2:] for line in body[end:] if line.startswith("- ")][:40])
    except ModelError as exc:
        notices.append(f"{exc}; deterministic summary kept")
        return body
    mark = f"<!-- reflect:summary model={one_line(model.label).replace(' ', '_')} input={digest} -->"
    return ["## Summary", "", mark, *summary, "", *body[end:]]


def parse_retain_region(lines: list[str] | None) -> dict[str, list[str]]:
    """Existing suggestions: daily-log path -> the lines of its block (heading excluded)."""
    out: dict[str, list[str]] = {}
    current: str | None = None
    for line in lines or []:
        m = _DAY_HEADING_RE.match(line)
        if m:
            current = m[1]
            out[current] = []
        elif current is not None:
            out[current].append(line)
    for block in out.values():
        while block and not block[-1].strip():
            block.pop()
    return out


def retain_region(model: ChatModel | None, old: list[str] | None, days: list[tuple[str, str, str]],
                  notices: list[str]) -> list[str] | None:
    """The suggestions region. `days` = (path, day, text) of in-window logs without facts.

    Returns None when there is nothing to show and no region existed.
    """
    existing = parse_retain_region(old)
    without_facts = {path for path, _, _ in days}
    blocks = {path: block for path, block in existing.items() if path in without_facts}
    if model is not None and model.retain:
        for path, day, text in days:
            if path in blocks or not _has_content(text):
                continue
            try:
                bullets = suggest_retain(model, day, text)
            except ModelError as exc:
                notices.append(f"{exc}; no Retain suggestions for {path}")
                break  # one failure is enough: the endpoint is down, do not wait on every day
            blocks[path] = ["```text", *bullets, "```"] if bullets else ["_No facts found._"]
    if not blocks:
        return None if old is None else ["_No suggestions._"]
    lines: list[str] = []
    for path in sorted(blocks):
        if lines:
            lines.append("")
        lines += [f"### {path}", "", *[line for line in blocks[path] if line != ""]]
    return lines


def _has_content(text: str) -> bool:
    """True when a log has more than headings and blank lines (an untouched template has nothing)."""
    return any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines())


def embedding_similarity(embedder: Any) -> Callable[[str, str], float]:  # embed.Embedder
    """A cached 0..1 cosine similarity of two texts under `embedder` (negative cosines count as 0)."""
    import numpy as np

    vectors: dict[str, Any] = {}

    def vector(text: str) -> Any:  # a numpy row
        if text not in vectors:
            row = np.asarray(embedder.embed_documents([text])[0], dtype=float)
            norm = float(np.linalg.norm(row))
            vectors[text] = row / norm if norm else row
        return vectors[text]

    def similarity(a: str, b: str) -> float:
        return max(0.0, min(1.0, float(np.dot(vector(a), vector(b)))))

    return similarity
