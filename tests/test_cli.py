"""The `memory` command line: user mistakes give one stderr line and a non-zero exit (never a
traceback); every command documents itself; the environment twins of the global options work."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from conftest import NOW, assert_one_line_error, clean_env, recall_json, run_memory, run_ok
from workspace_memory.cli.app import cli

MISTAKES = [
    pytest.param(("recall", "x", "--bogus"), 2, id="unknown-option"),
    pytest.param(("--bogus", "status"), 2, id="unknown-global-option"),
    pytest.param(("frobnicate",), 2, id="unknown-command"),
    pytest.param(("recall", "x", "--since", "banana"), 2, id="bad-since"),
    pytest.param(("recall", "x", "--since", "30x"), 2, id="bad-since-unit"),
    pytest.param(("recall", "x", "--since", "2025-02-30"), 2, id="since-not-a-day"),
    pytest.param(("recall", "x", "--until", "soon"), 2, id="bad-until"),
    pytest.param(("recall", "x", "--since", "1d", "--until", "30d"), 1, id="since-after-until"),
    pytest.param(("recall", "x", "--kind", "fish"), 2, id="bad-kind"),
    pytest.param(("recall", "x", "--kind", "world,fish"), 2, id="bad-kind-in-list"),
    pytest.param(("recall", "x", "--entity", "Nobody-Known"), 1, id="unknown-entity"),
    pytest.param(("recall", "x", "--k", "0"), 2, id="k-zero"),
    pytest.param(("recall", "x", "--k", "-3"), 2, id="k-negative"),
    pytest.param(("recall", "x", "--k", "many"), 2, id="k-not-a-number"),
    pytest.param(("recall", "x", "--budget", "0"), 2, id="budget-zero"),
    pytest.param(("recall", "x", "--mode", "fuzzy"), 2, id="bad-mode"),
    pytest.param(("recall",), 2, id="recall-without-query"),
    pytest.param(("recall", "--batch", "/no/such/file.jsonl", "--json"), 2, id="missing-batch-file"),
    pytest.param(("retain", "W @Peter: x", "--date", "2025-13-01"), 2, id="bad-date"),
    pytest.param(("retain", "W @Peter: x", "--date", "tomorrow"), 2, id="date-not-iso"),
    pytest.param(("retain", "w @Peter: x"), 1, id="bad-bullet"),
    pytest.param(("retain",), 2, id="retain-without-bullet"),
    pytest.param(("get",), 2, id="get-without-path"),
    pytest.param(("get", "../etc/passwd.md"), 1, id="get-outside"),
    pytest.param(("get", "MEMORY.md", "--from", "0"), 2, id="get-from-zero"),
    pytest.param(("index", "extra-arg"), 2, id="extra-argument"),
    # every bad option value is bad usage (exit 2), on every command that takes one (cli/option_values)
    pytest.param(("get", "MEMORY.md", "--lines", "0"), 2, id="get-lines-zero"),
    pytest.param(("export", "--since", "banana"), 2, id="export-bad-since"),
    pytest.param(("reflect", "--since", "2025-02-30", "--dry-run"), 2, id="reflect-bad-since"),
    pytest.param(("forget", "x", "--date", "12/12"), 2, id="forget-bad-date"),
    pytest.param(("recall", "x", "--json", "--until", "+7x"), 2, id="bad-until-json"),
    pytest.param(("status", "--now", "soon"), 2, id="bad-now-after-the-command"),
    pytest.param(("--now", "soon", "entities"), 2, id="bad-now-before-the-command"),
]


@pytest.mark.parametrize(("args", "code"), MISTAKES)
def test_user_mistakes_give_one_line(shared_ws: Path, args: tuple[str, ...], code: int) -> None:
    result = run_memory(shared_ws, *args)
    line = assert_one_line_error(*result)
    assert result[0] == code, line
    assert line.startswith("memory: ")
    assert result[1] == "", "nothing on stdout for a mistake"


@pytest.mark.parametrize("now", ["yesterday", "2025-13-01", "30/11/2025", "2025-11-30T25:00"])
def test_bad_now(shared_ws: Path, now: str) -> None:
    result = run_memory(shared_ws, "recall", "x", now=now)
    line = assert_one_line_error(*result)
    assert "--now" in line and result[0] == 2


@pytest.mark.parametrize("command", [("recall", "x"), ("status",), ("index",), ("get", "MEMORY.md")])
def test_missing_workspace(tmp_path: Path, command: tuple[str, ...]) -> None:
    missing = tmp_path / "no-such-workspace"
    line = assert_one_line_error(*run_memory(missing, *command))
    assert "no-such-workspace" in line or "no such file" in line
    assert not missing.exists(), "a read must not create the workspace"


def test_workspace_that_is_a_file(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("x", encoding="utf-8")
    line = assert_one_line_error(*run_memory(plain, "status"))
    assert "not a directory" in line


def test_broken_config(workspace: Path) -> None:
    (workspace / "memory.toml").write_text("extra_paths = [unclosed\n", encoding="utf-8")
    line = assert_one_line_error(*run_memory(workspace, "status"))
    assert "memory.toml" in line


def test_unknown_timezone_in_config(workspace: Path) -> None:
    (workspace / "memory.toml").write_text('timezone = "Mars/Olympus"\n', encoding="utf-8")
    line = assert_one_line_error(*run_memory(workspace, "recall", "x"))
    assert "Mars/Olympus" in line


# ------------------------------------------------------------------------------------------ help


def command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):  # loads the lazy ones
        command = group.get_command(ctx, name)
        if command is None or getattr(command, "hidden", False):
            continue
        out.append((*prefix, name))
        if isinstance(command, click.Group):
            out += command_paths(command, (*prefix, name))
    return out


COMMANDS = command_paths(cli)


def test_the_basic_commands_exist() -> None:
    assert {("init",), ("index",), ("status",), ("get",), ("retain",), ("recall",)} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    code, out, err = run_memory(None, *path, "--help", now=None)
    assert code == 0, err
    assert "Traceback" not in err
    assert out.startswith("Usage: memory " + " ".join(path))
    command: click.Command = cli
    for name in path:
        command = command.get_command(click.Context(command), name)  # type: ignore[attr-defined]
    summary = (command.help or command.short_help or "").strip()
    assert len(summary) > 10, f"{' '.join(path)} has no help text"
    assert summary.split("\n")[0][:40] in " ".join(out.split())
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"{' '.join(path)} {param.opts[0]} has no help"
            assert param.opts[-1] in out or param.opts[0] in out


def test_top_level_help_lists_commands() -> None:
    code, out, _ = run_memory(None, "--help", now=None)
    assert code == 0
    for (name,) in [p for p in COMMANDS if len(p) == 1]:
        assert name in out
    assert "--workspace" in out and "--now" in out


def test_version() -> None:
    code, out, _ = run_memory(None, "--version", now=None)
    assert code == 0 and out.startswith("memory")


def test_no_command_shows_help_not_an_error() -> None:
    code, out, err = run_memory(None, now=None)
    assert "Usage: memory" in out
    assert "error" not in err


def test_the_lazy_command_table_matches_the_modules() -> None:
    """cli.app.COMMAND_MODULES names exactly the commands each module's COMMANDS holds."""
    import importlib

    from workspace_memory.cli.app import COMMAND_MODULES

    for module, names in COMMAND_MODULES.items():
        commands = importlib.import_module(f"workspace_memory.cli.{module}").COMMANDS
        assert tuple(command.name for command in commands) == names, module


