"""Time as a person means it (issue 37): the days ahead, dates named anywhere in a line, five languages.

Each workspace is a few days of notes written before "now" (Sunday, Nov 29, 2026), as a user writes
them: plans for the coming days in narrative lines and in Retain facts, a trip with a range, an
appointment, "next Tuesday". The questions ask about the coming days and about the past.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import recall_batch, run_ok, write_files

NOW = "2026-11-29T18:00"  # a Sunday

# The same notes in each language: (the narrative line, the facts) written on Wednesday, Nov 25, 2026.
NOTES = {
    "en": ("Priya sent the agenda: Dec 4 is the API deep-dive.",
           ["W @Lena: In Lisbon from Dec 4 to Dec 6.", "W @Sam: Dentist appointment on December 7 at 9:00.",
            "W @Tom: Flies to Oslo next Tuesday.", "W @Ana: In Porto from Nov 24 to Nov 26."]),
    "de": ("Priya hat die Agenda geschickt: Am 4. Dezember ist der API-Deep-Dive.",
           ["W @Lena: Vom 4. bis 6. Dezember in Lissabon.", "W @Sam: Zahnarzttermin am 7. Dezember um 9:00.",
            "W @Tom: Fliegt nächsten Dienstag nach Oslo.", "W @Ana: Vom 24. bis 26. November in Porto."]),
    "es": ("Priya mandó la agenda: el 4 de diciembre es la sesión a fondo sobre la API.",
           ["W @Lena: En Lisboa del 4 al 6 de diciembre.", "W @Sam: Cita con el dentista el 7 de diciembre a las 9:00.",
            "W @Tom: Vuela a Oslo el próximo martes.", "W @Ana: En Oporto del 24 al 26 de noviembre."]),
    "fr": ("Priya a envoyé l'ordre du jour : le 4 décembre, c'est la séance sur l'API.",
           ["W @Lena: À Lisbonne du 4 au 6 décembre.", "W @Sam: Rendez-vous chez le dentiste le 7 décembre à 9 h.",
            "W @Tom: S'envole pour Oslo mardi prochain.", "W @Ana: À Porto du 24 au 26 novembre."]),
    "zh": ("Priya发来了议程：12月4日是API深度研讨。",
           ["W @Lena: 12月4日到6日在里斯本。", "W @Sam: 12月7日上午9点看牙医。", "W @Tom: 下周二飞奥斯陆。",
            "W @Ana: 11月24日到26日在波尔图。"]),
}
# "what's on <a day ahead>?", "who is travelling next week?", "anything around Nov 25?" per language.
ASKED = {
    "en": ("What's on Dec 4?", "Who is travelling next week?", "Anything around Nov 25?"),
    "de": ("Was steht am 4. Dezember an?", "Wer ist nächste Woche unterwegs?", "Etwas um den 25. November?"),
    "es": ("¿Qué hay el 4 de diciembre?", "¿Quién viaja la semana que viene?", "¿Algo alrededor del 25 de noviembre?"),
    "fr": ("Qu'est-ce qu'il y a le 4 décembre ?", "Qui voyage la semaine prochaine ?",
           "Quelque chose autour du 25 novembre ?"),
    "zh": ("12月4日有什么安排？", "下周谁要出行？", "11月25日前后有什么事？"),
}


def _workspace(root: Path, lang: str) -> Path:
    line, facts = NOTES[lang]
    body = "# 2026-11-25\n\n## Notes\n- " + line + "\n\n## Retain\n" + "".join(f"- {f}\n" for f in facts)
    write_files(root, {"MEMORY.md": "# Core\n", "memory/2026-11-25.md": body,
                       "memory/2026-11-20.md": "# 2026-11-20\n\n## Notes\n- Cleaned the flat.\n"})
    run_ok(root, "index", now=NOW)
    return root


def _lines(answer: dict) -> list[int]:
    return [r["start_line"] for r in answer["results"] if r["path"] == "memory/2026-11-25.md"]


@pytest.mark.parametrize("lang", sorted(NOTES))
def test_a_day_ahead_finds_the_notes_that_name_it(tmp_path: Path, lang: str) -> None:
    """"What's on Dec 4?" asked on Nov 29 finds the line written on Nov 25 that names Dec 4, and Lena's
    trip (Dec 4-6), in the top 3; "next week" finds Tom's "next Tuesday" and the trip; the past works
    as before. None of them answers "no results"."""
    root = _workspace(tmp_path / lang, lang)
    day, week, past = ASKED[lang]
    answers = recall_batch(root, [{"query": q, "k": 3, "explain": True} for q in (day, week, past)], now=NOW)
    for answer in answers:
        assert answer["results"], answer
        assert not any("no entry" in n for n in answer["notices"]), answer["notices"]
    agenda, lena, tom, ana = 4, 7, 9, 10  # the lines of memory/2026-11-25.md
    assert agenda in _lines(answers[0]) and lena in _lines(answers[0]), (lang, answers[0])
    assert {tom, lena} & set(_lines(answers[1])), (lang, answers[1])
    assert ana in _lines(answers[2]), (lang, answers[2])
    # --explain says which entries lie in the window by a day they name, and which by their own.
    times = {r["start_line"]: r["explain"]["time"] for r in answers[0]["results"]
             if r["path"] == "memory/2026-11-25.md"}
    assert times[agenda] == "names 2026-12-04", times
    assert times[lena] == "states 2026-12-04..2026-12-06", times


def test_the_issues_questions_in_english(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "en", "en")
    questions = ["what's on Dec 4?", "what is happening on December 4?", "anything around the 4th?",
                 "what's planned next week?", "who is travelling next week?", "where is Lena on Dec 5?"]
    answers = recall_batch(root, [{"query": q, "k": 3, "explain": True} for q in questions], now=NOW)
    for question, answer in zip(questions, answers, strict=True):
        assert set(_lines(answer)) & {4, 7, 9}, (question, answer)
    lisbon = next(r for r in answers[-1]["results"] if r["start_line"] == 7)
    assert "window" not in lisbon["explain"]["factors"]  # inside the window: no factor below 1


@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_a_question_that_is_only_its_time_phrase_searches_no_frame_words(tmp_path: Path, lang: str) -> None:
    """"What's on Dec 4?" leaves "what's on" once its time phrase is read: frame words. Searched as
    words they found a page whose intro starts "What ..." (the only text with "what" in a small
    workspace) above the days; now the window alone answers. A question of only frame words and no
    time phrase still searches them ("the who"): they are all it says."""
    root = _workspace(tmp_path / lang, lang)
    intro = {"en": "What the team decided, and what is still open.",
             "de": "Was das Team entschieden hat, und was noch offen ist.",
             "es": "Qué decidió el equipo y qué sigue abierto."}[lang]
    write_files(root, {"bank/decisions.md": f"# Decisions\n\n{intro}\n", "memory/2026-11-21.md":
                       "# 2026-11-21\n\n## Notes\n- Saw The Who live.\n"})
    run_ok(root, "index", now=NOW)
    day = ASKED[lang][0]
    answers = recall_batch(root, [{"query": day, "k": 5, "mode": "lexical"},
                                  {"query": "the who", "k": 3, "mode": "lexical"}], now=NOW)
    assert not any(r["path"] == "bank/decisions.md" for r in answers[0]["results"]), answers[0]
    assert 4 in _lines(answers[0]), answers[0]
    assert answers[1]["results"][0]["path"] == "memory/2026-11-21.md", answers[1]


def test_a_browse_of_the_days_ahead_lists_the_plans_soonest_first(tmp_path: Path) -> None:
    """`recall "" --since today --until +7d` (no words): the entries that name or state a day of the
    coming week come first, soonest first (a log dated ahead counts as a plan), then what was only
    written today, newest first; a plan beyond the week is not in it. Before, every entry tied and
    today's unrelated lines came first."""
    write_files(tmp_path, {
        "MEMORY.md": "# Core\n",
        "memory/2026-11-25.md": "# 2026-11-25\n\n## Notes\n- Movers come on Dec 12.\n- Dentist on Dec 3 at 9:00.\n"
                                "\n## Retain\n- W @Lena: In Lisbon from Dec 1 to Dec 2.\n",
        "memory/2026-12-02.md": "# 2026-12-02\n\n## Notes\n- Call the landlord about the heating.\n",
        "memory/2026-11-29.md": "# 2026-11-29\n\n## Notes\n- Fixed the flaky login test.\n"
                                "- Lunch with Jorg, talked about his bike.\n",
    })
    run_ok(tmp_path, "index", now=NOW)
    answer = json.loads(run_ok(tmp_path, "recall", "", "--since", "today", "--until", "+7d", "--json", "--explain",
                               "--mode", "lexical", now=NOW))
    texts = [r["content"] for r in answer["results"]]
    assert texts[:3] == ["Lena: In Lisbon from Dec 1 to Dec 2.", "- Call the landlord about the heating.",
                         "- Dentist on Dec 3 at 9:00."], texts
    assert not any("Movers" in t for t in texts), texts
    assert {"- Fixed the flaky login test.", "- Lunch with Jorg, talked about his bike."} <= set(texts[3:]), texts
    assert answer["results"][0]["explain"]["tier"]["rule"] == "the days ahead that entries name first, soonest first"


