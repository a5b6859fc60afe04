"""Which language a question (or a line) is written in: from its script and its small words.

- **Script first.** Kana is Japanese; Han without kana is Chinese (Japanese when only Japanese is
  configured); Hangul Korean; Cyrillic Russian (Ukrainian when configured and Russian not); Arabic,
  Hebrew, Greek, Thai and Devanagari name their own language.
- **Latin script: small words.** Each language of MARKERS scores the number of distinct marker words
  the text holds (none of them an English word: "wer", "qué", "est-ce", "não", "che", "wij"); English
  scores its stop words (lang/words/en.py), less those a language shares with English (SHARED: Dutch
  "me", "over", "is") when that language is the rival. The highest score wins; a language the workspace does not
  name in `[time] languages` needs two marker words, so a stray "Los" or "Del" never turns an English
  question Spanish. On a tie a marker language wins over English (English stop words are often German
  or Dutch words too: "was", "am"), then the configured languages' order decides.
- **No sign at all** ("Naschmarkt", "billing.retry_limit"): the only configured language when there is
  one, else None, and each rule that reads words is then neutral (lang: never the English rule).

Why not a library: the identifiers that ship their data in the wheel (py3langid, langdetect, lingua)
load a model (numpy, or 10-100 MB of profiles) on the first call, which a cold `memory recall` cannot
afford (docs/architecture.md, the cold path), and on a question of three words they guess: a question
is short, and its small words are the surest sign. MARKERS is identification data for all languages at
once, kept here so that telling languages apart never imports another language's word module: an
English question loads lang/words/en.py only.
"""

from __future__ import annotations

import re

# Small words that only (or mostly) a question or a note in that language holds; never an English word,
# nor a common name or abbreviation of English notes ("Mia", "Dan", "CI").
MARKERS = {
    "de": "wie wann wer ist sind waren haben wir ich der das dem und nicht mit über für letzte letzten gestern "
          "vorgestern woche tagen gemacht passiert passierte denkt hält findet bevorzugt welche welcher welchen "
          "wohnt arbeitet eine einen einem bei zu auch noch schon erzähl mir wo woher wohin warum wieso vom bis seit "
          "nach zum zur macht mein meine ihr ihre sein seine montags dienstags mittwochs donnerstags freitags "
          "samstags sonntags",
    "es": "qué que cómo cuándo dónde quién quiénes cuál cuánto fue hicimos hice hace pasó semana pasada pasado ayer "
          "los las del por para piensa opina prefiere está es el una con háblame le parece de la",
    "fr": "quoi qu'est est sont était fait avons nous les des du dans avec pour hier dernière dernier semaine il "
          "y le la au une pense préfère qui quel quelle quels quelles c'est est-ce qu'est-ce s'est parle-moi moi où "
          "était mon ma mes chez que de maintenant actuellement habite travaille",
    "pt": "que quê como quando onde quem é são foi fizemos fiz aconteceu há semana passada passado ontem os dos das "
          "com para não da fala acha prefere vai de está por em uma ao às pelo pela seu sua ele ela eu você também "
          "muito qual quais",
    "it": "che cosa quando dove chi è sono fatto abbiamo successo settimana scorsa scorso ieri il gli della con per "
          "pensa preferisce di del dei degli delle dello nel nella nei nelle alla alle allo dal dalla dai sul sulla "
          "questo questa questi quale quali quanto quanta adesso ora anche ancora più molto sempre perché dopo entro "
          "fino presso suo suoi noi voi mio ho hai abbiamo hanno sta sto stanno parlami dimmi raccontami nuovo nuova "
          "cambiato",
    "nl": "wat hoe wanneer waar wie zijn hebben wij het een van met vorige gisteren geleden gebeurde denkt vindt "
          "mijn naar bij ik heb heeft deze dit de voor niet ook nog maar dat ze hij zij haar hun wel geen weer veel "
          "meer tot uit door vanaf welke welk vertel zeg gaat gaan komt komen staat wordt worden werd moet zo als "
          "nu om te op jij jou je",
}
# English stop words that are also that language's own small words ("Vertel me over Fernwerk", "Is Peter
# in Wenen?"): against that language they are no sign of English.
SHARED = {"nl": "had in is me of over was we", "it": "a all i in me no", "de": "also am an in so was will"}
_MARKER_SETS: dict[str, frozenset[str]] = {}
SCRIPTS = (  # (first, last code point, languages)
    ("\u3040", "\u30ff", ("ja",)), ("\u4e00", "\u9fff", ("zh", "ja")), ("\uac00", "\ud7af", ("ko",)),
    ("\u0400", "\u04ff", ("ru", "uk")), ("\u0600", "\u06ff", ("ar",)), ("\u0590", "\u05ff", ("he",)),
    ("\u0370", "\u03ff", ("el",)), ("\u0e00", "\u0e7f", ("th",)), ("\u0900", "\u097f", ("hi",)),
)
LINE_CHARS = 400  # a line's first characters say its language; a long entry is not read whole
_WORD = r"[^\W\d_]+(?:'[^\W\d_]+)*(?:-[^\W\d_]+)*"


def marker_sets() -> dict[str, frozenset[str]]:
    """MARKERS as sets, built on first use."""
    if not _MARKER_SETS:
        _MARKER_SETS.update({code: frozenset(words.split()) for code, words in MARKERS.items()})
    return _MARKER_SETS


_ENGLISH: list[frozenset[str]] = []


def _english_stopwords() -> frozenset[str]:
    """lang/words/en.py's STOPWORDS, looked up once (a line's language is read for every entry indexed)."""
    if not _ENGLISH:
        from . import table

        english = table("words", "en")
        _ENGLISH.append(english.STOPWORDS if english is not None else frozenset())
    return _ENGLISH[0]


