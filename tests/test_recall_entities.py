"""Entity questions on a workspace of a user's shape (issue 28): Retain facts about a few people,
newer facts about the same entity as distractors, bank pages written by reflect, init's templates.

Each defect a new user hit has its test here; the numbers come from `--explain`'s factors, so a
test fails when the mechanism it names is taken out, not only when a ranking moves.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import assert_one_line_error, run_memory, run_ok, write_files
from workspace_memory.api import Memory
from workspace_memory.recall import engine
from workspace_memory.recall.query import RecallRequest
from workspace_memory.workspace.init_templates import template_boilerplate

NOW = "2025-11-24T18:00"
DAYS = {
    "memory/2025-11-14.md": "# 2025-11-14\n\n## Retain\n"
                            "- W @Sam: Lost his blue umbrella at the PyData conference in Berlin.\n",
    "memory/2025-11-17.md": "# 2025-11-17\n\n## Notes\n- Second interview at Brightwave went well.\n\n## Retain\n"
                            "- W @Priya: Sam's former colleague, now a staff engineer at @Brightwave.\n"
                            "- O(c=0.6) @Sam: Rust is overhyped for data pipelines.\n",
    "memory/2025-11-19.md": "# 2025-11-19\n\n## Retain\n- W @Brightwave: Offered Sam 92k EUR plus equity.\n"
                            "- W @Sam: Asked for two weeks to decide.\n",
    "memory/2025-11-20.md": "# 2025-11-20\n\n## Notes\n- Dentist appointment moved to Dec 3.\n\n## Retain\n"
                            "- W @Priya: Told Sam to take the offer.\n",
    "memory/2025-11-21.md": "# 2025-11-21\n\n## Retain\n- W @Sam: Accepted the @Brightwave offer.\n"
                            "- W @Sam: Handed in his notice; last day Dec 31.\n",
    "memory/2025-11-22.md": "# 2025-11-22\n\n## Retain\n- W @Sam: Booked a table at Nobu for Friday.\n"
                            "- W @Sam: Renewed his passport.\n- O(c=0.8) @Sam: Rust is a good fit for backends.\n",
    "memory/2025-11-23.md": "# 2025-11-23\n\n## Retain\n- W @Sam: Started running again, 5 km.\n"
                            "- W @Sam: Bought a new bike helmet.\n- W @Sam: Called his mother.\n"
                            "- W @Brightwave: The probation period is six months.\n",
}


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`memory init`, a week of notes, `memory reflect`: what a user has after a week."""
    root = tmp_path_factory.mktemp("entities") / "ws"
    run_ok(root, "init", now=NOW)
    write_files(root, DAYS)
    run_ok(root, "reflect", "--since", "30d", now=NOW)
    run_ok(root, "index", now=NOW)
    return root


def recall(root: Path, query: str, mode: str = "lexical", k: int = 5, **options: object) -> list[dict]:
    mem = Memory.open(str(root), now=NOW)
    try:
        return mem.recall(RecallRequest(query, k=k, mode=mode, explain=True, **options))["results"]
    finally:
        mem.close()


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_naming_an_entity_is_not_relevance_to_what_is_asked_of_it(week: Path, mode: str) -> None:
    # Eight newer Sam facts share only the name; the umbrella answers.
    found = recall(week, "What did Sam lose at the conference?", mode)
    assert "umbrella" in found[0]["content"], [r["content"] for r in found]
    for r in found:
        if "entity" in r["explain"]["found_by"] and r["explain"]["channels"].get("lexical", 0) == 0:
            assert r["explain"]["factors"]["relevance"] < engine.ENTITY_FLOOR  # no floor for the name alone


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_an_entitys_facts_join_with_their_own_relevance(week: Path, mode: str) -> None:
    found = recall(week, "What salary did Brightwave offer?", mode, k=10)
    relevances = {r["content"]: r["explain"]["factors"]["relevance"] for r in found}
    assert len(set(relevances.values())) == len(relevances)  # not one flat 0.30 for every Brightwave fact
    assert relevances["Brightwave: Offered Sam 92k EUR plus equity."] > relevances[
        "Brightwave: The probation period is six months."]


def test_a_question_about_the_entity_alone_takes_its_facts_first(week: Path) -> None:
    found = recall(week, "who is Priya", "hybrid")
    assert [r["path"] for r in found[:2]] == ["memory/2025-11-20.md", "memory/2025-11-17.md"]
    assert all("Priya" in r["entities"] for r in found[:2])


def test_a_note_that_names_the_entity_without_at_is_about_it(week: Path) -> None:
    found = recall(week, "Brightwave interview", k=10)
    note = next(r for r in found if r["content"].startswith("- Second interview at Brightwave"))
    assert "entity" not in note["explain"]["factors"]  # no x ENTITY_MISS
    other = recall(week, "Brightwave dentist", k=10)
    dentist = next(r for r in other if "Dentist" in r["content"])
    assert dentist["explain"]["factors"]["entity"] == engine.ENTITY_MISS  # names no Brightwave


