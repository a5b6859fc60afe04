"""Pure pieces of reflect: generated regions, frontmatter, links, polarity, supersession, proposals."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workspace_memory.facts.model import Fact, evidence_hash, strip_entity_prefix
from workspace_memory.facts.supersession import slots, superseded_ids
from workspace_memory.facts.textmatch import analyze, cluster
from workspace_memory.reflect.proposals import Proposal, apply_core, core_proposals
from workspace_memory.reflect.regions import (
    RegionError,
    region_body,
    relative_link,
    replace_region,
    upsert_frontmatter,
)

# ------------------------------------------------------------------------------------------ regions


def test_replace_region_keeps_every_other_byte() -> None:
    text = "# Page\r\n\r\nmine  \r\n<!-- reflect:begin x -->\r\nold\r\n<!-- reflect:end x -->\r\ntail no newline"
    out = replace_region(text, "x", ["new 1", "new 2"])
    assert out == ("# Page\r\n\r\nmine  \r\n<!-- reflect:begin x -->\r\nnew 1\r\nnew 2\r\n"
                   "<!-- reflect:end x -->\r\ntail no newline")
    assert region_body(out, "x") == ["new 1", "new 2"]


def test_a_missing_region_is_appended_after_a_blank_line() -> None:
    assert replace_region("# T\nbody", "x", ["a"]) == "# T\nbody\n\n<!-- reflect:begin x -->\na\n<!-- reflect:end x -->\n"
    assert replace_region("", "x", []) == "<!-- reflect:begin x -->\n<!-- reflect:end x -->\n"


@pytest.mark.parametrize("text", [
    "<!-- reflect:begin x -->\nno end\n",
    "<!-- reflect:end x -->\n<!-- reflect:begin x -->\n",
    "<!-- reflect:begin x -->\n<!-- reflect:end x -->\n<!-- reflect:begin x -->\n<!-- reflect:end x -->\n",
])
def test_broken_markers_are_refused(text: str) -> None:
    with pytest.raises(RegionError):
        replace_region(text, "x", ["a"])


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_text_outside_the_region_survives_any_content(human: str) -> None:
    if "reflect:" in human:
        return
    out = replace_region(human, "x", ["generated"])
    assert out.startswith(human)
    again = replace_region(out, "x", ["generated"])
    assert again == out
    assert replace_region(out, "x", ["changed"]).startswith(human)


def test_upsert_frontmatter_touches_only_its_keys() -> None:
    text = "---\nname: Peter Steinberger\naliases:\n  - Pete   # nickname\nupdated: 2025-01-01\n---\n# P\n"
    out = upsert_frontmatter(text, {"name": "Peter", "aliases": "[]"}, {"updated": "2025-11-30"})
    assert out == text.replace("updated: 2025-01-01", "updated: 2025-11-30")
    bare = upsert_frontmatter("# P\n", {"name": "P"}, {"updated": "2025-11-30"})
    assert bare == "---\nname: P\nupdated: 2025-11-30\n---\n# P\n"


def test_relative_links_work_from_nested_pages() -> None:
    assert relative_link("bank/entities/Peter.md", "memory/2025-11-27.md", 12) == \
        "[memory/2025-11-27.md#L12](../../memory/2025-11-27.md#L12)"
    assert relative_link("bank/opinions.md", "memory/a b.md", 3) == "[memory/a b.md#L3](../memory/a%20b.md#L3)"
    assert relative_link("bank/world.md", "/abs/notes.md", 1) == "[/abs/notes.md#L1](/abs/notes.md#L1)"


# --------------------------------------------------------------------------------------- textmatch


@pytest.mark.parametrize(("a", "b", "opposite"), [
    ("Likes tea", "Dislikes tea", True),
    ("Likes tea", "No longer likes tea", True),
    ("Likes tea", "Doesn't like tea anymore", True),
    ("Prefers tea", "Avoids tea", True),
    ("Drinks coffee", "Stopped drinking coffee", True),
    ("Prefers concise replies; long content goes into files", "Prefers short replies", False),
    ("Is not a morning person", "Never a morning person", False),
])
def test_polarity(a: str, b: str, opposite: bool) -> None:
    assert (analyze(a).polarity != analyze(b).polarity) is opposite


def test_near_duplicates_merge_but_negations_do_not() -> None:
    assert cluster(["Lives in Vienna.", "Moved to London.", "lives in vienna"]) == [[0, 2], [1]]


def test_evidence_hash_ignores_case_and_spacing_not_the_file() -> None:
    assert evidence_hash("memory/a.md", "Peter  likes Tea") == evidence_hash("memory/a.md", "peter likes tea")
    assert evidence_hash("memory/a.md", "x") != evidence_hash("memory/b.md", "x")
    assert strip_entity_prefix("Peter: Likes tea", ("Peter",)) == "Likes tea"
    assert strip_entity_prefix("Peterson: x", ("Peter",)) == "Peterson: x"


# --------------------------------------------------------------------------------------- supersede


def fact(n: int, text: str, day: int, entities: tuple[str, ...] = ("peter",), kind: str = "world") -> Fact:
    return Fact(n, f"memory/2025-11-{day:02d}.md", 5, kind, text, None, date(2025, 11, day), entities)


def test_slots() -> None:
    assert slots("Lives in Vienna and works remotely for Acme.") == ("residence", "employer")
    assert slots("In Marrakech (Nov 27–Dec 1) for a birthday.") == ("whereabouts",)
    assert slots("Moved to London.") == ("residence", "whereabouts")
    assert slots("Likes tea.") == ()


def test_supersession_rules() -> None:
    facts = [
        fact(1, "Peter: Lives in Vienna.", 1),
        fact(2, "Peter: In Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.", 2),
        fact(3, "Peter: Back in Vienna since Dec 1, 2025.", 3),
        fact(4, "Peter: Moved to London.", 4),
        fact(5, "Peter: Likes tea.", 5),
        fact(6, "Peter: No longer likes tea.", 6),
        fact(7, "Peter: Works for Acme.", 7),
        fact(8, "Andy: Lives in Graz.", 8, ("andy",)),
        fact(9, "Peter: Lives in Paris.", 9, kind="experience"),
    ]
    assert superseded_ids(facts) == {1: 4, 2: 3, 3: 4, 5: 6}


def test_an_older_fact_with_two_slots_needs_both_restated() -> None:
    facts = [fact(1, "Peter: Lives in Vienna and works for Acme.", 1), fact(2, "Peter: Moved to London.", 2)]
    assert superseded_ids(facts) == {}
    assert superseded_ids([*facts, fact(3, "Peter: Joined Initech.", 3)]) == {1: 2}


# --------------------------------------------------------------------------------------- proposals


def test_recurring_facts_are_proposed_unless_already_in_core() -> None:
    facts = [fact(d, "Peter: Drinks espresso every morning.", d, kind="observation") for d in (1, 3, 5)]
    facts.append(fact(9, "Peter: Went to the cinema.", 9))
    found = core_proposals(facts, [], {}, "# Core\n")
    assert [p.text for p in found] == ["Peter: Drinks espresso every morning."] and found[0].days == 3
    assert core_proposals(facts, [], {}, "## Human\n- Peter: drinks espresso every morning\n") == []


def test_apply_core_appends_to_learned_and_respects_its_limit() -> None:
    props = [Proposal("Peter: Likes tea.", "r", "s", 3, None), Proposal("x" * 80, "r", "s", 3, None)]
    text, applied, refused = apply_core("# Core\n\n## Human\n- Name: Peter\n", props)
    assert text == "# Core\n\n## Human\n- Name: Peter\n\n## Learned\n- Peter: Likes tea.\n- " + "x" * 80 + "\n"
    assert len(applied) == 2 and refused == []
    limited = "# Core\n\n## Learned\n<!-- limit: 60 -->\n- a\n\n## Other\nkeep\n"
    text, applied, refused = apply_core(limited, props)
    assert [p.text for p in applied] == ["Peter: Likes tea."] and len(refused) == 1
    assert text == "# Core\n\n## Learned\n<!-- limit: 60 -->\n- a\n- Peter: Likes tea.\n\n## Other\nkeep\n"
