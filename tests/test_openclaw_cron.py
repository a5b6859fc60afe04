"""The managed reflect job in OpenClaw's own cron (integrations/openclaw/src/cron.js), in the real
OpenClaw 2026.9.6 gateway: after start, cron lists exactly one reflect job for the agent's workspace
and no memory-core dreaming job; running it (`openclaw cron run`) rewrites the bank pages as
`openclaw memory reflect --since 7d` does, its run carries reflect's summary, a failing run says why in
one line; a config change updates the job in place; leaving the memory slot removes it.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import build_workspace, memory_executable, run_ok, tree_hashes
from test_openclaw_plugin import TOKEN, Gateway, OpenClaw, _toolchain, running_gateway

pytestmark = pytest.mark.node

REFLECT_KEY = "workspace-memory:reflect:"
DREAMING_KEY = "memory-core:memory-dreaming-promotion"


@pytest.fixture(scope="module")
def oc(tmp_path_factory: pytest.TempPathFactory) -> OpenClaw:
    _toolchain()
    root = tmp_path_factory.mktemp("openclaw-cron")
    ws = build_workspace(root / "workspace")
    run_ok(ws, "index")
    oc = OpenClaw(root, ws, memory_executable())
    # as a user who never set memory-core's dreaming switch: the plugin sets it at start
    edit_config(oc.config, plugin_config(lambda c: c.pop("dreaming")))
    first = oc.run("memory", "status")  # OpenClaw's first command in a new home migrates its state
    assert first.returncode == 0, first.stderr
    return oc


@pytest.fixture(scope="module")
def gateway(oc: OpenClaw) -> Iterator[Gateway]:
    with running_gateway(oc) as gw:
        yield gw


def cron(oc: OpenClaw, *args: str) -> dict[str, Any]:
    proc = oc.run("cron", *args, "--url", f"ws://127.0.0.1:{oc.port}", "--token", TOKEN, "--json")
    assert proc.returncode == 0, proc.stderr[-2000:] + proc.stdout[-2000:]
    return json.loads(proc.stdout[proc.stdout.find("{"):])


def jobs(oc: OpenClaw) -> list[dict[str, Any]]:
    return cron(oc, "list", "--all")["jobs"]


def reflect_jobs(oc: OpenClaw) -> list[dict[str, Any]]:
    return [j for j in jobs(oc) if str(j.get("declarationKey", "")).startswith(REFLECT_KEY)]


# What the gateway logs when the jobs may have changed: the plugin's reconcile, a config reload.
JOB_EVENT = re.compile(r"\[(plugins|reload)\] ")
DREAMING_RELOADED = re.compile(r"\[reload\] config hot reload applied \(plugins\.entries\.workspace-memory\.config\.dreaming")


def until(what: str, check: Callable[[], Any], oc: OpenClaw, seconds: float = 180,
          event: re.Pattern[str] | None = JOB_EVENT, most: float = 15) -> Any:
    """Check until `check` returns something truthy (the gateway reloads its config and reconciles the
    jobs on its own time). Each check is an `openclaw` command (a Node start, seconds of CPU): between
    two, wait for a line of `event` in the gateway's log after the check began, at most `most` s
    (`event` None: 2 s)."""
    log = oc.root / "gateway.log"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        mark = log.stat().st_size
        got = check()
        if got:
            return got
        if event is None:
            time.sleep(2)
        else:
            wait_for_line(log, mark, event, min(most, deadline - time.monotonic()))
    pytest.fail(f"{what} within {seconds} s; gateway log:\n" + log.read_text()[-4000:])


def wait_for_line(log: Path, offset: int, pattern: re.Pattern[str], seconds: float) -> None:
    """Return once `log` has a line matching `pattern` after byte `offset`, or after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with log.open("rb") as f:
            f.seek(offset)
            if pattern.search(f.read().decode("utf-8", "replace")):
                return
        time.sleep(0.2)


