"""A second lexical round from the first: the best matches' own distinctive words (pseudo-relevance feedback).

An answer told on two days is often told in two wordings: "yoga helps me unwind" on Monday, "a
long run after work clears my head" on Thursday. The question ("what do they do to relax?") shares
a word with one of them at most. The best first-round matches, though, share words with the turns
about the same thing (RM3, Lavrenko and Croft 2001; Abdul-Jaleel et al. 2004): the words that are
frequent in the top results and rare in the collection describe what the question is about in the
notes' own vocabulary.

So: the words of the FEEDBACK_DOCS best matches, weighted by how much of the top they appear in
(each match counted by its score) times their IDF in the collection, never stop words, the
question's own words or the names of the people it names (a name is in every entry of theirs);
the FEEDBACK_TERMS heaviest search a pool of their own, and every candidate gains by the share of
their weight it holds (`score`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ..index.base import Store, Term
from . import lexical
from . import subject as entry_subject

ENABLED = 0  # 0: off (measured: docs/recall.md)
FEEDBACK_DOCS = 3  # the best matches whose words are read
FEEDBACK_TERMS = 6  # the heaviest of their words searched and scored
SHARE = 0.3  # how much the feedback adds: relevance += SHARE x feedback coverage x the best relevance
MIX = 0  # 0: added as above; 1: interpolated into the lexical channel (RM3: lexical' = (1-SHARE) lex + SHARE fb)
ENTITIES = 0  # 1: only the matches' names and entities (capitalised words, not first in a sentence)
POOL = 1  # 1: the feedback words find a pool of their own; 0: they only re-score the first round's
OTHER_DAYS = 0  # 1: only entries of other days than the best matches' gain
MIN_DF = 2
KL = 0  # 1: weight = p log(p / p_collection) (Carpineto et al.), 0: p x IDF
MIN_TOP = 1  # a word must be in this many of the best matches (2: words they share)  # a word in fewer entries than this finds nothing new (it is the match's own)
_WORD = r"[^\W\d_][\w'’-]*[^\W_]"


def _stem(word: str) -> str:
    """A rough stem, only to tell a question's word in another form ("relaxing", "relax")."""
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _words(text: str, names_only: bool) -> set[str]:
    """The lower-cased words of an entry's text after its "Name:" (with ENTITIES: only names)."""
    match = re.match(r"\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*)?[^:\n]{1,40}:(?:\*\*)?\s", text)
    if match and entry_subject.subject_of(text) is not None:
        text = text[match.end():]
    if not names_only:
        return {w.lower() for w in re.findall(_WORD, text)}
    out = set()
    tokens = re.findall(_WORD + r"|[.!?]", text)
    for i, token in enumerate(tokens):
        if token[0].isupper() and i > 0 and tokens[i - 1] not in {".", "!", "?"} and token != "I":
            out.add(token.lower())
    return out


def expansion(store: Store, best: Sequence[tuple[dict, float]], terms: Sequence[Term],
              names: set[str]) -> list[tuple[Term, float]]:
    """The feedback terms and their weights from the best matches (`best`: rows with their scores)."""
    total = sum(score for _, score in best)
    if total <= 0:
        return []
    asked = {_stem(w) for t in terms for w in t.words} | {_stem(n) for n in names}
    share: dict[str, float] = {}
    docs: dict[str, int] = {}
    for row, score in best:
        subject = entry_subject.subject_of(row["text"])
        skip = asked | ({_stem(w) for w in subject.split()} if subject else set())
        entity_words = {w.lower() for n in row.get("entity_names") or () for w in n.split()} if ENTITIES else set()
        for word in _words(row["text"], bool(ENTITIES)) | entity_words:
            if len(word) < 3 or word in lexical._STOPWORDS or _stem(word) in skip or "'" in word or "’" in word:
                continue
            share[word] = share.get(word, 0.0) + score / total
            docs[word] = docs.get(word, 0) + 1
    share = {w: v for w, v in share.items() if docs[w] >= MIN_TOP}
    if not share:
        return []
    found = [Term(w) for w in share]
    dfs = store.document_frequencies(found)
    n = store.entry_count()
    weighted = []
    for term in found:
        df = dfs[term.label]
        if df < MIN_DF:
            continue
        p = share[term.label]
        if KL:  # the word's contribution to the divergence of the top from the collection
            weight = p * math.log(p / (df / n)) if p > df / n else 0.0
        else:
            weight = p * math.log(1 + (n - df + 0.5) / (df + 0.5))
        if weight > 0:
            weighted.append((term, weight))
    weighted.sort(key=lambda tw: (-tw[1], tw[0].label))
    return weighted[:FEEDBACK_TERMS]


def score(store: Store, weighted: Sequence[tuple[Term, float]], ids: Sequence[int]) -> dict[int, float]:
    """Each entry's share (0..1) of the feedback terms' weight that it holds (its previous entry counts
    as in recall.lexical)."""
    if not weighted or not ids:
        return {}
    matches = store.term_matches([t for t, _ in weighted], ids, lexical.CONTEXT_SHARE)
    total = sum(w for _, w in weighted)
    out = dict.fromkeys(ids, 0.0)
    for term, weight in weighted:
        for cid, part in matches[term.label].items():
            out[cid] += weight * part / total
    return out
