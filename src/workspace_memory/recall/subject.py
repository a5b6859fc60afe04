"""Whose entry it is: a log entry that starts with "Name:" names its subject.

"- Ana: I finally adopted a second cat" is Ana speaking; "- Ben: Congrats, Ana!" is Ben, talking
to her. The same holds for a note kept under a person's name ("- Peter: prefers short replies").
A question that names a person ("How many cats does Ana have?") is answered by what that
person said, or what was noted under their name, more often than by what others said to them,
even when those share more of the question's words. So when the question names the subject
of at least one candidate, an entry whose subject is someone else is multiplied by
SUBJECT_MISS (a factor, as for a named entity it misses, but milder: the other speaker's turn
may still hold the answer, as in "Ben: Ana, your two cats are so cute!").

Left alone: entries without a subject, Retain facts (their entities say whom they are about),
entries whose "subject" is a label of the kind notes use ("Decision:", "TODO:", "Update:",
"Monday:", "Q1:"; "Entscheidung:", "Montag:", "Décision :": the `LABELS` of the line's own
language, lang/words/<code>.py, told by lang.identify; a line in a language without labels has no
subject, so the factor stays 1.0), and questions that name no subject of the pool. Measured on LoCoMo and on
notes of other shapes (docs/recall.md, "Constants you can trust").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .. import lang
from ..lang.identify import question_language
from .neighbours import NARRATIVE  # notes and messages; Retain facts name their entities instead

SUBJECT_MISS = 0.85
# A list marker, then one to three words before the colon (an @handle may be lower-case).
_SUBJECT = (r"\s*(?:[-*+]|\d+[.)])?\s*(?:\*\*)?(@?[^\W\d_][\w.'’-]*(?: [^\W\d_][\w.'’-]*){0,2})"
            r"(?:\*\*)?:(?:\*\*)?\s")


@lru_cache(maxsize=4096)  # asked and misses read the same candidates' lines
def subject_of(text: str, languages: tuple[str, ...] = ("en",)) -> str | None:
    """The lower-cased subject an entry's text starts with ("- Ana: ..." -> "ana"), or None (also for a
    label of the line's language, or a line whose language has no labels; `languages`: the workspace's)."""
    match = re.match(_SUBJECT, text)  # compiled on first use (re's cache), not at import
    if match is None:
        return None
    name = match.group(1)
    if not name.startswith("@") and not all(word[0].isupper() and not any(c.isdigit() for c in word)
                                            for word in name.split()):
        return None  # "- fixed: ...", "- note to self: ...", "- Q1: ..."
    name = name.lstrip("@").lower()
    code = question_language(text[match.end():], languages)
    words = lang.table("words", code) if code else None
    labels = getattr(words, "LABELS", None)
    if labels is None:
        return None  # no labels known for the line's language: no rule (neutral)
    return None if name in labels else name


def names(subject: str, words: set[str]) -> bool:
    """Whether a question with these (lower-cased) words names this subject: its whole name, its first
    word (a given name) or its last (a family name)."""
    parts = subject.split()
    return parts[0] in words or parts[-1] in words or all(p in words for p in parts)


def asked(words: set[str], rows: Iterable[dict], languages: tuple[str, ...] = ("en",)) -> frozenset[str]:
    """The subjects of these candidate rows that a question with these words names."""
    found = set()
    for row in rows:
        if row["kind"] in NARRATIVE:
            subject = subject_of(row["text"], languages)
            if subject is not None and subject not in found and names(subject, words):
                found.add(subject)
    return frozenset(found)


def misses(row: dict, subjects: frozenset[str], languages: tuple[str, ...] = ("en",)) -> bool:
    """Whether this entry's subject is someone other than the ones the question names."""
    if not subjects or row["kind"] not in NARRATIVE:
        return False
    subject = subject_of(row["text"], languages)
    return subject is not None and subject not in subjects
