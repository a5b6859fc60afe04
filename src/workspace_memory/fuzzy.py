"""How alike two texts must be, by purpose: every fuzzy comparison's bar, declared once.

Scores are rapidfuzz's, 0-100 (`fuzz.ratio`, `partial_ratio`, `token_sort_ratio`, or
facts.textmatch.similarity, which is built on them). A module that compares texts names the
purpose it compares for, never a number of its own, so one kind of judgement is made with one
bar everywhere (`tests/test_architecture.py::test_fuzzy_bars_are_declared_once` finds a number
written next to a comparison). The figures were fitted where each purpose was first needed; they
are unchanged here.
"""

from __future__ import annotations

# A text written again: a result that is a copy of one ranked above it (recall.dedupe; ratio, or
# partial ratio when one holds the other).
COPY = 95.0
# A phrase found, nearly as written, inside a longer text: a link's claim in the line it points to
# (doctor), a trigger phrase among a message's words (agent.triggers). Partial ratio.
PHRASE_IN_TEXT = 90.0
# Two curated lines that say one thing in other words (reflect.curated; token-sort ratio).
RESTATED = 90.0
# A name written with a typo or in a variant form (facts.entities; ratio).
NAME_VARIANT = 88.0
# A name like the one asked for, offered as "did you mean" when none matches (facts.entities.near;
# WRatio): only a hint for a person, never taken as the entity, so looser than NAME_VARIANT.
NAME_HINT = 70.0
# A note that recurs on other days, or that MEMORY.md holds already (reflect.proposals; token-sort).
RECURS = 85.0
# Two facts that state one claim: a fact that negates an older one (facts.supersession), a fact
# that is evidence for an opinion (reflect.opinions). textmatch.similarity.
SAME_CLAIM = 75.0
# Two statements about one thing: an opinion and a statement of a stance (facts.stance), the
# opinion a fact is about (reflect.opinions), the facts a mistyped "TEXT" may mean (facts.select).
SAME_TOPIC = 60.0
