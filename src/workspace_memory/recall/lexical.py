"""The lexical channel: query terms and a query-stable term-coverage score.

BM25 values are not comparable between queries, so they only *order* candidates (the
store's `lexical_pool`). The score we report is IDF-weighted term coverage: the share of
the query's information (sum of IDF of its terms) that a chunk contains, in 0..1, nudged
by BM25 within the candidate pool:

    coverage(c) = sum(idf(t) for t in terms matched by c) / sum(idf(t) for t in terms)
    lexical(c)  = coverage(c) * (1 - BM25_SHARE + BM25_SHARE * bm25(c) / max bm25 in the pool)

with idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)). Identifiers such as `a828e60` or
`memorySearch.query.hybrid` are rare, carry a high IDF and become phrases, so an exact
hit ranks first. Which terms a chunk contains is the store's to say (with its tokenizer);
the formula is the same on every store, so thresholds carry over.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from ..index.base import Store, Term

BM25_SHARE = 0.15
# A word found only in the previous entry of the section counts this much towards coverage:
# "Yesterday I took the kids there" answers a question about the museum named the line before.
# (Measured on LoCoMo: see docs/benchmarks.md, "What moved it".)
CONTEXT_SHARE = 0.7

# The stop and event words are the question's language's (lang/words/<code>.py); a question whose
# language has none keeps every word (neutral, never the English list).
_NONE: frozenset[str] = frozenset()
# "Maria's" and "the Smiths'" are searched as "Maria" and "the Smiths", not as the phrase "maria s".
_POSSESSIVE = r"(?<=\w)['’]s\b|(?<=\ws)['’](?!\w)"
# Words joined by punctuation, no space ("billing.retry_limit", "v2/api-keys"), quotes or a
# bracket around them.
_IDENTIFIER = r"[^\w\s]*(\w+(?:[.\-/:@#]+\w+)+)[^\w\s]*"
# A CJK run longer than this is a phrase or a sentence: it is searched as its pieces (cjk_pieces).
WHOLE_RUN = 3
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_patterns: dict[str, re.Pattern[str]] = {}


def _pattern(name: str) -> re.Pattern[str]:
    """The module's patterns, compiled on first use: a cold recall of a plain ASCII query needs only some."""
    if name not in _patterns:
        _patterns[name] = re.compile({"cjk_run": f"[{_CJK}]+", "word": r"\w+", "possessive": _POSSESSIVE,
                                     "identifier": _IDENTIFIER}[name])
    return _patterns[name]


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module.
class LexicalHit:
    """A candidate's lexical channel: its score (0..1, see the module docstring), BM25 (positive:
    larger is better), term coverage and the terms it matched."""

    __slots__ = ("chunk_id", "score", "bm25", "coverage", "matched")

    def __init__(self, chunk_id: int, score: float, bm25: float, coverage: float,
                 matched: list[str] | None = None) -> None:
        self.chunk_id, self.score, self.bm25, self.coverage = chunk_id, score, bm25, coverage
        self.matched: list[str] = [] if matched is None else matched


def stopwords(words) -> frozenset[str]:  # words: a lang/words module or None
    """The stop words of a language's word table (none when it has none)."""
    return getattr(words, "STOPWORDS", _NONE)


