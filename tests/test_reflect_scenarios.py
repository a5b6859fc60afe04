"""Reflect over multi-week workspaces: weekly cron runs, hand edits, deletions, idempotence (checked with git)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import build_workspace, register, run_memory
from pg_fixtures import store_environ
from workspace_memory.api import Memory
from workspace_memory.reflect import list_opinions, reflect
from workspace_memory.reflect.run import ReflectReport

TEA = "O(c=0.8) @Peter: Prefers tea over coffee in the morning."
TEA_KEY = "peter-prefers-tea-over-coffee-in-the"


def log(day: str, facts: list[str], notes: tuple[str, ...] = ("A normal day.",)) -> str:
    """A daily log with notes and a Retain section."""
    return (f"# {day}\n\n## Notes\n" + "".join(f"- {n}\n" for n in notes) + "\n## Retain\n"
            + "".join(f"- {f}\n" for f in facts))


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def run(root: Path, now: str, since: str = "7d", **kw: object) -> ReflectReport:
    with store_environ(root):
        mem = Memory.open(str(root), now=now)
        try:
            return reflect(mem.workspace, mem.store, mem.now, since, **kw)
        finally:
            mem.close()


def opinions(root: Path, entity: str | None = None) -> list[dict]:
    with store_environ(root):
        mem = Memory.open(str(root), now="2025-12-31")
        try:
            mem.refresh()
            return list_opinions(mem.workspace, mem.store, entity)
        finally:
            mem.close()


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


def commit(root: Path) -> None:
    if not (root / ".git").exists():
        git(root, "init", "-q")
        (root / ".gitignore").write_text(".memory/\n")  # as `memory init` writes it
    git(root, "add", "-A")
    git(root, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "snapshot", "--allow-empty")


def assert_second_run_is_a_noop(root: Path, now: str, since: str = "7d") -> None:
    commit(root)
    report = run(root, now, since)
    assert report.changed == [], report.changed
    assert git(root, "status", "--porcelain") == ""


@pytest.fixture
def weeks(tmp_path: Path, store: str, request: pytest.FixtureRequest) -> Path:
    """Four weeks of logs: an opinion formed, reinforced, contradicted twice; a move; duplicates (each store)."""
    root = register(tmp_path / "ws", request)
    write(root, "memory/2025-11-03.md", log("2025-11-03", [TEA, "W @Peter: Lives in Vienna.",
                                                          "B @warelay: I deployed the bridge to staging."]))
    write(root, "memory/2025-11-05.md", log("2025-11-05", [
        "O(c=0.9) @Peter: Prefers tea over coffee, asked for tea again.",
        "W @Peter: Lives in Vienna",
        "O @warelay: Baileys is reliable enough for production."]))
    write(root, "memory/2025-11-12.md", log("2025-11-12", [
        "O(c=0.8) @Peter: No longer prefers tea over coffee in the morning."]))
    write(root, "memory/2025-11-19.md", log("2025-11-19", ["O(c=0.8) @Peter: Avoids tea in the morning now."]))
    write(root, "memory/2025-11-26.md", log("2025-11-26", ["W @Peter: Moved to London.",
                                                          "O @warelay: Baileys is unreliable under load."]))
    return root


def test_weekly_cron_reinforces_contradicts_and_replaces_with_history(weeks: Path) -> None:
    first = run(weeks, "2025-11-09")
    assert sorted(first.stats.new) == [TEA_KEY,
                                       "warelay-baileys-is-reliable-enough-for-production"]
    [tea] = opinions(weeks, "Peter")
    assert tea["confidence"] > 0.8 and len(tea["evidence"]) == 2  # formed at 0.8, then reinforced
    assert_second_run_is_a_noop(weeks, "2025-11-09")

    second = run(weeks, "2025-11-16")
    assert second.stats.contradicted == {TEA_KEY}
    [tea2] = opinions(weeks, "@peter")
    assert tea["confidence"] - 0.2 - 1e-9 <= tea2["confidence"] < tea["confidence"]
    assert tea2["statement"] == "Peter: Prefers tea over coffee in the morning."
    assert_second_run_is_a_noop(weeks, "2025-11-16")

    third = run(weeks, "2025-11-23")
    assert third.stats.replaced == {TEA_KEY}
    [tea3] = opinions(weeks, "Peter")
    assert tea3["statement"] == "Peter: Avoids tea in the morning now."
    assert [h["event"] for h in tea3["history"]] == ["formed", "replaced"]
    assert tea3["history"][1]["statement"] == "Peter: Prefers tea over coffee in the morning."
    assert {e["source"] for e in tea3["evidence"] if e["role"] == "supporting"} == {
        "memory/2025-11-12.md#L7", "memory/2025-11-19.md#L7"}
    page = (weeks / "bank/opinions.md").read_text()
    assert 'statement replaced after repeated contradiction; was "Peter: Prefers tea over coffee' in page

    fourth = run(weeks, "2025-11-30")
    assert fourth.stats.contradicted == {"warelay-baileys-is-reliable-enough-for-production"}
    world = (weeks / "bank/world.md").read_text()
    assert ("- ~~Lives in Vienna~~ (superseded by [memory/2025-11-26.md#L7](../memory/2025-11-26.md#L7); "
            "residence: Lives in -> Moved)") in world  # what matched (facts.supersession.why)
    # The two "Lives in Vienna" facts are near-duplicates: one bullet, both sources.
    assert world.count("Lives in Vienna") == 1 and "; also [memory/2025-11-03.md#L8]" in world
    peter = (weeks / "bank/entities/Peter.md").read_text()
    assert "(replaces: ~~Lives in Vienna" in peter and "Avoids tea in the morning now. — confidence" in peter
    assert_second_run_is_a_noop(weeks, "2025-11-30")


def test_one_run_over_everything_equals_the_same_bytes_twice(weeks: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(weeks, twin)
    run(weeks, "2025-11-30T18:00", "60d")
    run(twin, "2025-11-30T18:00", "60d")
    for page in sorted((weeks / "bank").rglob("*.md")):
        rel = page.relative_to(weeks)
        assert page.read_bytes() == (twin / rel).read_bytes(), rel


def test_hand_edits_are_the_new_baseline_and_notes_survive(weeks: Path) -> None:
    run(weeks, "2025-11-09")
    page = weeks / "bank/opinions.md"
    text = page.read_text()
    text = text.replace("## warelay: Baileys is reliable enough for production.",
                        "## warelay: Baileys is good enough for production.")
    text = text.replace("- confidence: 0.84", "- confidence: 0.4", 1)
    text = text.replace("<!-- reflect:end evidence -->\n", "<!-- reflect:end evidence -->\n\nPeter told me "
                        "in person, too. *Hand note.*\n", 1)
    page.write_text(text)
    report = run(weeks, "2025-11-10")
    assert report.hand_edits == 2
    after = page.read_text()
    assert "Peter told me in person, too. *Hand note.*\n" in after
    assert "## warelay: Baileys is good enough for production." in after and "- confidence: 0.4\n" in after
    [tea] = opinions(weeks, "Peter")
    assert tea["confidence"] == 0.4 and tea["history"][-1] == {
        "day": "2025-11-10", "event": "set", "statement": tea["statement"], "confidence": 0.845, "value": 0.4}
    # New evidence moves the confidence from the human's baseline, within the bounds; from 0.4 a
    # contradiction at 0.8 is a changed mind: the new view is current, the old one superseded.
    run(weeks, "2025-11-16")
    tea2, newer = opinions(weeks, "Peter")
    assert 0.2 - 1e-9 <= tea2["confidence"] < 0.4 and not tea2["current"]
    assert newer["current"] and newer["statement"] == tea2["superseded_by"]
    assert "Peter told me in person, too. *Hand note.*\n" in page.read_text()
    assert_second_run_is_a_noop(weeks, "2025-11-16")


def test_a_deleted_opinion_stays_deleted_until_newer_evidence(weeks: Path) -> None:
    run(weeks, "2025-11-09")
    page = weeks / "bank/opinions.md"
    text = page.read_text()
    start = text.index("## warelay: Baileys is reliable")
    end = text.index("<!-- reflect:begin state -->")
    page.write_text(text[:start] + text[end:])
    report = run(weeks, "2025-11-10", "400d")
    assert report.deleted == 1 and "Baileys is reliable" not in page.read_text().split("reflect:begin state")[0]
    # Old evidence (even a day written before the deletion and seen only now) does not bring it back.
    write(weeks, "memory/2025-11-07.md", log("2025-11-07", ["O @warelay: Baileys is reliable enough for prod."]))
    again = run(weeks, "2025-11-10", "400d")
    assert again.stats.new == set() and again.stats.suppressed == 1
    assert [o["key"] for o in opinions(weeks, "warelay")] == []
    # A rebuilt index changes nothing either: the tombstone lives in the Markdown.
    shutil.rmtree(weeks / ".memory")
    assert run(weeks, "2025-11-10", "400d").stats.new == set()
    # Evidence written after the deletion may create it again.
    write(weeks, "memory/2025-11-11.md", log("2025-11-11", ["O @warelay: Baileys is reliable enough again."]))
    later = run(weeks, "2025-11-11")
    assert len(later.stats.new) == 1
    assert [o["statement"] for o in opinions(weeks, "warelay")] == ["warelay: Baileys is reliable enough again."]


def test_no_double_counting_after_rebuild_line_shifts_and_typo_fixes(weeks: Path) -> None:
    run(weeks, "2025-11-09")
    before = opinions(weeks)
    commit(weeks)
    shutil.rmtree(weeks / ".memory")  # the derived index is thrown away and rebuilt
    assert run(weeks, "2025-11-09").changed == []
    # Lines move: three notes inserted above the facts. Evidence follows its fact; nothing is re-applied.
    path = weeks / "memory/2025-11-03.md"
    path.write_text(path.read_text().replace("## Notes\n", "## Notes\n- one\n- two\n- three\n"))
    moved = run(weeks, "2025-11-09")
    assert moved.stats.applied == 0 and moved.changed
    after = opinions(weeks)
    assert [o["confidence"] for o in after] == [o["confidence"] for o in before]
    assert after[0]["evidence"][0]["source"] == "memory/2025-11-03.md#L10"
    # A typo fixed in an applied fact: same line, new text -> the ledger adopts it.
    path.write_text(path.read_text().replace("in the morning.", "in the mornings."))
    fixed = run(weeks, "2025-11-09")
    assert fixed.stats.applied == 0 and fixed.stats.relinked == 1
    assert [o["confidence"] for o in opinions(weeks)] == [o["confidence"] for o in before]


def test_human_text_on_bank_pages_survives_byte_for_byte(tmp_path: Path) -> None:
    root = build_workspace(tmp_path / "ws")
    originals = {p.relative_to(root).as_posix(): p.read_text() for p in (root / "bank").rglob("*.md")}
    core = (root / "MEMORY.md").read_bytes()
    report = run(root, "2025-11-30T18:00", "60d")
    assert report.entity_pages >= 5 and not report.notices
    for rel, old in originals.items():
        new = (root / rel).read_text()
        if rel == "bank/entities/README.md":
            assert new == old
        elif rel == "bank/opinions.md":
            assert new.startswith(old + "\n## ")  # new opinion sections come after the human's text
        else:
            assert _without_generated(new) == _without_generated(old), rel
    castle = (root / "bank/entities/The-Castle.md").read_text()
    assert castle.startswith("---\nname: The Castle\naliases:\n  - castle\nupdated: 2025-11-30\n---\n")
    assert "- Peter prefers concise replies (confidence 0.9).\n" in (root / "bank/opinions.md").read_text()
    assert (root / "MEMORY.md").read_bytes() == core


def _without_generated(text: str) -> str:
    """The page minus reflect's regions and its `updated:` line: what the human owns."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("<!-- reflect:begin"):
            inside = True
        if not inside and not line.startswith("updated: "):
            out.append(line)
        if line.startswith("<!-- reflect:end"):
            inside = False
    return "\n".join(out).rstrip()


