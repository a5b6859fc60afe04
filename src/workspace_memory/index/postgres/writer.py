"""PostgresWriter: the IndexWriter port (index.ports) over one workspace of the Postgres store — SQL only.

The algorithm is index.indexer's and index.sessions'; this module says how each step is written
here: every row carries its workspace_id; rows go in with COPY; an entry's words are a tsvector
(words.py) and their counts per workspace are kept in `lexemes` (Markdown) and `session_lexemes`
(transcripts); the workspace's advisory lock lets indexers of one workspace take turns while
those of different workspaces run side by side; the fingerprint, the generation and the counters
BM25 and IDF use are columns of `workspaces`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .schema import ROWS_SCHEMA
from .words import TOKENIZER, WEIGHT_CONTEXT, WEIGHT_PATH, WEIGHT_TEXT, tsvector_literal

if TYPE_CHECKING:
    import numpy as np

    from ..ports import Cached, Document, EntitySources, Known
    from ..records import SessionState
    from .connection import Database

ID_SHIFT = 32  # chunk id = workspace_id << ID_SHIFT | the workspace's own counter
CHUNK_COLUMNS = ("workspace_id", "id", "path", "start_line", "end_line", "entry_start", "kind", "heading", "text",
                 "role", "day", "t_start", "t_end", "text_hash", "ctx_hash", "n_tokens", "words", "cjk", "invalid_at",
                 "at")
_FACT_COLUMNS = ("workspace_id", "id", "path", "line", "kind", "content", "confidence", "day", "occurred_start",
                 "occurred_end", "end_line", "bullet", "invalid_at", "invalid_reason")
# Where the words of each source are counted: Markdown entries, session messages (kept apart, as SQLite
# keeps them in two FTS tables, so that a recall of one source ranks with that source's counts).
WORD_TABLES = ("lexemes", "session_lexemes")
# SessionState field -> session_files column, where they differ ("offset" is a reserved word).
_SESSION_COLUMNS = {"key": "path", "offset": "read_to", "digest": "head"}

_COUNT_WORDS = """
    INSERT INTO {table} AS l (workspace_id, lexeme, df_main, df_any)
    SELECT %(ws)s, u.lexeme, %(sign)s * count(*) FILTER (WHERE u.weights && ARRAY['A', 'B']), %(sign)s * count(*)
    FROM chunks c, unnest(c.words) u WHERE c.workspace_id = %(ws)s AND {where} GROUP BY u.lexeme
    ON CONFLICT (workspace_id, lexeme) DO UPDATE
    SET df_main = l.df_main + EXCLUDED.df_main, df_any = l.df_any + EXCLUDED.df_any"""


def recount(db: Database, ws_id: int) -> None:
    """A new generation, and the counters BM25 and IDF use (per source) and those of struck entries,
    after rows changed (a Markdown sync, transcripts, a purge)."""
    db.conn.execute(
        "UPDATE workspaces w SET generation = generation + 1, chunk_count = n.chunks, token_count = n.tokens,"
        " session_count = n.sessions, session_tokens = n.session_tokens, invalid_count = n.invalid"
        " FROM (SELECT count(*) FILTER (WHERE role <> 'session') AS chunks,"
        " COALESCE(sum(n_tokens) FILTER (WHERE role <> 'session'), 0) AS tokens,"
        " count(*) FILTER (WHERE role = 'session') AS sessions,"
        " COALESCE(sum(n_tokens) FILTER (WHERE role = 'session'), 0) AS session_tokens,"
        " count(*) FILTER (WHERE invalid_at IS NOT NULL) AS invalid FROM chunks WHERE workspace_id = %(ws)s) n"
        " WHERE w.workspace_id = %(ws)s", {"ws": ws_id})
    db.conn.execute(  # the files' language counts summed (index.rows.language_counts)
        "UPDATE workspaces SET languages = (SELECT COALESCE(jsonb_object_agg(key, n), '{}') FROM"
        " (SELECT j.key, sum(j.value::int) AS n FROM files f, jsonb_each_text(f.languages) j"
        " WHERE f.workspace_id = %(ws)s GROUP BY j.key) s) WHERE workspace_id = %(ws)s", {"ws": ws_id})
    for table in WORD_TABLES:
        db.conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s AND df_any <= 0", (ws_id,))


def next_ids(conn: Any, ws_id: int, n: int) -> int:
    """The first of `n` new chunk ids of the workspace. Ids are never reused: vectors and neighbours
    key on them (see index.base)."""
    first = conn.execute("UPDATE workspaces SET next_chunk_id = next_chunk_id + %s WHERE workspace_id = %s"
                         " RETURNING next_chunk_id - %s", (n, ws_id, n)).fetchone()[0]
    return (ws_id << ID_SHIFT) + first


def chunk_words(chunk: dict[str, Any]) -> tuple[str, int]:
    """A chunk's words as a tsvector literal (words.py: text, path, previous entry), and their number."""
    return tsvector_literal(((WEIGHT_TEXT, chunk["search_text"]), (WEIGHT_PATH, chunk["path_text"]),
                             (WEIGHT_CONTEXT, chunk["context_text"])))


