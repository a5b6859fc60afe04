"""Core memory blocks (MEMORY.md ## sections): parsing, limits, read-only, edits and their diffs, the CLI,
the index following an edit, and two processes editing one block at once."""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import assert_one_line_error, clean_env, recall_json, run_memory, run_ok
from workspace_memory.agent import core
from workspace_memory.agent.core import CoreSettings, parse_core
from workspace_memory.errors import CoreEditError, UserError
from workspace_memory.reflect.proposals import Proposal, apply_core

TEXT = """\
# Core memory

## Persona
<!-- limit: 120 -->
I am a careful assistant.

## Human
- Name: Peter
- Drinks espresso, never decaf.
- Timezone: Europe/Vienna

## Projects
- warelay: the WhatsApp relay
"""


def changed_lines(old: str, new: str) -> list[str]:
    """The lines a line diff of two texts touches ('-x' / '+y'), computed independently of the code."""
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old.split("\n"), new.split("\n")).get_opcodes():
        if tag != "equal":
            out += [f"-{x}" for x in old.split("\n")[i1:i2]] + [f"+{y}" for y in new.split("\n")[j1:j2]]
    return out


def test_blocks_are_the_level_two_sections_with_their_limits() -> None:
    doc = parse_core(TEXT, CoreSettings(limit=500, limits={"projects": 50}, read_only=frozenset({"human"})))
    assert [(b.label, b.line, b.limit, b.read_only) for b in doc.blocks] == [
        ("Persona", 3, 120, False),  # the annotation
        ("Human", 7, 500, True),  # [core] limit, read-only from the config
        ("Projects", 12, 50, False),  # [core] limits wins
    ]
    assert doc.blocks[0].value == "I am a careful assistant."  # the annotation is not part of the value
    assert doc.blocks[1].chars == len("- Name: Peter\n- Drinks espresso, never decaf.\n- Timezone: Europe/Vienna")
    assert parse_core(TEXT).blocks[1].limit == core.DEFAULT_LIMIT


def test_a_config_limit_beats_the_files_annotation() -> None:
    assert parse_core(TEXT, CoreSettings(limits={"persona": 999})).blocks[0].limit == 999


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda t: core.append(t, "human", "- Likes green tea."), ["+- Likes green tea."]),
    (lambda t: core.insert(t, "Human", "- First", 1), ["+- First"]),
    (lambda t: core.insert(t, "Human", "- Last", -1), ["+- Last"]),
    (lambda t: core.replace(t, "Human", "espresso", "tea"),
     ["-- Drinks espresso, never decaf.", "+- Drinks tea, never decaf."]),
    (lambda t: core.replace(t, "Human", "- Drinks espresso, never decaf.", ""), ["-- Drinks espresso, never decaf."]),
    (lambda t: core.rethink(t, "Persona", "I am brief."), ["-I am a careful assistant.", "+I am brief."]),
])
def test_each_edit_touches_only_the_lines_it_changes(edit, expected: list[str]) -> None:
    result = edit(TEXT)
    assert changed_lines(TEXT, result.text) == expected
    assert [line for line in result.diff.split("\n") if not line.startswith("@@")] == expected


def test_create_and_delete_blocks() -> None:
    created = core.create(TEXT, "Open threads", "- ask Peter about the roof")
    assert created.text == TEXT + "\n## Open threads\n- ask Peter about the roof\n"
    assert core.delete(created.text, "open threads").text == TEXT
    middle = core.delete(TEXT, "Human").text
    assert middle == TEXT.replace("## Human\n- Name: Peter\n- Drinks espresso, never decaf.\n- Timezone: Europe/Vienna\n\n", "")
    with pytest.raises(CoreEditError, match="already exists"):
        core.create(TEXT, "human")


def test_replace_refuses_zero_or_several_occurrences_naming_the_lines() -> None:
    with pytest.raises(CoreEditError) as several:
        core.replace(TEXT, "Human", "- ", "* ")
    assert "occurs 3 times in block 'Human' (lines 8, 9, 10)" in str(several.value)
    with pytest.raises(CoreEditError) as none:
        core.replace(TEXT, "Human", "careful", "x")
    assert "does not occur in block 'Human'" in str(none.value) and "it occurs in block 'Persona'" in str(none.value)


