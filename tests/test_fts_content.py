"""The FTS5 tables read their columns from views over `chunks` (external content, issue 27).

A row must leave the index with the values it went in with: each test here checks FTS5's own
`integrity-check` with rank 1 (the index against the view) after inserts, edits, a neighbour's
edit, deletes, renames, re-syncs, rebuilds, appended session messages and a purge, and that the
views give exactly the words the row builders (index.rows, index.sessions) make.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from session_files import header, message, write_lines
from workspace_memory.api import Memory
from workspace_memory.index.rows import path_words
from workspace_memory.index.sqlite import fts_content
from workspace_memory.index.sqlite import writer as sqlite_writer
from workspace_memory.index.sqlite.schema import FTS_TOKENIZER, SCHEMA_VERSION

LONG = " ".join(f"Paragraph word{n} about the harbour crane schedule." for n in range(400))  # several pieces
DAY = """# 2025-03-01

Loose line before any heading.

## Notes

- Met Zoë at the harbour about the crane.
- She said the crane arrives on Tuesday.
- Ordered the quokka statue for the lobby.

## Retain
- W @warelay: The relay runs on port 8443.
- B @Peter: Fixed the relay certificate.

## Long

{long}

## 会议

- 我们讨论了新的部署流程。
"""
PLAN = "# Plan\n\n## Steps\n\n- First pour the foundation.\n- Then raise the walls.\n"


def _transcript(ws: Path) -> Path:
    return ws / "agents" / "s1.jsonl"


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[int, tuple[str, str, str, str]]:
    """Every chunk the writer inserts: id -> (FTS table, search text, path words, context) as the row
    builders made them (the values the FTS rows held before issue 27)."""
    rows: dict[int, tuple[str, str, str, str]] = {}
    real = sqlite_writer.insert_chunks

    def spy(conn: sqlite3.Connection, chunks: list) -> list[int]:
        ids = real(conn, chunks)
        for cid, (c, _, _) in zip(ids, chunks, strict=True):
            rows[cid] = (sqlite_writer.fts_table(c["role"]), c["search_text"], c["path_text"], c["context_text"])
        return ids

    monkeypatch.setattr(sqlite_writer, "insert_chunks", spy)
    return rows


@pytest.fixture
def mem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Memory]:
    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "none")
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory.toml").write_text(f'[sessions]\npaths = ["{ws / "agents"}"]\n', encoding="utf-8")
    (ws / "memory" / "2025-03-01.md").write_text(DAY.format(long=LONG), encoding="utf-8")
    (ws / "memory" / "my.project_plan-v2.md").write_text(PLAN, encoding="utf-8")
    write_lines(_transcript(ws), [
        header("s1", "2025-03-01T08:00:00Z"),
        message("user", "Where is the crane now?", "2025-03-01T08:01:00Z"),
        message("assistant", "At the north quay. " + LONG[:6000], "2025-03-01T08:01:05Z"),
        message("user", "Thanks, book the quokka statue.", "2025-03-01T08:02:00Z"),
    ])
    memory = Memory.open(str(ws), "2025-03-02")
    memory.index()
    yield memory
    memory.close()


def check(conn: sqlite3.Connection) -> None:
    """FTS5's integrity-check against the views, and the index holds exactly the chunks of its role."""
    for table in fts_content.FTS_TABLES:
        conn.execute(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 1)")
        role = "= 'session'" if table == "sessions_fts" else "IS NOT 'session'"
        chunks = {r[0] for r in conn.execute(f"SELECT id FROM chunks WHERE role {role}")}
        assert {r[0] for r in conn.execute(f"SELECT id FROM {table}_docsize")} == chunks


def context_hits(conn: sqlite3.Connection, word: str, table: str = "chunks_fts") -> list[str]:
    return [r[0] for r in conn.execute(
        f"SELECT c.text FROM {table} JOIN chunks c ON c.id = {table}.rowid WHERE {table} MATCH ?",
        (f'context_text : "{word}"',))]


def _tokens(conn: sqlite3.Connection, text: str) -> list[str]:
    """`text` as the index's tokenizer splits it."""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.tok USING fts5(t, tokenize='{FTS_TOKENIZER}')")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.tok_words USING fts5vocab(temp, tok, instance)")
    conn.execute("DELETE FROM temp.tok")
    conn.execute("INSERT INTO temp.tok(rowid, t) VALUES (1, ?)", (text,))
    return [term for term, _ in sorted(((t, o) for t, o in conn.execute("SELECT term, offset FROM temp.tok_words")),
                                       key=lambda x: x[1])]


