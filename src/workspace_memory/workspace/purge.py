"""`memory forget --purge PATTERN`: really remove a text (a secret pasted by mistake) from every
source the index is built from, so that no rebuild can bring it back.

`plan` looks (it writes nothing) and finds every copy:
- the indexed Markdown (MEMORY.md, memory/, bank/, extra paths) and the repair archives that
  `memory doctor --fix` keeps (`.memory-repair/`), line by line;
- the session transcripts of `[sessions] paths`, line by line: a rebuild reads them again;
- every other file of the workspace (hidden folders, non-Markdown files), which the engine does
  not read: listed, never changed (`.memory/` is the index's, which the store purges; `.git/`
  holds compressed history, out of reach as any copy outside the workspace).

`apply` first checks that it can rewrite every source that holds the text, and refuses with the
list (changing nothing) when one cannot be (read-only, gone); then:
- each Markdown file: every occurrence becomes PURGED ("[purged]"), byte-exact around it, under
  the file's write lock, atomically. bank/opinions.md keeps statements in a JSON ledger, where
  "--" and quotes are escaped, and opinion keys made of the statement's first words in lower
  case: those spellings are replaced too;
- each transcript: redacted in place, every occurrence (as written, or as JSON spells it) becomes
  a marker of the same length ("[purged]" and spaces), written at its offset in the same file.
  OpenClaw appends to its transcripts while it runs: a new file renamed over one would lose what
  it appends meanwhile, and the same length keeps every offset the index recorded. A line the
  marker would make invalid JSON (a text that spans two fields) becomes a `{"type": "purged"}`
  line of the same length.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError
from ..files import atomic_write_bytes
from ..limits import clip
from ..markdown.retain import slugify
from .layout import REFLECT_REGIONS, REPAIR_DIR, STATE_DIR, Workspace

PURGED = "[purged]"
MIN_PATTERN = 4  # shorter patterns would match inside ordinary words everywhere
MAX_SCANNED_BYTES = 64 * 1_048_576  # a file of the workspace bigger than this is named, not searched
_NOT_SCANNED = (STATE_DIR, ".git")  # the index's own folder (the store purges it), git's compressed history


@dataclass(frozen=True)
class PurgeHit:
    """One line that holds the pattern: where, and how it reads after the purge."""

    path: str
    line: int
    after: str


@dataclass
class PurgePlan:
    """What a purge changes in the Markdown (`hits`, by file) and what it writes instead."""

    pattern: str
    replacement: str
    hits: list[PurgeHit] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)  # key -> path of every file with a hit
    transcript_hits: list[PurgeHit] = field(default_factory=list)  # `sessions/<name>`, line, the line after
    transcripts: dict[str, Path] = field(default_factory=dict)  # key -> path of every transcript with a hit
    copies: list[str] = field(default_factory=list)  # other files of the workspace that hold it (not read)
    unsearched: list[str] = field(default_factory=list)  # files too big to search


def check_pattern(pattern: str) -> None:
    """A pattern is one line of at least MIN_PATTERN characters that are not all blank."""
    if "\n" in pattern or "\r" in pattern:
        raise UserError("--purge PATTERN must be one line (purge each line separately)")
    if len(pattern.strip()) < MIN_PATTERN:
        raise UserError(f"--purge PATTERN must have at least {MIN_PATTERN} characters")


def replacement_for(pattern: str) -> str:
    """PURGED, or nothing when the pattern occurs in PURGED itself (it would survive the purge)."""
    return "" if pattern in PURGED else PURGED


def spellings(pattern: str, replacement: str, slugs: bool = True) -> list[tuple[bytes, bytes]]:
    """(old, new) byte strings to replace: the pattern, its spellings in JSON (reflect's ledger, a
    transcript) and, with `slugs`, as part of a slug (an opinion's key is made of its first words,
    lower-cased; only reflect writes those, on its bank pages)."""
    pairs = [(pattern, replacement)]
    escaped = json.dumps(pattern, ensure_ascii=False)[1:-1]
    ascii_escaped = json.dumps(pattern)[1:-1]  # as a transcript writer that escapes non-ASCII spells it
    slug = slugify(pattern).lower()
    for variant in (escaped, ascii_escaped, escaped.replace("--", "-\\u002d"), *([slug] if slugs else [])):
        if variant != pattern and len(variant) >= MIN_PATTERN:
            pairs.append((variant, slugify(replacement).lower() if variant == slug else replacement))
    return [(old.encode("utf-8"), new.encode("utf-8")) for old, new in dict(pairs).items()]


def plan(ws: Workspace, pattern: str) -> PurgePlan:
    """Find every copy of the pattern in the workspace and its transcripts (nothing is written)."""
    check_pattern(pattern)
    out = PurgePlan(pattern, replacement_for(pattern))
    pairs = spellings(pattern, out.replacement)
    as_written = spellings(pattern, out.replacement, slugs=False)  # in files that reflect does not write
    seen: set[str] = set()
    for key, path in _files(ws):
        seen.add(os.path.realpath(path))
        data = _read(path)
        if data is None or not any(old in data for old, _ in pairs):
            continue
        out.files[key] = Path(path)
        out.hits += _lines(key, data, lambda raw: _replace(raw, pairs))
    from .transcripts import session_files  # only a purge reads the transcripts' settings here

    for sf in session_files(ws)[0]:
        seen.add(os.path.realpath(sf.path))
        data = _read(sf.path)
        if data is None or not any(old in data for old, _ in as_written):
            continue
        out.transcripts[sf.key] = Path(sf.path)
        out.transcript_hits += [PurgeHit(h.path, h.line, clip(h.after, 300)) for h in
                                _lines(sf.key, data, lambda raw: redact_line(raw, as_written))]
    _other_copies(ws, as_written, seen, out)
    return out


def problems(purge: PurgePlan) -> list[str]:
    """The sources holding the text that cannot be rewritten (`apply` refuses while there is one)."""
    out = []
    for key, path in [*purge.files.items(), *purge.transcripts.items()]:
        if path.is_symlink() or not path.is_file():
            out.append(f"{key} (gone, or not a file any more)")
        elif not os.access(path, os.R_OK | os.W_OK):
            out.append(f"{key} ({path}: not writable)")
    return out


def apply(ws: Workspace, purge: PurgePlan) -> list[str]:
    """Rewrite the planned Markdown files (re-read under each file's lock) and redact the planned
    transcripts in place; returns the keys of those changed. Refuses (a UserError naming every
    one, nothing written) when a source that holds the text cannot be rewritten."""
    refused = problems(purge)
    if refused:
        raise UserError(f"purge refused, nothing changed: {len(refused)} source(s) holding the text cannot be "
                        f"rewritten, and a rebuild would read it from them again: {'; '.join(refused)}")
    pairs = spellings(purge.pattern, purge.replacement)
    changed = []
    for key, path in purge.transcripts.items():
        if redact_in_place(path, spellings(purge.pattern, purge.replacement, slugs=False)):
            changed.append(key)
    for key, path in purge.files.items():
        if path.is_symlink():
            continue
        with ws.write_lock(key):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            new = _replace(data, pairs)
            if new != data:
                atomic_write_bytes(path, new)
                changed.append(key)
    _purge_reflect_copy(ws, pairs)
    return changed


def _purge_reflect_copy(ws: Workspace, pairs: list[tuple[bytes, bytes]]) -> None:
    """Reflect's copy of what it wrote in each region (reflect.writer) holds the pages' text: the
    same spellings become the same marker there, so the purged pages and the copy still agree."""
    path = ws.root / REFLECT_REGIONS
    with ws.write_lock(REFLECT_REGIONS):
        try:
            data = path.read_bytes()
        except OSError:
            return
        new = _replace(data, pairs)
        if new != data:
            atomic_write_bytes(path, new)


def _replace(data: bytes, pairs: list[tuple[bytes, bytes]]) -> bytes:
    for old, new in pairs:
        data = data.replace(old, new)
    return data


def marker(length: int) -> bytes:
    """The same-length stand-in of a transcript's redacted bytes: "[purged]" and spaces, or "[**]"."""
    if length >= len(PURGED):
        return (PURGED + " " * (length - len(PURGED))).encode()
    return ("[" + "*" * max(0, length - 2) + "]")[:length].encode()


def redact_line(raw: bytes, pairs: list[tuple[bytes, bytes]]) -> bytes:
    """One transcript line with every spelling of the text replaced by a marker of its length; a line
    that would stop being JSON becomes a `{"type": "purged"}` line of the same length."""
    new = raw
    for old, _ in pairs:
        new = new.replace(old, marker(len(old)))
    if new == raw:
        return raw
    body = new.rstrip(b"\r")
    try:
        json.loads(body)
        return new
    except ValueError:
        stand_in = next(f for f in (b'{"type":"purged"}', b"{}", b"") if len(f) <= len(body))
        return stand_in.ljust(len(body)) + new[len(body):]  # JSON allows the trailing spaces


def redact_in_place(path: Path, pairs: list[tuple[bytes, bytes]]) -> bool:
    """Write each redacted line of a transcript over itself (same length, same file): True when one changed."""
    changed = False
    with open(path, "r+b") as fh:
        data = fh.read()
        offset = 0
        for raw in data.split(b"\n"):
            new = redact_line(raw, pairs)
            if new != raw:
                fh.seek(offset)
                fh.write(new)
                changed = True
            offset += len(raw) + 1
        if changed:
            fh.flush()
            os.fsync(fh.fileno())
    return changed


def _read(path: str | Path) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def _lines(key: str, data: bytes, after: Callable[[bytes], bytes]) -> list[PurgeHit]:
    """A PurgeHit for every line of `data` that `after` changes."""
    hits = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        new = after(raw)
        if new != raw:
            hits.append(PurgeHit(key, number, new.decode("utf-8", errors="replace").rstrip("\r")))
    return hits


def _other_copies(ws: Workspace, pairs: list[tuple[bytes, bytes]], seen: set[str], out: PurgePlan) -> None:
    """Every other file of the workspace that holds the text: hidden folders and non-Markdown files
    included, symbolic links not followed, `.memory/` and `.git/` left out (see the module docstring)."""
    root = str(ws.root)
    for folder, dirs, names in os.walk(root):
        at_root = folder == root
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d))
                         and not (at_root and d in _NOT_SCANNED))
        for name in sorted(names):
            path = os.path.join(folder, name)
            if os.path.islink(path) or os.path.realpath(path) in seen:
                continue
            key = os.path.relpath(path, root).replace(os.sep, "/")
            try:
                if os.path.getsize(path) > MAX_SCANNED_BYTES:
                    out.unsearched.append(key)
                    continue
            except OSError:
                continue
            data = _read(path)
            if data is not None and any(old in data for old, _ in pairs):
                out.copies.append(key)
    out.copies.sort()


def _files(ws: Workspace) -> list[tuple[str, str | Path]]:
    """Every indexed Markdown file, then the Markdown in the repair archives (never indexed, still copies)."""
    files = [(mf.key, mf.path) for mf in ws.markdown_files()]
    archive = ws.root / REPAIR_DIR
    if archive.is_dir() and not archive.is_symlink():
        for folder, dirs, names in os.walk(archive):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
            for name in sorted(names):
                path = Path(folder, name)
                if name.lower().endswith(".md") and not path.is_symlink():
                    files.append((ws.key_for(path), path))
    return files
