"""cli/quick.py: `memory recall ... --json` without click gives what click's path gives, and hands
every other command line to click."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import click._utils as click_utils
import pytest

from conftest import NOW, clean_env, memory_executable
from workspace_memory.cli import quick
from workspace_memory.cli.app import cli
from workspace_memory.cli.option_types import Checked
from workspace_memory.cli.option_values import RECALL_CHECKS
from workspace_memory.recall.query import RecallRequest

TAKEN = [
    pytest.param(["recall", "Baileys", "--json"], id="plain"),
    pytest.param(["recall", "--json", "Baileys crash"], id="query-after-options"),
    pytest.param(["recall", "Baileys", "--json", "--k", "3", "--mode", "lexical"], id="k-and-mode"),
    pytest.param(["recall", "Baileys", "--json", "--k=1000", "--mode=hybrid", "--budget=1"], id="equals-and-limits"),
    pytest.param(["recall", "warelay", "--json", "--since", "30d", "--until", "2025-11-29", "--kind", "world,note",
                  "--entity", "Peter", "--explain", "--include-invalid", "--source", "all"], id="every-filter"),
    pytest.param(["recall", "x", "--json", "--workspace-name", "a", "--workspace-name", "b", "--all-workspaces"],
                 id="multiple"),
    pytest.param(["recall", "", "--json", "--since", "7d"], id="blank-query-with-a-filter"),
    pytest.param(["recall", "--json", "--entity", "Peter"], id="no-query-with-a-filter"),
    pytest.param(["recall", "recall", "--json"], id="the-command-name-as-query"),
    pytest.param(["recall", "x", "--json", "--entity", ""], id="empty-value"),
]

DEFERRED = [
    pytest.param([], id="no-command"),
    pytest.param(["--help"], id="help"),
    pytest.param(["--version"], id="version"),
    pytest.param(["status"], id="another-command"),
    pytest.param(["recall", "x"], id="human-output"),
    pytest.param(["recall", "x", "--json", "-h"], id="short-help"),
    pytest.param(["recall", "x", "--json", "--help"], id="command-help"),
    pytest.param(["recall", "--json"], id="blank-query"),
    pytest.param(["recall", "  ", "--json"], id="spaces-query"),
    pytest.param(["recall", "x", "y", "--json"], id="two-arguments"),
    pytest.param(["recall", "x", "--json", "--json"], id="repeated-flag"),
    pytest.param(["recall", "x", "--json", "--k", "5", "--k", "6"], id="repeated-option"),
    pytest.param(["--workspace", "a", "recall", "x", "--json", "--workspace", "b"], id="global-twice"),
    pytest.param(["recall", "x", "--json", "--k", "0"], id="k-out-of-range"),
    pytest.param(["recall", "x", "--json", "--k", "1001"], id="k-over-range"),
    pytest.param(["recall", "x", "--json", "--k", " 5"], id="k-with-space"),
    pytest.param(["recall", "x", "--json", "--k", "٣"], id="k-not-ascii"),
    pytest.param(["recall", "x", "--json", "--k"], id="k-without-value"),
    pytest.param(["recall", "x", "--json", "--budget", "0"], id="budget-zero"),
    pytest.param(["recall", "x", "--json", "--mode", "Lexical"], id="mode-not-in-list"),
    pytest.param(["recall", "x", "--json", "--source", "web"], id="source-not-in-list"),
    pytest.param(["recall", "x", "--json", "--since", "-3d"], id="value-with-a-dash"),
    pytest.param(["recall", "x", "--json=yes"], id="flag-with-value"),
    pytest.param(["recall", "x", "--json", "--bogus"], id="unknown-option"),
    pytest.param(["recall", "-x", "--json"], id="dash-query"),
    pytest.param(["recall", "-", "--json"], id="dash"),
    pytest.param(["recall", "--", "x", "--json"], id="double-dash"),
    pytest.param(["recall", "x", "--json", "--batch", "f.jsonl"], id="batch"),
    pytest.param(["--json", "recall", "x"], id="command-option-before-the-command"),
    pytest.param(["--now", NOW, "--bogus", "recall", "x", "--json"], id="unknown-global-option"),
]


def recall_command() -> click.Command:
    command = cli.get_command(click.Context(cli), "recall")
    assert command is not None
    return command


def test_the_option_table_is_recalls_click_declaration() -> None:
    """Every option of `memory recall` is in quick's table (or left to click), with click's name,
    type, range, choices and default; the table names no option click does not have."""
    options = {p.opts[0]: p for p in recall_command().params if isinstance(p, click.Option)}
    globals_ = {p.opts[0]: p for p in cli.params if isinstance(p, click.Option) and p.name in ("workspace", "now")}
    left_to_click = {"--batch"}
    table = quick.FLAGS.keys() | quick.TEXT.keys() | quick.NUMBERS.keys() | quick.CHOICES.keys() | quick.MULTIPLE.keys()
    assert table | left_to_click | quick.GLOBAL_OPTIONS.keys() == options.keys()
    defaults = RecallRequest("").as_dict()
    ctx = click.Context(recall_command())

    def default(option: click.Parameter) -> object:  # click >= 8.3 says UNSET where a value ends up None
        value = option.get_default(ctx)
        return None if value is getattr(click_utils, "UNSET", None) else value

    for name, field in quick.FLAGS.items():
        assert options[name].is_flag and options[name].name == field and default(options[name]) is False
    for name, field in quick.TEXT.items():
        option = options[name]
        # a value that must be readable (--since, --until, --kind) is checked alike on both paths
        checked = isinstance(option.type, Checked) and option.type.problem is RECALL_CHECKS.get(field)
        assert (checked or option.type is click.STRING) and not option.multiple and option.name == field
        assert default(option) is None and defaults[field] is None
    for name, (field, low, high) in quick.NUMBERS.items():
        option = options[name]
        assert isinstance(option.type, click.IntRange) and option.name == field
        assert (option.type.min, option.type.max) == (low, high)
        assert not option.type.min_open and not option.type.max_open and not option.type.clamp
        assert default(option) == defaults[field]
    for name, (field, choices) in quick.CHOICES.items():
        option = options[name]
        assert isinstance(option.type, click.Choice) and option.name == field
        assert tuple(option.type.choices) == choices and option.type.case_sensitive
        assert default(option) == defaults[field]
    for name, field in quick.MULTIPLE.items():
        assert options[name].multiple and options[name].name == field and tuple(default(options[name]) or ()) == defaults[field] == ()
    query = next(p for p in recall_command().params if isinstance(p, click.Argument))
    assert query.name == "query" and default(query) == "" and not query.required
    for name, field in quick.GLOBAL_OPTIONS.items():
        assert globals_[name].name == field and globals_[name].envvar == quick.GLOBAL_ENV[field]
    # Every field of a RecallRequest comes from one option (or is the query).
    fields = {quick.FLAGS[n] for n in quick.FLAGS if n != "--json"} | set(quick.TEXT.values()) \
        | {f for f, *_ in quick.NUMBERS.values()} | {f for f, _ in quick.CHOICES.values()} | set(quick.MULTIPLE.values())
    assert fields | {"query"} == set(RecallRequest.__slots__)


def clicks_request(monkeypatch: pytest.MonkeyPatch, root: Path, args: list[str]) -> tuple[dict[str, Any], RecallRequest]:
    """The global options and the RecallRequest that click's path hands to Memory.recall."""
    from workspace_memory import api
    from workspace_memory.cli.app import main

    seen: dict[str, Any] = {}
    opened = api.Memory.open.__func__  # type: ignore[attr-defined]

    def open_(cls, root_=None, now=None, **kwargs):
        seen["options"] = {"workspace": root_, "now": now}
        return opened(cls, str(root), NOW)

    def recall(self, request: RecallRequest) -> dict[str, Any]:
        seen["request"] = request
        return {"query": request.query, "notices": [], "results": []}

    monkeypatch.setattr(api.Memory, "open", classmethod(open_))
    monkeypatch.setattr(api.Memory, "recall", recall)
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 0
    return seen["options"], seen["request"]


