"""`memory ui`: serve the local memory browser (a thin click command over workspace_memory.ui).

Registered in cli/app.py with the other COMMANDS. Loopback by default; another address needs a
token read from the environment variable that `--token-env` or memory.toml `[ui] token_env` names.
"""

from __future__ import annotations

import os

import click

from .context import memory_of


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="TCP port (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback requires a token.")
@click.option("--token-env", metavar="VAR",
              help="Environment variable holding the access token [default: memory.toml [ui] token_env].")
@click.option("--open", "open_browser", is_flag=True, help="Open the UI in the default web browser.")
def ui(port: int, host: str, token_env: str | None, open_browser: bool) -> None:
    """Browse memory in a web page: timeline, search, entities, opinions, status (offline)."""
    from ..ui.security import resolve_settings
    from ..ui.server import serve

    ctx = click.get_current_context()
    mem = memory_of(ctx)
    mem.status()  # a missing workspace or a broken index is one error line now, not a page later
    settings = resolve_settings(mem.workspace.config.get("ui"), host, port, token_env, os.environ)
    serve(mem, settings, fixed_now=ctx.find_root().obj["now"] is not None, open_browser=open_browser,
          announce=click.echo)


COMMANDS = (ui,)
