"""The workspace: where Markdown lives, which files count, and path safety.

Layout (DESIGN §1): MEMORY.md (core; legacy memory.md read only when MEMORY.md is
absent), memory/**/*.md (daily logs and notes), bank/**/*.md (curated pages), plus
extra paths from the optional config file `memory.toml` at the workspace root.
Symlinks are never followed; `.memory/` and hidden folders (repair archives live in
`.memory-repair/`) are never indexed.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from ..dates.parse import date_order_setting, default_languages, languages_setting
from ..errors import IndexBusy, PathRefused, UserError
from ..values import Value

DEFAULT_WORKSPACE = "~/.openclaw/workspace"
CONFIG_NAME = "memory.toml"
OVERLAY_ENV = "MEMORY_CONFIG_OVERLAY"  # JSON laid over memory.toml (overlay_config)
STATE_DIR = ".memory"
REFLECT_REGIONS = f"{STATE_DIR}/reflect_regions.json"  # what reflect last wrote in each region (reflect.writer)
REPAIR_DIR = ".memory-repair"
CORE_NAME = "MEMORY.md"
LEGACY_CORE_NAME = "memory.md"
SCANNED_DIRS = ("memory", "bank")
# Media files (issue 41, `[media]` in memory.toml): OpenClaw's image and audio extensions
# (OpenClaw 2026.9.6's multimodal specs) and PDFs, found under memory/ and the extra paths.
MEDIA_SUFFIXES = {
    "image": (".jpg", ".jpeg", ".png", ".webp", ".gif", ".heic", ".heif"),
    "audio": (".mp3", ".wav", ".ogg", ".opus", ".m4a", ".m2a", ".aac", ".flac"),
    "pdf": (".pdf",),
}
ANY_MEDIA_SUFFIX = tuple(suffix for suffixes in MEDIA_SUFFIXES.values() for suffix in suffixes)
WRITE_LOCK_WAIT = 30.0  # seconds a writer waits for another writer of the same file

# What files.atomic_write_text names its temporary file: ".<name>.<12 hex>.tmp".
_TEMP_RE = re.compile(r"^\.(.+)\.[0-9a-f]{12}\.tmp$")

# A daily log is named by its day: memory/2025-11-27.md (a suffix such as
# memory/2025-11-27-standup.md is still that day's note).
_DAY_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:\b|_|$)")


# A Value, not a frozen dataclass (values.py): every cold recall imports this module and makes one
# per file.
class MarkdownFile(Value):
    """One indexable file: its key (workspace-relative, '/'-separated) and where it is."""

    __slots__ = ("key", "path")

    def __init__(self, key: str, path: str | Path) -> None:
        self.key = key
        self.path = path  # a str from directory walks: building 10,000 Path objects costs more than the stats

    @property
    def day(self) -> date | None:
        """The day a daily log is about, from its file name; None for evergreen files."""
        return day_from_name(self.key)

    @property
    def role(self) -> str:
        """core | daily | bank | note | extra."""
        return file_role(self.key)


def day_from_name(key: str) -> date | None:
    """The date in a `memory/` file name (memory/2025-11-27.md -> 2025-11-27), else None."""
    if not key.startswith("memory/"):
        return None
    match = _DAY_RE.match(key.rsplit("/", 1)[-1])
    if not match:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def file_role(key: str) -> str:
    """Classify a file key: core memory, daily log, bank page, other note, or extra path."""
    if key in (CORE_NAME, LEGACY_CORE_NAME):
        return "core"
    if key.startswith("memory/"):
        return "daily" if day_from_name(key) else "note"
    if key.startswith("bank/"):
        return "bank"
    return "extra"


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every command opens a workspace.
class Workspace:
    """A memory workspace on disk plus its optional configuration."""

    def __init__(self, root: Path, config: dict[str, Any] | None = None) -> None:
        self.root = root
        self.config: dict[str, Any] = {} if config is None else config

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.root, self.config) == (other.root, other.config)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        return f"Workspace(root={self.root!r}, config={self.config!r})"

    @classmethod
    def open(cls, root: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> Workspace:
        """Open the workspace at `root`, else $MEMORY_WORKSPACE, else ~/.openclaw/workspace.

        The folder need not exist yet (`memory init` creates it); its config is read when present.
        """
        env = os.environ if env is None else env
        raw = root or env.get("MEMORY_WORKSPACE") or DEFAULT_WORKSPACE
        resolved = Path(os.path.expanduser(str(raw))).resolve()
        if resolved.exists() and not resolved.is_dir():
            raise UserError(f"workspace {resolved} is not a directory")
        config_path = Path(env["MEMORY_CONFIG"]) if env.get("MEMORY_CONFIG") else resolved / CONFIG_NAME
        config = load_config(config_path)
        if env.get(OVERLAY_ENV):
            config = overlay_config(config, env[OVERLAY_ENV])
        return cls(resolved, config)

    def is_workspace(self) -> bool:
        """True when the folder looks like a memory workspace (what every command but init needs).

        A folder with none of MEMORY.md, memory.md, memory/, bank/, memory.toml or .memory/ is
        refused, so that `memory --workspace / status` cannot scatter a `.memory/` anywhere.
        """
        markers = (CORE_NAME, LEGACY_CORE_NAME, "memory", "bank", CONFIG_NAME, STATE_DIR)
        return self.root.is_dir() and any(os.path.lexists(self.root / m) for m in markers)

    def require(self) -> None:
        """Raise a one-line UserError unless this folder is a workspace (see is_workspace)."""
        if not self.root.is_dir():
            raise UserError(f"no workspace at {self.root} (run `memory init` or pass --workspace)")
        if not self.is_workspace():
            raise UserError(f"{self.root} is not a memory workspace (no MEMORY.md, memory/ or memory.toml); "
                            "run `memory --workspace DIR init` to make it one")

    @property
    def date_order(self) -> str | None:
        """`[time] date_order` ("DMY" or "MDY"), None when unset (checked when the config was read)."""
        return date_order_setting(self.config.get("time"))

    @property
    def fact_languages(self) -> tuple[str, ...]:
        """The explicit `[time] languages` other than English: what else a Retain fact's time is read
        in. Not the locale's default: the index must not depend on the machine that built it."""
        return tuple(lang for lang in languages_setting(self.config.get("time")) or () if lang != "en")

    @property
    def time_languages(self) -> tuple[str, ...]:
        """`[time] languages`: what a question's time phrase may be written in (dates.languages); by default
        English and the locale's language."""
        configured = languages_setting(self.config.get("time"))
        return default_languages() if configured is None else configured

    # -- well-known places -------------------------------------------------------------
    @property
    def state_dir(self) -> Path:
        """`.memory/`: derived state (index, vectors, locks); never committed, always rebuildable."""
        return self.root / STATE_DIR

    @property
    def index_path(self) -> Path:
        return self.state_dir / "index.sqlite"

    @property
    def core_path(self) -> Path:
        """MEMORY.md, or the legacy memory.md when only that one exists."""
        canonical = self.root / CORE_NAME
        legacy = self.root / LEGACY_CORE_NAME
        if not _exists_exact(canonical) and _exists_exact(legacy):
            return legacy
        return canonical

    @contextlib.contextmanager
    def write_lock(self, key: str, wait: float = WRITE_LOCK_WAIT) -> Iterator[None]:
        """Hold the lock of one Markdown file (its workspace key) while re-reading and rewriting it.

        Every writer (retain, reflect, init, core edits, doctor --fix) takes it, then reads the
        file under it and writes atomically, so two writers never overwrite each other's change.
        The lock is a separate file under `.memory/locks/`: the Markdown file itself is replaced
        by a rename on every write, and a lock held on the old inode would protect nothing.
        """
        import hashlib  # lazy: only writers lock files, and a recall writes none

        from ..files import ensure_state_dir, remove_stale_temps
        from ..locks import file_lock

        name = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
        ensure_state_dir(self.state_dir)
        with file_lock(self.state_dir / "locks" / f"{name}.lock", wait) as held:
            if not held:
                raise IndexBusy(f"{key} is being written by another process for over {wait:.0f}s; try again")
            # A writer killed mid-write leaves its temporary file; holding the lock, we know its
            # owner is gone, so it goes now instead of piling up.
            target = Path(key) if os.path.isabs(key) else self.root / key
            remove_stale_temps(target)
            yield

    def daily_path(self, day: date) -> Path:
        return self.root / "memory" / f"{day.isoformat()}.md"

    def extra_roots(self) -> list[Path]:
        """Configured extra Markdown files/folders, resolved; symlinked ones are skipped."""
        roots = []
        for raw in self.config.get("extra_paths", []) or []:
            path = Path(os.path.expanduser(str(raw)))
            path = path if path.is_absolute() else self.root / path
            if path.is_symlink():
                continue
            roots.append(path.resolve())
        return roots

    # -- enumeration ---------------------------------------------------------------------
    def markdown_files(self, media: tuple[str, ...] = ()) -> Iterator[MarkdownFile]:
        """Every indexable Markdown file, never following a symlink, in a stable order.

        `media`: file suffixes (".png", ...) of media files to yield too, from memory/ and the
        extra paths (never bank/: bank pages are the curated Markdown), in the same walk.
        """
        core = self.core_path
        if core.is_file() and not core.is_symlink():
            yield MarkdownFile(core.name, core)
        for folder in SCANNED_DIRS:
            yield from self._walk(self.root / folder, media if folder == "memory" else ())
        for extra in self.extra_roots():
            if extra.is_file() and (extra.suffix.lower() == ".md" or extra.suffix.lower() in media):
                yield MarkdownFile(self.key_for(extra), extra)
            elif extra.is_dir():
                yield from self._walk(extra, media)

    def core_and_bank_files(self) -> Iterator[MarkdownFile]:
        """MEMORY.md and the pages under bank/: the curated memory (trigger recall, doctor's link check)."""
        core = self.core_path
        if core.is_file() and not core.is_symlink():
            yield MarkdownFile(core.name, core)
        yield from self._walk(self.root / "bank")

    def files_for_keys(self, keys: set[str], media: tuple[str, ...] = ()) -> Iterator[MarkdownFile]:
        """The indexable Markdown files among these workspace keys (the rest: gone or not ours).

        The same rules as `markdown_files` (`media`: its media suffixes too), checked for a few
        paths a watcher saw change, so a long-lived process re-syncs them without walking the
        whole workspace.
        """
        roots = [self.root / d for d in SCANNED_DIRS] + self.extra_roots()
        for key in sorted(keys):
            path = Path(key) if os.path.isabs(key) else self.root / key
            lower = key.lower()
            is_media = bool(media) and lower.endswith(media) and not lower.startswith("bank/")
            if not (lower.endswith(".md") or is_media) or not path.is_file():
                continue
            if key in (CORE_NAME, LEGACY_CORE_NAME):
                if path == self.core_path and not path.is_symlink():
                    yield MarkdownFile(key, path)
                continue
            top = next((r for r in roots if path == r or _is_within(path, r)), None)
            if top is None:
                continue
            inside = path.relative_to(top).parts
            links = any((top / Path(*inside[:i])).is_symlink() for i in range(1, len(inside) + 1))
            if not links and not any(p.startswith(".") for p in inside) and not top.is_symlink():
                yield MarkdownFile(key, path)

    def _walk(self, top: Path, media: tuple[str, ...] = ()) -> Iterator[MarkdownFile]:
        if not top.is_dir() or top.is_symlink():
            return
        root = str(self.root) + os.sep
        stack = [str(top)]
        while stack:
            folder = stack.pop()
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            subdirs = []
            for entry in entries:
                if entry.name.startswith(".") or entry.is_symlink():
                    continue  # hidden folders hold state and repair archives; links are never followed
                if entry.is_dir(follow_symlinks=False):
                    subdirs.append(entry.path)
                elif ((entry.name.lower().endswith(".md") or (media and entry.name.lower().endswith(media)))
                      and entry.is_file(follow_symlinks=False)):
                    inside = entry.path.startswith(root)
                    key = entry.path[len(root):].replace(os.sep, "/") if inside else entry.path
                    yield MarkdownFile(key, entry.path)
            stack.extend(reversed(subdirs))

    def sweep_stale_temps(self) -> int:
        """Remove the temporary files of writers killed mid-write, wherever they are (returns the files cleared).

        A temp file `.<name>.<12 hex>.tmp` whose file's write lock is free has no live owner.
        `write_lock` already clears them for the file it locks; this finds the rest (`memory index`).
        """
        removed = 0
        folders = [self.root] + [self.root / d for d in SCANNED_DIRS if (self.root / d).is_dir()]
        for top in folders:
            for folder, dirs, names in os.walk(top) if top != self.root else [(str(top), [], os.listdir(top))]:
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                for name in names:
                    match = _TEMP_RE.match(name)
                    if not match:
                        continue
                    key = self.key_for(Path(folder) / match[1])
                    try:
                        with self.write_lock(key, wait=0):  # clears the temps of `key`
                            removed += 1
                    except IndexBusy:
                        continue  # a live writer: its temp is in use
        return removed

    def key_for(self, path: Path) -> str:
        """Workspace-relative '/'-separated key; absolute for extra paths outside the workspace."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()

    # -- path safety ---------------------------------------------------------------------
    def resolve_markdown(self, user_path: str, media: tuple[str, ...] = ()) -> MarkdownFile:
        """Confine a user-given path to the workspace's Markdown (for `get` and MCP reads).

        Refuses: non-.md files (but for the `media` suffixes, whose derived text is read),
        symlinks anywhere on the way, anything outside MEMORY.md, memory/, bank/ and the extra
        paths (so `../` and absolute paths elsewhere fail).
        """
        if not user_path or "\x00" in user_path:
            raise PathRefused("empty or invalid path")
        candidate = Path(os.path.expanduser(user_path))
        if not candidate.is_absolute():
            candidate = self.root / candidate
        if candidate.suffix.lower() != ".md" and candidate.suffix.lower() not in media:
            raise PathRefused(f"{user_path}: only Markdown (.md) files can be read")
        normal = Path(os.path.normpath(candidate))
        allowed = [self.root / CORE_NAME, self.root / LEGACY_CORE_NAME]
        allowed += [self.root / d for d in SCANNED_DIRS] + self.extra_roots()
        if not any(normal == a or _is_within(normal, a) for a in allowed):
            raise PathRefused(f"{user_path}: outside the workspace's memory files (MEMORY.md, memory/, bank/)")
        _refuse_links(normal, self.root if _is_within(normal, self.root) else None)
        if _is_within(normal, self.root) and any(p.startswith(".") for p in normal.relative_to(self.root).parts):
            raise PathRefused(f"{user_path}: hidden folders are not memory files")
        if not normal.is_file():
            raise PathRefused(f"{user_path}: no such file")
        return MarkdownFile(self.key_for(normal), normal)


def _exists_exact(path: Path) -> bool:
    """True when a file with exactly this name exists (case-insensitive filesystems lie)."""
    try:
        return path.name in os.listdir(path.parent)
    except OSError:
        return False


def _is_within(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return path != folder


def _refuse_links(path: Path, stop: Path | None) -> None:
    """Refuse the path if it, or any folder between it and the workspace root, is a symlink."""
    current = path
    while True:
        if current.is_symlink():
            raise PathRefused(f"{path}: symbolic links are not followed")
        if stop is not None and current == stop:
            return
        if current.parent == current:
            return
        current = current.parent
        if stop is None and current == Path(current.anchor):
            return


# The top level of memory.toml: each key and the TOML type it must have. A table's own keys
# are checked by the module that reads it (embed.config, recall.settings, reflect.model, ...).
CONFIG_KEYS: dict[str, type] = {
    "timezone": str, "extra_paths": list, "embedding": dict, "recall": dict, "reflect": dict,
    "store": dict, "sessions": dict, "ui": dict, "core": dict, "time": dict, "mcp": dict, "media": dict,
}
_TYPE_NAMES = {str: "a string", list: "a list", dict: "a table"}


def load_config(path: Path) -> dict[str, Any]:
    """Read the optional TOML config; a broken one is a clear user error, not a traceback."""
    if not path.is_file():
        return {}
    import tomllib  # lazy: most workspaces have no memory.toml

    try:
        with path.open("rb") as fh:
            config = tomllib.load(fh)
    except UnicodeDecodeError as exc:  # tomllib's own message names neither the file nor the fix
        raise UserError(f"{path.name}: not valid UTF-8 (byte {exc.start + 1:,}); save it as UTF-8") from None
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise UserError(f"{path}: invalid config: {exc}") from None
    problem = config_problem(config)
    if problem:
        raise UserError(f"{path.name}: {problem}")
    return config


def overlay_config(config: dict[str, Any], raw: str) -> dict[str, Any]:
    """The config with $MEMORY_CONFIG_OVERLAY (a JSON object, set by a host such as the OpenClaw plugin)
    laid over it: a table merges key by key, a list adds its new items, anything else replaces."""
    import json

    try:
        overlay = json.loads(raw)
    except ValueError as exc:
        raise UserError(f"{OVERLAY_ENV}: invalid JSON: {exc}") from None
    if not isinstance(overlay, dict):
        raise UserError(f"{OVERLAY_ENV} must be a JSON object, not {type(overlay).__name__}")
    merged = dict(config)
    for key, value in overlay.items():
        old = merged.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            merged[key] = {**old, **value}
        elif isinstance(old, list) and isinstance(value, list):
            merged[key] = old + [v for v in value if v not in old]
        else:
            merged[key] = value
    problem = config_problem(merged)
    if problem:
        raise UserError(f"{OVERLAY_ENV}: {problem}")
    return merged


def config_problem(config: Mapping[str, Any]) -> str | None:
    """What is wrong with the top level of a config (unknown key, wrong type), or None."""
    for key, value in config.items():
        expected = CONFIG_KEYS.get(key)
        if expected is None:
            return f"unknown setting {key!r}; expected one of: {', '.join(CONFIG_KEYS)}"
        if not isinstance(value, expected):
            hint = f" ([{key}] ...)" if expected is dict else ""
            return f"{key} must be {_TYPE_NAMES[expected]}{hint}, not {type(value).__name__} {value!r:.40}"
    try:
        date_order_setting(config.get("time"))
    except ValueError as exc:
        return f"[time] {exc}"
    paths = config.get("extra_paths", [])
    if any(not isinstance(p, str) or not p.strip() for p in paths):
        return "extra_paths must be a list of folders or files (strings), e.g. extra_paths = [\"~/notes\"]"
    return sessions_problem(config.get("sessions"))


SESSION_KEYS = ("paths",)


def sessions_problem(section: Any) -> str | None:  # a TOML value
    """What is wrong with `[sessions]`, or None: checked when the file is read, so that every
    command refuses a broken table, not only the ones that read transcripts."""
    section = section or {}
    unknown = set(section) - set(SESSION_KEYS)
    if unknown:
        return f"[sessions]: unknown key {sorted(unknown)[0]!r}; expected: paths"
    paths = section.get("paths", [])
    if not isinstance(paths, list) or any(not isinstance(p, str) or not p.strip() for p in paths):
        return ('[sessions] paths must be a list of folders, .jsonl files or OpenClaw .sqlite databases, '
                'e.g. paths = ["~/.openclaw/agents/main/sessions"]')
    return None
