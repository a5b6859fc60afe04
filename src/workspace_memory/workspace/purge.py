"""`memory forget --purge PATTERN`: really remove a text (a secret pasted by mistake) from the Markdown.

Every occurrence of PATTERN (literal, case-sensitive) in the workspace's Markdown is replaced by
PURGED ("[purged]"), in every indexed file (MEMORY.md, memory/, bank/, extra paths) and in the
repair archives that `memory doctor --fix` keeps (`.memory-repair/`). bank/opinions.md keeps
statements in a JSON ledger, where "--" and quotes are escaped, and opinion keys made of the
statement's first words in lower case: those spellings are replaced too.
The bytes around each occurrence are kept exactly (even in a file that is not valid UTF-8), each
file is rewritten under its write lock, atomically. `plan` only looks; `apply` writes.

What this module cannot reach: session transcripts (OpenClaw's files; their entries in the index
are rewritten by the store), and copies outside the workspace (git history, backups).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError
from ..files import atomic_write_bytes
from ..markdown.retain import slugify
from .layout import REPAIR_DIR, Workspace

PURGED = "[purged]"
MIN_PATTERN = 4  # shorter patterns would match inside ordinary words everywhere


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


def check_pattern(pattern: str) -> None:
    """A pattern is one line of at least MIN_PATTERN characters that are not all blank."""
    if "\n" in pattern or "\r" in pattern:
        raise UserError("--purge PATTERN must be one line (purge each line separately)")
    if len(pattern.strip()) < MIN_PATTERN:
        raise UserError(f"--purge PATTERN must have at least {MIN_PATTERN} characters")


def replacement_for(pattern: str) -> str:
    """PURGED, or nothing when the pattern occurs in PURGED itself (it would survive the purge)."""
    return "" if pattern in PURGED else PURGED


def spellings(pattern: str, replacement: str) -> list[tuple[bytes, bytes]]:
    """(old, new) byte strings to replace: the pattern, its spellings in JSON (reflect's ledger) and
    as part of a slug (an opinion's key is made of its first words, lower-cased)."""
    pairs = [(pattern, replacement)]
    escaped = json.dumps(pattern, ensure_ascii=False)[1:-1]
    slug = slugify(pattern).lower()
    for variant in (escaped, escaped.replace("--", "-\\u002d"), slug):
        if variant != pattern and len(variant) >= MIN_PATTERN:
            pairs.append((variant, slugify(replacement).lower() if variant == slug else replacement))
    return [(old.encode("utf-8"), new.encode("utf-8")) for old, new in dict(pairs).items()]


def plan(ws: Workspace, pattern: str) -> PurgePlan:
    """Find every line of the workspace's Markdown that holds the pattern (nothing is written)."""
    check_pattern(pattern)
    out = PurgePlan(pattern, replacement_for(pattern))
    pairs = spellings(pattern, out.replacement)
    for key, path in _files(ws):
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        if not any(old in data for old, _ in pairs):
            continue
        out.files[key] = Path(path)
        for number, raw in enumerate(data.split(b"\n"), 1):
            if any(old in raw for old, _ in pairs):
                after = _replace(raw, pairs).decode("utf-8", errors="replace").rstrip("\r")
                out.hits.append(PurgeHit(key, number, after))
    return out


def apply(ws: Workspace, purge: PurgePlan) -> list[str]:
    """Rewrite the planned files (re-read under each file's lock); returns the keys of those changed."""
    pairs = spellings(purge.pattern, purge.replacement)
    changed = []
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
    return changed


def _replace(data: bytes, pairs: list[tuple[bytes, bytes]]) -> bytes:
    for old, new in pairs:
        data = data.replace(old, new)
    return data


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
