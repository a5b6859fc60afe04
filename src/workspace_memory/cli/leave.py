"""How the console script's process ends: after a read, without tearing down every module.

When `memory recall` has printed its answer, the interpreter's exit still clears the ~170
modules it imported, one object at a time, only to free memory the OS takes back anyway: about
5-10 ms of a 150 ms cold recall on this project's machine (docs/benchmarks.md, "Working record: cold start"). After a
command that only reads (READS), with nothing left that an exit must run (no other thread, no
atexit callback), the process flushes its output and ends at once with its exit code. Any other
case, a command that writes, or a flush that fails, takes the interpreter's own exit, which also
reports a failed flush. A read writes no Markdown; its index sync is committed and its
connection closed before it returns (cli.context closes the Memory with the click context).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

READS = frozenset({"recall", "get", "status", "entity", "entities", "triggers"})


def leave(code: int | None, command: str | None) -> None:
    """End the process with `code` (the SystemExit code of the command `command` ran)."""
    if command in READS and threading.active_count() == 1 and _no_exit_callbacks():
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # e.g. a closed pipe: the interpreter's exit reports it as usual
            pass
        else:
            os._exit(code or 0)
    sys.exit(code)


def _no_exit_callbacks() -> bool:
    count = getattr(atexit, "_ncallbacks", None)  # CPython; elsewhere assume there are some
    return count is not None and count() == 0
