"""`memory doctor [--fix]`: what is wrong with a workspace and its index, where, and how to fix it.

Findings (each: what, where as path:line, how to fix; `fixable` when --fix repairs it):
- split-core: MEMORY.md and memory.md both exist (only MEMORY.md is read). --fix merges the
  legacy file's blocks and lines that MEMORY.md lacks into it and moves memory.md, byte for byte,
  to `.memory-repair/<timestamp>/` (hidden: never indexed). Nothing is lost.
- index-unreadable / index-settings / index-vectors: an index SQLite cannot read, one built with
  other settings (the fingerprint), or entries not embedded yet.
  --fix runs `memory index` (with --rebuild where needed).
- embedding-provider / embedding-fallback: the configured provider cannot be used (no key, no
  package), or the last `memory index` used a fallback of the chain, and why.
- malformed-retain, binary-skipped, file-truncated (over files.MAX_INDEXED_BYTES), index-warning: what
  indexing warned about, at path:line.
- missing-entity-page: an @mention with no bank/entities/<Slug>.md.
- evidence-moved / evidence-vanished: a link in a bank page (`memory/2025-11-27.md#L12`) whose
  line no longer holds what the link's line says. --fix re-points the links whose text it finds
  elsewhere in the same file (rapidfuzz partial ratio >= EVIDENCE_MATCH).
- symlink-skipped: a symbolic link in the memory folders (links are never followed).

Doctor reads the index after the same cheap sync every read command does. Every --fix write takes
the file's lock, re-reads under it and writes atomically; the findings are then checked again, so
what is reported as remaining is what a second run would find.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from .files import atomic_write_text, decode_markdown
from .fuzzy import PHRASE_IN_TEXT
from .workspace.layout import CORE_NAME, LEGACY_CORE_NAME, REPAIR_DIR, SCANNED_DIRS, Workspace

if TYPE_CHECKING:
    from .index.base import Store, SyncReport
    from .index.vector_space import VectorSpace

EVIDENCE_MATCH = PHRASE_IN_TEXT  # partial ratio between a link's claim and the target line's content
MIN_CLAIM_CHARS = 12  # shorter claims say too little to check a link's content against
_LINK_RE = re.compile(r"\[([^\]\n]*)\]\(([^)\s]+)\)")
_CITATION_RE = re.compile(r"(?<![\w/.-])((?:memory|bank)/[\w./-]+\.md|MEMORY\.md)#L(\d+)(?:-L?(\d+))?")
_TARGET_RE = re.compile(r"^(?P<path>[^#]+\.md)#L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")
_FACT_HEAD_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:[WBOS](?:\([^)]*\))?[\s:]+(?:@[\w-]+\s*)*:?\s*)?")
# Bookkeeping around a claim in reflect's pages: "(superseded by …)", strike-through, the " — kind,
# date" tail, list markers, dates and "c=0.80:".
_CLAIM_NOISE_RE = re.compile(r"\((?:superseded by|replaces:)[^)]*\)|~~|\s[—–]\s.*$|^\s*[-*+]\s+"
                             r"|\b\d{4}-\d{2}-\d{2}\b|\bc=[\d.]+:?")
# Where reflect names the newer fact that replaced a line's claim: the link after it cites that
# fact, not the claim, so its target is checked for being there, never for holding the claim.
_REPLACED_BY_RE = re.compile(r"\(superseded by ")


@dataclass(frozen=True)
class Finding:
    """One problem: what it is, where, and how to fix it."""

    code: str
    what: str
    path: str | None
    line: int | None
    how: str
    fixable: bool = False
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # what --fix needs

    @property
    def where(self) -> str:
        if self.path is None:
            return "workspace"
        return f"{self.path}:{self.line}" if self.line else self.path

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k != "data"} | {"where": self.where}


@dataclass
class DoctorReport:
    findings: list[Finding] = field(default_factory=list)  # what remains
    fixed: list[Finding] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"clean": not self.findings, "findings": [f.to_dict() for f in self.findings],
                "fixed": [f.to_dict() for f in self.fixed], "notices": self.notices}


# (code, what, path, line, how) of findings another pipeline made (reflect's pages)
PageFindings = Callable[[], list[tuple[str, str, str, "int | None", str]]]


class Examined:
    """What doctor examines and how it repairs the index: the workspace, its store, the embedder and
    vectors of the index (index.vector_space), the cheap sync every read does (`refresh`, returning
    notices) and `memory index` (`reindex(rebuild)`). The façade (api) hands them in."""

    def __init__(self, ws: Workspace, store: Store, space: VectorSpace, refresh: Callable[[], list[str]],
                 reindex: Callable[[bool], SyncReport]) -> None:
        self.ws, self.store, self.space, self.refresh, self.reindex = ws, store, space, refresh, reindex


def run_doctor(at: Examined, fix: bool = False, pages: PageFindings | None = None) -> DoctorReport:
    """Check the workspace; with `fix`, repair what can be repaired and check again. `pages`: what
    reflect finds on its pages (api hands it in: doctor and reflect are side by side)."""
    at.ws.require()
    report = DoctorReport()
    found = _check(at, report.notices, pages)
    if fix and any(f.fixable for f in found):
        _fix(at, found, report.notices)
        after = _check(at, report.notices, pages)
        keys = {(f.code, f.path, f.line) for f in after}
        report.fixed = [f for f in found if f.fixable and (f.code, f.path, f.line) not in keys]
        found = after
    report.findings = found
    return report


# -- checks -------------------------------------------------------------------------------------


def _check(at: Examined, notices: list[str], pages: PageFindings | None = None) -> list[Finding]:
    ws = at.ws
    found = _split_core(ws)
    damaged = at.store.damaged()  # probed before opening: opening moves a damaged index aside
    if damaged:
        return [*found, Finding("index-unreadable", f"the index cannot be read ({damaged})", _index_where(at), None,
                                "run `memory index --rebuild` (or `memory doctor --fix`); it is rebuilt from "
                                "Markdown", True, {"rebuild": True}), *_symlinks(ws)]
    notices += at.refresh()  # the cheap sync every read does: the index then describes the files
    status = at.store.status()
    found += _index_health(at, notices) + _warnings(status["warnings"]) + _missing_pages(at.store) + _media(ws)
    return found + _evidence(ws) + _symlinks(ws) + _pages(pages)


def _pages(pages: PageFindings | None) -> list[Finding]:
    """What the caller found on reflect's pages (stale MEMORY.md lines, hand edits inside regions:
    reflect.stale.findings, handed in by api, since doctor and reflect are side by side)."""
    return [Finding(code, what, path, line, how) for code, what, path, line, how in (pages() if pages else [])]


def _index_where(at: Examined) -> str:
    """The index's file as a workspace path when the store has one (".memory/index.sqlite")."""
    path = at.store.path
    return at.ws.key_for(Path(path)) if path is not None else at.store.describe()


