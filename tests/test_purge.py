"""`memory forget --purge`: a secret pasted by mistake is gone from the Markdown, the index, the
embedding cache and every file under `.memory/`, and no recall mode finds it (issue 13, part 3)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import assert_one_line_error, index_db, run_memory, run_ok, tree_hashes
from session_files import header, message, write_lines

SECRET = "sk-live-4F9a8B7c6D5e3A21"
TOKEN = "4f9a8b7c6d5e3a21"  # the word FTS5 indexes (it splits on "-")
FAKE = {"MEMORY_EMBED_PROVIDER": None}  # the workspace's own [embedding] provider = "fake"
MODES = ("lexical", "semantic", "hybrid")


@pytest.fixture
def leaky(workspace: Path, tmp_path: Path) -> Path:
    """The secret in a Retain fact, an opinion, a note, a session message, bank pages, a repair archive
    and a damaged index kept for a post-mortem; indexed with (fake) embeddings."""
    folder = tmp_path / "sessions"
    (workspace / "memory.toml").write_text(
        f'[embedding]\nprovider = "fake"\n\n[sessions]\npaths = ["{folder}"]\n', encoding="utf-8")
    write_lines(folder / "s1.jsonl", [
        header("s1", "2025-11-29T08:00:00Z"),
        message("user", f"The staging API key is {SECRET}, use it for the relay.", "2025-11-29T08:01:00Z"),
        message("assistant", "Understood, I will use that key for the relay tests.", "2025-11-29T08:01:09Z"),
    ])
    log = workspace / "memory" / "2025-11-29.md"
    log.write_text(f"# 2025-11-29\n\n## Notes\n- Peter pasted the key {SECRET} into the chat.\n\n## Retain\n"
                   f"- W @warelay: The staging relay authenticates with {SECRET}.\n"
                   f"- O(c=0.8) @Peter: Wants {SECRET} rotated monthly.\n", encoding="utf-8")
    archive = workspace / ".memory-repair" / "2025-11-29T000000"
    archive.mkdir(parents=True)
    (archive / "memory.md").write_text(f"# old core\n- key {SECRET}\n", encoding="utf-8")
    run_ok(workspace, "index", env=FAKE)
    run_ok(workspace, "reflect", "--since", "30d", env=FAKE)  # copies into bank pages and the opinion ledger
    run_ok(workspace, "index", env=FAKE)
    corrupt = workspace / ".memory" / "corrupt"
    corrupt.mkdir()
    shutil.copy(workspace / ".memory" / "index.sqlite", corrupt / "index-20251129T000000.sqlite")
    return workspace


def _files_holding(root: Path, *needles: str) -> list[str]:
    """Every file under root (hidden ones too) whose bytes contain a needle, in any letter case."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes().lower()
            if any(n.lower().encode() in data for n in needles):
                found.append(path.relative_to(root).as_posix())
    return found


def _recalled(ws: Path, query: str) -> list[str]:
    texts = []
    for mode in MODES:
        out = run_ok(ws, "recall", query, "--json", "--mode", mode, "--source", "all", "--include-invalid",
                     "--k", "50", env=FAKE)
        texts += [r["content"] for r in json.loads(out)["results"]]
    return texts


def test_the_preview_changes_nothing(leaky: Path) -> None:
    before = tree_hashes(leaky)
    out = run_ok(leaky, "forget", "--purge", SECRET, env=FAKE)
    # The log's 3 lines; reflect's copies in 4 bank pages (the opinion's heading, key, evidence and
    # ledger lines too); the repair archive.
    assert "would purge: 16 line(s) in 6 Markdown file(s), 1 line(s) in 1 transcript(s) and 1 session entry" in out
    assert "memory/2025-11-29.md:4: - Peter pasted the key [purged] into the chat." in out
    assert '"The staging API key is [purged]' in out and "sessions/s1.jsonl:2: " in out
    assert tree_hashes(leaky) == before


