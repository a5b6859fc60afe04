"""Vectors in Postgres: the shared embedding cache, each workspace's chunk vectors, pgvector HNSW search.

Each embedder identity is a vector space (`vector_spaces`) with its own partial HNSW index on
`chunk_vectors` (cosine, over `embedding::vector(dim)`), created the first time the space is
used. Bringing a workspace up to date:

1. Embed the texts of its entries that the cache (shared by every workspace of the database)
   does not hold yet; a text another agent already embedded costs nothing.
2. Copy the vectors of entries that have none from the cache into `chunk_vectors` (in SQL;
   vectors of deleted entries went with their rows at sync).
3. Record the workspace generation the vectors are complete for, so the next recall checks
   one row instead of the whole workspace.

Search is exact (a scan ordered by distance) while the view holds fewer than EXACT_THRESHOLD
vectors, as in the SQLite store, and uses HNSW beyond. The HNSW index spans every workspace of
the database; pgvector 0.8's iterative scans keep a search within one workspace (or a filter)
from coming back short. Older pgvector stops after `hnsw.ef_search` neighbours and filters
afterwards, so there a view that holds under half of the space's vectors is searched exactly
(the scan is bounded by the workspace's rows), and a short HNSW answer is searched again exactly.

An exact scan of a big workspace is slow (about 100 ms for 200k vectors), so on older pgvector
a workspace with at least OWN_INDEX_MIN vectors gets an HNSW index of its own, partial on its
workspace id, made by the indexer (never by a recall: replicas are read-only). Its search names
the workspace and space as constants, which is what lets the planner use a partial index. On
pgvector >= 0.8 the shared index and iterative scans do this, and no such index is made.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..base import Filters
from ..embedding import embed_in_batches, texts_to_embed
from ..records import VectorUpdate
from .reads import named_filter
from .schema import LOCK_SCHEMA

if TYPE_CHECKING:
    from ...embed.base import Embedder
    from .connection import Database
    from .lexical import Stats

EXACT_THRESHOLD = 20_000  # vectors; below, an exact scan is fast and perfect (see index.sqlite.vectors.hnsw)
HNSW_EF_SEARCH = 100
OWN_INDEX_MIN = 50_000  # vectors of one workspace; from here, pgvector < 0.8 gets it its own HNSW index


def own_index_name(space: int, workspace_id: int) -> str:
    """The name of one workspace's own HNSW index in one vector space (module docstring)."""
    return f"chunk_vectors_hnsw_{int(space)}_w{int(workspace_id)}"


class StoreView(Protocol):
    """What the vectors need of a PostgresStore (index.postgres.store), which makes them."""

    db: Database

    @property
    def ids(self) -> list[int]: ...

    def own_id(self, create: bool = True) -> int | None: ...

    def scoped(self, filters: Filters) -> Filters: ...

    def stats(self) -> Stats: ...


def ensure_space(store: StoreView, embedder: Embedder) -> int:
    """The space id of this embedder identity, registering it (and its HNSW index) the first time."""
    conn = store.db.conn
    identity = embedder.identity()
    row = conn.execute("SELECT space_id FROM vector_spaces WHERE identity = %s", (identity,)).fetchone()
    if row:
        return row[0]
    with store.db.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s, 1)", (LOCK_SCHEMA,))
        row = conn.execute("SELECT space_id FROM vector_spaces WHERE identity = %s", (identity,)).fetchone()
        if row:
            return row[0]
        space = conn.execute("INSERT INTO vector_spaces(identity, provider, model, dim) VALUES (%s, %s, %s, %s)"
                             " RETURNING space_id", (identity, embedder.provider, embedder.model,
                                                     int(embedder.dim))).fetchone()[0]
        conn.execute(f"CREATE INDEX IF NOT EXISTS chunk_vectors_hnsw_{int(space)} ON chunk_vectors USING hnsw"
                     f" ((embedding::vector({int(embedder.dim)})) vector_cosine_ops) WHERE space_id = {int(space)}")
    return space