def _split_core(ws: Workspace) -> list[Finding]:
    try:
        names = set(os.listdir(ws.root))
    except OSError:
        return []
    if CORE_NAME in names and LEGACY_CORE_NAME in names:
        return [Finding("split-core", f"both {CORE_NAME} and {LEGACY_CORE_NAME} exist; only {CORE_NAME} is read",
                        LEGACY_CORE_NAME, None,
                        f"`memory doctor --fix` merges {LEGACY_CORE_NAME} into {CORE_NAME} and archives it "
                        f"under {REPAIR_DIR}/", True)]
    return []


def _index_health(at: Examined, notices: list[str]) -> list[Finding]:
    from .errors import ProviderUnavailable
    from .index.indexer import settings_changed

    out = []
    for check in at.store.health():  # the store itself: SQLite and FTS5, or the server, pgvector, migrations
        if not check["ok"]:
            out.append(Finding(f"store-{check['check']}", check["detail"], _index_where(at), None,
                               "see `memory store health`; docs/postgres.md says what the store needs"))
    stale = settings_changed(at.store.writer(), at.ws.date_order, at.ws.fact_languages)
    if stale:
        out.append(Finding("index-settings", f"the index was built with other settings ({stale})", _index_where(at),
                           None,
                           "run `memory index --rebuild` (or `memory doctor --fix`)", True, {"rebuild": True}))
    try:
        embedder, _ = at.space.embedder()
    except ProviderUnavailable as exc:
        return [*out, Finding("embedding-provider", str(exc), None, None,
                              "set the provider's key or URL in the environment or memory.toml [embedding], "
                              "or add a fallback (fallback = [\"local\"])")]
    out += _embedding_space(at.space, notices)
    count = (at.store.vectors(embedder).missing() or 0) if embedder is not None else 0
    if count:
        out.append(Finding("index-vectors", f"{count} text(s) have no embedding yet; semantic search misses them",
                           _index_where(at), None, "run `memory index` (or `memory doctor --fix`)", True))
    return out


