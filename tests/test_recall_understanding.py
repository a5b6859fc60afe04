"""Recall that understands the question: time phrases, entities, opinions, supersession, budget,
explain and recency, on a realistic multi-month workspace (see recall_ws.py).

Every run is lexical (`--mode lexical`, provider none): these are deterministic rule tests; the
semantic plumbing is in test_recall_hybrid.py and the providers in test_recall_providers.py.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

import recall_ws as R
from conftest import assert_one_line_error, disk_lines, register, run_memory, run_ok
from workspace_memory.recall.pack import RESULT_OVERHEAD_TOKENS, SNIPPET_CHARS
from workspace_memory.recall.rank import HALF_LIFE_DAYS, RECENCY_FLOOR
from workspace_memory.tokens import estimate_tokens

PETER, PETER_PAGE = "Peter Steinberger", "bank/entities/Peter.md"
MARA, MARA_PAGE = "Mara Okafor", "bank/entities/Mara.md"

# Time ranges the facts state in their text, independently of the parser: a fact counts as inside a
# window when this range overlaps it, whatever day it was written.
STATED = {
    "parental leave": (date(2025, 10, 20), date(2025, 11, 15)),  # written 2025-10-08
    "In Lisbon": (date(2025, 11, 27), date(2025, 11, 29)),
    "Berlin fintech meetup": (date(2025, 11, 20), date(2025, 11, 20)),  # written 2025-11-12
}


@pytest.fixture(scope="module")
def ws(store: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """The multi-month workspace, indexed once for the module on each store in turn (read-only)."""
    root = register(R.build(tmp_path_factory.mktemp(f"understanding-{store}") / "ws"), request)
    run_ok(root, "index")
    return root


def hits(ws: Path, query: str, *args: str) -> list[dict]:
    return R.recall(ws, query, *args)["results"]


def inside(hit: dict, start: date | None, end: date | None) -> bool:
    """The entry's stated range (if any), else its written day, overlaps [start, end]."""
    for needle, (s, e) in STATED.items():
        if needle in hit["content"]:
            return (end is None or s <= end) and (start is None or e >= start)
    day = R.day_of(hit)
    return day is not None and (start is None or day >= start) and (end is None or day <= end)


def about(hit: dict, name: str, page: str) -> bool:
    return R.about(hit, name, page) or name.split()[0] in hit["content"]


# ------------------------------------------------------------------------------------------ time phrases


def test_yesterday_is_the_day_before_now(ws: Path) -> None:
    found = hits(ws, "what happened yesterday")
    assert found, "a time-only question browses the window"
    assert {h["timestamp"] for h in found} == {"2025-12-02"}
    assert R.rank_of(found, "rollback drill") is not None
    assert R.rank_of(found, "invoice PDF layout") is not None


def window_first(found: list[dict], start: date | None, end: date | None) -> bool:
    """The entries inside [start, end] come before every entry outside it."""
    flags = [inside(h, start, end) for h in found]
    return flags == sorted(flags, reverse=True)


def test_last_week_ranks_its_entries_first_and_searches_the_remaining_words(ws: Path) -> None:
    found = hits(ws, "portal deploy last week", "--explain")
    assert "Portal deploy to production" in found[0]["content"], R.contents(found)
    assert "window" not in found[0]["explain"]["factors"]
    # The same words outside last week (Dec 2, Nov 5) still count: evidence, not a filter.
    drill, freeze = R.rank_of(found, "rollback drill"), R.rank_of(found, "deploy freeze")
    assert drill is not None and freeze is not None and 0 < drill < freeze
    assert found[drill]["explain"]["factors"]["window"] > found[freeze]["explain"]["factors"]["window"]


def test_since_monday_starts_on_the_most_recent_monday(ws: Path) -> None:
    found = hits(ws, "what changed since Monday")
    assert found
    assert all(inside(h, date(2025, 12, 1), None) for h in found), R.contents(found)
    assert {h["timestamp"] for h in found} == {"2025-12-01", "2025-12-02"}


