"""Markdown -> chunks and Retain facts: exact line ranges, frontmatter, headings, facts, splitting."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import WORKSPACE_FILES
from workspace_memory.markdown.parse import normalize_newlines, parse_markdown, split_to_fit
from workspace_memory.markdown.retain import DEFAULT_OPINION_CONFIDENCE
from workspace_memory.tokens import CHUNK_TOKENS, estimate_tokens

DAY = date(2025, 11, 27)


def file_lines(text: str) -> list[str]:
    return normalize_newlines(text).split("\n")


def claimed(text: str, chunk) -> str:
    return "\n".join(file_lines(text)[chunk.start_line - 1 : chunk.end_line])


def assert_chunks_match_file(text: str, doc) -> None:
    n = len(file_lines(text))
    for chunk in doc.chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= n, chunk
        assert estimate_tokens(chunk.text) <= CHUNK_TOKENS
        lines = claimed(text, chunk)
        if estimate_tokens(lines) <= CHUNK_TOKENS:  # not split: the chunk is exactly those lines
            assert chunk.text.rstrip() == lines.rstrip(), (chunk, lines)
        else:  # a piece of a long entry: its text comes from the lines it claims
            assert "".join(chunk.text.split()) in "".join(lines.split())


# ------------------------------------------------------------------------------------------ line ranges


@pytest.mark.parametrize("rel", sorted(WORKSPACE_FILES))
def test_fixture_files_line_ranges_as_on_disk(rel: str, workspace: Path) -> None:
    """Every chunk of every realistic file claims lines that, sliced from the file on disk, are its text."""
    raw = (workspace / rel).read_bytes().decode("utf-8")
    doc = parse_markdown(raw)
    assert doc.chunks, rel
    disk = raw.split("\n")
    for chunk in doc.chunks:
        assert chunk.text.rstrip() == "\n".join(disk[chunk.start_line - 1 : chunk.end_line]).rstrip()


def test_exact_line_ranges_for_each_block_kind() -> None:
    text = (
        "# Title\n"  # 1
        "\n"  # 2
        "First paragraph line one\n"  # 3
        "line two of it.\n"  # 4
        "\n"  # 5
        "- item one\n"  # 6
        "- item two\n"  # 7
        "  continued\n"  # 8
        "\n"  # 9
        "```python\n"  # 10
        "x = 1\n"  # 11
        "\n"  # 12
        "y = 2\n"  # 13
        "```\n"  # 14
        "\n"  # 15
        "| a | b |\n"  # 16
        "|---|---|\n"  # 17
        "| 1 | 2 |\n"  # 18
        "\n"  # 19
        "> quoted\n"  # 20
        "> more\n"  # 21
    )
    doc = parse_markdown(text)
    ranges = [(c.start_line, c.end_line) for c in doc.chunks]
    assert ranges == [(3, 4), (6, 6), (7, 8), (10, 14), (16, 18), (20, 21)]
    assert_chunks_match_file(text, doc)
    assert doc.chunks[3].text == "```python\nx = 1\n\ny = 2\n```"


def test_crlf_line_numbers_match_lf() -> None:
    lf = "# T\n\npara one\n\n## Retain\n- W @Peter: fact one\n- B @Peter: fact two\n"
    crlf = lf.replace("\n", "\r\n")
    a, b = parse_markdown(lf), parse_markdown(crlf)
    assert [(c.start_line, c.end_line, c.text) for c in a.chunks] == [
        (c.start_line, c.end_line, c.text) for c in b.chunks
    ]
    assert all("\r" not in c.text for c in b.chunks)


def test_frontmatter_kept_out_of_chunks_but_lines_stay_true() -> None:
    text = (
        "---\n"  # 1
        "name: Peter Steinberger\n"  # 2
        "aliases: [Pete, steipete]\n"  # 3
        "---\n"  # 4
        "# Peter\n"  # 5
        "\n"  # 6
        "Founder of the relay.\n"  # 7
        "\n"  # 8
        "- Likes espresso.\n"  # 9
    )
    doc = parse_markdown(text)
    assert doc.meta == {"name": "Peter Steinberger", "aliases": ["Pete", "steipete"]}
    assert doc.title == "Peter Steinberger"
    assert not doc.warnings
    assert [(c.start_line, c.end_line, c.text) for c in doc.chunks] == [
        (7, 7, "Founder of the relay."),
        (9, 9, "- Likes espresso."),
    ]
    assert all("aliases" not in c.text and "name:" not in c.text for c in doc.chunks)
    assert_chunks_match_file(text, doc)


def test_broken_frontmatter_is_a_warning_at_line_one_and_still_hidden() -> None:
    text = "---\nname: [unclosed\n---\n# Page\n\nBody text.\n"
    doc = parse_markdown(text)
    assert doc.meta == {}
    assert len(doc.warnings) == 1 and doc.warnings[0][0] == 1
    assert "frontmatter" in doc.warnings[0][1]
    assert [(c.start_line, c.text) for c in doc.chunks] == [(6, "Body text.")]


def test_non_mapping_frontmatter_is_a_warning() -> None:
    doc = parse_markdown("---\n- a\n- b\n---\nBody.\n")
    assert doc.meta == {}
    assert [w[0] for w in doc.warnings] == [1]
    assert [(c.start_line, c.text) for c in doc.chunks] == [(5, "Body.")]


def test_unclosed_frontmatter_fence_is_not_frontmatter() -> None:
    text = "---\nnot: closed\n\nStill body text.\n"
    doc = parse_markdown(text)
    assert doc.meta == {}
    assert any("Still body text." in c.text for c in doc.chunks)
    assert_chunks_match_file(text, doc)


def test_file_with_only_frontmatter() -> None:
    doc = parse_markdown("---\nname: X\n---\n")
    assert doc.chunks == []
    assert doc.meta == {"name": "X"}
    assert doc.warnings == []


def test_heading_path() -> None:
    text = "# A\n\n## B\n\n### C\n\nunder c\n\n## D\n\nunder d\n\n# E\n\nunder e\n"
    doc = parse_markdown(text)
    assert [(c.text, c.heading) for c in doc.chunks] == [
        ("under c", "A > B > C"),
        ("under d", "A > D"),
        ("under e", "E"),
    ]
    assert doc.title == "A"


def test_html_comments_are_not_chunks() -> None:
    doc = parse_markdown("# P\n\n<!-- a note to self -->\n\nreal text\n")
    assert [c.text for c in doc.chunks] == ["real text"]


def test_reflect_generated_regions_are_not_indexed_but_hand_text_is() -> None:
    text = "# P\n\nmine\n\n<!-- reflect:begin entity -->\n- copy of a fact\n<!-- reflect:end entity -->\n\nafter\n"
    doc = parse_markdown(text)
    assert [(c.text, c.start_line) for c in doc.chunks] == [("mine", 3), ("after", 9)]


# ------------------------------------------------------------------------------------------ Retain facts


RETAIN_DOC = """\
# 2025-11-27

