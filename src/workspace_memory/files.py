"""File I/O at the edges: tolerant reading and atomic, newline-preserving writes.

Indexing only ever *reads* Markdown. The commands that write (retain, reflect, core
edits, doctor --fix, init) go through `atomic_write_text`, so a crash never leaves a
half-written file: the new text goes to a temporary file beside the target, is
fsynced, and replaces the target in one rename.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


# A plain class, not a dataclass: creating a dataclass costs about a millisecond at import, and
# every cold recall imports this module.
class DecodedText:
    """A file's text as far as it could be decoded, with what went wrong (line, message)."""

    __slots__ = ("text", "problems")

    def __init__(self, text: str, problems: list[tuple[int, str]] | None = None) -> None:
        self.text = text
        self.problems: list[tuple[int, str]] = [] if problems is None else problems


def decode_markdown(data: bytes) -> DecodedText:
    """Decode bytes as UTF-8 without ever failing.

    Invalid bytes become U+FFFD and NUL bytes are dropped, each reported once with the
    1-based line where it first occurs, so a damaged file is still indexed as far as possible.
    """
    problems: list[tuple[int, str]] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        problems.append((line, f"invalid UTF-8 (byte 0x{data[exc.start]:02x}); undecodable bytes replaced"))
        text = data.decode("utf-8", errors="replace")
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        problems.append((line, "binary data (NUL bytes) in a Markdown file; NUL bytes ignored"))
        text = text.replace("\x00", "")
    return DecodedText(text, problems)


BINARY_SAMPLE_BYTES = 65536
BINARY_SHARE = 0.05  # more non-text characters than this in the sample: not a text file
_NON_TEXT = frozenset(range(0x00, 0x09)) | frozenset(range(0x0E, 0x20)) | {0x7F, 0xFFFD}


def looks_binary(data: bytes) -> bool:
    """True for a file that is not text: NUL and control bytes or invalid UTF-8 make up a large share.

    A share, not git's any-NUL rule: a note with one stray NUL byte or a few Latin-1 accents is
    still text (indexed, with a warning); an image or archive renamed to .md is skipped.
    """
    sample = data[:BINARY_SAMPLE_BYTES]
    decoded = sample.decode("utf-8", errors="replace")
    odd = sum(1 for ch in decoded if ord(ch) in _NON_TEXT) - sample.count("\ufffd".encode())
    return odd > 8 and odd > BINARY_SHARE * len(decoded)


MAX_INDEXED_BYTES = 20 * 1024 * 1024  # of a file, indexed; the rest is reported, never read into memory


def read_bounded(path: str | Path, limit: int | None = None) -> tuple[str, bytes, int]:
    """(sha256 of the whole file, its first `limit` bytes (MAX_INDEXED_BYTES), its size), streaming:
    a 500 MB file costs a hash, not 500 MB of memory."""
    import hashlib  # lazy: only a sync that reads a changed file hashes

    limit = MAX_INDEXED_BYTES if limit is None else limit

    digest = hashlib.sha256()
    head = bytearray()
    size = 0
    with open(path, "rb") as fh:  # read only
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
            if len(head) < limit:
                head += chunk[: limit - len(head)]
    return digest.hexdigest(), bytes(head), size


def detect_newline(text: str) -> str:
    """The file's dominant newline, so edits keep CRLF files CRLF."""
    return "\r\n" if text.count("\r\n") > text.count("\n") / 2 and "\r\n" in text else "\n"


STATE_GITIGNORE = "# Derived state of workspace-memory (the index, vectors, locks): never committed.\n*\n"


def ensure_state_dir(folder: Path) -> Path:
    """Create the workspace's `.memory/` folder if needed, with a `.gitignore` inside that ignores it
    all, so git never shows the derived state as untracked, whether or not `memory init` ran (init
    also adds `.memory/` to the workspace's own .gitignore). The ignore file is written once and
    never rewritten; a folder where it cannot be written (read-only) is left as it is."""
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists() and not ignore.is_symlink():
        with contextlib.suppress(OSError):
            atomic_write_text(ignore, STATE_GITIGNORE)
    return folder


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (temp file in the same folder, fsync, rename).

    The text is written as given (no newline translation), so callers control the bytes
    exactly and diffs stay minimal.
    """
    atomic_write_bytes(path, text.encode("utf-8"))


def read_json_object(path: Path) -> dict:
    """A JSON object kept in `.memory/` (derived state): {} when the file is missing, unreadable or
    not an object, so that a damaged one is rebuilt, never a traceback."""
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_json_object(path: Path, data: dict) -> None:
    """Write a JSON object atomically (atomic_write_text), keys sorted: the same state, the same bytes."""
    import json

    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` atomically (see atomic_write_text); the file's mode is kept."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = None
    if path.exists():
        mode = path.stat().st_mode & 0o7777
    fd, tmp = _create_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def remove_stale_temps(path: Path) -> int:
    """Delete the temporary files `atomic_write_text` left beside `path` when its writer was killed.

    Only call this while holding the file's write lock: then no live writer owns one of them.
    """
    removed = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            name = entry.name
            if name.startswith(f".{path.name}.") and name.endswith(".tmp") and len(name) == len(path.name) + 18:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed += 1
    return removed


def _create_temp(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path`, created like any new file (0666 minus the umask).

    tempfile.mkstemp would create it 0600, and a new file written by init or retain would keep
    that mode, unlike every other file the user creates.
    """
    import secrets  # lazy: only writers need it

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(path.parent, f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"could not create a temporary file beside {path}")