def test_in_november_ranks_november_and_facts_whose_range_overlaps_it_first(ws: Path) -> None:
    found = hits(ws, "Mara in November 2025", "--explain")
    # Written on Oct 8 but about Oct 20 - Nov 15: inside November.
    leave = R.rank_of(found, "parental leave")
    assert leave is not None and found[leave]["timestamp"] == "2025-10-08"
    assert "window" not in found[leave]["explain"]["factors"]
    templates, pdf, joined = (R.rank_of(found, n) for n in ("invoice templates", "invoice PDF layout",
                                                            "Joined the Orchard team"))
    assert templates == 0, R.contents(found)  # Nov 28
    # Outside November: Dec 2 (two days after) and Sep 15 are found, below, Sep 15 far below.
    assert pdf is not None and joined is not None and templates < pdf < joined
    assert found[pdf]["explain"]["factors"]["window"] > found[joined]["explain"]["factors"]["window"]


def test_what_was_true_during_november(ws: Path) -> None:
    found = hits(ws, "what was true during November 2025?", "--k", "50")
    assert found
    assert all(inside(h, date(2025, 11, 1), date(2025, 11, 30)) for h in found), R.contents(found)
    for needle in ("parental leave", "Berlin fintech meetup", "In Lisbon", "invoice rounding bug"):
        assert R.rank_of(found, needle) is not None, needle
    assert R.rank_of(found, "Moved to London") is None  # Oct 20, no stated range


def test_a_stated_range_counts_whatever_day_the_fact_was_written(ws: Path) -> None:
    found = hits(ws, "what happened on Nov 20")
    meetup = R.rank_of(found, "Berlin fintech meetup")
    assert meetup is not None, R.contents(found)
    assert found[meetup]["timestamp"] == "2025-11-12"
    assert all(inside(h, date(2025, 11, 20), date(2025, 11, 20)) for h in found), R.contents(found)


def test_a_window_with_no_entry_ranks_the_days_around_it_first(ws: Path) -> None:
    # Nothing was written on Sep 25 (Sep 15 and Sep 29 were): the week around it is browsed.
    out = R.recall(ws, "what happened on Sep 25")
    assert any("no entry is written on or names" in n and "Sep 25" in n for n in out["notices"]), out["notices"]
    found = out["results"]
    assert found, "the week around the day is browsed"
    assert all(inside(h, date(2025, 9, 18), date(2025, 10, 2)) for h in found), R.contents(found)
    assert R.rank_of(found, "Staging deploy of Orchard") is not None


def test_a_window_with_no_entry_still_searches_the_words(ws: Path) -> None:
    found = hits(ws, "Orchard deploy on Sep 25", "--explain")
    assert "Staging deploy of Orchard" in found[0]["content"], R.contents(found)  # Sep 29: 4 days later
    later = R.rank_of(found, "Portal deploy to production")
    assert later is not None and found[later]["explain"]["factors"]["window"] < 1


def test_a_window_counts_as_empty_when_nothing_in_it_passes_the_other_filters(ws: Path) -> None:
    # Sep 29 has a note and an observation, but no world fact.
    out = R.recall(ws, "Orchard on Sep 29", "--kind", "world")
    assert any("no entry is written on or names" in n for n in out["notices"]), out["notices"]
    assert out["results"] and all(h["kind"] == "world" for h in out["results"])
    kept = R.recall(ws, "Orchard on Sep 29", "--kind", "observation")
    assert not any("no entry is written on or names" in n for n in kept["notices"])
    assert {h["timestamp"] for h in kept["results"]} == {"2025-09-29"}


def test_a_window_that_holds_entries_is_browsed_without_notice(ws: Path) -> None:
    out = R.recall(ws, "what happened on Sep 29")
    assert not any("no entry is written on or names" in n for n in out["notices"])
    assert {h["timestamp"] for h in out["results"]} == {"2025-09-29"}


def test_around_is_a_boost_not_a_filter(ws: Path) -> None:
    found = hits(ws, "portal deploy around Nov 27", "--explain")
    by_day = {h["timestamp"]: h for h in found if "deploy" in h["content"].lower()}
    # Outside the window (Nov 24..30) and still found.
    assert {"2025-11-05", "2025-11-27", "2025-12-02"} <= set(by_day)
    # Entries outside the window carry the "window" factor (< 1); the one inside does not.
    assert "window" not in by_day["2025-11-27"]["explain"]["factors"]
    assert by_day["2025-12-02"]["explain"]["factors"]["window"] < 1
    assert by_day["2025-11-05"]["explain"]["factors"]["window"] < 1