## Notes
- W @Peter: a note that looks like a fact is not one outside Retain.

## Retain
- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for @Andy's birthday.
- B @warelay: I fixed the Baileys WS crash (see memory/2025-11-27.md).
- O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp.
- O @Peter: Likes espresso.
- S @Peter: Travels often;
  mostly reachable on WhatsApp.
- w @Peter: lowercase prefix is malformed
- Just some text without a prefix.
- W @The-Castle: The roof leaks.
  - B @The-Castle: I called the roofer.

## After
- B @Peter: outside Retain again.
"""


def test_each_retain_bullet_is_a_fact() -> None:
    doc = parse_markdown(RETAIN_DOC, DAY)
    facts = [c for c in doc.chunks if c.fact is not None]
    summary = [(c.start_line, c.end_line, c.kind, c.entities, c.fact.confidence) for c in facts]
    assert summary == [
        (7, 7, "world", ("Peter", "Andy"), None),
        (8, 8, "experience", ("warelay",), None),
        (9, 9, "opinion", ("Peter",), 0.95),
        (10, 10, "opinion", ("Peter",), DEFAULT_OPINION_CONFIDENCE),
        (11, 12, "observation", ("Peter",), None),
        (15, 15, "world", ("The-Castle",), None),
        (16, 16, "experience", ("The-Castle",), None),
    ]
    marrakech = facts[0].fact
    assert marrakech.content == "Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday."
    assert marrakech.occurred is not None
    assert (marrakech.occurred.start, marrakech.occurred.end) == (date(2025, 11, 27), date(2025, 12, 1))
    assert facts[5].fact.content.startswith("The Castle")
    assert all(c.heading == "2025-11-27 > Retain" for c in facts)
    # Bullets outside ## Retain are notes even when they look like facts.
    outside = [c for c in doc.chunks if c.start_line in (4, 19)]
    assert [c.kind for c in outside] == ["note", "note"]
    assert_chunks_match_file(RETAIN_DOC, doc)


def test_malformed_bullets_become_notes_with_warnings_at_their_lines() -> None:
    doc = parse_markdown(RETAIN_DOC, DAY)
    warned = sorted(line for line, _ in doc.warnings)
    assert warned == [13, 14]
    by_line = {c.start_line: c for c in doc.chunks}
    for line in (13, 14):
        assert by_line[line].kind == "note"
        assert by_line[line].fact is None
        assert by_line[line].text == RETAIN_DOC.split("\n")[line - 1]
    assert "uppercase" in dict(doc.warnings)[13]
    assert by_line[13].entities == ("Peter",)  # still findable by its mention


def test_retain_chunks_never_straddle_two_bullets() -> None:
    doc = parse_markdown(RETAIN_DOC, DAY)
    lines = RETAIN_DOC.split("\n")
    bullet_lines = {n for n, line in enumerate(lines, 1) if line.lstrip().startswith("- ")}
    for chunk in doc.chunks:
        covered = bullet_lines & set(range(chunk.start_line, chunk.end_line + 1))
        assert len(covered) == 1, (chunk, covered)


def test_retain_heading_variants() -> None:
    for heading in ("## Retain", "### retain", "## Retain:", "# RETAIN"):
        doc = parse_markdown(f"# Day\n\n{heading}\n- W @Peter: fact\n", DAY)
        assert [c.kind for c in doc.chunks] == ["world"], heading
    doc = parse_markdown("# Day\n\n## Retained items\n- W @Peter: fact\n", DAY)
    assert [c.kind for c in doc.chunks] == ["note"]


def test_retain_section_ends_at_same_level_heading() -> None:
    doc = parse_markdown("## Retain\n- W @A: one\n### Sub\n- W @B: two\n## Other\n- W @C: three\n", DAY)
    assert [c.kind for c in doc.chunks] == ["world", "world", "note"]


@st.composite
def retain_sections(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    """A Retain section of random bullets; returns (text, [(first line, last line, prefix)])."""
    prefixes = ["W", "B", "S", "O", "O(c=0.3)", "O(c=1)", "w", "X", "O(c=abc)", ""]
    words = st.text(alphabet="abcdefghij @-:.,()", min_size=0, max_size=30)
    lines = ["# Day", "", "## Retain"]
    spans = []
    for _ in range(draw(st.integers(1, 8))):
        prefix = draw(st.sampled_from(prefixes))
        body = draw(words).replace("\n", " ")
        first = len(lines) + 1
        lines.append(f"- {prefix} @Peter: said {body}".rstrip())
        for _ in range(draw(st.integers(0, 2))):
            lines.append("  continued " + draw(st.text(alphabet="klmnop ", max_size=10)))
        spans.append((first, len(lines), prefix))
        if draw(st.booleans()):
            lines.append("")
    return "\n".join(lines) + "\n", spans


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(retain_sections())
def test_property_retain_bullets_one_chunk_each(section: tuple[str, list[tuple[int, int, str]]]) -> None:
    text, spans = section
    doc = parse_markdown(text, DAY)
    for chunk in doc.chunks:
        owners = [s for s in spans if s[0] <= chunk.start_line and chunk.end_line <= s[1]]
        assert len(owners) == 1, (chunk, spans)
    starts = {c.start_line: c for c in doc.chunks}
    warned = {line for line, _ in doc.warnings}
    for first, _last, prefix in spans:
        assert first in starts, f"bullet at line {first} lost"
        chunk = starts[first]
        if prefix in ("W", "B", "S", "O", "O(c=0.3)", "O(c=1)"):
            assert chunk.fact is not None, chunk
            assert chunk.kind == {"W": "world", "B": "experience", "S": "observation"}.get(prefix, "opinion")
            assert "Peter" in chunk.entities
        else:
            assert chunk.fact is None and chunk.kind == "note"
            assert first in warned
    assert_chunks_match_file(text, doc)


# ------------------------------------------------------------------------------------------ long entries


def test_long_paragraph_is_split_within_the_budget() -> None:
    para = "\n".join(f"Line {n} of a long paragraph about the relay and its reconnect logic." for n in range(60))
    text = "# Long\n\n" + para + "\n\nAfter.\n"
    doc = parse_markdown(text)
    pieces = [c for c in doc.chunks if c.text != "After."]
    assert len(pieces) > 1
    assert_chunks_match_file(text, doc)
    covered = sorted({n for c in pieces for n in range(c.start_line, c.end_line + 1)})
    assert covered == list(range(3, 63)), "every line of the paragraph is in some piece"
    assert "".join(c.text for c in pieces).replace("\n", "") == para.replace("\n", "")
    assert doc.chunks[-1].text == "After." and doc.chunks[-1].start_line == 64


def test_single_huge_line_is_cut_into_pieces_on_its_line() -> None:
    line = " ".join(f"word{n}" for n in range(5000))
    text = f"# Huge\n\n{line}\n"
    doc = parse_markdown(text)
    assert len(doc.chunks) > 10
    assert all(c.start_line == c.end_line == 3 for c in doc.chunks)
    assert all(estimate_tokens(c.text) <= CHUNK_TOKENS for c in doc.chunks)
    assert "".join(c.text for c in doc.chunks).replace(" ", "") == line.replace(" ", "")


def test_long_cjk_text_is_split_within_the_budget() -> None:
    text = "# 长\n\n" + "数据库迁移已经完成明天检查备份" * 60 + "\n"
    doc = parse_markdown(text)
    assert len(doc.chunks) > 1
    assert all(estimate_tokens(c.text) <= CHUNK_TOKENS for c in doc.chunks)


def test_long_retain_fact_fits_the_budget_and_stays_one_fact() -> None:
    bullet = "- W @Peter: " + " ".join(f"detail{n}" for n in range(300))
    text = f"# Day\n\n## Retain\n{bullet}\n- B @Peter: short one.\n"
    doc = parse_markdown(text, DAY)
    assert all(estimate_tokens(c.text) <= CHUNK_TOKENS for c in doc.chunks), [
        estimate_tokens(c.text) for c in doc.chunks
    ]
    facts = [c for c in doc.chunks if c.fact is not None]
    assert [(c.start_line, c.kind) for c in facts] == [(4, "world"), (5, "experience")]
    assert facts[0].fact.content.endswith("detail299")
    assert all(c.start_line == c.end_line == 4 for c in doc.chunks if c.start_line == 4)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=3000), st.integers(min_value=5, max_value=300))
def test_property_split_to_fit(raw: str, limit: int) -> None:
    pieces = split_to_fit(raw, limit)
    n_lines = raw.count("\n") + 1
    for _idx, first, last, piece in pieces:
        assert 0 <= first <= last < n_lines
        assert estimate_tokens(piece) <= limit or estimate_tokens(raw) <= limit
    # nothing but whitespace is lost
    assert "".join("".join(p[3] for p in pieces).split()) == "".join(raw.split())


# ------------------------------------------------------------------------------------------ properties


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["", "---\nname: x\n---\n", "---\n: [\n---\n", "# T\n## Retain\n", "## Retain\n- W "]),
    st.text(max_size=600),
    st.one_of(st.none(), st.dates()),
)
def test_property_arbitrary_text_never_raises_and_lines_are_true(prefix: str, body: str, day: date | None) -> None:
    text = prefix + body
    doc = parse_markdown(text, day)
    n = len(file_lines(text))
    assert_chunks_match_file(text, doc)
    for line, message in doc.warnings:
        assert 1 <= line <= n and message


MARKDOWN_PIECES = [
    "# Head\n", "## Retain\n", "### Sub\n", "- W @Peter: fact\n", "- O(c=0.4) @A-b: op\n", "- w bad\n",
    "- plain item\n", "  continued\n", "    indented code\n", "```\n", "~~~py\n", "| a | b |\n", "|---|---|\n",
    "> quote\n", "1. one\n", "---\n", "title: t\n", "<!-- c -->\n", "<div>\n", "\n", "\n", "text line\n",
    "数据库\n", "東京で\n", "\r\n", "\t- tab\n", "* star\n", "+ plus\n", "- [ ] task\n", "Setext\n===\n",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(MARKDOWN_PIECES), max_size=40).map("".join), st.one_of(st.none(), st.dates()))
def test_property_markdown_like_text(text: str, day: date | None) -> None:
    doc = parse_markdown(text, day)
    assert_chunks_match_file(text, doc)
    last_fact = None
    for chunk in doc.chunks:
        if chunk.fact is not None:
            assert chunk.kind in ("world", "experience", "opinion", "observation")
            assert chunk.kind == chunk.fact.kind
            assert chunk.fact.confidence is None or 0.0 <= chunk.fact.confidence <= 1.0
            last_fact = chunk
        elif chunk.kind != "note":  # only the continuation piece of a long fact keeps its kind
            assert last_fact is not None and last_fact.kind == chunk.kind, chunk
            assert last_fact.start_line <= chunk.start_line


def test_blocks_inside_retain_items_stay_searchable() -> None:
    text = (
        "## Retain\n"  # 1
        "- ```\n"  # 2
        "  code-first item\n"  # 3
        "  ```\n"  # 4
        "- W @Peter: the fact\n"  # 5
        "\n"  # 6
        "  a second paragraph of the same item\n"  # 7
        "- B @Peter: next fact\n"  # 8
    )
    doc = parse_markdown(text, DAY)
    summary = [(c.start_line, c.end_line, c.kind) for c in doc.chunks]
    assert summary == [(2, 4, "note"), (5, 5, "world"), (7, 7, "note"), (8, 8, "experience")]
    assert_chunks_match_file(text, doc)


def test_a_short_section_under_a_statement_heading_is_one_entry() -> None:
    text = ("# Opinions\n\n## Peter: Likes green tea\n<!-- a note to self -->\n- entities: @Peter\n"
            "- confidence: 0.85\n\n## Notes\n- one\n- two\n")
    doc = parse_markdown(text)
    assert [(c.start_line, c.end_line) for c in doc.chunks] == [(3, 6), (9, 9), (10, 10)]
    merged = doc.chunks[0]
    assert merged.text == "## Peter: Likes green tea\n<!-- a note to self -->\n- entities: @Peter\n- confidence: 0.85"
    assert merged.entities == ("Peter",)


def test_an_opinion_section_reflect_wrote_is_not_an_entry_and_its_markers_never_show() -> None:
    """reflect's opinion sections restate facts indexed where they were written (issue 28): the
    section with its marker, fields and evidence is left out; a person's own text around it is kept."""
    text = ("# Opinions\n\nIntro a person wrote.\n\n## Peter: Likes green tea\n<!-- reflect:opinion x -->\n"
            "- entities: @Peter\n- confidence: 0.85\n\n<!-- reflect:begin evidence -->\nSupporting evidence:\n"
            "- [memory/2025-11-20.md#L8](../memory/2025-11-20.md#L8)\n<!-- reflect:end evidence -->\n\n"
            "## Peter: Hates loud cafes\n- confidence: 0.6\n\n<!-- reflect:state x -->\n")
    doc = parse_markdown(text)
    assert [(c.start_line, c.end_line) for c in doc.chunks] == [(3, 3), (15, 16)]
    assert not any("reflect:" in c.text or "Likes green tea" in c.text for c in doc.chunks)
    assert doc.chunks[1].text == "## Peter: Hates loud cafes\n- confidence: 0.6"
