"""An entry that asks a question seldom answers one.

A question finds the entries that share its words, and the entries that ask about the same
thing share them most: "- Ana: How long have you been married?" for "Is Ana married?",
"- Should we move the index to Postgres?" for "Did we move the index to Postgres?". The answer is
told elsewhere: the next turn (it inherits the asking entry's relevance as its neighbour,
recall.neighbours, before any factor) or a later note. So when the query is a question, an
entry that is itself a question is multiplied by QUESTION_MISS. A keyword query changes nothing.
Measured on LoCoMo and on notes of other shapes (docs/recall.md, "Constants you can trust").
"""

from __future__ import annotations

QUESTION_MISS = 0.85
_QUESTION_MARKS = ("?", "？")


def asks(text: str) -> bool:
    """Whether a text is a question: its last sentence ends with a question mark, a note in brackets
    after it aside ("Is this the one? [photo: a red door]")."""
    text = text.rstrip()
    while text.endswith(("]", ")")):
        start = text.rfind("[" if text.endswith("]") else "(")
        if start <= 0:
            break
        text = text[:start].rstrip()
    return text.endswith(_QUESTION_MARKS)


def is_question(query: str, words=None) -> bool:
    """Whether a query asks a question: a question mark, or a question word or verb first (the
    `QUESTION_STARTS` of `words`, the question's language's lang/words table: "where does Peter live",
    "wo wohnt Peter", "谁是Tom"; a language without them: the question mark only)."""
    if asks(query) or query.lstrip().startswith("¿"):
        return True
    starts = getattr(words, "QUESTION_STARTS", None)
    first = query.lower().split(maxsplit=1)
    if not starts or not first:
        return False
    if first[0] in starts or first[0].split("'")[0] in starts:
        return True
    return not first[0].isascii() and first[0].startswith(tuple(s for s in starts if not s.isascii()))
