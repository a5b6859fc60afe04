"""Read, plan, commit: how reflect changes bank pages without losing anybody's edit.

Every page reflect may rewrite is read first (exactly, or refused); the new text is planned in
memory; at the end each changed page is written under the file's write lock (the lock retain
and core edits take too), only if nobody changed it since it was read, and atomically.

A hand edit *inside* a generated region is kept too. Reflect keeps a copy of what it last wrote in
each region (`.memory/reflect_regions.json`, REGIONS_FILE); when a region on disk differs from that
copy, a person edited it: the region keeps the person's version, reflect writes the rest of the
page around it, and the run reports a conflict with `path:line` and a diff (`memory reflect --check`
exits 1 on one; `--dry-run` says it too). To let reflect write the region again, undo the edit or
delete the region (markers included). bank/opinions.md has its own rule (reflect.opinions_md:
hand edits become the new baseline) and is not guarded here. Without the copy (a first run, a
deleted `.memory/`) there is nothing to compare: the region is written and the copy made.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

from ..files import atomic_write_text
from ..workspace.layout import REFLECT_REGIONS, Workspace
from .regions import RegionError, find_region, region_body, replace_region

REGIONS_FILE = REFLECT_REGIONS
UNGUARDED = ("bank/opinions.md",)  # hand edits there are the new baseline (reflect.opinions_md)
MAX_DIFF_LINES = 20
_BEGIN_RE = re.compile(r"^<!-- reflect:begin (\S+) -->$")


def region_names(text: str) -> list[str]:
    """The names of the generated regions in a page, in order."""
    return [m[1] for line in text.splitlines() if (m := _BEGIN_RE.match(line.strip()))]


def load_written(root: Path) -> dict[str, dict[str, str]]:
    """{page: {region: the body reflect last wrote}}; {} when there is no readable copy."""
    try:
        data = json.loads((root / REGIONS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def region_conflicts(key: str, text: str, written: dict[str, str]) -> list[tuple[str, int, str]]:
    """(region, line, diff) for every region of `text` whose body differs from what reflect wrote."""
    out = []
    lines = text.splitlines()
    for name in region_names(text):
        last = written.get(name)
        body = region_body(text, name)
        if last is None or body is None or "\n".join(body) == last:
            continue
        span = find_region(lines, name)
        first = next((i for i, (a, b) in enumerate(zip(last.split("\n"), body, strict=False)) if a != b),
                     min(len(body), len(last.split("\n"))))
        line = (span[0] if span else 0) + 2 + first
        diff = list(difflib.unified_diff(last.split("\n"), body, "reflect wrote", "on disk", lineterm="", n=1))
        if len(diff) > MAX_DIFF_LINES:
            diff = diff[:MAX_DIFF_LINES] + [f"... ({len(diff) - MAX_DIFF_LINES} more diff lines)"]
        out.append((name, line, "\n".join(diff)))
    return out


class PageWriter:
    """The pages one reflect run read and the writes it plans."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.root: Path = ws.root
        self.reads: dict[str, str | None] = {}  # what each planned file held when read
        self.boms: set[str] = set()  # files that start with a UTF-8 byte-order mark (kept on write)
        self.planned: dict[str, str] = {}
        self.written = load_written(self.root)  # what reflect last wrote in each region
        self.regions: dict[str, dict[str, str]] = {}  # what this run leaves in each region
        self.conflicts: list[str] = []  # "path:line: ..." and a diff, one per hand-edited region

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
        """Plan a write; True when it changes the file. A region edited by hand keeps the person's version."""
        old = self.reads.get(key)
        if key not in UNGUARDED:
            text = self._keep_hand_edits(key, old, text)
        if text == old:
            return False
        self.planned[key] = text
        return True

    def _keep_hand_edits(self, key: str, old: str | None, text: str) -> str:
        written = self.written.get(key, {})
        kept: dict[str, str] = {}
        edited: set[str] = set()
        if old is not None:
            for name, line, diff in region_conflicts(key, old, written):
                if name in region_names(text):
                    text = replace_region(text, name, region_body(old, name) or [])
                    edited.add(name)
                    self.conflicts.append(f"{key}:{line}: a hand edit inside the generated region '{name}' is kept "
                                          f"(reflect did not rewrite it; undo the edit or delete the region to let it)"
                                          f"\n{diff}")
        for name in region_names(text):
            body = region_body(text, name)
            if name in edited:
                kept[name] = written[name]  # still what reflect wrote: the conflict stays until resolved
            elif body is not None:
                kept[name] = "\n".join(body)
        self.regions[key] = kept
        return text

    def save_regions(self, changed: list[str], skipped: set[str]) -> None:
        """Keep the copy of what this run left in each region (not for a page someone saved meanwhile)."""
        merged = dict(self.written)
        merged.update({key: regions for key, regions in self.regions.items() if key not in skipped})
        if merged != self.written:
            path = self.root / REGIONS_FILE
            path.parent.mkdir(parents=True, exist_ok=True)
            with self.ws.write_lock(REGIONS_FILE):  # the lock `memory forget --purge` takes to rewrite it
                atomic_write_text(path, json.dumps(merged, ensure_ascii=False, sort_keys=True, indent=0) + "\n")

    def commit(self, dry_run: bool) -> tuple[list[str], list[str]]:
        """Write the planned pages (unless `dry_run`); returns (changed keys, notices)."""
        changed: list[str] = []
        notices: list[str] = []
        skipped: set[str] = set()
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
                    skipped.add(key)
                    continue
                atomic_write_text(path, bom + self.planned[key])
            changed.append(key)
        if not dry_run:
            self.save_regions(changed, skipped)
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
