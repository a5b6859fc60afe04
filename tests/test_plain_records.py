"""The plain classes that stand for frozen dataclasses on a cold recall's path behave as those did:
equal by value, hashed by value, unequal to other classes, with a field-by-field repr, and
Filters.replace does what dataclasses.replace did."""

from __future__ import annotations

from datetime import date

import pytest

from workspace_memory.dates.parse import DateRange, TimeWindow
from workspace_memory.facts.entity_info import EntityInfo
from workspace_memory.index.base import Filters, SyncReport, Term
from workspace_memory.recall.settings import RecallSettings
from workspace_memory.workspace.layout import MarkdownFile

D = date(2025, 11, 27)

PAIRS = [
    (Term("deploy pipeline"), Term("deploy pipeline"), Term("deploy pipeline", cjk=True)),
    (Filters(since=D, kinds=("world",)), Filters(D, None, ("world",)), Filters(since=D)),
    (MarkdownFile("memory/2025-11-27.md", "/w/memory/2025-11-27.md"),
     MarkdownFile("memory/2025-11-27.md", "/w/memory/2025-11-27.md"),
     MarkdownFile("memory/2025-11-27.md", "/other/memory/2025-11-27.md")),
    (EntityInfo("peter", "Peter", "Peter", None, ("Pete",)), EntityInfo("peter", "Peter", "Peter", None, ("Pete",)),
     EntityInfo("peter", "Peter", "Peter", None)),
    (DateRange(D, None), DateRange(D, None), DateRange(D, D)),
    (TimeWindow(D, D, "filter", "on Nov 27"), TimeWindow(D, D, "filter", "on Nov 27", 1.0),
     TimeWindow(D, D, "filter", "on Nov 27", 0.6)),
    (RecallSettings(), RecallSettings.from_mapping({}), RecallSettings(min_score=0.1)),
]


@pytest.mark.parametrize(("one", "same", "other"), PAIRS, ids=lambda v: type(v).__name__)
def test_equal_by_value_and_hashed_alike(one: object, same: object, other: object) -> None:
    assert one == same and hash(one) == hash(same) and len({one, same}) == 1
    assert one != other
    assert one != (object(),) and one.__eq__(object()) is NotImplemented
    assert repr(one) == repr(same) and repr(one).startswith(type(one).__name__ + "(")


def test_reprs_name_every_field_as_the_dataclasses_did() -> None:
    assert repr(Term("a")) == "Term(label='a', cjk=False, stem=None, glue=None)"
    assert repr(DateRange(D, None)) == "DateRange(start=datetime.date(2025, 11, 27), end=None)"
    assert repr(Filters()) == ("Filters(since=None, until=None, kinds=(), entity_keys=(), window=None, sources=(), "
                               "include_invalid=False)")


def test_filters_replace_changes_only_what_it_is_given() -> None:
    base = Filters(since=D, kinds=("world",), sources=("memory",))
    changed = base.replace(sources=(), include_invalid=True)
    assert changed == Filters(since=D, kinds=("world",), include_invalid=True)
    assert base == Filters(since=D, kinds=("world",), sources=("memory",))  # unchanged
    assert base.within((D, D)) == base.replace(window=(D, D)) and base.within(None) is base
    with pytest.raises(TypeError):
        base.replace(colour="red")


def test_recall_settings_fields_and_replace() -> None:
    settings = RecallSettings.from_mapping({"mmr_lambda": 0.5})
    assert settings.FIELDS == ("vector_weight", "text_weight", "candidate_multiplier", "half_life_days", "mmr_lambda",
                               "min_score", "sources")
    assert settings.replace(min_score=0.2) == RecallSettings(mmr_lambda=0.5, min_score=0.2)
    assert settings == RecallSettings(mmr_lambda=0.5)  # unchanged
    assert repr(RecallSettings()).startswith("RecallSettings(vector_weight=0.7, text_weight=0.3, ")
    with pytest.raises(TypeError):
        settings.replace(colour="red")


def test_sync_reports_do_not_share_their_lists() -> None:
    one, two = SyncReport(), SyncReport()
    one.notices.append("x")
    one.entity_keys.add("peter")
    assert two.notices == [] and two.entity_keys == set() and not two.dirty
    one.added = 1
    assert one.dirty and SyncReport.added == 0
