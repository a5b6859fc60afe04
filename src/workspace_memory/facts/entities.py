"""Entity names in queries: `@Peter`, a bare name or alias ("peter", "the WhatsApp relay").

Names come from the `entities` table (slugs, display names, page frontmatter aliases).
A query mentions an entity when one of its 1-3 word spans equals a name (any case),
or, for capitalised words of 4+ letters, when rapidfuzz's ratio to a name is at least
FUZZY_MIN (a typo such as "Petr" or "Marakech").
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass

FUZZY_MIN = 88
_WORD_RE = re.compile(r"[^\W_][\w'-]*", re.UNICODE)
_MENTION_RE = re.compile(r"(?<![\w@])@([^\W\d_][\w-]*)", re.UNICODE)
# Words that are names of entities surprisingly often but never mean them in a question.
_NOT_NAMES = frozenset({"i", "me", "my", "we", "you", "the", "a", "an", "what", "who", "when", "where", "how",
                        "does", "did", "do", "is", "are", "was", "think", "about", "tell", "of", "in", "on"})


@dataclass(frozen=True)
class EntityNames:
    key: str
    name: str
    forms: frozenset[str]  # lower-case names: slug, display name, aliases, slug with spaces


def load_entities(conn: sqlite3.Connection) -> list[EntityNames]:
    """Every known entity with all the names it may be called by."""
    out = []
    for key, slug, name, aliases in conn.execute("SELECT key, slug, name, aliases FROM entities ORDER BY key"):
        forms = {key, slug.lower(), name.lower(), slug.replace("-", " ").lower()}
        try:
            extra = json.loads(aliases or "[]")
        except ValueError:
            extra = []
        forms |= {str(a).lower() for a in extra if str(a).strip()} if isinstance(extra, list) else set()
        out.append(EntityNames(key, name, frozenset(forms)))
    return out


def resolve_entity(conn: sqlite3.Connection, name: str) -> str | None:
    """The key of the entity called `name` (exact, any case; else a close fuzzy match)."""
    wanted = " ".join(name.strip().lstrip("@").split()).lower()
    if not wanted:
        return None
    entities = load_entities(conn)
    for ent in entities:
        if wanted in ent.forms or wanted.replace(" ", "-") in ent.forms:
            return ent.key
    return _fuzzy(wanted, entities)


def _fuzzy(word: str, entities: list[EntityNames]) -> str | None:
    if len(word) < 4 or not entities:
        return None
    from rapidfuzz import fuzz, process

    choices = {(ent.key, form): form for ent in entities for form in ent.forms if len(form) >= 4}
    best = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN)
    return best[2][0] if best else None


def entities_in_text(conn: sqlite3.Connection, text: str) -> list[str]:
    """Keys of the entities a query mentions, in order of first mention, without repeats."""
    found: list[str] = []
    entities = load_entities(conn)
    if not entities:
        return found

    def add(key: str | None) -> None:
        if key and key not in found:
            found.append(key)

    for slug in _MENTION_RE.findall(text):
        add(resolve_entity(conn, slug))
    by_form: dict[str, str] = {}
    for ent in entities:
        for form in ent.forms:
            by_form.setdefault(form, ent.key)
    words = _WORD_RE.findall(_MENTION_RE.sub(" ", text))
    lowered = [w.lower().removesuffix("'s") for w in words]
    used = [False] * len(words)
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            if any(used[i : i + size]):
                continue
            span = " ".join(lowered[i : i + size])
            if size == 1 and (span in _NOT_NAMES or len(span) < 2):
                continue
            key = by_form.get(span) or by_form.get(span.replace(" ", "-"))
            if key:
                add(key)
                used[i : i + size] = [True] * size
    for i, word in enumerate(words):
        if not used[i] and word[:1].isupper() and len(word) >= 4 and lowered[i] not in _NOT_NAMES:
            add(_fuzzy(lowered[i], entities))
    return found
