"""Entity slugs and the names they read as: `@The-Castle` is "The Castle".

Kept apart from the Retain grammar (markdown.retain) so that reading names costs no pattern
compilation: recall, the index and the entity views need these, not the grammar.
"""

from __future__ import annotations

import re

# Scripts written without spaces between words (kana, CJK ideographs, Hangul, half-width kana): a
# mention or a name stands right beside their characters ("在@Fernwerk工作"), so they end it.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
# A letter, digit or "_" of a script that spaces its words: what may not stand right before an "@"
# (e-mail addresses: a@b.com) nor continue a name.
WORD_NOT_CJK = f"[^\\W{CJK}]"
# A slug: a letter, then letters, digits, "_" and inner "-" of spaced scripts ("The-Castle"); or a
# run of CJK characters ("@王伟"). Either ends where the other kind begins ("@Lea休假" is Lea).
SLUG = f"(?:[^\\W\\d_{CJK}](?:(?:{WORD_NOT_CJK}|-)*{WORD_NOT_CJK})?|[{CJK}]+)"


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