def chunk_row(ws_id: int, cid: int, chunk: dict[str, Any]) -> tuple:
    """A chunk's row for COPY (CHUNK_COLUMNS), with its words as a tsvector (words.py)."""
    words, n_tokens = chunk_words(chunk)
    return (ws_id, cid, chunk["path"], chunk["start_line"], chunk["end_line"], chunk["entry_start"], chunk["kind"],
            chunk["heading"], chunk["text"], chunk["role"], chunk["day"], chunk["t_start"], chunk["t_end"],
            chunk["text_hash"], chunk["ctx_hash"], n_tokens, words, chunk["cjk"], chunk["invalid_at"], chunk["at"])


def copy_rows(conn: Any, table: str, columns: tuple[str, ...], rows: list[tuple]) -> None:
    if not rows:
        return
    with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def count_words(conn: Any, ws_id: int, first: int, end: int, sign: int, table: str = WORD_TABLES[0]) -> None:
    """Add (or, with sign -1, take away) the words of chunks [first, end) to the workspace's counts in `table`."""
    conn.execute(_COUNT_WORDS.format(table=table, where="c.id >= %(first)s AND c.id < %(end)s"),
                 {"ws": ws_id, "sign": sign, "first": first, "end": end})


def known(db: Database, ws_id: int, paths: Sequence[str] | None = None) -> Known:
    sql = "SELECT path, mtime_ns, size, hash FROM files WHERE workspace_id = %s"
    rows = db.conn.execute(sql, (ws_id,)) if paths is None else db.conn.execute(
        sql + " AND path = ANY(%s)", (ws_id, list(paths)))
    return {p: (m, s, h) for p, m, s, h in rows}


