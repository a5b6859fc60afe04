"""The one indexer: keeps a store's rows in step with the workspace's Markdown, through its IndexWriter.

Every store runs these steps (index.ports says what a store supplies; the SQL is the store's):

1. Read the stored settings fingerprint and file stats, and stat every Markdown file (no
   symlinks) against them. The fingerprint changed: rebuild (or, in a recall, say so and stop).
2. Nothing differs: stop. This is all a recall pays when nothing changed.
3. Take the store's writer lock and look again (another process may have just synced).
4. Hash each candidate; the same hash: only its stat is stored.
5. Parse what changed (`file_rows`, with the workspace's settings: `[time] date_order`) and replace
   its rows, 200 files a transaction; delete the rows of files that are gone (a rename is a
   delete plus an add, and the embedding cache keyed by text hash makes it cheap). A rebuild is
   one transaction: readers see the old rows until the new ones are whole.
6. Recompute the entities and the superseded facts of what changed, record the sync and the
   fingerprint, and bump the generation when entries changed.

Indexing never writes Markdown: files are only opened for reading. Session transcripts are
applied by index.sessions.apply_sessions through the same writer. With `[media]` enabled, images,
PDFs and voice notes are scanned too (index.media_rows): their derived text is read in
`memory index` / `memory watch` (`extract_media=True`), never in a recall's sync.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import TYPE_CHECKING

from .base import INDEX_WAIT, SyncReport
from .sync_plan import changed_paths, fingerprint_change, page_key, recheck, scan
from .sync_plan import settings_fingerprint as _fingerprint

if TYPE_CHECKING:
    from ..workspace.layout import MarkdownFile, Workspace
    from .base import Progress
    from .media_rows import MediaIndexing
    from .ports import Document, IndexWriter
    from .sync_plan import Pending

BATCH = 200  # files a transaction: keeps readers' view fresh and memory flat on big rebuilds


def settings_fingerprint(writer: IndexWriter, date_order: str | None = None,
                         languages: tuple[str, ...] = (), media: dict | None = None) -> dict[str, object]:
    """Everything that shapes this store's rows (`date_order`, `languages`: the workspace's `[time]`;
    `media`: its `[media]`, MediaIndexing.fingerprint)."""
    return _fingerprint(writer.schema, writer.tokenizer, date_order, languages, media)


def settings_changed(writer: IndexWriter, date_order: str | None = None,
                     languages: tuple[str, ...] = ()) -> str | None:
    """What changed since the rows were built with other settings ("chunk_tokens 200 -> 180"), or None.

    `[media]` is not compared here (the callers pass only `[time]`); a sync compares it."""
    stored, has_rows, _ = writer.stored([])
    current = settings_fingerprint(writer, date_order, languages)
    if stored is not None:
        old = json.loads(stored) if isinstance(stored, str) else stored
        if "media" in old:
            current["media"] = old["media"]
    return fingerprint_change(stored, current, has_rows)


def sync(ws: Workspace, writer: IndexWriter, *, rebuild: bool = False, wait: float | None = INDEX_WAIT,
         progress: Progress | None = None, rebuild_if_stale: bool = True,
         only: set[str] | None = None, extract_media: bool = False) -> SyncReport:
    """Bring the store's rows up to date with `ws`; see the module docstring for the steps.

    `wait=0` returns at once with `busy=True` when another process is writing. `progress(done,
    total)` is called while parsing. `only` limits the scan to these workspace keys (a watcher that
    saw them change). When the settings fingerprint changed, the rows are rebuilt; with
    `rebuild_if_stale=False` (a recall) they are left as they are and a notice says so.
    `extract_media` (`memory index`, `memory watch`): read the text of new media files; without it
    they are indexed by name until then (index.media_rows).
    """
    started = time.perf_counter()
    report = SyncReport()
    media = _media(ws, extract_media)
    try:
        return _sync(ws, writer, report, started, media, rebuild, wait, progress, rebuild_if_stale, only)
    finally:
        if media is not None:
            report.notices += media.notices()
            media.close()


def _media(ws: Workspace, extract: bool) -> MediaIndexing | None:
    """The media side of a sync, when `[media]` is enabled (else None: nothing of media/ is imported)."""
    if "media" not in ws.config:
        return None
    from .media_rows import MediaIndexing, media_settings_of

    settings = media_settings_of(ws)
    return MediaIndexing(ws, settings, extract) if settings is not None and settings.enabled else None


def _sync(ws: Workspace, writer: IndexWriter, report: SyncReport, started: float, media: MediaIndexing | None,
          rebuild: bool, wait: float | None, progress: Progress | None, rebuild_if_stale: bool,
          only: set[str] | None) -> SyncReport:
    fingerprint = settings_fingerprint(writer, ws.date_order, ws.fact_languages,
                                       media.fingerprint() if media is not None else None)
    stale, known = None, {}
    if not rebuild:
        stored, has_rows, known = writer.stored(None if only is None else sorted(only))
        stale = fingerprint_change(stored, fingerprint, has_rows)
    if stale:
        if not rebuild_if_stale:
            report.notices.append(f"index settings changed ({stale}); run `memory index` to rebuild")
            return report
        rebuild = True
        report.notices.append(f"index settings changed ({stale}); rebuilt the index")
    if rebuild:
        only = None
    else:
        pending = scan(ws, known, False, only, media)
        if not pending.candidates and not pending.removed:
            report.unchanged = pending.total
            report.seconds = time.perf_counter() - started
            return report
    # What follows runs only when something changed: a recall of an unchanged workspace reads no file.
    with writer.lock(wait) as held:
        if not held:
            report.busy = True
            return report
        if stale:  # another process may have finished the rebuild we waited for: look again under the lock
            stored, has_rows, known = writer.stored(None)
            if fingerprint_change(stored, fingerprint, has_rows) is None:
                rebuild = False
                report.notices.remove(f"index settings changed ({stale}); rebuilt the index")
                pending = scan(ws, known, False, None, media)
        with writer.transaction() if rebuild else contextlib.nullcontext():
            if rebuild:
                writer.clear()
                pending = scan(ws, {}, True, media=media)
            else:  # another writer may have synced some meanwhile
                pending = recheck(pending, writer.stored(changed_paths(pending))[2])
            report.unchanged = pending.total - len(pending.candidates)
            _apply(ws, writer, pending, report, progress, media)
            keys = None if rebuild else report.entity_keys
            with writer.transaction():
                update_entities(writer, keys)
                update_superseded(writer, keys)
                writer.finish(json.dumps(fingerprint, sort_keys=True), replace=rebuild)
                if report.dirty or rebuild:
                    writer.bump_generation(None if rebuild else (report.new_chunk_ids, report.removed_chunk_ids))
    report.seconds = time.perf_counter() - started
    return report


def _apply(ws: Workspace, writer: IndexWriter, pending: Pending, report: SyncReport,
           progress: Progress | None, media: MediaIndexing | None = None) -> None:
    """Delete the rows of files that are gone, then replace those of changed files, a batch a transaction."""
    if media is not None:  # OCR takes seconds a file: done first, a file at a time, with progress
        media.prepare(pending.candidates, pending.known, progress)
    if pending.removed:
        with writer.transaction():
            report.removed_chunk_ids += _delete(writer, pending.removed, report)
        report.removed += len(pending.removed)
    total = len(pending.candidates)
    for start in range(0, total, BATCH):
        batch = pending.candidates[start : start + BATCH]
        with writer.transaction():
            documents = []
            for mf, mtime_ns, size in batch:
                document = _read(ws, writer, mf, mtime_ns, size, pending.known.get(mf.key), report, media)
                if document is not None:
                    documents.append(document)
            report.new_chunk_ids += writer.insert_documents(documents)
        if progress:
            progress(min(start + BATCH, total), total)


def _read(ws: Workspace, writer: IndexWriter, mf: MarkdownFile, mtime_ns: int, size: int,
          old: tuple[int, int, str] | None, report: SyncReport, media: MediaIndexing | None = None) -> Document | None:
    """One changed file's new rows (its old rows deleted), or None when only its stat changed."""
    from ..files import decode_markdown, looks_binary, read_bounded  # lazy: a recall reads no file
    from .rows import file_rows, mentioned

    if media is not None and media.handles(mf.key):
        return _read_media(ws, writer, media, mf, mtime_ns, size, old, report)
    try:
        digest, head, total = read_bounded(mf.path)  # read only: indexing never writes Markdown
    except OSError:
        return None
    if not _clear_old(writer, mf, mtime_ns, size, old, digest, report):
        return None
    rows = file_rows(mf.key, mf.role, mf.day, head, total, ws.date_order, ws.fact_languages)
    rows.file |= {"hash": digest, "mtime_ns": mtime_ns, "size": size}
    report.entity_keys.update(page_key(mf.key))
    report.entity_keys.update(mentioned(rows.chunks))
    # A store that keeps texts serves `get` and recall on machines without a checkout (binary files: none).
    text = None if not writer.keeps_texts or looks_binary(head) else decode_markdown(head).text
    return rows, text


