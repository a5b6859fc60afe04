"""A small escaping HTML builder: everything is escaped unless it is already `Safe`.

Memory content is untrusted (a note may contain `<script>`), so pages are built from
`el(...)` calls instead of string formatting: a plain `str` child or attribute value is
always escaped, and only what this package generates (`Safe`) passes through.
"""

from __future__ import annotations

import html
from collections.abc import Iterable


class Safe(str):
    """HTML that is safe to emit as it is (built by this package, never taken from content)."""

    __slots__ = ()


def esc(value: object) -> Safe:
    """`value` as text, escaped for HTML text and attribute values."""
    return value if isinstance(value, Safe) else Safe(html.escape(str(value), quote=True))


def render(child: object) -> Safe:
    """Render a child: Safe as is, None/False as nothing, iterables joined, anything else escaped."""
    if child is None or child is False:
        return Safe("")
    if isinstance(child, Safe):
        return child
    if isinstance(child, str | int | float):
        return esc(child)
    if isinstance(child, Iterable):
        return Safe("".join(render(c) for c in child))
    return esc(child)


def attrs(values: dict[str, object]) -> Safe:
    """` name="value"` pairs; `class_` -> class, `data_x` -> data-x, True -> bare, None/False -> omitted."""
    out = []
    for raw, value in values.items():
        if value is None or value is False:
            continue
        name = raw.rstrip("_").replace("_", "-")
        out.append(f" {name}" if value is True else f' {name}="{esc(value)}"')
    return Safe("".join(out))


VOID = {"br", "hr", "img", "input", "meta", "link", "circle", "rect", "line", "path", "polyline"}


def el(tag: str, *children: object, **attributes: object) -> Safe:
    """`<tag attributes>children</tag>`, with every str child and attribute value escaped."""
    if tag in VOID and not children:
        return Safe(f"<{tag}{attrs(attributes)}>" if tag in {"br", "hr", "img", "input", "meta", "link"}
                    else f"<{tag}{attrs(attributes)}/>")
    return Safe(f"<{tag}{attrs(attributes)}>{render(children)}</{tag}>")


def join(*parts: object) -> Safe:
    """Concatenate children (each rendered as by `el`)."""
    return render(parts)