def test_a_purged_text_is_found_nowhere(leaky: Path) -> None:
    assert any(SECRET in text for text in _recalled(leaky, SECRET))  # it is there before
    with index_db(leaky) as conn:
        old_hashes = [h for (h,) in conn.execute(
            "SELECT text_hash FROM chunks WHERE instr(text, ?) > 0", (SECRET,))]
    assert old_hashes and _files_holding(leaky / ".memory", TOKEN)
    result = json.loads(run_ok(leaky, "forget", "--purge", SECRET, "--yes", "--json", env=FAKE))
    assert result["applied"] and result["session_entries"] == 1 and len(result["changed"]) == 7
    assert "sessions/s1.jsonl" in result["changed"]
    # The Markdown: every copy replaced, the rest of each line kept.
    assert _files_holding(leaky, SECRET, TOKEN) == []
    assert "- W @warelay: The staging relay authenticates with [purged]." in (
        leaky / "memory" / "2025-11-29.md").read_text(encoding="utf-8")
    # No recall mode finds it, by the whole text or by its rarest word.
    for query in (SECRET, TOKEN, "staging relay API key"):
        assert not any(TOKEN in text for text in _recalled(leaky, query)), query
    # Nothing under .memory/ holds it: index, write-ahead log, vector files, damaged copies.
    assert _files_holding(leaky / ".memory", TOKEN, SECRET) == []
    with index_db(leaky) as conn:
        marks = ",".join("?" * len(old_hashes))
        assert conn.execute(f"SELECT COUNT(*) FROM embedding_cache WHERE hash IN ({marks})",
                            old_hashes).fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM chunks WHERE instr(lower(text), ?) > 0", (TOKEN,)).fetchone()[0] == 0
    # The rewritten entries are still found by their other words, and indexing brings back nothing.
    assert any("[purged]" in t for t in _recalled(leaky, "staging API key relay"))
    run_ok(leaky, "index", env=FAKE)
    run_ok(leaky, "reflect", "--since", "30d", env=FAKE)
    assert _files_holding(leaky, TOKEN) == []


@pytest.mark.parametrize(("pattern", "needle"), [("abc", "at least 4 characters"), ("    ", "at least 4")])
def test_a_pattern_too_short_to_be_safe_is_refused(workspace: Path, pattern: str, needle: str) -> None:
    assert needle in assert_one_line_error(*run_memory(workspace, "forget", "--purge", pattern, "--yes"))


def test_a_pattern_inside_the_placeholder_is_removed_without_one(workspace: Path) -> None:
    log = workspace / "memory" / "2025-11-29.md"
    log.write_text("# 2025-11-29\n\n- the word purged appears here\n", encoding="utf-8")
    run_ok(workspace, "forget", "--purge", "purged", "--yes")
    assert log.read_text(encoding="utf-8") == "# 2025-11-29\n\n- the word  appears here\n"


# ------------------------------------------------------------------------ every copy, and no way back


def _transcript(leaky: Path) -> Path:
    return leaky.parent / "sessions" / "s1.jsonl"


def test_the_preview_names_every_copy_a_rebuild_reads_and_every_other_copy(leaky: Path) -> None:
    (leaky / ".obsidian").mkdir()
    (leaky / ".obsidian" / "workspace.json").write_text(json.dumps({"lastOpen": f"key {SECRET}"}), encoding="utf-8")
    (leaky / "notes.txt").write_text(f"scratch: {SECRET}\n", encoding="utf-8")
    (leaky / "memory" / "export.csv").write_text(f"when,what\n2025-11-29,{SECRET}\n", encoding="utf-8")
    before = tree_hashes(leaky)
    result = json.loads(run_ok(leaky, "forget", "--purge", SECRET, "--json", env=FAKE))
    assert result["transcripts"] == {"sessions/s1.jsonl": str(_transcript(leaky))}
    [line] = result["transcript_lines"]
    assert line["line"] == 2 and "The staging API key is [purged]" in line["after"]
    assert result["copies"] == [".obsidian/workspace.json", "memory/export.csv", "notes.txt"]
    assert ".memory-repair/2025-11-29T000000/memory.md" in result["files"]
    assert "3 other file(s) of the workspace hold it" in result["notices"][0]
    assert tree_hashes(leaky) == before and SECRET in _transcript(leaky).read_text()
    # --yes leaves the files the engine does not read as they are, and says so again.
    result = json.loads(run_ok(leaky, "forget", "--purge", SECRET, "--yes", "--json", env=FAKE))
    assert result["copies"] == [".obsidian/workspace.json", "memory/export.csv", "notes.txt"]
    assert SECRET in (leaky / "notes.txt").read_text()


