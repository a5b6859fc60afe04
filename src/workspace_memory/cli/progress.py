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
    LINE_EVERY seconds, and one when the step changes once the work has run that long (a short
    run prints nothing). A new `label` names the step now under way
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
    state = {"label": label, "last": start}

    def update(done: int, total: int, label: str | None = None) -> None:
        now = clock()
        step_changed = label is not None and label != state["label"]
        if step_changed and now - start < LINE_EVERY:
            state["label"] = label  # a short run stays silent: nothing to wait for
        elif step_changed or now - state["last"] >= LINE_EVERY:
            state["label"], state["last"] = label or state["label"], now
            of = f"/{total:,}" if total else ""
            print(f"memory: {state['label']} {done:,}{of}", file=sys.stderr, flush=True)

    return update