def test_where_will_i_be_on_a_day_of_a_trip_stated_ahead(tmp_path: Path) -> None:
    """Asked on Nov 25, 2025, a trip "Dec 3–7, 2025" answers "where will I be on December 5th?" in every
    language (the question's date is this year's Dec 5, not last year's)."""
    trips = {"en": ("W @Me: Trip to Rome Dec 3–7, 2025.", "Where will I be on December 5th?"),
             "de": ("W @Me: Reise nach Rom vom 3. bis 7. Dezember 2025.", "Wo werde ich am 5. Dezember sein?"),
             "es": ("W @Me: Viaje a Roma del 3 al 7 de diciembre de 2025.", "¿Dónde estaré el 5 de diciembre?"),
             "fr": ("W @Me: Voyage à Rome du 3 au 7 décembre 2025.", "Où serai-je le 5 décembre ?"),
             "zh": ("W @Me: 2025年12月3日到7日去罗马旅行。", "12月5日我会在哪里？")}
    notes = "".join(f"- {fact}\n" for fact, _ in trips.values())
    write_files(tmp_path, {"MEMORY.md": "# Core\n", "memory/2025-11-18.md": f"# 2025-11-18\n\n## Retain\n{notes}",
                           "memory/2025-11-24.md": "# 2025-11-24\n\n## Notes\n- Bought a new lamp.\n"})
    run_ok(tmp_path, "index", now="2025-11-25T10:00")
    answers = recall_batch(tmp_path, [{"query": q, "k": 5} for _, q in trips.values()], now="2025-11-25T10:00")
    for (lang, (fact, _)), answer in zip(trips.items(), answers, strict=True):
        assert any(fact.split(": ", 1)[1][:12] in r["content"] for r in answer["results"]), (lang, answer)
    export = [json.loads(line) for line in run_ok(tmp_path, "export", now="2025-11-25T10:00").splitlines()]
    occurred = {r["content"].split(": ", 1)[1]: (r["occurred"]["start"], r["occurred"]["end"]) for r in export}
    assert set(occurred.values()) == {("2025-12-03", "2025-12-07")}, occurred  # every language's range


