"""Shared fixtures for the foundation suite: a realistic multi-week workspace and a runner for the
installed `memory` executable.

Every run passes `--now` (NOW below), so no test depends on the wall clock.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pg_fixtures import pg_url, register, store, store_env  # noqa: F401 - fixtures for every test module

NOW = "2025-11-30T18:00"

# This process too: the suite never reaches past loopback (tests/offline/sitecustomize.py).
sys.path.insert(0, str(Path(__file__).parent / "offline"))
import sitecustomize as _offline  # noqa: E402 - the guard must be in place before any test runs

_offline.install()

# Tests of what the `local` extra does when a model is missing or unknown need the extra itself;
# without it they would test "not installed" instead. CI installs it (make test), so they run there.
needs_local = pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None, reason="needs the local extra (sentence-transformers)")
TODAY = "2025-11-30"
CACHE_ENV = "MEMORY_CACHE_DIR"  # the per-user model cache (see the `model_cache` fixture)

# ------------------------------------------------------------------------------------ the workspace

WORKSPACE_FILES: dict[str, str] = {
    "MEMORY.md": """\
# Core memory

## Persona
I am a careful assistant for Peter and the warelay project.

## Human
- Name: Peter
- Drinks espresso, never decaf.
- Timezone: Europe/Vienna
""",
    "bank/world.md": """\
# World

- The Castle has an espresso machine in the kitchen.
- Vienna is one hour ahead of UTC in winter.
""",
    "bank/experience.md": """\
# Experience

- I migrated the warelay bridge to Baileys 6.7.
""",
    "bank/opinions.md": """\
# Opinions

- Peter prefers concise replies (confidence 0.9).
""",
    "bank/entities/Peter.md": """\
---
name: Peter Steinberger
aliases: [Pete, steipete]
---
# Peter

Founder who runs the warelay project. Reachable on WhatsApp.
""",
    "bank/entities/warelay.md": """\
---
name: warelay
aliases: [wa-relay, the WhatsApp relay]
---
# warelay

The WhatsApp relay that connects the assistant to WhatsApp through Baileys.

## Open issues
- Messages sent while the socket reconnects can be lost.
- Media uploads over 16 MB time out.
""",
    "bank/entities/The-Castle.md": """\
---
name: The Castle
aliases:
  - castle
---
# The Castle

The family house outside Vienna. The east wing roof needs work.
""",
    "memory/notes/coffee.md": """\
# Coffee

Espresso ratio notes: 18 g in, 36 g out, 28 seconds.
""",
    "memory/notes/roadmap.md": """\
# Roadmap

## Q1

### Bridge
- Ship media uploads over 16 MB for the relay.
- Add a health endpoint.
""",
    "memory/2025-03-14.md": """\
# 2025-03-14

## Notes
- The quokka migration finished on the alpha shard after two retries.
- Filed ticket OPS-4471 about the flaky nightly backup of the media bucket.
""",
    "memory/2025-11-10.md": """\
# 2025-11-10

## Notes
- Kickoff call with Peter about the warelay rollout plan.
- Set up the staging box for the WhatsApp bridge.

## Retain
- W @Peter: Lives in Vienna and works remotely for @Acme.
- O(c=0.8) @Peter: Prefers concise replies (<1500 chars) on WhatsApp.
- B @warelay: I provisioned the staging box for the bridge.
""",
    "memory/2025-11-12.md": """\
# 2025-11-12

## Notes
Long debugging session on the WebSocket crash. The stack trace pointed at
`connection.update` throwing inside the event emitter.

```text
TypeError: Cannot read properties of undefined (reading 'sendMessage')
    at Bridge.forward (src/bridge.ts:88:17)
```

## Retain
- B @warelay: I fixed the Baileys WS crash by wrapping connection.update handlers in try/catch (commit a828e60).
- S @Peter: Travels often; mostly reachable on WhatsApp.
""",
    "memory/2025-11-14.md": """\
# 2025-11-14

## Notes
| Setting | Staging | Production |
|---------|---------|------------|
| `memorySearch.query.hybrid` | false | true |
| `memorySearch.query.k` | 25 | 25 |

- Reviewed the gateway config with Peter.

## Retain
- W @warelay: The gateway reads memorySearch.query.hybrid from config.json5.
- O @warelay: Hybrid search should stay off on staging until the index is rebuilt.
""",
    "memory/2025-11-16.md": """\
# 2025-11-16

## Notes
- Quiet day. Cleaned up the castle inventory spreadsheet.

