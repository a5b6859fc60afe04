"""Which copy of the vectors is current, and what to do with each: one pure function, `decide`.

The embedding cache in SQLite is the truth; the HNSW file, its int8 copy and the recent file are
caches of it (see the package's docstring). Each is found in one of these states:

- MISSING: no file (the recent file: one is recorded in `meta`, and its file is gone);
- DAMAGED: a file that cannot be read, fails its checksum, or is of an older format;
- FOREIGN: a whole file, made for something else: the HNSW file for another model or dimension,
  the int8 copy or the recent file for another HNSW file;
- STALE: a whole file of this space that is behind the chunks (the index generation it records
  is not the current one);
- CURRENT: what the chunks hold now;
- NONE (the recent file only): none is recorded, and a file there is not looked at.

`decide` turns the states into a Plan; `sync.open_store` and `hnsw.VectorStore.load` observe the
states (file reads, checksums, the `meta` records) and carry the plan out. A reader never writes:
what a writer repairs on disk, a reader repairs in memory. `tests/test_vector_currency.py` holds
every combination against the rules below.
"""

from __future__ import annotations

from dataclasses import dataclass

MISSING, DAMAGED, FOREIGN, STALE, CURRENT, NONE = "missing", "damaged", "foreign", "stale", "current", "none"
HNSW_STATES = (MISSING, DAMAGED, FOREIGN, STALE, CURRENT)
INT8_STATES = (MISSING, DAMAGED, FOREIGN, CURRENT)  # the copy of one HNSW file: never behind it
RECENT_STATES = (NONE, MISSING, DAMAGED, FOREIGN, STALE, CURRENT)

# Plan.hnsw
USE, CATCH_UP, REBUILD = "use", "catch up", "rebuild"
# Plan.recent
LAY_OVER, DROP, IGNORE = "lay over", "drop", "ignore"
# Plan.int8
MAP, READ_WHOLE, KEEP, WRITE = "map", "read whole", "keep", "write"

RECENT_NOT_USED = "recent vector file not used (damaged, or for another vector file); its vectors come from SQLite"

# The loader's reasons (hnsw.VectorStore._load_file) by the state they are.
_REASONS = {"file missing": MISSING, "file corrupt": DAMAGED, "file format changed": DAMAGED,
            "embedding model changed": FOREIGN}


@dataclass(frozen=True)
class Plan:
    """What to do with each copy: `hnsw` USE (as loaded), CATCH_UP (apply the chunks changed since
    it was saved, by id) or REBUILD (from SQLite); `recent` LAY_OVER (its vectors over the HNSW
    file's), DROP (delete it: the HNSW file it extends is gone, or it cannot be used) or IGNORE;
    `int8` MAP or READ_WHOLE (a reader), KEEP or WRITE (a writer, for the next cold reader);
    `notices` what to tell the user."""

    hnsw: str
    recent: str
    int8: str
    notices: tuple[str, ...] = ()


def hnsw_state(reason: str | None, behind: bool = False) -> str:
    """The HNSW file's state from what its loader found (`reason`: None, or why the file cannot be
    used) and whether the generation it is recorded complete at is behind the chunks' (`behind`)."""
    if reason is None:
        return STALE if behind else CURRENT
    if reason.startswith("dimension changed"):
        return FOREIGN
    return _REASONS.get(reason, DAMAGED)  # "stale: n vectors in file, m in SQLite" too: a count that lies


def recent_state(recorded: int | None, exists: bool, readable: bool, base_matches: bool,
                 generation: int | None) -> str:
    """The recent file's state: `recorded` is the generation `meta` says it is complete at (None:
    none recorded); `readable` whether it parsed for this space; `base_matches` whether it extends
    the HNSW file loaded; `generation` the one it says it is complete at."""
    if recorded is None:
        return NONE
    if not exists:
        return MISSING
    if not readable:
        return DAMAGED
    if not base_matches:
        return FOREIGN
    return CURRENT if generation == recorded else STALE


def decide(hnsw: str, recent: str = NONE, int8: str = MISSING, *, writer: bool, why: str = "",
           first: bool = False) -> Plan:
    """What to do with each copy, given their states (see the module docstring).

    `writer`: the indexer (it saves what it repairs) rather than a reader; `why`: the loader's
    reason, for the notice; `first`: no vectors were ever recorded for this embedder (a first
    build has nothing to report).
    """
    assert hnsw in HNSW_STATES and recent in RECENT_STATES and int8 in INT8_STATES, (hnsw, recent, int8)
    if hnsw in (MISSING, DAMAGED, FOREIGN):
        # Rebuilt from SQLite: every other copy extends or copies a file that is gone.
        notices = () if first else (f"vector index rebuilt from SQLite ({why or hnsw})",)
        return Plan(REBUILD, DROP if writer else IGNORE, WRITE if writer else READ_WHOLE, notices)
    notices: tuple[str, ...] = ()
    if recent in (CURRENT, STALE):
        laid = LAY_OVER
    elif recent in (DAMAGED, FOREIGN):
        laid, notices = DROP if writer else IGNORE, (RECENT_NOT_USED,)
    else:
        laid = IGNORE
    # Behind the chunks: the file, or what is laid over it, or the recent vectors that could not be read.
    behind = hnsw == STALE or recent not in (NONE, CURRENT)
    # The int8 copy: a reader maps a current one; a writer writes one that is not, for the next reader.
    usable, not_usable = (KEEP, WRITE) if writer else (MAP, READ_WHOLE)
    return Plan(CATCH_UP if behind else USE, laid, usable if int8 == CURRENT else not_usable, notices)
