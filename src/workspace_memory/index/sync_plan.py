"""The indexer's plans, the same for every store: which files changed, entity rows, the settings
fingerprint (pure; no SQL here).

A sync (index.indexer.sync, through a store's IndexWriter) stats every Markdown file against the
stored (mtime_ns, size, hash) of its `files` rows, parses only the files that differ, and
recomputes the entities whose mentions or pages changed. The store supplies the stored rows
(IndexWriter.stored); the plan is the same.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from ..workspace.layout import MarkdownFile, Workspace

if TYPE_CHECKING:
    from .media_rows import MediaIndexing
    from .ports import Known  # path -> (mtime_ns, size, hash)



# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module (for its sync check).
class Pending:
    """What a scan found: the files that changed (file, mtime_ns, size), the keys of files gone, the
    stored rows it compared with, and how many files it saw."""

    __slots__ = ("candidates", "removed", "known", "total")

    def __init__(self, candidates: list[tuple[MarkdownFile, int, int]], removed: list[str], known: Known,
                 total: int) -> None:
        self.candidates, self.removed, self.known, self.total = candidates, removed, known, total


def scan(ws: Workspace, known: Known, everything: bool, only: set[str] | None = None,
         media: MediaIndexing | None = None) -> Pending:
    """Stat every Markdown file (or, with `only`, just those workspace keys) against `known`.

    With `media`, its media files too: a media file's stat includes its sidecars' (a transcript or
    a `photo.png.md` written later re-reads it), and a sync that extracts takes up the files whose
    text a recall left for later (hash `pending:`).
    """
    suffixes = media.suffixes if media is not None else ()
    files = ws.markdown_files(suffixes) if only is None else ws.files_for_keys(only, suffixes)
    candidates = []
    seen = set()
    for mf in files:
        if mf.key in seen:
            continue
        seen.add(mf.key)
        try:
            st = os.stat(mf.path, follow_symlinks=False)
        except OSError:
            continue
        mtime_ns, size = st.st_mtime_ns, st.st_size
        retry = False
        if media is not None and media.handles(mf.key):
            mtime_ns, size, retry = media_stat(mf, mtime_ns, size, known.get(mf.key), media.extract)
        old = known.get(mf.key)
        if everything or retry or old is None or old[0] != mtime_ns or old[1] != size:
            candidates.append((mf, mtime_ns, size))
    removed = sorted(set(known) - seen)
    return Pending(candidates, removed, known, len(seen))


def media_stat(mf: MarkdownFile, mtime_ns: int, size: int, old: tuple | None,
               extract: bool) -> tuple[int, int, bool]:
    """A media file's (mtime_ns, size) with its sidecars', and whether a sync that extracts must read
    it again (a recall indexed it by name only)."""
    from ..media.settings import modality
    from ..media.sidecars import sidecar_stat

    try:
        side_mtime, side_size = sidecar_stat(str(mf.path), modality(mf.key) == "audio")
    except OSError:
        side_mtime, side_size = 0, 0
    from ..media.settings import PENDING

    retry = extract and old is not None and str(old[2] or "").startswith(PENDING)
    return max(mtime_ns, side_mtime), size + side_size, retry


def recheck(pending: Pending, known: Known) -> Pending:
    """Drop the candidates that another process indexed between our scan and our lock (`known`: now)."""
    candidates = [(mf, m, s) for mf, m, s in pending.candidates
                  if known.get(mf.key) is None or known[mf.key][:2] != (m, s)
                  or str(known[mf.key][2] or "").startswith("pending:")]  # media.settings.PENDING: text to read
    removed = [p for p in pending.removed if p in known]
    return Pending(candidates, removed, known, pending.total)


def changed_paths(pending: Pending) -> list[str]:
    """The paths a recheck must look up again."""
    return [mf.key for mf, _, _ in pending.candidates] + pending.removed


def page_key(path: str) -> set[str]:
    """An entity page's entity key ({'peter'} for bank/entities/Peter.md), else empty."""
    if path.startswith("bank/entities/") and path.count("/") == 2:
        key = path.rsplit("/", 1)[-1][:-3].lower()
        return set() if key in ("readme", "index") else {key}
    return set()


