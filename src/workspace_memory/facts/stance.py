"""Stance: does a new statement support an opinion, contradict it, or is it unclear? (pure)

Reflect asks this of an opinion and each new fact about the same entity; recall asks it of two
opinions to find a changed mind. No model is needed, and every answer says which signal decided.
Similarity alone is never agreement: support needs the same stance shown by a signal.

1. **Topic.** Both statements must talk about the same thing: they share a topic word (a content
   word that is not evaluative, not a name of the entity, not a small word: "Rust", "standups";
   in Chinese, a pair of characters), or, when either has no topic word, their claims are similar
   (textmatch, >= SIMILAR). Otherwise: *unrelated* ("Prefers tea" and "Prefers coffee").
2. **Signs.** Each statement's evaluative words get +1 / -1: the lexicon (POSITIVE, NEGATIVE), and
   two rules for any word without an entry: a word qualified by a degree *past what is wanted*
   ("too optimistic", "zu optimistisch", "demasiado optimistas", "trop optimistes", "太乐观") is
   negative; one qualified by a degree *that suffices* ("fast enough", "schnell genug", "够快") is
   positive. A negation in scope flips a sign (not, never, no longer: up to NEGATION_SCOPE words
   later, within the clause; one that ends a clause flips the clause's last evaluation).
3. **Predicate.** What a statement says of its topic: the first content word after a verb of
   being ("is", "ist", "es", "est", "很", "显得"; degree words and articles skipped), or a word a
   degree qualifies. "His estimates are realistic" has the predicate "realistic", unsigned.
4. **The decision**, in this order:
   - the new statement states both signs (a *refinement*: "good for small services, but not for
     big ones"): *support*, signal `refinement`;
   - both signed: opposite signs *contradiction* (`polarity`, or `negation` when a negation made
     the difference), the same sign *support* (`polarity`);
   - the two share a predicate ("realistic" / "realistic again"): *support*, `restatement`;
   - one side signed: an explicit negation on one side only is a *contradiction* (`negation`); an
     unsigned predicate set against it ("realistic" against "too optimistic") is a
     *contradiction*, `contrast`: the signed side says which way the other one is wrong;
   - both unsigned with different predicates ("sloppy" / "thorough"): a *contradiction*
     (`contrast`) when the new statement says something changed (a change cue: "now", "after the",
     "nach dem", "después de", "以后"), otherwise *unclear*;
   - neither evaluates: textmatch's claim polarity (negation cues, antonyms) differs:
     *contradiction* (`negation`);
   - the new statement evaluates nothing (no sign, no predicate: "has a new espresso machine"):
     *unrelated*, signal `no stance`;
   - anything else: *unclear* (signal `similarity`): the newer opinion stands on its own and the
     two are linked as "may contradict" for a person to settle.

A change cue in the new statement ("now", "anymore", "after all", "jetzt", "ahora", "maintenant",
"现在") is reported with the signal. Per-language words live in `lang/stance/<code>.py` (POSITIVE,
NEGATIVE, NEGATION, NEGATION_PHRASES, CHANGE_CUES, CLAUSE, EXCESS, ENOUGH, AGAIN, COPULA, DEGREE,
STOP); every language with data is read at once, so a statement in any of them, or mixing them,
is understood; a language without data falls back to textmatch (rule 4's last steps). The
lexicon is our own, short and explicit: no maintained multilingual polarity lexicon on PyPI ships
its data in the wheel (VADER and AFINN are English or Danish; TextBlob and NLTK download theirs at
run time), and a word list a person can read is what a signal a person can check needs. Words are
matched by their start ("overhyp" matches overhyped and overhyping); Chinese words anywhere.
Two unsigned predicates are not signed by the embedding model: five rules on it were measured
(benchmarks/stance_orientation.py; docs/change.md, Rounds 3 and 5), the last a probe fitted on
VADER's English words, and each signs plain pairs of aspects ("short" / "polite") opposite about
as often as the contradictions it finds.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..fuzzy import SAME_TOPIC
from ..values import Value

SIMILAR = SAME_TOPIC  # textmatch.similarity at which two statements without topic words are about one thing
NEGATION_SCOPE = 4  # words after a negation that it flips ("not a good fit": good is flipped)
LABELS = ("support", "contradiction", "unclear", "unrelated")


def _cjk(text: str) -> bool:
    """Whether `text` holds a Han character. No pattern: a class of Han ranges costs `re` about 1.5 ms
    to compile at import (a cold recall that names someone imports this module), and these texts are
    words and short claims."""
    return not text.isascii() and any("\u3400" <= ch <= "\u9fff" for ch in text)


class _Words:
    """Every language's stance words (lang/stance), joined: read once, on first use."""

    def __init__(self) -> None:
        from .. import lang

        tables = [lang.table("stance", code) for code in lang.available("stance")]

        def union(name: str) -> frozenset[str]:
            out: set[str] = set()
            for table in tables:
                value = getattr(table, name, ())
                out.update(value.split() if isinstance(value, str) else value)
            return frozenset(w.casefold() for w in out)

        self.positive = tuple(sorted(union("POSITIVE"), key=len, reverse=True))
        self.negative = tuple(sorted(union("NEGATIVE"), key=len, reverse=True))
        self.positive_set, self.negative_set = frozenset(self.positive), frozenset(self.negative)
        # Each language's own stems: a statement's words are signed by the lexicon of its languages,
        # so a French "correctif" is not the English "correct" (facts.supersession.languages_of).
        self.by_language = {code: (frozenset(_split(getattr(t, "POSITIVE", ""))),
                                   frozenset(_split(getattr(t, "NEGATIVE", ""))))
                            for code, t in zip(lang.available("stance"), tables, strict=True)}
        self.cjk_positive = tuple(s for s in self.positive if _cjk(s))
        self.cjk_negative = tuple(s for s in self.negative if _cjk(s))
        self.negation = union("NEGATION")
        self.negation_phrases = tuple(sorted(union("NEGATION_PHRASES"), key=len, reverse=True))
        self.clause, self.excess, self.enough = union("CLAUSE"), union("EXCESS"), union("ENOUGH")
        self.again, self.copula, self.degree, self.stop = union("AGAIN"), union("COPULA"), union("DEGREE"), union("STOP")
        cues = sorted(union("CHANGE_CUES"), key=len, reverse=True)
        # Any change cue as a whole word (anywhere in a run of Han characters): one search per statement.
        han = "|".join(re.escape(c) for c in cues if _cjk(c))
        latin = "|".join(re.escape(c) for c in cues if not _cjk(c))
        self.cue_re = re.compile("|".join(p for p in (rf"(?<!\w)(?:{latin})(?!\w)" if latin else "", han) if p))
        lists = (self.negation, self.clause, self.excess, self.enough, self.again, self.copula, self.degree, self.stop,
                 self.positive, self.negative)
        # Chinese words of every list, longest first: a run of Han characters is cut at them.
        self.cjk_words = tuple(sorted({w for group in lists for w in group if _cjk(w)}, key=len, reverse=True))