def query_terms(text: str, table=None, only_stopwords: bool = True) -> list[Term]:
    """Turn free text into terms; stopwords (of `table`, the question's language's lang/words table)
    go unless nothing else is left (then they are the terms, or with `only_stopwords` False none:
    another channel carries the question, as a time phrase does); possessives are stripped."""
    terms: list[Term] = []
    seen: set[str] = set()
    if "'" in text or "’" in text:
        text = _pattern("possessive").sub("", text)
    latin = text.isascii() or max(text) < "\u3040"  # no CJK run to look for (the common case)
    for raw in text.split():
        plain = raw
        if not latin:
            for run in _pattern("cjk_run").findall(raw):
                for piece in cjk_pieces(run, getattr(table, "GRAMMAR", _NONE), getattr(table, "ENDINGS", None),
                                        stopwords(table)):
                    if piece not in seen:
                        seen.add(piece)
                        terms.append(Term(piece, cjk=True))
            plain = _pattern("cjk_run").sub(" ", raw)
        words = [w.lower() for w in _pattern("word").findall(plain)]
        if not words:
            continue
        label = " ".join(words)
        if label in seen:
            continue
        seen.add(label)
        # "memorySearch.query.hybrid" -> the phrase "memorysearch query hybrid", kept as typed too
        # for where it stands glued to CJK text (Term.glue: "配置项billing.retry_limit；")
        glue = _pattern("identifier").fullmatch(plain.strip().lower()) if len(words) > 1 else None
        terms.append(Term(label, glue=glue.group(1) if glue and glue.group(1).isascii() else None))
    stop = stopwords(table)
    content = [t for t in terms if t.label not in stop] or (terms if only_stopwords else [])
    algorithm = getattr(table, "STEMMER", None)
    suffixes = getattr(table, "NOUN_SUFFIXES", ())
    return [with_stem(t, algorithm, suffixes) for t in content] if algorithm else content


# A verb's root left when a noun's suffix is cut (NOUN_SUFFIXES) has at least this many letters: "mud"
# ("mudanza": "se muda"), "nac" ("nacimiento": "nació"); a shorter one would be the start of too many words.
MIN_ROOT = 3


def with_stem(term: Term, algorithm: str, suffixes: tuple[str, ...] = ()) -> Term:
    """The term with its stem (index.base.Term.stem), when it is one word of four letters or more whose
    Snowball stem (`algorithm`, PyStemmer) is a shorter start of it, diacritics folded as the index
    folds them ("remplace" -> "remplac", "Wohnungen" -> "wohnung"); else the term as it is. Without
    PyStemmer installed, no stems (the words are searched as they are).

    A stem that ends in one of the language's `suffixes` (NOUN_SUFFIXES: what makes a noun of a verb)
    is cut to the verb's root, so that the noun finds the verb's forms too: Spanish "mudanza" (stem
    "mudanz") is searched as "mud*", which "se muda" and "mudarse" start, as does "mudanza" itself;
    Snowball keeps such suffixes (it stems forms of one word, not words made of another)."""
    word = term.label
    if term.cjk or len(word) < 4 or not word.isalpha():
        return term
    stemmer = _stemmer(algorithm)
    if stemmer is None:
        return term
    stem, folded = _fold(stemmer.stemWord(word)), _fold(word)
    for suffix in suffixes:
        if stem.endswith(suffix) and len(stem) - len(suffix) >= MIN_ROOT:
            stem = stem[: -len(suffix)]
            break
    if len(stem) < 3 or stem == folded or not folded.startswith(stem):
        return term  # "Straße" -> "strass" is no start of "straße": the word itself
    # The index puts a prefix through its Porter as it does its words: "doming"* is searched as
    # "dome"*, which no "domingos" (indexed "domingo") starts. So the prefix is cut back to a start
    # Porter leaves as it is ("domin"*), which every Porter form of the word still begins with.
    porter = _stemmer("porter")
    while porter is not None and len(stem) > 3 and porter.stemWord(stem) != stem:
        stem = stem[:-1]
    if porter is not None and porter.stemWord(stem) != stem:
        return term
    return Term(word, stem=stem)


# A compound of a language that writes them as one word (German, Dutch: `COMPOUNDS` in its table) is
# split when no entry holds it whole; each part has at least this many letters.
COMPOUND_PART = 4
# Letters that join the parts of a compound ("Geburtstag|s|geschenk", "Wochen|ende"), left off the head.
_LINKS = ("s", "es", "n", "en")


