"""Stance: does a new statement support an opinion, contradict it, or say something else? (pure)

Reflect asks this of an opinion and each new fact about the same entity; recall asks it of two
opinions to find a changed mind. No model is needed, and every answer says which signal decided:

1. **Topic.** Both statements must talk about the same thing: they share a topic word (a content
   word that is not evaluative, not a name of the entity, not a stopword: "Rust", "standups"),
   or, when either has no topic word, their claims are similar (textmatch, >= SIMILAR).
   Otherwise: *unrelated* ("Prefers tea" and "Prefers coffee" are two opinions, not one).
2. **Polarity of the evaluative words** toward the topic: each statement's sum of +1 / -1 words
   from the lexicon below (overhyped, bad, hate, avoid / good, great, love, prefer), each flipped
   by a negation in scope (not, never, no longer, stopped: up to NEGATION_SCOPE words later,
   within the clause). Opposite signs: *contradiction*, signal `polarity` (or `negation`, when a
   negation made the difference: "no longer likes tea" against "likes tea"). The same sign:
   *support*, signal `polarity`.
3. **A refinement** states both signs in one statement ("good for small services, but not for big
   ones"): it narrows the opinion, it does not reverse it: *support*, signal `refinement`.
4. **One side or neither states an evaluation**: with one, only an explicit negation on one side
   contradicts ("is flaky" against "is unreliable too", when "flaky" is in no lexicon, is support);
   with neither, textmatch's claim polarity (negation cues and antonyms) decides: different,
   *contradiction* (`negation`); the same, *support* (`similarity`).
   A negation flips the evaluations in the NEGATION_SCOPE words after it, within the clause; one
   that ends a clause with nothing after it flips the clause's last evaluation ("Mag die Kantine
   nicht mehr", "je ne l'aime plus").

A change cue in the new statement ("now", "anymore", "after all", "changed my mind", "jetzt",
"ahora", "maintenant", "agora") is reported with the signal: it says the writer meant a change.
The opinion's own confidence takes part in reflect (opinions.classify: a much weaker restatement
lowers confidence), and the model's similarity in matching (opinions.Engine.score).

Languages: the lexicon and the negations cover English, German, Spanish, French and Portuguese,
the default model's largest European languages; the other languages the model reads fall back
to rule 4. The lexicon is our own, short and explicit: no maintained multilingual polarity
lexicon on PyPI ships its data in the wheel (VADER and AFINN are English or Danish; TextBlob and
NLTK download theirs at run time), and a word list a person can read is what a signal a person
can check needs. Words are matched by their start ("overhyp" matches overhyped and overhyping).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..fuzzy import SAME_TOPIC
from ..values import Value
from .textmatch import analyze, similarity

SIMILAR = SAME_TOPIC  # textmatch.similarity at which two statements without topic words are about one thing
NEGATION_SCOPE = 4  # words after a negation that it flips ("not a good fit": good is flipped)

# Evaluative word stems, by language. A stem matches a word that starts with it.
_POSITIVE = """
good great excellent love loves loved like likes liked enjoy prefer favou favorite fantastic awesome amazing
brilliant best better solid reliable stable fast fit useful helpful worth recommend happy fan nice wonderful
perfect impressive elegant clean simple productive pleasant fun easy works well trust support agree right
correct smart safe powerful ideal superb keen glad
gut super toll prima hervorragend ausgezeichnet liebe mag mögen gefällt bevorzug empfehl zuverlässig
schnell nützlich sinnvoll genial praktisch einfach großartig klasse
bueno buena buen genial excelente encanta gusta prefier recomiend fiable rápid útil fantástic mejor maravill
bon bonne excellent génial adore aime préfèr recommand fiable rapide utile meilleur parfait formidable
bom boa ótim excelente adoro gosto gosta prefir recomend confiável rápid útil melhor perfeit maravilh
"""
_NEGATIVE = """
bad terrible awful horrible hate hates hated dislike avoid overhyp overrat overkill worse worst poor slow
buggy unreliable unstable useless pointless waste annoying painful clunky bloated messy broken fragile
disappoint frustrat mediocre meh boring hard difficult complicated confusing ugly wrong risky dangerous
expensive regret overpriced distrust oppose disagree reject kill hype nightmare mess
schlecht schrecklich furchtbar hasse hass meide vermeid überbewert nutzlos langsam kaputt mühsam
nervig teuer enttäusch umständlich kompliziert
malo mala mal terrible horrible odio odia evito evita sobrevalor inútil lent caro decepcion complicad
mauvais mauvaise terrible horrible déteste évite surcoté surestim inutile lent cher décevant compliqué nul
mau má ruim terrível horrível odeio odeia evito evita superestim inútil lent caro decepcion complicad
"""
# Negations: single words, and phrases (checked first). "no" and "nie" count; "ne ... pas" is "pas".
_NEGATION_WORDS = frozenset(w.casefold() for w in """
not never no nor cannot cant dont doesnt didnt isnt wasnt arent werent wont stopped quit ceased hardly
nicht nie niemals kein keine keinen keinem keiner
nunca jamás tampoco
pas jamais aucun aucune
não nunca jamais nem
""".split())
_NEGATION_PHRASES = ("no longer", "not anymore", "not any more", "gave up on", "gave up", "ya no", "já não")
_CHANGE_CUES = ("changed my mind", "changed his mind", "changed her mind", "after all", "anymore", "any more",
                "these days", "nowadays", "no longer", "now", "jetzt", "inzwischen", "mittlerweile",
                "nicht mehr", "ahora", "ya no", "maintenant", "désormais", "agora", "já não")
# Any change cue as a whole word: one search per statement, not one per cue.
_CUE_RE = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(c) for c in _CHANGE_CUES) + r")(?!\w)")
# A clause boundary ends a negation's scope: "not cheap, but good" flips cheap only.
_CLAUSE_WORDS = frozenset("but however although though yet while whereas aber jedoch pero sino mais cependant mas "
                          "porém".split())
_STOP = frozenset("""
a an the and or of to in on at for with by from as is are was were be been being it its this that these those he
she they them his her their him i we you my our your me us so than then there here very really just also still
again any more much many some such about into over after before has have had do does did will would can could
should may might must all most thinks think thought feels feel says said seems seem find finds found
der die das und oder ein eine ist sind war für mit von zu im in den dem des auf es er sie ich wir
el la los las un una y o de del en es son para con por que lo se
le la les un une et ou de du des en est sont pour avec par que qui il elle ce
o a os as um uma e ou de do da dos das em é são para com por que
""".split())
# A fact's subject label ("Peter: Prefers tea"): whom it is about, not what.
_SUBJECT_RE = re.compile(r"^\s*@?[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3}:\s+")
_ELISION_RE = re.compile(r"(?<!\w)([cdjlmnst]|qu)'(?=\w)")  # French and Italian elision
_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)


class Stance(Value):
    """What a new statement does to an opinion: `label` support | contradiction | unrelated, the
    `signal` that decided (topic, polarity, negation, refinement, similarity), the words it rests
    on (`detail`), and whether the new statement carries a change cue."""

    __slots__ = ("label", "signal", "detail", "change_cue")

    def __init__(self, label: str, signal: str, detail: str = "", change_cue: bool = False) -> None:
        self.label, self.signal, self.detail, self.change_cue = label, signal, detail, change_cue

    def describe(self) -> str:
        """"polarity: overhyped vs good", as bank/opinions.md's history shows it."""
        cue = ", change cue" if self.change_cue else ""
        return f"{self.signal}: {self.detail}{cue}" if self.detail else f"{self.signal}{cue}"


