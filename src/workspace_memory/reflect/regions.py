"""Generated regions in hand-edited pages, frontmatter upkeep and relative links (all pure).

Reflect owns only what lies between its markers:

    <!-- reflect:begin NAME -->
    ...generated lines...
    <!-- reflect:end NAME -->

Every other byte of a page belongs to its human and is kept exactly: the functions here
work on the text split with line endings kept, replace the lines between the markers (or
append a new region at the end), and join the rest back untouched. A page whose markers
are broken (a begin without an end, or a region twice) is refused with `RegionError`,
so a half-understood page is left alone rather than "repaired" into something else.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from functools import lru_cache

from ..files import detect_newline
from ..markdown.frontmatter import frontmatter_span


class RegionError(ValueError):
    """The page's reflect markers are inconsistent; the page must not be rewritten."""


def begin_marker(name: str) -> str:
    return f"<!-- reflect:begin {name} -->"


def end_marker(name: str) -> str:
    return f"<!-- reflect:end {name} -->"


def find_region(lines: list[str], name: str) -> tuple[int, int] | None:
    """(begin index, end index) of region `name` in `lines` (line endings allowed), or None."""
    begin, end = begin_marker(name), end_marker(name)
    starts = [i for i, line in enumerate(lines) if line.strip() == begin]
    ends = [i for i, line in enumerate(lines) if line.strip() == end]
    if not starts and not ends:
        return None
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise RegionError(f"reflect:{name} markers are unbalanced ({len(starts)} begin, {len(ends)} end)")
    return starts[0], ends[0]


def region_body(text: str, name: str) -> list[str] | None:
    """The lines (without endings) inside region `name`, or None when there is no such region."""
    lines = text.splitlines()
    span = find_region(lines, name)
    if span is None:
        return None
    return lines[span[0] + 1 : span[1]]


def replace_region(text: str, name: str, body: list[str]) -> str:
    """`text` with region `name` holding `body`; a missing region is appended at the end.

    Only the lines between the markers change; the markers' own lines and everything
    else are kept byte for byte (including CRLF line endings and a missing final newline).
    """
    nl = detect_newline(text) if text else "\n"
    lines = text.splitlines(keepends=True)
    span = find_region(lines, name)
    new_body = [line + nl for line in body]
    if span is not None:
        return "".join(lines[: span[0] + 1] + new_body + lines[span[1] :])
    out = text
    if out and not out.endswith(("\n", "\r")):
        out += nl
    if out.strip():
        out += nl
    return out + begin_marker(name) + nl + "".join(new_body) + end_marker(name) + nl


# --------------------------------------------------------------------------------------- frontmatter

_KEY_RE = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
_PLAIN_RE = re.compile(r"^[A-Za-z0-9][\w .()-]*$")
_YAML_WORDS = {"yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"}


def yaml_scalar(value: str) -> str:
    """A YAML scalar for a short string: plain when unambiguous, else a JSON (= YAML) string."""
    if _PLAIN_RE.match(value) and value.strip() == value and value.lower() not in _YAML_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def upsert_frontmatter(text: str, defaults: dict[str, str], updates: dict[str, str]) -> str:
    """Add `defaults` keys that are missing and set `updates` keys, touching no other line.

    Values are pre-rendered YAML. A key is changed by replacing its one line; keys a human
    added (and their formatting) stay exactly as they were. A page without frontmatter gets
    a new block on top.
    """
    nl = detect_newline(text) if text else "\n"
    lines = text.splitlines(keepends=True)
    span = frontmatter_span(lines)
    if span is None:
        block = [f"{k}: {v}{nl}" for k, v in {**defaults, **updates}.items()]
        return "".join([f"---{nl}", *block, f"---{nl}"]) + text
    body = lines[span[0] + 1 : span[1]]
    present = {m[1]: i for i, line in enumerate(body) if (m := _KEY_RE.match(line))}
    for key, value in updates.items():
        if key in present:
            old = body[present[key]]
            ending = old[len(old.rstrip("\r\n")) :] or nl
            if old.rstrip("\r\n") != f"{key}: {value}":
                body[present[key]] = f"{key}: {value}{ending}"
    missing = [f"{k}: {v}{nl}" for k, v in {**defaults, **updates}.items() if k not in present]
    return "".join(lines[: span[0] + 1] + body + missing + lines[span[1] :])


# --------------------------------------------------------------------------------------------- links


def relative_link(from_page: str, target: str, line: int | None = None) -> str:
    """A Markdown link from one workspace page to a file (and line) that works on GitHub and in editors.

    relative_link("bank/entities/Peter.md", "memory/2025-11-27.md", 12)
    -> "[memory/2025-11-27.md#L12](../../memory/2025-11-27.md#L12)"
    """
    anchor = f"#L{line}" if line else ""
    label = f"{target}{anchor}".replace("[", "\\[").replace("]", "\\]")
    return f"[{label}]({_href(posixpath.dirname(from_page), target)}{anchor})"


@lru_cache(maxsize=65536)
def _href(from_dir: str, target: str) -> str:
    # An extra path outside the workspace has an absolute key: only an absolute link works there.
    href = target if os.path.isabs(target) else posixpath.relpath(target, from_dir or ".")
    return href.replace(" ", "%20")


def one_line(text: str, limit: int = 0) -> str:
    """Collapse whitespace, neutralise comment markers (so generated text can't end a region),
    and optionally shorten to `limit` characters."""
    flat = " ".join(text.split()).replace("<!--", "<!-").replace("-->", "->")
    if limit and len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return flat