def _embedding_space(vectors: VectorSpace, notices: list[str]) -> list[Finding]:
    """The space in use as a notice (provider, model, dimensions, chain, batch jobs, tokens); a
    finding when it is a fallback's: the primary failed at the last `memory index` (embed.chain)."""
    space = vectors.describe()
    if not space or not space["provider"]:
        return []
    tokens = sum(space["tokens_sent"].values())
    notices.append(f"embedding: {space['provider']}/{space['model']}, {space['dimensions'] or '?'} dimensions"
                   + (f", chain {' -> '.join(space['chain'])}" if len(space["chain"]) > 1 else "")
                   + (f", {len(space['batch_jobs'])} batch job(s) pending" if space["batch_jobs"] else "")
                   + (f", {tokens} token(s) sent" if tokens else ""))
    if not space["fallback_in_use"]:
        return []
    why = f": {space['fallback_reason']}" if space["fallback_reason"] else ""
    return [Finding("embedding-fallback", f"embedding with the fallback {space['provider']}/{space['model']}, not "
                    f"{space['chain'][0]}{why}", None, None,
                    f"fix {space['chain'][0]} (key, URL, quota), then run `memory index`: it moves back to it")]


def _media(ws: Workspace) -> list[Finding]:
    """An extractor `[media]` needs that this machine lacks: media files are then found by name only."""
    if "media" not in ws.config:
        return []
    from .media.available import report
    from .media.settings import media_settings

    return [Finding("media-extractor", line.split(" (", 1)[0], None, None, line.split(" (", 1)[1].rstrip(")"))
            for line in report(media_settings(ws.config))["missing"]]


def _warnings(warnings: list[dict[str, Any]]) -> list[Finding]:
    from .media.reading import is_media_path

    out = []
    for w in warnings:
        path, line, message = w["path"], w["line"], w["message"]
        if message.startswith("not a text file"):
            out.append(Finding("binary-skipped", "binary file with a .md name; skipped", path, None,
                               "remove it, or rename it without the .md extension"))
        elif message.startswith("file is ") and "are indexed" in message:
            out.append(Finding("file-truncated", message, path, line,
                               "split the file (each file is indexed up to that limit; the rest is never read)"))
        elif is_media_path(path):
            out.append(Finding("media-skipped", message, path, None,
                               "it is found by its name and metadata; replace it with a readable copy, or "
                               f"describe it in {path}.md (a sidecar you write wins)"))
        elif message.startswith("confidence ") and "outside 0..1" in message:
            out.append(Finding("opinion-confidence", message, path, line,
                               "write a confidence in 0..1 (0.7), or a percentage with % (70%)"))
        elif message.startswith("not a Retain fact"):
            out.append(Finding("malformed-retain", message, path, line,
                               'write it as "- W|B|O|S[(c=0..1)] @Entity: text" or move it out of ## Retain '
                               "(it is indexed as plain text meanwhile)"))
        else:
            out.append(Finding("index-warning", message, path, line, "edit the line; it is indexed as it is"))
    return out


