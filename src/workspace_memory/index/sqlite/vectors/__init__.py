"""The SQLite store's vectors: one package, one façade (what the rest of the tree may import).

A vector lives in up to four copies, each derived from the one before:

1. the embedding cache, a table of the index (`embedding_cache`): the truth of the vectors,
   keyed by provider, model and the hash of the embedded text;
2. the HNSW file under `.memory/vectors/` (`hnsw`, its layout in `hnsw_file`), a cache of the
   table that can always be rebuilt;
3. the int8 copy beside it (`int8_copy`), which a cold reader maps instead of reading the file;
4. the recent file (`recent_file`), a small change's vectors laid over the HNSW file.

Which copies are current, and what to do about the others, is one pure function
(`currency.decide`); `sync` carries the decision out (embed what is missing, open, update and save
the files); `live` keeps a long-lived process's loaded vectors current edit by edit; `windows`
maps entries that share one vector. `sqlite_vectors.SqliteVectors` is the store's
`index.base.VectorIndex` over all of them.

Callers outside this package use the names below only. They are imported on first use: a
lexical recall imports this package's name but never numpy or hnswlib. (No `TYPE_CHECKING`
imports here: the package would then import the modules that import it, a circle to
`tests/test_architecture.py`.)
"""

from __future__ import annotations

from importlib import import_module

# name -> the module of this package that defines it
_FACADE = {
    "SqliteVectors": "sqlite_vectors",
    "EmbeddingCache": "embedding_cache",
    "from_blob": "embedding_cache",
    "to_blob": "embedding_cache",
    "built_with": "sync",
    "record_model": "sync",
    "missing_vectors": "sync",
    "store_path": "sync",
}

__all__ = ["EmbeddingCache", "SqliteVectors", "built_with", "from_blob", "missing_vectors", "record_model",
           "store_path", "to_blob"]


def __getattr__(name: str):
    module = _FACADE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
