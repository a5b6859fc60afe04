"""Where session transcripts are: `[sessions] paths` in memory.toml (opt-in).

```toml
[sessions]
paths = ["~/.openclaw/agents/main/sessions"]   # folders of <sessionId>.jsonl, or single .jsonl files
```

A folder contributes its `*.jsonl` files (not its subfolders: OpenClaw keeps a flat folder; its
`*.jsonl.reset.*` and `*.bak-*` copies do not end in `.jsonl`). Symbolic links are never followed,
as for Markdown. Each transcript's key is `sessions/<file name>`, the path recall cites; two
configured files with the same name keep the first, with a notice. Transcripts are OpenClaw's:
they are only ever read, and `memory get` does not read them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UserError
from .layout import Workspace, sessions_problem

SESSIONS_PREFIX = "sessions/"


@dataclass(frozen=True)
class SessionFile:
    """One transcript to index: its key (`sessions/<file name>`) and where it is."""

    key: str
    path: str | Path  # a str from folder listings: a Path per file costs more than its stat


def session_paths(config: dict[str, Any]) -> list[str]:
    """The configured `[sessions] paths`, checked (a bad value is a UserError naming the key)."""
    problem = sessions_problem(config.get("sessions"))
    if problem:
        raise UserError(f"memory.toml {problem}")
    return (config.get("sessions") or {}).get("paths", [])


def session_files(ws: Workspace) -> tuple[list[SessionFile], list[str]]:
    """The configured transcripts, in a stable order, and notices (a missing folder, a link, a clash)."""
    files: dict[str, SessionFile] = {}
    notices: list[str] = []
    for raw in session_paths(ws.config):
        root = Path(os.path.expanduser(raw))
        root = root if root.is_absolute() else ws.root / root
        if root.is_symlink():
            notices.append(f"[sessions] {raw}: a symbolic link; not followed")
            continue
        if root.is_file() and root.suffix == ".jsonl":
            found = [(root.name, str(root))]
        elif root.is_dir():
            found = _jsonl_in(root)
        else:
            notices.append(f"[sessions] {raw}: no such folder or .jsonl file")
            continue
        for name, path in found:
            key = SESSIONS_PREFIX + name
            if key in files and str(files[key].path) != path:
                notices.append(f"[sessions] {path}: another transcript is already named {name}; skipped")
                continue
            files.setdefault(key, SessionFile(key, path))
    return list(files.values()), notices


def _jsonl_in(folder: Path) -> list[tuple[str, str]]:
    """(name, path) of the transcripts in a folder, by name."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [(e.name, e.path) for e in entries
            if e.name.endswith(".jsonl") and not e.name.startswith(".") and not e.is_symlink()
            and e.is_file(follow_symlinks=False)]
