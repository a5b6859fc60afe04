"""The extraction cache: `.memory/media/<2 hex>/<sha256>.<extractor id>.json`.

Keyed by the file's content hash and by what extracted it (the engine, its version, and
extract.EXTRACTION_VERSION), so a renamed or copied file costs nothing, and a new extractor version reads
the file again. Derived state like the index: never beside the user's files, never committed,
deleted by `forget --purge` along with the index when it holds a purged word.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

CACHE_DIR = "media"  # under the workspace's .memory/
MAX_ENTRY_BYTES = 32 * 1024 * 1024  # a cache file larger than this is not trusted (not ours)
_SAFE = re.compile(r"[^a-z0-9.]+")


def entry_path(state_dir: Path, digest: str, extractor_id: str) -> Path:
    """Where the extraction of the content `digest` by `extractor_id` is kept."""
    return state_dir / CACHE_DIR / digest[:2] / f"{digest}.{_SAFE.sub('-', extractor_id.lower())}.json"


def load(state_dir: Path, digest: str, extractor_id: str) -> dict[str, Any] | None:
    """The cached extraction, or None (absent, unreadable or not ours: extracted again)."""
    path = entry_path(state_dir, digest, extractor_id)
    try:
        if path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return entry if isinstance(entry, dict) and entry.get("kind") in ("image", "pdf", "audio") else None


def store(state_dir: Path, digest: str, extractor_id: str, extraction: dict[str, Any]) -> None:
    """Keep an extraction (atomically: a reader never sees half an entry)."""
    from ..files import atomic_write_text

    path = entry_path(state_dir, digest, extractor_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(extraction, ensure_ascii=False, sort_keys=True))


def entries(state_dir: Path) -> list[Path]:
    """Every cache file (for a purge)."""
    folder = state_dir / CACHE_DIR
    if not folder.is_dir():
        return []
    return sorted(Path(root) / name for root, _, names in os.walk(folder) for name in names
                  if name.endswith(".json"))