def _missing_pages(store) -> list[Finding]:  # index.base.Store
    out = []
    for ent in sorted(store.entities(), key=lambda e: e.key):
        if ent.page_path:
            continue
        newest = store.entity_facts(ent.key, 1)
        path, line = (newest[0]["path"], newest[0]["line"]) if newest else (None, None)
        out.append(Finding("missing-entity-page",
                           f"@{ent.slug} is mentioned ({ent.fact_count} fact(s)) but has no entity page", path, line,
                           f"run `memory reflect` (it writes bank/entities/{ent.slug}.md) or write that page"))
    return out


def _symlinks(ws: Workspace) -> list[Finding]:
    out = []
    tops = [ws.root / name for name in (CORE_NAME, LEGACY_CORE_NAME)]
    for top in tops:
        if top.is_symlink():
            out.append(_link_finding(ws, top))
    for folder in [ws.root / d for d in SCANNED_DIRS] + [p for p in ws.extra_roots() if p.is_dir()]:
        if folder.is_symlink():
            out.append(_link_finding(ws, folder))
            continue
        for here, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(dirs + files):
                entry = Path(here) / name
                if entry.is_symlink() and (name in dirs or name.lower().endswith(".md")):
                    out.append(_link_finding(ws, entry))
            dirs[:] = [d for d in dirs if not (Path(here) / d).is_symlink()]
    return out


def _link_finding(ws: Workspace, path: Path) -> Finding:
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return Finding("symlink-skipped", f"symbolic link to {target}; links are never followed, so it is not indexed",
                   ws.key_for(path), None,
                   "replace the link by the file or folder itself, or add its target to extra_paths in memory.toml")


# -- evidence links ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Link:
    span: tuple[int, int]  # where the link is in its line
    key: str  # the workspace file it points at
    start: int
    end: int | None


def _evidence(ws: Workspace) -> list[Finding]:
    out: list[Finding] = []
    files: dict[str, list[str] | None] = {}
    for mf in ws.core_and_bank_files():
        if mf.role != "bank":
            continue
        try:
            with open(mf.path, "rb") as fh:
                lines = decode_markdown(fh.read()).text.replace("\r\n", "\n").split("\n")
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            out += _check_line(ws, mf.key, number, line, files)
    return out


def links_in(page: str, line: str) -> list[_Link]:
    """The evidence links of one bank-page line: Markdown links (relative to the page) and bare citations."""
    found: list[_Link] = []
    taken: list[tuple[int, int]] = []
    for m in _LINK_RE.finditer(line):
        taken.append(m.span())
        target = _TARGET_RE.match(m[2])
        if not target or "://" in m[2]:
            continue
        key = posixpath.normpath(posixpath.join(posixpath.dirname(page), target["path"]))
        if key.startswith("../") or posixpath.isabs(key):
            continue  # outside the workspace: not evidence doctor can check
        found.append(_Link(m.span(), key, int(target["start"]), int(target["end"]) if target["end"] else None))
    for m in _CITATION_RE.finditer(line):
        if any(a <= m.start() < b for a, b in taken):
            continue
        found.append(_Link(m.span(), m[1], int(m[2]), int(m[3]) if m[3] else None))
    return found


def _claim(line: str) -> str:
    """What a bank line says, without its links and bookkeeping (dates, kinds, "superseded by")."""
    text = _CITATION_RE.sub("", _LINK_RE.sub("", line))
    return _norm(_CLAIM_NOISE_RE.sub(" ", text))


def _norm(text: str) -> str:
    return " ".join(text.replace("@", "").replace("-", " ").casefold().split())


def _content(line: str) -> str:
    """A target line's content: without the list marker and the Retain head ("W @Peter:"); "" for a heading."""
    if line.lstrip().startswith("#"):
        return ""
    # The same bookkeeping comes off as off the claim: a fact whose text itself holds "~~" or a date
    # (a forged "~~ (invalid since 2025-01-01: …)" is text, as the parser reads it) must still match
    # its copy on a bank page, which shows the same characters.
    return _norm(_CLAIM_NOISE_RE.sub(" ", _FACT_HEAD_RE.sub("", line, count=1)))