@pytest.mark.parametrize(("typed", "said"), [
    ("recal", "No such command 'recal'. Did you mean 'recall'?"),
    ("stor", "No such command 'stor'. (Did you mean one of: 'doctor', 'store'?)"),  # commands not loaded yet
    ("frobnicate", "No such command 'frobnicate'. (see --help)"),
])
def test_a_mistyped_command_gets_a_suggestion(typed: str, said: str) -> None:
    code, out, err = run_memory(None, typed, now=None)
    assert code == 2 and not out
    assert said in assert_one_line_error(code, out, err)


def test_global_options_after_a_lazily_loaded_subcommand(shared_ws: Path) -> None:
    code, out, err = run_memory(None, "store", "health", "--json", "--workspace", str(shared_ws), now=None)
    assert code == 0, err
    assert json.loads(out)


# ------------------------------------------------------------------------------------------ env twins


def test_environment_twins_of_global_options(shared_ws: Path, tmp_path: Path) -> None:
    env = {"MEMORY_WORKSPACE": str(shared_ws), "MEMORY_NOW": NOW}
    code, out, err = run_memory(None, "recall", "a828e60", "--json", "--mode", "lexical", now=None, env=env)
    assert code == 0, err
    assert json.loads(out)["results"][0]["path"] == "memory/2025-11-12.md"
    # The option beats the environment.
    other = tmp_path / "other"
    run_ok(other, "init")
    code, out, err = run_memory(other, "recall", "a828e60", "--json", "--mode", "lexical", env=env)
    assert code == 0, err
    assert json.loads(out)["results"] == []


