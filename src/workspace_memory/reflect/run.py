"""`memory reflect`: one deterministic pass from the index's facts to the bank pages.

Steps, under a workspace-wide reflect lock (`.memory/reflect.lock`; a second reflect waits
LOCK_WAIT seconds, then reports `busy` and changes nothing):

1. bring the index's facts up to date (`index.sync`, which waits for a concurrent `memory index`;
   not `Memory.index()`, which would also load an embedding model reflect does not need)
   and read every fact up to --now in one read transaction (a consistent snapshot);
2. bank/opinions.md: fold in hand edits, apply the window's new facts, render;
3. bank/entities/<Slug>.md for every entity with facts in the window and every existing page;
4. bank/world.md and bank/experience.md;
5. core proposals in bank/proposals.md (and MEMORY.md with --apply-core); model suggestions;
6. write each changed file atomically, and only if nobody changed it since step 2 read it.

Nothing in any output depends on the wall clock, only on the workspace and --now, and the
window only decides what is *new*: pages are rendered from all facts, so a run with nothing
new reproduces every page byte for byte (and writes none).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import MemoryError_, UserError
from ..files import atomic_write_text
from ..index.store import writer_lock
from ..index.sync import sync
from ..locks import file_lock
from ..timeparse import parse_since
from . import assist, curated, entity_pages, opinions_md, opinions_render, proposals
from .facts import Fact, entity_info, load_entities, load_facts
from .model import ChatModel, model_from_config
from .opinions import EmbedSimilarity, Engine, UpdateStats
from .regions import RegionError, region_body, replace_region
from .supersede import superseded_ids

LOCK_WAIT = 5.0
INDEX_WAIT = 60.0  # how long to wait for a concurrent `memory index` before giving up (IndexBusy)
BUSY_MESSAGE = "another reflect is running"


@dataclass
class ReflectReport:
    """What a reflect run did (or, with --dry-run, would do)."""

    since: str = ""
    facts: int = 0
    entity_pages: int = 0
    entity_pages_changed: int = 0
    opinions: int = 0
    stats: UpdateStats = field(default_factory=UpdateStats)
    hand_edits: int = 0
    deleted: int = 0
    proposals: list[proposals.Proposal] = field(default_factory=list)
    new_proposals: list[proposals.Proposal] = field(default_factory=list)
    applied_core: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    dry_run: bool = False
    busy: bool = False
    seconds: float = 0.0

    def summary_line(self) -> str:
        """One line for cron logs."""
        if self.busy:
            return f"reflect: {BUSY_MESSAGE}; nothing done"
        s = self.stats
        parts = [f"{len(s.new)} new", f"{len(s.reinforced)} reinforced", f"{len(s.contradicted)} contradicted"]
        parts += [f"{n} {label}" for n, label in ((len(s.replaced), "replaced"), (self.hand_edits, "hand edits"),
                                                   (self.deleted, "deleted")) if n]
        line = (f"reflect: {self.facts} facts, {self.entity_pages} entity pages ({self.entity_pages_changed} "
                f"changed), {self.opinions} opinions ({', '.join(parts)}), {len(self.proposals)} core proposals")
        if self.applied_core:
            line += f" ({len(self.applied_core)} applied)"
        verb = "would change" if self.dry_run else "changed"
        return line + f"; {len(self.changed)} files {verb}; {self.seconds:.2f}s"

    def to_dict(self) -> dict[str, Any]:
        s = self.stats
        return {
            "since": self.since, "facts": self.facts, "dry_run": self.dry_run, "busy": self.busy,
            "entity_pages": {"total": self.entity_pages, "changed": self.entity_pages_changed},
            "opinions": {"total": self.opinions, "new": sorted(s.new), "reinforced": sorted(s.reinforced),
                         "contradicted": sorted(s.contradicted), "replaced": sorted(s.replaced),
                         "hand_edits": self.hand_edits, "deleted": self.deleted, "suppressed": s.suppressed,
                         "facts_applied": s.applied},
            "proposals": [p.to_dict() for p in self.proposals],
            "applied_core": self.applied_core, "changed": self.changed, "notices": self.notices,
            "seconds": round(self.seconds, 3),
        }


@contextlib.contextmanager
def reflect_lock(state_dir: Path, wait: float = LOCK_WAIT) -> Iterator[bool]:
    """Hold `.memory/reflect.lock`; yields False when another reflect keeps it for `wait` seconds."""
    with file_lock(state_dir / "reflect.lock", wait) as held:
        yield held


def reflect(mem, since: str = "7d", *, dry_run: bool = False, apply_core: bool = False,  # noqa: ANN001
            use_model: bool = True, lock_wait: float = LOCK_WAIT,
            embed_similarity: EmbedSimilarity | None = None) -> ReflectReport:
    """Run reflect over the facts written since `since` (7d, 2w, 6m, 1y, YYYY-MM-DD) on `mem` (api.Memory)."""
    started = time.perf_counter()
    try:
        since_day = parse_since(since, mem.now)
    except ValueError as exc:
        raise UserError(f"--since: {exc}") from None
    report = ReflectReport(since=since_day.isoformat(), dry_run=dry_run)
    mem.conn  # noqa: B018 - opens the index, or raises "no workspace" before the lock would create .memory/
    with reflect_lock(mem.workspace.state_dir, lock_wait) as held:
        if not held:
            report.busy = True
        else:
            # The index's facts, not its vectors: Memory.index() would also load an embedding model.
            sync(mem.workspace, mem.conn, wait=INDEX_WAIT)
            model = model_from_config(mem.workspace.config) if use_model else None
            if embed_similarity is None and use_model:
                embed_similarity = _configured_embeddings(mem, report.notices)
            _Run(mem, since_day, report, model, embed_similarity).run(apply_core)
    report.seconds = time.perf_counter() - started
    return report


class _Run:
    """One pass; holds the snapshot and the planned writes."""

    def __init__(self, mem, since_day: date, report: ReflectReport, model: ChatModel | None,  # noqa: ANN001
                 embed_similarity: EmbedSimilarity | None) -> None:
        self.mem = mem
        self.root: Path = mem.workspace.root
        self.today = mem.today.isoformat()
        self.since_day = since_day
        self.report = report
        self.model = model
        self.embed_similarity = embed_similarity
        self.reads: dict[str, str | None] = {}  # what each planned file held when read
        self.boms: set[str] = set()  # files that start with a UTF-8 byte-order mark (kept on write)
        self.planned: dict[str, str] = {}
        conn = mem.conn
        # A sync may commit in several transactions: holding the writer lock while reading means we never
        # see one half done; one read transaction makes every query below see the same snapshot.
        with writer_lock(mem.workspace.state_dir, wait=INDEX_WAIT):
            conn.execute("BEGIN")
            try:
                self.facts = load_facts(conn, mem.today)
                self.entities = load_entities(conn)
                self.log_days = conn.execute(
                    "SELECT path, day FROM files WHERE role = 'daily' AND day >= ? AND day <= ? ORDER BY path",
                    (since_day.isoformat(), self.today)).fetchall()
            finally:
                conn.execute("COMMIT")
        self.window = [f for f in self.facts if f.day is None or f.day >= since_day]
        self.by_id = {f.id: f for f in self.facts}
        self.by_hash: dict[str, Fact] = {}
        for fact in self.facts:  # oldest first: a bullet repeated in one file is shown at its first line
            self.by_hash.setdefault(fact.hash, fact)
        self.superseded = superseded_ids(self.facts)
        self.names_of = lru_cache(maxsize=4096)(self._names_of)

    def _names_of(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for k in keys for n in entity_info(self.entities, k).names()))

    def _slug_of(self, key: str) -> str:
        return entity_info(self.entities, key).slug

    # -- files ---------------------------------------------------------------------------------
    def read(self, key: str) -> str | None:
        """A workspace text file as str (None if missing); refuses files reflect must not rewrite."""
        path = self.root / key
        # Symlinks are never followed (DESIGN §1): not the page, nor bank/ or bank/entities/ above it.
        rel = Path(key)
        for part in [rel, *rel.parents[:-1]]:  # parents end with "." (the workspace itself)
            if (self.root / part).is_symlink():
                raise RegionError(f"{part.as_posix()} is a symbolic link")
        if not path.exists():
            self.reads[key] = None
            return None
        text = _decode(path.read_bytes(), key)
        if text.startswith("\ufeff"):
            self.boms.add(key)
            text = text[1:]
        self.reads[key] = text
        return text

    def plan(self, key: str, text: str) -> bool:
        """Plan a write; True when it changes the file."""
        if text == self.reads.get(key):
            return False
        self.planned[key] = text
        return True

    def commit(self) -> None:
        for key in sorted(self.planned):
            self.report.changed.append(key)
            if self.report.dry_run:
                continue
            path = self.root / key
            bom = "\ufeff" if key in self.boms else ""
            with self.mem.workspace.write_lock(key):  # the same lock as retain and core edits
                try:
                    current = _decode(path.read_bytes(), key) if path.exists() else None
                except RegionError:
                    current = ""
                if current != (None if self.reads.get(key) is None else bom + self.reads[key]):
                    # Trigger: someone saved the page while we were reflecting. Outcome: keep their version.
                    self.report.changed.remove(key)
                    self.report.notices.append(f"{key} changed while reflecting; left as is (run reflect again)")
                    continue
                atomic_write_text(path, bom + self.planned[key])

    # -- steps ---------------------------------------------------------------------------------
    def run(self, apply_core: bool) -> None:
        report = self.report
        report.facts = len(self.window)
        ops = self.opinions()
        self.entity_pages(ops)
        for kind in ("world", "experience"):
            self.curated(kind)
        self.proposals(ops, apply_core)
        self.commit()

    def opinions(self) -> list:
        key = opinions_md.PAGE
        try:
            old = self.read(key)
            page = opinions_md.parse_page(opinions_md.page_or_new(old))
            rec = opinions_md.reconcile(page, self.facts, self.today)
            engine = Engine(rec.opinions, rec.tombstones, self.today, self.names_of, self.embed_similarity)
            engine.refresh_ledger(self.facts)
            self.report.stats = engine.apply(self.window)
            text = opinions_render.render_page(page, rec, self.by_hash, self._slug_of, self.names_of)
        except RegionError as exc:
            raise UserError(f"{key}: {exc}; fix the page (reflect changed nothing)") from None
        self.report.notices += rec.notices
        self.report.hand_edits, self.report.deleted = rec.edits, rec.deleted
        self.report.opinions = len(rec.opinions)
        if rec.opinions or rec.tombstones or page.state_span is not None:
            self.plan(key, text)
        return rec.opinions

    def entity_pages(self, ops: list) -> None:
        by_entity: dict[str, list[Fact]] = {}
        for fact in self.facts:
            for ent in fact.entities:
                by_entity.setdefault(ent, []).append(fact)
        existing = _existing_pages(self.root)
        targets = {k for f in self.window for k in f.entities} | set(existing)
        for ent in sorted(targets):
            info = entity_info(self.entities, ent)
            key = existing.get(ent) or f"bank/entities/{info.slug}.md"
            try:
                old = self.read(key)
                facts = by_entity.get(ent, [])
                mine = [op for op in ops if ent in op.entities]
                if old is not None and not facts and not mine and region_body(old, entity_pages.REGION) is None:
                    continue  # a hand-written page about something no fact mentions: not ours to touch
                body = entity_pages.region_body(info, facts, mine, key, self.superseded, self.by_id)
                if self.model is not None and self.model.summaries and not self.report.dry_run and facts:
                    old_body = region_body(old, entity_pages.REGION) if old else None
                    body = assist.model_region(self.model, info.name, body, old_body, self.report.notices)
                text = entity_pages.page_text(old, info, body, self.today)
            except RegionError as exc:
                self.report.notices.append(f"{key}: {exc}; page left as is")
                continue
            self.report.entity_pages += 1
            self.report.entity_pages_changed += self.plan(key, text)

    def curated(self, kind: str) -> None:
        key, _, region = curated.CURATED[kind]
        try:
            old = self.read(key)
            body = curated.curated_body(kind, self.facts, self.superseded, self.by_id, self.entities)
            if body == ["_No facts yet._"] and (old is None or region_body(old, region) is None):
                return  # nothing to curate and no region yet: leave the page alone
            self.plan(key, replace_region(old if old is not None else curated.NEW_PAGE_TEXT[kind], region, body))
        except RegionError as exc:
            self.report.notices.append(f"{key}: {exc}; page left as is")

    def proposals(self, ops: list, apply_core: bool) -> None:
        key = proposals.PAGE
        core_key = self.mem.workspace.core_path.relative_to(self.root).as_posix()
        try:
            old = self.read(key)
            core_text = self.read(core_key) or ""
            found = proposals.core_proposals(self.facts, ops, self.superseded, core_text)
            old_core = region_body(old, "core") if old else None
            self.report.new_proposals = [p for p in found if f"- {p.text} — " not in "\n".join(old_core or [])]
            if apply_core and found:
                new_core, applied, refused = proposals.apply_core(core_text, found, self.mem.core_settings)
                if applied:
                    self.plan(core_key, new_core)
                self.report.applied_core = [p.text for p in applied]
                if refused:
                    self.report.notices.append(f"{len(refused)} proposal(s) not applied: the Learned block "
                                               f"of {core_key} would exceed its limit or is read-only")
                found = refused
            self.report.proposals = found
            text = old if old is not None else proposals.NEW_PAGE
            if found or old_core is not None:
                text = replace_region(text, "core", proposals.core_region(found))
            text = self._retain_suggestions(text, old)
            if old is not None or found or text != proposals.NEW_PAGE:
                self.plan(key, text)
        except RegionError as exc:
            self.report.notices.append(f"{key}: {exc}; page left as is")

    def _retain_suggestions(self, text: str, old: str | None) -> str:
        with_facts = {f.path for f in self.facts}
        days = []
        for path, day in self.log_days:
            if path in with_facts:
                continue
            try:
                log = (self.root / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            days.append((path, day, log))
        model = None if self.report.dry_run else self.model
        old_region = region_body(old, "retain") if old else None
        lines = assist.retain_region(model, old_region, days, self.report.notices)
        if lines is None:
            return text
        if old_region is None and "## Retain suggestions" not in text:
            text = text.rstrip("\n") + "\n\n## Retain suggestions from the model (copy what is right)\n"
        return replace_region(text, "retain", lines)


def _configured_embeddings(mem, notices: list[str]) -> EmbedSimilarity | None:  # noqa: ANN001
    """The embedding similarity when `[reflect] embeddings = true` and an embedder is configured."""
    section = mem.workspace.config.get("reflect")
    if not isinstance(section, dict) or not section.get("embeddings"):
        return None
    try:
        embedder, more = mem.embedder()
    except MemoryError_ as exc:
        notices.append(f"embeddings for opinion matching unavailable: {exc}; lexical matching only")
        return None
    notices += more
    return assist.embedding_similarity(embedder) if embedder is not None else None


def _decode(data: bytes, key: str) -> str:
    """Strict UTF-8: a page reflect cannot read exactly is a page it must not rewrite."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RegionError(f"{key} is not valid UTF-8") from None
    if "\x00" in text:
        raise RegionError(f"{key} contains NUL bytes")
    return text


def _existing_pages(root: Path) -> dict[str, str]:
    """Entity key -> workspace key of every page in bank/entities/ (README and symlinks excluded)."""
    folder = root / "bank" / "entities"
    out: dict[str, str] = {}
    if not folder.is_dir() or folder.is_symlink():
        return out
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        name = entry.name
        if not name.lower().endswith(".md") or name.startswith(".") or entry.is_symlink() or not entry.is_file():
            continue
        stem = name[:-3]
        if stem.lower() == "readme":
            continue
        out.setdefault(stem.lower(), f"bank/entities/{name}")
    return out