def _stems(block: str) -> tuple[str, ...]:
    # Casefolded as the text is: "großartig" reads "grossartig".
    return tuple(sorted({w.casefold() for w in block.split()}, key=len, reverse=True))


_POS, _NEG = _stems(_POSITIVE), _stems(_NEGATIVE)


@lru_cache(maxsize=8192)
def _valence(word: str) -> int:
    """+1, -1 or 0 for one lower-case word (the longest matching stem wins; an exact word first)."""
    best, sign = 0, 0
    for stems, value in ((_POS, 1), (_NEG, -1)):
        for stem in stems:
            if len(stem) > best and (word == stem or (len(stem) >= 4 and word.startswith(stem))):
                best, sign = len(stem), value
                break  # stems are longest first
    return sign


class Reading(Value):
    """One statement read for stance: its topic words, evaluative words with their signs after
    negation, whether a negation flipped one, and whether it holds a change cue."""

    __slots__ = ("topic", "signs", "words", "negated", "change_cue")

    def __init__(self, topic: frozenset[str], signs: tuple[int, ...], words: tuple[str, ...], negated: bool,
                 change_cue: bool) -> None:
        self.topic, self.signs, self.words, self.negated, self.change_cue = topic, signs, words, negated, change_cue

    @property
    def polarity(self) -> int:
        total = sum(self.signs)
        return (total > 0) - (total < 0)

    @property
    def mixed(self) -> bool:
        return 1 in self.signs and -1 in self.signs


