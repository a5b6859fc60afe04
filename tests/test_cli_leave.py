"""How the console script's process ends (cli.leave): at once after a read, as usual otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import NOW, clean_env

# A module-level object whose finaliser speaks: it runs when the interpreter tears the modules
# down, so its line shows which exit the process took.
SCRIPT = """
import atexit, sys, threading, time
from workspace_memory.cli.leave import leave

class Teardown:
    def __del__(self):
        sys.stderr.write("teardown\\n")

witness = Teardown()
case = sys.argv[1]
sys.stdout.write("answer")  # no newline: still in the buffer when leave() runs
if case == "callback":
    atexit.register(lambda: sys.stderr.write("callback\\n"))
if case == "thread":
    threading.Thread(target=lambda: (time.sleep(0.3), sys.stderr.write("thread done\\n"))).start()
leave(3, "retain" if case == "write" else "recall")
"""


@pytest.mark.parametrize(("case", "torn_down", "also"), [
    ("read", False, None),  # a read with nothing left to run ends at once
    ("write", True, None),  # a command that writes takes the interpreter's exit
    ("callback", True, "callback"),  # an atexit callback still runs
    ("thread", True, "thread done"),  # a running thread is waited for
])
def test_a_read_ends_at_once_and_anything_else_as_the_interpreter_would(case: str, torn_down: bool,
                                                                        also: str | None) -> None:
    proc = subprocess.run([sys.executable, "-c", SCRIPT, case], capture_output=True, text=True, timeout=60,
                          env=clean_env({}))
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == "answer", "the output is flushed either way"
    assert ("teardown" in proc.stderr) == torn_down, proc.stderr
    if also:
        assert also in proc.stderr


def test_the_console_script_answers_a_recall_in_full_and_keeps_its_exit_codes(shared_ws: Path) -> None:
    memory = str(Path(sys.executable).parent / "memory")
    base = [memory, "--workspace", str(shared_ws), "--now", NOW]
    env = clean_env({"MEMORY_EMBED_PROVIDER": None})
    ok = subprocess.run([*base, "recall", "Baileys", "--json", "--mode", "lexical"], capture_output=True,
                        text=True, timeout=120, env=env)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.rstrip().endswith("}") and '"results"' in ok.stdout
    missing = subprocess.run([*base, "get", "memory/1999-01-01.md"], capture_output=True, text=True,
                             timeout=120, env=env)
    assert missing.returncode == 1 and missing.stderr.startswith("memory: error:"), missing.stderr
    usage = subprocess.run([*base, "recall", "x", "--k", "0"], capture_output=True, text=True, timeout=120, env=env)
    assert usage.returncode == 2 and "k: 0; expected 1 to 1,000" in usage.stderr