def test_now_drives_relative_time(shared_ws: Path) -> None:
    early = recall_json(shared_ws, "Baileys", "--since", "3d", "--until", "today", now="2025-11-15T12:00")["results"]
    assert early and {h["timestamp"] for h in early} <= {"2025-11-12", "2025-11-13", "2025-11-14", "2025-11-15"}
    late = recall_json(shared_ws, "Baileys", "--since", "3d", "--until", "today", now="2025-11-27T12:00")["results"]
    assert late and {h["timestamp"] for h in late} <= {"2025-11-24", "2025-11-25", "2025-11-26", "2025-11-27"}


def test_index_json_report_fields(workspace: Path) -> None:
    report = json.loads(run_ok(workspace, "index", "--json"))
    assert set(report) >= {"added", "changed", "removed", "touched", "unchanged", "seconds"}
    human = run_ok(workspace, "index")
    assert "unchanged" in human


@pytest.mark.parametrize("given", [None, "4"])
def test_one_blas_thread_unless_the_user_says_otherwise(given: str | None, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from workspace_memory.cli.app import main

    if given is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", given)
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out.startswith("memory")
    assert os.environ["OPENBLAS_NUM_THREADS"] == (given or "1")


def test_the_console_script_leaves_its_objects_to_the_os_and_closes_the_index(shared_ws: Path) -> None:
    """main() without argv is the process (the console script): it imports the CLI with the collector
    off, and freezes the collector so that the interpreter's exit does not sweep every imported
    object; with argv (in-process callers) it does neither.
    Either way the index connection closes with the invocation."""
    script = f"""
import atexit, gc, sqlite3, sys
opened = []
connect = sqlite3.connect
sqlite3.connect = lambda *a, **k: opened.append(connect(*a, **k)) or opened[-1]
during_import = []  # collections that ran while click and the group were being imported
gc.callbacks.append(lambda phase, info: phase == "start" and "click" in sys.modules
                    and not hasattr(sys.modules.get("workspace_memory.cli.app"), "main") and during_import.append(1))
from workspace_memory.cli import main
# Human output: the click path (`recall ... --json` takes cli.quick and imports no click at all).
args = ["--workspace", {str(shared_ws)!r}, "--now", {NOW!r}, "recall", "Baileys", "--mode", "lexical"]

@atexit.register  # a callback to run keeps the process on the interpreter's own exit (cli.leave)
def report():
    closed = []
    for conn in opened:
        try:
            conn.execute("SELECT 1")
        except sqlite3.ProgrammingError:
            closed.append(True)
    print("FROZEN", gc.get_freeze_count() > 0, "CLOSED", len(opened) > 0 and len(closed) == len(opened),
          "COLLECTING", gc.isenabled(), "DURING_IMPORT", len(during_import) > 0)

try:
    main(args) if sys.argv[1] == "argv" else (sys.argv.__setitem__(slice(1, None), args), main())
except SystemExit as exc:
    assert exc.code in (0, None), exc.code
"""
    for how, frozen in (("argv", False), ("console", True)):
        proc = subprocess.run([sys.executable, "-c", script, how], capture_output=True, text=True, encoding="utf-8",
                              env=clean_env({"MEMORY_EMBED_PROVIDER": None}), timeout=120)
        assert proc.returncode == 0, proc.stderr
        # The console script imports click and the group with the collector off (in-process callers
        # do not), and switches it back on for the command.
        assert proc.stdout.strip().splitlines()[-1] == \
            f"FROZEN {frozen} CLOSED True COLLECTING True DURING_IMPORT {not frozen}", proc.stdout[-500:]


@pytest.mark.parametrize("args", [("entities",), ("store", "list"), ("status",), ("opinions",), ("core", "show")])
def test_every_json_output_is_formatted_alike(shared_ws: Path, args: tuple[str, ...]) -> None:
    """One helper (cli/process.json_text) writes every --json: a list as indented as an object."""
    out = run_ok(shared_ws, *args, "--json")
    assert out == json.dumps(json.loads(out), ensure_ascii=False, indent=2) + "\n", out[:200]
