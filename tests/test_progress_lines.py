"""A long `memory index` off a terminal (cron, an agent's subprocess) says how far it is (issue 27)."""

from __future__ import annotations

import io
import sys

import pytest

from workspace_memory.cli import progress


def test_off_a_terminal_progress_is_a_line_every_few_seconds_and_at_each_step(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)  # a StringIO is no terminal
    now = [0.0]
    with progress.progress_bar("parsing", clock=lambda: now[0]) as update:
        assert update is not None
        for done in range(0, 100):
            now[0] = done * 0.5  # 50 s of work in 0.5 s steps
            update(done, 100)
        update(0, 40, label="embedding")  # a new step is said at once, in a long run
        update(1, 40)
    with progress.progress_bar("parsing", clock=lambda: now[0]) as update:
        update(1, 2)
        update(0, 2, label="embedding")  # a short run says nothing
    lines = err.getvalue().splitlines()
    # 2 done a second: the rate and the time left (80 to go), every LINE_EVERY seconds, no more
    assert lines[:2] == ["memory: parsing 20/100 (2.0/s, about 40 s left)",
                         "memory: parsing 40/100 (2.0/s, about 30 s left)"]
    assert len([line for line in lines if "parsing" in line]) == 4
    assert lines[-1] == "memory: embedding 0/40"  # a new step: no rate yet


def test_the_rate_is_the_steps_own_and_long_waits_read_in_minutes_and_hours(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    now = [0.0]
    with progress.progress_bar("parsing", clock=lambda: now[0]) as update:
        now[0] = 100.0
        update(4_000, 0, label="embedding")  # said at once, without a rate
        now[0] = 120.0
        update(4_000 + 20 * 50, 1_000_000)  # 50 a second since the step began, not since the start
        now[0] = 130.0
        update(1_000_000, 0)  # no total: no time left
    assert err.getvalue().splitlines() == [
        "memory: embedding 4,000",
        "memory: embedding 5,000/1,000,000 (50/s, about 5 h 31 min left)",
        "memory: embedding 1,000,000 (33,200/s)",
    ]
    assert progress._duration(245) == "4 min 05 s"


def test_json_output_asks_for_no_progress() -> None:
    with progress.progress_bar("parsing", enabled=False) as update:
        assert update is None
