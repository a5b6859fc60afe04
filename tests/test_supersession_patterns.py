"""facts.supersession's attribute and change-cue patterns, one compiled pattern per language: a set of
languages finds what the one pattern that joins all their patterns with "|" finds (the rule before
the patterns were shared between sets of languages, to compile each language once in a cold recall)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from workspace_memory import lang
from workspace_memory.facts import supersession

CODE_SETS = [(), ("en",), ("de", "en"), ("en", "fr"), ("es", "fr", "pt"), ("zh",), ("de", "en", "es", "fr", "zh")]
# Pieces of claims in the tables' languages, names, places and punctuation.
_PIECES = ["lives in", "moved to", "works at", "works for", "joined", "left", "no longer", "now", "back in",
           "married", "promoted to", "CTO", "wohnt in", "arbeitet bei", "umgezogen nach", "nicht mehr", "zieht um",
           "vive en", "trabaja en", "se mudó a", "ya no", "habite à", "travaille chez", "a déménagé", "ne plus",
           "mora em", "trabalha na", "住在", "搬到", "在", "工作", "不再", "离职", "结婚", "Peter", "Lena", "Vienna",
           "Berlin", "Acme", "2025", "Dec 4", ",", ".", ":", " ", " ", "  ", "de", "in", "la", "the"]
_claims = st.lists(st.sampled_from(_PIECES), max_size=12).map(" ".join)


def _joined(codes: tuple[str, ...]) -> tuple[dict[str, re.Pattern[str]], re.Pattern[str] | None]:
    """The reference: each attribute's patterns of every language in `codes`, joined into one pattern."""
    sources: dict[str, list[str]] = {}
    change: list[str] = []
    for code in codes or lang.available("stance"):
        table = lang.table("stance", code)
        for attribute, patterns in getattr(table, "ATTRIBUTES", {}).items():
            sources.setdefault(attribute, []).extend(patterns)
        change.extend(getattr(table, "CHANGE", ()))
    join = lambda ps: re.compile("|".join(f"(?:{p})" for p in ps), re.I)  # noqa: E731
    return {a: join(ps) for a, ps in sources.items()}, (join(change) if change else None)


REFERENCE = {codes: _joined(codes) for codes in CODE_SETS}


def _same(found: re.Match[str] | None, expected: re.Match[str] | None) -> bool:
    return (found and (found.span(), found.group(0))) == (expected and (expected.span(), expected.group(0)))


@settings(max_examples=300, deadline=None)
@given(_claims)
def test_each_set_of_languages_finds_what_its_joined_pattern_finds(text: str) -> None:
    for codes in CODE_SETS:
        attributes, change = supersession._tables(codes)
        expected_attributes, expected_change = REFERENCE[codes]
        assert list(attributes) == list(expected_attributes), codes
        for attribute, pattern in attributes.items():
            assert _same(pattern.search(text), expected_attributes[attribute].search(text)), (codes, attribute)
        assert (change is None) == (expected_change is None)
        if change is not None and expected_change is not None:
            assert _same(change.search(text), expected_change.search(text)), codes


def test_a_language_is_compiled_once_for_every_set_that_holds_it() -> None:
    english = supersession._language("en")[0]["residence"]
    for codes in [("en",), ("de", "en"), ()]:
        assert english in supersession._tables(codes)[0]["residence"].patterns


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["ab", "abc", "b", "bc", "c", "a?b", "x|ab"]), min_size=1, max_size=4),
       st.text(alphabet="abcx", max_size=12))
def test_where_two_patterns_match_at_one_place_the_earlier_one_wins_as_in_a_join(sources: list[str],
                                                                                 text: str) -> None:
    either = supersession._Either([re.compile(s) for s in sources])
    assert _same(either.search(text), re.compile("|".join(f"(?:{s})" for s in sources)).search(text))


@settings(max_examples=100, deadline=None)
@given(_claims)
def test_a_change_cue_is_removed_as_the_joined_pattern_removes_it(text: str) -> None:
    for codes in CODE_SETS:
        change, expected = supersession._tables(codes)[1], REFERENCE[codes][1]
        if change is not None and expected is not None:
            assert change.sub(" ", text) == expected.sub(" ", text), codes
