"""Lexical recall through the installed CLI: exact tokens, file names, CJK, recency, filters, the JSON
contract, --batch, and no heavy imports."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import (
    NOW,
    WORKSPACE_FILES,
    clean_env,
    disk_lines,
    documented_names,
    index_db,
    line_of,
    recall_json,
    run_memory,
    run_ok,
    write_files,
)
from workspace_memory import lang
from workspace_memory.markdown.names import CJK
from workspace_memory.recall.lexical import cjk_pieces, query_terms

RESULT_KEYS = {"kind", "content", "entities", "timestamp", "confidence", "source", "path", "start_line",
               "end_line", "score"}


def results(ws: Path, query: str, *args: str, now: str = NOW) -> list[dict]:
    return recall_json(ws, query, *args, now=now)["results"]


def find(hits: list[dict], path: str, line: int | None = None) -> dict | None:
    for hit in hits:
        if hit["path"] == path and (line is None or hit["start_line"] <= line <= hit["end_line"]):
            return hit
    return None


# ------------------------------------------------------------------------------------------ exact tokens


@pytest.mark.parametrize(
    ("query", "path", "needle"),
    [
        ("a828e60", "memory/2025-11-12.md", "a828e60"),
        ("memorySearch.query.hybrid", "memory/2025-11-14.md", "memorySearch.query.hybrid"),
        ("Cannot read properties of undefined (reading 'sendMessage')", "memory/2025-11-12.md", "sendMessage"),
        ("TypeError sendMessage", "memory/2025-11-12.md", "sendMessage"),
        ("OPS-4471", "memory/2025-03-14.md", "OPS-4471"),
        ("config.json5", "memory/2025-11-14.md", "config.json5"),
        # the same tokens inside a question
        ("what was commit a828e60 about", "memory/2025-11-12.md", "a828e60"),
        ("where is memorySearch.query.hybrid set", "memory/2025-11-14.md", "memorySearch.query.hybrid"),
        ("status of OPS-4471", "memory/2025-03-14.md", "OPS-4471"),
    ],
)
def test_exact_tokens_rank_first(store_ws: Path, query: str, path: str, needle: str) -> None:
    hits = results(store_ws, query)
    assert hits, query
    top = hits[0]
    assert top["path"] == path
    assert needle in top["content"]
    cited = "\n".join(disk_lines(store_ws, path)[top["start_line"] - 1 : top["end_line"]])
    assert needle in cited, "the cited lines contain the token"
    for other in hits[1:]:
        assert other["score"] <= top["score"]


def test_file_name_finds_the_file(store_ws: Path) -> None:
    hits = results(store_ws, "warelay")
    assert any(h["path"] == "bank/entities/warelay.md" for h in hits), [h["path"] for h in hits]


def test_file_name_alone_finds_a_file_whose_text_never_says_it(workspace: Path) -> None:
    (workspace / "memory/notes/hovercraft.md").write_text("Full of eels, said the visitor.\n", encoding="utf-8")
    hits = results(workspace, "hovercraft")
    assert [h["path"] for h in hits] == ["memory/notes/hovercraft.md"]
    assert hits[0]["start_line"] == 1


@pytest.mark.parametrize(
    ("query", "path", "needle"),
    [
        ("東京", "memory/2025-11-22.md", "東京"),  # Japanese, two characters (below a trigram)
        ("ミーティング", "memory/2025-11-22.md", "ミーティング"),  # Japanese katakana
        ("東京でミーティング", "memory/2025-11-22.md", "東京でミーティング"),
        ("数据库迁移", "memory/2025-11-20.md", "数据库迁移"),  # Chinese
        ("备份", "memory/2025-11-20.md", "备份"),  # Chinese, two characters
        ("检查备份 数据库", "memory/2025-11-20.md", "检查备份"),
    ],
)
def test_cjk_text_is_found(store_ws: Path, query: str, path: str, needle: str) -> None:
    hits = results(store_ws, query)
    assert hits, query
    assert hits[0]["path"] == path
    assert needle in hits[0]["content"]
    assert hits[0]["start_line"] == line_of(store_ws, path, needle)


@pytest.mark.parametrize(
    ("query", "path", "needle"),
    [
        ("数据库迁移完成了吗？", "memory/2025-11-20.md", "数据库迁移"),  # "Is the database migration done?"
        ("東京でのミーティングはいつですか", "memory/2025-11-22.md", "ミーティング"),  # "When is the Tokyo meeting?"
    ],
)
def test_a_cjk_question_written_as_a_sentence_finds_its_note(store_ws: Path, query: str, path: str,
                                                              needle: str) -> None:
    """A question typed as a sentence is one run of characters, which no note holds whole: it is
    searched as its pieces (recall.lexical.cjk_pieces), so the note that holds them comes first."""
    hits = results(store_ws, query)
    assert hits, query
    assert hits[0]["path"] == path
    assert needle in hits[0]["content"]


@pytest.mark.parametrize(
    ("run", "pieces"),
    [
        ("备份", ["备份"]),  # a typed keyword stays whole
        ("大阪城", ["大阪城"]),
        ("去上海的时候谁需要预订住宿", ["去上", "上海", "时候", "需要", "要预", "预订", "订住", "住宿"]),
        ("東京でミーティング", ["東京", "ミーティング"]),  # hiragana between words is grammar
        ("コーヒーメーカーが故障した", ["コーヒーメーカー", "故障"]),
        ("おにぎり", ["おに", "にぎ", "ぎり"]),  # a run of hiragana alone is a word
        ("的了吗呢", ["的了吗呢"]),  # nothing left: the run whole
    ],
)
def test_cjk_pieces(run: str, pieces: list[str]) -> None:
    assert cjk_pieces(run, lang.table("words", "zh").GRAMMAR) == pieces


def test_a_short_run_with_its_grammar_is_cut_and_frame_pieces_are_no_content() -> None:
    """"Priyaって誰？" holds the run "って誰": not a typed keyword, a particle and a question word."""
    assert cjk_pieces("って誰") == ["誰"]
    terms = query_terms("Priyaって誰？", lang.table("words", "ja"))
    assert [t.label for t in terms] == ["priya"]
    assert [t.label for t in query_terms("Priya是谁？", lang.table("words", "zh"))] == ["priya"]


def test_cjk_absent_text_finds_nothing(store_ws: Path) -> None:
    assert results(store_ws, "大阪城") == []


# ------------------------------------------------------------------------------------------ ranking


def explained(hit: dict) -> dict:
    return hit["explain"]["factors"]


def test_recency_is_a_bounded_boost(store_ws: Path) -> None:
    hits = results(store_ws, "quokka migration", "--explain")
    new = find(hits, "memory/2025-11-28.md")
    old = find(hits, "memory/2025-03-14.md")
    assert new is not None and old is not None, "both equally matching notes are found"
    assert hits.index(new) < hits.index(old), "the recent note ranks above the old one"
    assert explained(new)["relevance"] == pytest.approx(explained(old)["relevance"]), "equally matching"
    assert 0.5 <= explained(old)["recency"] < explained(new)["recency"] <= 1.0
    assert old["score"] >= 0.5 * new["score"], "an old match is penalised, not buried"


def test_old_exact_match_still_found(store_ws: Path) -> None:
    hits = results(store_ws, "OPS-4471 flaky backup")
    assert hits and hits[0]["path"] == "memory/2025-03-14.md"
    assert hits[0]["timestamp"] == "2025-03-14"


EVERGREEN = {"MEMORY.md", "bank/world.md", "memory/notes/coffee.md"}


def test_evergreen_files_never_decay(store_ws: Path) -> None:
    now_hits = results(store_ws, "espresso", "--explain")
    later_hits = results(store_ws, "espresso", "--explain", now="2031-06-01T09:00")
    now_scores = {(h["path"], h["start_line"]): h for h in now_hits}
    later_scores = {(h["path"], h["start_line"]): h for h in later_hits}
    assert {p for p, _ in now_scores} >= EVERGREEN | {"memory/2025-11-20.md"}
    for key, hit in now_scores.items():
        later = later_scores[key]
        if hit["path"] in EVERGREEN:
            assert explained(hit)["recency"] == 1.0 == explained(later)["recency"]
            assert later["score"] == hit["score"], key
            assert hit["timestamp"] is None
        else:
            assert explained(later)["recency"] < explained(hit)["recency"] < 1.0
            assert later["score"] < hit["score"], key


# ------------------------------------------------------------------------------------------ filters


def chunk_range(ws: Path, hit: dict) -> tuple[str | None, str | None]:
    with index_db(ws) as conn:
        return conn.execute("SELECT t_start, t_end FROM chunks WHERE path = ? AND start_line = ?",
                            (hit["path"], hit["start_line"])).fetchone()


def test_since_keeps_recent_entries_and_stated_ranges(shared_ws: Path) -> None:
    since = "2025-11-23"  # --since 7d at NOW
    hits = results(shared_ws, "Peter Marrakech Vienna WhatsApp", "--since", "7d", "--k", "50")
    assert hits
    for hit in hits:
        assert hit["timestamp"] is not None, "evergreen text has no time and is outside a window"
        if hit["timestamp"] < since:
            t_start, t_end = chunk_range(shared_ws, hit)
            assert t_end >= since, hit
    written_before = find(hits, "memory/2025-11-18.md",
                          line_of(shared_ws, "memory/2025-11-18.md", "In Marrakech"))
    assert written_before is not None, "Nov 27–Dec 1 overlaps the window although written on Nov 18"
    assert find(hits, "memory/2025-11-10.md") is None
    assert find(hits, "memory/2025-11-30.md") is not None


def test_stated_range_decides_membership(store_ws: Path) -> None:
    line = line_of(store_ws, "memory/2025-11-18.md", "In Marrakech")
    assert find(results(store_ws, "Marrakech", "--since", "2025-11-26"), "memory/2025-11-18.md", line)
    assert find(results(store_ws, "Marrakech", "--since", "2025-12-01"), "memory/2025-11-18.md", line)
    assert not find(results(store_ws, "Marrakech", "--since", "2025-12-02"), "memory/2025-11-18.md", line)
    assert not find(results(store_ws, "Marrakech", "--until", "2025-11-20"), "memory/2025-11-18.md", line)


def test_until_filter(store_ws: Path) -> None:
    hits = results(store_ws, "warelay Baileys Peter", "--until", "2025-11-15", "--k", "50")
    assert hits
    assert all(h["timestamp"] is not None and h["timestamp"] <= "2025-11-15" for h in hits)
    assert find(hits, "memory/2025-11-12.md") is not None
    assert find(hits, "memory/2025-03-14.md") is None or all(h["timestamp"] <= "2025-11-15" for h in hits)


def test_since_and_until_together(store_ws: Path) -> None:
    hits = results(store_ws, "warelay Peter Baileys", "--since", "2025-11-11", "--until", "2025-11-14", "--k", "50")
    assert hits
    assert {h["timestamp"] for h in hits} <= {"2025-11-12", "2025-11-14"}


@pytest.mark.parametrize(
    ("kind", "allowed"),
    [
        ("opinion", {"opinion"}),
        ("world", {"world"}),
        ("experience,observation", {"experience", "observation"}),
        ("note", {"note"}),
        ("fact", {"world", "experience", "opinion", "observation"}),
        ("O", {"opinion"}),
    ],
)
def test_kind_filter(store_ws: Path, kind: str, allowed: set[str]) -> None:
    hits = results(store_ws, "Peter warelay WhatsApp replies Baileys", "--kind", kind, "--k", "50")
    assert hits
    assert {h["kind"] for h in hits} <= allowed


def test_opinions_carry_confidence(store_ws: Path) -> None:
    hits = results(store_ws, "concise replies", "--kind", "opinion")
    confidences = {h["path"]: h["confidence"] for h in hits}
    assert confidences["memory/2025-11-28.md"] == pytest.approx(0.9)
    assert confidences["memory/2025-11-10.md"] == pytest.approx(0.8)
    default = results(store_ws, "Hybrid search staging", "--kind", "opinion")
    assert default[0]["path"] == "memory/2025-11-14.md" and 0 < default[0]["confidence"] < 1


def test_entity_filter(store_ws: Path) -> None:
    hits = results(store_ws, "Baileys release reconnect", "--entity", "warelay", "--k", "50")
    assert hits
    for hit in hits:
        assert "warelay" in hit["entities"] or hit["path"] == "bank/entities/warelay.md", hit
    by_alias = results(store_ws, "Baileys release reconnect", "--entity", "wa-relay", "--k", "50")
    assert [(h["path"], h["start_line"]) for h in by_alias] == [(h["path"], h["start_line"]) for h in hits]


def test_filters_combine(shared_ws: Path) -> None:
    hits = results(shared_ws, "Peter", "--entity", "Peter", "--kind", "world", "--since", "14d", "--k", "50")
    assert hits
    for hit in hits:
        assert hit["kind"] == "world" and "Peter Steinberger" in hit["entities"]
        assert hit["timestamp"] >= "2025-11-16" or chunk_range(shared_ws, hit)[1] >= "2025-11-16"


def test_filter_only_recall_without_query(shared_ws: Path) -> None:
    hits = results(shared_ws, "", "--since", "1d")
    assert hits and {h["timestamp"] for h in hits} <= {"2025-11-29", "2025-11-30"} | {
        h["timestamp"] for h in hits if chunk_range(shared_ws, h)[1] >= "2025-11-29"}


# ------------------------------------------------------------------------------------------ the contract


def test_json_contract(store_ws: Path) -> None:
    data = recall_json(store_ws, "Peter Baileys espresso Marrakech", "--k", "25")
    assert set(data) == {"query", "mode", "notices", "results"}
    assert data["query"] == "Peter Baileys espresso Marrakech"
    assert data["mode"] == "lexical"
    assert isinstance(data["notices"], list)
    hits = data["results"]
    assert 5 <= len(hits) <= 25
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)
    for hit in hits:
        assert set(hit) == RESULT_KEYS
        assert hit["kind"] in {"world", "experience", "opinion", "observation", "note"}
        assert isinstance(hit["content"], str) and hit["content"].strip()
        assert isinstance(hit["entities"], list) and all(isinstance(e, str) for e in hit["entities"])
        assert isinstance(hit["score"], float | int) and 0.0 <= hit["score"] <= 1.0
        assert isinstance(hit["start_line"], int) and 1 <= hit["start_line"] <= hit["end_line"]
        lines = disk_lines(store_ws, hit["path"])
        assert hit["end_line"] <= len(lines)
        cited = "\n".join(lines[hit["start_line"] - 1 : hit["end_line"]])
        if hit["start_line"] == hit["end_line"]:
            assert hit["source"] == f"{hit['path']}#L{hit['start_line']}"
        else:
            assert hit["source"] == f"{hit['path']}#L{hit['start_line']}-L{hit['end_line']}"
        day = re.match(r"memory/(\d{4}-\d{2}-\d{2})\.md$", hit["path"])
        assert hit["timestamp"] == (day[1] if day else None)
        if hit["kind"] == "note":
            assert hit["content"] == cited.strip()
            assert hit["confidence"] is None
        else:
            letter = {"world": "W", "experience": "B", "opinion": "O", "observation": "S"}[hit["kind"]]
            assert cited.startswith(f"- {letter}")
            words = re.findall(r"\w{5,}", hit["content"])
            assert words and all(w in cited or w in " ".join(hit["entities"]) for w in words)
            if hit["kind"] == "opinion":
                assert 0.0 <= hit["confidence"] <= 1.0
            else:
                assert hit["confidence"] is None


def test_k_limits_results(store_ws: Path) -> None:
    assert len(results(store_ws, "Peter", "--k", "3")) == 3
    assert len(results(store_ws, "Peter", "--k", "1")) == 1


def test_budget_packs_within_tokens(store_ws: Path) -> None:
    from workspace_memory.tokens import estimate_tokens

    hits = results(store_ws, "Peter warelay", "--k", "20", "--budget", "120")
    assert 1 <= len(hits) < 20
    assert sum(estimate_tokens(h["content"]) for h in hits) <= 120


def test_no_match_is_an_empty_list(store_ws: Path) -> None:
    data = recall_json(store_ws, "zzyzx-never-written")
    assert data["results"] == []


def test_human_output_cites_sources(store_ws: Path) -> None:
    out = run_ok(store_ws, "recall", "a828e60", "--mode", "lexical")
    line = line_of(store_ws, "memory/2025-11-12.md", "a828e60")
    assert f"memory/2025-11-12.md#L{line}" in out
    assert "a828e60" in out


def test_batch_one_output_line_per_input_line(store_ws: Path, tmp_path: Path) -> None:
    queries = [
        {"query": "a828e60"},
        {"query": "東京"},
        {"query": "Marrakech", "since": "2025-11-26", "k": 2},
        {"query": "concise replies", "kind": "opinion"},
        {"query": "zzyzx-never-written"},
    ]
    batch = tmp_path / "queries.jsonl"
    batch.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in queries), encoding="utf-8")
    out = run_ok(store_ws, "recall", "--batch", batch, "--json", "--mode", "lexical")
    lines = out.strip("\n").split("\n")
    assert len(lines) == len(queries)
    answers = [json.loads(line) for line in lines]
    for query, answer in zip(queries, answers, strict=True):
        assert answer["query"] == query["query"]
        assert set(answer) == {"query", "mode", "notices", "results"}
        for hit in answer["results"]:
            assert set(hit) == RESULT_KEYS
    assert answers[0]["results"][0]["path"] == "memory/2025-11-12.md"
    assert answers[1]["results"][0]["path"] == "memory/2025-11-22.md"
    assert len(answers[2]["results"]) <= 2
    assert {h["kind"] for h in answers[3]["results"]} == {"opinion"}
    assert answers[4]["results"] == []
    single = recall_json(store_ws, "a828e60")
    assert answers[0]["results"] == single["results"]


def test_batch_bad_line_reports_error_and_continues(store_ws: Path, tmp_path: Path) -> None:
    batch = tmp_path / "queries.jsonl"
    batch.write_text('{"query": "a828e60"}\n{"query": "x", "since": "banana"}\n{"query": "東京"}\n',
                     encoding="utf-8")
    code, out, err = run_memory(store_ws, "recall", "--batch", batch, "--json", "--mode", "lexical")
    assert code != 0 and "Traceback" not in err
    answers = [json.loads(line) for line in out.strip().split("\n")]
    assert len(answers) == 3
    assert "error" in answers[1] and "banana" in answers[1]["error"]
    assert answers[2]["results"][0]["path"] == "memory/2025-11-22.md"


def test_batch_line_that_asks_for_nothing_is_refused_as_the_cli_refuses_it(store_ws: Path, tmp_path: Path) -> None:
    """An empty query with no filter: `memory recall ""` exits 2 and MCP refuses it; a batch line
    says so in its error field (it gave an empty result without a word), and a filter alone is a
    question."""
    batch = tmp_path / "queries.jsonl"
    batch.write_text('{"query": ""}\n{"query": " ", "since": "2025-11-01"}\n{"query": "a828e60"}\n', encoding="utf-8")
    code, out, err = run_memory(store_ws, "recall", "--batch", batch, "--json", "--mode", "lexical")
    assert code == 1 and "1 batch line(s) failed" in err
    answers = [json.loads(line) for line in out.strip().split("\n")]
    assert answers[0] == {"query": "", "error": "line 1: query: empty; give a query (or a filter such as since or entity)"}
    assert "error" not in answers[1] and "error" not in answers[2]


def test_batch_invalid_json_line_does_not_reuse_previous_query(store_ws: Path, tmp_path: Path) -> None:
    batch = tmp_path / "queries.jsonl"
    batch.write_text('{"query": "a828e60"}\nnot json\n', encoding="utf-8")
    _code, out, _err = run_memory(store_ws, "recall", "--batch", batch, "--json", "--mode", "lexical")
    answers = [json.loads(line) for line in out.strip().split("\n")]
    assert len(answers) == 2 and "error" in answers[1]
    assert answers[1]["query"] is None


# ------------------------------------------------------------------------------------------ imports


HEAVY = ("torch", "sentence_transformers")


def test_lexical_recall_imports_no_heavy_library(store_ws: Path) -> None:
    """Run the CLI in-process with the default embedding settings and inspect sys.modules after."""
    script = textwrap.dedent(f"""
        import json, sys
        from workspace_memory.cli.app import main
        for args in (["recall", "Baileys crash", "--json", "--mode", "lexical"],
                     ["recall", "東京", "--json", "--mode", "lexical"]):
            try:
                main(["--workspace", {str(store_ws)!r}, "--now", {NOW!r}, *args])
            except SystemExit as exc:
                assert exc.code in (0, None), (args, exc.code)
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})
        print("HEAVY=" + json.dumps(heavy))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8",
                          env=clean_env({"MEMORY_EMBED_PROVIDER": None}), timeout=120)
    assert proc.returncode == 0, proc.stderr
    marker = [line for line in proc.stdout.splitlines() if line.startswith("HEAVY=")]
    assert marker, proc.stdout
    assert json.loads(marker[0][len("HEAVY="):]) == []
    assert "a828e60" in proc.stdout