def test_the_coming_days_from_the_cli(tmp_path: Path) -> None:
    """`--until +7d` alone: the entries about the days from today to a week ahead, whenever written."""
    root = _workspace(tmp_path / "en", "en")
    out = json.loads(run_ok(root, "recall", "", "--until", "+7d", "--json", "--mode", "lexical", now=NOW))
    lines = set(_lines(out))
    assert {4, 7, 9} <= lines and not {8, 10} & lines, out  # Dec 4, Dec 4-6, Dec 1; not Dec 7 nor Porto (Nov 24-26)
    fortnight = json.loads(run_ok(root, "recall", "", "--until", "+2w", "--json", "--mode", "lexical", now=NOW))
    assert 8 in _lines(fortnight)
    soon = json.loads(run_ok(root, "recall", "", "--until", "+3d", "--json", "--mode", "lexical", now=NOW))
    assert _lines(soon) == [9], soon  # only Tom's flight (Tuesday, Dec 1)
    tomorrow = json.loads(run_ok(root, "recall", "", "--since", "tomorrow", "--until", "tomorrow", "--json",
                                 "--mode", "lexical", now=NOW))
    assert tomorrow["results"] == []  # Monday, Nov 30: nothing


def test_a_day_with_nothing_says_so_and_gives_the_nearest_days(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "en", "en")
    (answer,) = recall_batch(root, [{"query": "what's on Dec 10?", "k": 3}], now=NOW)
    assert answer["results"] and any("no entry is written on or names" in n for n in answer["notices"]), answer
    assert 8 in _lines(answer)  # the dentist on Dec 7, the nearest day that has an entry


