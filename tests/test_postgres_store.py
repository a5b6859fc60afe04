"""The Postgres store on a real server: the same recall as SQLite, workspaces that never mix, concurrent
indexers, a server that goes away, store-only reads, moving between stores, and the words both stores see."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest

from conftest import (
    NOW,
    WORKSPACE_FILES,
    assert_one_line_error,
    build_workspace,
    clean_env,
    memory_executable,
    run_memory,
    run_ok,
    write_files,
)
from pg_fixtures import store_environ, store_name, unavailable, use_postgres
from workspace_memory.api import Memory
from workspace_memory.errors import StoreUnavailable
from workspace_memory.index.postgres import words
from workspace_memory.index.postgres.schema import SCHEMA_VERSION
from workspace_memory.index.postgres.words import lexemes
from workspace_memory.recall.query import RecallRequest

QUERIES = ["a828e60", "memorySearch.query.hybrid", "TypeError sendMessage", "OPS-4471", "config.json5",
           "where does Peter live", "what does Peter prefer", "espresso", "数据库", "東京", "quokka migration",
           "tell me about the castle", "Baileys reconnect", "birthday in Marrakech", "staging box"]


def pg_workspace(root: Path, url: str, files: dict[str, str] | None = None) -> Path:
    build_workspace(root) if files is None else write_files(root, files)
    return use_postgres(root, url)


def recall(root: Path, query: str, *args: str) -> dict:
    return json.loads(run_ok(root, "recall", query, "--json", "--mode", "lexical", *args))


# ------------------------------------------------------------------------------------------ the same recall


def test_the_words_of_both_stores_are_the_same() -> None:
    """words.py tokenizes and stems exactly as FTS5's `porter unicode61 remove_diacritics 2`."""
    texts = list(WORKSPACE_FILES.values()) + [
        "naïve café Ünïcödé straße Москвы 数据库迁移 東京s x² ½ ① e\u0301toile ﬁsh İstanbul Ølstykke 🧘 ok",
        "incredibly trekked bubbly psychology relational conditional hopefulness generalizations oscillators "
        "feed agreed plastered motoring hopping falling happy sky adjustable communism", "a" * 70 + "ing"]
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", list(enumerate(texts)))
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    words: dict[int, dict[int, str]] = {}
    for term, doc, _, offset in db.execute("SELECT term, doc, col, offset FROM v"):
        words.setdefault(doc, {})[offset] = term
    for doc, text in enumerate(texts):
        assert lexemes(text) == [words[doc][k] for k in sorted(words[doc])], text[:60]


def test_the_unicode61_tables_are_what_the_generator_writes_from_this_sqlite() -> None:
    """unicode61.json is generated (scripts/gen_unicode61.py asks SQLite's FTS5): regenerated here, it
    must be the file as committed, or the SQLite in use splits or folds some character otherwise."""
    import importlib.util

    script = Path(__file__).resolve().parents[1] / "scripts" / "gen_unicode61.py"
    spec = importlib.util.spec_from_file_location("gen_unicode61", script)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.OUT.read_text(encoding="utf-8") == gen.render(*gen.probe()), "run python scripts/gen_unicode61.py"
    assert gen.OUT.parent == Path(words.__file__).parent
    assert (words.LAST, words.TOKEN_RANGES[0], words.FOLDS[0xC0]) == (0x30000, (0xAA, 0xAA), "a")


def test_recall_gives_the_same_results_and_scores_on_both_stores(tmp_path: Path, pg_url: str) -> None:
    """Lexical and hybrid (the deterministic fake embedder): the same results, in order, with the same scores."""
    root = build_workspace(tmp_path / "ws")
    env = {"MEMORY_EMBED_PROVIDER": "fake"}
    run_ok(root, "index", env=env)
    pg = {"MEMORY_STORE_URL": pg_url, "MEMORY_STORE_WORKSPACE": store_name(tmp_path / "same")}
    run_ok(root, "index", env=env | pg)
    for mode in ("lexical", "hybrid"):
        lines = [json.dumps({"query": q, "k": 8}) for q in QUERIES]
        batch = tmp_path / "q.jsonl"
        batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
        on_sqlite = run_ok(root, "recall", "--batch", batch, "--json", "--mode", mode, env=env)
        on_postgres = run_ok(root, "recall", "--batch", batch, "--json", "--mode", mode, env=env | pg)
        for a, b in zip(on_sqlite.splitlines(), on_postgres.splitlines(), strict=True):
            a, b = json.loads(a), json.loads(b)
            assert [(r["source"], r["score"]) for r in a["results"]] == \
                   [(r["source"], r["score"]) for r in b["results"]], (mode, a["query"])
            assert a["mode"] == b["mode"] == mode