def _split(block: str) -> list[str]:
    return [w.casefold() for w in block.split()]


@lru_cache(maxsize=1)
def _words() -> _Words:
    return _Words()


class Stance(Value):
    """What a new statement does to an opinion: `label` support | contradiction | unclear | unrelated,
    the `signal` that decided (topic, polarity, negation, refinement, restatement, contrast,
    similarity, no stance), the words it rests on (`detail`), and whether the new statement carries
    a change cue."""

    __slots__ = ("label", "signal", "detail", "change_cue")

    def __init__(self, label: str, signal: str, detail: str = "", change_cue: bool = False) -> None:
        self.label, self.signal, self.detail, self.change_cue = label, signal, detail, change_cue

    def describe(self) -> str:
        """"polarity: overhyped vs good", as bank/opinions.md's history shows it."""
        cue = ", change cue" if self.change_cue else ""
        return f"{self.signal}: {self.detail}{cue}" if self.detail else f"{self.signal}{cue}"


@lru_cache(maxsize=16384)
def _valence(word: str, codes: tuple[str, ...] = ()) -> int:
    """+1, -1 or 0 for one lower-case word: the longest stem it starts with (4 letters or more, or
    the whole word) decides, a positive one on a tie; a Chinese word holds its stem anywhere. With
    `codes`, only those languages' stems count."""
    words = _words()
    if codes:
        positive = frozenset().union(*(words.by_language.get(c, ((), ()))[0] for c in codes))
        negative = frozenset().union(*(words.by_language.get(c, ((), ()))[1] for c in codes))
    else:
        positive, negative = words.positive_set, words.negative_set
    if _cjk(word):
        found = [(len(s), value) for stems, value in ((words.cjk_positive, 1), (words.cjk_negative, -1))
                 for s in stems if s in word]
        return max(found, key=lambda f: (f[0], f[1]))[1] if found else 0
    for k in range(len(word), 0, -1):
        prefix = word[:k]
        if k < 4 and k != len(word):
            break  # a short stem counts only as the whole word
        if prefix in positive:
            return 1
        if prefix in negative:
            return -1
    return 0


