"""Time phrases in the model's other languages (issue 24 §3): a window, the same evidence as in English.

Each language's question names a repair "last week" (in its own words); the same sentence was
written on Nov 18 (inside the window) and today (outside, and newer, so recency alone would put
it first). The window must put Nov 18 first.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from conftest import run_ok, write_files
from workspace_memory.dates.languages import default_languages, extract_window, languages_of

NOW = "2025-11-24T18:00"
LANGUAGES = '[time]\nlanguages = ["en", "de", "es", "fr", "pt", "it", "nl"]\n'
CASES = {  # language: (the note, the question)
    "de": ("Wir haben das Fahrrad repariert.", "Wann haben wir letzte Woche das Fahrrad repariert?"),
    "es": ("Reparamos la bicicleta.", "¿Cuándo reparamos la bicicleta la semana pasada?"),
    "fr": ("Nous avons réparé le vélo.", "Quand avons-nous réparé le vélo la semaine dernière ?"),
    "pt": ("Consertamos a bicicleta.", "Quando consertamos a bicicleta na semana passada?"),
    "it": ("Abbiamo riparato la bici.", "Quando abbiamo riparato la bici la settimana scorsa?"),
    "nl": ("We hebben de fiets gerepareerd.", "Wanneer hebben we vorige week de fiets gerepareerd?"),
    "zh": ("我们修了自行车。", "上周我们修了自行车吗？"),  # (searched as its pieces: 自行, 行车, ...)
    "ja": ("自転車を修理した。", "先週自転車を修理した？"),
}


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("timelang") / "ws"
    old = "\n".join(f"- {note}" for note, _ in CASES.values())
    write_files(root, {"memory.toml": LANGUAGES, "MEMORY.md": "# Core\n",
                       "memory/2025-11-18.md": f"# 2025-11-18\n\n## Notes\n{old}\n",
                       "memory/2025-11-24.md": f"# 2025-11-24\n\n## Notes\n{old}\n"})
    run_ok(root, "index", now=NOW)
    return root


@pytest.mark.parametrize("language", sorted(CASES))
def test_a_question_in_another_language_ranks_the_day_it_names_first(ws: Path, language: str) -> None:
    note, question = CASES[language]
    out = json.loads(run_ok(ws, "recall", question, "--json", "--explain", "--mode", "lexical", "--k", "20", now=NOW))
    first = out["results"][0]
    assert first["path"] == "memory/2025-11-18.md" and note in first["content"], (language, out["results"])
    assert "time window" in first["explain"]["found_by"]  # the window named in that language
    # Without the window the newer copy would come first (recency), and the older one, its repeat, go.
    plain = json.loads(run_ok(ws, "recall", note.rstrip("。."), "--json", "--mode", "lexical", "--k", "3", now=NOW))
    assert plain["results"][0]["path"] == "memory/2025-11-24.md"


@pytest.mark.parametrize(("question", "days"), [
    ("Was passierte am 18. November?", ("2025-11-18", "2025-11-18")),
    ("Was haben wir vor sechs Tagen gemacht?", ("2025-11-18", "2025-11-18")),
    ("¿Qué pasó hace dos semanas?", ("2025-11-10", "2025-11-16")),
    ("qu'est-ce qu'on a fait le 18 novembre ?", ("2025-11-18", "2025-11-18")),
    ("o que aconteceu ontem?", ("2025-11-23", "2025-11-23")),
    ("cosa è successo due settimane fa?", ("2025-11-10", "2025-11-16")),
    ("上周我们做了什么", ("2025-11-17", "2025-11-23")),
    ("11月18日に何があった？", ("2025-11-18", "2025-11-18")),
    # A month alone in Chinese numerals or digits, and a third of a month in each language (issue 38).
    ("Sam十月份在哪里工作？", ("2025-10-01", "2025-10-31")),
    ("Jonas十月中旬在哪里？", ("2025-10-11", "2025-10-20")),
    ("十一月上旬发生了什么？", ("2025-11-01", "2025-11-10")),
    ("9月底他在哪里？", ("2025-09-21", "2025-09-30")),
    ("Wo war Jonas Mitte Oktober?", ("2025-10-11", "2025-10-20")),
    ("¿Dónde estaba Jonas a finales de octubre?", ("2025-10-21", "2025-10-31")),
    ("Où était Jonas à la mi-octobre ?", ("2025-10-11", "2025-10-20")),
    ("Qu'avons-nous fait début novembre ?", ("2025-11-01", "2025-11-10")),
])
def test_phrases_dateparser_and_our_rules_read(question: str, days: tuple[str, str]) -> None:
    window, _ = extract_window(question, datetime(2025, 11, 24, 18), ("en", "de", "es", "fr", "pt", "it"))
    assert window is not None and (window.start.isoformat(), window.end.isoformat()) == days, question


@pytest.mark.parametrize("question", [
    "What are we going to do?", "may I ask what to do", "When was the dentist appointment?", "Who is Sam?",
    "Was denkt Sam jetzt über Rust?", "Que pense Sam de Rust?", "¿Qué piensa Sam de Rust ahora?",
    "他三个小时后回来", "我们十个人一起去",  # numerals beside other units are no month
])
def test_noise_words_never_become_dates(question: str) -> None:
    window, rest = extract_window(question, datetime(2025, 11, 24, 18), ("en", "de", "es", "fr", "pt", "it", "nl"))
    assert window is None and rest == question


def test_an_english_question_never_reads_another_language() -> None:
    assert languages_of("When was the last standup with Peter?", ("en", "de", "fr", "es", "pt", "it", "nl")) == []
    code = ("import sys, json; from datetime import datetime;"
            "from workspace_memory.dates.languages import extract_window;"
            "w, _ = extract_window('What happened to the bike?', datetime(2025, 11, 24), ('en', 'de', 'fr'));"
            "print(json.dumps([w is None, 'dateparser' in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [True, False]


def test_the_default_languages_are_english_and_the_locales() -> None:
    assert default_languages({"LANG": "de_DE.UTF-8"}) == ("en", "de")
    assert default_languages({"LANG": "C.UTF-8"}) == ("en",)
    assert default_languages({"LC_ALL": "pt_BR.UTF-8", "LANG": "de_DE"}) == ("en", "pt")


def test_a_bad_languages_setting_is_one_clear_line(tmp_path: Path) -> None:
    from conftest import assert_one_line_error, run_memory

    root = tmp_path / "ws"
    write_files(root, {"memory.toml": '[time]\nlanguages = "de"\n', "MEMORY.md": "# Core\n"})
    code, out, err = run_memory(root, "recall", "x", now=NOW)
    assert "languages" in assert_one_line_error(code, out, err)


FACTS_DAY = """\
# 2025-11-20