def settings_fingerprint(schema: int, tokenizer: str, date_order: str | None = None,
                         languages: tuple[str, ...] = (), media: dict | None = None) -> dict[str, object]:
    """Everything that shapes a store's derived rows; when it changes the index must be rebuilt.

    `date_order` is the workspace's `[time] date_order` (how facts' slashed dates read), and
    `languages` its explicit `[time] languages` other than English (what else facts' times are
    read in): only when set, so an index built without them keeps its fingerprint.
    """
    from ..markdown import PARSER_VERSION
    from ..tokens import CHUNK_TOKENS
    from .base import SESSION_PARSER
    from .rows import EMBED_SCHEME

    fingerprint: dict[str, object] = {
        "schema": schema, "parser": PARSER_VERSION, "chunk_tokens": CHUNK_TOKENS, "tokenizer": tokenizer,
        "embed_text": EMBED_SCHEME, "sessions": SESSION_PARSER, "date_order": date_order or "unset"}
    if languages:
        fingerprint["fact_languages"] = list(languages)
    if media:  # `[media]` (media.settings.MediaSettings.fingerprint): only when media files are indexed
        fingerprint["media"] = media
    return fingerprint


def fingerprint_change(stored: str | dict | None, current: dict[str, object], has_rows: bool) -> str | None:
    """What changed since the index was built ("chunk_tokens 200 -> 180"), or None."""
    if stored is None:
        return "the index predates settings fingerprints" if has_rows else None
    old = json.loads(stored) if isinstance(stored, str) else stored
    changed = [f"{k} {old.get(k)} -> {v}" for k, v in current.items() if old.get(k) != v]
    changed += [f"{k} {v} -> None" for k, v in old.items() if k not in current]  # a setting taken out
    return ", ".join(changed) or None


def entity_rows(spellings: dict[str, dict[str, int]], fact_counts: dict[str, int],
                pages: dict[str, tuple[str, str, dict[str, Any]]]) -> list[tuple[str, str, str, str | None, str, int]]:
    """Rows of the entities table: (key, slug, name, page path, aliases JSON, fact count).

    `spellings`: key -> {slug as written: mentions}; `pages`: key -> (page path, file stem,
    frontmatter with the page title under "_title"). The most written spelling is the slug;
    the page's frontmatter gives the display name and aliases.
    """
    from ..markdown.names import display_name

    rows = []
    for key in sorted(set(spellings) | set(pages)):
        forms = spellings.get(key, {})
        slug = max(forms, key=lambda s: (forms[s], s)) if forms else pages[key][1]
        page = pages.get(key)
        meta = page[2] if page else {}
        name = str(meta.get("name") or display_name(slug))
        aliases = meta.get("aliases") or []
        if isinstance(aliases, str):
            aliases = [aliases]
        rows.append((key, slug, name, page[0] if page else None, json.dumps([str(a) for a in aliases]),
                     fact_counts.get(key, 0)))
    return rows


def superseded_changes(rows: list[tuple], keys: set[str] | None) -> tuple[list[int], dict[int, int]]:
    """Apply facts.supersession's rule to world-fact rows (id, path, line, content, confidence, ISO day,
    entity key), one row per mention in mention order. Returns (ids judged, {old id: newer id}).

    With `keys`, only facts whose primary (first) entity is among them are judged: facts of other
    entities pulled in by a secondary mention are judged with their own group's full set later.
    """
    from datetime import date

    from ..facts.model import Fact
    from ..facts.supersession import superseded_ids

    grouped: dict[int, list] = {}
    for fid, path, line, content, confidence, day, key in rows:
        grouped.setdefault(fid, [path, line, content, confidence, day, []])[5].append(key)
    built = [
        Fact(fid, path, line, "world", content, confidence, date.fromisoformat(day) if day else None, tuple(ents))
        for fid, (path, line, content, confidence, day, ents) in grouped.items()
    ]
    if keys is not None:
        built = [f for f in built if f.entities and f.entities[0] in keys]
    return [f.id for f in built], superseded_ids(built)
