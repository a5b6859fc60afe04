"""The question without its names: what it asks of the people it names, by meaning.

In a chat log ("- Ana: ...", "- Tom: ...") or the notes a user keeps on a few people (Peter's
page, "- Peter: prefers short replies"), a person's name is in nearly every one of their entries.
A question that names them ("What does Ana do to unwind?") shares the name with all of those
entries, and in the model's vector the name weighs as much as what is asked: every entry of Ana's
looks alike to it, and the one that answers in other words, on another day ("a long run after
work clears my head"), does not stand out from her small talk. The name still counts where it
tells entries apart: in the lexical channel (by its IDF), and in the whose-turn and entity factors.

The same holds for any named entity (a company's page and the facts about it all name it). So
when the question names people of the workspace (the subjects of candidate entries,
recall.subject) or its entities, it is embedded a second time without their names ("What does do
to unwind?"), and that vector's cosine is the candidate's cosine; the vector finds a pool of its
own too. The question as asked still finds its pool (the names may be all it has). Not for a
question about nothing but them ("who is Priya"), where the name is all there is to match.

What goes is the names, and only the names: the question's time phrase stays in the text embedded
without them ("Where was Lena travelling during March?" is embedded as "Where was travelling during
March?"). The names are removed because every entry of that person shares them; the time is part of
what is asked, and an entry that states it ("In Porto (Mar 3–9) for the conference.") matches it
there. Without it the names-free cosine would stand for the whole question while knowing less than
the question (issue 38: that answer's cosine fell from 0.19 with the name to 0.06 without it; with
the phrase kept it is 0.185). The rule, then: the names-free vector replaces the question's cosine,
and it is made of everything the question says but the names (TIME_PHRASE = 0 measures without it).

It costs one more encoding, only for a question with a name in it. The names are known only
from the candidates, so `guess` (the words that look like names) is embedded beside the question
in its thread (semantic.PendingVector), and the text is embedded again only when the names found
differ. Measured on LoCoMo's two halves and on our own multi-hop set: docs/benchmarks.md, "The
question without its names"; each lever tried: docs/recall.md.
"""

from __future__ import annotations

import re

ENABLED = 1  # 0: off, only to measure without it (benchmarks: `topic.ENABLED=0`)
TIME_PHRASE = 1  # 0: the names-free text also drops the time phrase (as before issue 38), only to measure
# The words that join names ("Ana and Tom", "Ana, Tom & Jo"), dropped with them.
_JOINERS = frozenset({"and", "&", "or", "und", "et", "y", "e"})
# Patterns, compiled on first use (re's cache), not at import: a lexical recall never needs them.
_TOKEN = r"@?[^\W_][\w.'’-]*|[^\w\s]+"
_POSSESSIVE = r"(?:'s|’s|'|’)$"


def asked(text: str, time_phrase: str | None) -> str:
    """What the question asks, names included: its search text and its time phrase (recall.query
    takes a sure phrase out of the search text; the names-free vector keeps it)."""
    if TIME_PHRASE and time_phrase and time_phrase not in text:
        return f"{text} {time_phrase}".strip()
    return text


def _bare(token: str) -> str:
    """"@Ana's" -> "ana": the lower-cased name a token spells."""
    return re.sub(_POSSESSIVE, "", token.lstrip("@")).lower()


def without_names(text: str, names: set[str]) -> str | None:
    """`text` without the tokens that spell one of `names` (lower-cased single words) and the words
    that join them; None when none is there or nothing else is left."""
    tokens = re.findall(_TOKEN, text)
    named = [_bare(t) in names for t in tokens]
    if not any(named):
        return None
    kept: list[str] = []
    for i, token in enumerate(tokens):
        if named[i]:
            continue
        joins = token.lower() in _JOINERS or token in {",", "&"}
        if joins and ((i > 0 and named[i - 1]) or (i + 1 < len(tokens) and named[i + 1])):
            continue  # "Ana and Tom": the "and" goes with them
        kept.append(token)
    if not any(t[0].isalnum() for t in kept):
        return None
    return re.sub(r"\s+([^\w\s@])", r"\1", " ".join(kept))


def guess(text: str, entity_names: dict[str, frozenset[str]]) -> str | None:
    """The question without the words that look like names (capitalised, not first in a sentence;
    a named entity's), embedded beside the question before the engine knows its people: most often
    the text `without_names` then gives, so its encoding costs no wait (semantic.PendingVector)."""
    if not ENABLED:
        return None
    tokens = re.findall(_TOKEN, text)
    names = {_bare(t) for i, t in enumerate(tokens)
             if t[:1].isupper() and t != "I" and i > 0 and tokens[i - 1] not in {".", "?", "!", ":"}}
    return without_names(text, names | name_words(frozenset(), entity_names))


def name_words(subjects: frozenset[str], entity_names: dict[str, frozenset[str]]) -> set[str]:
    """The single lower-cased words of the people a question names: its subjects' and entities' names."""
    words = {w for s in subjects for w in s.split()}
    words |= {w.lower() for forms in entity_names.values() for f in forms for w in f.split()}
    return {w for w in words if len(w) >= 2}
