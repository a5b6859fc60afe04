"""A real Postgres (pgserver: Postgres 16 + pgvector 0.6 from a wheel) for the suite, and the `store`
parametrization that runs the important recall and reflect tests on both stores.

- `pg_url` (session): one server per pytest process, so each xdist worker has its own, deleted at
  the end (pgserver's "delete" cleanup, also at interpreter exit). $MEMORY_TEST_PG_URL points the
  suite at a server you run instead. In CI a server that cannot start fails the suite; elsewhere
  the Postgres tests are skipped with the reason.
- `store` (module, "sqlite" | "postgres"): a test that takes it runs once per store. Its workspaces
  (`workspace`, `store_ws`) are registered here; `run_memory` then passes MEMORY_STORE_URL and a
  workspace name unique to the folder, so tests never see each other's rows in the shared database.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

STORES = ("sqlite", "postgres")
_ROOTS: dict[str, str] = {}  # resolved workspace folder -> Postgres URL


def store_name(root: Path | str) -> str:
    """The workspace's name in the test database: unique per folder."""
    return "t-" + hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:12]


def use_postgres(root: Path, url: str) -> Path:
    """From now on, `memory` runs on `root` use the Postgres store at `url`."""
    _ROOTS[str(Path(root).resolve())] = url
    return root


def store_env(root: Path | str | None) -> dict[str, str]:
    """MEMORY_STORE_URL and MEMORY_STORE_WORKSPACE for a registered workspace, else nothing."""
    if root is None:
        return {}
    url = _ROOTS.get(str(Path(root).resolve()))
    return {"MEMORY_STORE_URL": url, "MEMORY_STORE_WORKSPACE": store_name(root)} if url else {}


@contextlib.contextmanager
def store_environ(root: Path | str) -> Iterator[None]:
    """os.environ with the workspace's store settings, for tests that open `Memory` in-process."""
    extra = store_env(root)
    saved = {k: os.environ.get(k) for k in extra}
    os.environ.update(extra)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def unavailable(reason: str) -> None:
    """No Postgres for the tests: a failure in CI (`CI` set, as .ci/run does), else a skip with the reason."""
    if os.environ.get("CI"):
        pytest.fail(f"Postgres is required in CI: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a running Postgres with pgvector (one per pytest process)."""
    external = os.environ.get("MEMORY_TEST_PG_URL")
    if external:
        yield external
        return
    try:
        import pgserver
    except ImportError:
        unavailable("pgserver is not installed (pip install -e '.[dev]')")
    folder = tmp_path_factory.mktemp("postgres")
    try:
        server = pgserver.get_server(folder / "data", cleanup_mode="delete")
    except Exception as exc:  # any failure to start is reported the same way
        unavailable(f"pgserver could not start Postgres: {exc}")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


@pytest.fixture(scope="module", params=STORES)
def store(request: pytest.FixtureRequest) -> str:
    """"sqlite" or "postgres": the store this test's workspaces use (the test runs once for each)."""
    if request.param == "postgres":
        request.getfixturevalue("pg_url")
    return request.param


def register(root: Path, request: pytest.FixtureRequest) -> Path:
    """Put `root` on Postgres when the requesting test runs with store="postgres"."""
    if "store" in request.fixturenames and request.getfixturevalue("store") == "postgres":
        use_postgres(root, request.getfixturevalue("pg_url"))
    return root
