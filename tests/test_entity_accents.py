"""A name typed without its accents finds the entity ("tomas" is @Tomás), everywhere a name is read.

People type names on a phone or a US keyboard without their accents; the entity resolver folds
the accents of Latin letters on both sides (facts.entities.fold), never other scripts' marks.
An unknown name's error names the nearest entities and the command that lists them.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import assert_one_line_error, run_memory, run_ok, write_files
from workspace_memory.facts.entities import fold, resolve
from workspace_memory.facts.entity_info import EntityInfo

FILES = {
    "memory/2025-11-28.md": (
        "# 2025-11-28\n\n## Retain\n"
        "- W @Tomás: Moved from Madrid to Lisbon; works remotely.\n"
        "- W @Zoë-Müller: Runs the bakery on the corner.\n"
        "- O(c=0.7) @Tomás: Lisbon is too expensive for a freelancer.\n"
        "- W @Jonas: Is the team lead.\n"
    ),
}


def test_fold_takes_latin_accents_off_and_leaves_other_scripts() -> None:
    assert fold("tomás") == "tomas"
    assert fold("zoë müller") == "zoe muller"
    assert fold("łódź") == "łodz"  # ł is a letter of its own, not l with a mark
    assert fold("йод") == "йод"  # Cyrillic й is not и
    assert fold("がっこう") == "がっこう"  # a voiced kana is another kana
    assert fold("plain") == "plain"


def test_resolve_ignores_accents_both_ways() -> None:
    known = [EntityInfo("tomás", "Tomás", "Tomás", None), EntityInfo("renee", "Renee", "Renee", None)]
    assert resolve(known, "tomas") == "tomás"
    assert resolve(known, "TOMÁS") == "tomás"
    assert resolve(known, "Renée") == "renee"  # an accent typed where the note has none


def test_cli_entity_opinions_and_recall_find_a_name_typed_without_accents(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    out = run_ok(tmp_path, "entity", "tomas", "--json")
    assert json.loads(out)["entity"] == "Tomás"
    assert json.loads(run_ok(tmp_path, "entity", "zoe muller", "--json"))["entity"] == "Zoë Müller"
    run_ok(tmp_path, "reflect")
    assert "Lisbon is too expensive" in run_ok(tmp_path, "opinions", "--entity", "tomas")
    hits = json.loads(run_ok(tmp_path, "recall", "where does Tomas live?", "--json", "--mode", "lexical",
                             "--explain"))["results"]
    assert hits[0]["source"] == "memory/2025-11-28.md#L4"
    assert "entity" in hits[0]["explain"]["found_by"]


def test_an_unknown_name_says_what_is_near_and_where_the_list_is(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    line = assert_one_line_error(*run_memory(tmp_path, "entity", "Jonah"))
    assert "no entity called 'Jonah'" in line and "did you mean 'Jonas'" in line
    assert "`memory entities` lists all 3" in line
    line = assert_one_line_error(*run_memory(tmp_path, "entity", "xyzzy"))
    assert "did you mean" not in line and "`memory entities`" in line
    line = assert_one_line_error(*run_memory(tmp_path, "entity", " @ "))
    assert line == "memory: error: give an entity's name (`memory entities` lists them)"


def test_an_empty_workspace_says_how_an_entity_comes_to_be(tmp_path: Path) -> None:
    run_ok(tmp_path, "init")
    line = assert_one_line_error(*run_memory(tmp_path, "entity", "Ana"))
    assert "no entities yet" in line and "@Name" in line