def test_around_ranks_the_entry_inside_the_window_first(ws: Path) -> None:
    found = hits(ws, "portal deploy around Nov 27")
    assert "Portal deploy to production" in found[0]["content"], R.contents(found)


# ------------------------------------------------------------------------------------------ entities


@pytest.mark.parametrize("query", [
    "what is @Peter up to",
    "what is peter up to",  # bare name, lower case
    "what is steipete up to",  # alias from the page's frontmatter
    "what is Petr up to",  # typo
    "tell me about Pete",  # alias
])
def test_entries_about_the_named_entity_rank_first(ws: Path, query: str) -> None:
    found = hits(ws, query)
    assert len(found) >= 5, R.contents(found)
    assert all(about(h, PETER, PETER_PAGE) for h in found[:5]), R.contents(found)
    assert any(h["path"] == PETER_PAGE for h in found), "the entity's page is among the results"
    assert R.rank_of(found, "In Lisbon") is not None, "its newest fact is among the results"


@pytest.mark.parametrize("query", ["what did the designer work on", "what is Okafor doing"])
def test_aliases_of_another_entity(ws: Path, query: str) -> None:
    found = hits(ws, query)
    assert found
    assert all(about(h, MARA, MARA_PAGE) for h in found[:3]), R.contents(found)


@pytest.mark.parametrize("name", ["Peter", "@Peter", "Pete", "Petr"])
def test_entity_option_filters(ws: Path, name: str) -> None:
    found = hits(ws, "Orchard", "--entity", name, "--k", "50")
    assert found
    assert all(R.about(h, PETER, PETER_PAGE) for h in found), R.contents(found)
    assert R.rank_of(found, "Rust is overkill") is not None
    assert R.rank_of(found, "tax export") is None  # about Orchard, not Peter


def test_entity_option_with_an_unknown_name_is_a_clear_error(ws: Path) -> None:
    code, out, err = run_memory(ws, "recall", "Orchard", "--entity", "Zebulon", "--json", now=R.NOW)
    line = assert_one_line_error(code, out, err)
    assert code == 1 and "Zebulon" in line


@pytest.mark.parametrize("name", ["Peter", "steipete", "Petr"])
def test_entity_command_gives_page_facts_and_opinions(ws: Path, name: str) -> None:
    report = json.loads(run_ok(ws, "entity", name, "--json", now=R.NOW))
    assert report["entity"] == PETER
    assert report["page"]["path"] == PETER_PAGE and "Founder of the Orchard project" in report["page"]["text"]
    facts, opinions = report["facts"], report["opinions"]
    assert len(facts) == 6 and len(opinions) == 2
    assert all(f["kind"] != "opinion" for f in facts)
    days = [f["timestamp"] for f in facts]
    assert days == sorted(days, reverse=True), "facts newest first"
    assert "In Lisbon" in facts[0]["content"]
    assert {o["content"].split(": ", 1)[1]: o["confidence"] for o in opinions} == {
        "Prefers green tea over coffee in the afternoon.": 0.9,
        "Thinks Rust is overkill for the Orchard CLI; Go is enough.": 0.7,
    }
    for item in facts + opinions:
        line = disk_lines(ws, item["path"])[item["line"] - 1]
        assert item["content"].split(": ", 1)[1] in line, "cited line holds the fact"
    vienna = next(f for f in facts if "Vienna" in f["content"])
    london = next(f for f in facts if "London" in f["content"])
    assert vienna["superseded_by"] == london["source"] == "memory/2025-10-20.md#L4"
    assert [f["content"] for f in facts if f.get("superseded_by")] == [vienna["content"]]


# ------------------------------------------------------------------------------------------ opinions