def test_the_views_give_the_words_the_rows_were_built_with(built: dict, mem: Memory) -> None:
    ws = Path(mem.workspace.root)
    conn = mem.store.conn
    # Ids stop being consecutive for the transcript: a file indexed after it, then deleted (its ids were
    # the last), and a message appended. The message is linked to the one before only if its id follows.
    (ws / "memory" / "extra.md").write_text("# Extra\n\n- A passing thought.\n", encoding="utf-8")
    mem.index()
    (ws / "memory" / "extra.md").unlink()
    write_lines(_transcript(ws), [message("assistant", "Booked for Friday.", "2025-03-01T08:03:00Z")], mode="a")
    mem.index()
    # And appended right after: linked.
    write_lines(_transcript(ws), [message("user", "Perfect, thanks.", "2025-03-01T08:04:00Z")], mode="a")
    mem.index()
    (ws / "memory" / "2025-03-01.md").write_text(DAY.format(long=LONG).replace("Tuesday", "Monday"), encoding="utf-8")
    mem.index()
    check(conn)
    live = {r[0] for r in conn.execute("SELECT id FROM chunks")}
    assert live <= set(built)
    contexts = {True: 0, False: 0}
    for cid in sorted(live):
        table, search, path, context = built[cid]
        got = conn.execute(f"SELECT search_text, path_text, context_text FROM {fts_content.VIEWS[table]} WHERE id = ?",
                           (cid,)).fetchone()
        assert got is not None, (cid, table)
        assert (got[0], got[2]) == (search, context), cid
        assert _tokens(conn, got[1]) == _tokens(conn, path), (got[1], path)
        contexts[bool(context)] += 1
    assert contexts[True] >= 10 and contexts[False] >= 5  # both cases are exercised
    sessions = [built[cid][3] for cid in sorted(live) if built[cid][0] == "sessions_fts"]
    assert sessions[-2:] == ["", "assistant: Booked for Friday."]  # not linked across the gap, linked after


@pytest.mark.parametrize("path", ["memory/2025-03-01.md", "bank/entities/zoë_müller.MD", "a\\b.c__d--e.md",
                                  "sessions/5f0c-2b7e.jsonl", ".md", "x.md.md", "notes/ROADMAP.Md", "plain",
                                  "_lead/trail_.md", "two  spaces/é-é.md"])
def test_the_path_words_of_the_view_are_the_tokens_of_path_words(path: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT, kind TEXT, heading TEXT, text TEXT,"
                 " role TEXT)")
    fts_content.create(conn, FTS_TOKENIZER)
    conn.execute("INSERT INTO chunks VALUES (1, ?, 'note', '', 'x', 'daily')", (path,))
    (words,) = conn.execute("SELECT path_text FROM chunks_fts_rows WHERE id = 1").fetchone()
    assert _tokens(conn, words) == _tokens(conn, path_words(path))
    assert _tokens(conn, path_words(path)) or path == ".md"  # not vacuous
    fts_content.index(conn, [1])
    conn.execute("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)")


