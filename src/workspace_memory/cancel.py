"""Cooperative cancellation: a long-lived server's abandoned call stops at the next step.

A call runs in a worker thread, which cannot be interrupted from outside. The server (the MCP
shell) runs it inside `cancellable(event)` and sets the event when the request is cancelled
(`notifications/cancelled`) or its client goes away; the library calls `checkpoint()` between
the steps of its pipelines (after the index refresh, after embedding the query, after the
candidates), which raises `Cancelled` once the event is set. Outside `cancellable` (the CLI, the
library used directly) a checkpoint costs one attribute lookup and never raises.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from .errors import MemoryError_

_local = threading.local()


class Cancelled(MemoryError_):
    """The caller cancelled the call or went away; its work stopped at a checkpoint."""


@contextlib.contextmanager
def cancellable(event: threading.Event) -> Iterator[None]:
    """Checkpoints in this thread raise Cancelled once `event` is set."""
    previous = getattr(_local, "event", None)
    _local.event = event
    try:
        checkpoint()
        yield
    finally:
        _local.event = previous


def checkpoint() -> None:
    """Raise Cancelled if the current call was cancelled; else return at once."""
    event = getattr(_local, "event", None)
    if event is not None and event.is_set():
        raise Cancelled("the call was cancelled; its work stopped")
