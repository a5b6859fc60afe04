"""Lexical understanding of short claims: polarity, similarity and near-duplicates (pure, rapidfuzz).

A claim is reduced to a *canonical* token string and a *polarity* (+1 / -1):

- negation cues flip the polarity and are removed: not, n't, never, no, no longer, stopped,
  quit, gave up, ceased;
- antonym pairs map the negative word to its positive twin and flip the polarity:
  prefers/avoids, likes/dislikes, loves/hates, trusts/distrusts, supports/opposes,
  agrees/disagrees, wants/rejects, good/bad, better/worse, reliable/unreliable, stable/unstable;
- entity names, stopwords and punctuation are dropped; words are crudely stemmed
  ("prefers" -> "prefer", "replies" -> "reply").

So "Peter no longer likes tea" and "Peter dislikes tea" both read as (-1, "tea like") while
"Peter likes tea" reads as (+1, "tea like"): similar text, opposite polarity = a contradiction.
Adjective pairs such as short/long are deliberately *not* antonyms here: a single claim often
names both sides ("concise replies; long content goes into files").

`similarity` blends rapidfuzz's token-set and token-sort ratios of the canonical strings
(0..100). An optional embedding similarity (0..1 cosine) may be blended in by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

_NEGATION_PHRASES = ("no longer", "not anymore", "not any more", "gave up", "give up", "gives up")
_NEGATION_WORDS = {"not", "never", "no", "stopped", "quit", "quits", "ceased", "nt"}
_ANTONYMS = {
    "avoid": "prefer", "avoids": "prefers", "avoided": "preferred",
    "dislike": "like", "dislikes": "likes", "disliked": "liked",
    "hate": "love", "hates": "loves", "hated": "loved",
    "distrust": "trust", "distrusts": "trusts", "mistrusts": "trusts",
    "oppose": "support", "opposes": "supports", "opposed": "supported",
    "disagree": "agree", "disagrees": "agrees", "disagreed": "agreed",
    "reject": "want", "rejects": "wants", "rejected": "wanted",
    "bad": "good", "worse": "better", "worst": "best",
    "unreliable": "reliable", "unstable": "stable", "unhappy": "happy",
}
_STOPWORDS = frozenset(
    "a an the and or but of to in on at for with by from as is are was were be been being it its this that "
    "these those he she they them his her their him i we you my our your me us so than then there here "
    "very really just also still again anymore any more much many some such about into over after before "
    "has have had do does did will would can could should may might must".split()
)
_WORD_RE = re.compile(r"[^\W_]+(?:[.'][^\W_]+)*", re.UNICODE)


@dataclass(frozen=True)
class Claim:
    """A claim's canonical token string and polarity (+1 asserted, -1 negated)."""

    canon: str
    polarity: int
    negated: bool  # carries an explicit negation / change cue ("no longer", "stopped", "not")


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@lru_cache(maxsize=65536)
def analyze(text: str, names: tuple[str, ...] = ()) -> Claim:
    """Canonical form and polarity of `text`, ignoring the given entity names."""
    low = text.casefold().replace("’", "'")
    for name in sorted(names, key=len, reverse=True):
        if name:
            low = low.replace(name.casefold(), " ")
    flips = 0
    negated = False
    for phrase in _NEGATION_PHRASES:
        count = low.count(phrase)
        if count:
            flips += count
            negated = True
            low = low.replace(phrase, " ")
    low = low.replace("n't", " nt ").replace("cannot", "can nt")
    tokens: list[str] = []
    for word in _WORD_RE.findall(low):
        if word in _NEGATION_WORDS:
            flips += 1
            negated = True
            continue
        if word in _ANTONYMS:
            flips += 1
            word = _ANTONYMS[word]
        if word in _STOPWORDS:
            continue
        tokens.append(_stem(word))
    return Claim(" ".join(tokens), -1 if flips % 2 else 1, negated)


def similarity(a: Claim, b: Claim) -> float:
    """0..100: how much two claims talk about the same thing, whatever their polarity."""
    if not a.canon or not b.canon:
        return 0.0
    return 0.6 * fuzz.token_set_ratio(a.canon, b.canon) + 0.4 * fuzz.token_sort_ratio(a.canon, b.canon)


def cluster(texts: list[str], threshold: float = 90.0) -> list[list[int]]:
    """Group indexes of near-duplicate texts; each group lists indexes in input order.

    Greedy and order-stable: a text joins the first earlier group whose first member it
    duplicates, so the same input always gives the same groups.
    """
    from rapidfuzz import process

    groups: list[list[int]] = []
    heads: list[Claim] = []
    canons: list[str] = []
    # A claim seen before joins the group it joined then: the groups ahead of that one are the
    # same ones it did not match, so the scan would end there again (repeated facts are common).
    joined: dict[Claim, list[int]] = {}
    for idx, text in enumerate(texts):
        claim = analyze(text)
        group = joined.get(claim)
        if group is None:
            # The heads at or above the threshold in order, scored in rapidfuzz's C loop; the first
            # of the same polarity is the one the scan took.
            first = next((i for _, _, i in process.extract_iter(claim.canon, canons, scorer=fuzz.token_sort_ratio,
                                                                 processor=None, score_cutoff=threshold)
                          if heads[i].polarity == claim.polarity), None)
            if first is None:
                group = []
                groups.append(group)
                heads.append(claim)
                canons.append(claim.canon)
            else:
                group = groups[first]
            joined[claim] = group
        group.append(idx)
    return groups
