"""The wheel: built without packaging warnings, holding every module and data file, and working on its own.

`pip wheel .` builds it from a copy of the project (the build writes `build/` and `*.egg-info`
beside the sources); it is installed with `--no-index --no-deps` into a new virtual environment,
whose dependencies come from this interpreter's site-packages (a path line added after the install,
so that pip never sees, let alone replaces, the workspace-memory installed here). The tour's
commands then run from that environment's `memory` script on a small workspace, lexical: no
network, no model.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from conftest import NOW, OFFLINE_DIR

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "workspace_memory"

pytestmark = pytest.mark.slow  # a build, a venv and five cold processes: 15-30 s on a busy machine

# What setuptools says when the configuration is not what it should be (a deprecated
# project.license table, data folders missing from `packages`, ...).
WARNINGS = ("Warning", "deprecated", "absent from the `packages`")


def _package_files() -> set[str]:
    """Every file the wheel must hold: modules and package data, as paths inside the wheel."""
    return {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(the wheel built from a copy of the project, everything the build printed)."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "project"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = base / "dist"
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "-w", str(out), str(source)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (built,) = out.glob("workspace_memory-*.whl")
    return built, proc.stdout + proc.stderr


def test_the_build_prints_no_packaging_warning(wheel: tuple[Path, str]) -> None:
    _, printed = wheel
    warned = [line for line in printed.splitlines() if any(w in line for w in WARNINGS)]
    assert not warned, "\n".join(warned)


def test_the_wheel_holds_every_module_and_data_file(wheel: tuple[Path, str]) -> None:
    built, _ = wheel
    with zipfile.ZipFile(built) as whl:
        held = set(whl.namelist())
        metadata = next(whl.read(n).decode() for n in held if n.endswith(".dist-info/METADATA"))
    missing = sorted(_package_files() - held)
    assert not missing, f"not in the wheel: {missing}"
    assert "workspace_memory/ui/static/style.css" in held and "workspace_memory/bank_templates/bank/world.md" in held
    assert "License-Expression: MIT" in metadata


def test_the_installed_wheel_runs_the_tour(wheel: tuple[Path, str], tmp_path: Path) -> None:
    built, _ = wheel
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", "--no-deps",
                    "--quiet", str(built)], check=True, timeout=300,
                   env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    # The dependencies: this interpreter's site-packages, after the wheel's (a plain path line, so
    # the editable install's own .pth there is not read and cannot shadow the wheel).
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    deps = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "zz_shared_dependencies.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")

    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_") and k != "PYTHONPATH"}
    env |= {"PYTHONPATH": str(OFFLINE_DIR), "MEMORY_TEST_OFFLINE": "1", "MEMORY_EMBED_PROVIDER": "none",
            "PYTHONUTF8": "1", "NO_COLOR": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    where = subprocess.run([str(python), "-c", "import workspace_memory, importlib.resources as r; "
                            "print(workspace_memory.__file__); "
                            "print(r.files('workspace_memory.ui').joinpath('static/style.css').is_file())"],
                           capture_output=True, text=True, env=env, check=True).stdout.split()
    assert where == [str(site / "workspace_memory" / "__init__.py"), "True"]

    ws = tmp_path / "ws"

    def memory(*args: str) -> str:
        proc = subprocess.run([str(venv / "bin" / "memory"), "--workspace", str(ws), "--now", NOW, *args],
                              capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, f"memory {' '.join(args)}:\n{proc.stdout}{proc.stderr}"
        return proc.stdout

    memory("init")
    assert (ws / "MEMORY.md").is_file() and (ws / "bank" / "world.md").is_file()  # the bank templates
    for name in ("memory", "bank/entities"):  # the notes `make demo` lays in
        for note in (ROOT / "examples" / name).glob("*.md"):
            shutil.copy2(note, ws / name / note.name)
    memory("index")
    answer = json.loads(memory("recall", "Baileys crash fix", "--mode", "lexical", "--k", "3", "--json"))
    assert answer["results"] and answer["results"][0]["path"] == "memory/2025-11-26.md"
    status = json.loads(memory("status", "--json"))
    assert status["files"] >= 8 and status["facts"] >= 10 and status["entities"] >= 3