@pytest.mark.parametrize("query", ["what does Peter prefer", "what does Pete like?"])
def test_opinion_questions_put_the_entitys_opinions_first(ws: Path, query: str) -> None:
    found = hits(ws, query)
    top = found[:2]
    assert all(h["kind"] == "opinion" and PETER in h["entities"] for h in top), R.contents(found)
    assert sorted(h["confidence"] for h in top) == [0.7, 0.9]
    mara = R.rank_of(found, "Prefers Figma")
    assert mara is None or mara >= 2, "another entity's opinion ranks below"


def test_opinion_about_a_topic(ws: Path) -> None:
    found = hits(ws, "what does Peter think of Rust")
    assert found[0]["kind"] == "opinion" and "Rust is overkill" in found[0]["content"]
    assert found[0]["confidence"] == 0.7


# ------------------------------------------------------------------------------------------ supersession


def test_superseded_fact_is_marked_for_a_present_tense_question(ws: Path) -> None:
    found = hits(ws, "where does Peter live?", "--explain", "--k", "20")
    vienna, london = R.rank_of(found, "Lives in Vienna"), R.rank_of(found, "Moved to London")
    assert vienna is not None and london is not None, R.contents(found)
    assert "superseded" in found[vienna]["explain"]["factors"]
    assert "superseded" not in found[london]["explain"]["factors"]


def test_present_tense_question_ranks_the_newer_fact_first(ws: Path) -> None:
    found = hits(ws, "where does Peter live?", "--k", "20")
    vienna, london = R.rank_of(found, "Lives in Vienna"), R.rank_of(found, "Moved to London")
    assert london is not None and (vienna is None or london < vienna), R.contents(found)


def test_a_time_question_still_finds_the_older_fact(ws: Path) -> None:
    found = hits(ws, "where did Peter live in March 2025?", "--explain", "--k", "20")
    assert found and "Lives in Vienna" in found[0]["content"]
    assert "superseded" not in found[0]["explain"]["factors"]
    london = R.rank_of(found, "Moved to London")
    assert london is None or found[london]["explain"]["factors"]["window"] < 1


# ------------------------------------------------------------------------------------------ budget


def cost(found: list[dict]) -> int:
    return sum(estimate_tokens(h["content"]) + RESULT_OVERHEAD_TOKENS for h in found)


@pytest.mark.parametrize("budget", [21, 30, 60, 120, 400])
def test_budget_is_respected_and_never_empty(ws: Path, budget: int) -> None:
    found = hits(ws, "Orchard invoice dunning", "--budget", str(budget), "--k", "25")
    assert found
    assert cost(found) <= budget, (budget, cost(found), R.contents(found))
    assert all(len(h["content"]) <= SNIPPET_CHARS for h in found)


def test_budget_keeps_the_rank_order(ws: Path) -> None:
    full = hits(ws, "Orchard invoice dunning", "--k", "25")
    budget = cost(full[:3])  # the first three fit exactly; the fourth does not
    packed = hits(ws, "Orchard invoice dunning", "--k", "25", "--budget", str(budget))
    assert len(packed) == 3 < len(full)
    assert [h["source"] for h in packed] == [h["source"] for h in full[: len(packed)]]


def test_long_entry_comes_back_as_a_snippet(ws: Path) -> None:
    found = hits(ws, "dunning reminder partial payments")
    para = next(h for h in found if h["path"] == "memory/2025-10-27.md" and h["kind"] == "note")
    assert len(R.LONG_PARAGRAPH) > SNIPPET_CHARS
    assert len(para["content"]) <= SNIPPET_CHARS and para["content"].endswith("…")
    assert R.LONG_PARAGRAPH.startswith(para["content"][:-1].rstrip())


def test_budget_holds_for_cjk_text(ws: Path) -> None:
    found = hits(ws, "发票导出 账单", "--budget", "30")
    assert found and "发票" in found[0]["content"]
    assert cost(found) <= 30, cost(found)


# ------------------------------------------------------------------------------------------ explain, recency