def test_the_words_read_from_a_tsvector_text_are_those_unnest_gives(pg_url: str) -> None:
    """BM25 reads each match's positions and weights from the tsvector's text form (quotes and
    backslashes doubled, weight D unwritten): the same as unnest() says; entries without a query word drop out."""
    import psycopg

    from workspace_memory.index.postgres.lexical import WORDS_TEXT, _positions

    literal = "'risk':14A,38B,40 'it''s':2C 'back\\\\slash':3,7A 'other':1 'riskier':5"
    sql = f"SELECT id, 5, {WORDS_TEXT.replace('c.words', 'v::tsvector')} FROM (VALUES (1, %s), (2, 'other:1')) t(id, v)"
    with psycopg.connect(pg_url, autocommit=True) as conn:
        got = _positions(conn, sql, [literal], [["risk"], ["it's", "back\\slash"], ["absent"]])
        unnested = conn.execute("SELECT lexeme, positions, weights FROM unnest(%s::tsvector)", [literal]).fetchall()
    expected = {lex: dict(zip(pos, w, strict=True)) for lex, pos, w in unnested if lex in ("risk", "it's", "back\\slash")}
    assert expected["risk"] == {14: "A", 38: "B", 40: "D"} and len(expected) == 3
    assert got == {1: (5, expected)}


# ------------------------------------------------------------------------------------------ workspaces


def test_two_workspaces_never_see_each_others_rows_without_all_workspaces(tmp_path: Path, pg_url: str) -> None:
    alpha = pg_workspace(tmp_path / "alpha", pg_url, {"MEMORY.md": "# Core\n\n- The zebrafish tank is in lab 4.\n"})
    beta = pg_workspace(tmp_path / "beta", pg_url, {"MEMORY.md": "# Core\n\n- The zebrafish feeder broke.\n"})
    for root in (alpha, beta):
        run_ok(root, "index")
    assert [r["content"] for r in recall(alpha, "zebrafish")["results"]] == ["- The zebrafish tank is in lab 4."]
    assert [r["content"] for r in recall(beta, "zebrafish")["results"]] == ["- The zebrafish feeder broke."]
    assert "workspace" not in recall(alpha, "zebrafish")["results"][0]
    both = recall(alpha, "zebrafish", "--workspace-name", store_name(alpha), "--workspace-name", store_name(beta))
    assert sorted((r["workspace"], r["content"]) for r in both["results"]) == sorted([
        (store_name(alpha), "- The zebrafish tank is in lab 4."), (store_name(beta), "- The zebrafish feeder broke.")])
    everywhere = recall(beta, "zebrafish", "--all-workspaces")
    assert {r["workspace"] for r in everywhere["results"]} == {store_name(alpha), store_name(beta)}
    code, out, err = run_memory(alpha, "recall", "zebrafish", "--workspace-name", "no-such-workspace")
    assert "no workspace named 'no-such-workspace'" in assert_one_line_error(code, out, err)


def test_recall_across_workspaces_needs_postgres(indexed_workspace: Path) -> None:
    code, out, err = run_memory(indexed_workspace, "recall", "Peter", "--all-workspaces")
    assert "needs a Postgres store" in assert_one_line_error(code, out, err)


