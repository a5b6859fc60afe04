"""Tests for the Retain fact grammar (DESIGN §2): workspace_memory.markdown.retain."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workspace_memory.dates.parse import DateRange
from workspace_memory.markdown.retain import (
    DEFAULT_OPINION_CONFIDENCE,
    ENTITY_RE,
    FACT_KINDS,
    RetainFact,
    RetainParse,
    display_name,
    find_entities,
    parse_retain_bullet,
    slugify,
    validate_bullet,
)

WRITTEN = date(2025, 11, 27)


def fact_of(text: str, written: date | None = WRITTEN) -> RetainFact:
    parsed = parse_retain_bullet(text, written)
    assert parsed.fact is not None, parsed.warnings
    return parsed.fact


# ------------------------------------------------------------------------------------ the DESIGN examples


def test_design_world_fact() -> None:
    parsed = parse_retain_bullet(
        "W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.", WRITTEN
    )
    assert parsed == RetainParse(
        RetainFact(
            kind="world",
            content="Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
            entities=("Peter",),
            confidence=None,
            occurred=DateRange(date(2025, 11, 27), date(2025, 12, 1)),
            bullet="W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
        ),
        (),
    )


def test_design_experience_fact() -> None:
    fact = fact_of(
        "B @warelay: I fixed the Baileys WS crash by wrapping connection.update handlers in try/catch "
        "(see memory/2025-11-27.md)."
    )
    assert fact.kind == "experience"
    assert fact.entities == ("warelay",)
    assert fact.confidence is None
    assert fact.occurred is None  # a file name is not a stated time


def test_design_opinion_fact() -> None:
    fact = fact_of(
        "O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files."
    )
    assert (fact.kind, fact.confidence, fact.entities, fact.occurred) == ("opinion", 0.95, ("Peter",), None)
    assert fact.content.startswith("Peter: Prefers concise replies (<1500 chars)")


def test_design_observation_fact() -> None:
    fact = fact_of("S @Peter: Travels often; mostly reachable on WhatsApp.")
    assert (fact.kind, fact.content, fact.entities, fact.confidence) == (
        "observation",
        "Peter: Travels often; mostly reachable on WhatsApp.",
        ("Peter",),
        None,
    )


# ---------------------------------------------------------------------------------------------- prefixes


@pytest.mark.parametrize(
    ("text", "kind", "content"),
    [
        ("W @Peter: x", "world", "Peter: x"),
        ("W: x", "world", "x"),
        ("W : x", "world", "x"),
        ("W x", "world", "x"),
        ("B did it", "experience", "did it"),
        ("O likes tea", "opinion", "likes tea"),
        ("S: summary", "observation", "summary"),
        ("  W   spaced   out  ", "world", "spaced out"),
        ("W (see notes) x", "world", "(see notes) x"),  # a spaced paren without c= is content
        ("W - dash first", "world", "- dash first"),
        ("W 東京に住んでいる", "world", "東京に住んでいる"),
    ],
)
def test_prefixes(text: str, kind: str, content: str) -> None:
    fact = fact_of(text)
    assert (fact.kind, fact.content) == (kind, content)
    assert parse_retain_bullet(text, WRITTEN).warnings == ()


def test_fact_kinds_table() -> None:
    assert FACT_KINDS == {"W": "world", "B": "experience", "O": "opinion", "S": "observation"}


# -------------------------------------------------------------------------------------------- confidence


@pytest.mark.parametrize(
    ("text", "confidence"),
    [
        ("O(c=0.95): x", 0.95),
        ("O(c=0.8): x", 0.8),
        ("O(c=1) x", 1.0),
        ("O(c=0) x", 0.0),
        ("O(c=.5) x", 0.5),
        ("O(c=0,6) x", 0.6),
        ("O(c=80%) x", 0.8),
        ("O( c = 0.8 ) x", 0.8),
        ("O(C=0.8) x", 0.8),
        ("O (c=0.8) x", 0.8),
        ("O x", DEFAULT_OPINION_CONFIDENCE),
        ("O: x", DEFAULT_OPINION_CONFIDENCE),
    ],
)
def test_opinion_confidence(text: str, confidence: float) -> None:
    parsed = parse_retain_bullet(text, WRITTEN)
    assert parsed.fact is not None and parsed.fact.confidence == pytest.approx(confidence)
    assert parsed.warnings == ()
    assert parsed.fact.content == "x"


def test_default_opinion_confidence_is_documented_value() -> None:
    assert DEFAULT_OPINION_CONFIDENCE == 0.7


@pytest.mark.parametrize(
    ("text", "confidence", "warning"),
    [
        ("O(c=1.4) x", 1.0, "confidence 1.4 clamped to 1.0"),
        ("O(c=-0.2) x", 0.0, "confidence -0.2 clamped to 0.0"),
        ("O(c=140%) x", 1.0, "confidence 140% clamped to 1.0"),
        ("O(c=80) x", 1.0, "confidence 80 clamped to 1.0"),
    ],
)
def test_out_of_range_confidence_is_clamped_with_warning(text: str, confidence: float, warning: str) -> None:
    parsed = parse_retain_bullet(text, WRITTEN)
    assert parsed.fact is not None and parsed.fact.confidence == confidence
    assert parsed.warnings == (warning,)


@pytest.mark.parametrize("letter", ["W", "B", "S"])
def test_confidence_on_non_opinion_is_ignored_with_warning(letter: str) -> None:
    parsed = parse_retain_bullet(f"{letter}(c=0.8) @Peter: x", WRITTEN)
    assert parsed.fact is not None
    assert parsed.fact.confidence is None
    assert parsed.fact.content == "Peter: x"
    assert len(parsed.warnings) == 1 and "only for opinions" in parsed.warnings[0]


@pytest.mark.parametrize(
    "text", ["O(c=high) x", "O(c=) x", "O(c=0.8.1) x", "O(0.8) x", "O(c=nan) x", "O(c=1e3) x"]
)
def test_unparsable_confidence_is_malformed(text: str) -> None:
    parsed = parse_retain_bullet(text, WRITTEN)
    assert parsed.fact is None
    assert len(parsed.warnings) == 1 and parsed.warnings[0].startswith("not a Retain fact")


# --------------------------------------------------------------------------------------------- malformed


@pytest.mark.parametrize(
    "text",
    [
        "X foo",
        "w foo",
        "Wfoo",
        "",
        "   ",
        "W",
        "W:",
        "W @Peter:",
        "O(c=0.8)",
        "O(c=0.8)x",
        "Wow, great",
        "- W x",
    ],
)
def test_malformed_bullets(text: str) -> None:
    parsed = parse_retain_bullet(text, WRITTEN)
    assert parsed.fact is None
    assert len(parsed.warnings) == 1
    message = parsed.warnings[0]
    assert message.startswith("not a Retain fact: ")
    assert "\n" not in message


def test_malformed_warning_says_what_is_expected() -> None:
    assert parse_retain_bullet("X foo", WRITTEN).warnings == (
        'not a Retain fact: expected "W|B|O|S[(c=0..1)] text", got "X foo"',
    )


def test_lowercase_prefix_gets_a_hint() -> None:
    assert "uppercase" in parse_retain_bullet("w foo", WRITTEN).warnings[0]


def test_empty_content_is_named() -> None:
    assert parse_retain_bullet("W @Peter:", WRITTEN).warnings == (
        'not a Retain fact: empty content after "W @Peter:"',
    )


def test_malformed_warning_quotes_at_most_40_chars_on_one_line() -> None:
    text = "Z " + "long\nline\x00 " * 50
    (message,) = parse_retain_bullet(text, WRITTEN).warnings
    quoted = message.split("got ", 1)[1]
    assert len(quoted) <= 42 and quoted.endswith('…"')
    assert message.isprintable()


# ---------------------------------------------------------------------------------------------- entities


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("@Peter and @The-Castle", ("Peter", "The-Castle")),
        ("@Peter met @Peter again", ("Peter",)),
        ("mail a@b.com or peter.smith@example.org", ()),
        ("@Zoë in @東京", ("Zoë", "東京")),
        ("@1abc @_x @-y", ()),
        ("(@Peter), @Anna.", ("Peter", "Anna")),
        ("@Peter-: dash", ("Peter",)),
        ("@Peter's bike", ("Peter",)),
        ("@snake_case_name", ("snake_case_name",)),
        ("@@double", ()),
        ("see https://x.com/@user", ()),
        ("`@dataclass` applies to @Model", ("Model",)),
        ("@A1-b_2", ("A1-b_2",)),
    ],
)
def test_find_entities(text: str, entities: tuple[str, ...]) -> None:
    assert find_entities(text) == entities


def test_content_renders_mentions_as_display_names() -> None:
    fact = fact_of("B visited @The-Castle with @Peter; mailed a@b.com")
    assert fact.content == "visited The Castle with Peter; mailed a@b.com"
    assert fact.entities == ("The-Castle", "Peter")


def test_entity_named_like_a_month_is_not_a_date() -> None:
    assert fact_of("W @May: moved to Lisbon").occurred is None


def test_entity_regex_is_public() -> None:
    m = ENTITY_RE.search("hi @The-Castle!")
    assert m is not None and m.group("slug") == "The-Castle"


@pytest.mark.parametrize(
    ("slug", "name"),
    [("The-Castle", "The Castle"), ("Peter", "Peter"), ("a--b", "a b"), ("Zoë-Ünal", "Zoë Ünal")],
)
def test_display_name(slug: str, name: str) -> None:
    assert display_name(slug) == name


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("The Castle", "The-Castle"),
        ("  The   Castle ", "The-Castle"),
        ("Peter", "Peter"),
        ("Peter's Café", "Peters-Café"),
        ("AT&T Labs", "AT-T-Labs"),
        ("2 Fast", "Fast"),
        ("!!!", ""),
        ("snake_case", "snake_case"),
    ],
)
def test_slugify(name: str, slug: str) -> None:
    assert slugify(name) == slug


# --------------------------------------------------------------------------------------- occurred (time)


@pytest.mark.parametrize(
    ("text", "written", "occurred"),
    [
        ("W @Peter: in Paris since March", WRITTEN, DateRange(date(2025, 3, 1), None)),
        ("B shipped v2 yesterday", WRITTEN, DateRange(date(2025, 11, 26), date(2025, 11, 26))),
        ("B shipped v2 yesterday", None, None),
        ("W moved on 2025-11-20", None, DateRange(date(2025, 11, 20), date(2025, 11, 20))),
        ("O(c=0.6) @Peter: likes 3 cats at 5pm", WRITTEN, None),
    ],
)
def test_occurred(text: str, written: date | None, occurred: DateRange | None) -> None:
    assert fact_of(text, written).occurred == occurred


# -------------------------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "text", ["W @Peter: x", "O(c=0.8) @Peter: prefers tea", "O(c=80%) x", "S summary", "B did\tit"]
)
def test_validate_accepts(text: str) -> None:
    assert validate_bullet(text) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "expected"),
        ("X foo", "expected"),
        ("W", "empty content"),
        ("W @Peter:", "empty content"),
        ("O(c=high) x", "bad confidence"),
        ("O(c=1.4) x", "outside 0..1"),
        ("O(c=-1) x", "outside 0..1"),
        ("W(c=0.8) x", "only for opinions"),
        ("W line one\nline two", "single line"),
        ("W bell \x07", "control characters"),
    ],
)
def test_validate_refuses(text: str, reason: str) -> None:
    refusal = validate_bullet(text)
    assert refusal is not None and reason in refusal
    assert "\n" not in refusal


def test_validate_allows_emoji_joiners() -> None:
    assert validate_bullet("B met the family 👨\u200d👩\u200d👧") is None


# -------------------------------------------------------------------------------------------- properties

_any_text = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.characters(max_codepoint=0x20), max_size=50),  # control characters
    st.builds(
        lambda p, body: p + body, st.sampled_from(["W ", "O(c=", "O(c=0.5) ", "B: @", "S(", "O ("]), st.text()
    ),
    st.builds(lambda n: "O(c=" + n + ") x", st.from_regex(r"[+-]?\d{0,6}[.,]?\d{0,6}%?", fullmatch=True)),
)
_props = settings(max_examples=200, deadline=None)


@_props
@given(_any_text, st.one_of(st.none(), st.dates()))
def test_parse_never_raises_and_is_consistent(text: str, written: date | None) -> None:
    parsed = parse_retain_bullet(text, written)
    assert isinstance(parsed, RetainParse)
    assert all(isinstance(w, str) and "\n" not in w and w for w in parsed.warnings)
    if parsed.fact is None:
        assert len(parsed.warnings) == 1
        return
    fact = parsed.fact
    assert fact.kind in FACT_KINDS.values()
    assert fact.content.strip()
    if fact.kind == "opinion":
        assert fact.confidence is not None and 0.0 <= fact.confidence <= 1.0
    else:
        assert fact.confidence is None
    assert len(set(fact.entities)) == len(fact.entities)
    occurred = fact.occurred
    assert (
        occurred is None or occurred.start is None or occurred.end is None or occurred.start <= occurred.end
    )


@settings(max_examples=5, deadline=None)
@given(st.text(min_size=1, max_size=5))
def test_parse_huge_bullet(chunk: str) -> None:
    parse_retain_bullet("O(c=0.5) " + chunk * 20_000, WRITTEN)
    validate_bullet("W " + chunk * 20_000)


@_props
@given(_any_text)
def test_validate_never_raises_and_agrees_with_parse(text: str) -> None:
    refusal = validate_bullet(text)
    assert refusal is None or (isinstance(refusal, str) and "\n" not in refusal)
    if refusal is None:
        parsed = parse_retain_bullet(text, None)
        assert parsed.fact is not None and parsed.warnings == ()


_word = st.from_regex(r"[A-Za-z][A-Za-z0-9]{0,8}", fullmatch=True)


@_props
@given(st.lists(_word, min_size=1, max_size=4))
def test_slugify_and_display_name_are_inverse_for_simple_names(words: list[str]) -> None:
    name = " ".join(words)
    slug = slugify(name)
    assert slug == "-".join(words)
    assert display_name(slug) == name
    assert slugify(display_name(slug)) == slug
    assert find_entities(f"ask @{slug}: now") == (slug,)


@_props
@given(st.text(max_size=200))
def test_find_entities_are_valid_slugs_in_order(text: str) -> None:
    entities = find_entities(text)
    assert len(set(entities)) == len(entities)
    for slug in entities:
        assert slug[0].isalpha() and not slug.endswith("-")
        assert "@" + slug in text
