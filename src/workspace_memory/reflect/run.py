"""`memory reflect`: one deterministic pass from the index's facts to the bank pages.

Steps, under a workspace-wide reflect lock (`.memory/reflect.lock`; a second reflect waits
LOCK_WAIT seconds, then reports `busy` and changes nothing):

1. bring the store's facts up to date (its sync waits for a concurrent `memory index`; no
   vectors: reflect needs no embedding model) and read every fact up to --now in one
   consistent snapshot;
2. bank/opinions.md: fold in hand edits, apply the window's new facts, render;
3. bank/entities/<Slug>.md for every entity with facts in the window and every existing page;
4. bank/world.md and bank/experience.md;
5. core proposals in bank/proposals.md (and MEMORY.md with --apply-core); model suggestions;
6. write each changed file atomically, and only if nobody changed it since it was read (writer.py).

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
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..agent.core import CoreSettings
from ..dates.parse import parse_since
from ..errors import UserError
from ..facts.model import Fact, by_key, entity_info
from ..facts.supersession import superseded_ids
from ..files import ensure_state_dir
from ..index.base import INDEX_WAIT, Store
from ..index.indexer import sync
from ..locks import file_lock
from ..workspace.layout import Workspace
from . import assist, curated, entity_pages, opinions_md, opinions_render, proposals, stale
from .model import ChatModel, model_from_config
from .opinions import EmbedSimilarity, Engine, UpdateStats
from .regions import RegionError, region_body, replace_region
from .writer import PageWriter

LOCK_WAIT = 5.0
BUSY_MESSAGE = "another reflect is running"
# The window of new facts when the caller names none; a workspace's first reflect reads every fact.
DEFAULT_SINCE = "7d"
REGION_MARK = b"<!-- reflect:begin "  # regions.begin_marker of any region: a page reflect has written


@dataclass
class ReflectReport:
    """What a reflect run did (or, with --dry-run, would do)."""

    since: str = ""
    first_run: bool = False  # no --since and never reflected: every fact counted (never_reflected)
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
    # Hand edits inside generated regions, kept: "path:line: ..." and a diff each (reflect.writer).
    conflicts: list[str] = field(default_factory=list)
    stale_core: list[stale.StaleLine] = field(default_factory=list)  # MEMORY.md lines a newer fact supersedes
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
                                                   (self.deleted, "deleted"), (len(s.withdrawn), "lost evidence"),
                                                   (len(s.restored), "regained evidence")) if n]
        line = (f"reflect: {self.facts} facts, {self.entity_pages} entity pages ({self.entity_pages_changed} "
                f"changed), {self.opinions} opinions ({', '.join(parts)}), {len(self.proposals)} core proposals")
        if self.applied_core:
            line += f" ({len(self.applied_core)} applied)"
        verb = "would change" if self.dry_run else "changed"
        return line + f"; {len(self.changed)} files {verb}; {self.seconds:.2f}s"

    def to_dict(self) -> dict[str, Any]:
        s = self.stats
        return {
            "since": self.since, "first_run": self.first_run, "facts": self.facts, "dry_run": self.dry_run, "busy": self.busy,
            "entity_pages": {"total": self.entity_pages, "changed": self.entity_pages_changed},
            "opinions": {"total": self.opinions, "new": sorted(s.new), "reinforced": sorted(s.reinforced),
                         "contradicted": sorted(s.contradicted), "replaced": sorted(s.replaced),
                         "withdrawn": sorted(s.withdrawn), "restored": sorted(s.restored),
                         "hand_edits": self.hand_edits, "deleted": self.deleted, "suppressed": s.suppressed,
                         "facts_applied": s.applied},
            "proposals": [p.to_dict() for p in self.proposals],
            "applied_core": self.applied_core, "changed": self.changed, "notices": self.notices,
            "conflicts": self.conflicts, "stale_core": [s.to_dict() for s in self.stale_core],
            "seconds": round(self.seconds, 3),
        }


@contextlib.contextmanager
def reflect_lock(state_dir: Path, wait: float = LOCK_WAIT) -> Iterator[bool]:
    """Hold `.memory/reflect.lock`; yields False when another reflect keeps it for `wait` seconds."""
    ensure_state_dir(state_dir)
    with file_lock(state_dir / "reflect.lock", wait) as held:
        yield held


def reflect(ws: Workspace, store: Store, now: datetime, since: str | None = None, *, dry_run: bool = False,
            apply_core: bool = False, use_model: bool = True, lock_wait: float = LOCK_WAIT,
            embed_similarity: EmbedSimilarity | None = None) -> ReflectReport:
    """Run reflect over the facts written since `since` (7d, 2w, 6m, 1y, YYYY-MM-DD) as of `now`.

    `since` None is DEFAULT_SINCE, except in a workspace never reflected (`never_reflected`): there
    every fact is new, whatever its day (weeks of notes before the first run are not left out).
    `embed_similarity` (optional) blends embedding similarity into opinion matching.
    """
    started = time.perf_counter()
    first = since is None and never_reflected(ws.root)
    try:
        since_day = date.min if first else parse_since(DEFAULT_SINCE if since is None else since, now)
    except ValueError as exc:
        raise UserError(f"--since: {exc}") from None
    report = ReflectReport(since=since_day.isoformat(), first_run=first, dry_run=dry_run)
    with reflect_lock(ws.state_dir, lock_wait) as held:
        if not held:
            report.busy = True
        else:
            # The index's facts, not its vectors (which would load an embedding model reflect does not need).
            report.notices += sync(ws, store.writer(), wait=INDEX_WAIT).notices
            model = model_from_config(ws.config) if use_model else None
            # The model's Retain suggestions stay within the default window: a first run over months
            # of logs must not send every day to the model.
            log_since = parse_since(DEFAULT_SINCE, now) if first else since_day
            _Run(ws, store, now.date(), since_day, report, model, embed_similarity, log_since).run(apply_core)
    report.seconds = time.perf_counter() - started
    return report


def never_reflected(root: Path) -> bool:
    """True before a workspace's first reflect: no entity page, and no generated region on a bank page.

    Both are Markdown in the workspace (a deleted `.memory/` does not make a workspace new again);
    `memory init`'s templates have no region yet.
    """
    if _existing_pages(root):
        return False
    for page in (opinions_md.PAGE, "bank/world.md", "bank/experience.md", proposals.PAGE):
        path = root / page
        if path.is_file() and not path.is_symlink() and REGION_MARK in path.read_bytes():
            return False
    return True


def embeddings_wanted(config: dict) -> bool:
    """True when `[reflect] embeddings = true`: opinion matching may use the configured embedder."""
    section = config.get("reflect")
    return isinstance(section, dict) and bool(section.get("embeddings"))


class _Run:
    """One pass; holds the snapshot and the planned writes."""

    def __init__(self, ws: Workspace, store: Store, today: date, since_day: date, report: ReflectReport,
                 model: ChatModel | None, embed_similarity: EmbedSimilarity | None, log_since: date) -> None:
        self.ws = ws
        self.root: Path = ws.root
        self.today = today.isoformat()
        self.since_day = since_day
        self.report = report
        self.model = model
        self.embed_similarity = embed_similarity
        self.pages = PageWriter(ws)
        with store.reading():  # one consistent snapshot, never a sync half done
            self.facts = store.facts(today)
            self.entities = by_key(store.entities())
            self.log_days = store.log_days(log_since, today)
        # Facts marked as no longer true are shown (struck) on pages, never used as evidence.
        self.valid = [f for f in self.facts if f.valid]
        self.window = [f for f in self.valid if f.day is None or f.day >= since_day]
        self.by_id = {f.id: f for f in self.facts}
        self.by_hash: dict[str, Fact] = {}
        for fact in self.facts:  # oldest first: a bullet repeated in one file is shown at its first line
            self.by_hash.setdefault(fact.hash, fact)
        self.superseded = superseded_ids(self.valid, today=today)
        self.names_of = lru_cache(maxsize=4096)(self._names_of)

    def _names_of(self, keys: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for k in keys for n in entity_info(self.entities, k).names()))

    def _slug_of(self, key: str) -> str:
        return entity_info(self.entities, key).slug

    def read(self, key: str) -> str | None:
        return self.pages.read(key)

    def plan(self, key: str, text: str) -> bool:
        return self.pages.plan(key, text)

    # -- steps ---------------------------------------------------------------------------------
    def run(self, apply_core: bool) -> None:
        report = self.report
        report.facts = len(self.window)
        if report.first_run:  # say which days "every fact" was
            days = [f.day for f in self.window if f.day is not None]
            report.since = min(days).isoformat() if days else self.today
        ops = self.opinions()
        self.entity_pages(ops)
        for kind in ("world", "experience"):
            self.curated(kind)
        self.proposals(ops, apply_core)
        report.changed, notices = self.pages.commit(report.dry_run)
        report.conflicts = list(self.pages.conflicts)
        report.notices += notices + report.conflicts

    def opinions(self) -> list:
        key = opinions_md.PAGE
        try:
            old = self.read(key)
            page = opinions_md.parse_page(opinions_md.page_or_new(old))
            rec = opinions_md.reconcile(page, self.facts, self.today)
            judge = self._judge if self.model is not None and self.model.stances and not self.report.dry_run else None
            engine = Engine(rec.opinions, rec.tombstones, self.today, self.names_of, self.embed_similarity, judge)
            engine.refresh_ledger(self.facts)
            engine.withdraw_invalid(self.facts)
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

    def _judge(self, opinion: str, statement: str) -> tuple[str, str] | None:
        """The configured model's stance for a pair the rule leaves unclear (reflect.model); None on failure."""
        from .model import ModelError, judge_stance

        assert self.model is not None
        try:
            return judge_stance(self.model, opinion, statement), self.model.label
        except ModelError as exc:
            self.report.notices.append(f"{exc}; the stance stays unclear")
            return None

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
        core_key = self.ws.core_path.relative_to(self.root).as_posix()
        try:
            old = self.read(key)
            core_text = self.read(core_key) or ""
            found = proposals.core_proposals(self.valid, ops, self.superseded, core_text)
            stale_core = stale.stale_lines(core_text, self.valid, self.superseded, list(self.entities.values()))
            settings = CoreSettings.from_mapping(self.ws.config.get("core"))
            if apply_core and stale_core:
                core_text, done, stale_core = stale.apply_stale(core_text, stale_core, settings)
                if done:
                    self.plan(core_key, core_text)
                self.report.applied_core += [f"(replacing line {s.line}) {s.new.strip()}" for s in done]
            self.report.stale_core = stale_core
            old_core = region_body(old, "core") if old else None
            self.report.new_proposals = [p for p in found if f"- {p.text} — " not in "\n".join(old_core or [])]
            if apply_core and found:
                new_core, applied, refused = proposals.apply_core(core_text, found, settings)
                if applied:
                    self.plan(core_key, new_core)
                self.report.applied_core += [p.text for p in applied]
                if refused:
                    self.report.notices.append(f"{len(refused)} proposal(s) not applied: the Learned block "
                                               f"of {core_key} would exceed its limit or is read-only")
                found = refused
            self.report.proposals = found
            text = old if old is not None else proposals.NEW_PAGE
            if found or stale_core or old_core is not None:
                region = proposals.core_region(found) if found or not stale_core else []
                text = replace_region(text, "core", region + stale.region_lines(stale_core, key, core_key))
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