def _score(claim: str, line: str) -> float:
    """How well a target line holds the claim (rapidfuzz partial ratio, 0 for lines too short to tell)."""
    content = _content(line)
    return fuzz.partial_ratio(content, claim) if len(content) >= 8 else 0.0


def _matches(claim: str, line: str) -> bool:
    return _score(claim, line) >= EVIDENCE_MATCH


def _check_line(ws: Workspace, page: str, number: int, line: str,
                files: dict[str, list[str] | None]) -> list[Finding]:
    links = links_in(page, line)
    if not links:
        return []
    claim = _claim(line)
    newer = {m.end() for m in _REPLACED_BY_RE.finditer(line)}
    out = []
    for link in links:
        if link.key not in files:
            files[link.key] = _target_lines(ws, link.key)
        target = files[link.key]
        cited = line[link.span[0]:link.span[1]]
        if target is None:
            out.append(Finding("evidence-vanished", f"{cited} points at {link.key}, which does not exist", page, number,
                               "find the fact and fix the link, or remove it; `memory reflect` rewrites its own links"))
            continue
        here = link.start <= len(target) and (len(claim) < MIN_CLAIM_CHARS or link.span[0] in newer
                                              or _matches(claim, target[link.start - 1]))
        if here:
            continue
        moved = None
        if len(claim) >= MIN_CLAIM_CHARS and link.span[0] not in newer:  # the best match; of equals, the nearest
            scored = [(_score(claim, text), -abs(n - link.start), n) for n, text in enumerate(target, 1)]
            best = max(scored, default=(0.0, 0, None))
            moved = best[2] if best[0] >= EVIDENCE_MATCH else None
        if moved is not None:
            out.append(Finding("evidence-moved", f"{cited} now points at another line; the text is at line {moved}",
                               page, number, "`memory doctor --fix` re-points the link", True,
                               {"span": link.span, "old": link.start, "new": moved, "text": line}))
        elif link.start > len(target) or len(links) == 1:
            out.append(Finding("evidence-vanished", f"{cited}: the line it cites is no longer in {link.key}",
                               page, number,
                               "find the fact and fix the link, or remove it; `memory reflect` rewrites its own links"))
    return out


def _target_lines(ws: Workspace, key: str) -> list[str] | None:
    mf = next(ws.files_for_keys({key}), None)
    if mf is None:
        return None
    try:
        with open(mf.path, "rb") as fh:
            text = decode_markdown(fh.read()).text.replace("\r\n", "\n")
    except OSError:
        return None
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def repoint(line: str, span: tuple[int, int], old: int, new: int) -> str:
    """The line with the link at `span` moved from #L<old> to #L<new> (a range moves with it)."""
    a, b = span
    shift = new - old

    def move(m: re.Match[str]) -> str:
        end = f"-L{int(m[2]) + shift}" if m[2] else ""
        return f"#L{int(m[1]) + shift}{end}" if int(m[1]) == old else m[0]

    return line[:a] + re.sub(r"#L(\d+)(?:-L?(\d+))?", move, line[a:b]) + line[b:]


# -- fixes --------------------------------------------------------------------------------------


def _fix(at: Examined, found: list[Finding], notices: list[str]) -> None:
    ws = at.ws
    for finding in found:
        if finding.code == "split-core":
            notices.append(merge_split_core(ws))
    by_page: dict[str, list[Finding]] = {}
    for finding in found:
        if finding.code == "evidence-moved":
            by_page.setdefault(finding.path or "", []).append(finding)
    for page, fixes in sorted(by_page.items()):
        _repoint_page(ws, page, fixes, notices)
    index = [f for f in found if f.code.startswith("index-")]
    if index:
        report = at.reindex(any(f.data.get("rebuild") for f in index))
        notices += report.notices


