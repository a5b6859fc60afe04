"""Bad input never crashes and never loses data: damaged files are indexed as far as possible, reported
as warnings with path:line, left byte-for-byte alone, and the rest of the workspace stays searchable."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from conftest import (
    WORKSPACE_FILES,
    index_db,
    recall_batch,
    recall_json,
    run_memory,
    run_ok,
    tree_hashes,
)

HUGE_TOKEN = "zebracornfinale"


def bad_files() -> dict[str, bytes]:
    rng = random.Random(1234)
    blob = bytes(rng.randrange(256) for _ in range(4096)) + b"\x00\x01\x02 kiwano tail"
    huge = (" ".join(["lorem"] * 200_000) + f" {HUGE_TOKEN}").encode()  # about 1.2 MB on one line
    return {
        "memory/2025-11-15.md": b"# 2025-11-15\n\nbroken \xff\xfe bytes here\n\n- kumquat harvest notes\n",
        "memory/notes/huge.md": huge,
        "memory/notes/empty.md": b"",
        "bank/blob.md": blob,
        "memory/notes/unclosed.md": b"# Unclosed\n\n```python\nprint('mangosteen')\n\nmore text after the fence\n",
        "bank/entities/Broken.md": b"---\nname: [unclosed\naliases: {\n---\n# Broken\n\nThe durian page.\n",
        "bank/entities/OnlyFront.md": b"---\nname: Only Front\naliases: [of-alias]\n---\n",
        "memory/notes/nul.md": b"text\x00with a nul\nlychee line\n",
        "memory/notes/lone-cr.md": b"first\rsecond\r\nrambutan third\n",
        "memory/2025-11-17.md": (
            b"# 2025-11-17\n\n## Retain\n- O(c=abc) @Peter: bad confidence\n- W\n- @Peter only a mention\n"
            b"- B @Peter: I planted a tamarind tree.\n"
        ),
        "memory/notes/deep.md": b"> " * 300 + b"deep quote pitaya\n\n" + b"[" * 20000 + b"\n",
        "memory/日本語 メモ.md": "# メモ\n\nsoursop note\n".encode(),
        "memory/2025-11-19.md": b"",
        "memory/2025-11-21.md": b"---\ntitle: only frontmatter\n---\n",
    }


@pytest.fixture
def damaged(workspace: Path) -> Path:
    for rel, data in bad_files().items():
        path = workspace / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (workspace / "memory" / "folder.md").mkdir()  # a folder with a Markdown name
    os.mkfifo(workspace / "memory" / "pipe.md")  # reading it would block forever
    return workspace


def status(root: Path) -> dict:
    return json.loads(run_ok(root, "status", "--json"))


def warnings_at(st: dict) -> set[tuple[str, int]]:
    return {(w["path"], w["line"]) for w in st["warnings"]}


def test_damaged_workspace_indexes_and_reports(damaged: Path) -> None:
    before = tree_hashes(damaged)
    code, out, err = run_memory(damaged, "index", "--json", timeout=120)
    assert code == 0, err
    assert "Traceback" not in err
    report = json.loads(out)
    expected_files = len(WORKSPACE_FILES) + len(bad_files())
    assert report["added"] == expected_files
    st = status(damaged)
    assert st["files"] == expected_files
    found = warnings_at(st)
    assert ("memory/2025-11-15.md", 3) in found  # invalid UTF-8 on line 3
    assert ("memory/notes/nul.md", 1) in found  # NUL byte on line 1
    assert ("bank/entities/Broken.md", 1) in found  # broken frontmatter
    assert ("memory/2025-11-17.md", 4) in found  # malformed Retain bullets, each at its line
    assert ("memory/2025-11-17.md", 5) in found
    assert ("memory/2025-11-17.md", 6) in found
    assert any(p == "bank/blob.md" for p, _ in found)
    for w in st["warnings"]:
        assert w["message"] and "\n" not in w["message"]
        assert isinstance(w["line"], int) and w["line"] >= 1
    assert tree_hashes(damaged) == before, "indexing changed a file"


def test_damaged_workspace_stays_searchable(damaged: Path) -> None:
    run_ok(damaged, "index")
    expectations = {
        "a828e60": "memory/2025-11-12.md",  # the healthy rest of the workspace
        "kumquat": "memory/2025-11-15.md",  # after invalid bytes
        "mangosteen": "memory/notes/unclosed.md",  # inside an unclosed fence
        "durian": "bank/entities/Broken.md",  # after broken frontmatter
        "lychee": "memory/notes/nul.md",  # after a NUL byte
        "rambutan": "memory/notes/lone-cr.md",
        "tamarind": "memory/2025-11-17.md",  # a good fact among bad bullets
        "soursop": "memory/日本語 メモ.md",
        "pitaya": "memory/notes/deep.md",
        HUGE_TOKEN: "memory/notes/huge.md",  # the end of a 1 MB line
    }
    answers = recall_batch(damaged, [{"query": word} for word in expectations] + [{"query": "bad confidence"}])
    for (word, path), answer in zip(expectations.items(), answers, strict=False):
        hits = answer["results"]
        assert hits and hits[0]["path"] == path, (word, hits[:1])
    huge = answers[list(expectations).index(HUGE_TOKEN)]["results"][0]
    assert huge["start_line"] == huge["end_line"] == 1
    assert len(huge["content"]) <= 1000, "a result is a snippet, not the whole megabyte"
    # A file of random bytes is not text: skipped with a warning (issue 8), never indexed as garbage.
    assert not recall_batch(damaged, [{"query": "kiwano"}])[0]["results"]
    bad_fact = answers[-1]["results"][0]
    assert bad_fact["path"] == "memory/2025-11-17.md" and bad_fact["kind"] == "note"


def test_damaged_files_are_never_modified(damaged: Path) -> None:
    before = tree_hashes(damaged)
    for args in [("index",), ("index", "--rebuild"), ("status",),
                 ("recall", "kumquat durian", "--json", "--mode", "lexical"),
                 ("get", "memory/2025-11-15.md"), ("get", "bank/blob.md")]:
        code, _out, err = run_memory(damaged, *args, timeout=120)
        assert code == 0, (args, err)
        assert "Traceback" not in err
    assert tree_hashes(damaged) == before


def test_entity_pages_with_odd_frontmatter(damaged: Path) -> None:
    run_ok(damaged, "index")
    with index_db(damaged) as conn:
        rows = {r[0]: r[1:] for r in conn.execute("SELECT key, name, page_path, aliases FROM entities")}
    assert rows["onlyfront"] == ("Only Front", "bank/entities/OnlyFront.md", '["of-alias"]')
    assert rows["broken"][1:] == ("bank/entities/Broken.md", "[]")
    assert recall_json(damaged, "durian", "--entity", "Broken")["results"]


def test_get_on_damaged_files(damaged: Path) -> None:
    page = json.loads(run_ok(damaged, "get", "memory/notes/huge.md", "--json"))
    assert page["total_lines"] == 1 and 0 < len(page["text"]) <= 12_000
    page = json.loads(run_ok(damaged, "get", "memory/2025-11-15.md", "--json"))
    assert "kumquat" in page["text"] and "\ufffd" in page["text"]
    page = json.loads(run_ok(damaged, "get", "memory/notes/empty.md", "--json"))
    assert page["text"] == "" and page["next_from"] is None
    code, _out, err = run_memory(damaged, "get", "bank/blob.md")
    assert code == 0 and "Traceback" not in err


def test_retain_into_empty_and_frontmatter_only_logs(damaged: Path) -> None:
    run_ok(damaged, "retain", "W @Peter: Into an empty file.", "--date", "2025-11-19")
    assert (damaged / "memory/2025-11-19.md").read_text(encoding="utf-8") == (
        "## Retain\n- W @Peter: Into an empty file.\n")
    run_ok(damaged, "retain", "W @Peter: Below the frontmatter.", "--date", "2025-11-21")
    assert (damaged / "memory/2025-11-21.md").read_text(encoding="utf-8") == (
        "---\ntitle: only frontmatter\n---\n\n## Retain\n- W @Peter: Below the frontmatter.\n")
    for word, path in (("empty file", "memory/2025-11-19.md"), ("frontmatter", "memory/2025-11-21.md")):
        hits = recall_json(damaged, word, "--kind", "world")["results"]
        assert hits and hits[0]["path"] == path


def test_invalid_utf8_file_is_not_rewritten_by_retain(damaged: Path) -> None:
    before = (damaged / "memory/2025-11-15.md").read_bytes()
    code, _out, err = run_memory(damaged, "retain", "W @Peter: x y", "--date", "2025-11-15")
    assert code != 0 and len(err.strip().split("\n")) == 1 and "Traceback" not in err
    assert (damaged / "memory/2025-11-15.md").read_bytes() == before


def test_broken_batch_file(shared_ws: Path, tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(b'{"query": "a828e60"}\n{garbage\n[1, 2]\n{"query": 5}\n\n{"query": "\xe6\x9d\xb1\xe4\xba\xac"}\n')
    code, out, err = run_memory(shared_ws, "recall", "--batch", batch, "--json", "--mode", "lexical")
    assert "Traceback" not in err
    assert code != 0 and len(err.strip().split("\n")) == 1
    answers = [json.loads(line) for line in out.strip().split("\n")]
    assert len(answers) == 5  # the blank line is skipped
    assert answers[0]["results"] and "error" in answers[1] and "error" in answers[2] and "error" in answers[3]
    assert answers[4]["results"][0]["path"] == "memory/2025-11-22.md"


def test_batch_file_with_invalid_utf8(shared_ws: Path, tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(b'{"query": "a828e60"}\n\xff\xfe garbage\n{"query": "Baileys"}\n')
    code, _out, err = run_memory(shared_ws, "recall", "--batch", batch, "--json", "--mode", "lexical")
    assert code != 0
    assert "Traceback" not in err and len(err.strip().split("\n")) == 1


def test_init_leaves_a_non_utf8_gitignore_alone(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    data = b"*.log\n\xff\xfe latin junk\n"
    (root / ".gitignore").write_bytes(data)
    _code, _out, err = run_memory(root, "init")
    assert "Traceback" not in err and len(err.strip().split("\n")) == 1 and ".gitignore" in err
    assert (root / ".gitignore").read_bytes() == data
    assert (root / "MEMORY.md").is_file()