# The cold path's rules are written in docs/architecture.md ("The cold path"); these lists are its
# lists (test_the_cold_path_lists_are_the_documented_ones).
COLD_PATH_RULES = "docs/architecture.md#the-cold-path"
# A cold lexical `memory recall` imports none of these (benchmarks/cold_start.py measures what each
# would cost): the libraries of other channels and shells, the other commands' modules, and the
# transcript code. Dedupe decides repeated texts without rapidfuzz (facts.similarity).
NOT_FOR_A_LEXICAL_RECALL = (
    "numpy", "rapidfuzz", "onnxruntime", "torch", "sentence_transformers", "tokenizers", "hnswlib", "mcp",
    "pydantic", "starlette", "uvicorn", "rich", "dateparser", "markdown_it", "frontmatter", "sqlite_utils",
    "workspace_memory.cli.agent_cmds", "workspace_memory.cli.memory_cmds", "workspace_memory.cli.reflect_cmds",
    "workspace_memory.cli.store_cmds", "workspace_memory.cli.ui_cmds", "workspace_memory.workspace.transcripts",
    "workspace_memory.index.sessions", "workspace_memory.embed", "workspace_memory.markdown.parse",
    "workspace_memory.reflect", "workspace_memory.facts.model", "workspace_memory.index.records",
    "workspace_memory.files", "workspace_memory.locks", "workspace_memory.index.ports",
    "workspace_memory.index.vector_space", "workspace_memory.media", "workspace_memory.index.media_rows",
)
# The agent's call (the console script's quick path) also leaves these out.
NOT_ON_THE_AGENTS_CALL = ("click", "dataclasses", "inspect", "numpy")


