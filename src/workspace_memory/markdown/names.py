"""Entity slugs and the names they read as: `@The-Castle` is "The Castle".

Kept apart from the Retain grammar (markdown.retain) so that reading names costs no pattern
compilation: recall, the index and the entity views need these, not the grammar.
"""

from __future__ import annotations

import re


def display_name(slug: str) -> str:
    """How a slug reads in prose: ``"The-Castle"`` -> ``"The Castle"``."""
    return " ".join(slug.replace("-", " ").split())


def slugify(name: str) -> str:
    """A slug for a name: ``"The Castle"`` -> ``"The-Castle"``; the inverse of display_name for simple names.

    Apostrophes are dropped ("Peter's" -> "Peters"), other runs of non-word characters become one "-",
    and leading characters that are not letters are removed (a slug starts with a letter). Returns ""
    when nothing usable is left.
    """
    cleaned = re.sub(r"['’]", "", name)
    slug = "-".join(re.findall(r"[^\W_]+(?:_+[^\W_]+)*", cleaned))
    while slug and not slug[0].isalpha():
        slug = slug[1:]
    return slug.strip("-")
