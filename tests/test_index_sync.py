"""The derived index: incremental sync, deletes and renames, --rebuild, entities, warnings, status,
and the promise that indexing never touches a Markdown file."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

from conftest import (
    WORKSPACE_FILES,
    expected_facts,
    index_db,
    line_of,
    recall_batch,
    recall_json,
    run_ok,
    tree_hashes,
)
from workspace_memory.index.rows import path_words
from workspace_memory.index.sqlite import bm25

N_FILES = len(WORKSPACE_FILES)


def index_report(root: Path, *args: str) -> dict[str, int]:
    return json.loads(run_ok(root, "index", "--json", *args))


def status(root: Path) -> dict:
    return json.loads(run_ok(root, "status", "--json"))


def chunk_ids(conn: sqlite3.Connection) -> dict[int, tuple[str, int, int, str]]:
    return {r[0]: tuple(r[1:]) for r in conn.execute("SELECT id, path, start_line, end_line, text FROM chunks")}


def content_rows(conn: sqlite3.Connection) -> dict[str, list]:
    """Everything derived, without row ids (which a rebuild may renumber)."""
    return {
        "files": sorted(conn.execute("SELECT path, hash, role, day, title, meta FROM files")),
        "chunks": sorted(conn.execute(
            "SELECT path, start_line, end_line, kind, heading, text, role, day, t_start, t_end FROM chunks")),
        "facts": sorted(conn.execute(
            "SELECT path, line, kind, content, confidence, day, occurred_start, occurred_end FROM facts")),
        "mentions": sorted(conn.execute(
            "SELECT c.path, c.start_line, m.entity_key, m.slug FROM mentions m JOIN chunks c ON c.id = m.chunk_id")),
        "entities": sorted(conn.execute("SELECT key, slug, name, page_path, aliases, fact_count FROM entities")),
        "warnings": sorted(conn.execute("SELECT path, line, message FROM warnings")),
    }


def assert_no_orphans(conn: sqlite3.Connection) -> None:
    """Every derived row belongs to a chunk of a file that is still indexed."""
    ids = {r[0] for r in conn.execute("SELECT id FROM chunks")}
    files = {r[0] for r in conn.execute("SELECT path FROM files")}
    assert {r[0] for r in conn.execute("SELECT path FROM chunks")} <= files
    assert {r[0] for r in conn.execute("SELECT path FROM warnings")} <= files
    # The FTS index's own record of its rows (chunks_fts reads its columns from a view over chunks:
    # a SELECT on it lists the view's rows, not the index's).
    assert {r[0] for r in conn.execute("SELECT id FROM chunks_fts_docsize")} == ids
    assert {r[0] for r in conn.execute("SELECT rowid FROM chunks_trigram")} <= ids
    assert {r[0] for r in conn.execute("SELECT id FROM facts")} <= ids
    assert {r[0] for r in conn.execute("SELECT chunk_id FROM mentions")} <= ids
    assert bm25.totals(conn, "chunks_fts")[0] == len(ids)


def rows_for(conn: sqlite3.Connection, path: str) -> dict[str, int]:
    return {
        "files": conn.execute("SELECT COUNT(*) FROM files WHERE path = ?", (path,)).fetchone()[0],
        "chunks": conn.execute("SELECT COUNT(*) FROM chunks WHERE path = ?", (path,)).fetchone()[0],
        "facts": conn.execute("SELECT COUNT(*) FROM facts WHERE path = ?", (path,)).fetchone()[0],
        "warnings": conn.execute("SELECT COUNT(*) FROM warnings WHERE path = ?", (path,)).fetchone()[0],
        "entities": conn.execute("SELECT COUNT(*) FROM entities WHERE page_path = ?", (path,)).fetchone()[0],
        "fts": conn.execute("SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ?",  # in the index itself
                            (f'path_text : ^"{path_words(path)}"',)).fetchone()[0],
    }


# ------------------------------------------------------------------------------------------ first index


def test_first_index_and_status_counts(workspace: Path) -> None:
    report = index_report(workspace)
    assert (report["added"], report["changed"], report["removed"], report["touched"]) == (N_FILES, 0, 0, 0)
    st = status(workspace)
    facts = expected_facts()
    assert st["files"] == N_FILES
    assert st["facts"] == sum(facts.values())
    assert st["facts_by_kind"] == facts
    with index_db(workspace) as conn:
        assert st["chunks"] == conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        assert st["entities"] == conn.execute("SELECT COUNT(*) FROM entities").fetchone()[0]
        assert {r[0] for r in conn.execute("SELECT path FROM files")} == set(WORKSPACE_FILES)
        assert_no_orphans(conn)
    assert st["chunks"] > st["facts"] + N_FILES  # notes, tables, code blocks are entries too


def test_chunk_rows_cite_true_lines(indexed_workspace: Path) -> None:
    with index_db(indexed_workspace) as conn:
        for path, start, end, text in conn.execute("SELECT path, start_line, end_line, text FROM chunks"):
            lines = (indexed_workspace / path).read_text(encoding="utf-8").split("\n")
            assert text.rstrip() == "\n".join(lines[start - 1 : end]).rstrip(), (path, start, end)


def test_a_new_index_has_pages_that_hold_three_cached_vectors(indexed_workspace: Path) -> None:
    """8 KiB pages: the embedding cache's 2 KB vectors fit three to a page, where 4 KiB pages hold one
    (docs/benchmarks.md, "Size of .memory/": 82 -> 67 MiB on the 365-day workspace)."""
    with sqlite3.connect(indexed_workspace / ".memory" / "index.sqlite") as conn:
        assert conn.execute("PRAGMA page_size").fetchone()[0] == 8192
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_warnings_are_stored_with_path_and_line(indexed_workspace: Path) -> None:
    line = line_of(indexed_workspace, "memory/2025-11-16.md", "w @Peter: lowercase")
    warnings = status(indexed_workspace)["warnings"]
    assert [(w["path"], w["line"]) for w in warnings] == [("memory/2025-11-16.md", line)]
    assert "Retain" in warnings[0]["message"]
    # Fixing the bullet clears the warning on the next sync.
    path = indexed_workspace / "memory/2025-11-16.md"
    path.write_text(path.read_text(encoding="utf-8").replace("- w @Peter", "- W @Peter"), encoding="utf-8")
    st = status(indexed_workspace)
    assert st["warnings"] == []
    assert st["facts"] == sum(expected_facts().values()) + 1


def test_human_status_shows_warning_as_path_colon_line(indexed_workspace: Path) -> None:
    line = line_of(indexed_workspace, "memory/2025-11-16.md", "w @Peter: lowercase")
    out = run_ok(indexed_workspace, "status")
    assert f"memory/2025-11-16.md:{line}:" in out
    assert str(N_FILES) in out


# ------------------------------------------------------------------------------------------ incremental


def test_second_index_does_nothing(indexed_workspace: Path) -> None:
    with index_db(indexed_workspace) as conn:
        before = chunk_ids(conn)
    report = index_report(indexed_workspace)
    assert (report["added"], report["changed"], report["removed"], report["touched"]) == (0, 0, 0, 0)
    assert report["unchanged"] == N_FILES
    with index_db(indexed_workspace) as conn:
        assert chunk_ids(conn) == before


def test_touching_files_reparses_nothing(indexed_workspace: Path) -> None:
    with index_db(indexed_workspace) as conn:
        before = chunk_ids(conn)
    for rel in WORKSPACE_FILES:
        st = (indexed_workspace / rel).stat()
        os.utime(indexed_workspace / rel, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    report = index_report(indexed_workspace)
    assert (report["added"], report["changed"], report["removed"]) == (0, 0, 0)
    assert report["touched"] == N_FILES
    with index_db(indexed_workspace) as conn:
        assert chunk_ids(conn) == before, "touched files must keep their rows"
    report = index_report(indexed_workspace)
    assert report["touched"] == 0 and report["unchanged"] == N_FILES, "the new mtimes were recorded"


def test_changing_one_file_reparses_only_it(indexed_workspace: Path) -> None:
    target = "memory/2025-11-24.md"
    with index_db(indexed_workspace) as conn:
        before = chunk_ids(conn)
    path = indexed_workspace / target
    path.write_text(path.read_text(encoding="utf-8") + "- B @warelay: I pinned the xylophone-42 build.\n",
                    encoding="utf-8")
    report = index_report(indexed_workspace)
    assert (report["added"], report["changed"], report["removed"], report["touched"]) == (0, 1, 0, 0)
    assert report["unchanged"] == N_FILES - 1
    with index_db(indexed_workspace) as conn:
        after = chunk_ids(conn)
        assert_no_orphans(conn)
    others_before = {i: r for i, r in before.items() if r[0] != target}
    others_after = {i: r for i, r in after.items() if r[0] != target}
    assert others_after == others_before, "other files' rows are untouched"
    new_ids = {i for i, r in after.items() if r[0] == target}
    assert new_ids and not new_ids & set(before)
    hits = recall_json(indexed_workspace, "xylophone-42")["results"]
    assert hits and hits[0]["path"] == target and hits[0]["kind"] == "experience"


def test_recall_syncs_a_changed_file_first(indexed_workspace: Path) -> None:
    path = indexed_workspace / "bank/world.md"
    path.write_text(path.read_text(encoding="utf-8") + "- The zeppelin hangar is in Friedrichshafen.\n",
                    encoding="utf-8")
    hits = recall_json(indexed_workspace, "zeppelin hangar")["results"]
    assert hits and hits[0]["path"] == "bank/world.md"
    assert hits[0]["start_line"] == line_of(indexed_workspace, "bank/world.md", "zeppelin")


# ------------------------------------------------------------------------------------------ deletes, renames


def test_deleted_file_leaves_no_rows(indexed_workspace: Path) -> None:
    target = "memory/2025-11-10.md"  # the only file that mentions @Acme
    with index_db(indexed_workspace) as conn:
        assert all(rows_for(conn, target)[k] > 0 for k in ("files", "chunks", "facts", "fts"))
        assert conn.execute("SELECT COUNT(*) FROM entities WHERE key = 'acme'").fetchone()[0] == 1
    (indexed_workspace / target).unlink()
    report = index_report(indexed_workspace)
    assert (report["removed"], report["added"], report["changed"]) == (1, 0, 0)
    with index_db(indexed_workspace) as conn:
        assert rows_for(conn, target) == dict.fromkeys(("files", "chunks", "facts", "warnings", "entities", "fts"), 0)
        assert conn.execute("SELECT COUNT(*) FROM mentions WHERE entity_key = 'acme'").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM entities WHERE key = 'acme'").fetchone()[0] == 0
        assert_no_orphans(conn)
    assert status(indexed_workspace)["files"] == N_FILES - 1
    hits = recall_json(indexed_workspace, "provisioned staging box")["results"]
    assert all(h["path"] != target for h in hits)


def test_deleted_file_with_warning_and_cjk_leaves_no_rows(indexed_workspace: Path) -> None:
    for target in ("memory/2025-11-16.md", "memory/2025-11-20.md"):
        (indexed_workspace / target).unlink()
    index_report(indexed_workspace)
    with index_db(indexed_workspace) as conn:
        assert conn.execute("SELECT COUNT(*) FROM warnings").fetchone()[0] == 0
        assert_no_orphans(conn)
    assert recall_json(indexed_workspace, "数据库迁移")["results"] == []
    assert status(indexed_workspace)["warnings"] == []


def test_renamed_file_leaves_no_rows_under_the_old_name(indexed_workspace: Path) -> None:
    old, new = "memory/2025-11-12.md", "memory/archive/2025-11-12-crash.md"
    (indexed_workspace / new).parent.mkdir(parents=True)
    (indexed_workspace / old).rename(indexed_workspace / new)
    report = index_report(indexed_workspace)
    assert (report["removed"], report["added"], report["changed"]) == (1, 1, 0)
    with index_db(indexed_workspace) as conn:
        assert rows_for(conn, old) == dict.fromkeys(("files", "chunks", "facts", "warnings", "entities", "fts"), 0)
        assert rows_for(conn, new)["chunks"] > 0
        assert_no_orphans(conn)
    hits = recall_json(indexed_workspace, "a828e60")["results"]
    assert hits[0]["path"] == new
    assert all(h["path"] != old for h in hits)


def test_renamed_entity_page_moves_the_entity(indexed_workspace: Path) -> None:
    entities = indexed_workspace / "bank/entities"
    (entities / "The-Castle.md").rename(entities / "Castle-Keep.md")
    index_report(indexed_workspace)
    with index_db(indexed_workspace) as conn:
        pages = dict(conn.execute("SELECT key, page_path FROM entities"))
        assert_no_orphans(conn)
    assert pages.get("castle-keep") == "bank/entities/Castle-Keep.md"
    assert pages.get("the-castle") is None, "the mention-only entity no longer has a page"


# ------------------------------------------------------------------------------------------ rebuild


def test_rebuild_reproduces_the_same_index(indexed_workspace: Path) -> None:
    with index_db(indexed_workspace) as conn:
        before = content_rows(conn)
    report = index_report(indexed_workspace, "--rebuild")
    assert report["added"] == N_FILES and report["removed"] == 0
    with index_db(indexed_workspace) as conn:
        after = content_rows(conn)
        assert_no_orphans(conn)
    assert after == before


def test_rebuild_drops_rows_of_files_that_vanished(indexed_workspace: Path) -> None:
    (indexed_workspace / "memory/2025-11-14.md").unlink()
    index_report(indexed_workspace, "--rebuild")
    with index_db(indexed_workspace) as conn:
        assert rows_for(conn, "memory/2025-11-14.md")["chunks"] == 0
        assert_no_orphans(conn)
    assert status(indexed_workspace)["files"] == N_FILES - 1


def test_index_is_rebuilt_when_thrown_away(indexed_workspace: Path) -> None:
    with index_db(indexed_workspace) as conn:
        before = content_rows(conn)
    shutil.rmtree(indexed_workspace / ".memory")
    hits = recall_json(indexed_workspace, "a828e60")["results"]
    assert hits and hits[0]["path"] == "memory/2025-11-12.md"
    with index_db(indexed_workspace) as conn:
        assert content_rows(conn) == before


# ------------------------------------------------------------------------------------------ entities


def test_entities_from_mentions_and_pages(indexed_workspace: Path) -> None:
    with index_db(indexed_workspace) as conn:
        rows = {r[0]: r[1:] for r in conn.execute(
            "SELECT key, slug, name, page_path, aliases, fact_count FROM entities")}
    assert set(rows) == {"peter", "acme", "warelay", "the-castle", "andy"}
    slug, name, page, aliases, facts = rows["peter"]
    assert (slug, name, page) == ("Peter", "Peter Steinberger", "bank/entities/Peter.md")
    assert json.loads(aliases) == ["Pete", "steipete"]
    assert facts == 8
    assert rows["warelay"][2] == "bank/entities/warelay.md"
    assert json.loads(rows["warelay"][3]) == ["wa-relay", "the WhatsApp relay"]
    assert rows["the-castle"][1:4] == ("The Castle", "bank/entities/The-Castle.md", '["castle"]')
    assert rows["acme"][1:4] == ("Acme", None, "[]")
    assert rows["andy"][4] == 3


def test_entity_aliases_resolve_in_recall(indexed_workspace: Path) -> None:
    aliases = ("Pete", "steipete", "peter", "@Peter", "Peter Steinberger")
    answers = recall_batch(indexed_workspace, [{"query": "Vienna", "entity": a} for a in aliases]
                           + [{"query": "roof", "entity": "castle"}])
    for alias, answer in zip(aliases, answers, strict=False):
        hits = answer["results"]
        assert hits, alias
        assert all("Peter Steinberger" in h["entities"] or h["path"] == "bank/entities/Peter.md" for h in hits)
    hits = answers[-1]["results"]
    assert hits and all("The Castle" in h["entities"] or h["path"] == "bank/entities/The-Castle.md" for h in hits)


def test_editing_a_page_updates_its_aliases(indexed_workspace: Path) -> None:
    page = indexed_workspace / "bank/entities/Peter.md"
    page.write_text(page.read_text(encoding="utf-8").replace("[Pete, steipete]", "[Pete, PS]"), encoding="utf-8")
    index_report(indexed_workspace)
    with index_db(indexed_workspace) as conn:
        aliases = conn.execute("SELECT aliases FROM entities WHERE key = 'peter'").fetchone()[0]
    assert json.loads(aliases) == ["Pete", "PS"]
    assert recall_json(indexed_workspace, "Vienna", "--entity", "PS")["results"]


def test_init_readme_is_not_an_entity(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    run_ok(root, "init")
    run_ok(root, "index")
    with index_db(root) as conn:
        keys = {r[0] for r in conn.execute("SELECT key FROM entities")}
    assert "readme" not in keys


# ------------------------------------------------------------------------------------------ read-only


def mtimes(root: Path) -> dict[str, int]:
    return {rel: (root / rel).stat().st_mtime_ns for rel in tree_hashes(root)}


def test_indexing_and_reading_never_modify_markdown(workspace: Path) -> None:
    (workspace / "memory/2025-11-25.md").write_bytes(b"# 2025-11-25\r\n\r\n## Retain\r\n- W @Peter: crlf file\r\n")
    (workspace / "bank/bom.md").write_bytes(b"\xef\xbb\xbf# BOM page\n\nbody with a bom\n")
    hashes, times = tree_hashes(workspace), mtimes(workspace)
    commands = [
        ("index",), ("index", "--rebuild"), ("status",), ("recall", "Baileys crash", "--json"),
        ("recall", "espresso", "--since", "7d"), ("get", "MEMORY.md"), ("index",),
    ]
    for args in commands:
        run_ok(workspace, *args)
        assert tree_hashes(workspace) == hashes, args
    assert mtimes(workspace) == times
    assert set(os.listdir(workspace)) == {"MEMORY.md", "bank", "memory", ".memory"}