def test_limits_and_read_only_refuse_with_a_message() -> None:
    with pytest.raises(CoreEditError, match=r"block Persona would be 1\d\d chars, limit 120"):
        core.append(TEXT, "Persona", "x" * 100)
    settings = CoreSettings(read_only=frozenset({"human"}))
    for edit in (lambda: core.append(TEXT, "Human", "- x", settings), lambda: core.delete(TEXT, "Human", settings),
                 lambda: core.rethink(TEXT, "Human", "x", settings)):
        with pytest.raises(CoreEditError, match="block 'Human' is read-only"):
            edit()
    # A block already over its limit may shrink (so an agent can repair it), not grow.
    over = TEXT.replace("I am a careful assistant.", "y" * 200)
    assert parse_core(core.rethink(over, "Persona", "y" * 150).text).find("Persona").value == "y" * 150
    with pytest.raises(CoreEditError, match="would be 202 chars, limit 120"):
        core.append(over, "Persona", "z")


def test_edits_cannot_open_blocks_or_raise_limits() -> None:
    with pytest.raises(CoreEditError, match="heading"):
        core.append(TEXT, "Human", "## Sneaky\n- x")
    with pytest.raises(CoreEditError, match="limits cannot be written"):
        core.append(TEXT, "Human", "<!-- limit: 99999 -->")
    assert "<!-- limit: 120 -->" in core.replace(TEXT, "Persona", "careful", "calm").text
    with pytest.raises(CoreEditError, match="does not occur"):
        core.replace(TEXT, "Persona", "limit: 120", "limit: 9999")  # annotations are not editable text
    assert core.append(TEXT, "Human", "```sh\n# a comment in code\n```").changed


def test_core_settings_are_checked() -> None:
    assert CoreSettings.from_mapping({"limit": 900, "read_only": ["Persona"], "limits": {"Human": 10}}).limits == {
        "human": 10}
    for bad in ({"limit": 0}, {"limit": "big"}, {"read_only": "Persona"}, {"limits": {"Human": -1}}, {"colour": 1}):
        with pytest.raises(UserError, match=r"\[core\]"):
            CoreSettings.from_mapping(bad)


def test_reflect_learned_block_follows_the_same_rules() -> None:
    text = "# Core\n\n## Learned\n<!-- limit: 60 -->\n- a\n\n## Other\nkeep\n"
    props = [Proposal("Peter: Likes tea.", "r", "s", 3, None), Proposal("x" * 80, "r", "s", 3, None)]
    new, applied, refused = apply_core(text, props)
    assert [p.text for p in applied] == ["Peter: Likes tea."] and len(refused) == 1
    learned = parse_core(new).find("Learned")
    assert learned is not None and learned.limit == 60 and learned.chars <= 60
    _, applied, refused = apply_core(text, props, CoreSettings(read_only=frozenset({"learned"})))
    assert applied == [] and len(refused) == 2


# -- the CLI, end to end -------------------------------------------------------------------------


def test_cli_show_and_edit_round_trip(workspace: Path) -> None:
    shown = run_ok(workspace, "core", "show")
    assert '<block label="Human" chars_current="71" chars_limit="2000">' in shown
    data = json.loads(run_ok(workspace, "core", "show", "--json"))
    assert [b["label"] for b in data["blocks"]] == ["Persona", "Human"]
    before = (workspace / "MEMORY.md").read_text()
    out = run_ok(workspace, "core", "append", "Human", "- Keeps bees on the roof.")  # a bullet: looks like an option
    assert "append block Human (71 -> 97 of 2000 chars)" in out and "+- Keeps bees on the roof." in out
    after = (workspace / "MEMORY.md").read_text()
    assert changed_lines(before, after) == ["+- Keeps bees on the roof."]
    edited = json.loads(run_ok(workspace, "core", "replace", "Human", "bees", "three beehives", "--json"))
    assert edited["changed"] and edited["diff"].endswith("+- Keeps three beehives on the roof.")
    run_ok(workspace, "core", "insert", "Human", "- Born in Graz.", "--line", "2")
    assert (workspace / "MEMORY.md").read_text().split("\n")[6:8] == ["- Name: Peter", "- Born in Graz."]
    run_ok(workspace, "core", "create", "Projects", "- warelay")
    run_ok(workspace, "core", "rethink", "Projects", "- warelay\n- the castle roof")
    run_ok(workspace, "core", "delete", "Projects")
    assert "Projects" not in (workspace / "MEMORY.md").read_text()


