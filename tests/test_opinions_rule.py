"""The opinion update rule: bounds (property tests), classification, replacement, hand edits on the page."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workspace_memory.facts.model import Fact
from workspace_memory.reflect.opinions import (
    MAX_DOWN,
    MAX_UP,
    REPLACE_BELOW,
    Engine,
    Opinion,
    contradict,
    reinforce,
)
from workspace_memory.reflect.opinions_md import parse_confidence, parse_page, reconcile
from workspace_memory.reflect.opinions_render import render_page

EPS = 1e-9
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@given(c=unit, s=unit)
def test_one_reinforcing_fact_raises_by_at_most_max_up(c: float, s: float) -> None:
    after = reinforce(c, s)
    assert 0.0 <= after <= 1.0
    assert after - c <= MAX_UP + 1e-4  # + rounding to 4 decimals
    assert after >= round(c, 4) - EPS


@given(c=unit, s=unit)
def test_one_contradicting_fact_lowers_by_at_most_max_down(c: float, s: float) -> None:
    after = contradict(c, s)
    assert 0.0 <= after <= 1.0
    assert c - after <= MAX_DOWN + 1e-4
    assert after <= round(c, 4) + EPS


@given(start=unit, steps=st.lists(st.tuples(st.booleans(), unit), max_size=60))
def test_any_sequence_of_evidence_stays_in_bounds(start: float, steps: list[tuple[bool, float]]) -> None:
    c = round(start, 4)
    for supports, strength in steps:
        after = reinforce(c, strength) if supports else contradict(c, strength)
        assert 0.0 <= after <= 1.0
        assert -MAX_DOWN - 1e-4 <= after - c <= MAX_UP + 1e-4
        c = after


def _fact(n: int, text: str, c: float | None, day: date, kind: str = "opinion") -> Fact:
    return Fact(n, f"memory/{day.isoformat()}.md", 8 + n % 5, kind, text, c, day, ("peter",))


STATEMENTS = [
    "Peter: Prefers tea over coffee in the morning.",
    "Peter: Prefers tea over coffee, asked for tea again.",
    "Peter: No longer prefers tea over coffee in the morning.",
    "Peter: Avoids tea in the morning now.",
    "Peter: Does not like tea over coffee.",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(STATEMENTS), st.one_of(st.none(), unit), st.integers(0, 3)),
                min_size=1, max_size=25))
def test_engine_steps_stay_within_the_documented_bounds(seq: list[tuple[str, float | None, int]]) -> None:
    """Through the whole engine (matching, classification, replacement): every step is bounded."""
    engine = Engine([], [], "2026-01-01")
    day = date(2025, 11, 1)
    for n, (text, conf, gap) in enumerate(seq):
        day += timedelta(days=gap)
        before = {op.key: (op.confidence, op.statement) for op in engine.opinions}
        engine.apply([_fact(n, text, conf, day)])
        for op in engine.opinions:
            assert 0.0 <= op.confidence <= 1.0
            if op.key not in before:
                continue
            c0, s0 = before[op.key]
            if op.statement != s0:  # replaced: re-expressed for the new statement as 1 - c
                assert len(op.history) >= 2 and op.history[-1].event == "replaced"
                assert 1.0 - op.confidence <= REPLACE_BELOW + 1e-4
                continue
            assert -MAX_DOWN - 1e-4 <= op.confidence - c0 <= MAX_UP + 1e-4


def test_a_low_confidence_restatement_lowers_but_never_replaces() -> None:
    """The counterexample hypothesis found: after two contradicting days left confidence just above
    REPLACE_BELOW, a c=0.0 restatement of the opinion itself replaced the statement with itself and
    flipped the confidence to 1 - c (0.50 -> 0.62). It must only lower the confidence."""
    engine = Engine([], [], "2026-01-01")
    start = date(2025, 11, 1)
    steps = [(STATEMENTS[0], 1.0), (STATEMENTS[4], 0.8), (STATEMENTS[4], 0.8), (STATEMENTS[0], 0.0)]
    seen = []
    for n, (text, c) in enumerate(steps):
        engine.apply([_fact(n, text, c, start + timedelta(days=2 * n))])
        seen.append((engine.opinions[0].statement, engine.opinions[0].confidence))
    assert [s for s, _ in seen] == [STATEMENTS[0]] * 4, seen  # never replaced
    assert seen[2][1] > REPLACE_BELOW  # two contradicting days, but confidence still above the bar
    assert seen[3][1] < seen[2][1]  # the restatement at c=0.0 lowers it ...
    assert seen[2][1] - seen[3][1] <= MAX_DOWN + 1e-4  # ... within the bound
    assert [h.event for h in engine.opinions[0].history] == ["formed"]


def test_reinforce_then_contradict_twice_on_different_days_replaces_and_keeps_history() -> None:
    engine = Engine([], [], "2025-12-01")
    days = [date(2025, 11, 3), date(2025, 11, 5), date(2025, 11, 12), date(2025, 11, 19)]
    texts = [(STATEMENTS[0], 0.8), (STATEMENTS[1], 0.9), (STATEMENTS[2], 0.8), (STATEMENTS[3], 0.8)]
    seen = []
    for n, ((text, c), day) in enumerate(zip(texts, days, strict=True)):
        engine.apply([_fact(n, text, c, day)])
        seen.append(engine.opinions[0].confidence)
    assert len(engine.opinions) == 1
    op = engine.opinions[0]
    assert seen[0] == 0.8 and seen[1] > seen[0]  # formed, then reinforced
    assert seen[2] < seen[1]  # one contradiction lowers ...
    assert op.statement == "Peter: Avoids tea in the morning now."  # ... two on different days replace
    assert [h.event for h in op.history] == ["formed", "replaced"]
    assert op.history[1].statement == STATEMENTS[0]
    assert {ev.role for ev in op.evidence[:2]} == {"-"}  # what supported the old statement now contradicts


def test_two_contradictions_on_the_same_day_do_not_replace() -> None:
    engine = Engine([], [], "2025-12-01")
    d = date(2025, 11, 3)
    engine.apply([_fact(0, STATEMENTS[0], 0.8, d)])
    engine.apply([_fact(1, STATEMENTS[2], 0.9, d + timedelta(days=1)), _fact(2, STATEMENTS[3], 0.9,
                                                                              d + timedelta(days=1))])
    op = engine.opinions[0]
    assert op.statement == STATEMENTS[0] and op.confidence < 0.5


def test_a_much_lower_confidence_restatement_contradicts_but_never_replaces() -> None:
    engine = Engine([], [], "2025-12-01")
    engine.apply([_fact(0, STATEMENTS[0], 0.9, date(2025, 11, 3))])
    for n in range(1, 6):
        engine.apply([_fact(n, STATEMENTS[0] + f" ({n})", 0.2, date(2025, 11, 3 + n))])
    op = engine.opinions[0]
    assert op.confidence < 0.9 and op.statement == STATEMENTS[0]
    assert op.evidence[1].role == "-" and op.pending == []  # contradicts, but is no vote for a new statement


def test_world_facts_count_as_weak_evidence_but_never_form_opinions() -> None:
    engine = Engine([], [], "2025-12-01")
    engine.apply([_fact(0, "Peter: Likes hiking in the Alps.", 0.6, date(2025, 11, 3)),
                  _fact(1, "Peter: Went skiing in Norway.", None, date(2025, 11, 4), kind="world"),
                  _fact(2, "Peter: Likes hiking in the Alps a lot.", None, date(2025, 11, 5), kind="world")])
    assert len(engine.opinions) == 1
    op = engine.opinions[0]
    assert [ev.kind for ev in op.evidence] == ["O", "W"] and op.confidence > 0.6


def test_unrelated_opinions_about_the_same_entity_stay_apart() -> None:
    engine = Engine([], [], "2025-12-01")
    engine.apply([_fact(0, "Peter: Prefers concise replies on WhatsApp.", 0.8, date(2025, 11, 3)),
                  _fact(1, "Peter: Enjoys hiking in the Alps.", 0.7, date(2025, 11, 4))])
    assert len(engine.opinions) == 2


@pytest.mark.parametrize(("text", "value"), [("0.85", 0.85), (".5", 0.5), ("85%", 0.85), ("85 %", 0.85),
                                             ("0,7", 0.7), ("high", None), ("", None), ("150%", 1.0),
                                             # a bare number is never a percentage: clamped, with a warning
                                             ("85", 1.0), ("1.7", 1.0), ("-0.2", 0.0)])
def test_parse_confidence(text: str, value: float | None) -> None:
    assert parse_confidence(text) == value


def _page_with(op: Opinion) -> str:
    from workspace_memory.reflect.opinions_md import NEW_PAGE

    page = parse_page(NEW_PAGE)
    rec = reconcile(page, [], "2025-11-03")
    rec.opinions.append(op)
    return render_page(page, rec, {}, lambda k: k.capitalize(), lambda keys: ())


def test_hand_edits_become_the_baseline_and_notes_survive() -> None:
    op = Opinion("peter-tea", "Peter: Prefers tea.", ["peter"], 0.8, "2025-11-03", "2025-11-03")
    text = _page_with(op)
    edited = (text.replace("## Peter: Prefers tea.", "## Peter: Prefers green tea.")
                  .replace("- confidence: 0.80", "- confidence: 60%")
                  .replace("<!-- reflect:end evidence -->\n", "<!-- reflect:end evidence -->\n\nA note.\n"))
    page = parse_page(edited)
    rec = reconcile(page, [], "2025-11-10")
    assert rec.edits == 2
    again = rec.opinions[0]
    assert again.statement == "Peter: Prefers green tea." and again.confidence == 0.6
    out = render_page(page, rec, {}, lambda k: k.capitalize(), lambda keys: ())
    assert "A note.\n" in out and "- confidence: 60%\n" in out  # same value: the human's spelling stays
    assert "statement edited by hand" in out and "confidence set by hand to 0.60" in out
    # Reading the result once more notices nothing new.
    page2 = parse_page(out)
    rec2 = reconcile(page2, [], "2025-11-11")
    assert rec2.edits == 0 and render_page(page2, rec2, {}, lambda k: k.capitalize(), lambda keys: ()) == out


def test_a_deleted_section_becomes_a_tombstone() -> None:
    op = Opinion("peter-tea", "Peter: Prefers tea.", ["peter"], 0.8, "2025-11-03", "2025-11-03")
    text = _page_with(op)
    start = text.index("## Peter: Prefers tea.")
    end = text.index("<!-- reflect:begin state -->")
    page = parse_page(text[:start] + text[end:])
    rec = reconcile(page, [], "2025-11-10")
    assert rec.deleted == 1 and rec.tombstones[0].key == "peter-tea" and rec.tombstones[0].day == "2025-11-10"
    engine = Engine(rec.opinions, rec.tombstones, "2025-11-20")
    engine.apply([_fact(1, "Peter: Prefers tea, again.", 0.8, date(2025, 11, 9))])
    assert engine.opinions == [] and engine.stats.suppressed == 1
    engine.apply([_fact(2, "Peter: Prefers tea, still.", 0.8, date(2025, 11, 11))])
    assert [o.key for o in engine.opinions] == ["peter-prefers-tea-still"]  # newer than the deletion


def test_entities_typed_by_hand_are_understood() -> None:
    op = Opinion("peter-tea", "Peter: Prefers tea.", ["peter"], 0.8, "2025-11-03", "2025-11-03")
    text = _page_with(op).replace("- entities: @Peter\n", "- entities: Peter, Andy\n")
    page = parse_page(text)
    rec = reconcile(page, [], "2025-11-10")
    assert rec.opinions[0].entities == ["peter", "andy"] and rec.edits == 0
    out = render_page(page, rec, {}, lambda k: k.capitalize(), lambda keys: ())
    assert "- entities: @Peter @Andy\n" in out


def test_a_confidence_out_of_range_on_the_page_is_clamped_with_a_warning_at_its_line() -> None:
    op = Opinion("peter-tea", "Peter: Prefers tea.", ["peter"], 0.8, "2025-11-03", "2025-11-03")
    edited = _page_with(op).replace("- confidence: 0.80", "- confidence: 1.7")
    line = edited.splitlines().index("- confidence: 1.7") + 1
    rec = reconcile(parse_page(edited), [], "2025-11-10")
    assert rec.opinions[0].confidence == 1.0  # never 1.7 %
    assert f"bank/opinions.md:{line}: confidence 1.7 is outside 0..1 (a percentage is written with %, e.g. " \
           "70%); read as 1.0" in rec.notices


def test_status_and_doctor_name_the_line_of_a_bad_confidence(tmp_path) -> None:
    import json

    from conftest import run_memory

    ws = tmp_path / "ws"
    (ws / "bank").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Core\n", encoding="utf-8")
    (ws / "bank" / "opinions.md").write_text(
        "# Opinions\n\n## Peter: Prefers tea.\n<!-- reflect:opinion peter-tea -->\n- entities: @Peter\n"
        "- confidence: 1.7\n- last updated: 2025-11-03\n\n## Anna: Likes trains.\n"
        "<!-- reflect:opinion anna-trains -->\n- confidence: 70%\n\n```\n- confidence: 9\n```\n", encoding="utf-8")
    assert run_memory(ws, "index")[0] == 0
    warnings = json.loads(run_memory(ws, "status", "--json")[1])["warnings"]
    assert warnings == [{"path": "bank/opinions.md", "line": 6, "message": "confidence 1.7 is outside 0..1 (a "
                         "percentage is written with %, e.g. 70%); read as 1.0"}]
    doctor = json.loads(run_memory(ws, "doctor", "--json")[1])
    [found] = [f for f in doctor["findings"] if f["code"] == "opinion-confidence"]
    assert found["where"] == "bank/opinions.md:6"
    opinions = json.loads(run_memory(ws, "opinions", "--json")[1])
    assert {o["statement"]: o["confidence"] for o in opinions} == {"Peter: Prefers tea.": 1.0,
                                                                   "Anna: Likes trains.": 0.7}
