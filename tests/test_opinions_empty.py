"""`memory opinions` with nothing to list says why: no O facts, no reflect yet, or an unknown name.

Before this, a new user with six O facts and no reflect run read "no opinions" and could not
tell whether the facts were lost.
"""

from __future__ import annotations

from pathlib import Path

from conftest import run_ok, write_files

DAY = "memory/2025-11-28.md"


def test_no_o_facts_says_how_to_state_one(tmp_path: Path) -> None:
    run_ok(tmp_path, "init")
    out = run_ok(tmp_path, "opinions")
    assert out.startswith("no opinions: no O facts yet") and "memory retain" in out


def test_o_facts_before_the_first_reflect_point_at_reflect(tmp_path: Path) -> None:
    write_files(tmp_path, {DAY: "# d\n\n## Retain\n- O(c=0.6) @Ana: Likes green tea.\n- O(c=0.8) @Ana: Hates decaf.\n"
                                "- W @Bob: Lives in Porto.\n"})
    out = run_ok(tmp_path, "opinions")
    assert "2 O fact(s)" in out and "`memory reflect`" in out
    out = run_ok(tmp_path, "opinions", "--entity", "ana")
    assert out.startswith("no opinions about Ana in bank/opinions.md yet")
    run_ok(tmp_path, "reflect")
    assert "Likes green tea" in run_ok(tmp_path, "opinions")
    assert run_ok(tmp_path, "opinions", "--entity", "bob").strip() == "no opinions about Bob"
    out = run_ok(tmp_path, "opinions", "--entity", "zed")
    assert out.startswith("no opinions: no entity called 'zed'")
    assert run_ok(tmp_path, "opinions", "--entity", "zed", "--json").strip() == "[]"  # the contract: a list
    # An O fact about Bob retained after that reflect: not "no opinions about Bob", but why.
    run_ok(tmp_path, "retain", "O(c=0.7) @Bob: Prefers the train.")
    out = run_ok(tmp_path, "opinions", "--entity", "bob")
    assert out.startswith("no opinions about Bob in bank/opinions.md yet") and "1 O fact(s)" in out, out


def test_the_ui_says_the_same_for_an_entity_without_opinions() -> None:
    from workspace_memory.ui.views_entities import opinions_body

    assert "No opinions about Tomás." in str(opinions_body([], "Tomás"))
    assert "when memory reflect runs" not in str(opinions_body([], "Tomás"))
    assert "O facts become opinions when memory reflect runs" in str(opinions_body([], None))