def _read_media(ws: Workspace, writer: IndexWriter, media: MediaIndexing, mf: MarkdownFile, mtime_ns: int,
                size: int, old: tuple[int, int, str] | None, report: SyncReport) -> Document | None:
    """_read for an image, PDF or voice note: its rows are those of its derived text (index.media_rows)."""
    from .rows import mentioned

    digest = media.digest(mf)
    if digest is None:
        return None
    if not _clear_old(writer, mf, mtime_ns, size, old, digest, report):
        return None
    rows, text, digest = media.rows(mf, mtime_ns, digest, ws.date_order, ws.fact_languages)
    rows.file |= {"hash": digest, "mtime_ns": mtime_ns, "size": size}
    report.entity_keys.update(mentioned(rows.chunks))
    return rows, text if writer.keeps_texts else None


def _clear_old(writer: IndexWriter, mf: MarkdownFile, mtime_ns: int, size: int, old: tuple[int, int, str] | None,
               digest: str, report: SyncReport) -> bool:
    """False when the content is the same (only the stat is stored); else delete the old rows and count."""
    if old is not None and old[2] == digest:
        writer.touch(mf.key, mtime_ns, size)
        report.touched += 1
        return False
    if old is not None:
        report.removed_chunk_ids += _delete(writer, [mf.key], report)
        report.changed += 1
    else:
        report.added += 1
    return True