def test_crlf_pages_keep_their_line_endings(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write(root, "memory/2025-11-28.md", log("2025-11-28", ["W @Andy: Turns 40 on Nov 29, 2025."]))
    (root / "bank/entities").mkdir(parents=True)
    (root / "bank/entities/Andy.md").write_bytes(b"# Andy\r\n\r\nMy friend.\r\n")
    run(root, "2025-11-30")
    data = (root / "bank/entities/Andy.md").read_bytes()
    assert data.startswith(b"---\r\nname: Andy\r\naliases: []\r\nupdated: 2025-11-30\r\n---\r\n# Andy\r\n\r\nMy friend.\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_core_proposals_are_listed_and_applied_only_when_asked(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write(root, "MEMORY.md", "# Core memory\n\n## Human\n- Name: Peter\n")
    for day in ("2025-11-20", "2025-11-24", "2025-11-28"):
        write(root, f"memory/{day}.md", log(day, ["S @Peter: Drinks a double espresso every morning."]))
    report = run(root, "2025-11-30", "30d")
    assert [p.text for p in report.proposals] == ["Peter: Drinks a double espresso every morning."]
    assert "Drinks a double espresso" in (root / "bank/proposals.md").read_text()
    assert (root / "MEMORY.md").read_text() == "# Core memory\n\n## Human\n- Name: Peter\n"
    applied = run(root, "2025-11-30", "30d", apply_core=True)
    assert applied.applied_core == ["Peter: Drinks a double espresso every morning."]
    assert (root / "MEMORY.md").read_text().endswith("\n## Learned\n- Peter: Drinks a double espresso every morning.\n")
    assert "_Nothing to propose._" in (root / "bank/proposals.md").read_text()
    assert run(root, "2025-11-30", "30d", apply_core=True).changed == []


def test_dry_run_writes_nothing(weeks: Path) -> None:
    commit(weeks)
    report = run(weeks, "2025-11-30", "60d", dry_run=True)
    assert "bank/opinions.md" in report.changed and report.dry_run
    assert git(weeks, "status", "--porcelain") == ""


# ------------------------------------------------------------------------------------------------ CLI


def _reflect_is_registered() -> bool:
    code, _, _ = run_memory(None, "reflect", "--help", now=None)
    return code == 0


_SHIM = ("import sys; from workspace_memory import cli; from workspace_memory.cli.reflect_cmds import reflect, opinions; "
         "[cli.cli.add_command(c) for c in (reflect, opinions) if c.name not in cli.cli.commands]; cli.main()")


def cli(root: Path, *args: str, now: str = "2025-11-30T18:00") -> tuple[int, str, str]:
    """Run the installed `memory`, or (until cli.py registers the commands) the same CLI with them added."""
    if _registered():
        return run_memory(root, *args, now=now)
    import sys

    from conftest import clean_env

    proc = subprocess.run([sys.executable, "-c", _SHIM, "--workspace", str(root), "--now", now, *args],
                          capture_output=True, text=True, env=clean_env(), timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


_REGISTERED: list[bool] = []


def _registered() -> bool:
    if not _REGISTERED:
        _REGISTERED.append(_reflect_is_registered())
    return _REGISTERED[0]


def test_cli_summary_json_opinions_and_errors(weeks: Path) -> None:
    code, out, err = cli(weeks, "reflect", "--since", "60d")
    assert code == 0, err
    line = out.strip().splitlines()[0]
    # Baileys "reliable enough" at 0.7, then "unreliable under load" at 0.7: a changed mind (0.7 -> 0.5,
    # and the new view is held more firmly), so a third opinion is formed and the first superseded.
    assert line.startswith("reflect: 10 facts, 2 entity pages (2 changed), 3 opinions (3 new, ")
    assert line.endswith("s") and "files changed" in line
    code, out, err = cli(weeks, "reflect", "--since", "60d", "--json")
    data = json.loads(out)
    assert code == 0 and data["changed"] == [] and data["opinions"]["total"] == 3
    code, out, _ = cli(weeks, "opinions", "--entity", "warelay", "--json")
    old, new = json.loads(out)
    assert (old["current"], new["current"]) == (False, True) and old["until"] == "2025-11-26"
    assert old["superseded_by"] == new["statement"] == "warelay: Baileys is unreliable under load."
    code, out, _ = cli(weeks, "opinions", "--entity", "Peter", "--json")
    [op] = json.loads(out)
    assert set(op) >= {"statement", "entities", "confidence", "last_updated", "history", "evidence"}
    assert op["entities"] == ["Peter"] and all({"path", "line"} <= set(e) for e in op["evidence"])
    code, out, err = cli(weeks, "reflect", "--since", "soon")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--since" in err  # bad usage


def test_cli_a_second_reflect_waits_then_exits_0(weeks: Path) -> None:
    from workspace_memory.reflect.run import reflect_lock

    (weeks / ".memory").mkdir(exist_ok=True)
    with reflect_lock(weeks / ".memory") as held:
        assert held
        code, out, err = cli(weeks, "reflect")
    assert code == 0 and "another reflect is running" in out, (out, err)
    assert not (weeks / "bank/opinions.md").exists()


def test_reflect_while_memory_index_runs(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write(root, "memory.toml", '[embedding]\nprovider = "none"\n')  # lexical index only: no model to load
    for n in range(1, 29):
        day = f"2025-11-{n:02d}"
        notes = tuple(f"Note {i} about the warelay bridge and the staging box, day {n}." for i in range(60))
        write(root, f"memory/{day}.md", log(day, [f"W @Peter: Worked on topic {n % 5} with @warelay.",
                                                  "O(c=0.7) @Peter: Prefers short standups."], notes))
    indexer = subprocess.Popen([*_memory_cmd(root), "index", "--rebuild"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    code, out, err = cli(root, "reflect", "--since", "60d")
    index_out, index_err = indexer.communicate(timeout=120)
    assert indexer.returncode == 0, index_err
    assert code == 0 and "Traceback" not in err, err
    commit(root)
    assert cli(root, "reflect", "--since", "60d")[0] == 0
    assert git(root, "status", "--porcelain") == ""
    [op] = opinions(root, "Peter")
    assert len(op["evidence"]) == 28  # every fact applied exactly once, whatever the interleaving


def _memory_cmd(root: Path) -> list[str]:
    from conftest import memory_executable

    return [memory_executable(), "--workspace", str(root), "--now", "2025-11-30T18:00"]
