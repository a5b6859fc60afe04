"""Applying a core-memory edit to MEMORY.md on disk: under its lock, re-read, atomic write.

The pure edit (agent/core.py) runs on the text read *under* the file's write lock, the same
lock retain, reflect and doctor --fix take, so two agents editing one block at once are
serialised and neither loses the other's change. A UTF-8 byte-order mark and CRLF line
endings are kept; a file that is not valid UTF-8 is refused rather than rewritten.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import CoreEditError
from ..files import atomic_write_text, decode_markdown, detect_newline
from ..workspace.layout import Workspace
from .core import EditResult

_BOM = "\ufeff"


def read_core_text(path: Path) -> tuple[str, str, str]:
    """(text with "\\n" newlines, BOM prefix or "", the file's newline) of a core file; ("", "", "\\n") if missing."""
    if not path.exists():
        return "", "", "\n"
    data = path.read_bytes()
    decoded = decode_markdown(data)
    if decoded.problems:  # rewriting would replace or drop bytes the user has: refuse, change nothing
        line, problem = decoded.problems[0]
        raise CoreEditError(f"{path.name}:{line}: {problem.split(';')[0]}; fix the file first")
    bom = _BOM if data.startswith(_BOM.encode("utf-8")) else ""
    return decoded.text.replace("\r\n", "\n"), bom, detect_newline(decoded.text)


def edit_core_file(ws: Workspace, edit: Callable[[str], EditResult], *, create: bool = False) -> tuple[str, EditResult]:
    """Run `edit` on the core file's current text under its lock; write the result atomically.

    Returns (the file's workspace key, the result). Without `create`, a missing file is an error.
    """
    ws.require()
    path = ws.core_path
    key = ws.key_for(path)
    if path.is_symlink():  # never write through a link (DESIGN §1)
        raise CoreEditError(f"{key} is a symbolic link; core edits never follow links")
    with ws.write_lock(key):
        if not path.exists() and not create:
            raise CoreEditError(f"{key} does not exist; `memory core create LABEL` starts it")
        text, bom, newline = read_core_text(path)
        result = edit(text)
        if result.changed:
            atomic_write_text(path, bom + result.text.replace("\n", newline))
    return key, result