def test_explain_shows_channels_and_every_factor(ws: Path) -> None:
    found = hits(ws, "what does Peter think of Rust", "--explain")
    assert found
    for hit in found:
        explain = hit["explain"]
        assert explain["channels"], hit
        factors = explain["factors"]
        assert {"relevance", "recency", "importance"} <= set(factors)
        # The score is fully explained by the factors shown.
        product = 1.0
        for value in factors.values():
            product *= value
        assert hit["score"] == pytest.approx(product, abs=2e-3)
    assert "lexical" in found[0]["explain"]["channels"]
    assert "lexical" in found[0]["explain"]["found_by"], found[0]["explain"]
    assert all(set(h["explain"]["found_by"]) <= {"lexical", "entity", "replaces"} for h in found)
    # The top result is about Peter and is an opinion: neither miss factor applies.
    assert "entity" not in found[0]["explain"]["factors"]
    assert "opinion" not in found[0]["explain"]["factors"]


def test_without_explain_there_is_no_explain_field(ws: Path) -> None:
    assert all("explain" not in h for h in hits(ws, "Orchard"))


def test_dated_notes_decay_with_a_30_day_half_life_and_bank_pages_do_not(ws: Path) -> None:
    found = hits(ws, "Orchard", "--explain", "--k", "50")
    dated = [h for h in found if h["path"].startswith("memory/") and h["timestamp"]]
    evergreen = [h for h in found if h["path"].startswith("bank/") or h["path"] == "MEMORY.md"]
    assert len(dated) >= 5 and len(evergreen) >= 2
    assert HALF_LIFE_DAYS == 30 and RECENCY_FLOOR < 1
    for hit in dated:
        age = (R.TODAY - R.day_of(hit)).days
        decayed = (hit["explain"]["factors"]["recency"] - RECENCY_FLOOR) / (1 - RECENCY_FLOOR)
        assert decayed == pytest.approx(0.5 ** (age / 30), abs=2e-3), hit["source"]
    ages = sorted(dated, key=lambda h: h["timestamp"])
    assert ages[0]["explain"]["factors"]["recency"] < ages[-1]["explain"]["factors"]["recency"]
    for hit in evergreen:
        assert hit["explain"]["factors"]["recency"] == 1.0, hit["source"]


def test_an_old_exact_match_is_still_found_first(ws: Path) -> None:
    found = hits(ws, "OPS-4471 backup", "--explain")
    assert found[0]["path"] == "memory/2025-03-10.md" and "OPS-4471" in found[0]["content"]
    from workspace_memory.recall.rank import RECENCY_FLOOR

    # Nearly nine months old: decayed to (about) the floor, and still first.
    assert found[0]["explain"]["factors"]["recency"] == pytest.approx(RECENCY_FLOOR, abs=0.01)


def test_evergreen_fact_is_not_decayed(ws: Path) -> None:
    found = hits(ws, "wifi password rotates", "--explain")
    assert found[0]["path"] == "bank/world.md"
    assert found[0]["explain"]["factors"]["recency"] == 1.0
    assert 0 < found[0]["score"] <= 1


def test_a_recall_request_is_a_plain_value_with_the_dataclass_signature() -> None:
    """RecallRequest is no dataclass (a cold recall would import dataclasses and inspect for it),
    but it is made, compared, copied and read as before."""
    from workspace_memory.recall.query import RecallRequest

    request = RecallRequest("where does Peter live", 5, budget=500)
    assert (request.query, request.k, request.budget, request.mode, request.workspaces) == \
        ("where does Peter live", 5, 500, "auto", ())
    assert request == RecallRequest(query="where does Peter live", k=5, budget=500)
    assert request != RecallRequest("where does Peter live", k=6, budget=500)
    assert request.replace(k=7) == RecallRequest("where does Peter live", 7, budget=500) and request.k == 5
    assert list(request.as_dict()) == ["query", "k", "since", "until", "kind", "entity", "mode", "budget",
                                      "explain", "workspaces", "all_workspaces", "source", "include_invalid"]
    assert repr(request).startswith("RecallRequest(query='where does Peter live', k=5, since=None")
    request.k = 3  # mutable, as the dataclass was; and so, like it, not hashable
    assert request.k == 3
    with pytest.raises(TypeError):
        hash(request)
    with pytest.raises(TypeError):
        request.replace(limit=3)