@lru_cache(maxsize=8192)
def read(text: str, names: tuple[str, ...] = ()) -> Reading:
    """Read one statement (the entity's `names` are not topic words)."""
    low = " " + _SUBJECT_RE.sub("", text, count=1).casefold().replace("’", "'") + " "
    cue = _CUE_RE.search(low) is not None
    for phrase in _NEGATION_PHRASES:
        low = low.replace(f" {phrase} ", " not ")
    low = low.replace("n't", "nt")
    low = _ELISION_RE.sub(r"\1 ", low)  # "n'aime pas", "l'apartement": the word after the apostrophe
    name_words = {w for n in names for w in _WORD_RE.findall(n.casefold())}
    topic: set[str] = set()
    signs: list[int] = []
    words: list[str] = []
    negated = False
    scope = 0
    clause_start = 0  # index in `signs` of the clause's first evaluation
    dangling = False  # a negation whose scope held no evaluation yet
    for raw in re.findall(r"[^\W\d_][\w'-]*|[,;.:!?]", low):
        if raw in ",;.:!?" or raw in _CLAUSE_WORDS:
            negated |= _flip_back(signs, words, clause_start, dangling)
            scope, dangling, clause_start = 0, False, len(signs)
            continue
        word = raw.strip("'-")
        if word in _NEGATION_WORDS:
            scope, dangling = NEGATION_SCOPE, True
            continue
        value = _valence(word)
        if value:
            if scope:
                value, negated, dangling = -value, True, False
            signs.append(value)
            words.append(("not " if scope else "") + word)
        elif word not in _STOP and word not in name_words and len(word) > 2:
            topic.add(_stem(word))
        scope = max(0, scope - 1)
    negated |= _flip_back(signs, words, clause_start, dangling)
    return Reading(frozenset(topic), tuple(signs), tuple(words), negated, cue)


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
        if similarity(analyze(opinion, names), analyze(statement, names)) < SIMILAR:
            return Stance("unrelated", "similarity", "different claims")
    about = ", ".join(sorted(shared)[:3])
    cue = new.change_cue
    if new.mixed and not old.mixed:
        return Stance("support", "refinement", " / ".join(new.words[:4]), cue)
    if old.polarity and new.polarity:
        detail = f"{' '.join(old.words[:2])} vs {' '.join(new.words[:2])}"
        if old.polarity != new.polarity:
            signal = "negation" if old.negated != new.negated and _same_words(old, new) else "polarity"
            return Stance("contradiction", signal, detail, cue)
        return Stance("support", "polarity", detail, cue)
    if old.polarity or new.polarity:
        # One side evaluates, the other does not ("is flaky" against "is unreliable this week",
        # when "flaky" is in no lexicon): only an explicit negation tells them apart.
        if old.negated != new.negated:
            return Stance("contradiction", "negation", about, cue)
        return Stance("support", "similarity", about, cue)
    a, b = analyze(opinion, names), analyze(statement, names)
    if a.polarity != b.polarity:
        return Stance("contradiction", "negation", about, cue)
    return Stance("support", "similarity", about, cue)


def _same_words(old: Reading, new: Reading) -> bool:
    """The two evaluations use the same words, one of them negated ("likes" / "not likes")."""
    strip = {w.removeprefix("not ") for w in old.words}
    return bool(strip & {w.removeprefix("not ") for w in new.words})