@pytest.mark.parametrize("args", TAKEN)
@pytest.mark.parametrize("where", ["before", "after", "environment"])
def test_a_line_quick_takes_gives_clicks_request(shared_ws: Path, monkeypatch: pytest.MonkeyPatch,
                                                 args: list[str], where: str) -> None:
    environ = {}
    if where == "before":
        args = ["--workspace", "W", "--now", NOW, *args]
    elif where == "after":
        args = [*args, f"--now={NOW}", "--workspace", "W"]
    else:
        environ = {"MEMORY_WORKSPACE": "W", "MEMORY_NOW": NOW}
    for var, value in environ.items():
        monkeypatch.setenv(var, value)
    for var in ("MEMORY_WORKSPACE", "MEMORY_NOW"):
        if var not in environ:
            monkeypatch.delenv(var, raising=False)
    parsed = quick.parse(args, environ)
    assert parsed is not None
    options, fields = parsed
    want_options, want = clicks_request(monkeypatch, shared_ws, args)
    assert options == want_options == {"workspace": "W", "now": NOW}
    assert RecallRequest(**fields) == want  # type: ignore[arg-type]


def test_an_empty_environment_variable_is_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = quick.parse(["recall", "x", "--json"], {"MEMORY_WORKSPACE": "", "MEMORY_NOW": ""})
    assert parsed is not None and parsed[0] == {"workspace": None, "now": None}


