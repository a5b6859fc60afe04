"""dates.parse tries a phrase only at the tokens a phrase can start with (_START_WORDS, numbers and
dates): the readings are those of trying every token, on any text the grammar's words make."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workspace_memory.dates import parse as P

POOL = [
    *"Nov November Dec Tuesday Friday today yesterday tomorrow from between and to until up the last next this "
     "past previous current ago week weeks day days weekend month year early mid late on in at around since "
     "before after during every of a an two three ten night morning or we moved Peter Lisbon trip meeting "
     "market maybe 21st 3rd 4 5 27 30 2024 2025 12.11.2025 2025-11-24 11/22/63 - – , . : ( )".split(),
    # whole phrases of every rule, so that a start word left out of the gate shows
    "the 21st of November", "the day after Nov 27", "the last 3 days", "the past week", "up to Dec 4",
    "a week ago", "two days before Friday", "mid-October", "early Nov 2025", "this morning", "last night",
    "between Nov 3 and Nov 5", "from Dec 4 to Dec 6", "the Friday before Dec 4", "since March", "around the 20th",
    "Nov 27-30, 2025", "27–30 November", "next Tuesday", "previous month", "current year", "the weekend after Dec 4",
]


class _Everything:
    """A start-word set that holds every word: the grammar tried at every token, as before the gate."""

    def __contains__(self, word: object) -> bool:
        return True


def _readings(text: str, query: bool, lines: bool) -> list[tuple]:
    base = date(2025, 11, 30)
    out = []
    for _, start, order, stop, resolve, confidence in P._candidates(text, base, query, None, lines):
        try:
            result = resolve()
        except (ValueError, OverflowError):
            result = "error"
        out.append((start, order, stop, confidence, result))
    return out


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.sampled_from(POOL), min_size=1, max_size=14), query=st.booleans(), lines=st.booleans())
def test_the_gate_reads_what_every_token_would(words: list[str], query: bool, lines: bool,
                                               ) -> None:
    text = " ".join(words)
    gated = _readings(text, query, lines)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(P, "_START_WORDS", _Everything())
        assert _readings(text, query, lines) == gated, text
