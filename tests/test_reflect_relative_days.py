"""A page reflect writes is read on later days: a fact's relative day phrase ("tomorrow", "next week",
"morgen", "la semana que viene") keeps its words there and gets its day beside it; the daily log is
never touched (dates.absolute, reflect/entity_pages.py and reflect/curated.py)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from conftest import write_files
from workspace_memory.api import Memory
from workspace_memory.dates.absolute import with_dates
from workspace_memory.reflect import reflect

WRITTEN = date(2026, 10, 15)  # a Thursday

LOG = ("# Thursday\n\n## Retain\n"
       "- W @Anke: Moves to Hamburg tomorrow.\n"
       "- W @Anke: Zieht morgen nach Hamburg um.\n"
       "- W @Anke: Visita a sus padres la semana que viene.\n"
       "- W @Anke: Dentist on Dec 4.\n")


def test_relative_phrases_get_their_day_and_dates_stay_as_written() -> None:
    assert with_dates("Moves to Hamburg tomorrow.", WRITTEN) == "Moves to Hamburg tomorrow (2026-10-16)."
    assert with_dates("Kommt nächste Woche zu Besuch", WRITTEN) == \
        "Kommt nächste Woche (2026-10-19 – 2026-10-25) zu Besuch"
    assert with_dates("Dentiste vendredi à 9h", WRITTEN) == "Dentiste vendredi (2026-10-16) à 9h"
    for unchanged in ("Dentist on Dec 4", "Zahnarzt am 4. Dezember", "Lives in Berlin", "Deployed 2026-10-01"):
        assert with_dates(unchanged, WRITTEN) == unchanged
    assert with_dates("明天搬到汉堡", WRITTEN) == "明天（2026-10-16）搬到汉堡"
    once = with_dates("Moves tomorrow.", WRITTEN)
    assert with_dates(once, WRITTEN) == once  # run twice, or a page's text copied back: said once


def test_an_entity_page_says_which_day_tomorrow_was_and_the_log_keeps_its_words(tmp_path: Path) -> None:
    write_files(tmp_path, {"memory/2026-10-15.md": LOG})
    log_before = (tmp_path / "memory/2026-10-15.md").read_bytes()
    mem = Memory.open(str(tmp_path), now="2026-10-20T09:00", create=True)
    try:
        reflect(mem.workspace, mem.store, mem.now, "30d", use_model=False)
    finally:
        mem.close()
    page = (tmp_path / "bank/entities/Anke.md").read_text()
    summary, facts = page.split("## Summary", 1)[1].split("## Facts", 1)
    for part in (summary, facts):
        assert "Moves to Hamburg tomorrow (2026-10-16)." in part
        assert "Zieht morgen (2026-10-16) nach Hamburg um." in part
        assert "la semana que viene (2026-10-19 – 2026-10-25)" in part
        assert "Dentist on Dec 4." in part and "Dec 4 (" not in part
    world = (tmp_path / "bank/world.md").read_text()
    assert "Moves to Hamburg tomorrow (2026-10-16)." in world
    assert (tmp_path / "memory/2026-10-15.md").read_bytes() == log_before
