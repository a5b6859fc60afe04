"""Question understanding in every language the model reads (issue 40): per-language words, the
language of a question and of a line, stems and glued words in the lexical channel, @mentions in CJK."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import clean_env, notes_workspace, recall_json, register, run_ok
from workspace_memory import lang
from workspace_memory.facts.entities import _MENTION_RE
from workspace_memory.lang.identify import question_language
from workspace_memory.markdown.retain import find_entities
from workspace_memory.recall.lexical import _may_be_compound, asks_for_events, has_content, query_terms
from workspace_memory.recall.query import asks_about_now, holds_any
from workspace_memory.recall.subject import subject_of

CONFIGURED = ("en", "de", "es", "fr", "pt", "it", "nl", "zh", "ja")


def words(code: str):
    return lang.table("words", code)


@pytest.mark.parametrize(("text", "code"), [
    ("What does Peter prefer for short trips?", "en"),
    ("Was bevorzugt Peter für kurze Reisen?", "de"),
    ("Wer ist Priya?", "de"),
    ("Was ist am 21. November passiert?", "de"),  # was, am are English stop words too
    ("¿Qué prefiere Peter para viajes cortos?", "es"),
    ("Que préfère Peter pour les trajets courts ?", "fr"),
    ("Qui est Priya ?", "fr"),
    ("O que o Peter prefere para viagens curtas?", "pt"),
    ("Quem é a Priya?", "pt"),
    ("Che cosa pensa Peter dei treni?", "it"),
    ("Wat vindt Peter van treinen?", "nl"),
    ("Priya是谁？", "zh"),
    ("Priyaって誰？", "ja"),
    ("月曜日", "zh"),  # Han alone reads as Chinese when both are configured
    ("Wo war Tom vom 19. bis 23. November?", "de"),  # "war" is English too; wo, vom, bis are not
    ("Was macht Tom sonntags?", "de"),
    ("Où était Tom du 19 au 23 novembre ?", "fr"),
    ("Wanneer is mijn tandartsafspraak?", "nl"),
])
def test_a_question_s_language_comes_from_its_script_and_small_words(text: str, code: str) -> None:
    assert question_language(text, CONFIGURED) == code


def test_a_stray_foreign_word_does_not_make_an_english_question_foreign() -> None:
    assert question_language("When did we fly to Los Angeles with the team?", ("en",)) == "en"
    assert question_language("When did we fly to Los Angeles with the team?", CONFIGURED) == "en"


def test_no_sign_is_the_only_configured_language_or_none() -> None:
    assert question_language("Naschmarkt", ("en",)) == "en"
    assert question_language("Naschmarkt", ("en", "de")) is None
    assert question_language("billing.retry_limit", ("de", "fr")) is None


@pytest.mark.parametrize(("code", "question", "kept"), [
    ("de", "Was habe ich am Montag gemacht?", ["montag"]),
    ("fr", "Qui est Priya ?", ["priya"]),
    ("es", "¿Quién es Priya?", ["priya"]),
    ("pt", "Quem é a Priya?", ["priya"]),
    ("zh", "Priya是谁？", ["priya"]),
    ("ja", "Priyaって誰？", ["priya"]),
])
def test_frame_words_of_each_language_are_not_content(code: str, question: str, kept: list[str]) -> None:
    assert [t.label for t in query_terms(question, words(code))] == kept


def test_a_language_without_data_keeps_every_word_never_english_stop_words() -> None:
    assert [t.label for t in query_terms("the who", None)] == ["the", "who"]
    assert has_content(query_terms("the who", None), None)


@pytest.mark.parametrize(("code", "question"), [
    ("en", "What happened?"), ("de", "Was ist passiert?"), ("es", "¿Qué pasó?"), ("fr", "Que s'est-il passé ?"),
    ("pt", "O que aconteceu?"), ("zh", "发生了什么？"), ("ja", "何があった？"),
])
def test_a_question_for_events_without_naming_any(code: str, question: str) -> None:
    assert asks_for_events(query_terms(question, words(code)), words(code))
    assert not asks_for_events(query_terms(question + " Zahnarzt", words(code)), words(code))


@pytest.mark.parametrize(("code", "question"), [
    ("en", "What does Peter prefer?"), ("de", "Was bevorzugt Peter?"), ("de", "Was hält Priya von Großraumbüros?"),
    ("es", "¿Qué opina Tom de las revisiones?"), ("fr", "Que pense Tom des revues de code ?"),
    ("pt", "O que a Priya acha de escritórios abertos?"), ("zh", "Priya怎么看开放式办公室？"),
    ("ja", "Priyaはオープンオフィスをどう思っている？"),
])
def test_opinion_questions_in_each_language(code: str, question: str) -> None:
    assert holds_any(question, words(code).OPINION_WORDS)


@pytest.mark.parametrize(("code", "question", "now"), [
    ("en", "where does Peter live", True), ("en", "where did Peter live", False),
    ("de", "Wo wohnt Peter?", True), ("de", "Wo wohnte Peter früher?", False),
    ("es", "¿Dónde vive Peter ahora?", True), ("fr", "Où habite Peter maintenant ?", True),
    ("pt", "Onde o Peter mora agora?", True), ("zh", "Peter现在住在哪里？", True), ("zh", "Peter以前住在哪里？", False),
])
def test_questions_about_now_in_each_language(code: str, question: str, now: bool) -> None:
    assert asks_about_now(question, words(code)) is now


def test_a_language_without_data_never_asks_about_now() -> None:
    assert asks_about_now("where does Peter live", None) is False


@pytest.mark.parametrize(("text", "subject"), [
    ("- Entscheidung: Wir behalten Postgres für die Warteschlange.", None),
    ("- Montag: Kickoff für die Migration der Abrechnung; Tom leitet sie.", None),
    ("- Lunes: arranque de la migración de facturación; Tom la dirige.", None),
    ("- Décision: on garde Postgres pour la file d'attente des factures.", None),
    ("- Decision: we keep Postgres for the queue.", None),
    ("- Peter: Ich habe die Wohnung in München gefunden, mit Balkon.", "peter"),
    ("- Ana: I have two cats now, Miso and Tofu.", "ana"),
])
def test_labels_of_the_line_s_language_are_not_speakers(text: str, subject: str | None) -> None:
    assert subject_of(text, CONFIGURED) == subject


def test_a_line_in_a_language_without_labels_has_no_subject() -> None:
    # Arabic has no word table: the whose-turn rule stays out (factor 1.0), never the English labels.
    assert subject_of("- Ahmad: وجدت شقة في ميونخ.", CONFIGURED) is None
    # Russian has one: a label of its own is no speaker, a name is.
    assert subject_of("- Решение: оставляем Postgres для очереди счетов.", CONFIGURED) is None
    assert subject_of("- Пётр: я нашёл квартиру в Мюнхене.", CONFIGURED) == "пётр"


@pytest.mark.parametrize(("code", "question", "label", "stem"), [
    ("fr", "Qui remplace Lea ?", "remplace", "remplac"),
    ("de", "Welche Wohnungen hat Peter besichtigt?", "wohnungen", "wohnung"),
    ("es", "¿Quién reemplaza a Lea?", "reemplaza", "reemplaz"),
    ("pt", "Quem substitui a Lea?", "substitui", "substitu"),
    ("it", "Chi sostituisce Lea?", "sostituisce", "sostitu"),
    ("nl", "Wie gaat Lea vervangen?", "vervangen", "vervang"),
    # Snowball's "doming" goes through the index's Porter as "dome"*, which "domingos" (indexed
    # "domingo") does not start: the prefix is cut back to one Porter leaves as it is
    ("es", "¿Qué hace Tom los domingos?", "domingos", "domin"),
])
def test_words_of_a_stemmed_language_carry_their_stem(code: str, question: str, label: str, stem: str) -> None:
    term = next(t for t in query_terms(question, words(code)) if t.label == label)
    assert term.stem == stem


def test_english_words_carry_no_stem() -> None:
    assert all(t.stem is None for t in query_terms("Who replaces Lea during her leave?", words("en")))


@pytest.mark.parametrize("text", ["在@Fernwerk工作", "Priya在@Fernwerk工作。", "（@Fernwerk）", "@Fernwerk、@Tom"])
def test_a_mention_inside_cjk_text_or_beside_punctuation(text: str) -> None:
    assert "Fernwerk" in find_entities(text)
    assert "Fernwerk" in _MENTION_RE.findall(text)


@pytest.mark.parametrize("text", ["mail me at kim@fernwerk.de", "x@Fernwerk", "/@Fernwerk"])
def test_an_address_is_still_no_mention(text: str) -> None:
    assert find_entities(text) == ()


NOTES = {
    "fr": ("memory/2025-11-20.md", """\
        # 2025-11-20

        ## Notes
        - Tom remplaçait Lea pendant son congé parental.
        - Déjeuner avec Priya au bureau.
        - Peter a trouvé un appartement à Munich.
        """),
    "zh": ("memory/2025-11-21.md", """\
        # 2025-11-21

        ## 笔记
        - Peter在慕尼黑Schwabing区找到了一套两居室。
        - 上传服务报错误码E4012。
        - 和Priya吃午饭。
        - 检查了配置项billing.retry_limit；生产环境里设为5。
        """),
    "es": ("memory/2025-11-16.md", """\
        # 2025-11-16

        ## Notas
        - Tom cenó con Priya en el centro.
        - Tom va a nadar todos los domingos por la mañana.
        - Tom compró un libro sobre Oslo.
        """),
    "de": ("memory/2025-11-19.md", """\
        # 2025-11-19

        ## Notizen
        - Die Zahnarztpraxis hat meinen Termin auf Dienstag verschoben.
        - Tom hat die Testsuite aufgeteilt; die Pipeline braucht jetzt zwölf Minuten.
        - Mittagessen mit Priya in der Kantine.
        - Für Mara ein Geschenk zum Geburtstag gekauft.
        """),
    "nl": ("memory/2025-11-18.md", """\
        # 2025-11-18

        ## Notities
        - Afspraak bij de tandarts verzet naar donderdag.
        - Fietsen met Peter langs de Amstel.
        """),
    "ja": ("memory/2025-11-17.md", """\
        # 2025-11-17

        ## メモ
        - 設定キーqueue.max_depthを確認した。本番では5になっている。
        """),
}


@pytest.fixture
def lang_ws(store: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    return notes_workspace(register(tmp_path / "ws", request), dict(NOTES.values()),
                           ("en", "fr", "zh", "de", "nl", "ja", "es"))


@pytest.mark.parametrize(("question", "needle"), [
    ("Qui remplace Lea ?", "Tom remplaçait Lea"),  # remplace ~ remplaçait: the stem, on both stores
    ("Schwabing", "Schwabing区"),  # a word glued to Chinese text
    ("e4012", "E4012"),
    # an identifier of several words glued to Chinese or Japanese text, on both stores
    ("billing.retry_limit", "billing.retry_limit"),
    ("queue.max_depth", "queue.max_depth"),
    # a German or Dutch compound no note holds whole, searched as the parts the notes hold
    ("Wann ist mein Zahnarzttermin?", "Zahnarztpraxis hat meinen Termin"),
    ("Wer hat die Test-Pipeline schneller gemacht?", "Testsuite aufgeteilt"),
    ("Wanneer is mijn tandartsafspraak?", "tandarts verzet"),
    ("Welche Geburtstagsgeschenke habe ich gekauft?", "Geschenk zum Geburtstag"),  # cut on its stem
    ("¿Qué hace Tom los domingos?", "todos los domingos"),  # the stem's prefix as the index's Porter reads it
])
def test_the_lexical_channel_in_the_user_s_language(lang_ws: Path, question: str, needle: str) -> None:
    hits = recall_json(lang_ws, question, "--mode", "lexical", now="2025-11-22")["results"]
    assert hits and needle in hits[0]["content"], [h["content"] for h in hits]


def test_an_english_question_never_loads_another_language_s_data(tmp_path: Path) -> None:
    """A workspace configured for German and French too: an English question over English notes loads
    lang/words/en.py only, and no stemmer."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2025-11-20.md").write_text(
        "# 2025-11-20\n\n- Monday: kickoff with Tom.\n- Peter prefers trains over planes.\n", encoding="utf-8")
    (root / "memory.toml").write_text('[time]\nlanguages = ["en", "de", "fr"]\n', encoding="utf-8")
    run_ok(root, "index")
    script = textwrap.dedent(f"""
        import json, sys
        from workspace_memory.api import Memory
        from workspace_memory.recall.query import RecallRequest
        mem = Memory.open({str(root)!r}, now="2025-11-21")
        mem.recall(RecallRequest("What does Peter prefer for trips?", mode="lexical"))
        mem.recall(RecallRequest("Who started the kickoff on Monday?", mode="lexical"))
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("workspace_memory.lang.") or m == "Stemmer")))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=clean_env(), check=True)
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert "workspace_memory.lang.words.en" in loaded
    assert not [m for m in loaded if m.startswith("workspace_memory.lang.words.") and not m.endswith(".en")]
    assert "Stemmer" not in loaded


def test_a_compound_is_split_only_where_no_entry_holds_it_whole(lang_ws: Path) -> None:
    """"Zahnarztpraxis" is in the notes: searched whole, it finds its line; a German word no note holds
    and no two known parts make ("Fahrradschloss") stays as it is (no results, not every Termin)."""
    hits = recall_json(lang_ws, "Zahnarztpraxis", "--mode", "lexical", now="2025-11-22")["results"]
    assert hits and "Zahnarztpraxis" in hits[0]["content"]
    assert recall_json(lang_ws, "Wo ist mein Fahrradschloss?", "--mode", "lexical", now="2025-11-22")["results"] == []


def test_an_identifier_keeps_its_form_for_glued_search() -> None:
    terms = query_terms("billing.retry_limit")
    assert [(t.label, t.glue, t.glued_text) for t in terms] == [
        ("billing retry_limit", "billing.retry_limit", "billing.retry_limit")]
    assert query_terms("Zahnarzt Termin")[0].glue is None  # words typed apart are no identifier


def test_only_long_words_and_hyphenated_ones_may_be_compounds() -> None:
    terms = query_terms("Welche Geburtstagsgeschenke, config.yaml und Test-Pipeline?", words("de"))
    assert [t.label for t in terms if _may_be_compound(t)] == ["geburtstagsgeschenke", "test pipeline"]