class PostgresVectors:
    """One embedder's vectors in the Postgres store (index.base.VectorIndex)."""

    def __init__(self, store: StoreView, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder
        self._space: int | None = None
        self._own_index: set[int] = set()  # workspaces whose own HNSW index exists (it is never dropped)

    @property
    def space(self) -> int:
        if self._space is None:
            self._space = ensure_space(self.store, self.embedder)
        return self._space

    # -- a long-lived process (the MCP server, `memory watch`): the server does the work ------------
    def load_graph(self) -> None:
        """Nothing to load: the server keeps its HNSW index in its own memory."""

    def follow(self, before: int, new_ids: Sequence[int], removed_ids: Sequence[int], *,
               encode: Callable[[list[str]], np.ndarray] | None = None, budget: float | None = None) -> bool:
        """False: searches read the live table, so there is nothing loaded to bring along (the next
        update() embeds what the sync added)."""
        del before, new_ids, removed_ids, encode, budget
        return False

    def embed_new(self, *, encode: Callable[[list[str]], np.ndarray] | None = None) -> VectorUpdate:
        """Nothing between indexings: new text is embedded by the next update() (`memory index`, a recall)."""
        del encode
        return VectorUpdate()

    def missing(self) -> None:
        """Not counted here (`memory index` says what it embedded)."""
        return None

    # -- keeping up --------------------------------------------------------------------------
    def update(self, *, encode: Callable[[list[str]], np.ndarray] | None = None, embed: bool = True,
               budget: float | None = None, progress: Callable[[int, int], None] | None = None,
               wait: float = 0) -> VectorUpdate:
        """Embed what is missing (within `budget` seconds), then fill the workspace's chunk vectors."""
        del wait  # nothing here is a shared file: Postgres takes care of concurrent writers
        with self.store.db.guard():
            ws_id = self.store.own_id(create=False)
            if ws_id is None:
                return VectorUpdate()  # a view or a store-only workspace: nothing of ours to embed
            conn = self.store.db.conn
            self._ensure_own_index(ws_id)
            generation, done = conn.execute(
                "SELECT w.generation, s.generation FROM workspaces w LEFT JOIN vector_state s ON s.workspace_id ="
                " w.workspace_id AND s.space_id = %s WHERE w.workspace_id = %s", (self.space, ws_id)).fetchone()
            if done == generation:
                return VectorUpdate()
            items = self._missing(ws_id)
            embedded = 0
            if embed and items:
                embedded = embed_in_batches(items, encode or self.embedder.embed_documents, self._put,
                                            budget=budget, progress=progress)
            with self.store.db.transaction():
                self._fill(ws_id)
                if embedded == len(items):
                    conn.execute("INSERT INTO vector_state(workspace_id, space_id, generation) VALUES (%s, %s, %s)"
                                 " ON CONFLICT (workspace_id, space_id) DO UPDATE SET generation = EXCLUDED.generation",
                                 (ws_id, self.space, generation))
            return VectorUpdate(embedded, len(items) - embedded)

    def _ensure_own_index(self, ws_id: int) -> None:
        """On pgvector < 0.8, an HNSW index of the workspace's own once it holds OWN_INDEX_MIN vectors.

        Made in a transaction under the schema lock, as the space's shared index is: other indexers
        wait for its build (once in a workspace's life); from then on Postgres keeps it up to date.
        """
        db = self.store.db
        if db.pgvector_at_least(0, 8) or self._has_own_index(ws_id):
            return
        stats = self.store.stats()
        if 2 * (stats.chunks + stats.sessions) < OWN_INDEX_MIN:  # two vectors an entry (alone, in context)
            return
        dim = int(self.embedder.dim)
        with db.transaction():
            db.conn.execute("SELECT pg_advisory_xact_lock(%s, 1)", (LOCK_SCHEMA,))
            db.conn.execute(f"CREATE INDEX IF NOT EXISTS {own_index_name(self.space, ws_id)} ON chunk_vectors"
                            f" USING hnsw ((embedding::vector({dim})) vector_cosine_ops)"
                            f" WHERE space_id = {int(self.space)} AND workspace_id = {int(ws_id)}")
        self._own_index.add(ws_id)

    def _has_own_index(self, ws_id: int) -> bool:
        if ws_id not in self._own_index:
            name = own_index_name(self.space, ws_id)
            if self.store.db.conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()[0]:
                self._own_index.add(ws_id)
        return ws_id in self._own_index

    def _missing(self, ws_id: int) -> list[tuple[str, str]]:
        e = self.embedder
        return missing_texts(self.store.db.conn, ws_id, e.provider, e.model, int(e.dim))

    def _put(self, vectors: Mapping[str, np.ndarray]) -> None:
        put_cached(self.store.db.conn, self.embedder.provider, self.embedder.model, vectors)

    def _fill(self, ws_id: int) -> None:
        """Copy cached vectors into chunk_vectors for the entries that have none (both kinds)."""
        e = self.embedder
        for which, column in ((0, "text_hash"), (1, "ctx_hash")):
            self.store.db.conn.execute(
                "INSERT INTO chunk_vectors(workspace_id, space_id, chunk_id, which, embedding)"
                f" SELECT c.workspace_id, %(s)s, c.id, {which}, e.vector FROM chunks c JOIN embedding_cache e"
                f" ON e.provider = %(p)s AND e.model = %(m)s AND e.hash = c.{column} AND e.dim = %(d)s"
                " WHERE c.workspace_id = %(ws)s AND NOT EXISTS (SELECT 1 FROM chunk_vectors v"
                "   WHERE v.workspace_id = c.workspace_id AND v.space_id = %(s)s AND v.chunk_id = c.id"
                f"   AND v.which = {which}) ON CONFLICT DO NOTHING",
                {"ws": ws_id, "s": self.space, "p": e.provider, "m": e.model, "d": int(e.dim)})

    # -- search ------------------------------------------------------------------------------
    def search(self, query: np.ndarray, k: int, filters: Filters) -> list[tuple[int, float]]:
        """The `k` nearest entries: (chunk id, the better cosine of its two vectors)."""
        with self.store.db.guard():
            plan = self._plan()
            rows = self._nearest(query, k, filters, plan)
            if len(rows) < 2 * k and plan != "exact":
                rows = self._nearest(query, k, filters, "exact")  # HNSW came back short (filters, old pgvector)
        best: dict[int, float] = {}
        for cid, d in rows:
            best[cid] = max(1.0 - float(d), best.get(cid, -1.0))
        return sorted(best.items(), key=lambda item: (-item[1], item[0]))[:k]

    def _plan(self) -> str:
        """"exact" for small views and for a small share of the database without iterative scans,
        "own" for one workspace with its own HNSW index, else "hnsw" (the space's shared index)."""
        stats = self.store.stats()
        mine = stats.chunks + stats.sessions
        if mine * 2 < EXACT_THRESHOLD:
            return "exact"
        if self.store.db.pgvector_at_least(0, 8):
            return "hnsw"
        ids = self.store.ids
        if len(ids) == 1 and self._has_own_index(ids[0]):
            return "own"
        total = self.store.db.conn.execute("SELECT COALESCE(sum(chunk_count + session_count), 0) FROM workspaces"
                                           ).fetchone()[0]
        return "exact" if mine * 2 < total else "hnsw"

    def _nearest(self, query: np.ndarray, k: int, filters: Filters, plan: str) -> list[tuple[int, float]]:
        """(chunk id, cosine distance) of up to 2k vectors nearest to `query` in the view."""
        sql, named = self.search_sql(query, k, filters, plan)
        with self._search_settings(plan == "exact", k):
            return self.store.db.conn.execute(sql, named).fetchall()

    def search_sql(self, query: np.ndarray, k: int, filters: Filters, plan: str) -> tuple[str, dict]:
        """The statement and parameters of one search (tests EXPLAIN it)."""
        ws = self.store.ids
        where, named = named_filter(self.store.scoped(filters))
        dim = int(self.embedder.dim)
        distance = ("v.embedding <=> %(q)s" if plan == "exact"
                    else f"v.embedding::vector({dim}) <=> %(q)s::vector({dim})")
        scope = ""
        named |= {"ws": ws, "q": np.asarray(query, dtype=np.float32), "n": k * 2}
        if where:
            scope = f" AND v.chunk_id IN (SELECT c.id FROM chunks c WHERE c.workspace_id = ANY(%(ws)s) AND {where})"
        # A constant, not a parameter, for the workspace's own index: a partial index is only
        # chosen when the planner can prove its predicate, and a generic plan cannot.
        mine = f"= {int(ws[0])}" if plan == "own" else "= ANY(%(ws)s)"
        return (f"SELECT v.chunk_id, {distance} AS d FROM chunk_vectors v WHERE v.space_id = {self.space}"
                f" AND v.workspace_id {mine}{scope} ORDER BY d LIMIT %(n)s"), named

    @contextlib.contextmanager
    def _search_settings(self, exact: bool, k: int):
        """ef_search at least 2k, and iterative scans (pgvector >= 0.8), for this transaction only."""
        conn = self.store.db.conn
        if exact:
            yield
            return
        outer = conn.info.transaction_status != 0
        with contextlib.nullcontext() if outer else self.store.db.transaction():
            conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(max(HNSW_EF_SEARCH, 2 * k)),))
            if self.store.db.pgvector_at_least(0, 8):
                conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
            yield

    def sample(self, n: int) -> tuple[np.ndarray, int]:
        """Up to `n` entries' own vectors (`which` 0), evenly spread by id, and the number of entries
        with vectors in this space (index.base.VectorIndex.sample)."""
        from ...embed.calibration import sample_rows

        with self.store.db.guard():
            ids = [cid for (cid,) in self.store.db.conn.execute(
                "SELECT chunk_id FROM chunk_vectors WHERE workspace_id = ANY(%s) AND space_id = %s AND which = 0"
                " ORDER BY chunk_id", (self.store.ids, self.space))]
        chosen = self.vectors_of(sample_rows(ids, n))
        rows = [chosen[cid][0] for cid in sorted(chosen)]
        return (np.vstack(rows) if rows else np.zeros((0, self.embedder.dim), np.float32)), len(ids)

    def vectors_of(self, ids: Sequence[int]) -> dict[int, np.ndarray]:
        """The stored vectors of some entries: id -> (1 or 2, dim) array (the entry's own first)."""
        out: dict[int, list[np.ndarray]] = {}
        with self.store.db.guard():
            # Binary: pgvector's text form is parsed float by float in Python (1.3 s of 3 s over
            # 9 hybrid recalls of a LoCoMo conversation); its binary form is read as one buffer.
            for cid, vector in self.store.db.conn.execute(
                "SELECT chunk_id, embedding FROM chunk_vectors WHERE workspace_id = ANY(%s) AND space_id = %s"
                " AND chunk_id = ANY(%s) ORDER BY chunk_id, which", (self.store.ids, self.space, list(ids)),
                    binary=True):
                out.setdefault(cid, []).append(as_array(vector))
            stacked = {cid: np.vstack(vecs) for cid, vecs in out.items()}
            # An entry inside a vector window (rows.share_vectors: its previous entry of the file has
            # its text hash) holds the window's vector: a zero first row says it has none of its own, as
            # in the SQLite store, so that diversity never takes window-mates for near-duplicates.
            members = [cid for (cid,) in self.store.db.conn.execute(
                "SELECT c.id FROM chunks c JOIN chunks p ON p.workspace_id = c.workspace_id AND p.id = c.id - 1"
                " AND p.path = c.path AND p.text_hash = c.text_hash WHERE c.workspace_id = ANY(%s)"
                " AND c.id = ANY(%s)", (self.store.ids, list(stacked)))] if stacked else []
        for cid in members:
            stacked[cid] = np.vstack([np.zeros_like(stacked[cid][:1]), stacked[cid]])
        return stacked


