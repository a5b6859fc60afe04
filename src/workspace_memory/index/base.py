"""The store boundary: everything recall, reflect and the façade need from a derived index.

Markdown is the truth; a store holds what is derived from it (entries, facts, entities, words,
vectors) and can always be rebuilt. Two stores fill this interface:

The interfaces: `Store`, made of the roles its callers use (`RecallReads`, `ReflectReads`,
`VectorRecords`, `Maintenance`), and `VectorIndex` (one embedder's vectors); the write side's port,
`IndexWriter`, is in index.ports, and the one indexer that writes through it (index.indexer)
is driven by the façade, never by a store.

- `index.sqlite.store.SqliteStore`: the embedded default, `.memory/index.sqlite` (FTS5) plus
  an HNSW file per embedder under `.memory/vectors/`;
- `index.postgres.store.PostgresStore`: one database for many workspaces (tsvector, pg_trgm,
  pgvector).

recall/ and reflect/ see only the types of this module: they never write SQL and never learn
which store they talk to. The contract every store keeps:

- Entry ids are integers, never reused, and consecutive within a file in file order, so the
  entries right before and after an entry are `id - 1` and `id + 1` (neighbours, context).
- A row (`ChunkRow`) carries: id, path, start_line, end_line (1-based, inclusive, as on disk),
  entry_start (the first line of the entry the row is a piece of: a long entry is split into
  pieces that share it, and recall returns one result per entry), kind (note | world | experience | opinion | observation), heading, text, role (core | daily |
  bank | note | extra), day (ISO, the day a daily log is about, else None), t_start/t_end (the
  day or the stated time range, ISO, open ends as OPEN_START/OPEN_END), fact_content and
  confidence (facts only), entity_keys and entity_names (lower-cased slugs and display names);
  in a view over several workspaces (`Store.across`), also `workspace` (its name in the store).
- `Filters` are hard filters; each store turns them into its own SQL.
- Lexical: the store finds BM25 candidates (`lexical_pool`) and tells which query terms each
  candidate contains (`term_matches`, with its own tokenizer); recall computes the coverage
  score from those (recall.lexical), so scores mean the same on every store.
- Vectors: one `VectorIndex` per embedder identity; cosines of unit vectors.
- The embedding model: a store remembers the name of the local model its vectors were made with
  (`built_with` / `record_model`, one text value per index; `record_model(None)` forgets it, which
  `memory index --rebuild` does). When the settings name no model, the façade keeps that model
  instead of today's default, so that a new default never silently re-embeds an existing index.

Added for session transcripts and `memory forget` (issue 13; every store implements them):

- Sources. Session transcripts (index.sessions) are entries like any other, with kind and role
  `session`, path `sessions/<file name>`, lines = JSONL lines, and `at`, the message's time
  (ISO UTC; None for Markdown). `Filters.sources` keeps entries of some sources only:
  "memory" (every Markdown entry) and "sessions"; empty = both.
- Validity. A Retain fact struck as no longer true (markdown.retain) has `invalid_at` (ISO day)
  on its facts row and on every chunk of it; `Filters.include_invalid=False` (the default) leaves
  those entries out. `Store.facts()` returns invalid facts too (reflect strikes them), with
  `Fact.invalid_at` / `invalid_reason`, and every fact carries `bullet` (its text as written,
  for export and forget) and `end_line` (its bullet's last line).
- `session_states()`: the read state of each transcript; index.sessions applies what it read
  from them through the store's writer, under its lock (their types are in index.records).
- `purge(pattern, replacement)`: after the caller rewrote the Markdown and synced, rewrite the
  session entries that hold `pattern`, forget cached vectors no entry uses any more, and make
  sure no byte of the text survives in the store's files (free pages, logs, vector files).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from ..values import Value

if TYPE_CHECKING:
    from pathlib import Path

    import numpy as np

    from ..embed.base import Embedder
    from ..facts.model import EntityInfo, Fact
    from .ports import IndexWriter
    from .records import SessionReport, SessionState, VectorUpdate

# Open ends of a stated range ("since March") are stored as far dates so that "overlaps [a, b]"
# stays one indexed comparison: t_start <= b AND t_end >= a.
OPEN_START = "0001-01-01"
OPEN_END = "9999-12-31"
FACT_KINDS = ("world", "experience", "opinion", "observation")
# Seconds a write (`memory index`, a fact marked, a purge, reflect) waits for another writer's lock
# before it gives up busy; reads never wait (wait=0).
INDEX_WAIT = 60.0


def entry_time(day: str | None, stated_start: str | None, stated_end: str | None) -> tuple[str | None, str | None]:
    """The days an entry is about, as ISO text: what --since/--until test (recall and export alike).

    The range a fact states ("Dentist on Dec 3", "since March": open ends as far dates) when it
    states one, else the day it was written; (None, None) for an undated entry (MEMORY.md, a bank
    page), which no time filter keeps. So `--since 3d` keeps a fact written a week ago about an
    appointment tomorrow, and drops one written yesterday about last year.
    """
    if stated_start is None and stated_end is None:
        return day, day
    return stated_start or OPEN_START, stated_end or OPEN_END
SOURCES = ("memory", "sessions")  # where entries come from: workspace Markdown, session transcripts

Progress = Callable[[int, int], None]


# Filters and Term are Values, not frozen dataclasses (values.py): every cold recall imports this
# module. Equal ones compare and hash alike (the read cache keys on terms); replace() stands for
# dataclasses.replace.
class Filters(Value):
    """The hard filters of a recall (--since/--until/--kind/--entity) as data.

    An entry passes when its day, or the time range its fact states, or a day it names ("Dec 4 is
    the API deep-dive"), overlaps [since, until];
    its kind is one of `kinds` ("fact" = any fact kind); and it mentions one of `entity_keys`
    or sits on one of their pages. `window` narrows the time further (browsing a boost window).
    It must also come from one of `sources` (SOURCES; empty = any) and, unless
    `include_invalid`, not be a fact struck as no longer true.
    """

    __slots__ = ("since", "until", "kinds", "entity_keys", "window", "sources", "include_invalid")

    def __init__(self, since: date | None = None, until: date | None = None, kinds: tuple[str, ...] = (),
                 entity_keys: tuple[str, ...] = (), window: tuple[date | None, date | None] | None = None,
                 sources: tuple[str, ...] = (), include_invalid: bool = False) -> None:
        self.since, self.until, self.kinds, self.entity_keys = since, until, kinds, entity_keys
        self.window, self.sources, self.include_invalid = window, sources, include_invalid

    @property
    def empty(self) -> bool:
        """True when nothing narrows the entries by time, kind or entity (sources and validity aside)."""
        return not (self.since or self.until or self.kinds or self.entity_keys or self.window)

    def within(self, window: tuple[date | None, date | None] | None) -> Filters:
        """These filters, narrowed to a time window too (None: unchanged)."""
        if window is None:
            return self
        return self.replace(window=window)

    def source_roles(self) -> tuple[bool, bool]:
        """(keep memory entries, keep session entries)."""
        if not self.sources:
            return True, True
        return "memory" in self.sources, "sessions" in self.sources

    def scoped(self, has_sessions: bool, has_invalid: bool) -> Filters:
        """These filters without the clauses that cannot exclude anything in a store that holds (or
        not) session entries and struck facts: "memory only" while no transcript is indexed, "valid
        only" while no fact is struck. Most workspaces have neither, and a clause costs FTS5 a join on
        every match and pgvector its HNSW index (a filtered scan instead)."""
        changes: dict[str, Any] = {}
        memory, sessions = self.source_roles()
        if memory and not sessions and not has_sessions:
            changes["sources"] = ()
        if not self.include_invalid and not has_invalid:
            changes["include_invalid"] = True
        return self.replace(**changes) if changes else self

    def source_and_validity_sql(self, alias: str = "c") -> list[str]:
        """SQL clauses over chunks `alias` for `sources` and `include_invalid` (no parameters; the
        same in every store's SQL)."""
        clauses = []
        memory, sessions = self.source_roles()
        if not (memory and sessions):
            clauses.append(f"{alias}.role {'<>' if memory else '='} 'session'")
        if not self.include_invalid:
            clauses.append(f"{alias}.invalid_at IS NULL")
        return clauses

    def time_bounds(self) -> list[tuple[str, str]]:
        """(latest start, earliest end) pairs an entry's [t_start, t_end] must overlap, as ISO text."""
        out = []
        for start, end in ((self.since, self.until), self.window or (None, None)):
            if start or end:
                out.append((end.isoformat() if end else OPEN_END, start.isoformat() if start else OPEN_START))
        return out

    def kind_list(self) -> tuple[str, ...]:
        """The kinds to keep, with "fact" spelled out."""
        return FACT_KINDS if "fact" in self.kinds else self.kinds


class Term(Value):
    """One unit of a lexical query: lower-cased words (searched as a phrase) or a CJK run."""

    __slots__ = ("label", "cjk", "stem", "glue")

    def __init__(self, label: str, cjk: bool = False, stem: str | None = None, glue: str | None = None) -> None:
        self.label = label  # "memorysearch query hybrid", or "記憶索引"
        self.cjk = cjk
        # A one-word term of a language the index does not stem (FTS5's Porter is English): the
        # start every form of the word shares ("remplace" -> "remplac", Snowball), searched as a
        # prefix ("remplac*": remplacer, remplaçait) by every store, through its own Porter.
        self.stem = stem
        # An identifier of several words as typed, lower case ("billing.retry_limit" for the label
        # "billing retry_limit"): what the stores look for glued to CJK text (`glued_text`).
        self.glue = glue

    @property
    def words(self) -> list[str]:
        return self.label.split()

    @property
    def glued_text(self) -> str | None:
        """What may stand glued to Chinese or Japanese text ("在慕尼黑Schwabing区", "错误码E4012",
        "配置项billing.retry_limit；"), where a word tokenizer sees one token: every store also finds
        it there as a substring of an entry with CJK text. A letter-or-digit word of three or more
        ASCII characters, or an identifier of several words as typed (`glue`); else None."""
        text = self.glue or self.label
        if self.cjk or len(text) < 3 or not text.isascii() or not (self.glue or text.isalnum()):
            return None
        return text

    @property
    def glued(self) -> bool:
        return self.glued_text is not None

    def glued_in(self, text: str) -> bool:
        """Whether an entry's text holds this glued word inside CJK text, as the stores find it (any case)."""
        glued = self.glued_text
        return glued is not None and holds_glued(glued, text, text.casefold())


def holds_glued(glued: str, text: str, folded: str) -> bool:
    """Whether `text` (`folded`: its casefold(), which a caller testing many terms computes once) holds
    the glued word `glued` (Term.glued_text) inside CJK text."""
    if glued not in folded:
        return False  # the usual answer, before the CJK scan and its import (hundreds of rows a question)
    from ..tokens import has_cjk

    return has_cjk(text)


class ChunkRow(TypedDict, total=False):
    """An entry as recall ranks and packs it (see the module docstring for the fields)."""

    id: int
    path: str
    start_line: int
    end_line: int
    entry_start: int
    kind: str
    heading: str
    text: str
    role: str
    day: str | None
    t_start: str | None
    t_end: str | None
    named: list[tuple[str, str]]  # the days the entry names besides its own (ISO start, end; index.rows.named_days)
    fact_content: str | None
    confidence: float | None
    entity_keys: list[str]
    entity_names: list[str]
    workspace: str  # only in a view over several workspaces (Store.across)
    at: str | None  # session messages: the message's time (ISO UTC)
    invalid_at: str | None  # a fact struck as no longer true: since when


# -- session transcripts (index.sessions reads them; a store keeps and applies) ------------------

# Bump when session rows change: part of the index's settings fingerprint (kept here, not in
# index/sessions.py, so that checking the fingerprint on every recall imports no transcript code).
SESSION_PARSER = 2  # 2: one vector a message, of its first rows.SESSION_EMBED_CHARS characters
# Their state, deltas and reports (SessionState, SessionDelta, SessionReport, ReadDeltas), and
# VectorUpdate, are in index/records.py: a lexical recall makes none of them, and creating a
# dataclass costs about a millisecond at import.


# A plain class, not a dataclass (every recall syncs, and creating a dataclass costs about a
# millisecond at import); the class attributes are the defaults of the counts a sync sets.
class SyncReport:
    """What a sync did. `busy` means another writer held the lock and we did not wait."""

    added = 0
    changed = 0
    removed = 0
    touched = 0
    unchanged = 0
    seconds = 0.0
    embedded = 0  # texts `memory index` sent to the embedder (the rest came from the embedding cache)
    busy = False
    sessions: SessionReport | None = None  # what `memory index` did to session transcripts, when configured

    def __init__(self) -> None:
        self.new_chunk_ids: list[int] = []
        self.removed_chunk_ids: list[int] = []
        self.entity_keys: set[str] = set()  # entities whose rows must be recomputed
        self.notices: list[str] = []

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={getattr(self, k)!r}" for k in ("added", "changed", "removed", "touched", "unchanged"))
        return f"SyncReport({counts}, busy={self.busy!r})"

    @property
    def dirty(self) -> bool:
        return bool(self.added or self.changed or self.removed)


class VectorIndex(Protocol):
    """One embedder's vectors in a store (an HNSW file beside SQLite, or pgvector): each entry has up
    to two (alone, after the previous entry). Every method is implemented by every store; where a
    store has nothing to do, its method says why."""

    def update(self, *, encode: Callable[[list[str]], np.ndarray] | None = None, embed: bool = True,
               budget: float | None = None, progress: Progress | None = None,
               wait: float = 0) -> VectorUpdate:
        """Embed the entries' texts that have no vector yet (through the store's embedding cache),
        then bring the searchable index up to date. `budget` bounds the embedding in seconds;
        `embed=False` embeds nothing; `wait` is how long to wait to save shared files."""
        ...

    def search(self, query: np.ndarray, k: int, filters: Filters) -> list[tuple[int, float]]:
        """The `k` entries nearest to the unit vector `query`: (entry id, best cosine of its vectors)."""
        ...

    def vectors_of(self, ids: Sequence[int]) -> dict[int, np.ndarray]:
        """The stored vectors of some entries: id -> (1 or 2, dim) array (the entry's own first)."""
        ...

    def sample(self, n: int) -> tuple[np.ndarray, int]:
        """The own vectors (alone, not in context) of up to `n` entries spread evenly over the entries
        that have vectors, by id (the same index gives the same sample), and how many entries have
        vectors: what embed.calibration measures a model's cosine scale on."""
        ...

    # -- a long-lived process (the MCP server, `memory watch`) -----------------------------------------
    def load_graph(self) -> None:
        """Load what the first searches would load (an HNSW graph) now, before the first question."""
        ...

    def follow(self, before: int, new_ids: Sequence[int], removed_ids: Sequence[int], *,
               encode: Callable[[list[str]], np.ndarray] | None = None, budget: float | None = None) -> bool:
        """Bring loaded vectors along with one sync (generation `before` -> `before + 1`) in memory;
        False when the next search must read them again instead."""
        ...

    def embed_new(self, *, encode: Callable[[list[str]], np.ndarray] | None = None) -> VectorUpdate:
        """Embed the texts that have no vector yet into the cache only (a watcher, between indexings)."""
        ...

    def missing(self) -> int | None:
        """How many texts have no vector yet (what `memory index` would embed); None: not counted here."""
        ...


# -- the store's roles: what each kind of caller asks of a store. Every store implements them all
#    (`Store`); a caller names the role it uses. ---------------------------------------------------

class RecallReads(Protocol):
    """What a recall reads (recall/): candidates by words, rows, entities, one consistent view."""

    def snapshot(self) -> AbstractContextManager[None]:
        """One consistent view of the index for the reads inside (a recall)."""
        ...

    def holds_entries(self, filters: Filters) -> bool: ...

    def languages(self) -> dict[str, int]:
        """How many Markdown entries each language is written in (index.rows.language_counts), as the
        last sync that changed files summed them: the workspace's languages (lang.identify.workspace_languages)."""
        ...

    def lexical_pool(self, terms: Sequence[Term], limit: int, filters: Filters) -> dict[int, float]:
        """Up to about `limit` entries per expression that contain the terms: id -> BM25 (larger is better)."""
        ...

    def term_matches(self, terms: Sequence[Term], ids: Sequence[int],
                     context_share: float) -> dict[str, dict[int, float]]:
        """For each term, the entries among `ids` that contain it (1.0), or whose previous entry of
        the same section does (`context_share`)."""
        ...

    def document_frequencies(self, terms: Sequence[Term]) -> dict[str, int]:
        """How many entries contain each term (by label)."""
        ...

    def entry_count(self) -> int:
        """The number of entries (an upper bound is fine: it only scales IDF)."""
        ...

    def rows(self, ids: Sequence[int], filters: Filters | None = None) -> dict[int, ChunkRow]:
        """The rows of these entries (those that exist, and pass `filters` when given)."""
        ...

    def entries_in(self, paths: Sequence[str], filters: Filters) -> dict[int, str]:
        """The entries of these files that pass `filters`: id -> path (the media space's hits, recall.semantic)."""
        ...

    def superseded(self, ids: Sequence[int]) -> dict[int, int]:
        """For the world facts among `ids` that a newer fact replaced: id -> the newer fact's id."""
        ...

    def about_entities(self, keys: Sequence[str], filters: Filters, limit: int,
                       opinions_only: bool = False) -> list[int]:
        """The newest entries that mention these entities or sit on their pages."""
        ...

    def browse(self, filters: Filters, limit: int, per_day: int | None = None) -> list[int]:
        """Entries that pass `filters` (which are not empty), newest first; with `per_day`, only
        the first `per_day` entries (in file order) of each day."""
        ...

    def entities(self) -> list[EntityInfo]:
        """Every known entity (slug, display name, page, aliases, fact count)."""
        ...

    def entity_facts(self, key: str, limit: int) -> list[dict[str, Any]]:
        """The facts that mention one entity, newest first: id, kind, content, confidence, day,
        occurred_start, occurred_end, path, line, invalid_at, invalid_reason."""
        ...


class ReflectReads(Protocol):
    """What reflect reads besides a recall's reads (reflect/, export, `memory forget`): the facts, the
    logs of some days, a file's text as indexed, all while no sync is half done."""

    def reading(self) -> AbstractContextManager[None]:
        """A consistent read of facts, entities and logs while no sync is half done (reflect)."""
        ...

    def facts(self, until: date | None = None) -> list[Fact]:
        """Every Retain fact written up to `until` (undated ones always), oldest first."""
        ...

    def log_days(self, since: date, until: date) -> list[tuple[str, str]]:
        """(path, day) of the daily logs written in [since, until]."""
        ...

    def file_text(self, path: str) -> str | None:
        """The text of an indexed file as it was indexed, or None (unknown, or the store keeps no texts)."""
        ...


class VectorRecords(Protocol):
    """The vectors of each embedder in this store, and which local model made them (index.vector_space)."""

    def vectors(self, embedder: Embedder) -> VectorIndex:
        """This store's vectors for `embedder` (one object per embedder, kept by the caller)."""
        ...

    def built_with(self) -> str | None:
        """The local model this index's vectors were made with, or None when it records none
        (a new or lexical-only index, or one whose record a rebuild forgot)."""
        ...

    def record_model(self, model: str | None) -> None:
        """Remember `model` as the one the vectors are made with; None forgets the record. A store
        may also infer the model of an index made before it recorded any."""
        ...


class Maintenance(Protocol):
    """Keeping a store (api, doctor, the indexer, `memory store`): where it lives, its repairs, the port
    the one indexer writes through, transcripts' read state, purges, counts, the workspaces it holds.
    What a store can or cannot do is declared here (`path`, `workspace_names`, `missing`), never
    probed with `getattr`."""

    path: Path | None  # the index's own file (SQLite), or None (a server holds it)

    def describe(self) -> str:
        """Where the index lives, for `memory status` ("sqlite /ws/.memory/index.sqlite")."""
        ...

    def close(self) -> None: ...

    def exists(self) -> bool:
        """True when the store holds this workspace already (a store-only Memory needs it to)."""
        ...

    def take_notices(self) -> list[str]:
        """What the store repaired or wants said since the last call (a damaged index rebuilt, ...)."""
        ...

    def damaged(self) -> str | None:
        """Why the index cannot be read, checked without repairing it (`memory doctor`), or None."""
        ...

    def is_damage(self, exc: BaseException) -> bool:
        """True when `exc` says the index itself is damaged (not busy, not full, not a lost server)."""
        ...

    def repair(self, reason: str) -> None:
        """After `is_damage`: move the damaged index aside and start a new, empty one (the next sync
        refills it from the Markdown)."""
        ...

    # -- keeping up with the Markdown: the one indexer (index.indexer, index.sessions) writes
    #    through `writer()`; the store does not know it ---------------------------------------------
    def writer(self) -> IndexWriter:
        """The IndexWriter port of this workspace (index.ports): what the one indexer writes through."""
        ...

    def generation(self) -> int:
        """A counter that every sync which changed entries bumps."""
        ...

    def session_states(self) -> dict[str, SessionState]:
        """How far each indexed transcript was read, by key (`sessions/<file name>`)."""
        ...

    def purge(self, pattern: str, replacement: str, *, dry_run: bool = False) -> int:
        """Replace `pattern` by `replacement` in every session entry (text, search text, the next
        entry's context), drop cached vectors that no entry uses any more, and compact the store so
        that no copy of the old text is left in its files. Returns the session entries rewritten
        (`dry_run`: that would be; nothing changes)."""
        ...

    # -- counts, several workspaces, operations ---------------------------------------------------
    def status(self) -> dict[str, Any]:
        """Counts for `memory status`: files, chunks, facts, facts_by_kind, entities, warnings
        ([{path, line, message}]), last_sync (ISO or None), invalid_facts, and sessions ({files,
        messages, other, malformed, entries}, or None when no transcript is indexed)."""
        ...

    def day_counts(self) -> list[dict[str, Any]]:
        """One dict per day with a daily log, oldest first: day, files (paths), notes (note
        entries), facts, facts_by_kind (the web UI's timeline)."""
        ...

    def workspace_names(self) -> list[str] | None:
        """Every workspace the store holds, by name; None when it holds one only (SQLite: one per file)."""
        ...

    def across(self, names: Sequence[str] | None) -> Store:
        """A read-only view over the workspaces `names` of this store (None: all of them), whose rows
        name their workspace. Only a store that holds many workspaces can (else UserError)."""
        ...

    def health(self) -> list[dict[str, Any]]:
        """What `memory doctor` reports about the store: [{check, ok, detail}]."""
        ...


class Store(RecallReads, ReflectReads, VectorRecords, Maintenance, Protocol):
    """A derived index of one workspace: every role (see each), and nothing else. `SqliteStore` and
    `PostgresStore` implement it; `tests/test_store_contract.py` holds both to it."""


def in_batches(items: Sequence[Any], size: int = 500) -> Iterator[Sequence[Any]]:
    """`items` in slices of `size`: SQL IN lists stay under every engine's parameter limit."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