def test_the_cold_path_lists_are_the_documented_ones() -> None:
    assert list(NOT_FOR_A_LEXICAL_RECALL) == documented_names("Never imported by a lexical recall"), \
        f"change docs/architecture.md and NOT_FOR_A_LEXICAL_RECALL together ({COLD_PATH_RULES})"
    assert list(NOT_ON_THE_AGENTS_CALL) == documented_names("Never imported on the agent's call"), \
        f"change docs/architecture.md and NOT_ON_THE_AGENTS_CALL together ({COLD_PATH_RULES})"


def test_a_cold_lexical_recall_imports_only_what_it_needs(shared_ws: Path) -> None:
    """Queries with a date, a hash, a dotted key and plain words; texts that repeat are deduplicated."""
    script = textwrap.dedent(f"""
        import json, sys
        from workspace_memory.cli import main
        for query in ("Baileys crash", "a828e60", "what happened on 2025-11-12", "warelay.retrySize",
                      "gateway restart"):
            try:
                main(["--workspace", {str(shared_ws)!r}, "--now", {NOW!r}, "recall", query, "--json",
                      "--mode", "lexical"])
            except SystemExit as exc:
                assert exc.code in (0, None), (query, exc.code)
        print("MODULES=" + json.dumps(sorted(sys.modules)))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8",
                          env=clean_env({"MEMORY_EMBED_PROVIDER": None}), timeout=120)
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("MODULES="))[8:])
    assert "workspace_memory.recall.engine" in modules and "workspace_memory.cli.commands" in modules
    loaded = [m for m in modules if any(m == name or m.startswith(name + ".") for name in NOT_FOR_A_LEXICAL_RECALL)]
    assert loaded == [], (f"a lexical recall imported {loaded}: import them inside the function that needs them "
                          f"(the rules: {COLD_PATH_RULES})")


def test_a_cold_lexical_recall_creates_no_dataclass(shared_ws: Path) -> None:
    """Each @dataclass compiles its methods at import (about a millisecond each), and the
    `dataclasses` module imports `inspect`: the classes a lexical recall makes, the public
    RecallRequest included, are plain classes."""
    script = textwrap.dedent(f"""
        import dataclasses, json, sys
        made = []
        process = dataclasses._process_class
        def spy(cls, *args, **kwargs):
            made.append(cls.__qualname__)
            return process(cls, *args, **kwargs)
        dataclasses._process_class = spy
        from workspace_memory.cli import main
        for query in ("Baileys crash", "what happened on 2025-11-12", "warelay.retrySize"):
            try:
                main(["--workspace", {str(shared_ws)!r}, "--now", {NOW!r}, "recall", query, "--json",
                      "--mode", "lexical"])
            except SystemExit as exc:
                assert exc.code in (0, None), (query, exc.code)
        print("DATACLASSES=" + json.dumps(sorted(made)))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8",
                          env=clean_env({"MEMORY_EMBED_PROVIDER": None}), timeout=120)
    assert proc.returncode == 0, proc.stderr
    made = json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("DATACLASSES="))[12:])
    assert made == [], (f"a lexical recall created the dataclasses {made}: use a values.Value subclass or a plain "
                        "class with __slots__ (docs/architecture.md#value-classes)")