def test_a_transcript_is_redacted_in_place_and_no_rebuild_brings_the_text_back(leaky: Path) -> None:
    transcript = _transcript(leaky)
    inode, size = transcript.stat().st_ino, transcript.stat().st_size
    run_ok(leaky, "forget", "--purge", SECRET, "--yes", env=FAKE)
    assert (transcript.stat().st_ino, transcript.stat().st_size) == (inode, size)  # the same file, every offset kept
    lines = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    assert "The staging API key is [purged]" in lines[1]["message"]["content"][0]["text"]
    assert TOKEN not in transcript.read_text().lower()
    # OpenClaw goes on appending to the same file; the follower reads the new line.
    write_lines(transcript, [message("user", "And the relay moved to port 8443.", "2025-11-29T08:05:00Z")], "a")
    run_ok(leaky, "index", "--rebuild", env=FAKE)
    assert not any(TOKEN in t.lower() for t in _recalled(leaky, SECRET) + _recalled(leaky, "staging API key relay"))
    assert any("port 8443" in t for t in _recalled(leaky, "relay port"))
    assert _files_holding(leaky / ".memory", TOKEN) == []
    # The automatic rebuild after corruption reads the same sources: nothing comes back either.
    (leaky / ".memory" / "index.sqlite").write_bytes(b"garbage" * 1000)
    for name in ("index.sqlite-wal", "index.sqlite-shm"):
        (leaky / ".memory" / name).unlink(missing_ok=True)
    code, out, err = run_memory(leaky, "recall", "staging API key", "--json", "--mode", "lexical", "--source", "all",
                                env=FAKE)
    assert code == 0 and "rebuilt" in (out + err).lower(), err
    assert not any(TOKEN in t.lower() for t in _recalled(leaky, SECRET) + _recalled(leaky, "staging API key relay"))
    assert [p for p in _files_holding(leaky / ".memory", TOKEN) if not p.startswith("corrupt/")] == []


def test_a_purge_that_cannot_rewrite_a_source_refuses_with_the_list_and_changes_nothing(leaky: Path) -> None:
    from workspace_memory.errors import UserError
    from workspace_memory.workspace import purge
    from workspace_memory.workspace.layout import Workspace

    ws = Workspace.open(leaky)
    found = purge.plan(ws, SECRET)
    assert set(found.transcripts) == {"sessions/s1.jsonl"}
    moved = _transcript(leaky).with_suffix(".gone")
    _transcript(leaky).rename(moved)  # gone between the preview and --yes
    before = tree_hashes(leaky)
    with pytest.raises(UserError) as info:
        purge.apply(ws, found)
    assert str(info.value) == ("purge refused, nothing changed: 1 source(s) holding the text cannot be rewritten, "
                               "and a rebuild would read it from them again: sessions/s1.jsonl (gone, or not a file "
                               "any more)")
    assert tree_hashes(leaky) == before


def test_a_redacted_line_stays_json_even_when_the_text_spans_two_fields() -> None:
    from workspace_memory.workspace.purge import redact_line, spellings

    line = b'{"a":"xyz","b":"q"}'
    new = redact_line(line, spellings('z","b', "[purged]", slugs=False))
    assert len(new) == len(line) and json.loads(new)["type"] == "purged"
    line = b'{"text":"caf\\u00e9 secret caf\\u00e9"}'
    new = redact_line(line, spellings("café secret café", "[purged]", slugs=False))
    spelled = len(b"caf\\u00e9 secret caf\\u00e9")  # as a writer that escapes non-ASCII spells it
    assert len(new) == len(line) and json.loads(new) == {"text": "[purged]" + " " * (spelled - 8)}