## Retain
- W @Sam: Zahnarzttermin am 3. Dezember.
- W @Sam: Fuimos al cine hace dos semanas.
- W @Sam: Vol pour Lisbonne le 28 novembre.
- W @Sam: Maintains the tag list for the API.
- W @Sam: Dentist on Dec 3.
"""


def _occurred(root: Path) -> dict[str, tuple[str | None, str | None]]:
    out = run_ok(root, "export", now=NOW)
    return {r["content"]: (r["occurred"]["start"], r["occurred"]["end"]) for r in map(json.loads, out.splitlines())}


def test_retain_facts_state_their_time_in_the_configured_languages(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write_files(root, {"memory.toml": '[time]\nlanguages = ["en", "de", "es", "fr"]\n', "MEMORY.md": "# Core\n",
                       "memory/2025-11-20.md": FACTS_DAY})
    run_ok(root, "index", now=NOW)
    assert _occurred(root) == {
        "Sam: Zahnarzttermin am 3. Dezember.": ("2025-12-03", "2025-12-03"),  # the coming one
        "Sam: Fuimos al cine hace dos semanas.": ("2025-11-03", "2025-11-09"),  # the week two weeks before
        "Sam: Vol pour Lisbonne le 28 novembre.": ("2025-11-28", "2025-11-28"),
        "Sam: Maintains the tag list for the API.": (None, None),  # "tag", "mai": no German time
        "Sam: Dentist on Dec 3.": ("2025-12-03", "2025-12-03"),
    }
    # Without the setting a fact is read in the language its words show (a month name: issue 37), never
    # in the machine's locale's, and changing the setting rebuilds the rows.
    (root / "memory.toml").write_text("", encoding="utf-8")
    run_ok(root, "index", now=NOW)
    occurred = _occurred(root)
    assert occurred["Sam: Zahnarzttermin am 3. Dezember."] == ("2025-12-03", "2025-12-03")
    assert occurred["Sam: Maintains the tag list for the API."] == (None, None)
    assert occurred["Sam: Dentist on Dec 3."] == ("2025-12-03", "2025-12-03")
