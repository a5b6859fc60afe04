"""`memory openclaw install`: put this engine into the user's OpenClaw in one step.

It drives the `openclaw` CLI (never edits OpenClaw's files itself): links the plugin folder
(`openclaw plugins install --link`), selects it for the memory slot, points it at this `memory`
executable, lets it read a turn's prompt (`hooks.allowConversationAccess`: the standing intents'
prompt hook, memory-core's, which the plugin keeps) and turns memory-core off
(`plugins.entries.memory-core.enabled: false`). The last is
what keeps the slot ours alone: OpenClaw 2026.9 loads memory-core beside another memory plugin as
a "dreaming sidecar", which registers a second memory_search / memory_get (a name-conflict line in
the gateway's log on every tool call), a second `memory` CLI and its dreaming cron job.

Idempotent: it reads OpenClaw's current settings first and runs only the steps still needed;
`--dry-run` prints them and changes nothing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click

PLUGIN_ID = "workspace-memory"
OPENCLAW_TIMEOUT = 300  # seconds for one `openclaw` command (its first run migrates its state)


def default_plugin_dir() -> Path | None:
    """integrations/openclaw of the checkout this package runs from, when it is one."""
    here = Path(__file__).resolve().parents[3] / "integrations" / "openclaw"
    return here if (here / "openclaw.plugin.json").is_file() else None


def default_command() -> str:
    """This installation's `memory` executable (beside the running Python), else the one on PATH."""
    beside = Path(sys.executable).parent / "memory"
    return str(beside) if beside.exists() else (shutil.which("memory") or "memory")


def wanted_settings(command: str) -> dict[str, Any]:
    """The settings the install makes true, as OpenClaw config paths."""
    return {
        "plugins.slots.memory": PLUGIN_ID,
        f"plugins.entries.{PLUGIN_ID}.enabled": True,
        f"plugins.entries.{PLUGIN_ID}.config.command": command,
        "plugins.entries.memory-core.enabled": False,
        # memory-core's standing intents, which the plugin keeps: their prompt hook reads the turn
        f"plugins.entries.{PLUGIN_ID}.hooks.allowConversationAccess": True,
    }


def _at(tree: Any, dotted: str) -> Any:
    for part in dotted.split(".")[1:]:  # below `plugins`
        tree = tree.get(part) if isinstance(tree, dict) else None
    return tree


def plan_steps(plugins: dict[str, Any], linked_dir: str | None, plugin_dir: Path,
               command: str) -> tuple[bool, list[dict[str, Any]]]:
    """(whether to link the plugin folder, the settings to set) for OpenClaw's current `plugins`
    settings and the folder its `workspace-memory` plugin loads from now (None: not installed)."""
    link = linked_dir is None or Path(linked_dir).resolve() != plugin_dir.resolve()
    sets = [{"path": key, "value": value} for key, value in wanted_settings(command).items()
            if _at(plugins, key) != value]
    return link, sets


class OpenClaw:
    """The `openclaw` executable, run with this process's environment (its HOME, OPENCLAW_*)."""

    def __init__(self, executable: str) -> None:
        self.executable = executable

    def run(self, *args: str) -> subprocess.CompletedProcess:
        try:
            return subprocess.run([self.executable, *args], capture_output=True, text=True, timeout=OPENCLAW_TIMEOUT)
        except FileNotFoundError:
            raise click.ClickException(f"`{self.executable}` not found: install OpenClaw, or pass --openclaw") from None
        except subprocess.TimeoutExpired:
            raise click.ClickException(f"`openclaw {' '.join(args[:3])}` did not finish within "
                                       f"{OPENCLAW_TIMEOUT} s") from None

    def json(self, *args: str) -> Any:
        """The JSON a command prints (None when it fails, e.g. an unset path or a missing plugin)."""
        proc = self.run(*args, "--json")
        if proc.returncode != 0:
            return None
        text = proc.stdout
        try:
            return json.loads(text[text.index("{"):]) if "{" in text else None
        except ValueError:
            return None

    def must(self, *args: str) -> None:
        proc = self.run(*args)
        if proc.returncode != 0:
            last = (proc.stderr.strip() or proc.stdout.strip() or "no output").splitlines()[-1]
            raise click.ClickException(f"`openclaw {' '.join(args[:3])}` failed: {last}")


@click.group()
def openclaw() -> None:
    """This engine inside OpenClaw (the plugin in integrations/openclaw)."""


@openclaw.command()
@click.option("--dry-run", is_flag=True, help="Print the steps that are needed; change nothing.")
@click.option("--plugin-dir", type=click.Path(file_okay=False, path_type=Path),
              help="The plugin folder [default: integrations/openclaw of this checkout].")
@click.option("--command", "command", metavar="PATH", help="The `memory` executable OpenClaw runs "
              "[default: this installation's].")
@click.option("--openclaw", "executable", default="openclaw", show_default=True, metavar="EXE",
              help="The openclaw executable (it uses OpenClaw's own HOME / OPENCLAW_CONFIG_PATH).")
def install(dry_run: bool, plugin_dir: Path | None, command: str | None, executable: str) -> None:
    """Install the plugin into OpenClaw, select it for the memory slot, point it at this engine and turn
    memory-core off (idempotent; --dry-run shows the steps)."""
    folder = plugin_dir or default_plugin_dir()
    if folder is None or not (folder / "openclaw.plugin.json").is_file():
        raise click.ClickException("the plugin folder was not found beside this installation; pass --plugin-dir "
                                   "(integrations/openclaw of a workspace-memory checkout)")
    folder = folder.resolve()
    command = command or default_command()
    oc = OpenClaw(executable)
    inspected = oc.json("plugins", "inspect", PLUGIN_ID)
    linked = ((inspected or {}).get("plugin") or {}).get("rootDir")
    link, sets = plan_steps(oc.json("config", "get", "plugins") or {}, linked, folder, command)
    steps = ([f"openclaw plugins install --link --force --accept-capabilities {folder}"] if link else []) + [
        f"openclaw config set {s['path']} {json.dumps(s['value'])}" for s in sets]
    if not steps:
        click.echo(f"already installed: {PLUGIN_ID} from {folder} holds the memory slot, runs {command}; "
                   "memory-core is off")
        return
    for step in steps:
        click.echo(f"{'would run' if dry_run else 'run'}: {step}")
    if dry_run:
        return
    if link:
        oc.must("plugins", "install", "--link", "--force", "--accept-capabilities", str(folder))
    if sets:
        oc.must("config", "set", "--batch-json", json.dumps(sets))
    click.echo(f"installed: restart the gateway (openclaw gateway restart) to load {PLUGIN_ID}")


COMMANDS = (openclaw,)
