"""Trigger recall: <!-- trigger: ... --> annotations in MEMORY.md and bank pages, matched strongly,
at most 3 entries within 1,800 characters, each with its source; daily notes never qualify; and
distractor messages that share words or near-words with the triggers return nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_ok, write_files
from workspace_memory.agent.triggers import (
    MAX_CHARS,
    find_triggers,
    list_triggers,
    phrase_score,
    trigger_entries,
)

FILES = {
    "MEMORY.md": """\
# Core memory

## Human
<!-- trigger: espresso machine, coffee maker -->
- The espresso machine at the castle is broken; the part is ordered.
- Peter drinks espresso, never decaf.

## Health <!-- trigger: peanut, allergy -->
- Peter is allergic to peanuts: never suggest recipes with them.

## Style
- Keep WhatsApp replies short. <!-- trigger: whatsapp reply -->
- Long content goes into files.
""",
    "bank/entities/Andy.md": """\
# Andy

- Birthday on Nov 29; plan a surprise party. <!-- trigger: andy's birthday, birthday party -->
  He hates dinners in restaurants.
- Lives in Marrakech.
""",
    "bank/world.md": """\
# World

## Deploys
<!-- trigger: deploy freeze -->
No deploys on Fridays after 14:00 (team rule since March).
""",
    "memory/2025-11-20.md": """\
# 2025-11-20

- Talked about the espresso machine again. <!-- trigger: espresso machine -->
""",
    "memory/notes/long.md": "# Long\n\n" + "- filler\n" * 5,
}

STRONG = [
    ("Is the espresso machine fixed yet?", "MEMORY.md#L3-L6"),
    ("can you order a new coffee maker", "MEMORY.md#L3-L6"),
    ("the expresso machine is making noise", "MEMORY.md#L3-L6"),  # one typo in a long phrase
    ("Any dessert ideas without peanuts?", "MEMORY.md#L8-L9"),
    ("Peter has an allergy, right?", "MEMORY.md#L8-L9"),
    ("draft a whatsapp reply to Peter", "MEMORY.md#L12"),
    ("What should we do for Andy's birthday?", "bank/entities/Andy.md#L3-L4"),
    ("ideas for a birthday party", "bank/entities/Andy.md#L3-L4"),
    ("is there a deploy freeze this week", "bank/world.md#L3-L5"),
]

DISTRACTORS = [
    "Good morning! How are you today?",
    "Please summarise the meeting notes from Tuesday.",
    "The machine learning model needs retraining.",  # "machine" alone is not "espresso machine"
    "I'd like an espresso.",  # "espresso" alone neither
    "We deployed the fix.",  # "deploy" without "freeze"
    "freeze the requirements file",
    "Send Peter a message on Signal.",  # "reply" / "whatsapp" absent
    "It's my birthday tomorrow",  # "birthday" without "party" or "andy's"
    "the party starts at nine",
    "Can you reply to the email?",
    "Coffee or tea?",  # "coffee" without "maker"
    "The allergist called back.",  # not "allergy"
    "Pea soup for dinner",  # "pea" is not "peanut"
    "a trip to Tokyo",
]


@pytest.fixture
def sources() -> list[tuple[str, str]]:
    return list(FILES.items())


@pytest.mark.parametrize(("message", "source"), STRONG)
def test_strong_matches_return_the_entry_with_its_source(sources: list, message: str, source: str) -> None:
    found = find_triggers(message, sources)["results"]
    assert found and found[0]["source"] == source, found


@pytest.mark.parametrize("message", DISTRACTORS)
def test_no_false_positives_on_unrelated_messages(sources: list, message: str) -> None:
    assert find_triggers(message, sources)["results"] == []


def test_entries_are_compact_sections_or_items() -> None:
    core = {e.source: e for e in trigger_entries("MEMORY.md", FILES["MEMORY.md"])}
    assert core["MEMORY.md#L3-L6"].text == ("## Human\n- The espresso machine at the castle is broken; the part is "
                                            "ordered.\n- Peter drinks espresso, never decaf.")
    assert core["MEMORY.md#L8-L9"].phrases == ("peanut", "allergy")
    assert core["MEMORY.md#L12"].text == "- Keep WhatsApp replies short."
    andy = trigger_entries("bank/entities/Andy.md", FILES["bank/entities/Andy.md"])[0]
    assert andy.text == "- Birthday on Nov 29; plan a surprise party.\n  He hates dinners in restaurants."


def test_daily_notes_never_qualify(sources: list) -> None:
    found = find_triggers("espresso machine", sources)["results"]
    assert [r["path"] for r in found] == ["MEMORY.md"]


def test_listing_gives_every_entry_with_its_phrases(sources: list) -> None:
    """The list a runtime that matches messages itself gets (OpenClaw's trigger recall): the entries
    find_triggers chooses from, daily notes left out, each with its phrases; capped."""
    listed = list_triggers(sources)
    assert [r["source"] for r in listed["results"]] == ["MEMORY.md#L3-L6", "MEMORY.md#L8-L9", "MEMORY.md#L12",
                                                        "bank/entities/Andy.md#L3-L4", "bank/world.md#L3-L5"]
    assert listed["results"][0]["phrases"] == ["espresso machine", "coffee maker"] and listed["total"] == 5
    assert len(list_triggers(sources, limit=2)["results"]) == 2


def test_at_most_three_entries_within_the_budget() -> None:
    bank = "# Page\n\n" + "".join(f"## Topic {i} <!-- trigger: zeppelin -->\n" + "x" * 900 + "\n\n" for i in range(5))
    found = find_triggers("tell me about the zeppelin", [("bank/topics.md", bank)])
    assert len(found["results"]) == 3 and found["chars"] <= MAX_CHARS == 1800
    assert all(r["text"].endswith("…") for r in found["results"])


def test_scores() -> None:
    assert phrase_score("espresso machine", "the Espresso Machines") == 100
    assert phrase_score("tip", "a trip") == 0  # short words must match exactly
    assert phrase_score("東京", "来週は東京でミーティング") == 100
    assert phrase_score("deploy freeze", "deploy") == 0


def test_cli(workspace: Path) -> None:
    write_files(workspace, FILES)
    found = json.loads(run_ok(workspace, "triggers", "Is the espresso machine fixed?", "--json"))
    assert [r["source"] for r in found["results"]] == ["MEMORY.md#L3-L6"] and found["threshold"] == 90
    human = run_ok(workspace, "triggers", "Is the espresso machine fixed?")
    assert human.startswith("MEMORY.md#L3-L6  (trigger: espresso machine, score 100)")
    assert run_ok(workspace, "triggers", "Good morning") == ""