def test_a_machine_without_the_checkout_reads_from_the_store(tmp_path: Path, pg_url: str) -> None:
    root = pg_workspace(tmp_path / "ws", pg_url)
    run_ok(root, "index")
    elsewhere = tmp_path / "elsewhere"  # no Markdown here: the workspace lives in the store only
    env = {"MEMORY_STORE_URL": pg_url, "MEMORY_STORE_WORKSPACE": store_name(root)}
    hits = json.loads(run_ok(elsewhere, "recall", "a828e60", "--json", "--mode", "lexical", env=env))["results"]
    assert hits[0]["path"] == "memory/2025-11-12.md"
    page = json.loads(run_ok(elsewhere, "get", hits[0]["path"], "--json", env=env))
    assert page["text"] == WORKSPACE_FILES["memory/2025-11-12.md"].rstrip("\n")
    cited = json.loads(run_ok(elsewhere, "get", f"{hits[0]['path']}#L{hits[0]['start_line']}", "--json", env=env))
    assert cited["start_line"] == hits[0]["start_line"]
    assert "a828e60" in run_ok(elsewhere, "entity", "warelay", env=env)
    status = json.loads(run_ok(elsewhere, "status", "--json", env=env))
    assert status["workspace"] is None and status["files"] == len(WORKSPACE_FILES)
    code, out, err = run_memory(elsewhere, "retain", "W @Peter: Moved.", env=env)
    assert "needs the workspace's Markdown" in assert_one_line_error(code, out, err)
    code, out, err = run_memory(elsewhere, "get", "memory/nope.md", env=env)
    assert "no such file" in assert_one_line_error(code, out, err)
    code, out, err = run_memory(tmp_path / "other", "status", env=env | {"MEMORY_STORE_WORKSPACE": "unknown-ws"})
    assert "holds no workspace named 'unknown-ws'" in assert_one_line_error(code, out, err)


# ------------------------------------------------------------------------------------------ concurrency


def _spawn(root: Path, *args: str) -> subprocess.Popen:
    from pg_fixtures import store_env

    cmd = [memory_executable(), "--workspace", str(root), "--now", NOW, *args]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=clean_env(store_env(root)))


def _many_days(root: Path, days: int = 120) -> None:
    for n in range(days):
        day = f"2024-{1 + n // 28:02d}-{1 + n % 28:02d}"
        (root / "memory" / f"{day}.md").write_text(
            f"# {day}\n\n## Notes\n- Standup {n}: the heron pipeline moved to stage {n}.\n"
            f"- Paired on ticket HX-{n:04d} about caching.\n", encoding="utf-8")


def test_two_indexers_of_one_workspace_take_turns_and_other_workspaces_run_alongside(
        tmp_path: Path, pg_url: str) -> None:
    one = pg_workspace(tmp_path / "one", pg_url)
    two = pg_workspace(tmp_path / "two", pg_url)
    for root in (one, two):
        _many_days(root)
    procs = [_spawn(one, "index", "--json"), _spawn(one, "index", "--json"), _spawn(two, "index", "--json")]
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reports.append(json.loads(out))
    # The two indexers of `one` serialised: one parsed the files, the other found them done.
    assert sorted(r["added"] for r in reports[:2]) == [0, len(WORKSPACE_FILES) + 120]
    assert reports[2]["added"] == len(WORKSPACE_FILES) + 120
    for root in (one, two):
        status = json.loads(run_ok(root, "status", "--json"))
        assert status["files"] == len(WORKSPACE_FILES) + 120
        hits = recall(root, "HX-0077")["results"]
        assert sum("HX-0077" in h["content"] for h in hits) == 1  # no duplicated rows


def test_recall_during_indexing_always_answers(tmp_path: Path, pg_url: str) -> None:
    root = pg_workspace(tmp_path / "ws", pg_url)
    run_ok(root, "index")
    _many_days(root, 200)
    indexer = _spawn(root, "index", "--rebuild")
    answers = 0
    while indexer.poll() is None or answers < 3:
        hits = recall(root, "a828e60")["results"]  # exit 0 asserted: never an error, never half a sync
        assert hits and hits[0]["path"] == "memory/2025-11-12.md"
        answers += 1
    assert indexer.wait(timeout=300) == 0, indexer.stderr.read() if indexer.stderr else ""


# ------------------------------------------------------------------------------------------ failures