def split_compounds(store: Store, terms: list[Term], table=None) -> list[Term]:
    """`terms` with each compound no entry holds split into parts the index knows.

    German and Dutch write a compound as one word (or with a hyphen): a note says "Zahnarzt" and
    "Termin", the question "Zahnarzttermin"; a note says "Testsuite" and "Pipeline", the question
    "Test-Pipeline". In a language whose table sets `COMPOUNDS`, a term that no entry holds, of one
    long word or of words joined by a hyphen, is searched as its parts: every part but the last as a
    prefix (the first part of other compounds: "zahnarzt*" finds "Zahnarztpraxis"), the last as a
    word (with its stem). A one-word compound is cut where the last part is a word some entry holds
    and the rest (less a joining "s", "en" ...) starts one; the longest such last part wins. The
    index's own words are the dictionary: no word list, nothing for a term that is found whole.
    """
    if not getattr(table, "COMPOUNDS", False):
        return terms
    maybe = [t for t in terms if _may_be_compound(t)]
    if not maybe:
        return terms
    dfs = store.document_frequencies(maybe)
    algorithm = getattr(table, "STEMMER", None)
    suffixes = getattr(table, "NOUN_SUFFIXES", ())
    out: list[Term] = []
    for term in terms:
        # a plural or inflected compound is cut on its stem ("Geburtstagsgeschenke" -> "geburtstagsgeschenk")
        parts = _compound_parts(store, term.stem or term.label) if term in maybe and not dfs[term.label] else None
        if not parts:
            out.append(term)
            continue
        *heads, last = parts
        out.extend(Term(head, stem=head) for head in heads)
        last_term = Term(last)
        out.append(with_stem(last_term, algorithm, suffixes) if algorithm else last_term)
    return list(dict.fromkeys(out))


def _may_be_compound(term: Term) -> bool:
    """One long word of letters, or a few words of letters joined by hyphens ("Test-Pipeline")."""
    if term.cjk:
        return False
    words = term.label.split()
    if len(words) == 1:
        return len(term.stem or term.label) >= 2 * COMPOUND_PART and term.label.isalpha()
    hyphens = term.glue is not None and set(re.sub(r"\w", "", term.glue)) == {"-"}
    return hyphens and len(words) <= 3 and all(w.isalpha() and len(w) >= 2 for w in words)


def _compound_parts(store: Store, label: str) -> list[str] | None:
    """The parts of a compound the index holds (see split_compounds), or None."""
    words = label.split()
    if len(words) > 1:
        return words
    word = label
    for cut in range(COMPOUND_PART, len(word) - COMPOUND_PART + 1):
        head, last = word[:cut], word[cut:]
        if not store.document_frequencies([Term(last)])[last]:
            continue
        heads = [head] + [head[: -len(link)] for link in _LINKS
                          if head.endswith(link) and len(head) - len(link) >= COMPOUND_PART]
        for candidate in reversed(heads):  # the shortest start first: "geburtstag*" also finds "geburtstags"
            if store.document_frequencies([Term(candidate, stem=candidate)])[candidate]:
                return [candidate, last]
    return None


_stemmers: dict[str, object] = {}


def _stemmer(algorithm: str):  # -> Stemmer.Stemmer | None
    if algorithm not in _stemmers:
        try:
            import Stemmer  # PyStemmer: Snowball in C; imported by the first question that stems
        except ImportError:
            _stemmers[algorithm] = None
        else:
            _stemmers[algorithm] = Stemmer.Stemmer(algorithm)
    return _stemmers[algorithm]


def _fold(word: str) -> str:
    """Lower case without diacritics (as FTS5's unicode61 remove_diacritics folds: "é" -> "e")."""
    if word.isascii():
        return word.lower()
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