_SHARED_SETS: dict[str, frozenset[str]] = {}


def _shared(code: str) -> frozenset[str]:
    """SHARED[code] as a set, built on first use (a line's language is read for every entry indexed)."""
    if code not in _SHARED_SETS:
        _SHARED_SETS[code] = frozenset(SHARED.get(code, "").split())
    return _SHARED_SETS[code]


def words_of(text: str) -> set[str]:
    """The text's words, folded to lower case ("qu'est-ce", "parle-moi" stay one word, and so do their parts)."""
    found = set(re.findall(_WORD, text.casefold().replace("’", "'")))
    for word in list(found):
        if "'" in word or "-" in word:
            found.update(re.split(r"['-]", word))
    return found


def scripts_of(text: str) -> list[str]:
    """The languages the text's scripts name, in SCRIPTS order (["ja", "zh"] for kana and Han)."""
    found: list[str] = []
    if text.isascii():
        return found
    rare = {ch for ch in text if ch >= "\u0370"}  # Latin letters with accents ("é", "ß") name no script here
    if not rare:
        return found
    for first, last, langs in SCRIPTS:
        if any(first <= ch <= last for ch in rare):
            found += [lang for lang in langs if lang not in found]
    return found


def question_language(text: str, configured: tuple[str, ...] = ("en",)) -> str | None:
    """The one language `text` is written in (module docstring), or None when nothing says."""
    by_script = scripts_of(text)
    if by_script:
        if "ja" in by_script and not any("\u3040" <= ch <= "\u30ff" for ch in text):  # Han only
            return "ja" if "ja" in configured and "zh" not in configured else "zh"
        if by_script[0] == "ru" and "uk" in configured and "ru" not in configured:
            return "uk"
        return by_script[0]
    scores = _latin_scores(words_of(text), configured)
    if not scores:
        return configured[0] if len(configured) == 1 else None
    # On a tie a marker language wins: markers are never English words, while English stop words are
    # often German or Dutch ones too ("Was ist am 21. November passiert?": was, am / ist, passiert).
    order = {code: i for i, code in enumerate(configured)}
    return min(scores, key=lambda code: (-scores[code], code == "en", order.get(code, len(order)), code))


def _latin_scores(words: set[str], configured: tuple[str, ...]) -> dict[str, int]:
    """Each language's score for a text in Latin script: its marker words (two for a language not
    configured), and English's stop words, unless a marker language holds as many of its markers."""
    scores: dict[str, int] = {}
    for code, markers in marker_sets().items():
        hits = len(words & markers)
        if hits >= (1 if code in configured else 2):
            scores[code] = hits
    if words:
        own = words & _english_stopwords()
        # A language that holds as many of its markers as English holds stop words not shared with it wins.
        if own and not any(hits >= len(own - _shared(code)) for code, hits in scores.items()):
            scores["en"] = len(own)
    return scores


# Every language of MARKERS, and English: a line is read as if each were configured (line_language).
_EVERY = (*MARKERS, "en")


def line_language(text: str) -> str | None:
    """The language of a note's line (its first LINE_CHARS characters), for measuring the languages a
    workspace is written in (index.languages): its script, else its small words with every language
    counted as configured (one marker suffices: "Zieht am 1. November nach Dresden" is German); None
    when nothing says, or when two marker languages tie ("de la": Spanish or French), so that what
    two languages share is counted for neither. On LoCoMo's ten English conversations (6,000 turns)
    no turn is read as another language (docs/recall.md, "The workspace's languages")."""
    text = text[:LINE_CHARS]
    by_script = scripts_of(text)
    if by_script:
        return question_language(text, ())
    scores = _latin_scores(words_of(text), _EVERY)
    if not scores:
        return None
    best = max(scores.values())
    top = [code for code, score in scores.items() if score == best]
    if len(top) == 1:
        return top[0]
    markers = [code for code in top if code != "en"]
    return markers[0] if len(markers) == 1 else None  # a marker language beats English on a tie


# A language is one of the workspace's when at least this share of the entries whose language is told
# (line_language) are written in it. Fitted on LoCoMo's conversations 0-4, benchmarks/languages.py's
# notes in en, de, es, fr, pt and hnu's German workspace: the largest share of a language that is not
# the notes' is 0.086 (German lines of English loanwords read as English), the smallest of one that is
# 0.174 (German in a mostly English workspace); the cut lies between them. Reported on the rest
# (docs/recall.md, "The workspace's languages").
MIN_SHARE = 0.125


def workspace_languages(configured: tuple[str, ...], counts: dict[str, int]) -> tuple[str, ...]:
    """`configured` (`[time] languages`), then each language the workspace's notes are written in
    (`counts`: entries per language, the index's), most entries first: read a question with as if
    configured. An English workspace adds nothing, so an English question loads no other language."""
    told = sum(counts.values())
    measured = sorted((code for code, n in counts.items() if n >= MIN_SHARE * told and code not in configured),
                      key=lambda code: (-counts[code], code))
    return (*configured, *measured) if measured else configured


def languages_of(text: str, configured: tuple[str, ...], every_configured: bool = False) -> list[str]:
    """The languages other than English to read `text`'s time phrases in (dates.languages): those its scripts
    name, and each configured one whose marker words it holds (with `every_configured`, each configured
    one, markers or not; a configured language without markers, when the text has a letter outside ASCII)."""
    found = scripts_of(text)
    words = words_of(text)
    has_accent = any(ch.isalpha() and not ch.isascii() for ch in text)
    sets = marker_sets()
    for code in configured:
        if code == "en" or code in found:
            continue
        markers = sets.get(code)
        if every_configured or (markers is not None and words & markers) or (markers is None and has_accent):
            found.append(code)
    return found