@pytest.mark.parametrize("query", ["Anything around the 20th?", "Anything around Nov 20?"])
@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_around_a_day_that_day_comes_first_then_its_neighbours(week: Path, query: str, mode: str) -> None:
    found = recall(week, query, mode, k=6)
    days = [r["timestamp"] for r in found]
    assert days[0] == "2025-11-20", days
    # one entry of each day per round, the days by distance from the 20th
    distance = [abs(int(d[-2:]) - 20) for d in days[:4]]
    assert distance == sorted(distance), days
    assert all(r["path"].startswith("memory/") for r in found)


def test_template_text_and_reflect_markup_never_come_back(week: Path) -> None:
    assert "Rust" in (week / "bank" / "opinions.md").read_text()  # reflect did write its sections
    boilerplate = template_boilerplate()
    queries = ["who is Priya", "what does Sam think of Rust", "objective facts about the world",
               "confidence evidence opinion", "agent first person", "Anything around the 20th?", "Name Timezone"]
    for query in queries:
        for mode in ("lexical", "hybrid"):
            for r in recall(week, query, mode, k=10):
                assert "reflect:" not in r["content"] and "<!--" not in r["content"], (query, r)
                assert " ".join(r["content"].split()) not in boilerplate, (query, r)
                assert r["path"] != "bank/opinions.md", (query, r)


def test_a_bank_copy_of_a_fact_never_outranks_the_fact(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    run_ok(root, "init", now=NOW)
    write_files(root, DAYS)
    world = root / "bank" / "world.md"
    # A person copied the fact onto the bank page, with more of the question's words around it.
    world.write_text(world.read_text() + "\n- Conference lost and found: Lost his blue umbrella at the PyData "
                     "conference in Berlin.\n", encoding="utf-8")
    found = recall(root, "lost umbrella conference lost and found", k=3)
    assert found[0]["path"] == "memory/2025-11-14.md", [r["source"] for r in found]
    assert all(r["path"] != "bank/world.md" for r in found)


def test_kind_takes_plural_names_and_refuses_unknown_ones(week: Path) -> None:
    out = json.loads(run_ok(week, "recall", "Rust", "--kind", "opinions", "--json", now=NOW))
    assert out["results"] and {r["kind"] for r in out["results"]} == {"opinion"}
    code, _, err = run_memory(week, "recall", "Rust", "--kind", "opinons", now=NOW)
    assert "--kind 'opinons'" in assert_one_line_error(code, _, err)


def test_since_means_the_same_in_recall_and_export(week: Path) -> None:
    root = week.parent / "since"
    run_ok(root, "init", now=NOW)
    # Written 7 days before now about a day 9 days ahead; written 1 day before now about last year.
    write_files(root, {"memory/2025-11-17.md": "# 2025-11-17\n\n## Retain\n- W @Sam: Dentist on Dec 3, 2025.\n",
                       "memory/2025-11-23.md": "# 2025-11-23\n\n## Retain\n- W @Sam: Lived in Porto in 2019.\n"})
    recalled = json.loads(run_ok(root, "recall", "Sam", "--since", "3d", "--json", "--mode", "lexical", now=NOW))
    exported = [json.loads(line) for line in run_ok(root, "export", "--since", "3d", now=NOW).splitlines()]
    assert [r["content"] for r in recalled["results"]] == ["Sam: Dentist on Dec 3, 2025."]
    assert [r["content"] for r in exported] == ["Sam: Dentist on Dec 3, 2025."]


def test_an_unknown_entity_points_to_the_list_of_entities(week: Path) -> None:
    code, out, err = run_memory(week, "recall", "Rust", "--entity", "Nobody", now=NOW)
    assert "memory entities" in assert_one_line_error(code, out, err)


def test_a_question_about_one_slot_takes_the_newer_fact_for_that_slot(tmp_path: Path) -> None:
    """"Lives in Vienna and works for Acme" is not wholly replaced by "Moved to London" (the employer
    still holds), but a question about where Peter lives asks about the residence only."""
    root = tmp_path / "ws"
    write_files(root, {"MEMORY.md": "# Core\n",
                       "memory/2025-11-20.md": "# 2025-11-20\n\n## Retain\n"
                                               "- W @Peter: Lives in Vienna and works remotely for @Acme.\n",
                       "memory/2025-11-23.md": "# 2025-11-23\n\n## Retain\n- W @Peter: Moved to London.\n"})
    for mode in ("lexical", "hybrid"):
        lives = recall(root, "where does Peter live", mode)
        assert lives[0]["content"] == "Peter: Moved to London.", (mode, lives)
        assert lives[1]["explain"]["factors"]["superseded"] < 1
        works = recall(root, "where does Peter work", mode)
        assert works[0]["content"].startswith("Peter: Lives in Vienna and works remotely"), (mode, works)
        assert "superseded" not in works[0]["explain"]["factors"]