def test_a_server_that_goes_away_mid_recall_is_one_clear_error_then_recovers(
        tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root = pg_workspace(tmp_path / "ws", pg_url)
    with store_environ(root):
        mem = Memory.open(str(root), NOW)
        mem.index()
        store = mem.store
        pool = type(store).lexical_pool

        def cut_off(self, *args, **kwargs):
            # The server ends this connection between two statements of the recall (an admin or a restart).
            import psycopg

            with psycopg.connect(pg_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (self.db.conn.info.backend_pid,))
            monkeypatch.setattr(type(store), "lexical_pool", pool)
            return pool(self, *args, **kwargs)

        monkeypatch.setattr(type(store), "lexical_pool", cut_off)
        with pytest.raises(StoreUnavailable, match=r"^cannot reach postgresql://\S+: .*terminat"):
            mem.recall(RecallRequest("a828e60", mode="lexical"))
        again = mem.recall(RecallRequest("a828e60", mode="lexical"))  # the next call connects again
        assert again["results"][0]["path"] == "memory/2025-11-12.md"
        mem.close()


def test_an_unreachable_server_is_one_line_with_exit_3_and_no_password(workspace: Path) -> None:
    env = {"MEMORY_STORE_URL": "postgresql://memory:s3cret-pw@127.0.0.1:9/memory"}
    code, out, err = run_memory(workspace, "recall", "Peter", env=env)
    line = assert_one_line_error(code, out, err)
    assert code == 3
    assert line == "memory: error: cannot reach postgresql://127.0.0.1:9/memory: connection refused"
    assert "s3cret" not in out + err


@pytest.mark.parametrize(("toml", "message"), [
    ('[store]\nurl = "postgresql://u:pw@db/memory"\n', "must not hold a password"),
    ('[store]\nurl = "mysql://db/memory"\n', "expected postgresql://"),
    ('[store]\nshard = 3\n', "unknown key 'shard'"),
    ('[store]\nworkspace = ""\n', "workspace must be a non-empty string"),
])
def test_bad_store_settings_are_one_line(workspace: Path, toml: str, message: str) -> None:
    (workspace / "memory.toml").write_text(toml, encoding="utf-8")
    code, out, err = run_memory(workspace, "status")
    line = assert_one_line_error(code, out, err)
    assert "memory.toml [store]" in line and message in line and "pw@" not in line


# ------------------------------------------------------------------------------------------ operations


def test_a_postgres_that_cannot_start_fails_in_ci_and_only_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="Postgres is required in CI: no server"):
        unavailable("no server")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        unavailable("no server")


def test_status_names_the_store_and_health_checks_the_server(tmp_path: Path, pg_url: str) -> None:
    root = pg_workspace(tmp_path / "ws", pg_url)
    status = json.loads(run_ok(root, "status", "--json"))
    assert status["index"].startswith("postgresql postgresql://") and store_name(root) in status["index"]
    health = json.loads(run_ok(root, "store", "health", "--json"))
    checks = {f["check"]: f for f in health["findings"]}
    assert checks["server"]["ok"] and "PostgreSQL" in checks["server"]["detail"]
    assert checks["pgvector"]["ok"] and checks["migrations"]["detail"].startswith(f"{SCHEMA_VERSION} of {SCHEMA_VERSION}")
    assert store_name(root) in json.loads(run_ok(root, "store", "list", "--json"))


def test_forget_and_export_work_on_postgres(tmp_path: Path, pg_url: str) -> None:
    """Struck facts leave recall (back with --include-invalid). (Transcripts: test_sessions.py, both stores.)"""
    root = pg_workspace(tmp_path / "ws", pg_url)
    run_ok(root, "index")
    query = "where does Peter live Vienna Acme"
    vienna = next(r["source"] for r in recall(root, query)["results"] if "Vienna" in r["content"])
    done = json.loads(run_ok(root, "forget", "Lives in Vienna", "--reason", "moved", "--json"))
    assert done["source"] == vienna and "~~" in (root / done["path"]).read_text(encoding="utf-8")
    assert vienna not in [r["source"] for r in recall(root, query)["results"]]
    shown = {r["source"]: r for r in recall(root, query, "--include-invalid")["results"]}
    assert shown[vienna]["invalid_at"] == "2025-11-30"
    assert json.loads(run_ok(root, "status", "--json"))["invalid_facts"] == 1
    exported = [json.loads(line) for line in run_ok(root, "export").splitlines()]
    assert any("Vienna" in r["content"] and r["invalid_at"] == "2025-11-30" for r in exported)
    run_ok(root, "forget", "--undo", vienna)
    assert vienna in [r["source"] for r in recall(root, query)["results"]]