def test_cli_refusals_are_one_line_and_write_nothing(workspace: Path) -> None:
    (workspace / "memory.toml").write_text('[core]\nread_only = ["Persona"]\nlimits = { Human = 80 }\n')
    before = (workspace / "MEMORY.md").read_bytes()
    cases = [
        (("core", "replace", "Human", "e", "x"), "occurs"),
        (("core", "replace", "Human", "tea", "x"), "does not occur"),
        (("core", "append", "Human", "- a much longer line"), "block Human would be 92 chars, limit 80"),
        (("core", "rethink", "Persona", "new"), "read-only"),
        (("core", "append", "Nope", "x"), "no block 'Nope'"),
        (("core", "insert", "Human", "x", "--line", "9"), "line 9 is outside block"),
        (("core", "append", "Human", "--colour", "x"), "No such option '--colour'"),
    ]
    for args, message in cases:
        line = assert_one_line_error(*run_memory(workspace, *args))
        assert message in line, line
    assert (workspace / "MEMORY.md").read_bytes() == before


def test_crlf_and_bom_are_kept(workspace: Path) -> None:
    raw = "\ufeff# Core\r\n\r\n## Human\r\n- Name: Peter\r\n"
    (workspace / "MEMORY.md").write_bytes(raw.encode("utf-8"))
    run_ok(workspace, "core", "append", "Human", "- Likes tea.")
    assert (workspace / "MEMORY.md").read_bytes() == (raw + "- Likes tea.\r\n").encode("utf-8")


def test_the_index_follows_an_edit(indexed_workspace: Path) -> None:
    run_ok(indexed_workspace, "core", "append", "Human", "- Allergic to hazelnuts.")
    with __import__("conftest").index_db(indexed_workspace) as conn:
        assert conn.execute("SELECT COUNT(*) FROM chunks WHERE text LIKE '%hazelnuts%'").fetchone()[0] == 1
    hit = recall_json(indexed_workspace, "hazelnuts")["results"][0]
    assert hit["path"] == "MEMORY.md" and hit["content"] == "- Allergic to hazelnuts."


EDITOR = textwrap.dedent("""
    import sys
    from workspace_memory.api import Memory
    from workspace_memory.errors import MemoryError_
    mem = Memory.open(sys.argv[1], "2025-11-30T18:00")
    who = sys.argv[2]
    for i in range(50):
        try:
            if i % 5 == 4:  # every fifth edit rewrites one of its own lines
                mem.core_replace("Human", f"- {who} edit {i - 1}.", f"- {who} edit {i - 1} (revised).")
            else:
                mem.core_append("Human", f"- {who} edit {i}.")
            print("ok", i, flush=True)
        except MemoryError_ as exc:
            print("refused", i, exc, flush=True)
""")


def test_two_processes_editing_one_block_lose_nothing(workspace: Path) -> None:
    # A limit that the 100 edits run into: some are refused, and a refused edit must leave no trace.
    (workspace / "memory.toml").write_text("[core]\nlimits = { Human = 900 }\n")
    env = clean_env()
    procs = [subprocess.Popen([sys.executable, "-c", EDITOR, str(workspace), who], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env) for who in ("A", "B")]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outputs
    value = parse_core((workspace / "MEMORY.md").read_text()).find("Human").value
    lines = value.split("\n")
    assert len(value) <= 900
    applied = refused = 0
    for who, (out, _) in zip(("A", "B"), outputs, strict=True):
        status = {int(r[1]): (r[0], r[2] if len(r) > 2 else "") for r in (x.split(" ", 2) for x in out.strip().split("\n"))}
        assert sorted(status) == list(range(50)), out
        for i, (state, message) in status.items():
            applied += state == "ok"
            refused += state == "refused"
            assert state == "ok" or "would be" in message or "does not occur" in message, message
            if i % 5 == 4:
                continue  # a replace: judged with the line it rewrote
            revised = status.get(i + 1, ("", ""))[0] == "ok" and i % 5 == 3
            mine = f"- {who} edit {i} (revised)." if revised else f"- {who} edit {i}."
            assert lines.count(mine) == (1 if state == "ok" else 0), (who, i, state)
    assert applied + refused == 100 and applied > 20 and refused > 0
    assert len(lines) == 3 + sum(1 for line in lines if " edit " in line)
