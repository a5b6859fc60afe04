"""The console script's process without click: its setup, its JSON output, and its failures.

Shared by the click commands (cli.app) and the quick path (cli.quick), which must not import
click: a failure is one line on stderr and an exit code, never a traceback. Exit codes: 0 ok,
1 user error, 2 usage, 3 provider or store unavailable, 4 index busy, 130 interrupted.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from typing import Any

from .. import secrecy
from ..errors import IndexBusy, MemoryError_, ProviderUnavailable, StoreUnavailable

EXIT_CODES = ((ProviderUnavailable, 3), (StoreUnavailable, 3), (IndexBusy, 4), (MemoryError_, 1))

# C0 controls but tab and newline, DEL, and C1 controls: ESC, BEL, OSC and CSI sequences in a
# note must not reach the terminal (they can retitle it, move the cursor or hide text).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: object) -> str:
    """`text` with control characters shown as \\xNN escapes (human output only; JSON stays exact),
    and any key this process holds blanked (secrecy)."""
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m[0]):02x}", secrecy.blank(str(text)))


def json_text(data: Any) -> str:
    """The --json output of every command, the one format: exact (no escaping beyond JSON's own),
    indented by two. (JSON Lines, one compact object a line, is `recall --batch`'s and `export`'s.)
    Any key this process holds is blanked (secrecy)."""
    return json.dumps(secrecy.blank_data(data), ensure_ascii=False, indent=2, default=str)


def one_blas_thread() -> None:
    """One BLAS thread, unless the user says otherwise.

    A command's matrices are small (a recall's query is one vector; USE's forward pass runs on one
    thread anyway, embed/use.py THREADS), and otherwise importing numpy starts a thread per core
    that only spins on the cores we share: ~0.1 s of CPU and ~10 % of a cold hybrid recall's wall
    time on 2 cores.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def say_error(message: str) -> None:
    """One line on stderr, control characters escaped."""
    sys.stderr.write(terminal_safe(message) + "\n")
    sys.stderr.flush()


def guarded(call: Callable[[], object]) -> int:
    """Run `call` and return the process's exit code: its int result (else 0), or, for a
    failure, the failure's code after one stderr line. MEMORY_DEBUG=1 lets an unexpected
    exception through with its traceback; SystemExit always passes.
    """
    try:
        code = call()
    except MemoryError_ as exc:
        say_error(f"memory: error: {exc}")
        return next(code for cls, code in EXIT_CODES if isinstance(exc, cls))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the last line of defence: one line, never a traceback
        if os.environ.get("MEMORY_DEBUG"):
            raise
        detail = " ".join(secrecy.blank(str(exc)).split())[:300] or type(exc).__name__
        say_error(f"memory: error: {detail} ({type(exc).__name__}; MEMORY_DEBUG=1 shows the traceback)")
        return 1
    return code if isinstance(code, int) else 0
