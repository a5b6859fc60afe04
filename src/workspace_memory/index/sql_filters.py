"""One filter builder for every store: a recall's `Filters` (index.base) as a WHERE clause over the
chunks table, in a store's SQL dialect.

The clauses are the same on every store (an entry's [t_start, t_end] overlaps each time bound, its
kind is one of those asked for, it mentions one of the entities or sits on one of their pages, and
the source and validity clauses of `Filters.source_and_validity_sql`); a `Dialect` says only how a
store writes a parameter, a date, "one of these values" and the entity clause over its tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Filters

# (column, values) -> (SQL that keeps rows whose column holds one of the values, its parameters)
OneOf = Callable[[str, Sequence[Any]], tuple[str, list[Any]]]


# A plain class (not a dataclass): a cold recall imports this module.
class Dialect:
    """How a store writes what the filters need: `mark`, a parameter ("?" or "%s"); `as_date`, what
    turns a parameter into a date ("" where dates are ISO text); `one_of`, a column holding one of
    some values; `entities`, the entity clause, a format string of `alias`, `mentions` (the
    `one_of` clause over the mentions' entity key) and `pages` (the same over the entities' key);
    `named_days`, the entries that name a day of a range besides their own (`chunk_days`), a format
    string of `alias` and `day` (a parameter as a date)."""

    __slots__ = ("mark", "as_date", "one_of", "entities", "mention_key", "page_key", "named_days")

    def __init__(self, mark: str, as_date: str, one_of: OneOf, entities: str, mention_key: str,
                 page_key: str, named_days: str) -> None:
        self.mark, self.as_date, self.one_of = mark, as_date, one_of
        self.entities, self.mention_key, self.page_key = entities, mention_key, page_key
        self.named_days = named_days  # entries that name a day in a range: a format of `alias` and `day`


def filter_sql(filters: Filters | None, dialect: Dialect, alias: str = "c") -> tuple[str, list[Any]]:
    """SQL over chunks `alias` for the filters, with its parameters ("" when there is nothing to filter)."""
    if filters is None:
        return "", []
    clauses: list[str] = []
    params: list[Any] = []
    day = dialect.mark + dialect.as_date
    for latest_start, earliest_end in filters.time_bounds():
        # Its own days (written, or the range its fact states), or a day it names (chunk_days).
        own = f"{alias}.t_start IS NOT NULL AND {alias}.t_start <= {day} AND {alias}.t_end >= {day}"
        clauses.append(f"(({own}) OR {dialect.named_days.format(alias=alias, day=day)})")
        params += [latest_start, earliest_end, latest_start, earliest_end]
    clauses += filters.source_and_validity_sql(alias)
    kinds = filters.kind_list()
    if kinds:
        sql, values = dialect.one_of(f"{alias}.kind", kinds)
        clauses.append(sql)
        params += values
    if filters.entity_keys:
        mentions, mention_values = dialect.one_of(dialect.mention_key, filters.entity_keys)
        pages, page_values = dialect.one_of(dialect.page_key, filters.entity_keys)
        clauses.append(dialect.entities.format(alias=alias, mentions=mentions, pages=pages))
        params += mention_values + page_values
    return " AND ".join(clauses), params
