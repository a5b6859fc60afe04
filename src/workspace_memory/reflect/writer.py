"""Read, plan, commit: how reflect changes bank pages without losing anybody's edit.

Every page reflect may rewrite is read first (exactly, or refused); the new text is planned in
memory; at the end each changed page is written under the file's write lock (the lock retain
and core edits take too), only if nobody changed it since it was read, and atomically.
"""

from __future__ import annotations

from pathlib import Path

from ..files import atomic_write_text
from ..workspace.layout import Workspace
from .regions import RegionError


class PageWriter:
    """The pages one reflect run read and the writes it plans."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.root: Path = ws.root
        self.reads: dict[str, str | None] = {}  # what each planned file held when read
        self.boms: set[str] = set()  # files that start with a UTF-8 byte-order mark (kept on write)
        self.planned: dict[str, str] = {}

    def read(self, key: str) -> str | None:
        """A workspace text file as str (None if missing); refuses files reflect must not rewrite."""
        path = self.root / key
        # Symlinks are never followed (DESIGN §1): not the page, nor bank/ or bank/entities/ above it.
        rel = Path(key)
        for part in [rel, *rel.parents[:-1]]:  # parents end with "." (the workspace itself)
            if (self.root / part).is_symlink():
                raise RegionError(f"{part.as_posix()} is a symbolic link")
        if not path.exists():
            self.reads[key] = None
            return None
        text = decode_page(path.read_bytes(), key)
        if text.startswith("\ufeff"):
            self.boms.add(key)
            text = text[1:]
        self.reads[key] = text
        return text

    def plan(self, key: str, text: str) -> bool:
        """Plan a write; True when it changes the file."""
        if text == self.reads.get(key):
            return False
        self.planned[key] = text
        return True

    def commit(self, dry_run: bool) -> tuple[list[str], list[str]]:
        """Write the planned pages (unless `dry_run`); returns (changed keys, notices)."""
        changed: list[str] = []
        notices: list[str] = []
        for key in sorted(self.planned):
            if dry_run:
                changed.append(key)
                continue
            path = self.root / key
            bom = "\ufeff" if key in self.boms else ""
            with self.ws.write_lock(key):  # the same lock as retain and core edits
                try:
                    current = decode_page(path.read_bytes(), key) if path.exists() else None
                except RegionError:
                    current = ""
                if current != (None if self.reads.get(key) is None else bom + self.reads[key]):
                    # Trigger: someone saved the page while we were reflecting. Outcome: keep their version.
                    notices.append(f"{key} changed while reflecting; left as is (run reflect again)")
                    continue
                atomic_write_text(path, bom + self.planned[key])
            changed.append(key)
        return changed, notices


def decode_page(data: bytes, key: str) -> str:
    """Strict UTF-8: a page reflect cannot read exactly is a page it must not rewrite."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RegionError(f"{key} is not valid UTF-8") from None
    if "\x00" in text:
        raise RegionError(f"{key} contains NUL bytes")
    return text