def test_moving_to_postgres_and_back_embeds_nothing(tmp_path: Path, pg_url: str) -> None:
    root = build_workspace(tmp_path / "ws")
    fake = {"MEMORY_EMBED_PROVIDER": "fake"}
    run_ok(root, "index", env=fake)
    name = store_name(tmp_path / "moved")
    moved = json.loads(run_ok(root, "store", "export", "--to", pg_url, "--json",
                              env=fake | {"MEMORY_STORE_WORKSPACE": name}))
    assert moved["files"] == len(WORKSPACE_FILES) and moved["embeddings"] > 50 and moved["vectors_missing"] == 0
    pg = fake | {"MEMORY_STORE_URL": pg_url, "MEMORY_STORE_WORKSPACE": name}
    os.environ.update(pg)
    try:
        mem = Memory.open(str(root), NOW)
        embedder, _ = mem.embedder()
        update = mem.store.vectors(embedder).update()
        assert (update.embedded, update.missing, embedder.calls) == (0, 0, 0), "every vector came from SQLite"
        hybrid = mem.recall(RecallRequest("Baileys reconnect", mode="hybrid"))
        assert hybrid["mode"] == "hybrid" and hybrid["results"]
        mem.close()
    finally:
        for key in pg:
            os.environ.pop(key, None)
    (root / ".memory" / "index.sqlite").unlink()
    back = json.loads(run_ok(root, "store", "export", "--json", env=pg))  # Postgres -> the SQLite index
    # The database's cache is shared by its workspaces: it may hold more vectors of these texts
    # (other tests index the same files with other fake models); every one this workspace needs comes back.
    assert back["embeddings"] >= moved["embeddings"] and back["vectors_missing"] == 0


def test_a_long_lived_process_sees_what_another_indexed_and_its_own_edits(tmp_path: Path, pg_url: str) -> None:
    """The file stats a recall compares with are kept between recalls (sync.stale_and_known); a
    sync by another process, or a file changed under this one, is still seen at the next recall."""
    root = pg_workspace(tmp_path / "ws", pg_url, {"MEMORY.md": "# Core\n\n- The zebrafish tank is in lab 4.\n"})
    run_ok(root, "index")
    with store_environ(root):
        mem = Memory.open(str(root), NOW)
        _ = mem.store
    try:
        def contents(query: str) -> list[str]:
            return [r["content"] for r in mem.recall(RecallRequest(query, mode="lexical"))["results"]]

        assert contents("zebrafish") == ["- The zebrafish tank is in lab 4."]
        note = root / "memory" / "2025-11-29.md"
        note.parent.mkdir(exist_ok=True)
        note.write_text("# 2025-11-29\n\n- The axolotl tank needs a new filter.\n", encoding="utf-8")
        run_ok(root, "index")  # another process
        assert contents("axolotl") == ["- The axolotl tank needs a new filter."]
        note.write_text("# 2025-11-29\n\n- The axolotl moved to the quarantine tank.\n", encoding="utf-8")
        assert contents("quarantine") == ["- The axolotl moved to the quarantine tank."]  # synced by this one
        (root / "MEMORY.md").unlink()
        run_ok(root, "index")
        assert contents("zebrafish") == []
    finally:
        mem.close()


def test_concurrent_recalls_in_threads_share_nothing_broken(tmp_path: Path, pg_url: str) -> None:
    """Each Memory has its own connection: eight threads recalling at once all get the answer."""
    root = pg_workspace(tmp_path / "ws", pg_url)
    run_ok(root, "index")
    errors: list[BaseException] = []

    with store_environ(root):  # once, around all threads: eight threads saving and restoring
        mems = [Memory.open(str(root), NOW) for _ in range(8)]  # os.environ at once would leak it
        assert all(mem.store.describe().startswith("postgresql") for mem in mems)  # each opens its store now

    def worker(mem: Memory) -> None:
        try:
            for _ in range(3):
                assert mem.recall(RecallRequest("OPS-4471", mode="lexical"))["results"][0]["path"] == \
                    "memory/2025-03-14.md"
            mem.close()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(mem,)) for mem in mems]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors


def test_doctor_checks_the_server_pgvector_and_the_migrations(tmp_path: Path, pg_url: str) -> None:
    root = pg_workspace(tmp_path / "doc", pg_url, {"MEMORY.md": "# Core\n\n- The heron is back.\n"})
    run_ok(root, "index")
    code, out, _ = run_memory(root, "doctor", "--json")
    report = json.loads(out)
    assert code == 0 and report["clean"], report
    checks = {c["check"]: c for c in json.loads(run_ok(root, "store", "health", "--json"))["findings"]}
    assert {"server", "pgvector", "migrations"} <= set(checks) and checks["migrations"]["ok"]
