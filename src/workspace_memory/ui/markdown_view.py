"""User Markdown -> safe HTML: markdown-it-py with raw HTML off, line anchors, Retain facts marked.

Content is untrusted. Raw HTML in a note is text (the parser's `html` option is off, so
`<script>` comes out as `&lt;script&gt;`), images are shown as their alt text (the page
loads nothing from anywhere), and markdown-it's link check refuses `javascript:` and
`data:` links. HTML comments (reflect's region markers and ledger) are hidden, as a
Markdown viewer would.

Every block carries the id of its first line (`links.anchor_id`) so a source such as
`memory/2025-11-20.md#L8` scrolls to it; the block holding the line asked for gets the
class `focus`. Retain bullets are marked with their kind, as the indexer parsed them
(`markdown.parse`), and a malformed one with the parser's warning. Relative links to
Markdown files (entity pages link their sources) open in the UI.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from ..markdown.frontmatter import split_frontmatter
from ..markdown.parse import normalize_newlines, parse_markdown
from .html import Safe, el, render
from .layout import kind_badge
from .links import anchor_id, source_href

# Blocks that get a line anchor; list containers do not (their first item does).
_ANCHORED = {"heading_open", "paragraph_open", "list_item_open", "blockquote_open", "table_open", "tr_open",
             "fence", "code_block", "hr"}
_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
_COMMENT_ONLY_RE = re.compile(r"^\s*(<!--.*?-->\s*)+$", re.DOTALL)
_LINE_FRAGMENT_RE = re.compile(r"^L(\d+)(?:-L?\d+)?$")
_SAFE_SCHEMES = {"http", "https", "mailto"}


@dataclass
class RenderContext:
    """What one rendering needs to know about the file it renders."""

    path: str  # workspace key of the file (links inside it are relative to its folder)
    facts: dict[int, str] = field(default_factory=dict)  # line -> kind of the Retain fact on it
    warnings: dict[int, list[str]] = field(default_factory=dict)  # line -> parser warnings
    focus: int | None = None  # the line asked for (?line=N)


@lru_cache(maxsize=1)
def _parser():  # markdown_it is imported lazily, like markdown.parse does
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    md.core.ruler.push("ui_comments", _hide_comments)
    md.core.ruler.push("ui_anchors", _anchor_blocks)
    md.core.ruler.push("ui_links", _rewrite_links)
    md.add_render_rule("image", _render_image)
    md.add_render_rule("fact_badge", _render_badge)
    md.add_render_rule("table_open", _render_table_open)
    md.add_render_rule("table_close", _render_table_close)
    return md


def render_markdown(text: str, path: str, *, day: date | None = None, first_line: int = 1,
                    focus: int | None = None) -> Safe:
    """Render `text` (lines `first_line`.. of the workspace file `path`) as safe HTML.

    Frontmatter is shown as a small table; a daily log's Retain bullets are marked by kind.
    """
    text = normalize_newlines(text)
    lines = [""] * (first_line - 1) + text.split("\n")  # token line maps are then file lines
    front = split_frontmatter(lines) if first_line == 1 else None
    if front is not None and front.line_count:
        lines[: front.line_count] = [""] * front.line_count
    doc = parse_markdown("\n".join(lines), day)
    ctx = RenderContext(path, focus=focus)
    for chunk in doc.chunks:
        if chunk.fact is not None:
            ctx.facts[chunk.start_line] = chunk.kind
    for line, message in doc.warnings:
        ctx.warnings.setdefault(line, []).append(message)
    body = Safe(_parser().render("\n".join(lines), {"ui": ctx}))
    meta = _frontmatter_table(front.meta) if front is not None and front.meta else Safe("")
    return el("div", meta, body, class_="markdown")


def _frontmatter_table(meta: dict[str, Any]) -> Safe:
    rows = [el("tr", el("th", str(k), scope="row"), el("td", _meta_value(v))) for k, v in meta.items()]
    return el("table", el("tbody", rows), class_="frontmatter")


def _meta_value(value: object) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


# ------------------------------------------------------------------------------------ core rules


def _hide_comments(state) -> None:  # markdown_it StateCore
    """Drop paragraphs that are only HTML comments; strip one-line comments from other text."""
    tokens = state.tokens
    keep = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if (tok.type == "paragraph_open" and i + 2 < len(tokens) and tokens[i + 1].type == "inline"
                and _COMMENT_ONLY_RE.match(tokens[i + 1].content)):
            i += 3  # paragraph_open, inline, paragraph_close
            continue
        if tok.type == "inline":
            for child in tok.children or []:
                if child.type == "text" and "<!--" in child.content:
                    child.content = _COMMENT_RE.sub("", child.content)
        keep.append(tok)
        i += 1
    state.tokens = keep


def _anchor_blocks(state) -> None:
    """Line anchors on blocks, the focus class, and kind badges on Retain bullets."""
    ctx: RenderContext | None = state.env.get("ui")
    if ctx is None:
        return
    from markdown_it.token import Token

    taken: set[int] = set()
    holder = None  # the innermost anchored block holding the focus line
    out = []
    for tok in state.tokens:
        out.append(tok)
        if tok.type not in _ANCHORED or not tok.map or tok.hidden:
            continue  # a hidden token (a tight list's paragraph) renders no attributes
        line = tok.map[0] + 1
        if line not in taken:
            taken.add(line)
            tok.attrSet("id", anchor_id(ctx.path, line))
        if ctx.focus is not None and not tok.hidden and tok.map[0] < ctx.focus <= max(tok.map[1], line):
            holder = tok
        if tok.type == "list_item_open" and (line in ctx.facts or line in ctx.warnings):
            kind = ctx.facts.get(line)
            tok.attrJoin("class", f"fact k-{kind}" if kind else "fact k-malformed")
            badge = Token("fact_badge", "", 0)
            badge.meta = {"kind": kind, "warnings": ctx.warnings.get(line, [])}
            out.append(badge)
    if holder is not None:
        holder.attrJoin("class", "focus")
        if ctx.focus not in taken:  # the line is inside the block: the block answers for it
            holder.attrSet("id", anchor_id(ctx.path, ctx.focus))
    state.tokens = out


def _rewrite_links(state) -> None:
    """Relative .md links open in the UI; web links get rel=noopener; anything else is inert."""
    ctx: RenderContext | None = state.env.get("ui")
    for tok in state.tokens:
        for child in tok.children or []:
            if child.type != "link_open":
                continue
            href = str(child.attrGet("href") or "")
            target = _link_target(href, ctx.path if ctx else "")
            if target is None:
                child.attrs.pop("href", None)
                child.attrJoin("class", "inert-link")
            else:
                child.attrSet("href", target)
                if target.startswith(("http:", "https:")):
                    child.attrSet("rel", "noopener noreferrer")


def _link_target(href: str, path: str) -> str | None:
    """Where a link in the file `path` should point in the UI, or None to make it inert."""
    parts = urlsplit(href)
    if parts.scheme:
        return href if parts.scheme.lower() in _SAFE_SCHEMES else None
    if parts.netloc or not parts.path:
        return href if href.startswith("#") else None
    if not parts.path.lower().endswith(".md"):
        return None
    folder = posixpath.dirname(path) if not parts.path.startswith("/") else ""
    resolved = posixpath.normpath(posixpath.join(folder, parts.path))
    if resolved.startswith("../") or resolved == "..":
        return None  # outside the workspace: `memory get` would refuse it too
    line = _LINE_FRAGMENT_RE.match(parts.fragment or "")
    return source_href(resolved, int(line[1]) if line else None)


# ------------------------------------------------------------------------------------ render rules


def _render_image(self, tokens, idx, options, env) -> str:  # markdown_it renderer rule
    alt = self.renderInlineAsText(tokens[idx].children or [], options, env)
    return render(el("span", f"[image: {alt or 'no description'}]", class_="image-alt"))


def _render_badge(self, tokens, idx, options, env) -> str:
    meta = tokens[idx].meta
    kind, warnings = meta.get("kind"), meta.get("warnings") or []
    if kind is None:
        return el("span", "not a fact", class_="badge k-malformed", title="; ".join(warnings) or None)
    return kind_badge(kind, "; ".join(warnings) if warnings else f"{kind} fact")


def _render_table_open(self, tokens, idx, options, env) -> str:
    # A wide table scrolls inside its box instead of widening a phone's page.
    return '<div class="table-wrap">' + self.renderToken(tokens, idx, options, env)


def _render_table_close(self, tokens, idx, options, env) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>"


__all__ = ["RenderContext", "render_markdown"]
