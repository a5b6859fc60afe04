"""A rich progress bar for long work, shown only on a terminal."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def progress_bar(label: str, enabled: bool = True) -> Iterator[Callable[..., None] | None]:
    """Yield a progress(done, total, label=None) callback drawing a bar on stderr, or None off a terminal.

    A new `label` names the step now under way (parsing, exporting the model, embedding).
    """
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int, label: str | None = None) -> None:
            bar.update(task, completed=done, total=total, **({"description": label} if label else {}))

        yield update