def missing_texts(conn, ws_id: int, provider: str, model: str, dim: int) -> list[tuple[str, str]]:
    """(hash, text) of the workspace's embedded texts that the shared cache holds no vector of
    (`dim` long) for this provider and model (IndexWriter.texts_without_vectors)."""
    rows = conn.execute(
        "SELECT c.text, c.text_hash, c.ctx_hash, p.text FROM chunks c LEFT JOIN chunks p"
        " ON p.workspace_id = c.workspace_id AND p.id = c.id - 1 AND p.path = c.path"
        " WHERE c.workspace_id = %(ws)s AND (NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = %(p)s"
        "   AND e.model = %(m)s AND e.hash = c.text_hash AND e.dim = %(d)s)"
        " OR (c.ctx_hash IS NOT NULL AND NOT EXISTS (SELECT 1 FROM embedding_cache e WHERE e.provider = %(p)s"
        "   AND e.model = %(m)s AND e.hash = c.ctx_hash AND e.dim = %(d)s))) ORDER BY c.id",
        {"ws": ws_id, "p": provider, "m": model, "d": dim}).fetchall()
    todo = texts_to_embed(rows)
    if todo:
        have = {h for (h,) in conn.execute(
            "SELECT hash FROM embedding_cache WHERE provider = %s AND model = %s AND dim = %s AND hash = ANY(%s)",
            (provider, model, dim, list(todo)))}
        todo = {h: t for h, t in todo.items() if h not in have}
    return list(todo.items())


def put_cached(conn, provider: str, model: str, vectors: Mapping[str, np.ndarray]) -> None:
    """Add vectors to the shared cache (a text another process embedded meanwhile is kept as it is)."""
    rows = [(provider, model, h, int(np.asarray(v).shape[-1]), np.asarray(v, dtype=np.float32))
            for h, v in vectors.items()]
    if rows:
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO embedding_cache(provider, model, hash, dim, vector) VALUES (%s, %s, %s, %s, %s)"
                            " ON CONFLICT DO NOTHING", rows)


def as_array(vector: object) -> np.ndarray:
    """A pgvector value as float32 (pgvector-python returns its own Vector, or an array)."""
    to_numpy = getattr(vector, "to_numpy", None)
    return np.asarray(to_numpy() if to_numpy else vector, dtype=np.float32)
