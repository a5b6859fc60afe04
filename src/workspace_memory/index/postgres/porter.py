"""The Porter stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it.

FTS5 follows Martin Porter's own C implementation, with its departures from the published
algorithm ("bli" -> "ble", "logi" -> "log"), which the Snowball `porter` does not make
(FTS5 stems "incredibly" to "incred", Snowball to "incredibli"). Written from FTS5's rule
tables; it works on the UTF-8 bytes as FTS5 does (non-ASCII bytes are consonants), and
passes tokens under 3 or over 64 bytes through unchanged.
"""

from __future__ import annotations

import functools

_MAX_TOKEN = 64
_VOWELS = frozenset(b"aeiou")
_Y = ord("y")


def _is_vowel(c: int, y_is_vowel: bool) -> bool:
    return c in _VOWELS or (y_is_vowel and c == _Y)


def _gobble_vc(stem: bytes, prev_consonant: bool) -> int:
    """Skip to the first vowel, then past the first consonant after it: the end of one VC, or 0."""
    consonant = prev_consonant
    i = 0
    n = len(stem)
    while i < n:
        consonant = not _is_vowel(stem[i], consonant)
        if not consonant:
            break
        i += 1
    i += 1
    while i < n:
        consonant = not _is_vowel(stem[i], consonant)
        if consonant:
            return i + 1
        i += 1
    return 0


def _m_gt0(stem: bytes) -> bool:
    return bool(_gobble_vc(stem, False))


def _m_gt1(stem: bytes) -> bool:
    n = _gobble_vc(stem, False)
    return bool(n and _gobble_vc(stem[n:], True))


def _m_eq1(stem: bytes) -> bool:
    n = _gobble_vc(stem, False)
    return bool(n and not _gobble_vc(stem[n:], True))


def _o_star(stem: bytes) -> bool:
    """*o: the stem ends consonant-vowel-consonant, the last not w, x or y."""
    if stem[-1:] in (b"w", b"x", b"y"):
        return False
    mask = 0
    consonant = False
    for c in stem:
        consonant = not _is_vowel(c, consonant)
        mask = (mask << 1) + consonant
    return (mask & 0x7) == 0x5


def _m_gt1_s_or_t(stem: bytes) -> bool:
    return stem[-1:] in (b"s", b"t") and _m_gt1(stem)


def _has_vowel(stem: bytes) -> bool:
    return any(_is_vowel(c, i > 0) for i, c in enumerate(stem))


# (suffix, condition on the stem, replacement); the first suffix that matches decides, even
# when its condition fails (as in FTS5's generated code).
_STEP2 = [(b"ational", _m_gt0, b"ate"), (b"tional", _m_gt0, b"tion"), (b"enci", _m_gt0, b"ence"),
          (b"anci", _m_gt0, b"ance"), (b"izer", _m_gt0, b"ize"), (b"logi", _m_gt0, b"log"),
          (b"bli", _m_gt0, b"ble"), (b"alli", _m_gt0, b"al"), (b"entli", _m_gt0, b"ent"),
          (b"eli", _m_gt0, b"e"), (b"ousli", _m_gt0, b"ous"), (b"ization", _m_gt0, b"ize"),
          (b"ation", _m_gt0, b"ate"), (b"ator", _m_gt0, b"ate"), (b"alism", _m_gt0, b"al"),
          (b"iveness", _m_gt0, b"ive"), (b"fulness", _m_gt0, b"ful"), (b"ousness", _m_gt0, b"ous"),
          (b"aliti", _m_gt0, b"al"), (b"iviti", _m_gt0, b"ive"), (b"biliti", _m_gt0, b"ble")]
_STEP3 = [(b"icate", _m_gt0, b"ic"), (b"ative", _m_gt0, b""), (b"alize", _m_gt0, b"al"),
          (b"iciti", _m_gt0, b"ic"), (b"ical", _m_gt0, b"ic"), (b"ful", _m_gt0, b""), (b"ness", _m_gt0, b"")]
_STEP4 = [(s, _m_gt1, b"") for s in (b"al", b"ance", b"ence", b"er", b"ic", b"able", b"ible", b"ant", b"ement",
                                      b"ment", b"ent")]
_STEP4 += [(b"ion", _m_gt1_s_or_t, b"")] + [(s, _m_gt1, b"") for s in (b"ou", b"ism", b"ate", b"iti", b"ous",
                                                                       b"ive", b"ize")]


def _apply(word: bytes, rules: list) -> bytes:
    for suffix, condition, replacement in rules:
        if len(word) > len(suffix) and word.endswith(suffix):
            stem = word[: -len(suffix)]
            return stem + replacement if condition(stem) else word
    return word


def _step1ab(word: bytes) -> bytes:
    if word.endswith(b"s"):
        if word[-2:-1] == b"e":
            if (len(word) > 4 and word[-4:-2] == b"ss") or (len(word) > 3 and word[-3:-2] == b"i"):
                word = word[:-2]
            else:
                word = word[:-1]
        elif word[-2:-1] != b"s":
            word = word[:-1]
    removed = False
    if len(word) > 3 and word.endswith(b"eed"):
        if _m_gt0(word[:-3]):
            word = word[:-1]
    elif len(word) > 2 and word.endswith(b"ed"):
        if _has_vowel(word[:-2]):
            word, removed = word[:-2], True
    elif len(word) > 3 and word.endswith(b"ing") and _has_vowel(word[:-3]):
        word, removed = word[:-3], True
    if removed:
        for end, grown in ((b"at", b"ate"), (b"bl", b"ble"), (b"iz", b"ize")):
            if len(word) > 2 and word.endswith(end):
                return word[:-2] + grown
        last = word[-1]
        if not _is_vowel(last, False) and last not in b"lsz" and len(word) > 1 and last == word[-2]:
            return word[:-1]
        if _m_eq1(word) and _o_star(word):
            return word + b"e"
    return word


@functools.lru_cache(maxsize=200_000)
def stem(token: str) -> str:
    """The FTS5 porter stem of one folded token."""
    word = token.encode("utf-8")
    if not 3 <= len(word) <= _MAX_TOKEN:
        return token
    word = _step1ab(word)
    if word.endswith(b"y") and _has_vowel(word[:-1]):
        word = word[:-1] + b"i"
    word = _apply(_apply(_apply(word, _STEP2), _STEP3), _STEP4)
    if word.endswith(b"e"):
        stem_ = word[:-1]
        if _m_gt1(stem_) or (_m_eq1(stem_) and not _o_star(stem_)):
            word = stem_
    if len(word) > 1 and word.endswith(b"ll") and _m_gt1(word[:-1]):
        word = word[:-1]
    return word.decode("utf-8", errors="ignore") or token
