"""The `memory` command: thin click shells over `api.Memory` (app: the group and main; commands
by topic; render and progress: human output).

This package's `__init__` imports nothing itself, so that the console script (`main()`, no argv)
can import click and the group with the cyclic collector off: an import makes thousands of
objects that live as long as the process, and the collections they trigger find nothing to free
(about a tenth of a cold `memory recall` on this project's machine, docs/benchmarks.md, "Working record: cold start").
The imported objects are then frozen and the collector is switched back on, so a long-running
command (watch, mcp, ui, a big index) collects as usual, over its own objects only. The agent's
hot call, `memory recall ... --json`, does not import click at all (cli.quick).
"""

from __future__ import annotations

import gc

__all__ = ["cli", "main"]


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning every expected failure into one stderr line.

    Without argv this is the process itself (the console script); in-process callers pass argv
    and keep their collector as it was.
    """
    if argv is not None:
        from .app import main as run

        run(argv)
        return
    gc.disable()
    try:
        import os
        import sys

        from .quick import runner

        run = runner(sys.argv[1:], os.environ)  # `memory recall ... --json` without click (cli.quick)
        if run is None:
            from .app import main as run
    finally:
        gc.freeze()
        gc.enable()
    run()


def __getattr__(name: str) -> object:
    if name == "cli":
        from .app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