## Retain
- W @The-Castle: The roof over the east wing leaks when it rains.
- w @Peter: lowercase prefix makes this bullet malformed
- B @The-Castle: I booked a roofer for the east wing.
""",
    "memory/2025-11-18.md": """\
# 2025-11-18

## Notes
- Peter booked flights for the trip.

## Retain
- W @Peter: In Marrakech (Nov 27–Dec 1, 2025) for @Andy's birthday.
- O(c=0.6) @Andy: Likes surprise parties more than dinners.
""",
    "memory/2025-11-20.md": """\
# 2025-11-20

## Notes
- Bought espresso beans for Peter on the way back.
- 数据库迁移已经完成，明天检查备份。

## Retain
- B @Peter: I ordered the espresso beans Peter likes.
""",
    "memory/2025-11-22.md": """\
# 2025-11-22

## Notes
- 来週は東京でミーティングがあります。
- Prepared the Tokyo meeting agenda.

## Retain
- W @Peter: Flies to Tokyo on Dec 8, 2025.
""",
    "memory/2025-11-24.md": """\
# 2025-11-24

## Notes
- Tried the new Baileys release; reconnects still drop messages when the socket closes mid-send.

## Retain
- B @warelay: I bumped Baileys to 6.7 on staging; reconnects still lose messages.
""",
    "memory/2025-11-26.md": """\
# 2025-11-26

## Notes
- Drafted the release notes for warelay 0.9.

## Retain
- B @warelay: I released warelay 0.9 with the reconnect fix.
- W @Andy: Celebrates a 40th birthday in Marrakech on Nov 29, 2025.
""",
    "memory/2025-11-28.md": """\
# 2025-11-28

## Notes
- The quokka migration finished on the omega shard after one rollback.
- Peter messaged from Marrakech: the bridge survived two network drops.

## Retain
- O(c=0.9) @Peter: Prefers concise replies; asked again for short WhatsApp answers.
""",
    "memory/2025-11-30.md": """\
# 2025-11-30

## Notes
- Peter is back in Vienna and wants a list of open warelay issues.

## Retain
- W @Peter: Back in Vienna since Dec 1, 2025.
""",
}

_FACT_RE = re.compile(r"^- (?P<letter>[WBOS])(?:\([^)]*\))?[ :]")
_KIND = {"W": "world", "B": "experience", "O": "opinion", "S": "observation"}


def expected_facts(files: dict[str, str] = WORKSPACE_FILES) -> dict[str, int]:
    """Facts by kind, counted independently of the parser (well-formed bullets under ## Retain)."""
    counts: dict[str, int] = {}
    for text in files.values():
        in_retain = False
        for line in text.splitlines():
            if line.startswith("#"):
                in_retain = line.strip("# ").lower() == "retain"
                continue
            m = _FACT_RE.match(line)
            if in_retain and m:
                kind = _KIND[m["letter"]]
                counts[kind] = counts.get(kind, 0) + 1
    return counts


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def build_workspace(root: Path) -> Path:
    """Write the realistic workspace under `root` (not indexed)."""
    root.mkdir(parents=True, exist_ok=True)
    write_files(root, WORKSPACE_FILES)
    return root


def line_of(root: Path, rel: str, needle: str) -> int:
    """1-based number of the first line of `rel` containing `needle` (as on disk)."""
    lines = (root / rel).read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        if needle in line:
            return n
    raise AssertionError(f"{needle!r} not in {rel}")


def disk_lines(root: Path, rel: str) -> list[str]:
    """The file's lines as on disk (split on LF, CR of CRLF removed)."""
    return (root / rel).read_bytes().decode("utf-8", "replace").replace("\r\n", "\n").split("\n")


def tree_hashes(root: Path) -> dict[str, str]:
    """sha256 of every file under root except the derived state in .memory/."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".memory/") or path.is_symlink() or not path.is_file():
            continue
        out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


# ------------------------------------------------------------------------------------ the executable


def prepare_concurrently(embedders: list[Any]) -> list[list[str]]:
    """Call `prepare()` on every embedder at once, one thread each; the notices of each."""
    notices: list[list[str]] = [[] for _ in embedders]
    threads = [threading.Thread(target=lambda i=i: notices.__setitem__(i, embedders[i].prepare()))
               for i in range(len(embedders))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return notices


ARCHITECTURE_DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def documented_names(heading: str) -> list[str]:
    """The `code` names in the bullet list under `### heading` of docs/architecture.md (the rules a
    test enforces are written there; the test compares its list with the doc's)."""
    lines = ARCHITECTURE_DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"### {heading}") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("#")), len(lines))
    bullets, inside = [], False
    for line in lines[start:end]:
        inside = line.startswith("- ") or (inside and line.startswith("  "))
        if inside:
            bullets.append(line)
    return re.findall(r"`([\w.]+)`", "\n".join(bullets))


