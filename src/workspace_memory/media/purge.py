"""`memory forget --purge PATTERN` and media: the derived text in the extraction cache is derived
state like the index, so the pattern is replaced there too (the user's image, PDF or recording is
not ours to rewrite: the purge says so, and the file's cache entry keeps the replacement, so the
file is not read again while it is unchanged)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import cache


def purge_cache(state_dir: Path, pattern: str, replacement: str, dry_run: bool = False) -> int:
    """Replace `pattern` (literal, case-sensitive) in every cached extraction; returns the entries
    that held it (with `dry_run`, only counts them)."""
    changed = 0
    for path in cache.entries(state_dir):
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        rewritten = _replace(entry, pattern, replacement)
        if rewritten == entry:
            continue
        changed += 1
        if not dry_run:
            from ..files import atomic_write_text

            atomic_write_text(path, json.dumps(rewritten, ensure_ascii=False, sort_keys=True))
    return changed


def _replace(value: Any, pattern: str, replacement: str) -> Any:
    if isinstance(value, str):
        return value.replace(pattern, replacement)
    if isinstance(value, list):
        return [_replace(v, pattern, replacement) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, pattern, replacement) for k, v in value.items()}
    return value


def purge_transcripts(ws: Any, suffixes: tuple[str, ...], pattern: str, replacement: str,
                      dry_run: bool = False) -> list[str]:
    """Replace `pattern` in the transcript sidecars (.vtt, .srt, .txt) of the indexed voice notes: text
    files the index reads as the recording's words. Each is rewritten under its write lock,
    atomically, its other bytes kept. Returns the keys of the transcripts that held it."""
    from ..files import atomic_write_bytes
    from .settings import modality
    from .sidecars import transcript_sidecar

    needle, new = pattern.encode("utf-8"), replacement.encode("utf-8")
    changed = []
    for mf in ws.markdown_files(suffixes):
        if modality(mf.key) != "audio":
            continue
        side = transcript_sidecar(str(mf.path))
        if side is None:
            continue
        key = ws.key_for(Path(side))
        with ws.write_lock(key):
            data = Path(side).read_bytes()
            if needle not in data:
                continue
            changed.append(key)
            if not dry_run:
                atomic_write_bytes(Path(side), data.replace(needle, new))
    return sorted(changed)
