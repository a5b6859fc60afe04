"""The façade's one policy for a damaged index: rebuild it and run the call again."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T", bound=Callable[..., Any])


def _repairing(method: _T) -> _T:
    """Run a public method; if the store finds its index damaged, rebuild it and run the method again.

    The index is derived data: a garbage or truncated file is moved aside (with a notice) and
    refilled from Markdown by the retried call's sync, instead of stopping the program.
    """

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            if self._repaired or not self.store.is_damage(exc):
                raise
            self._repaired = True
            self.store.repair(str(exc))
            if self._watcher is not None:  # the new index is empty: a watched refresh must scan everything
                self._watcher.put_back(_everything())
            return method(self, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _everything():  # workspace.watch.Changes
    """A change that means "scan everything" (a watcher's view after the index was rebuilt)."""
    from ..workspace.watch import Changes

    return Changes(rescan=True)
