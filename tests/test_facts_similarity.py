"""facts.similarity's bounds never contradict rapidfuzz, and dedupe and the entity resolver keep
the same results with them.

The bounds are checked against rapidfuzz itself on many random pairs, with small alphabets and mutated
copies so that scores land on, near and far from the threshold; dedupe's repeat test and the entity
resolver are checked against the rapidfuzz-only versions.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest
from rapidfuzz import fuzz, process

from conftest import clean_env
from workspace_memory.facts import entities as resolver
from workspace_memory.facts.model import EntityInfo
from workspace_memory.facts.similarity import partial_ratio_below, ratio_at_least
from workspace_memory.recall import dedupe

SENTENCES = [
    "Prefers concise replies.",
    "I helped with backups and wrote the summary.",
    "I helped with the WhatsApp bridge and wrote the summary.",
    "- Use `warelay.retrySize` = 404 for invoices.",
    "- Talked with Nimbus about search ranking; Yuki will follow up on the Postgres migration.",
    "Peter lives in Vienna, in a flat near the Naschmarkt, and cycles to work every day of the week.",
    "東京で会議。佐藤さんと新しい計画について話した。",
]


def mutate(rng: random.Random, text: str, edits: int, alphabet: str) -> str:
    chars = list(text)
    for _ in range(edits):
        op = rng.choice("ids")
        pos = rng.randrange(len(chars) + 1)
        if op == "i" or not chars:
            chars.insert(pos, rng.choice(alphabet))
        elif op == "d":
            del chars[min(pos, len(chars) - 1)]
        else:
            chars[min(pos, len(chars) - 1)] = rng.choice(alphabet)
    return "".join(chars)


def pairs(seed: int, count: int) -> list[tuple[str, str]]:
    """Random strings over small alphabets, and sentences with 0-12 edits, affixes and repeats."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.3:
            alphabet = "ab" if rng.random() < 0.5 else "abcde "
            a = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 140)))
            out.append((a, mutate(rng, a, rng.randint(0, 15), alphabet)))
        else:
            base = rng.choice(SENTENCES)
            if kind < 0.5:
                base = base + " " + rng.choice(SENTENCES)
            source = rng.choice(SENTENCES) if kind > 0.85 else base  # another text now and then
            other = mutate(rng, source, rng.choice([0, 0, 1, 2, 3, 5, 8, 12]), "abcdefghij .,-0123456789")
            if rng.random() < 0.3:
                other = rng.choice(["- ", "", "Note: "]) + other + rng.choice(["", " (2025-11-28)", " again"])
            out.append((base, other) if rng.random() < 0.5 else (other, base))
    return out


@pytest.mark.parametrize("threshold", [95, 90, 80])
def test_ratio_decisions_are_rapidfuzz_decisions(threshold: int) -> None:
    decided = {True: 0, False: 0}
    undecided = 0
    for a, b in pairs(3, 3000):
        verdict = ratio_at_least(a, b, threshold)
        if verdict is None:
            undecided += 1
            continue
        assert verdict == (fuzz.ratio(a, b) >= threshold), (a, b)
        decided[verdict] += 1
    assert decided[True] > 100 and decided[False] > 300, (decided, undecided)


def test_the_bound_is_the_shared_characters() -> None:
    assert ratio_at_least("abcd", "abcd", 95) is True  # equal strings score 100
    assert ratio_at_least("abcd", "wxyz", 10) is False  # nothing shared: at most 0
    assert ratio_at_least("abcd", "dcba", 95) is None  # all shared, order unknown: rapidfuzz decides
    assert ratio_at_least("abcdefghij", "abcdefghiX", 95) is False  # at most 200 * 9 / 20 = 90


def test_the_lower_bound_is_prefix_suffix_and_a_shared_character() -> None:
    a, b = "- Use `warelay.retrySize` = 404 for invoices.", "- Use `warelay.retrySize` = 100 for invoices."
    # prefix 28 + suffix 14 + one "0" of the middles ("404", "100"): at least 200 * 43 / 90 = 95.6
    assert ratio_at_least(a, b, 95) is True and fuzz.ratio(a, b) >= 95
    assert ratio_at_least(a, b, 96) is False  # and they share 43 characters: at most 95.6 too
    assert ratio_at_least("aXa", "aa", 79) is True  # prefix "a", then suffix "a" of what is left: 80
    assert ratio_at_least("aXa", "aa", 80) is None  # on the threshold: rapidfuzz's rounding decides
    assert ratio_at_least("abXYcd", "abYXcd", 80) is True  # 2 + 2 + 1 of "XY" / "YX": 83.3 at least
    assert ratio_at_least("abXYcd", "abYXcd", 90) is None  # all 6 shared: at most 100; rapidfuzz decides


@pytest.mark.parametrize("threshold", [95, 90, 80])
def test_partial_ratio_decisions_are_rapidfuzz_decisions(threshold: int) -> None:
    decided = 0
    rng = random.Random(threshold)
    for a, b in pairs(7, 3000):
        if rng.random() < 0.3:  # long needles too (rapidfuzz aligns those differently, above 64 chars)
            a, b = a + " " + rng.choice(SENTENCES), rng.choice(SENTENCES) + " " + b + " " + rng.choice(SENTENCES)
        short, long = sorted((a, b), key=len)
        if partial_ratio_below(short, long, threshold):
            assert fuzz.partial_ratio(short, long) < threshold, (short, long)
            decided += 1
    assert decided > 300