def test_every_change_leaves_the_index_equal_to_the_views(mem: Memory) -> None:
    ws = Path(mem.workspace.root)
    conn = mem.store.conn
    day = ws / "memory" / "2025-03-01.md"
    check(conn)
    assert context_hits(conn, "tuesday") == ["- Ordered the quokka statue for the lobby."]
    # A neighbour's edit: the entry whose context it is keeps its text, and its context follows.
    day.write_text(DAY.format(long=LONG).replace("Tuesday", "Wednesday"), encoding="utf-8")
    mem.index()
    check(conn)
    assert context_hits(conn, "tuesday") == []
    assert context_hits(conn, "wednesday") == ["- Ordered the quokka statue for the lobby."]
    # An entry deleted: the next one takes the one before as its context.
    day.write_text(DAY.format(long=LONG).replace("- She said the crane arrives on Tuesday.\n", ""), encoding="utf-8")
    mem.index()
    check(conn)
    assert context_hits(conn, "zoe") == ["- Ordered the quokka statue for the lobby."]
    assert context_hits(conn, "wednesday") == []
    # Rename, delete, an unchanged re-sync, a touched file, a rebuild.
    (ws / "memory" / "my.project_plan-v2.md").rename(ws / "memory" / "plan.md")
    mem.index()
    check(conn)
    assert context_hits(conn, "foundation") == ["- Then raise the walls."]
    (ws / "memory" / "plan.md").unlink()
    mem.index()
    check(conn)
    assert context_hits(conn, "foundation") == []
    mem.index()
    day.touch()
    mem.index()
    check(conn)
    mem.index(rebuild=True)
    check(conn)
    # Session messages appended, and a second transcript whose first message gets the next id; then a
    # purge: each rewritten message, and the next one of its file (its context), is re-indexed, and the
    # next id's entry of the other transcript (no context of it) is indexed again as it was.
    secret = "sk-live-4F9a8B7c6D5e3A21"
    write_lines(_transcript(ws), [message("assistant", f"The statue key is {secret} for now.", "2025-03-01T08:03:00Z"),
                                  message("user", "Noted.", "2025-03-01T08:04:00Z"),
                                  message("user", f"Also {secret} again.", "2025-03-01T08:05:00Z")], mode="a")
    write_lines(ws / "agents" / "s2.jsonl", [header("s2", "2025-03-01T09:00:00Z"),
                                             message("user", "Another talk entirely.", "2025-03-01T09:01:00Z")])
    mem.index()
    check(conn)
    last_s1, first_s2 = (conn.execute("SELECT MAX(id) FROM chunks WHERE path = ?", (f"sessions/{name}",)).fetchone()[0]
                         for name in ("s1.jsonl", "s2.jsonl"))
    assert first_s2 == last_s1 + 1
    assert context_hits(conn, "4f9a8b7c6d5e3a21", "sessions_fts") == ["user: Noted."]
    mem.purge(secret, apply=True)
    check(conn)
    assert context_hits(conn, "4f9a8b7c6d5e3a21", "sessions_fts") == []
    assert context_hits(conn, "purged", "sessions_fts") == ["user: Noted."]
    # A struck fact (forget) rewrites its file.
    mem.forget("The relay runs on port 8443.", reason="moved")
    check(conn)


def test_a_delete_with_other_values_than_were_indexed_is_caught(mem: Memory) -> None:
    """What the checks above rely on: a delete that passes values other than the indexed ones (here the
    row's context left out) leaves the index unequal to the view, and integrity-check says so."""
    conn = mem.store.conn
    cid, search, path = conn.execute("SELECT id, search_text, path_text FROM chunks_fts_rows"
                                     " WHERE context_text <> '' LIMIT 1").fetchone()
    conn.execute("BEGIN")
    conn.execute("INSERT INTO chunks_fts(chunks_fts, rowid, search_text, path_text, context_text)"
                 " VALUES ('delete', ?, ?, ?, '')", (cid, search, path))
    with pytest.raises(sqlite3.DatabaseError):
        conn.execute("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)")
    conn.execute("ROLLBACK")
    check(conn)


def test_an_index_that_held_copies_is_migrated_in_place(mem: Memory) -> None:
    """An index of schema 8 (FTS tables with their own copy of the columns) is re-indexed from its rows
    when opened: the same matches and bm25, no copy left, nothing parsed again."""
    ws = Path(mem.workspace.root)
    conn = mem.store.conn
    queries = ['"crane"', '"quokka" OR "relay"', 'context_text : "crane"', '"harbour crane"', '"thanks"']

    def answers() -> list:
        return [conn.execute(f"SELECT rowid, round(bm25({t}, 1.0, 0.6, 0.3), 9) FROM {t} WHERE {t} MATCH ?"
                             " ORDER BY rowid", (q,)).fetchall() for q in queries for t in fts_content.FTS_TABLES]

    expected = answers()
    assert any(expected)
    # Make it an index of schema 8: FTS tables that store their columns, filled as the old writer did.
    conn.execute("BEGIN")
    for table, view in fts_content.VIEWS.items():
        rows = conn.execute(f"SELECT id, search_text, path_text, context_text FROM {view}").fetchall()
        conn.execute(f"DROP TABLE {table}")
        conn.execute(f"DROP VIEW {view}")
        conn.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(search_text, path_text, context_text,"
                     f" tokenize='{FTS_TOKENIZER}')")
        conn.executemany(f"INSERT INTO {table}(rowid, search_text, path_text, context_text) VALUES (?, ?, ?, ?)", rows)
    conn.execute("UPDATE meta SET value = '8' WHERE key = 'schema_version'")
    conn.execute("COMMIT")
    assert conn.execute("SELECT COUNT(*) FROM chunks_fts_content").fetchone()[0] > 0
    mem.close()
    mem2 = Memory.open(str(ws), "2025-03-02")
    try:
        conn = mem2.store.conn
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
        assert conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%fts_content'").fetchall() == []
        check(conn)
        assert answers() == expected
        assert mem2.index().changed == 0  # nothing parsed again
    finally:
        mem2.close()
