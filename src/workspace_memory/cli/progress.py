"""Progress of long work: a rich bar on a terminal, plain lines elsewhere (cron, an agent's subprocess)."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

LINE_EVERY = 10.0  # seconds between two progress lines when stderr is not a terminal


@contextlib.contextmanager
def progress_bar(label: str, enabled: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> Iterator[Callable[..., None] | None]:
    """Yield a progress(done, total, label=None) callback that reports on stderr.

    On a terminal: a bar. Elsewhere (cron, a pipe, an agent's subprocess) a long index used to
    print nothing for minutes: a plain line ("memory: indexing 1,200/9,000") at most every
    LINE_EVERY seconds with the step's rate and the time left ("memory: embedding 9,984/25,006
    (512/s, about 29 s left)"), and one when the step changes once the work has run that long (a
    short run prints nothing). A new `label` names the step now under way
    (parsing, exporting the model, embedding). `clock` is for tests.
    """
    if not enabled:
        yield None
        return
    if not sys.stderr.isatty():
        yield _lines(label, clock)
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int, label: str | None = None) -> None:
            bar.update(task, completed=done, total=total, **({"description": label} if label else {}))

        yield update


def _lines(label: str, clock: Callable[[], float]) -> Callable[..., None]:
    start = clock()
    state = {"label": label, "last": start, "step_start": start, "step_done": 0}

    def update(done: int, total: int, label: str | None = None) -> None:
        now = clock()
        if label is not None and label != state["label"]:
            started_long_ago = now - start >= LINE_EVERY
            state.update(label=label, step_start=now, step_done=done)
            if started_long_ago:  # a new step is said at once; a short run stays silent
                state["last"] = now
                _say(label, done, total, None)
        elif now - state["last"] >= LINE_EVERY:
            state["last"] = now
            elapsed, gained = now - state["step_start"], done - state["step_done"]
            _say(state["label"], done, total, gained / elapsed if elapsed > 0 and gained > 0 else None)

    return update


def _say(label: str, done: int, total: int, rate: float | None) -> None:
    """One line: the step, done/total, and once there is a rate, the rate and the time left."""
    line = f"memory: {label} {done:,}" + (f"/{total:,}" if total else "")
    if rate:
        line += f" ({rate:,.0f}/s" if rate >= 10 else f" ({rate:.1f}/s"
        line += f", about {_duration((total - done) / rate)} left)" if total and total > done else ")"
    print(line, file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    """3 s, 4 min 05 s, 2 h 10 min: what a log reader wants from an ETA."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
