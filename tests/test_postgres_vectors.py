"""Vector search in the Postgres store: a big workspace on pgvector < 0.8 gets an HNSW index of its own,
its searches use it (EXPLAIN says so), and they find what an exact search finds."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import NOW, build_workspace, run_ok
from pg_fixtures import store_environ, use_postgres
from workspace_memory.api import Memory
from workspace_memory.index.base import Filters
from workspace_memory.index.postgres import vectors as pg_vectors


class _Rollback(Exception):
    """Raised to roll a transaction back."""


def test_a_big_workspace_on_old_pgvector_gets_its_own_hnsw_index(tmp_path: Path, pg_url: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = use_postgres(build_workspace(tmp_path / "ws"), pg_url)
    fake = {"MEMORY_EMBED_PROVIDER": "fake"}
    run_ok(root, "index", env=fake)  # the real thresholds: a small workspace gets no index of its own
    monkeypatch.setenv("MEMORY_EMBED_PROVIDER", "fake")
    with store_environ(root):
        mem = Memory.open(str(root), NOW)
        embedder, _ = mem.embedder()
        vectors = mem.store.vectors(embedder)
        db = mem.store.db
        if db.pgvector_at_least(0, 8):
            pytest.skip("pgvector >= 0.8 searches one workspace with iterative scans; no index of its own")
        ws_id = mem.store.own_id(create=False)
        name = pg_vectors.own_index_name(vectors.space, ws_id)

        def exists() -> bool:
            return db.conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()[0]

        assert not exists()
        # Thresholds this workspace passes: it holds more than "half the database" of nothing else
        # would let it search exactly, so only its own index makes the search an index scan.
        monkeypatch.setattr(pg_vectors, "EXACT_THRESHOLD", 10)
        monkeypatch.setattr(pg_vectors, "OWN_INDEX_MIN", 10)
        mem.store.vectors(embedder).update()
        assert exists()
        fresh = mem.store.vectors(embedder)  # as another process would see it
        assert fresh._plan() == "own"
        query = embedder.embed_query("Baileys reconnect")
        # Can the planner use it for the search's query? A tiny table costs the same through either
        # index (and is scanned and sorted): without those or the shared index (DDL rolls back), only this one is left.
        with pytest.raises(_Rollback), db.transaction():
            db.conn.execute("SELECT set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true)")
            db.conn.execute(f"DROP INDEX chunk_vectors_hnsw_{int(fresh.space)}")
            sql, params = fresh.search_sql(query, 5, Filters(), "own")
            plan = "\n".join(r[0] for r in db.conn.execute("EXPLAIN " + sql, params))
            assert name in plan, plan
            raise _Rollback
        found = fresh.search(query, 5, Filters())
        exact = fresh._nearest(query, 5, Filters(), "exact")
        best_exact = sorted({cid for cid, _ in exact[:3]})
        assert [cid for cid, _ in found][:1] == [min(exact, key=lambda r: (r[1], r[0]))[0]]
        assert set(best_exact) <= {cid for cid, _ in fresh._nearest(query, 5, Filters(), "own")}
        mem.close()