class Reading(Value):
    """One statement read for stance: its topic words, evaluative words with their signs after
    negation, whether a negation flipped one, whether it holds a change cue, its predicates, and
    whether it says the same again ("again", "still", "wieder")."""

    __slots__ = ("topic", "signs", "words", "negated", "change_cue", "predicates", "again", "marked")

    def __init__(self, topic: frozenset[str], signs: tuple[int, ...], words: tuple[str, ...], negated: bool,
                 change_cue: bool, predicates: frozenset[str] = frozenset(), again: bool = False,
                 marked: bool = False) -> None:
        self.topic, self.signs, self.words, self.negated, self.change_cue = topic, signs, words, negated, change_cue
        # marked: a sign came from a degree ("too optimistic", "fast enough"), which measures the topic
        # against a standard: what the other statement says of it is that standard, not a second view.
        self.predicates, self.again, self.marked = predicates, again, marked

    @property
    def polarity(self) -> int:
        total = sum(self.signs)
        return (total > 0) - (total < 0)

    @property
    def mixed(self) -> bool:
        return 1 in self.signs and -1 in self.signs


# A fact's subject label ("Peter: Prefers tea"): whom it is about, not what.
_SUBJECT_RE = re.compile(r"^\s*@?[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3}:\s+")
_ELISION_RE = re.compile(r"(?<!\w)([cdjlmnst]|qu)'(?=\w)")  # French and Italian elision
_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_TOKEN_RE = re.compile(r"[^\W\d_][\w'-]*|[,;.:!?，。；：！？、]")
_PUNCT = frozenset(",;.:!?，。；：！？、")


@lru_cache(maxsize=1)
def _runs() -> re.Pattern[str]:
    """Runs of Han characters and runs of others; compiled on the first token that holds Han (_cjk)."""
    return re.compile("[\u3400-\u9fff]+|[^\u3400-\u9fff]+")


_ARTICLES = frozenset("a an the ein eine einen un una une le la el".split())


def _tokens(low: str) -> list[str]:
    """Words and punctuation; a run of Han characters is cut at the words of the lists, and what
    lies between them is one piece ("他的估算太乐观了": 他, 的, 估算, 太, 乐观, 了)."""
    out: list[str] = []
    cjk_words = _words().cjk_words
    for token in _TOKEN_RE.findall(low):
        for raw in _runs().findall(token) if _cjk(token) else (token,):  # "rust其实很适合": rust, 其实很适合
            if not _cjk(raw):
                if raw.strip("'-"):
                    out.append(raw.strip("'-"))
                continue
            out.extend(_han_words(raw, cjk_words))
    return out