def memory_executable() -> str:
    """The installed `memory` console script of this interpreter's environment."""
    beside = Path(sys.executable).parent / "memory"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("memory")
    if not found:
        pytest.fail("the `memory` executable is not installed (pip install -e .)")
    return found


OFFLINE_DIR = Path(__file__).parent / "offline"  # sitecustomize.py: loopback-only sockets in every child


def clean_env(extra: dict[str, str | None] | None = None) -> dict[str, str]:
    """os.environ without MEMORY_* settings, UTF-8 output, plus `extra` (None values unset a variable).

    Children run offline: only loopback connections (tests/offline/sitecustomize.py).
    MEMORY_CACHE_DIR stays: it is the test run's model cache (the `model_cache` fixture), never ~/.cache.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_") or k == CACHE_ENV}
    env["MEMORY_TEST_OFFLINE"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(OFFLINE_DIR)]))
    env.update({"PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1", "NO_COLOR": "1", "COLUMNS": "200"})
    # The foundation suite is about the lexical engine: keep every run deterministic and model-free
    # (a test that wants the default provider passes env={"MEMORY_EMBED_PROVIDER": None}).
    env["MEMORY_EMBED_PROVIDER"] = "none"
    # Subprocesses start faster with cached bytecode; keep the cache out of the source tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "workspace-memory-tests-pycache")
    for key, value in (extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_memory(workspace: Path | str | None, *args: Any, now: str | None = NOW, timeout: float = 300,
               env: dict[str, str | None] | None = None, stdin: str | None = None) -> tuple[int, str, str]:
    """Run `memory [--workspace W] [--now N] ARGS...`; return (exit code, stdout, stderr)."""
    cmd = [memory_executable()]
    env = store_env(workspace) | (env or {})  # the workspace's store (tests parametrized over stores)
    if workspace is not None:
        cmd += ["--workspace", str(workspace)]
    if now is not None:
        cmd += ["--now", now]
    cmd += [str(a) for a in args]
    proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", errors="replace",
                          timeout=timeout, env=clean_env(env), input=stdin)
    return proc.returncode, proc.stdout, proc.stderr


def wait_listening(proc: subprocess.Popen, host: str, port: int, what: str = "the server",
                   timeout: float = 60) -> None:
    """Wait until `proc` accepts connections on host:port; fail at once if it exits, or after `timeout`."""
    import socket
    import time

    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{what} did not start"
        time.sleep(0.1)


def run_ok(workspace: Path | str | None, *args: Any, **kwargs: Any) -> str:
    code, out, err = run_memory(workspace, *args, **kwargs)
    assert code == 0, f"memory {' '.join(map(str, args))} exited {code}\nstdout: {out}\nstderr: {err}"
    assert "Traceback" not in err, err
    return out


def notes_workspace(root: Path, notes: dict[str, str], languages: tuple[str, ...], toml: str = "",
                    env: dict[str, str | None] | None = None) -> Path:
    """`root` holding these notes ({path: text}, dedented) with `[time] languages` (and `toml`), indexed."""
    import textwrap

    for path, text in notes.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text), encoding="utf-8")
    listed = ", ".join(f'"{code}"' for code in languages)
    (root / "memory.toml").write_text(f"{toml}[time]\nlanguages = [{listed}]\n", encoding="utf-8")
    run_ok(root, "index", env=env)
    return root


def recall_json(workspace: Path, query: str, *args: Any, now: str = NOW) -> dict[str, Any]:
    """`memory recall QUERY --json ARGS` (lexical unless ARGS say --mode) as a dict."""
    mode = () if "--mode" in args else ("--mode", "lexical")
    out = run_ok(workspace, "recall", query, "--json", *mode, *args, now=now)
    return json.loads(out)


def recall_batch(workspace: Path, specs: list[dict[str, Any]], now: str = NOW) -> list[dict[str, Any]]:
    """Several lexical recalls in one process (`recall --batch`); one answer per spec, in order."""
    fd, name = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(spec, ensure_ascii=False) + "\n" for spec in specs)
        out = run_ok(workspace, "recall", "--batch", name, "--json", "--mode", "lexical", now=now)
    finally:
        os.unlink(name)
    answers = [json.loads(line) for line in out.strip("\n").split("\n")]
    assert len(answers) == len(specs)
    return answers


def assert_one_line_error(code: int, out: str, err: str) -> str:
    """A user mistake: non-zero exit, exactly one line on stderr, no traceback. Returns the line."""
    assert code != 0, f"expected failure, got 0\nstdout: {out}\nstderr: {err}"
    assert "Traceback" not in err and "Traceback" not in out, err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].strip(), f"expected one stderr line, got {len(lines)}:\n{err}"
    return lines[0]


@contextlib.contextmanager
def index_db(root: Path) -> Iterator[sqlite3.Connection]:
    """Read-only connection to a workspace's derived index."""
    conn = sqlite3.connect(f"file:{root / '.memory' / 'index.sqlite'}?mode=ro", uri=True, timeout=30)
    try:
        yield conn
    finally:
        conn.close()


