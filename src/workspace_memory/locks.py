"""Advisory, whole-file `flock` locks shared by the index writer and reflect.

`file_lock` creates the lock file (and its folder) if needed, polls a non-blocking
exclusive `flock` every 50 ms and yields whether it got the lock; the caller decides
what a timeout means (report `busy`, raise, or read without writing). The lock is
released and the file descriptor closed however the block ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

POLL_SECONDS = 0.05


@contextlib.contextmanager
def file_lock(path: Path, wait: float | None) -> Iterator[bool]:
    """Hold an exclusive lock on `path`. Yields True when held, False when `wait` seconds ran out.

    `wait=0` does not wait at all; `wait=None` waits forever.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = None if wait is None else time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if deadline is not None and time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(POLL_SECONDS)
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
