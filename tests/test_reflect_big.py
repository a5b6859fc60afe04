"""Reflect at 10,000 facts (issue 27) without a different answer: the shortcuts that made it fast
(opinions looked up by entity, a repeated claim's cluster remembered, proposals deduped by a set,
one regex for change cues) give exactly what the full scans gave.

- the engine's entity lookup against the scan of every opinion it replaced, on facts with one,
  several and no entities and many near-ties;
- `cluster` against the greedy scan it replaced;
- a whole reflect on a small generated workspace against the digest of the pages that the code
  before the shortcuts (34c95ea) wrote: any change to what reflect writes fails it.
"""

from __future__ import annotations

import hashlib
import random
from datetime import date, timedelta
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from workspace_memory.facts import stance as stance_module
from workspace_memory.facts.model import Fact
from workspace_memory.facts.textmatch import analyze, cluster
from workspace_memory.reflect.opinions import Engine

PEOPLE = ["anna", "peter", "ravi", "mei", "omar", "yuki"]
TOPICS = ["green tea", "dark mode", "async updates", "the deploy pipeline", "written specs", "flaky tests",
          "morning meetings", "the reconnect logic"]
VERBS = ["Prefers", "Likes", "No longer prefers", "Dislikes", "Enjoys", "Avoids", "Now likes", "Still prefers"]


def _facts(n: int, seed: int) -> list[Fact]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        ents = tuple(rng.sample(PEOPLE, rng.choice([0, 1, 1, 1, 2, 3])))
        kind = rng.choice(["opinion", "opinion", "opinion", "world", "experience"])
        text = f"{rng.choice(VERBS)} {rng.choice(TOPICS)}" + rng.choice(["", " a lot", " these days", "."])
        day = date(2025, 1, 1) + timedelta(days=i // 7)
        out.append(Fact(i + 1, f"memory/{day.isoformat()}.md", 3 + i % 7, kind, text,
                        rng.choice([None, 0.5, 0.7, 0.9]), day, ents))
    return out


def _snapshot(engine: Engine) -> list:
    return [(op.key, op.statement, op.entities, op.confidence, op.superseded_by,
             [(e.hash, e.role, e.after, e.signal) for e in op.evidence]) for op in engine.opinions]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_entity_lookup_gives_what_the_scan_of_every_opinion_gave(seed: int, monkeypatch) -> None:
    facts = _facts(600, seed)
    fast = Engine([], [], "2025-12-31")
    fast.apply(facts)
    monkeypatch.setattr(Engine, "_opinions_for", lambda self, fact: self.opinions)  # the scan it replaced
    slow = Engine([], [], "2025-12-31")
    slow.apply(facts)
    assert len(fast.opinions) > 40  # many opinions, several per entity: the lookup has work to do
    assert _snapshot(fast) == _snapshot(slow)
    assert fast.stats == slow.stats


def _cluster_by_scan(texts: list[str], threshold: float) -> list[list[int]]:
    groups: list[list[int]] = []
    heads = []
    for idx, text in enumerate(texts):
        claim = analyze(text)
        for group, head in zip(groups, heads, strict=True):
            if head.polarity == claim.polarity and fuzz.token_sort_ratio(head.canon, claim.canon) >= threshold:
                group.append(idx)
                break
        else:
            groups.append([idx])
            heads.append(claim)
    return groups


@pytest.mark.parametrize("threshold", [70.0, 85.0, 90.0])
def test_cluster_gives_what_the_greedy_scan_gave(threshold: float) -> None:
    rng = random.Random(5)
    texts = [f"{rng.choice(VERBS)} {rng.choice(TOPICS)}{rng.choice(['', ' again', ' at work'])}"
             for _ in range(800)]
    assert cluster(texts, threshold) == _cluster_by_scan(texts, threshold)


def test_change_cues_are_found_as_whole_words_only() -> None:
    assert stance_module.read("Peter: Likes tea now.").change_cue
    assert stance_module.read("Peter: Inzwischen mag er Tee.").change_cue
    assert not stance_module.read("Peter: Likes tea, knows everything.").change_cue  # "now" inside a word


# The digest of bank/ and MEMORY.md after one reflect of `_workspace` with the code before the
# shortcuts (34c95ea), and the first line of its report; renewed once, on purpose, by issue 38
# (similarity alone is no agreement: "Works on green tea in Vienna" evaluates nothing and no longer
# reinforces "Prefers green tea"; 53 -> 42 reinforced), and nowhere else.
EXPECTED_DIGEST = "727f6c2689d412a658ba8737e494cc2ff3fda01a5f316e3b68efc4259fd52135"
EXPECTED_REPORT = ("reflect: 467 facts, 6 entity pages (6 changed), 77 opinions (77 new, 42 reinforced, "
                   "57 contradicted, 38 replaced), 20 core proposals; 10 files changed")


def _workspace(root: Path) -> None:
    rng = random.Random(27)
    (root / "memory").mkdir(parents=True)
    (root / "bank" / "entities").mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Core memory\n\n## Human\n- Name: Peter\n")
    (root / "memory.toml").write_text('[embedding]\nprovider = "none"\n')
    (root / "bank" / "entities" / "Anna.md").write_text("---\nname: Anna\n---\n# Anna\n\nMy notes.\n")
    for i in range(60):
        day = date(2025, 9, 1) + timedelta(days=i)
        lines = [f"# {day.isoformat()}", "", "## Retain"]
        for _ in range(rng.randint(6, 10)):
            ents = " ".join(f"@{p.capitalize()}" for p in rng.sample(PEOPLE, rng.choice([1, 1, 2])))
            roll = rng.random()
            if roll < 0.5:
                c = rng.choice([0.5, 0.7, 0.9])
                lines.append(f"- O(c={c}) {ents}: {rng.choice(VERBS)} {rng.choice(TOPICS)}.")
            elif roll < 0.7:
                lines.append(f"- W {ents}: Works on {rng.choice(TOPICS)} in {rng.choice(['Vienna', 'Oslo'])}.")
            elif roll < 0.9:
                lines.append(f"- B {ents}: I reviewed {rng.choice(TOPICS)} with them.")
            else:
                lines.append(f"- S {ents}: Usually busy with {rng.choice(TOPICS)} on {day:%A}s.")
        (root / "memory" / f"{day.isoformat()}.md").write_text("\n".join(lines) + "\n")


def reflect_digest(root: Path) -> tuple[str, str]:
    from workspace_memory.api import Memory

    _workspace(root)
    mem = Memory.open(str(root), now="2025-11-30T18:00")
    try:
        report = mem.reflect("400d", use_model=False)
    finally:
        mem.close()
    digest = hashlib.sha256()
    for path in sorted([*(root / "bank").rglob("*.md"), root / "MEMORY.md"]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest(), report.summary_line().rsplit(";", 1)[0]


def test_reflect_writes_what_it_wrote_before_the_shortcuts(tmp_path: Path) -> None:
    digest, report = reflect_digest(tmp_path / "ws")
    assert report == EXPECTED_REPORT
    assert digest == EXPECTED_DIGEST