def _repoint_page(ws: Workspace, page: str, fixes: list[Finding], notices: list[str]) -> None:
    path = ws.root / page
    with ws.write_lock(page):  # re-read under the lock: only lines still as checked are changed
        data = path.read_bytes()
        bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
        text = data.decode("utf-8-sig")
        newline = "\r\n" if "\r\n" in text else "\n"
        lines = text.replace("\r\n", "\n").split("\n")
        by_line: dict[int, list[Finding]] = {}
        for finding in fixes:
            by_line.setdefault((finding.line or 0) - 1, []).append(finding)
        changed = False
        for idx, found in sorted(by_line.items()):
            if not 0 <= idx < len(lines) or lines[idx] != found[0].data["text"]:
                notices.append(f"{page}:{idx + 1} changed since it was checked; left as is")
                continue
            for finding in sorted(found, key=lambda f: -f.data["span"][0]):  # right to left: spans stay valid
                lines[idx] = repoint(lines[idx], finding.data["span"], finding.data["old"], finding.data["new"])
            changed = True
        if changed:
            atomic_write_text(path, bom + newline.join(lines))


def merge_split_core(ws: Workspace) -> str:
    """Merge memory.md into MEMORY.md and archive memory.md under .memory-repair/ (both files locked)."""
    from .agent.core_write import read_core_text

    canonical, legacy = ws.root / CORE_NAME, ws.root / LEGACY_CORE_NAME
    with ws.write_lock(CORE_NAME), ws.write_lock(LEGACY_CORE_NAME):
        if not (canonical.is_file() and legacy.is_file()):
            return "nothing to merge: the split was resolved meanwhile"
        text, bom, newline = read_core_text(canonical)
        old, _, _ = read_core_text(legacy)
        merged = merge_core_texts(text, old)
        if merged != text:
            atomic_write_text(canonical, bom + merged.replace("\n", newline))
        folder = ws.root / REPAIR_DIR / datetime.now().strftime("%Y%m%dT%H%M%S")
        suffix = 1
        while folder.exists():
            suffix += 1
            folder = folder.with_name(f"{folder.name.split('-')[0]}-{suffix}")
        folder.mkdir(parents=True)
        os.replace(legacy, folder / LEGACY_CORE_NAME)  # the original, byte for byte
    where = (folder / LEGACY_CORE_NAME).relative_to(ws.root).as_posix()
    return f"merged {LEGACY_CORE_NAME} into {CORE_NAME}; the original is kept at {where}"


def merge_core_texts(canonical: str, legacy: str) -> str:
    """MEMORY.md text with what memory.md has and it lacks: missing blocks whole, missing lines appended."""
    from .agent import core
    from .agent.core import CoreSettings, parse_core
    from .errors import CoreEditError

    unlimited = CoreSettings(limit=10**9)  # a repair never drops text for a limit
    old = parse_core(legacy, unlimited)
    have = {line.strip() for line in canonical.split("\n") if line.strip()}
    first = old.blocks[0].heading if old.blocks else len(old.lines)
    # (label, lines MEMORY.md lacks, the block's raw body): the preamble's loose lines become a block.
    loose = [line for line in old.lines[:first] if line.strip() and not line.startswith("# ")
             and line.strip() not in have]
    pieces = [(f"From {LEGACY_CORE_NAME}", loose, loose)]
    for block in old.blocks:
        missing = [old.lines[i] for i in block.value_index if old.lines[i].strip() and old.lines[i].strip() not in have]
        pieces.append((block.label, missing, old.lines[block.heading + 1:block.end]))
    text = canonical
    for label, missing, body in pieces:
        if not missing:
            continue
        if parse_core(text, unlimited).find(label) is None:
            text = _append_raw(text, [f"## {label}", *body])
            continue
        try:
            text = core.append(text, label, "\n".join(missing), unlimited).text
        except CoreEditError:  # e.g. a line that looks like a heading: keep it verbatim in its own block
            text = _append_raw(text, [f"## {label} (from {LEGACY_CORE_NAME})", *missing])
    return text


def _append_raw(text: str, lines: list[str]) -> str:
    """A block's `lines` appended verbatim at the end of `text`, after one blank line."""
    body = text.rstrip("\n")
    block = "\n".join(lines).strip("\n")
    return (body + "\n\n" if body else "") + block + "\n"