def test_a_latin_only_lexical_recall_compiles_no_cjk_class(tmp_path: Path) -> None:
    """A class of CJK ranges costs `re` 2-10 ms to compile (markdown.names.ScriptPattern): a recall
    whose question and entries hold no CJK character compiles none, names and mentions included."""
    ws = tmp_path / "ws"
    write_files(ws, {rel: text for rel, text in WORKSPACE_FILES.items() if not re.search(f"[{CJK}]", text)})
    run_ok(ws, "index")
    script = textwrap.dedent(f"""
        import json, re, sys
        compiled, compile = [], re._compiler.compile
        def spy(pattern, flags=0):
            compiled.append(pattern if isinstance(pattern, str) else "")
            return compile(pattern, flags)
        re._compiler.compile = spy
        from workspace_memory.cli import main
        for query in ("Baileys crash", "what does Peter think of @The-Castle?", "Pete's plans", "a828e60",
                      "what happened on 2025-11-12", "was hat Peter letzte Woche gemacht?"):
            try:
                main(["--workspace", {str(ws)!r}, "--now", {NOW!r}, "recall", query, "--json", "--mode", "lexical"])
            except SystemExit as exc:
                assert exc.code in (0, None), (query, exc.code)
        print("COMPILED=" + json.dumps(compiled))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8",
                          env=clean_env({"MEMORY_EMBED_PROVIDER": None}), timeout=120)
    assert proc.returncode == 0, proc.stderr
    compiled = json.loads(next(line for line in proc.stdout.splitlines() if line.startswith("COMPILED="))[9:])
    assert any("Peter" in source or "peter" in source for source in compiled)  # the names pattern was made
    # A range of CJK characters ("\u3040-\u30ff"): what costs; Chinese words in a language table's pattern do not.
    cjk = [source[:60] for source in compiled if re.search(f"[{CJK}]-[{CJK}]", source)]
    assert cjk == [], f"a Latin-only recall compiled CJK classes {cjk}: use ScriptPattern ({COLD_PATH_RULES})"


@pytest.mark.parametrize("query", ["Baileys crash", "what happened on 2025-11-12", "warelay.retrySize"])
def test_the_console_scripts_lexical_recall_imports_neither_click_nor_inspect(shared_ws: Path, query: str) -> None:
    """The agent's call, `memory recall ... --json` in a new process, takes the quick path
    (cli/quick.py): no click, and no dataclasses or inspect (a third of a cold recall's imports)."""
    script = textwrap.dedent(f"""
        import atexit, json, sys
        sys.argv[1:] = ["--workspace", {str(shared_ws)!r}, "--now", {NOW!r}, "recall", {query!r}, "--json",
                        "--mode", "lexical"]
        # An exit callback keeps the process on the interpreter's own exit (cli.leave), so it can report.
        atexit.register(lambda: print("MODULES=" + json.dumps(
            [m for m in {NOT_ON_THE_AGENTS_CALL!r} if m in sys.modules]), file=sys.stderr))
        from workspace_memory.cli import main
        main()
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, encoding="utf-8",
                          env=clean_env({"MEMORY_EMBED_PROVIDER": None}), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["query"] == query
    modules = json.loads(next(line for line in proc.stderr.splitlines() if line.startswith("MODULES="))[8:])
    assert modules == [], f"the agent's call imported {modules} (the rules: {COLD_PATH_RULES})"


def test_lexical_recall_importtime_shows_no_heavy_library(store_ws: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import sys; from workspace_memory.cli.app import main; main(sys.argv[1:])",
         "--workspace", str(store_ws), "--now", NOW, "recall", "a828e60", "--json", "--mode", "lexical"],
        capture_output=True, text=True, encoding="utf-8", env=clean_env({"MEMORY_EMBED_PROVIDER": None}),
        timeout=120,
    )
    imported = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")]
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "a828e60" in proc.stdout
    assert "workspace_memory.recall.lexical" in imported or "workspace_memory.recall.engine" in imported
    assert not [m for m in imported if m.split(".")[0] in HEAVY]
