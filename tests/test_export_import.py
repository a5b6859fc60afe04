"""`memory export` / `memory import`: the facts, with their meaning and origin, taken elsewhere (issue 13)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from conftest import WORKSPACE_FILES, assert_one_line_error, expected_facts, recall_json, run_memory, run_ok

QUERIES = ["where does Peter live", "Baileys WS crash fix", "what does Peter prefer", "Marrakech birthday",
           "Tokyo flight", "east wing roof", "gateway config hybrid", "Andy surprise parties"]


def _export(ws: Path, *args: str) -> list[dict]:
    return [json.loads(line) for line in run_ok(ws, "export", *args).splitlines()]


def test_every_fact_is_exported_with_its_meaning_and_origin(indexed_workspace: Path) -> None:
    run_ok(indexed_workspace, "forget", "Lives in Vienna", "--reason", "moved")
    facts = _export(indexed_workspace)
    counts: dict[str, int] = {}
    for fact in facts:
        counts[fact["kind"]] = counts.get(fact["kind"], 0) + 1
    assert counts == expected_facts()
    marrakech = next(f for f in facts if "Marrakech (Nov 27" in f["bullet"])
    assert marrakech == {
        "kind": "world", "bullet": "W @Peter: In Marrakech (Nov 27–Dec 1, 2025) for @Andy's birthday.",
        "content": "Peter: In Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
        "entities": ["Peter Steinberger", "Andy"], "confidence": None, "day": "2025-11-18",
        "occurred": {"start": "2025-11-27", "end": "2025-12-01"}, "source": "memory/2025-11-18.md#L7",
        "valid": True, "invalid_at": None, "invalid_reason": None}
    vienna = next(f for f in facts if "Vienna and works" in f["bullet"])
    assert (vienna["valid"], vienna["invalid_at"], vienna["invalid_reason"]) == (False, "2025-11-30", "moved")
    assert next(f for f in facts if f["kind"] == "opinion" and "(c=0.8)" in f["bullet"])["confidence"] == 0.8
    recent = _export(indexed_workspace, "--since", "2025-11-26")
    # --since keeps what a fact is about (index.base.entry_time): the range it states, else the day it was
    # written. So Marrakech (written 11-18, Nov 27-Dec 1) and Tokyo (written 11-22, Dec 8) are kept.
    assert recent and {f["day"] for f in recent} == {"2025-11-18", "2025-11-22", "2025-11-26", "2025-11-28",
                                                     "2025-11-30"}
    assert all(f["occurred"]["end"] >= "2025-11-26" for f in recent if f["day"] < "2025-11-26")


def test_an_export_imported_into_an_empty_workspace_recalls_the_same_facts(indexed_workspace: Path,
                                                                          tmp_path: Path) -> None:
    a = indexed_workspace
    run_ok(a, "forget", "Lives in Vienna", "--reason", "moved")
    dump = tmp_path / "facts.jsonl"
    run_ok(a, "export", "-o", dump)
    b = tmp_path / "b"
    run_ok(b, "init")
    report = json.loads(run_ok(b, "import", dump, "--json"))
    assert report["added"] == sum(expected_facts().values()) and report["duplicates"] == 0
    exported_a = [{k: v for k, v in f.items() if k not in ("source", "entities")} for f in _export(a)]
    exported_b = [{k: v for k, v in f.items() if k not in ("source", "entities")} for f in _export(b)]
    assert exported_b == exported_a  # same kind, text, confidence, day, stated time, validity
    for query in QUERIES:
        facts_a = [(r["kind"], r["content"], r["timestamp"]) for r in
                   recall_json(a, query, "--kind", "fact", "--k", "5")["results"]]
        facts_b = [(r["kind"], r["content"], r["timestamp"]) for r in
                   recall_json(b, query, "--kind", "fact", "--k", "5")["results"]]
        assert facts_b == facts_a, query
    again = json.loads(run_ok(b, "import", dump, "--json"))
    assert (again["added"], again["duplicates"], again["files"]) == (0, report["added"], [])


def test_the_markdown_zip_is_a_readable_workspace_and_deterministic(indexed_workspace: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "1.zip", tmp_path / "2.zip"
    run_ok(indexed_workspace, "export", "--format", "markdown-zip", "-o", first)
    run_ok(indexed_workspace, "export", "--format", "markdown-zip", "-o", second)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(io.BytesIO(first.read_bytes())) as zf:
        names = zf.namelist()
        assert "facts.jsonl" in names and "memory/2025-11-18.md" in names
        assert zf.read("memory/2025-11-18.md").decode() == (
            "# 2025-11-18\n\n## Retain\n- W @Peter: In Marrakech (Nov 27–Dec 1, 2025) for @Andy's birthday.\n"
            "- O(c=0.6) @Andy: Likes surprise parties more than dinners.\n")
        unzipped = tmp_path / "unzipped"
        zf.extractall(unzipped)
    assert json.loads(run_ok(unzipped, "status", "--json"))["facts"] == sum(expected_facts().values())


@pytest.mark.parametrize(("line", "needle"), [
    ("not json", "facts.jsonl:2: not JSON"),
    ('{"bullet": "X nonsense"}', "facts.jsonl:2: not a Retain fact"),
    ('{"kind": "world"}', 'facts.jsonl:2: expected "bullet"'),
    ('{"bullet": "W fine", "day": "2025-02-30"}', "facts.jsonl:2:"),
])
def test_a_bad_line_refuses_the_whole_file(workspace: Path, tmp_path: Path, line: str, needle: str) -> None:
    dump = tmp_path / "facts.jsonl"
    dump.write_text('{"bullet": "W @Peter: Good fact.", "day": "2025-11-29"}\n' + line + "\n", encoding="utf-8")
    before = {p: (workspace / p).read_bytes() for p in WORKSPACE_FILES}
    assert needle in assert_one_line_error(*run_memory(workspace, "import", dump))
    assert not (workspace / "memory" / "2025-11-29.md").exists()
    assert {p: (workspace / p).read_bytes() for p in WORKSPACE_FILES} == before


def test_facts_without_a_bullet_or_a_day_are_imported_too(workspace: Path, tmp_path: Path) -> None:
    dump = tmp_path / "facts.jsonl"
    dump.write_text(json.dumps({"kind": "opinion", "content": "Prefers trains to planes", "confidence": 0.75})
                    + "\n" + json.dumps({"bullet": "~~W @Peter: Owns a red bike.~~ (invalid since 2025-11-01)",
                                         "day": "2025-10-02"}) + "\n", encoding="utf-8")
    run_ok(workspace, "import", dump)
    assert (workspace / "memory" / "imported.md").read_text(encoding="utf-8") == (
        "# Imported facts\n\n## Retain\n- O(c=0.75) Prefers trains to planes\n")
    assert "- ~~W @Peter: Owns a red bike.~~ (invalid since 2025-11-01)\n" in (
        workspace / "memory" / "2025-10-02.md").read_text(encoding="utf-8")
    assert recall_json(workspace, "red bike")["results"] == []
    assert recall_json(workspace, "red bike", "--include-invalid")["results"][0]["invalid_at"] == "2025-11-01"
