"""A workspace's first `memory reflect` takes every fact, not only the last 7 days.

A new user who has kept notes for a month and runs reflect for the first time used to get
"0 facts, 0 entity pages": the default window left the month out. Without --since, a workspace
that reflect never wrote (no entity page, no generated region on a bank page) counts every
fact; later runs, and any run with --since, keep the window.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_ok, write_files

NOW = "2025-11-30T18:00"
OLD = {  # weeks before "now", in two languages
    "memory/2025-10-06.md": "# 2025-10-06\n\n## Retain\n- O(c=0.6) @Ana: Prefers green tea to coffee.\n"
                            "- W @Ana: Lives in Porto.\n",
    "memory/2025-10-20.md": "# 2025-10-20\n\n## Retain\n- W @Bruno: Trabaja en una panadería en Vigo.\n",
}


def test_first_reflect_counts_every_fact_and_says_so(tmp_path: Path) -> None:
    run_ok(tmp_path, "init")
    write_files(tmp_path, OLD)
    out = run_ok(tmp_path, "reflect", now=NOW)
    assert out.startswith("reflect: 3 facts, 2 entity pages")
    assert "first reflect in this workspace: every fact counted (written since 2025-10-06)" in out
    assert (tmp_path / "bank/entities/Ana.md").is_file() and (tmp_path / "bank/entities/Bruno.md").is_file()
    assert "Prefers green tea" in run_ok(tmp_path, "opinions", now=NOW)
    # The second run is an ordinary one: the default window, nothing new, nothing rewritten.
    report = json.loads(run_ok(tmp_path, "reflect", "--json", now=NOW))
    assert report["first_run"] is False and report["since"] == "2025-11-23"
    assert report["facts"] == 0 and report["changed"] == []


def test_a_dry_run_is_a_first_run_too_and_changes_nothing(tmp_path: Path) -> None:
    write_files(tmp_path, OLD)
    report = json.loads(run_ok(tmp_path, "reflect", "--dry-run", "--json", now=NOW))
    assert report["first_run"] is True and report["facts"] == 3 and report["since"] == "2025-10-06"
    assert not (tmp_path / "bank").exists()


def test_an_explicit_since_is_kept_on_a_first_run(tmp_path: Path) -> None:
    write_files(tmp_path, OLD)
    report = json.loads(run_ok(tmp_path, "reflect", "--since", "7d", "--json", now=NOW))
    assert report["first_run"] is False and report["facts"] == 0


def test_a_workspace_reflected_before_keeps_the_window_even_without_its_index(tmp_path: Path) -> None:
    write_files(tmp_path, OLD)
    run_ok(tmp_path, "reflect", now=NOW)
    write_files(tmp_path, {"memory/2025-11-03.md": "# d\n\n## Retain\n- W @Ana: Started a pottery class.\n"})
    import shutil

    shutil.rmtree(tmp_path / ".memory")  # derived: the bank pages say reflect has run
    report = json.loads(run_ok(tmp_path, "reflect", "--json", now=NOW))
    assert report["first_run"] is False and report["facts"] == 0


def test_an_empty_since_is_refused_as_before(tmp_path: Path) -> None:
    from conftest import assert_one_line_error, run_memory

    write_files(tmp_path, OLD)
    line = assert_one_line_error(*run_memory(tmp_path, "reflect", "--since", "", now=NOW))
    assert line.startswith("memory: error: --since: ")
