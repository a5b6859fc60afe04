"""markdown.names.ScriptPattern: the form without the CJK class finds what the full form finds.

A cold recall of a question without CJK characters uses each word and mention pattern's `spaced`
form, which compiles in a fraction of a millisecond; the `full` form (the CJK class beside \\w, 2-10
ms to compile) is compiled only for a text that may hold CJK. These properties are what makes that
safe: on any text without CJK characters the two forms find the same, and a text that holds one is
never given the spaced form.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from workspace_memory.facts import entities
from workspace_memory.markdown import retain
from workspace_memory.markdown.names import CJK, ScriptPattern, may_hold_cjk
from workspace_memory.recall import query
from workspace_memory.recall.engine import entity_names_pattern

_CJK_CHAR = re.compile(f"[{CJK}]")
# Latin and accented letters, digits, the characters the patterns treat apart (@ - ' ’ _ . / +),
# spaces, Cyrillic and Greek, fullwidth Latin (\w above U+3040 but no CJK), an emoji, a superscript
# digit; and kana, Han, Hangul and half-width kana for the texts that hold CJK.
_SPACED_CHARS = "abzAZéÜß09²@-'’_./+ \nжЖλΩＡｚ０😀"
_CJK_CHARS = "ぁゟァヿ㐀一鿿가힯豈ｦﾟ"
_NAMES = {"peter": frozenset({"peter", "peter-ka"}), "lea": frozenset({"lea"}), "wang": frozenset({"王伟"}),
          "castle": frozenset({"the castle", "the-castle"}), "o": frozenset({"o'neil"})}
PATTERNS: dict[str, ScriptPattern] = {
    "entities words": entities._WORD_RE,
    "entities mentions": entities._MENTION_RE,
    "query words": query._WORD,
    "retain mentions": retain.ENTITY_RE,
}
_names = entity_names_pattern(_NAMES)
assert _names is not None
PATTERNS["recall entity names"] = _names

_props = settings(max_examples=300, deadline=None)
_spaced_text = st.text(alphabet=_SPACED_CHARS, max_size=40)
# Words the names pattern can find ("Peter", "peter-ka", "O'Neil") among the characters above.
_pieces = st.sampled_from(["Peter", "PETER-KA", "Lea", "the castle", "The-Castle", "o'neil", "@Peter", "王伟",
                           "a@b.com", "@Lea休假", "在@Fernwerk工作", "Priyaって誰", "x_y", "-"])
_mixed_text = st.lists(st.one_of(st.text(alphabet=_SPACED_CHARS + _CJK_CHARS, max_size=6), _pieces),
                       max_size=8).map("".join)


def _found(pattern: re.Pattern[str], text: str) -> list[tuple]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@_props
@given(st.one_of(_spaced_text, st.lists(st.one_of(_spaced_text, _pieces), max_size=6).map("".join)))
def test_the_spaced_form_finds_what_the_full_form_finds_in_text_without_cjk(text: str) -> None:
    text = _CJK_CHAR.sub("", text)  # the pieces hold some CJK: this property is about text without it
    for name, pattern in PATTERNS.items():
        assert _found(pattern.spaced(), text) == _found(pattern.full(), text), name
        assert pattern.spaced().sub(" ", text) == pattern.full().sub(" ", text), name


@_props
@given(_mixed_text)
def test_what_a_pattern_finds_is_what_its_full_form_finds(text: str) -> None:
    """On any text, Latin, CJK or both: the form for_text picks finds what the full form finds."""
    for name, pattern in PATTERNS.items():
        assert pattern.findall(text) == pattern.full().findall(text), name
        assert pattern.sub(" ", text) == pattern.full().sub(" ", text), name
        assert _found(pattern.for_text(text), text) == _found(pattern.full(), text), name
        found = pattern.search(text)
        expected = pattern.full().search(text)
        assert (found and found.span()) == (expected and expected.span()), name


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=30))
def test_a_text_that_holds_cjk_is_never_given_the_spaced_form(text: str) -> None:
    if _CJK_CHAR.search(text):
        assert may_hold_cjk(text)
    if not may_hold_cjk(text):
        assert all(ch < "\u3040" for ch in text)


def test_the_forms_are_compiled_on_first_need() -> None:
    pattern = ScriptPattern(r"\w+", rf"[^\W{CJK}]+|[{CJK}]+")
    assert pattern.findall("Lea and Peter") == ["Lea", "and", "Peter"]
    assert pattern._full is None  # an English text compiled no CJK class
    assert pattern.findall("Lea休假") == ["Lea", "休假"]
    assert pattern._full is not None


def test_the_known_cases_read_as_before() -> None:
    """The cases the CJK-aware patterns were written for, through the two-form patterns."""
    assert entities._MENTION_RE.findall("在@Fernwerk工作 and @Lea休假, mail a@b.com, @王伟") == ["Fernwerk", "Lea", "王伟"]
    assert entities._WORD_RE.findall("Priyaって誰") == ["Priya", "って誰"]
    assert entities._MENTION_RE.findall("ask @Peter-, not a@b.com") == ["Peter"]
    assert query._words("What's Peter’s plan?") == ["what's", "peter's", "plan"]
    assert _names.search("Priya在Peter家") is not None and _names.search("Peterson") is None