def _han_words(raw: str, cjk_words: tuple[str, ...]) -> list[str]:
    """A run of Han characters cut at the words of the lists; what lies between is one piece."""
    out: list[str] = []
    i, piece = 0, ""
    while i < len(raw):
        found = next((w for w in cjk_words if raw.startswith(w, i)), None)
        if found is None:
            piece += raw[i]
            i += 1
            continue
        if piece:
            out.append(piece)
            piece = ""
        out.append(found)
        i += len(found)
    if piece:
        out.append(piece)
    return out


@lru_cache(maxsize=8192)
def read(text: str, names: tuple[str, ...] = ()) -> Reading:
    """Read one statement (the entity's `names` are not topic words); see the module docstring."""
    w = _words()
    low = " " + _SUBJECT_RE.sub("", text, count=1).casefold().replace("’", "'") + " "
    cue = w.cue_re.search(low) is not None
    for phrase in w.negation_phrases:
        low = low.replace(phrase, " 不 ") if _cjk(phrase) else low.replace(f" {phrase} ", " not ")
    low = low.replace("n't", "nt")
    low = _ELISION_RE.sub(r"\1 ", low)  # "n'aime pas", "l'apartement": the word after the apostrophe
    name_words = {x for n in names for x in _WORD_RE.findall(n.casefold())}
    from .supersession import languages_of  # the statement's languages, by their small words

    codes = languages_of(text)
    tokens = _tokens(low)
    topic: set[str] = set()
    signs: list[int] = []
    words: list[str] = []
    predicates: set[str] = set()
    negated = again = dangling = marked = False  # dangling: a negation whose scope held no evaluation yet
    scope = clause_start = 0  # clause_start: index in `signs` of the clause's first evaluation
    expect = 0  # the next content word is: a predicate (1), a negative one (-1), a positive one (2)
    last_content = ""

    def content(token: str) -> bool:
        return token not in _PUNCT and token not in w.stop and token not in name_words and (
            len(token) > 2 or _cjk(token))

    for index, word in enumerate(tokens):
        if word in _PUNCT or word in w.clause:
            negated |= _flip_back(signs, words, clause_start, dangling)
            scope, dangling, clause_start, expect, last_content = 0, False, len(signs), 0, ""
            continue
        if word in w.negation:
            scope, dangling = NEGATION_SCOPE, True
            continue
        if word in w.again:
            again = True
            if expect:
                continue  # "ist wieder realistisch": the predicate is still ahead
        if word in w.excess:
            expect = -1
            continue
        if word in w.enough:
            following = tokens[index + 1] if index + 1 < len(tokens) else "."
            if content(following) or _valence(following, codes):
                expect = 2  # "assez rapide", "够快", "suficientemente rápido"
            elif last_content:  # "fast enough", "schnell genug"
                _positive(last_content, signs, words, predicates)
                marked = True
            continue
        if word in w.copula or word in w.degree or (expect and word in _ARTICLES):
            expect = expect or 1
            continue
        value = _valence(word, codes)
        if expect in (-1, 2):
            marked = True
            value = value or (-1 if expect == -1 else 1)
        if value:
            if scope:
                value, negated, dangling = -value, True, False
            signs.append(value)
            words.append(("not " if scope else "") + word)
        if expect and (value or content(word)):
            predicates.add(_stem(word))
        if content(word):
            last_content = word
            if not value:
                topic.update(_topic_words(word))
        expect = 0
        scope = max(0, scope - 1)
    negated |= _flip_back(signs, words, clause_start, dangling)
    return Reading(frozenset(topic), tuple(signs), tuple(words), negated, cue, frozenset(predicates), again, marked)


def _topic_words(word: str) -> tuple[str, ...]:
    """A word's topic words: itself, stemmed; a Chinese piece's pairs of characters."""
    if _cjk(word):
        return tuple(word[i:i + 2] for i in range(len(word) - 1))
    return (_stem(word),)