def _delete(writer: IndexWriter, paths: list[str], report: SyncReport) -> list[int]:
    """Delete the rows of `paths`; the entities they mentioned, or whose pages they were, are recomputed."""
    ids, keys = writer.delete_files(paths)
    report.entity_keys |= keys
    for path in paths:
        report.entity_keys.update(page_key(path))
    return ids


def update_entities(writer: IndexWriter, keys: set[str] | None = None) -> None:
    """Recompute the entities from @mentions and bank/entities/*.md pages (names, aliases).

    With `keys`, only those entities (a one-file sync stays cheap on a 10,000-file workspace);
    without, all of them.
    """
    from .sync_plan import entity_rows

    if keys is not None and not keys:
        return
    spellings, fact_counts, page_rows = writer.entity_sources(keys)
    pages = {}
    for path, meta, title in page_rows:
        key = next(iter(page_key(path)), None)
        if key and (keys is None or key in keys):
            pages[key] = (path, path.rsplit("/", 1)[-1][:-3], dict(meta) | {"_title": title})
    writer.replace_entities(keys, entity_rows(spellings, fact_counts, pages))


def update_superseded(writer: IndexWriter, keys: set[str] | None = None) -> None:
    """Recompute which world facts a newer one replaced, for the entities `keys` (None: all).

    The rule is facts.supersession's; running it at query time meant reading every world fact of
    every entity in the candidates, so a sync recomputes it for the entities whose facts changed.
    """
    from .sync_plan import superseded_changes

    if keys is not None and not keys:
        return
    judged, replaced = superseded_changes(writer.world_facts(keys), keys)
    writer.set_superseded(judged, replaced)
