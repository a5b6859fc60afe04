"""Korean phrases as the pieces a note holds: the stem, its particle or ending cut off.

Korean writes a space between phrases, not between a word and its particles or endings: "Priya는"
(Priya + topic particle), "클라이밍장을" (climbing gym + object particle), "이사해" (move + "do").
A note holds the same words with other particles ("클라이밍장이", "이사한다"), so the phrase as
typed is in no note. The notes are searched by substring (the trigram index, as for Chinese and
Japanese), so the question's phrase is searched as its stem:

- the longest ending of the language's `ENDINGS` (lang/words/ko.py) is cut off the end, unless the
  phrase is a stop word as it stands ("대해": about; "누구" is left for the stop words to drop);
- a phrase that is nothing but an ending ("는" after a name in Latin letters: "Priya는") is no piece;
- a stem of one syllable from a phrase of two ("개는" -> "개", but "휴가" -> "휴": one cannot tell a
  particle from a word's last syllable without a dictionary) is searched with the phrase as typed;
- a stem longer than `whole` syllables is searched as its overlapping two-syllable pieces, as a
  Chinese run is (recall.lexical.cjk_pieces): most Korean nouns are two syllables (사무실 -> 사무, 무실).
"""

from __future__ import annotations


def is_hangul(char: str) -> bool:
    """Whether `char` is a Hangul syllable."""
    return "\uac00" <= char <= "\ud7af"


def pieces(run: str, endings: tuple[str, ...], whole: int = 3, stop: frozenset[str] = frozenset()) -> list[str]:
    """The pieces a run of Hangul is searched as (the module docstring); `endings` longest first, `stop`
    the language's stop words."""
    if run in endings:
        return []
    if run in stop:
        return [run]
    stem = next((run[: -len(e)] for e in endings if run.endswith(e) and len(run) > len(e)), run)
    if len(stem) == 1 and len(run) == 2 and stem not in stop:
        return [stem, run]
    if len(stem) <= whole:
        return [stem]
    return list(dict.fromkeys(stem[i : i + 2] for i in range(len(stem) - 1)))
