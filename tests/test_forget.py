"""`memory forget`: facts marked as no longer true, visibly and reversibly (issue 13, part 3)."""

from __future__ import annotations

import json
import re
import threading
from datetime import date
from pathlib import Path

import pytest

from conftest import assert_one_line_error, disk_lines, line_of, recall_json, run_memory, run_ok
from workspace_memory.markdown.parse import parse_markdown
from workspace_memory.markdown.retain import INVALID_UNKNOWN, invalid_mark, mark_invalid, parse_retain_bullet

LOG = "memory/2025-11-10.md"
VIENNA = "W @Peter: Lives in Vienna and works remotely for @Acme."


# ------------------------------------------------------------------------------------------ grammar


def test_a_struck_bullet_is_its_fact_with_the_day_and_reason_it_stopped_being_true() -> None:
    struck = mark_invalid(VIENNA, "2025-12-01", "moved to London (for good)")
    assert struck == f"~~{VIENNA}~~ (invalid since 2025-12-01: moved to London (for good))"
    fact = parse_retain_bullet(struck, date(2025, 11, 10)).fact
    assert fact is not None and (fact.kind, fact.entities, fact.bullet) == ("world", ("Peter", "Acme"), VIENNA)
    assert (fact.invalid_at, fact.invalid_reason) == ("2025-12-01", "moved to London (for good)")
    assert fact.occurred is None  # the annotation's date is not a time the fact states
    by_hand = parse_retain_bullet(f"~~{VIENNA}~~", date(2025, 11, 10)).fact
    assert by_hand is not None and by_hand.invalid_at == "2025-11-10"  # struck by hand: since it was written
    assert parse_retain_bullet(f"~~{VIENNA}~~", None).fact.invalid_at == INVALID_UNKNOWN
    assert parse_retain_bullet(VIENNA, None).fact.invalid_at is None
    assert invalid_mark("W a ~~b~~ c") is None  # strikes inside a fact are just text
    assert invalid_mark("~~W x~~ (invalid since 2025-13-45)").day is None  # no such day


def test_every_piece_of_a_struck_fact_is_invalid() -> None:
    long = "W @Peter: " + " ".join(f"word{n}" for n in range(400))
    doc = parse_markdown(f"# Day\n\n## Retain\n- {mark_invalid(long, '2025-12-01')}\n", date(2025, 11, 10))
    assert len(doc.chunks) > 1 and {c.invalid_at for c in doc.chunks} == {"2025-12-01"}
    assert doc.chunks[0].fact.bullet == long and doc.chunks[0].fact_end_line == 4


# ------------------------------------------------------------------------------------------ the command


