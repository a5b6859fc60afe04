"""Frontmatter: find the YAML block at the top of a file and parse it with python-frontmatter.

We locate the block ourselves (so line numbers stay exact) and let python-frontmatter
parse its YAML. Broken YAML is a warning at line 1; the block's lines are still kept out
of chunk text, since the author clearly meant them as metadata.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_MAX_FRONTMATTER_LINES = 500


@dataclass
class FrontMatter:
    """The metadata, how many lines (fences included) it occupies, and any problems."""

    meta: dict[str, Any] = field(default_factory=dict)
    line_count: int = 0
    warnings: list[tuple[int, str]] = field(default_factory=list)


def frontmatter_span(lines: list[str]) -> tuple[int, int] | None:
    """(opening, closing) line indexes of a leading `---` ... `---` (or `...`) block, or None.

    Lines may keep their endings. Without a closing fence it was a thematic break, not frontmatter.
    """
    if not lines or lines[0].rstrip() != "---":
        return None
    for idx in range(1, min(len(lines), _MAX_FRONTMATTER_LINES)):
        if lines[idx].rstrip() in ("---", "..."):
            return 0, idx
    return None


def split_frontmatter(lines: list[str]) -> FrontMatter:
    """Find the frontmatter block on the first lines and parse it."""
    span = frontmatter_span(lines)
    if span is None:
        return FrontMatter()
    return _parse_block(lines[1 : span[1]], span[1] + 1)


def _parse_block(body: list[str], line_count: int) -> FrontMatter:
    # lazy: pulls in PyYAML, only needed for files that have frontmatter. The handler is called
    # directly because frontmatter.loads() silently drops YAML that is not a mapping.
    from frontmatter.default_handlers import YAMLHandler

    try:
        meta = YAMLHandler().load("\n".join(body))
    except Exception as exc:  # any YAML problem is the author's, report and go on
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return FrontMatter({}, line_count, [(1, f"broken frontmatter ignored: {reason}")])
    if meta is None:  # an empty (or comment-only) block
        meta = {}
    if not isinstance(meta, dict):
        return FrontMatter({}, line_count, [(1, "frontmatter is not a mapping; ignored")])
    return FrontMatter(dict(meta), line_count, [])
