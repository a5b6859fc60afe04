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
    assert lines[:2] == ["memory: parsing 20/100", "memory: parsing 40/100"]
    assert len([line for line in lines if "parsing" in line]) == 4  # every LINE_EVERY seconds, no more
    assert lines[-1] == "memory: embedding 0/40"


def test_json_output_asks_for_no_progress() -> None:
    with progress.progress_bar("parsing", enabled=False) as update:
        assert update is None
