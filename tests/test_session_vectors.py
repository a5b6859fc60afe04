"""Transcript messages get one vector each, of their first rows.SESSION_EMBED_CHARS characters (issue 27).

Memory Markdown keeps its two vectors an entry; the full-text index keeps every word of a message
and the message before it as context. An index built with the old scheme is rebuilt (SESSION_PARSER).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from conftest import index_db, recall_json, run_memory, run_ok
from session_files import conversation, write_lines
from workspace_memory.embed.fake import FakeEmbedder
from workspace_memory.index.embedding import texts_to_embed
from workspace_memory.index.rows import SESSION_EMBED_CHARS, text_hash
from workspace_memory.index.sqlite.vectors.embedding_cache import EmbeddingCache

FAKE = {"MEMORY_EMBED_PROVIDER": None}
LONG = ("I went through the reconnect logic of the bridge and the retry loop gives up after five tries, which "
        "hides the socket error the relay logs first; the backoff doubles from 200 ms and the last wait is 3.2 s. "
        "I also read the handler that closes idle sockets, and the timer that pings the relay every minute. Unrelated: the quarterly zeppelin audit moved to "
        "the ninth, and Wanjiru will run it from the Nairobi office with the new checklist.")


def _workspace(workspace: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "sessions"
    (workspace / "memory.toml").write_text(f'[embedding]\nprovider = "fake"\n\n[sessions]\npaths = ["{folder}"]\n',
                                           encoding="utf-8")
    write_lines(folder / "s1.jsonl", conversation("s1", datetime(2025, 11, 29, 8, tzinfo=UTC), [
        ("user", "Why does the bridge drop the socket?"), ("assistant", LONG), ("user", "Thanks, open a ticket.")]))
    return workspace


def _session_rows(ws: Path) -> list[tuple[str, str, str | None]]:
    with index_db(ws) as conn:
        return conn.execute("SELECT text, text_hash, ctx_hash FROM chunks WHERE role = 'session' ORDER BY id").fetchall()


def test_a_transcript_message_gets_one_vector_of_its_beginning(workspace: Path, tmp_path: Path) -> None:
    ws = _workspace(workspace, tmp_path)
    out = json.loads(run_ok(ws, "index", "--json", env=FAKE))
    rows = _session_rows(ws)
    assert len(rows) == 3
    assert all(ctx is None for _, _, ctx in rows)  # no context vector for a message
    texts = [text for text, _, _ in rows]
    assert "zeppelin" in texts[1] and "zeppelin" not in texts[1][:SESSION_EMBED_CHARS]
    assert [digest for _, digest, _ in rows] == [text_hash(t[:SESSION_EMBED_CHARS]) for t in texts]
    fake = FakeEmbedder()
    with index_db(ws) as conn:
        cached = EmbeddingCache(conn).get_many(fake.provider, fake.model, [d for _, d, _ in rows] + [text_hash(texts[1])])
        notes_with_context = conn.execute("SELECT count(*) FROM chunks WHERE role != 'session' AND ctx_hash IS NOT NULL"
                                          ).fetchone()[0]
        note_texts = conn.execute("SELECT count(DISTINCT text_hash) + count(DISTINCT ctx_hash) FROM chunks"
                                  " WHERE role != 'session'").fetchone()[0]
    assert text_hash(texts[1]) not in cached  # the whole long message was never embedded ...
    expected = fake.embed_documents([texts[1][:SESSION_EMBED_CHARS]])[0]
    assert np.allclose(cached[rows[1][1]], expected, atol=1e-6)  # ... its beginning was
    assert notes_with_context > 0  # memory Markdown keeps its context vectors
    assert out["embedded"] == note_texts + 3  # one text a message
    # The full-text index keeps the words after the cut, and the message before as context.
    found = recall_json(ws, "zeppelin audit Wanjiru", "--source", "sessions", "--mode", "lexical")["results"]
    assert found and found[0]["source"] == "sessions/s1.jsonl#L3"
    assert recall_json(ws, "bridge drop socket", "--source", "sessions", "--mode", "lexical")["results"]


def test_texts_to_embed_cuts_only_what_its_hash_names() -> None:
    note, message = "n" * 400, "m" * 400
    todo = texts_to_embed([(note, text_hash(note), None, None),
                           (message, text_hash(message[:SESSION_EMBED_CHARS]), None, None)])
    assert todo == {text_hash(note): note, text_hash(message[:SESSION_EMBED_CHARS]): message[:SESSION_EMBED_CHARS]}


def test_an_index_of_the_old_scheme_reads_its_transcripts_again(workspace: Path, tmp_path: Path) -> None:
    ws = _workspace(workspace, tmp_path)
    run_ok(ws, "index", env=FAKE)
    with sqlite3.connect(ws / ".memory" / "index.sqlite") as conn:  # as SESSION_PARSER 1 left it
        stored = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0])
        conn.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (json.dumps(stored | {"sessions": 1}),))
        conn.execute("UPDATE chunks SET ctx_hash = 'old' WHERE role = 'session'")
    code, out, err = run_memory(ws, "index", env=FAKE)
    assert code == 0 and "sessions 1 -> 2" in out + err
    assert all(ctx is None for _, _, ctx in _session_rows(ws))