def test_forget_strikes_the_bullet_recall_leaves_it_out_and_undo_restores_every_byte(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    original = (ws / LOG).read_bytes()
    number = line_of(ws, LOG, "Lives in Vienna")
    done = json.loads(run_ok(ws, "forget", "Lives in Vienna", "--reason", "moved to London", "--json"))
    assert done["source"] == f"{LOG}#L{number}" and done["invalid_at"] == "2025-11-30"
    assert disk_lines(ws, LOG)[number - 1] == f"- ~~{VIENNA}~~ (invalid since 2025-11-30: moved to London)"
    changed = [n for n, (a, b) in enumerate(zip(original.split(b"\n"), (ws / LOG).read_bytes().split(b"\n"),
                                                strict=True)) if a != b]
    assert changed == [number - 1]  # a one-line diff
    query = "where does Peter live Vienna Acme"
    assert f"{LOG}#L{number}" not in [r["source"] for r in recall_json(ws, query)["results"]]
    shown = {r["source"]: r for r in recall_json(ws, query, "--include-invalid")["results"]}
    assert shown[f"{LOG}#L{number}"]["invalid_at"] == "2025-11-30"
    assert "invalid_at" not in next(r for s, r in shown.items() if s != f"{LOG}#L{number}")
    status = json.loads(run_ok(ws, "status", "--json"))
    assert status["invalid_facts"] == 1 and status["warnings"] == json.loads(
        run_ok(ws, "status", "--json"))["warnings"]
    run_ok(ws, "forget", "--undo", f"{LOG}#L{number}")
    assert (ws / LOG).read_bytes() == original
    assert f"{LOG}#L{number}" in [r["source"] for r in recall_json(ws, query)["results"]]


def test_a_bullet_over_several_lines_is_struck_and_restored(workspace: Path) -> None:
    log = workspace / "memory" / "2025-11-29.md"
    text = "# 2025-11-29\n\n## Retain\n- W @Andy: Runs the bakery on Rua Augusta\n  with his sister since 2019.\n"
    log.write_text(text, encoding="utf-8")
    run_ok(workspace, "forget", "bakery on Rua Augusta with his sister", "--date", "2025-11-29")
    assert disk_lines(workspace, "memory/2025-11-29.md")[3:5] == [
        "- ~~W @Andy: Runs the bakery on Rua Augusta", "  with his sister since 2019.~~ (invalid since 2025-11-29)"]
    assert recall_json(workspace, "bakery Rua Augusta")["results"] == []
    run_ok(workspace, "forget", "--undo", "bakery")
    assert log.read_text(encoding="utf-8") == text


def test_the_fact_is_found_again_after_lines_were_added_above_it(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    path = ws / LOG
    path.write_text("<!-- a comment -->\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    # The index still has the old line numbers when forget re-reads the file under its lock.
    from workspace_memory.workspace.forget import strike
    from workspace_memory.workspace.layout import Workspace

    number = line_of(ws, LOG, "Lives in Vienna")
    written = strike(Workspace.open(ws), LOG, number - 1, number - 1, VIENNA, "2025-11-30", None)
    assert written.line == number and disk_lines(ws, LOG)[number - 1].startswith("- ~~W @Peter")


@pytest.mark.parametrize(("args", "needle"), [
    (("Prefers concise replies",), "2 valid facts contain 'Prefers concise replies'"),
    (("teleported to Mars",), "no valid fact contains 'teleported to Mars'"),
    (("memory/2025-11-10.md#L4",), "no Retain fact at memory/2025-11-10.md#L4"),
    (("--undo", "Lives in Vienna"), "is in a fact that is valid (not marked invalid): there is nothing to undo"),
    (("Lives in Vienna", "--reason", "a\nb"), "--reason must be one line"),
    (("Lives in Vienna", "--yes"), "--yes goes with --purge"),
])
def test_what_forget_cannot_do_is_one_line(indexed_workspace: Path, args: tuple, needle: str) -> None:
    before = (indexed_workspace / LOG).read_bytes()
    line = assert_one_line_error(*run_memory(indexed_workspace, "forget", *args))
    assert needle in line
    assert (indexed_workspace / LOG).read_bytes() == before


def test_an_ambiguous_text_lists_citations_that_work(indexed_workspace: Path) -> None:
    line = assert_one_line_error(*run_memory(indexed_workspace, "forget", "Prefers concise replies"))
    citations = re.findall(r"memory/[\w.-]+\.md#L\d+", line)
    assert len(citations) == 2, line
    citation = citations[0]
    run_ok(indexed_workspace, "forget", citation)
    assert "already marked invalid" in assert_one_line_error(*run_memory(indexed_workspace, "forget", citation))


def test_forget_and_concurrent_retains_to_the_same_file_lose_nothing(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    results: list[tuple[int, str, str]] = []

    def retain(n: int) -> None:
        results.append(run_memory(ws, "retain", f"B @warelay: parallel check {n}", "--date", "2025-11-10"))

    threads = [threading.Thread(target=retain, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    results.append(run_memory(ws, "forget", "Lives in Vienna"))
    for thread in threads:
        thread.join()
    assert all(code == 0 for code, _, _ in results), results
    text = (ws / LOG).read_text(encoding="utf-8")
    assert all(f"parallel check {n}" in text for n in range(6)) and f"- ~~{VIENNA}~~ (invalid since" in text


# ------------------------------------------------------------------------------------------ reflect


def test_reflect_strikes_the_fact_and_stops_counting_it_as_evidence(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    run_ok(ws, "reflect", "--since", "30d")
    opinions = json.loads(run_ok(ws, "opinions", "--entity", "Peter", "--json"))
    concise = next(op for op in opinions if len(op["evidence"]) == 2)
    before = concise["confidence"]
    run_ok(ws, "forget", "memory/2025-11-28.md#L8", "--reason", "misheard")
    report = json.loads(run_ok(ws, "reflect", "--since", "30d", "--json"))
    assert report["opinions"]["withdrawn"] == [concise["key"]]
    after = next(op for op in json.loads(run_ok(ws, "opinions", "--entity", "Peter", "--json"))
                 if op["statement"] == concise["statement"])
    assert after["confidence"] < before
    page = (ws / "bank" / "opinions.md").read_text(encoding="utf-8")
    assert "~~[memory/2025-11-28.md#L8]" in page and "(invalid since 2025-11-30; no longer counted)" in page
    peter = (ws / "bank" / "entities" / "Peter.md").read_text(encoding="utf-8")
    assert "- ~~Prefers concise replies; asked again for short WhatsApp answers. (c=0.90)~~ " \
           "(invalid since 2025-11-30: misheard)" in peter
    run_ok(ws, "forget", "--undo", "memory/2025-11-28.md#L8")
    run_ok(ws, "reflect", "--since", "30d")
    again = next(op for op in json.loads(run_ok(ws, "opinions", "--entity", "Peter", "--json"))
                 if op["statement"] == concise["statement"])
    assert again["confidence"] == pytest.approx(before)
    assert "no longer counted" not in (ws / "bank" / "opinions.md").read_text(encoding="utf-8").split(
        "<!-- reflect:begin state")[0].split("History:")[0]


def test_an_invalid_fact_never_forms_an_opinion_or_replaces_another(indexed_workspace: Path) -> None:
    ws = indexed_workspace
    run_ok(ws, "retain", "W @Andy: Moved to Porto.", "--date", "2025-11-29")
    run_ok(ws, "retain", "O(c=0.9) @Andy: Loves fado concerts.", "--date", "2025-11-29")
    run_ok(ws, "forget", "Moved to Porto")
    run_ok(ws, "forget", "Loves fado concerts")
    run_ok(ws, "reflect", "--since", "30d")
    assert "fado" not in (ws / "bank" / "opinions.md").read_text(encoding="utf-8").split("<!-- reflect:begin state")[0]
    andy = (ws / "bank" / "entities" / "Andy.md").read_text(encoding="utf-8")
    assert "~~Moved to Porto.~~ (invalid since 2025-11-30)" in andy
    summary = andy.split("## Facts")[0]
    assert "Porto" not in summary and "fado" not in summary
