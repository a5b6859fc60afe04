"""An entity as every store returns it: key, slug, display name, page and aliases.

Apart from facts.model (which re-exports it) because a recall resolves entities but never builds a
Fact: importing this module alone spares it creating the Fact dataclass.
"""

from __future__ import annotations

from ..markdown.names import display_name
from ..values import Value


# A Value, not a frozen dataclass (values.py): equal entities compare and hash alike, as they did.
class EntityInfo(Value):
    """An entity: its key, the slug as usually written, display name, page and aliases."""

    __slots__ = ("key", "slug", "name", "page_path", "aliases", "fact_count")

    def __init__(self, key: str, slug: str, name: str, page_path: str | None, aliases: tuple[str, ...] = (),
                 fact_count: int = 0) -> None:
        self.key, self.slug, self.name, self.page_path = key, slug, name, page_path
        self.aliases, self.fact_count = aliases, fact_count

    def names(self) -> tuple[str, ...]:
        """Every way the entity may appear at the start of a fact's text."""
        return tuple(dict.fromkeys((self.name, display_name(self.slug), *self.aliases)))

    def forms(self) -> frozenset[str]:
        """Every lower-case name it may be called by: key, slug, display name, aliases."""
        forms = {self.key, self.slug.lower(), self.name.lower(), self.slug.replace("-", " ").lower()}
        return frozenset(forms | {a.lower() for a in self.aliases if a.strip()})