def edit_config(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Change an OpenClaw config file (the running gateway sees it on its next config reload)."""
    config = json.loads(path.read_text(encoding="utf-8"))
    change(config)
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")


def plugin_config(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    return lambda config: change(config["plugins"]["entries"]["workspace-memory"]["config"])


def run_job(oc: OpenClaw, job_id: str) -> dict[str, Any]:
    """`openclaw cron run ID`, then the finished run as `openclaw cron runs` shows it."""
    before = {r.get("runId") for r in cron(oc, "runs", "--id", job_id).get("entries", [])}
    assert cron(oc, "run", job_id)["ok"] is True

    def finished() -> dict[str, Any] | None:
        runs = [r for r in cron(oc, "runs", "--id", job_id).get("entries", []) if r.get("runId") not in before]
        return next((r for r in runs if r.get("action") == "finished"), None)

    return until("the run finished", finished, oc, 120, event=None)  # a finished run is not logged


def test_start_keeps_one_reflect_job_and_no_dreaming_job(gateway: Gateway) -> None:
    oc = gateway.oc

    def settled() -> list[dict[str, Any]] | None:
        listed = jobs(oc)
        ours = [j for j in listed if str(j.get("declarationKey", "")).startswith(REFLECT_KEY)]
        dreaming = [j for j in listed if j.get("declarationKey") == DREAMING_KEY]
        return ours if len(ours) == 1 and not dreaming else None

    [job] = until("one reflect job and no dreaming job", settled, oc)
    assert job["name"] == "Memory Reflect (main)" and job["enabled"] is True
    assert job["schedule"] == {"kind": "cron", "expr": "0 3 * * *"}
    assert job["payload"]["kind"] == "command"
    assert job["payload"]["argv"] == [memory_executable(), "--workspace", str(oc.workspace), "reflect", "--since", "7d"]
    assert job["delivery"] == {"mode": "none"}
    # memory-core reads its dreaming switch from the slot owner's entry: the plugin turned it off there
    entry = json.loads(oc.config.read_text(encoding="utf-8"))["plugins"]["entries"]["workspace-memory"]
    assert entry["config"]["dreaming"] == {"enabled": False}
    # stable: the reload that the plugin's own dreaming write causes (its services restarted, another
    # reconcile) changes nothing; waited for in the gateway's log (at most 30 s), then checked
    wait_for_line(oc.root / "gateway.log", 0, DREAMING_RELOADED, 30)
    assert [j["id"] for j in reflect_jobs(oc)] == [job["id"]]


def test_running_the_job_rewrites_the_bank_as_openclaw_memory_reflect_does(gateway: Gateway, tmp_path: Path) -> None:
    oc = gateway.oc
    [job] = until("the reflect job", lambda: reflect_jobs(oc), oc)
    # the same workspace, reflected by `openclaw memory reflect --since 7d` (the plugin's CLI)
    twin = tmp_path / "twin"
    shutil.copytree(oc.workspace, twin, ignore=shutil.ignore_patterns(".memory"))
    run_ok(twin, "index")
    twin_config = oc.write_config(memory_executable(), tmp_path / "twin.json")
    edit_config(twin_config, lambda c: c["agents"]["defaults"].update(workspace=str(twin)))
    by_cli = oc.run("memory", "reflect", "--since", "7d", env={"OPENCLAW_CONFIG_PATH": str(twin_config),
                                                                 "OPENCLAW_STATE_DIR": str(tmp_path / "twin-state")})
    assert by_cli.returncode == 0, by_cli.stderr

    run = run_job(oc, job["id"])
    assert run["status"] == "ok", run
    # reflect's one-line summary (the same figures; the seconds differ), after OpenClaw's first-run notice
    summary = re.sub(r"; [\d.]+s$", "", run["summary"].splitlines()[0])
    assert summary.startswith("reflect: ") and "files changed" in summary
    assert summary in [re.sub(r"; [\d.]+s$", "", line) for line in by_cli.stdout.splitlines()]
    bank = {p: h for p, h in tree_hashes(oc.workspace).items() if p.startswith("bank/")}
    assert bank and bank == {p: h for p, h in tree_hashes(twin).items() if p.startswith("bank/")}


def test_a_failing_run_says_why_in_one_line(gateway: Gateway) -> None:
    oc = gateway.oc
    [job] = until("the reflect job", lambda: reflect_jobs(oc), oc)
    toml = oc.workspace / "memory.toml"
    toml.write_text("[recall\nmode = \n", encoding="utf-8")  # a broken memory.toml: reflect refuses it
    try:
        run = run_job(oc, job["id"])
    finally:
        toml.unlink()
    assert run["status"] == "error" and run["error"].startswith("command exited with code "), run
    [line] = run["summary"].splitlines()
    assert "memory.toml" in line


def test_a_config_change_updates_the_job_in_place(gateway: Gateway) -> None:
    oc = gateway.oc
    [job] = until("the reflect job", lambda: reflect_jobs(oc), oc)
    edit_config(oc.config, plugin_config(lambda c: c.update(
        reflect={"frequency": "30 4 * * *", "timezone": "Europe/Vienna", "since": "14d", "applyCore": True})))

    def updated() -> list[dict[str, Any]] | None:
        ours = reflect_jobs(oc)
        return ours if len(ours) == 1 and ours[0]["schedule"].get("expr") == "30 4 * * *" else None

    [now] = until("the job updated", updated, oc)
    assert now["id"] == job["id"]  # updated, not replaced: its run history stays
    assert now["schedule"] == {"kind": "cron", "expr": "30 4 * * *", "tz": "Europe/Vienna"}
    assert now["payload"]["argv"][-4:] == ["reflect", "--since", "14d", "--apply-core"]

    edit_config(oc.config, plugin_config(lambda c: c.update(reflect={"enabled": False})))
    until("the job removed when reflect is off", lambda: not reflect_jobs(oc), oc)
    edit_config(oc.config, plugin_config(lambda c: c.pop("reflect")))
    until("the job back", lambda: len(reflect_jobs(oc)) == 1, oc)


def test_leaving_the_slot_removes_the_job(gateway: Gateway) -> None:
    oc = gateway.oc
    until("the reflect job", lambda: reflect_jobs(oc), oc)
    edit_config(oc.config, lambda c: c["plugins"]["slots"].update(memory="memory-core"))
    until("the job removed after leaving the slot", lambda: not reflect_jobs(oc), oc)