def cjk_pieces(run: str, grammar: frozenset[str] = _NONE, endings: tuple[str, ...] | None = None,
               stop: frozenset[str] = _NONE) -> list[str]:
    """The pieces a run of CJK characters is searched as (Chinese and Japanese put no spaces between words).

    A question typed as a sentence ("去上海的时候谁需要预订住宿") is one run, and no note holds it
    whole, so the run is cut where the script changes and long pieces into their overlapping
    two-character pieces, the length of most Chinese words (上海, 需要, 预订, 住宿): a note
    that holds them covers the question, weighted by their IDF as any term.

    - Katakana (loanwords, コーヒーメーカー) and runs of up to `WHOLE_RUN` characters stay whole:
      a typed keyword (数据库, 東京) is matched as it is, through the trigram index.
    - Hiragana beside kanji or katakana is grammar (が, した, っていて): left out. Two-character
      pieces holding a character of `grammar` (Chinese: 的, 了, 吗, 们, 么, lang/words/zh.py: "海的",
      "什么", "我们") too.
    - A run left with no piece is searched whole, as before.
    - Korean (a language whose table has `ENDINGS`): a phrase's stem, recall.hangul.
    """
    if endings is not None and "\uac00" <= run[0] <= "\ud7af":
        from .hangul import pieces  # lazy: only a Korean question reads it

        return pieces(run, endings, WHOLE_RUN, stop)
    segments = _script_segments(run)
    if len(run) <= WHOLE_RUN and not (len(segments) > 1 and any(_script(s[0]) == "hiragana" for s in segments)):
        return [run]  # a typed keyword (数据库, 東京), not a phrase with its grammar (って誰)
    pieces: list[str] = []
    for segment in segments:
        script = _script(segment[0])
        if script == "hiragana" and len(segments) > 1:
            continue  # grammar between the words (は, を, っていて), unless the run is nothing else
        if script == "kana" or len(segment) <= WHOLE_RUN:
            pieces.append(segment)
            continue
        pairs = (segment[i : i + 2] for i in range(len(segment) - 1))
        pieces.extend(p for p in pairs if not (grammar & set(p)))
    return list(dict.fromkeys(pieces)) or [run]


def _script(char: str) -> str:
    """"hiragana", "kana" (katakana, with the long-vowel mark) or "other" (Han, Hangul)."""
    if "\u3040" <= char <= "\u309f":
        return "hiragana"
    if "\u30a0" <= char <= "\u30ff" or "\uff66" <= char <= "\uff9f":
        return "kana"
    return "other"


def _script_segments(run: str) -> list[str]:
    """`run` cut where its script changes (漢字, ひらがな, カタカナ)."""
    segments = [run[0]]
    for char in run[1:]:
        if _script(char) == _script(segments[-1][-1]):
            segments[-1] += char
        else:
            segments.append(char)
    return segments


def has_content(terms: Sequence[Term], words=None) -> bool:
    """True when some term is more than stopwords (of `words`, a lang/words table)."""
    stop = stopwords(words)
    return any(t.label not in stop if t.cjk else any(w not in stop for w in t.words) for t in terms)


def asks_for_events(terms: Sequence[Term], words=None) -> bool:
    """True when the terms name nothing but events in general ("what happened", "was ist passiert",
    "发生了什么"): nothing but a time phrase, or words a language's table lists (none: no such words)."""
    ignored = stopwords(words) | getattr(words, "EVENT_WORDS", _NONE)
    return not any(t.label not in ignored if t.cjk else any(w not in ignored for w in t.words) for t in terms)


def score(store: Store, terms: Sequence[Term], bm25: dict[int, float]) -> list[LexicalHit]:
    """Score chunks by the formula of the module docstring, best first.

    `bm25` maps every chunk to score to its BM25 from the store's pool, or 0 for chunks that
    another channel found (they get their coverage, without the BM25 share).
    """
    if not bm25:
        return []
    ids = list(bm25)
    if not terms:
        return [LexicalHit(cid, 0.0, bm25[cid], 0.0) for cid in ids]
    dfs = store.document_frequencies(terms)
    total = store.entry_count()
    matches = store.term_matches(terms, ids, CONTEXT_SHARE)
    idf_sum = 0.0
    gained: dict[int, float] = dict.fromkeys(ids, 0.0)
    matched: dict[int, list[str]] = {cid: [] for cid in ids}
    for term in terms:
        df = min(dfs[term.label], total)
        idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
        idf_sum += idf
        for cid, share in matches[term.label].items():
            gained[cid] += idf * share
            matched[cid].append(term.label)
    top = max(bm25.values()) or 1.0
    out = []
    for cid in ids:
        coverage = gained[cid] / idf_sum if idf_sum > 0 else 0.0
        value = coverage * (1 - BM25_SHARE + BM25_SHARE * bm25[cid] / top)
        out.append(LexicalHit(cid, value, bm25[cid], coverage, matched[cid]))
    out.sort(key=lambda h: (-h.score, -h.bm25, h.chunk_id))
    return out
