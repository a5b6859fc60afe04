"""Where session transcripts are: `[sessions] paths` in memory.toml (opt-in).

```toml
[sessions]
paths = ["~/.openclaw/agents/main/sessions"]   # folders of <sessionId>.jsonl, or single .jsonl files
# OpenClaw 2026.9 keeps them in SQLite: the agent's database, each session one transcript
paths = ["~/.openclaw/agents/main/agent/openclaw-agent.sqlite"]
```

A `.sqlite` path is OpenClaw's agent database: each session of its `transcript_events` table is one
transcript (key `sessions/<sessionId>`), read through a read-only connection (index/session_db.py).

A folder contributes its `*.jsonl` files (not its subfolders: OpenClaw keeps a flat folder; its
`*.jsonl.reset.*` and `*.bak-*` copies do not end in `.jsonl`). Symbolic links are never followed,
as for Markdown. Each transcript's key is `sessions/<file name>`, the path recall cites; two
configured files with the same name keep the first, with a notice. Transcripts are OpenClaw's:
they are only ever read, and `memory get` does not read them.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import UserError
from .layout import Workspace, sessions_problem

SESSIONS_PREFIX = "sessions/"


@dataclass(frozen=True)
class SessionFile:
    """One transcript to index: its key (`sessions/<file name>`) and where it is. A session in
    OpenClaw's database has `database` and `session_id`, and `path` "<database>#<sessionId>"."""

    key: str
    path: str | Path  # a str from folder listings: a Path per file costs more than its stat
    database: str | None = None
    session_id: str | None = None


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
        if root.is_file() and root.suffix == ".sqlite":
            sessions, problem = _sessions_in(root)
            if problem:
                notices.append(f"[sessions] {raw}: {problem}")
            for sid in sessions:
                key = SESSIONS_PREFIX + sid
                if key in files:
                    notices.append(f"[sessions] {root}: another transcript is already named {sid}; skipped")
                    continue
                files[key] = SessionFile(key, f"{root}#{sid}", str(root), sid)
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


def read_only(database: str | Path) -> sqlite3.Connection:
    """A read-only connection to OpenClaw's database (it is OpenClaw's: never written; as every
    SQLite reader of a WAL database, the connection shares its -shm index)."""
    return sqlite3.connect(f"file:{quote(str(database))}?mode=ro", uri=True, timeout=5)


def _sessions_in(database: Path) -> tuple[list[str], str | None]:
    """The session ids of an OpenClaw agent database with transcript events, and a problem, if any."""
    try:
        with contextlib.closing(read_only(database)) as conn:
            rows = conn.execute("SELECT DISTINCT session_id FROM transcript_events ORDER BY session_id").fetchall()
    except sqlite3.Error as exc:
        return [], f"not readable as OpenClaw's agent database ({exc})"
    return [str(r[0]) for r in rows if r[0] and "/" not in str(r[0])], None


def _jsonl_in(folder: Path) -> list[tuple[str, str]]:
    """(name, path) of the transcripts in a folder, by name."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [(e.name, e.path) for e in entries
            if e.name.endswith(".jsonl") and not e.name.startswith(".") and not e.is_symlink()
            and e.is_file(follow_symlinks=False)]