class PostgresWriter:
    """index.ports.IndexWriter over workspace `ws_id` of the database `db`."""

    schema, tokenizer = ROWS_SCHEMA, TOKENIZER
    keeps_texts = True  # `get` and recall work on a machine without the checkout

    def __init__(self, db: Database, ws_id: int) -> None:
        self.db, self.ws_id = db, ws_id

    # -- lock and transactions ------------------------------------------------------------------
    def lock(self, wait: float | None) -> contextlib.AbstractContextManager[bool]:
        return self.db.index_lock(self.ws_id, wait)

    def transaction(self) -> contextlib.AbstractContextManager[Any]:
        return self.db.transaction()

    # -- what is stored ---------------------------------------------------------------------------
    def stored(self, paths: Sequence[str] | None) -> tuple[dict[str, Any] | None, bool, Known]:
        """The fingerprint and the file stats, in one round trip when nothing changed.

        A recall pays this before every answer, so the stats of the whole workspace (thousands of
        rows) are kept in `db.file_stats` with the (generation, last sync) they were read at, and
        read again only when those changed: every sync that takes the indexer lock ends by setting
        both (finish). A sync that died halfway leaves them as they were; the stats kept then only
        make files look changed that another process already indexed, and the sync that follows
        looks again under the lock (recheck) before it writes anything.
        """
        head = self.db.conn.execute(
            "SELECT fingerprint, generation, last_sync, EXISTS (SELECT 1 FROM files x"
            " WHERE x.workspace_id = w.workspace_id) FROM workspaces w WHERE w.workspace_id = %s",
            (self.ws_id,)).fetchone()
        stored, version, has_rows = (head[0], head[1:3], head[3]) if head else (None, None, False)
        if paths is not None:
            return stored, has_rows, known(self.db, self.ws_id, paths) if paths else {}
        kept = self.db.file_stats.get(self.ws_id)
        if kept is None or kept[0] != version:
            kept = self.db.file_stats[self.ws_id] = (version, known(self.db, self.ws_id))
        return stored, has_rows, kept[1]

    def session_states(self) -> dict[str, SessionState]:
        from dataclasses import fields  # lazy: a recall creates no dataclass and imports none of this

        from ..records import SessionState

        cols = ", ".join(_SESSION_COLUMNS.get(f.name, f.name) for f in fields(SessionState))
        return {row[0]: SessionState(*row) for row in self.db.conn.execute(
            f"SELECT {cols} FROM session_files WHERE workspace_id = %s", (self.ws_id,))}

    # -- writing rows ---------------------------------------------------------------------------
    def clear(self) -> None:
        # Session rows go too (their read state with them): the next session sync reads every transcript whole.
        for table in ("chunk_vectors", "vector_state", *WORD_TABLES, "facts", "mentions", "chunk_days", "chunks",
                      "warnings", "files", "entities", "session_files"):
            self.db.conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s", (self.ws_id,))

    def touch(self, path: str, mtime_ns: int, size: int) -> None:
        self.db.conn.execute("UPDATE files SET mtime_ns = %s, size = %s WHERE workspace_id = %s AND path = %s",
                             (mtime_ns, size, self.ws_id, path))

    def delete_files(self, paths: Sequence[str]) -> tuple[list[int], set[str]]:
        keys = {r[0] for r in self.db.conn.execute(
            "SELECT DISTINCT m.entity_key FROM mentions m JOIN chunks c ON c.workspace_id = m.workspace_id"
            " AND c.id = m.chunk_id WHERE c.workspace_id = %s AND c.path = ANY(%s)", (self.ws_id, list(paths)))}
        return self._delete(paths, WORD_TABLES[0]), keys

    def _delete(self, paths: Sequence[str], words: str) -> list[int]:
        """Delete every row of these files (chunks, their words' counts in `words`, facts, mentions,
        vectors); return the chunk ids."""
        conn, ws_id, paths = self.db.conn, self.ws_id, list(paths)
        ids = [r[0] for r in conn.execute("SELECT id FROM chunks WHERE workspace_id = %s AND path = ANY(%s)",
                                          (ws_id, paths))]
        if ids:
            conn.execute(_COUNT_WORDS.format(table=words, where="c.id = ANY(%(ids)s)"),
                         {"ws": ws_id, "sign": -1, "ids": ids})
            for table, column in (("chunk_vectors", "chunk_id"), ("facts", "id"), ("mentions", "chunk_id"),
                                  ("chunk_days", "chunk_id"), ("chunks", "id")):
                conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s AND {column} = ANY(%s)", (ws_id, ids))
        for table in ("warnings", "files"):
            conn.execute(f"DELETE FROM {table} WHERE workspace_id = %s AND path = ANY(%s)", (ws_id, paths))
        return ids

    def insert_documents(self, documents: Sequence[Document]) -> list[int]:
        """COPY the files, chunks, facts, mentions and warnings of a batch, and count their words."""
        conn, ws_id = self.db.conn, self.ws_id
        now = datetime.now(UTC)
        n_chunks = sum(len(rows.chunks) for rows, _ in documents)
        base = next_ids(conn, ws_id, n_chunks) if n_chunks else 0
        chunks, facts, mentions, warnings, files, days = [], [], [], [], [], []
        for rows, body in documents:
            f = rows.file
            files.append((ws_id, f["path"], f["hash"], f["mtime_ns"], f["size"], f["role"], f["day"], f["title"],
                          f["meta"], now, body, f.get("languages")))
            warnings += [(ws_id, f["path"], i, line, msg) for i, (line, msg) in enumerate(rows.warnings)]
            for chunk, fact, slugs in rows.chunks:
                cid = base + len(chunks)
                chunks.append(chunk_row(ws_id, cid, chunk))
                days += [(ws_id, cid, start, end) for start, end in chunk.get("named", ())]
                if fact is not None:
                    facts.append((ws_id, cid, *(fact[c] for c in _FACT_COLUMNS[2:])))
                seen: set[str] = set()
                for order, slug in enumerate(slugs):
                    if slug.lower() not in seen:
                        seen.add(slug.lower())
                        mentions.append((ws_id, cid, slug.lower(), slug, order))
        copy_rows(conn, "files", ("workspace_id", "path", "hash", "mtime_ns", "size", "role", "day", "title", "meta",
                                  "indexed_at", "body", "languages"), files)
        copy_rows(conn, "chunks", CHUNK_COLUMNS, chunks)
        copy_rows(conn, "facts", _FACT_COLUMNS, facts)
        copy_rows(conn, "mentions", ("workspace_id", "chunk_id", "entity_key", "slug", "ord"), mentions)
        copy_rows(conn, "chunk_days", ("workspace_id", "chunk_id", "t_start", "t_end"), days)
        copy_rows(conn, "warnings", ("workspace_id", "path", "ord", "line", "message"), warnings)
        if chunks:
            count_words(conn, ws_id, base, base + len(chunks), +1)
        return [c[1] for c in chunks]

    def entity_sources(self, keys: set[str] | None) -> EntitySources:
        conn = self.db.conn
        scope = "" if keys is None else " AND entity_key = ANY(%(keys)s)"
        params = {"ws": self.ws_id, "keys": sorted(keys or ())}
        spellings: dict[str, dict[str, int]] = {}
        for key, slug, count in conn.execute(
                f"SELECT entity_key, slug, count(*) FROM mentions WHERE workspace_id = %(ws)s{scope}"
                " GROUP BY entity_key, slug", params):
            spellings.setdefault(key, {})[slug] = count
        fact_counts = dict(conn.execute(
            "SELECT m.entity_key, count(*) FROM mentions m JOIN facts f ON f.workspace_id = m.workspace_id"
            f" AND f.id = m.chunk_id WHERE m.workspace_id = %(ws)s{scope.replace('entity_key', 'm.entity_key')}"
            " GROUP BY m.entity_key", params).fetchall())
        pages = [(path, dict(meta or {}), title) for path, meta, title in conn.execute(
            "SELECT path, meta, title FROM files WHERE workspace_id = %s AND path LIKE 'bank/entities/%%'",
            (self.ws_id,))]
        return spellings, fact_counts, pages

    def replace_entities(self, keys: set[str] | None, rows: list[tuple]) -> None:
        scope = "" if keys is None else " AND key = ANY(%(keys)s)"
        self.db.conn.execute(f"DELETE FROM entities WHERE workspace_id = %(ws)s{scope}",
                             {"ws": self.ws_id, "keys": sorted(keys or ())})
        copy_rows(self.db.conn, "entities", ("workspace_id", "key", "slug", "name", "page_path", "aliases",
                                             "fact_count"), [(self.ws_id, *row) for row in rows])

    def world_facts(self, keys: set[str] | None) -> list[tuple]:
        scope = "" if keys is None else (" AND f.id IN (SELECT chunk_id FROM mentions WHERE workspace_id = %(ws)s"
                                         " AND entity_key = ANY(%(keys)s))")
        rows = self.db.conn.execute(
            "SELECT f.id, f.path, f.line, f.content, f.confidence, f.day, m.entity_key FROM facts f"
            " JOIN mentions m ON m.workspace_id = f.workspace_id AND m.chunk_id = f.id"
            f" WHERE f.workspace_id = %(ws)s AND f.kind = 'world'{scope} ORDER BY f.id, m.ord",
            {"ws": self.ws_id, "keys": sorted(keys or ())}).fetchall()
        return [(r[0], r[1], r[2], r[3], r[4], r[5].isoformat() if r[5] else None, r[6]) for r in rows]

    def set_superseded(self, judged: list[int], replaced: dict[int, int]) -> None:
        self.db.conn.execute("UPDATE facts SET superseded_by = NULL WHERE workspace_id = %s AND id = ANY(%s)",
                             (self.ws_id, judged))
        with self.db.conn.cursor() as cur:
            cur.executemany("UPDATE facts SET superseded_by = %s WHERE workspace_id = %s AND id = %s",
                            [(new, self.ws_id, old) for old, new in replaced.items()])

    def finish(self, fingerprint: str, replace: bool) -> None:
        kept = "%(fp)s" if replace else "COALESCE(fingerprint, %(fp)s)"
        self.db.conn.execute(f"UPDATE workspaces SET last_sync = now(), fingerprint = {kept} WHERE workspace_id = %(ws)s",
                             {"ws": self.ws_id, "fp": fingerprint})

    def bump_generation(self, changes: tuple[list[int], list[int]] | None) -> None:
        del changes  # pgvector follows changes by itself: no delta is kept
        recount(self.db, self.ws_id)

    # -- session transcripts (index.sessions.SessionWriter) --------------------------------------
    def forget(self, key: str) -> list[int]:
        removed = self._delete([key], WORD_TABLES[1])
        self.db.conn.execute("DELETE FROM session_files WHERE workspace_id = %s AND path = %s", (self.ws_id, key))
        return removed

    def read_to(self, key: str) -> int:
        row = self.db.conn.execute("SELECT read_to FROM session_files WHERE workspace_id = %s AND path = %s",
                                   (self.ws_id, key)).fetchone()
        return row[0] if row else 0

    def last_entry(self, key: str) -> tuple[int, str] | None:
        return self.db.conn.execute("SELECT id, text FROM chunks WHERE workspace_id = %s AND path = %s"
                                    " ORDER BY id DESC LIMIT 1", (self.ws_id, key)).fetchone()

    def next_id(self) -> int:
        return self.db.conn.execute("SELECT (%s::bigint << 32) + next_chunk_id FROM workspaces"
                                    " WHERE workspace_id = %s", (self.ws_id, self.ws_id)).fetchone()[0]

    def insert(self, rows: list[dict[str, Any]]) -> list[int]:
        conn = self.db.conn
        first = next_ids(conn, self.ws_id, len(rows))
        copy_rows(conn, "chunks", CHUNK_COLUMNS, [chunk_row(self.ws_id, first + i, row) for i, row in enumerate(rows)])
        count_words(conn, self.ws_id, first, first + len(rows), +1, WORD_TABLES[1])
        return list(range(first, first + len(rows)))

    def save(self, state: SessionState) -> None:
        from dataclasses import asdict

        values = {_SESSION_COLUMNS.get(k, k): v for k, v in asdict(state).items()} | {"indexed_at": datetime.now(UTC)}
        cols = ", ".join(values)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in values if c != "path")
        self.db.conn.execute(f"INSERT INTO session_files (workspace_id, {cols})"
                             f" VALUES (%s, {', '.join(['%s'] * len(values))})"
                             f" ON CONFLICT (workspace_id, path) DO UPDATE SET {updates}",
                             (self.ws_id, *values.values()))

    # -- purging text from session entries --------------------------------------------------------
    def session_hits(self, pattern: str) -> list[tuple[int, str]]:
        return self.db.conn.execute("SELECT id, text FROM chunks WHERE workspace_id = %s AND role = 'session'"
                                    " AND strpos(text, %s) > 0", (self.ws_id, pattern)).fetchall()

    def set_session_text(self, cid: int, text: str, digest: str) -> None:
        self.db.conn.execute("UPDATE chunks SET text = %s, text_hash = %s WHERE workspace_id = %s AND id = %s",
                             (text, digest, self.ws_id, cid))

    def session_entry(self, cid: int) -> tuple[str, str, str | None, str | None] | None:
        return self.db.conn.execute(
            "SELECT c.text, c.path, c.ctx_hash, p.text FROM chunks c LEFT JOIN chunks p"
            " ON p.workspace_id = c.workspace_id AND p.id = c.id - 1 AND p.path = c.path"
            " WHERE c.workspace_id = %s AND c.id = %s AND c.role = 'session'", (self.ws_id, cid)).fetchone()

    def set_search_rows(self, cid: int, words: dict[str, str], ctx_hash: str | None) -> None:
        """The entry's tsvector, with its words' counts in `session_lexemes` moved from the old words
        to the new, and its stored vectors dropped."""
        conn, ws_id = self.db.conn, self.ws_id
        count_words(conn, ws_id, cid, cid + 1, -1, WORD_TABLES[1])
        vector, n_tokens = chunk_words(words)
        conn.execute("UPDATE chunks SET words = %s, n_tokens = %s, ctx_hash = %s WHERE workspace_id = %s AND id = %s",
                     (vector, n_tokens, ctx_hash, ws_id, cid))
        count_words(conn, ws_id, cid, cid + 1, +1, WORD_TABLES[1])
        conn.execute("DELETE FROM chunk_vectors WHERE workspace_id = %s AND chunk_id = %s", (ws_id, cid))

    # -- the embedding cache (shared by every workspace of the database) --------------------------
    def cached_embeddings(self) -> Cached:
        from .vectors import as_array  # lazy: numpy only when vectors move

        rows = self.db.conn.execute(
            "SELECT e.provider, e.model, e.hash, e.vector FROM embedding_cache e WHERE e.hash IN"
            " (SELECT text_hash FROM chunks WHERE workspace_id = %(ws)s UNION"
            "  SELECT ctx_hash FROM chunks WHERE workspace_id = %(ws)s)", {"ws": self.ws_id})
        return [(p, m, h, as_array(v)) for p, m, h, v in rows]

    def put_embeddings(self, provider: str, model: str, vectors: Mapping[str, np.ndarray]) -> None:
        from .vectors import put_cached

        with self.db.transaction():
            put_cached(self.db.conn, provider, model, vectors)

    def texts_without_vectors(self, provider: str, model: str, dim: int) -> list[tuple[str, str]]:
        from .vectors import missing_texts

        return missing_texts(self.db.conn, self.ws_id, provider, model, dim)