def test_the_issues_questions_in_other_languages_find_that_days_entries_first(tmp_path: Path) -> None:
    """Issue 37's second list: the day's own entries first, not an unrelated line that shares a frame word
    ("a passé", "Ich habe", "un fin de semana"), and "上周末" is the weekend, not the whole week."""
    write_files(tmp_path, {
        "MEMORY.md": "# Core\n",
        "memory/2025-11-12.md": "# 2025-11-12\n\n## Notes\n- Ich habe einen neuen Laptop gekauft.\n"
                                "- Il a passé la journée à Paris.\n- Planeamos un fin de semana en el Harz.\n",
        "memory/2025-11-18.md": "# 2025-11-18\n\n## Notes\n- Wir haben das Fahrrad repariert.\n"
                                "- Nous avons réparé le vélo.\n- 我们修了自行车。\n",
        "memory/2025-11-19.md": "# 2025-11-19\n\n## Notes\n- 周三开了项目会。\n",
        "memory/2025-11-22.md": "# 2025-11-22\n\n## Notes\n- Fuimos al mercado de Navidad.\n- 周六去了跳蚤市场。\n",
        "memory/2025-11-24.md": "# 2025-11-24\n\n## Notes\n- Die Steuererklärung ist abgegeben.\n",
    })
    now = "2025-11-26T18:00"  # a Wednesday
    run_ok(tmp_path, "index", now=now)
    asked = {"11月18日发生了什么？": "2025-11-18", "Que s'est-il passé le 18 novembre ?": "2025-11-18",
             "Was habe ich am Montag gemacht?": "2025-11-24", "¿Qué hice el fin de semana pasado?": "2025-11-22"}
    answers = recall_batch(tmp_path, [{"query": q, "k": 3} for q in [*asked, "上周末发生了什么？"]], now=now)
    for (question, day), answer in zip(asked.items(), answers, strict=False):
        assert answer["results"] and answer["results"][0]["path"] == f"memory/{day}.md", (question, answer)
    weekend = answers[-1]["results"]
    assert weekend and {r["path"] for r in weekend} <= {"memory/2025-11-22.md"}, weekend  # not Wednesday's meeting
    # `[time] languages` adds German: "letzte Woche" still answers, with last week's entries.
    (tmp_path / "memory.toml").write_text('[time]\nlanguages = ["en", "de"]\n', encoding="utf-8")
    run_ok(tmp_path, "index", now=now)
    (week,) = recall_batch(tmp_path, [{"query": "Was haben wir letzte Woche gemacht?", "k": 3}], now=now)
    assert week["results"] and all(r["path"] in ("memory/2025-11-18.md", "memory/2025-11-19.md",
                                                   "memory/2025-11-22.md") for r in week["results"]), week


def test_the_mcp_tool_asks_for_the_coming_days(tmp_path: Path) -> None:
    """memory_search takes `until="+7d"` as `memory recall --until +7d` does (its parameters are recall/params.py's)."""
    import anyio
    from mcp import Client, StdioServerParameters

    from conftest import clean_env, memory_executable

    root = _workspace(tmp_path / "en", "en")
    expected = json.loads(run_ok(root, "recall", "", "--until", "+7d", "--json", "--mode", "lexical", now=NOW))
    server = StdioServerParameters(command=memory_executable(), env=clean_env({"MEMORY_EMBED_PROVIDER": "none"}),
                                   args=["--workspace", str(root), "--now", NOW, "mcp"])

    async def session() -> dict:
        async with Client(server) as client:
            result = await client.call_tool("memory_search", {"query": "", "until": "+7d", "mode": "lexical"})
            assert not result.is_error, result.content
            return result.structured_content

    found = anyio.run(session)
    assert found["results"] == expected["results"] and {4, 7, 9} <= set(_lines(found))
