"""The per-user model cache without a model: where it is, how exports are checked, leftovers swept.

The real export (torch -> ONNX) is tested in test_embed_local.py; here the files are stand-ins, which
is all the cache's bookkeeping looks at.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workspace_memory.embed import model_cache as mc
from workspace_memory.embed.onnx_encoder import token_batches


def test_cache_root_prefers_memory_cache_dir_then_xdg_then_home(tmp_path: Path) -> None:
    assert mc.cache_root({"MEMORY_CACHE_DIR": str(tmp_path / "m"), "XDG_CACHE_HOME": "/x"}) == tmp_path / "m"
    assert mc.cache_root({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "workspace-memory"
    assert mc.cache_root({"MEMORY_CACHE_DIR": "", "XDG_CACHE_HOME": ""}) == (
        Path.home() / ".cache" / "workspace-memory"
    )


def _model_folder(root: Path) -> Path:
    folder = root / "model"
    (folder / "1_Pooling").mkdir(parents=True)
    (folder / "config.json").write_text('{"hidden_size": 4}')
    (folder / "1_Pooling" / "config.json").write_text('{"word_embedding_dimension": 4}')
    (folder / "model.safetensors").write_bytes(os.urandom(4096))
    (folder / "README.md").write_text("prose")
    (folder / ".gitattributes").write_text("*.bin lfs")
    return folder


def test_source_fingerprint_follows_content_and_remembers_hashes(tmp_path: Path, monkeypatch) -> None:
    folder, cache = _model_folder(tmp_path), tmp_path / "cache"
    first = mc.source_fingerprint(folder, cache)
    assert [p.name for p in mc.source_files(folder)] == ["config.json", "config.json", "model.safetensors"]

    hashed: list[str] = []
    real = mc.file_sha256
    monkeypatch.setattr(mc, "file_sha256", lambda p: hashed.append(Path(p).name) or real(p))
    assert mc.source_fingerprint(folder, cache) == first and hashed == []  # stats only
    (folder / "README.md").write_text("other prose")  # not part of the model
    assert mc.source_fingerprint(folder, cache) == first and hashed == []

    weights = folder / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[100] ^= 0xFF  # same size, new content, new mtime
    weights.write_bytes(bytes(data))
    os.utime(weights, ns=(time.time_ns(), time.time_ns() + 10_000_000))
    changed = mc.source_fingerprint(folder, cache)
    assert changed != first and hashed == ["model.safetensors"]


def _export(tmp_path: Path) -> tuple[Path, dict]:
    directory = tmp_path / "onnx" / "m-0123456789abcdef"
    directory.mkdir(parents=True)
    (directory / "model.onnx").write_bytes(b"graph" * 100)
    (directory / "model.onnx.data").write_bytes(os.urandom(8192))
    (directory / "tokenizer.json").write_text('{"model": {}}')
    meta = {"format": 2, "files": mc.record_files(directory, ["model.onnx", "model.onnx.data", "tokenizer.json"])}
    (directory / mc.META).write_text(json.dumps(meta))
    return directory, mc.read_meta(directory)


def _bump_mtime(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


def test_a_sound_export_is_trusted_on_stat_and_rehashed_once_when_touched(tmp_path: Path) -> None:
    directory, meta = _export(tmp_path)
    assert mc.damage(directory, meta) is None
    _bump_mtime(directory / "model.onnx.data")  # copied or touched, same bytes
    assert mc.damage(directory, meta) is None
    recorded = json.loads((directory / mc.META).read_text())["files"]["model.onnx.data"]["mtime_ns"]
    assert recorded == (directory / "model.onnx.data").stat().st_mtime_ns  # not hashed again next time


@pytest.mark.parametrize(
    ("name", "spoil", "expected"),
    [
        ("model.onnx.data", lambda p: p.write_bytes(p.read_bytes()[:1000]), "bytes"),
        ("tokenizer.json", lambda p: p.write_bytes(b"\x00" * p.stat().st_size), "sha256"),
        ("model.onnx", lambda p: p.unlink(), "missing"),
    ],
)
def test_a_damaged_export_file_is_named(tmp_path: Path, name, spoil, expected) -> None:
    directory, meta = _export(tmp_path)
    spoil(directory / name)
    if (directory / name).exists():
        _bump_mtime(directory / name)
    problem = mc.damage(directory, meta)
    assert problem is not None and name in problem and expected in problem


def test_garbage_meta_is_an_error_and_discard_removes_the_folder(tmp_path: Path) -> None:
    directory, _ = _export(tmp_path)
    (directory / mc.META).write_bytes(os.urandom(64))
    with pytest.raises(ValueError):
        mc.read_meta(directory)
    (directory / mc.META).write_text('{"format": 2}')
    with pytest.raises(ValueError, match="lists no files"):
        mc.read_meta(directory)
    mc.discard(directory)
    assert list(directory.parent.iterdir()) == []
    mc.discard(directory)  # already gone: nothing to do


def test_publish_renames_a_complete_export_into_place_over_a_damaged_one(tmp_path: Path) -> None:
    old, _ = _export(tmp_path)
    (old / "model.onnx.data").write_bytes(b"short")
    tmp = mc.new_temp_dir(old.parent)
    (tmp / "model.onnx").write_bytes(b"new")
    mc.publish(tmp, old)
    assert (old / "model.onnx").read_bytes() == b"new" and not (old / "model.onnx.data").exists()
    assert sorted(p.name for p in old.parent.iterdir()) == [old.name]


def test_sweep_removes_leftovers_of_dead_or_old_exports_only(tmp_path: Path) -> None:
    parent = tmp_path / "onnx"
    live = mc.new_temp_dir(parent)  # this process: alive, fresh
    dead_pid = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True).stdout.strip()
    dead = parent / f".tmp-{mc._host_tag()}-{dead_pid}-abcd1234"
    dead.mkdir()
    (dead / "model.onnx").write_bytes(b"half")
    old = parent / f".tmp-otherhost-{os.getpid()}-00000000"
    old.mkdir()
    os.utime(old, (time.time() - 2 * mc.STALE_TEMP_SECONDS,) * 2)
    other = parent / ".tmp-otherhost-1-11111111"  # another machine, recent: may still be running
    other.mkdir()
    trash = parent / ".trash-m-0123-ffff"
    trash.mkdir()
    published = parent / "m-0123456789abcdef"
    published.mkdir()

    removed = mc.sweep_stale(parent)
    assert sorted(removed) == sorted([dead.name, old.name, trash.name])
    assert sorted(p.name for p in parent.iterdir()) == sorted([live.name, other.name, published.name])


def test_the_export_lock_lets_one_holder_in(tmp_path: Path) -> None:
    directory = tmp_path / "onnx" / "m-0123"
    with mc.export_lock(directory, wait=0) as first:
        assert first
        with mc.export_lock(directory, wait=0.1) as second:
            assert not second
    with mc.export_lock(directory, wait=0) as again:
        assert again


def test_token_batches_sort_by_length_and_respect_the_budget() -> None:
    lengths = [5, 300, 7, 256, 12, 3, 100, 100, 9] * 20
    batches = list(token_batches(lengths, max_batch=8, budget=1024))
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) <= 8
        assert len(batch) == 1 or len(batch) * max(lengths[i] for i in batch) <= 1024
        assert [lengths[i] for i in batch] == sorted(lengths[i] for i in batch)
    assert list(token_batches([])) == []


def test_bytecode_is_not_part_of_a_source(tmp_path: Path) -> None:
    folder = _model_folder(tmp_path)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"compiled")
    assert "x.cpython-311.pyc" not in [p.name for p in mc.source_files(folder)]


def test_find_or_build_builds_once_and_a_failed_build_leaves_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "cache" / "kind" / "thing-0123"
    calls: list[Path] = []

    def build(tmp: Path) -> dict:
        calls.append(tmp)
        (tmp / "data.bin").write_bytes(b"payload")
        meta = {"format": 1, "identity": "thing", "files": mc.record_files(tmp, ["data.bin"])}
        (tmp / mc.META).write_text(json.dumps(meta))
        return meta

    def broken(tmp: Path) -> dict:
        (tmp / "data.bin").write_bytes(b"half")
        raise RuntimeError("simulated failure")

    with pytest.raises(RuntimeError, match="simulated"):
        mc.find_or_build(directory, "thing", 1, broken, wait=5, what="a thing")
    assert [p.name for p in directory.parent.iterdir() if not p.name.startswith(".lock-")] == []
    meta, problem, built = mc.find_or_build(directory, "thing", 1, build, wait=5, what="a thing")
    assert built and problem is None and (directory / "data.bin").read_bytes() == b"payload"
    assert mc.find_or_build(directory, "thing", 1, build, wait=5, what="a thing") == (meta, None, False)
    (directory / "data.bin").write_bytes(b"PAYLOAD")  # same size, other bytes
    _, problem, built = mc.find_or_build(directory, "thing", 1, build, wait=5, what="a thing")
    assert built and "sha256" in problem and len(calls) == 2
    assert mc.find_or_build(directory, "other", 1, build, wait=5, what="a thing")[1:] == (
        "meta.json describes another export", True)