def _positive(word: str, signs: list[int], words: list[str], predicates: set[str]) -> None:
    """"fast enough": the word before a degree that suffices is positive (a sign it had stays)."""
    predicates.add(_stem(word))
    if word not in words and ("not " + word) not in words:
        signs.append(1)
        words.append(word)


def _flip_back(signs: list[int], words: list[str], start: int, dangling: bool) -> bool:
    """A negation after the verb ("Mag die Kantine nicht", "je ne l'aime pas"): when a clause ends
    with a negation that flipped nothing ahead of it, it flips the clause's last evaluation."""
    if not dangling or len(signs) <= start:
        return False
    signs[-1] = -signs[-1]
    words[-1] = "not " + words[-1]
    return True


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s"):
        if len(word) > 4 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def stance(opinion: str, statement: str, names: tuple[str, ...] = ()) -> Stance:
    """The stance of `statement` (newer) toward `opinion`, by the rules of the module docstring."""
    old, new = read(opinion, names), read(statement, names)
    shared = old.topic & new.topic
    if not shared:
        if old.topic and new.topic:
            return Stance("unrelated", "topic", "no shared topic word")
        from .textmatch import analyze, similarity  # lazy: rapidfuzz, which a cold recall rarely needs

        if similarity(analyze(opinion, names), analyze(statement, names)) < SIMILAR:
            return Stance("unrelated", "similarity", "different claims")
    about = ", ".join(sorted(shared)[:3])
    cue = new.change_cue
    if new.mixed and not old.mixed:
        return Stance("support", "refinement", " / ".join(new.words[:4]), cue)
    restated = old.predicates & new.predicates
    if restated and old.negated == new.negated:
        return Stance("support", "restatement", ", ".join(sorted(restated)[:3]), cue)
    if old.polarity and new.polarity:
        detail = f"{' '.join(old.words[:2])} vs {' '.join(new.words[:2])}"
        if old.polarity != new.polarity:
            signal = "negation" if old.negated != new.negated and _same_words(old, new) else "polarity"
            return Stance("contradiction", signal, detail, cue)
        return Stance("support", "polarity", detail, cue)
    contrast = f"{_shown(old)} vs {_shown(new)}"
    if old.polarity or new.polarity:
        if old.negated != new.negated:
            return Stance("contradiction", "negation", about, cue)
        signed, unsigned = (old, new) if old.polarity else (new, old)
        if unsigned.predicates and (signed.marked or cue):
            return Stance("contradiction", "contrast", contrast, cue)
        if unsigned.predicates:
            return Stance("unclear", "contrast", contrast, cue)
    elif old.predicates and new.predicates:
        return Stance("contradiction" if cue else "unclear", "contrast", contrast, cue)
    elif _claim_polarity(opinion, names) != _claim_polarity(statement, names):
        return Stance("contradiction", "negation", about, cue)
    if not new.polarity and not new.predicates and not new.negated:
        return Stance("unrelated", "no stance", about, cue)
    return Stance("unclear", "similarity", about, cue)


def _claim_polarity(text: str, names: tuple[str, ...]) -> int:
    """textmatch's claim polarity (negation cues and antonyms), for two statements neither of which evaluates."""
    from .textmatch import analyze  # lazy: rapidfuzz, which a cold recall rarely needs

    return analyze(text, names).polarity


def _shown(reading: Reading) -> str:
    """The words an evaluation rests on, for `detail`: its signed words, else its predicates."""
    return " ".join(reading.words[:2]) or " ".join(sorted(reading.predicates)[:2])


def _same_words(old: Reading, new: Reading) -> bool:
    """The two evaluations use the same words, one of them negated ("likes" / "not likes")."""
    strip = {w.removeprefix("not ") for w in old.words}
    return bool(strip & {w.removeprefix("not ") for w in new.words})