# ------------------------------------------------------------------------------------ markers

def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that runs on Postgres `postgres`, from the fixtures it uses (pg_url, or a
    parametrization over pg_fixtures.STORES on "postgres": `store`, `any_store`), so `make test-fast`
    can leave them out with `-m`. The other markers of the fast run (model, browser, node, slow) are
    set in their modules."""
    for item in items:
        params = getattr(item, "callspec", None)
        if "pg_url" in item.fixturenames or (params is not None and "postgres" in params.params.values()):
            item.add_marker(pytest.mark.postgres)
    items[:] = heaviest_files_first(items)


# Seconds a test of each kind costs, roughly (a busy 2-core machine, tests/test_*.py --durations):
# the first marker of a test that has one decides. Only the order of the files comes from them.
TEST_COST = {"slow": 20.0, "node": 15.0, "browser": 10.0, "model": 4.0, "postgres": 1.0}
PLAIN_TEST_COST = 0.3


def heaviest_files_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The tests, whole files in order of their estimated cost, the dearest first (each file's own
    order kept). `make test` hands whole files to its two xdist workers (`--dist loadfile
    --no-loadscope-reorder`: a module's gateway, server or model is started once), in this order:
    the long files start at once and the short ones fill the end, so neither worker waits at the
    end with one long file left on the other."""
    def file_of(item: pytest.Item) -> str:
        return item.nodeid.split("::")[0]

    cost: dict[str, float] = {}
    for item in items:
        kind = next((m for m in TEST_COST if item.get_closest_marker(m)), None)
        cost[file_of(item)] = cost.get(file_of(item), 0.0) + TEST_COST.get(kind, PLAIN_TEST_COST)
    return sorted(items, key=lambda item: -cost[file_of(item)])


# ------------------------------------------------------------------------------------ fixtures

@pytest.fixture(scope="session", autouse=True)
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The per-user model cache for this test run, shared by the xdist workers (so the ONNX export
    is made once per run) and never the real ~/.cache. Tests that need an empty cache make their own."""
    base = tmp_path_factory.getbasetemp()
    path = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "model-cache"
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(path)
    yield path
    if before is None:
        os.environ.pop(CACHE_ENV, None)
    else:
        os.environ[CACHE_ENV] = before



@pytest.fixture
def workspace(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """A fresh, realistic, not yet indexed workspace (safe to modify); on the test's `store` if it has one."""
    return register(build_workspace(tmp_path / "ws"), request)


@pytest.fixture
def indexed_workspace(workspace: Path) -> Path:
    """The fresh workspace after `memory index` (safe to modify)."""
    run_ok(workspace, "index")
    return workspace


@pytest.fixture(scope="module")
def shared_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One indexed workspace per test module, for read-only tests (do not modify it)."""
    root = build_workspace(tmp_path_factory.mktemp("shared") / "ws")
    run_ok(root, "index")
    return root


@pytest.fixture(scope="module")
def store_ws(store: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:  # noqa: F811
    """`shared_ws` on each store in turn (read-only): the tests that take it run on SQLite and Postgres."""
    root = register(build_workspace(tmp_path_factory.mktemp(f"shared-{store}") / "ws"), request)
    run_ok(root, "index")
    return root


@pytest.fixture
def mem(workspace: Path) -> Callable[..., tuple[int, str, str]]:
    """`mem(*args)` runs the installed executable against the fresh workspace with --now NOW."""
    return lambda *args, **kw: run_memory(workspace, *args, **kw)