@pytest.mark.parametrize("args", DEFERRED)
def test_everything_else_is_left_to_click(args: list[str]) -> None:
    assert quick.parse(args, {}) is None


def test_an_output_stream_that_is_not_utf8_is_left_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--workspace", "W", "recall", "x", "--json"]
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))
    assert quick.runner(args, {}) is None
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="UTF-8"))
    assert quick.runner(args, {}) is not None


CLICK_PATH = "import sys; from workspace_memory.cli.app import main; main(sys.argv[1:])"


@pytest.mark.parametrize("args", [
    pytest.param(["recall", "Baileys crash", "--json", "--mode", "lexical"], id="results"),
    pytest.param(["recall", "Peter", "--json", "--mode", "lexical", "--explain", "--k", "3", "--budget", "200"],
                 id="explain-and-budget"),
    pytest.param(["recall", "x", "--json", "--mode", "lexical", "--since", "banana"], id="user-error"),
    pytest.param(["recall", "x", "--json", "--mode", "lexical", "--entity", "Nobody-Known"], id="unknown-entity"),
    pytest.param(["recall", "x", "--json", "--workspace", "/no/such/workspace"], id="no-workspace"),
    pytest.param(["recall", "x", "--json", "--now", "not a time"], id="bad-now"),
    pytest.param(["recall", "x", "--json", "--k", "0"], id="deferred-usage-error"),
    pytest.param(["recall", "x", "--json", "--until", "+7x"], id="bad-until"),
    pytest.param(["recall", "x", "--json", "--kind", "world,fish"], id="bad-kind"),
])
def test_the_console_script_prints_what_clicks_path_prints(shared_ws: Path, args: list[str]) -> None:
    """The same bytes on stdout and stderr and the same exit code, from the console script (which
    takes the quick path for these lines) and from click's path."""
    line = [*(["--workspace", str(shared_ws)] if "--workspace" not in args else []),
            *(["--now", NOW] if "--now" not in args else []), *args]
    env = clean_env({"MEMORY_EMBED_PROVIDER": None})
    quick_run = subprocess.run([memory_executable(), *line], capture_output=True, env=env, timeout=120)
    click_run = subprocess.run([sys.executable, "-c", CLICK_PATH, *line], capture_output=True, env=env, timeout=120)
    assert (quick_run.returncode, quick_run.stdout, quick_run.stderr) == \
        (click_run.returncode, click_run.stdout, click_run.stderr)
    assert b"Traceback" not in quick_run.stderr
    if quick_run.returncode == 0:
        assert json.loads(quick_run.stdout)["query"] == args[1]
    else:
        assert len(quick_run.stderr.decode().strip().splitlines()) == 1


@pytest.mark.parametrize("line", [
    ["recall", "x", "--json", "--since", "banana"], ["recall", "x", "--json", "--until", "2025-02-30"],
    ["recall", "x", "--json", "--kind", "fish"], ["--now", "soon", "recall", "x", "--json"],
])
def test_an_unreadable_option_value_is_clicks_to_refuse(line: list[str]) -> None:
    """The quick path hands a value click would refuse to click (exit 2, click's line): it never
    runs the recall to let the library refuse it (exit 1)."""
    assert quick.parse(line, {}) is None
    assert quick.parse(["recall", "x", "--json"], {"MEMORY_NOW": "soon"}) is None
    assert quick.parse(["recall", "x", "--json", "--since", "+7d", "--kind", "world"], {}) is not None