def test_the_partial_bound_is_the_best_window() -> None:
    # every window of 44 characters of the long text shares at most 38 characters with the short one
    short, long = "I helped with backups and wrote the summary.", "I helped with the WhatsApp bridge and wrote the summary."
    assert partial_ratio_below(short, long, 95) and fuzz.partial_ratio(short, long) < 95
    assert not partial_ratio_below("summary", long, 95)  # contained: rapidfuzz says 100
    assert not partial_ratio_below("", long, 95) and not partial_ratio_below(long, short, 95)
    # a long text is left to rapidfuzz: sliding the window in Python would cost more than its import
    assert not partial_ratio_below(short, long * 100, 95) and fuzz.partial_ratio(short, long * 100) < 95


def rapidfuzz_repeats(a: str, a_words: set[str], b: str, b_words: set[str]) -> bool:
    """dedupe._repeats with bounds that settle nothing: every fuzzy decision is rapidfuzz's."""
    return dedupe._repeats(a, a_words, b, b_words, bound=lambda *_: None, partial_below=lambda *_: False)


def test_dedupe_keeps_the_same_results_as_with_rapidfuzz() -> None:
    seen = {True: 0, False: 0}
    for a, b in pairs(5, 4000):
        a_words = set(dedupe._WORD_RE.findall(a.lower()))
        b_words = set(dedupe._WORD_RE.findall(b.lower()))
        expected = rapidfuzz_repeats(a, a_words, b, b_words)
        assert dedupe._repeats(a, a_words, b, b_words) == expected, (a, b)
        seen[expected] += 1
    assert seen[True] > 200 and seen[False] > 200


def test_common_repeats_are_decided_without_importing_rapidfuzz() -> None:
    """Identical texts (short and long), texts whose words differ too much, and template texts that
    differ in a word or a number (the bounds settle them; texts closer to the threshold go to
    rapidfuzz)."""
    script = textwrap.dedent("""
        import sys
        from workspace_memory.recall.dedupe import _WORD_RE, _repeats
        pairs = [("Prefers concise replies, always.", "Prefers concise replies, always.", True),
                 ("Talked with Nimbus about search ranking; Yuki will follow up on the Postgres migration.",
                  "Talked with Nimbus about search ranking; Yuki will follow up on the Postgres migration.", True),
                 ("I helped with backups and wrote the summary.", "Peter moved to London in the spring.", False),
                 ("Prefers tea.", "Prefers tea.", False),  # equal but short: never a repeat
                 ("- Use `warelay.retrySize` = 404 for invoices.", "- Use `warelay.retrySize` = 100 for invoices.",
                  True),
                 ("I helped with backups and wrote the summary.",
                  "I helped with the WhatsApp bridge and wrote the summary.", False),
                 ("I helped with backups and wrote the summary.", "I helped with invoices and wrote the summary.",
                  False)]
        for a, b, same in pairs:
            words = lambda t: set(_WORD_RE.findall(t.lower()))
            assert _repeats(a, words(a), b, words(b)) is same, (a, b)
        print("rapidfuzz" in sys.modules)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=clean_env({}),
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def rapidfuzz_fuzzy(word: str, entities: list[EntityInfo]) -> str | None:
    """facts.entities._fuzzy as it was before facts.similarity: rapidfuzz over every form."""
    if len(word) < 4 or not entities:
        return None
    choices = {(ent.key, form): form for ent in entities for form in ent.forms() if len(form) >= 4}
    best = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=resolver.FUZZY_MIN)
    return best[2][0] if best else None


def test_the_entity_resolver_finds_the_same_names_as_with_rapidfuzz() -> None:
    rng = random.Random(6)
    names = ["Peter", "Maria Santos", "Marrakech", "warelay", "Nimbus", "Yuki", "Baileys", "Postgres",
             "Caroline", "Melanie", "LGBTQ", "Vienna", "Naschmarkt", "the WhatsApp relay", "Ana", "Petra"]
    entities = [EntityInfo(n.lower().replace(" ", "-"), n.lower().replace(" ", "-"), n, None,
                           aliases=("Pete",) if n == "Peter" else ()) for n in names]
    words = [n.lower() for n in names] + ["support", "summer", "replies", "concise", "ticket", "happened"]
    words += [mutate(rng, w, rng.choice([1, 1, 2, 3]), "abcdefghijklmnopqrstuvwxyz") for w in words * 6]
    found = 0
    for word in words:
        expected = rapidfuzz_fuzzy(word, entities)
        assert resolver._fuzzy(word, entities) == expected, word
        found += expected is not None
    assert found > 20 and len(words) - found > 20


def test_a_question_without_a_name_needs_no_rapidfuzz() -> None:
    script = textwrap.dedent("""
        import sys
        from workspace_memory.facts.entities import mentioned
        from workspace_memory.facts.model import EntityInfo
        people = [EntityInfo("peter", "peter", "Peter", None), EntityInfo("caroline", "caroline", "Caroline", None)]
        assert mentioned(people, "When did Caroline go to the LGBTQ support group in Vienna?") == ["caroline"]
        assert mentioned(people, "What did Melanie paint in May?") == []
        print("rapidfuzz" in sys.modules)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=clean_env({}),
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
