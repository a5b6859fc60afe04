"""The one entity resolver: `@Peter`, a bare name or alias ("peter", "the WhatsApp relay"), a typo.

Used by recall (names in a query, `--entity`), `memory entity`, `memory opinions --entity` and
reflect, over the entities a store knows (slugs, display names, page frontmatter aliases):

- `resolve(entities, name)`: the entity a name given on purpose means: exact (any case, spaces
  or dashes, with or without the accents of Latin letters: "tomas" is "Tomás") on any of its
  forms, else a close fuzzy match (rapidfuzz ratio >= FUZZY_MIN);
- `mentioned(entities, text)`: the entities a question names: @mentions; 1-3 word spans equal
  to a name (possessives stripped: "Maria's" is Maria); and, for capitalised words of 4+
  letters, a close fuzzy match ("Petr", "Marakech").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from ..fuzzy import NAME_HINT, NAME_VARIANT
from ..markdown.names import CJK, SLUG, SLUG_SPACED, WORD_NOT_CJK, ScriptPattern
from .entity_info import EntityInfo
from .similarity import ratio_at_least

FUZZY_MIN = NAME_VARIANT
# A word; a name glued to CJK text is a word of its own ("Priyaって誰": Priya).
# (ScriptPattern: the CJK class is compiled only for a question that may hold CJK.)
_WORD_RE = ScriptPattern(r"[^\W_](?:\w|['’-])*", rf"[^\W_{CJK}](?:{WORD_NOT_CJK}|['’-])*|[{CJK}]+")
# As markdown.retain reads a mention.
_MENTION_RE = ScriptPattern(rf"(?<!\w)(?<!@)@({SLUG_SPACED})", rf"(?<!{WORD_NOT_CJK})(?<!@)@({SLUG})")
_POSSESSIVE_RE = re.compile(r"['’]s$")
# Words that are names of entities surprisingly often but never mean them in a question.
_NOT_NAMES = frozenset({"i", "me", "my", "we", "you", "the", "a", "an", "what", "who", "when", "where", "how",
                        "does", "did", "do", "is", "are", "was", "think", "about", "tell", "of", "in", "on"})


def _normal(name: str) -> str:
    return fold(" ".join(name.strip().lstrip("@").split()).lower())


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """`text` with the accents of its Latin letters taken off ("Tomás" -> "Tomas", "Müller" ->
    "Muller"): people type a name without its accents all the time.

    Only a Latin letter (U+0000-U+024F, U+1E00-U+1EFF) loses its combining marks: in other scripts
    a mark makes another letter (Cyrillic "й" is not "и", Japanese "が" is not "か").
    """
    if text.isascii():
        return text
    out = []
    for char in text:
        base = unicodedata.normalize("NFD", char)
        code = ord(base[0])
        latin = code <= 0x24F or 0x1E00 <= code <= 0x1EFF
        out.append(base[0] if latin and len(base) > 1 and all(unicodedata.combining(c) for c in base[1:]) else char)
    return "".join(out)


def _forms(ent: EntityInfo) -> frozenset[str]:
    """The entity's forms as `_normal` reads a name: lower case, accents of Latin letters off."""
    return frozenset(fold(form) for form in ent.forms())


def resolve(entities: Sequence[EntityInfo], name: str) -> str | None:
    """The key of the entity called `name` (exact on any form, any case or accents; else a close fuzzy match)."""
    wanted = _POSSESSIVE_RE.sub("", _normal(name))
    if not wanted:
        return None
    for ent in entities:
        forms = _forms(ent)
        if wanted in forms or wanted.replace(" ", "-") in forms:
            return ent.key
    return _fuzzy(wanted, entities)


def near(entities: Sequence[EntityInfo], name: str, limit: int = 3) -> list[str]:
    """Display names of up to `limit` entities whose names are like `name` (for a "did you mean")."""
    wanted = _normal(name)
    if not wanted or not entities:
        return []
    from rapidfuzz import fuzz, process

    choices = {(ent.key, form): form for ent in entities for form in _forms(ent)}
    best: dict[str, float] = {}
    for _form, score, (key, _) in process.extract(wanted, choices, scorer=fuzz.WRatio, limit=None,
                                                     score_cutoff=NAME_HINT):
        best[key] = max(best.get(key, 0.0), score)
    names = {ent.key: ent.name for ent in entities}
    return [names[key] for key, _ in sorted(best.items(), key=lambda kv: -kv[1])[:limit]]


def _fuzzy(word: str, entities: Sequence[EntityInfo]) -> str | None:
    if len(word) < 4 or not entities:
        return None
    choices = {(ent.key, form): form for ent in entities for form in _forms(ent) if len(form) >= 4}
    # Most capitalised words of a question are no name at all: when no form can reach FUZZY_MIN
    # (facts.similarity's bound), rapidfuzz's answer is None and it need not load.
    if all(ratio_at_least(word, form, FUZZY_MIN) is False for form in choices.values()):
        return None
    from rapidfuzz import fuzz, process

    best = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=FUZZY_MIN)
    return best[2][0] if best else None


def mentioned(entities: Sequence[EntityInfo], text: str) -> list[str]:
    """Keys of the entities a text mentions, in order of first mention, without repeats."""
    found: list[str] = []
    if not entities:
        return found

    def add(key: str | None) -> None:
        if key and key not in found:
            found.append(key)

    for slug in _MENTION_RE.findall(text):
        add(resolve(entities, slug))
    by_form: dict[str, str] = {}
    for ent in entities:
        for form in _forms(ent):
            by_form.setdefault(form, ent.key)
    words = _WORD_RE.findall(_MENTION_RE.sub(" ", text))
    lowered = [fold(_POSSESSIVE_RE.sub("", w.lower())) for w in words]
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
        if not used[i] and word[:1].isupper() and len(lowered[i]) >= 4 and lowered[i] not in _NOT_NAMES:
            add(_fuzzy(lowered[i], entities))
    return found
