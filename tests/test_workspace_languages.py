"""The languages a workspace's notes are written in count as configured when a question is read
(lang.identify.workspace_languages, measured at index time: index.rows.language_counts); a noun finds
its verb (NOUN_SUFFIXES); a place is read in the workspace's languages."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import clean_env, notes_workspace, recall_json
from workspace_memory import lang
from workspace_memory.lang.identify import MIN_SHARE, line_language, workspace_languages
from workspace_memory.recall.lexical import query_terms
from workspace_memory.recall.place import names_place
from workspace_memory.recall.query import holds_any


@pytest.mark.parametrize(("line", "code"), [
    ("- W @Anke: Zieht am 1. November nach Dresden.", "de"),  # one marker is enough for a line
    ("- O(c=0.8) @Anke: Mag die neue Kantine nicht mehr.", "de"),
    ("- W @Anke: Works remotely from Leipzig; handles the API design.", "en"),
    ("- The timeline is zu optimistisch.", "en"),  # two English stop words beat one German marker
    ("- W @Lucía: Se muda a Madrid, al barrio de Chamberí, el 15 de diciembre.", "es"),
    ("- Woont in Wenen met zijn hond Bruno.", "nl"),
    ("- Peter在慕尼黑找到了房子。", "zh"),
    ("# 2026-10-15", None),  # nothing says
    ("- We flew to Los Angeles with the team.", "en"),  # a stray Spanish word in an English line
])
def test_a_line_s_language(line: str, code: str | None) -> None:
    assert line_language(line) == code


def test_the_measured_languages_join_the_configured_ones() -> None:
    assert workspace_languages(("en",), {"en": 90}) == ("en",)  # an English workspace adds nothing
    assert workspace_languages(("en",), {"en": 19, "de": 4}) == ("en", "de")
    assert workspace_languages(("en",), {"es": 20, "en": 4}) == ("en", "es")  # most entries first
    assert workspace_languages(("en", "fr"), {"de": 30, "fr": 30}) == ("en", "fr", "de")
    # A stray line in another language is no language of the workspace.
    few = int(MIN_SHARE * 100) - 1
    assert workspace_languages(("en",), {"en": 100 - few, "es": few}) == ("en",)
    assert workspace_languages(("en",), {}) == ("en",)


def test_a_particle_verb_is_an_opinion_only_with_its_particle() -> None:
    opinion = lang.table("words", "de").OPINION_WORDS
    assert holds_any("Was zieht Peter vor?", opinion)  # vorziehen: prefers
    assert not holds_any("Wann zieht Peter um?", opinion)  # umziehen: moves


def test_a_place_is_read_in_any_of_the_workspace_s_languages() -> None:
    assert not names_place("Works remotely from Leipzig.", "de")
    assert names_place("Works remotely from Leipzig.", ("de", "en"))
    assert names_place("Zieht am 1. November nach Dresden.", ("de", "en"))
    assert not names_place("Mag die neue Kantine nicht mehr.", ("de", "en"))


@pytest.mark.parametrize(("code", "question", "label", "stem"), [
    ("es", "¿Cuándo es la mudanza de Lucía?", "mudanza", "mud"),  # "se muda", "mudarse"
    ("es", "¿Cuándo fue el nacimiento de Leo?", "nacimiento", "nac"),  # "nació"
    ("pt", "Quando é a mudança da Ana?", "mudança", "mud"),  # "muda", "mudou"
    ("it", "Quando è la partenza di Marco?", "partenza", "part"),  # "parte", "partito"
    ("es", "¿Dónde es la danza?", "danza", "danz"),  # "d" would be no root: the stem stays
    ("es", "¿Quién reemplaza a Lea?", "reemplaza", "reemplaz"),  # no noun suffix: Snowball's stem
])
def test_a_noun_is_searched_by_its_verb_s_root(code: str, question: str, label: str, stem: str) -> None:
    term = next(t for t in query_terms(question, lang.table("words", code)) if t.label == label)
    assert term.stem == stem


MIXED_DE = {
    "memory/2026-10-12.md": """\
        # Montag, 12. Oktober 2026

        Kickoff for the @Brücke project with Jörg and Anke. Meeting in Köln.

        ## Retain
        - W @Jörg: Ist Projektleiter bei @Brücke und wohnt in Köln-Ehrenfeld.
        - W @Anke: Works remotely from Leipzig; handles the API design.
        - B @Brücke: I set up the shared board and invited Jörg and Anke.
        """,
    "memory/2026-10-13.md": """\
        # Dienstag, 13. Oktober 2026

        ## Retain
        - W @Anke: Zieht am 1. November nach Dresden.
        - W @Jörg: Has a Zahnarzttermin am Donnerstag um 8 Uhr.
        - O(c=0.8) @Anke: Mag die neue Kantine nicht mehr.
        """,
    "memory/2026-10-15.md": """\
        # 2026-10-15

        ## Retain
        - B @Anke: Ich habe Anke die Umzugskartons bestellt.
        - S @Jörg: Prefers decisions in writing, not in calls.
        """,
}


@pytest.mark.parametrize(("question", "needle"), [
    ("Wann zieht Anke um?", "Zieht am 1. November nach Dresden"),  # one German marker: "wann"
    ("Wo wohnt Anke?", "Works remotely from Leipzig"),  # the English note's "from Leipzig" is a place
])
def test_a_german_question_in_a_workspace_of_german_and_english_notes(tmp_path: Path, question: str,
                                                                       needle: str) -> None:
    """`[time] languages` names English only; the notes say German too (hnu's new-user log)."""
    root = notes_workspace(tmp_path / "ws", MIXED_DE, ("en",))
    hits = recall_json(root, question, now="2026-10-15T18:00")["results"]
    assert hits and needle in hits[0]["content"], [h["content"] for h in hits[:3]]


MIXED_ES = {
    "memory/2026-11-16.md": """\
        # Lunes 16 de noviembre de 2026

        ## Retain
        - W @Lucía: Vive en Valencia, en el barrio de Ruzafa.
        - W @Andrés: Es el hermano de Lucía y vive en Sevilla.
        - O(c=0.7) @Lucía: Cree que el nuevo horario de la clínica es un desastre.
        """,
    "memory/2026-11-18.md": """\
        # Miércoles 18 de noviembre de 2026

        ## Retain
        - W @Lucía: Se muda a Madrid, al barrio de Chamberí, el 15 de diciembre.
        - S @Andrés: Se alegró mucho y ofreció ayudar con la mudanza.
        - O(c=0.8) @Lucía: Prefiere el nuevo trabajo aunque el sueldo es un poco más bajo.
        """,
}


@pytest.mark.parametrize(("question", "needle"), [
    ("¿Cuándo es la mudanza de Lucía?", "Se muda a Madrid"),  # the noun finds the verb
    ("¿Mudanza de Lucía?", "Se muda a Madrid"),
    ("¿Dónde vive Lucía?", "Vive en Valencia"),  # read as Spanish, about now: the move is ahead (in_effect)
])
def test_a_spanish_question_in_a_spanish_workspace(tmp_path: Path, question: str, needle: str) -> None:
    root = notes_workspace(tmp_path / "ws", MIXED_ES, ("en",))
    hits = recall_json(root, question, now="2026-11-19T18:00")["results"]
    assert hits and needle in hits[0]["content"], [h["content"] for h in hits[:3]]


def test_an_english_workspace_reads_an_english_question_with_english_data_only(tmp_path: Path) -> None:
    """English notes with one German line: English is the workspace's only language, so an English
    question loads lang/words/en.py only (a German question still reads German by its markers)."""
    notes = {"memory/2025-11-20.md": "# 2025-11-20\n\n" + "".join(
        f"- Met Tom about the billing migration, part {n} of the plan.\n" for n in range(12))
        + "- Peter zieht am Montag nach Graz.\n"}
    root = notes_workspace(tmp_path / "ws", notes, ("en",))
    script = textwrap.dedent(f"""
        import json, sys
        from workspace_memory.api import Memory
        from workspace_memory.recall.query import RecallRequest
        mem = Memory.open({str(root)!r}, now="2025-11-21")
        assert mem.store.languages() == {{"de": 1, "en": 12}}, mem.store.languages()
        mem.recall(RecallRequest("Who leads the billing migration?", mode="lexical"))
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("workspace_memory.lang.") or m == "Stemmer")))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=clean_env(), check=True)
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert [m for m in loaded if m.startswith("workspace_memory.lang.words.")] == ["workspace_memory.lang.words.en"]
    assert "Stemmer" not in loaded
