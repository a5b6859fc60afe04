"""The package's shape: data flows one way through the layers, and the public names stay put.

The layer order is written down once, here. Every import in the package (at the top of a module,
inside a function, or under TYPE_CHECKING) must go to the module's own layer or one below it;
within a layer, only to the module's own package (recall/ and reflect/ never import each other).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import workspace_memory

PACKAGE = Path(workspace_memory.__file__).parent

# Lowest first. A name is the first part of a module path under workspace_memory.
LAYERS: list[tuple[str, ...]] = [
    ("errors", "clock", "tokens", "locks", "files", "endpoints", "dates", "lang", "values", "limits", "binds",
     "cancel", "secrecy", "fuzzy"),  # base: import nothing above
    ("markdown",),  # parse, retain grammar, frontmatter
    ("workspace",),  # layout, config, the writes people see, file events
    ("media",),  # images, PDFs, voice notes: derived text and metadata (the extraction worker)
    ("agent",),  # core memory blocks, trigger recall, the flush prompt
    ("facts",),  # the domain: Fact, entities, supersession, text matching
    ("embed",),  # providers
    ("index",),  # the store boundary and the stores
    ("recall", "reflect", "doctor", "spaces", "media_space"),  # the pipelines, side by side (spaces: index
    # --estimate, batch jobs; media_space: images and recordings embedded remotely, when chosen)
    ("api",),  # Memory, assembled from the parts above
    ("ui", "mcp"),  # shells over api: the web page, the MCP server (served by `memory ui` / `memory mcp`)
    ("cli", "bank_templates"),  # the command line, which starts the other shells
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append((".".join(parts), path))
    return out


class _Import:
    """One import statement's target: `module` under workspace_memory ("" for the root package's
    façade) or `external` (a third-party or standard module's first name); `eager` when it runs on
    import of the file (not inside a function, not under TYPE_CHECKING)."""

    __slots__ = ("line", "module", "external", "eager")

    def __init__(self, line: int, module: str | None, external: str | None, eager: bool) -> None:
        self.line, self.module, self.external, self.eager = line, module, external, eager


ROOT_OWN = {"__version__"}  # names workspace_memory/__init__.py defines, not loads from below


def _is_module(name: str) -> bool:
    """True when `name` (dotted, under workspace_memory) is a module or package file."""
    path = PACKAGE.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _walk(module: str, path: Path) -> list[_Import]:
    """Every import in the file, lazy ones and those under TYPE_CHECKING included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    here = module.split(".") if module else []
    base = here if is_package else here[:-1]
    found: list[_Import] = []

    def ours(line: int, anchor: list[str], names: list[str], eager: bool) -> None:
        # `from <anchor> import name`: a submodule when there is one, else a name of the package's
        # __init__. From the root, a name it defines itself (__version__) imports nothing of ours;
        # any other is one of its façade's lazy names (""), which would import api from below.
        for name in names:
            target = ".".join([*anchor, name])
            if anchor or _is_module(target):
                found.append(_Import(line, target, None, eager))
            elif name not in ROOT_OWN:
                found.append(_Import(line, "", None, eager))

    def visit(node: ast.AST, eager: bool) -> None:
        if isinstance(node, ast.ImportFrom):
            names = [a.name for a in node.names]
            if node.level:
                if node.level - 1 > len(base):
                    found.append(_Import(node.lineno, "." * node.level + (node.module or ""), None, eager))
                    return  # above the package: reported as no module of ours
                anchor = base[: len(base) - (node.level - 1)]
                if node.module:
                    found.append(_Import(node.lineno, ".".join([*anchor, node.module]), None, eager))
                else:
                    ours(node.lineno, anchor, names, eager)
            elif node.module and node.module.split(".")[0] == "workspace_memory":
                sub = node.module.partition(".")[2]
                if sub:
                    found.append(_Import(node.lineno, sub, None, eager))
                else:
                    ours(node.lineno, [], names, eager)
            elif node.module:
                found.append(_Import(node.lineno, None, node.module.split(".")[0], eager))
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                first, _, rest = alias.name.partition(".")
                if first == "workspace_memory":
                    found.append(_Import(node.lineno, rest, None, eager))
                else:
                    found.append(_Import(node.lineno, None, first, eager))
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            eager = False
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                visit(child, False)
            for child in node.orelse:
                visit(child, eager)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, eager)

    visit(tree, True)
    return found


def _imports(module: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported module under workspace_memory, "" for the root's façade) of every import of ours."""
    return [(i.line, i.module) for i in _walk(module, path) if i.module is not None]


def test_every_module_has_a_layer() -> None:
    missing = sorted({m.split(".")[0] for m, _ in _modules() if m and m.split(".")[0] not in RANK})
    assert not missing, f"add these to LAYERS: {missing}"


def test_imports_flow_down_the_layers_only() -> None:
    wrong = []
    for module, path in _modules():
        if not module:
            continue  # the root package's lazy façade (see test_public_names)
        top = module.split(".")[0]
        for line, target in _imports(module, path):
            other = target.split(".")[0]
            where = f"{path.relative_to(PACKAGE)}:{line}: {module}"
            if not other:
                wrong.append(f"{where} imports through the root package's façade (workspace_memory/__init__.py);"
                             " import the name from the module that defines it (e.g. workspace_memory.api)")
                continue
            if other not in RANK:
                wrong.append(f"{where} imports {target}, which is no module of workspace_memory")
                continue
            if other == top:
                continue
            same_layer = RANK[other] == RANK[top]
            if RANK[other] > RANK[top] or (same_layer and RANK[top] != 0):
                wrong.append(f"{where} imports {target}")
    assert not wrong, "imports against the layer order (docs/architecture.md#layers):\n" + "\n".join(wrong)


def test_no_module_imports_its_importer() -> None:
    """No circles between modules (lazy imports included): each file can be read on its own."""
    mods = dict(_modules())
    graph: dict[str, set[str]] = {}
    for module, path in mods.items():
        deps = set()
        for _, target in _imports(module, path):
            while target and target not in mods:
                target = target.rpartition(".")[0]  # `from pkg.mod import name`: the module
            if target and target != module and not module.startswith(target + "."):
                deps.add(target)
        graph[module] = deps
    circles = sorted({tuple(sorted((a, b))) for a, deps in graph.items() for b in deps
                      if a in graph.get(b, set()) or _reaches(graph, b, a)})
    assert not circles, f"import circles: {circles}"


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo += graph.get(node, ())
    return False


# Third-party libraries of one shell: imported (lazily or not) only in the layers named.
ONLY_IN: dict[str, tuple[str, ...]] = {
    "click": ("cli",),
    "starlette": ("ui", "mcp"),
    "uvicorn": ("ui", "mcp"),
}
# Where a lexical recall starts on either store (the console script's quick path, the library, the
# recall engine, the stores' readers). What these import when they are imported must not import
# numpy: the vector code loads it lazily, when a semantic channel runs. (What functions import
# lazily on the way is checked by running one: test_recall_lexical's cold-recall tests.)
# The rules are written in docs/architecture.md, "The cold path"; this list is its list there.
LEXICAL_RECALL = ("cli", "cli.quick", "api", "recall.engine", "recall.lexical", "index.factory",
                  "index.sqlite.store", "index.postgres.store")
NEVER_ON_THE_LEXICAL_PATH = ("numpy",)
COLD_PATH_RULES = "docs/architecture.md#the-cold-path"


def test_third_party_libraries_stay_in_their_shells() -> None:
    wrong = [f"{path.relative_to(PACKAGE)}:{i.line}: {module} imports {i.external} "
             f"(only {', '.join(f'{p}/' for p in ONLY_IN[i.external])} may)"
             for module, path in _modules() for i in _walk(module, path)
             if i.external in ONLY_IN and module.split(".")[0] not in ONLY_IN[i.external]]
    assert not wrong, "\n".join(wrong)


def _eager_closure(entries: tuple[str, ...]) -> dict[str, Path]:
    """The modules of ours that importing `entries` imports (imports at module level, parents included)."""
    mods = dict(_modules())
    seen: dict[str, Path] = {}
    todo = list(entries)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        assert module in mods, f"LEXICAL_RECALL names {module!r}, which is no module: update it"
        seen[module] = mods[module]
        parts = module.split(".")
        todo += [p for p in (".".join(parts[:n]) for n in range(1, len(parts))) if p in mods]
        for i in _walk(module, mods[module]):
            target = i.module
            while i.eager and target and target not in mods:
                target = target.rpartition(".")[0]  # `from pkg.mod import name`: the module
            if i.eager and target:
                todo.append(target)
    return seen


def test_numpy_is_never_imported_on_the_lexical_recall_path() -> None:
    path_modules = _eager_closure(LEXICAL_RECALL)
    assert "recall.lexical" in path_modules and "index.sqlite.store" in path_modules
    wrong = [f"{path.relative_to(PACKAGE)}:{i.line}: {module} imports {i.external} when it is imported "
             f"(a lexical recall imports this module: import it inside the function that needs it; {COLD_PATH_RULES})"
             for module, path in path_modules.items() for i in _walk(module, path)
             if i.eager and i.external in NEVER_ON_THE_LEXICAL_PATH]
    assert not wrong, "\n".join(wrong)


def test_the_documented_list_is_this_one() -> None:
    from conftest import documented_names

    assert list(NEVER_ON_THE_LEXICAL_PATH) == documented_names("Never imported at the top of a module on the path"), \
        f"change docs/architecture.md and NEVER_ON_THE_LEXICAL_PATH together ({COLD_PATH_RULES})"


def _runtime_imports(module: str, path: Path) -> list[tuple[int, str]]:
    """(line, module of ours) of the imports that run (at import or in a function), not those
    under TYPE_CHECKING, which only name types."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_lines = {n.lineno for node in ast.walk(tree)
                    if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                    for child in node.body for n in ast.walk(child) if hasattr(n, "lineno")}
    return [(line, target) for line, target in _imports(module, path) if line not in typing_lines]


def test_the_facade_leaves_embedding_to_the_index() -> None:
    """A recall's walk goes down and comes back: api/ asks index.vector_space for the vectors and
    hands them to recall/; it calls no embed/ code itself (docs/architecture.md#layers)."""
    wrong = [f"{path.relative_to(PACKAGE)}:{line}: {module} imports {target}"
             for module, path in _modules() if module.split(".")[0] == "api"
             for line, target in _runtime_imports(module, path) if target.split(".")[0] == "embed"]
    assert not wrong, "the façade calls into embed/ (ask Memory.vector_space instead):\n" + "\n".join(wrong)


def test_the_checker_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    sample = tmp_path / "engine.py"
    sample.write_text("from ..api import Memory\n\ndef f():\n    from ...workspace_memory import x\n"
                      "    from ..reflect.run import reflect\n")
    found = [t for _, t in _imports("recall.engine", sample)]
    assert "api" in found and "reflect.run" in found


def test_the_checker_sees_the_root_facade_and_third_party_imports(tmp_path: Path) -> None:
    sample = tmp_path / "engine.py"
    sample.write_text("from workspace_memory import Memory, api\nfrom .. import RecallRequest, __version__\n"
                      "import numpy as np\n\ndef f():\n    import click\n")
    walked = _walk("recall.engine", sample)
    assert [(i.line, i.module) for i in walked if i.module is not None] == [(1, ""), (1, "api"), (2, "")]
    assert [(i.external, i.eager) for i in walked if i.external] == [("numpy", True), ("click", False)]


def test_every_package_folder_is_installed() -> None:
    """pyproject.toml lists the packages (a plain src layout, no discovery): a folder of modules or
    of package data (ui/static, bank_templates/bank) missing from it is missing from a wheel
    (tests/test_wheel.py builds one and checks)."""
    import tomllib

    listed = set(tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    on_disk = {".".join(("workspace_memory", *p.parent.relative_to(PACKAGE).parts)) for p in PACKAGE.rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert on_disk == listed, f"pyproject.toml [tool.setuptools] packages: add {sorted(on_disk - listed)}, " \
                              f"remove {sorted(listed - on_disk)}"


def test_nothing_below_api_takes_the_facade() -> None:
    """doctor, spaces, workspace.watch (and every module below api/) take the narrow things they
    use (the workspace, the store's roles, callables), never `Memory` (`mem`), so nothing calls back
    up into the façade (docs/architecture.md, "No calls back up")."""
    found = []
    for module, path in _modules():
        if not module or RANK[module.split(".")[0]] >= RANK["api"]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args
                names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
                if "mem" in names:
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}(mem, ...)")
    assert not found, "a module below api/ takes the façade:\n" + "\n".join(found)


# A number written where texts are compared fuzzily: a bar of its own instead of fuzzy.py's.
_FUZZY_NUMBER = re.compile(
    r"score_cutoff=\d|(?:fuzz\.\w+|similarity|ratio_at_least|partial_ratio_below|partial_below|bound)\([^()]*\)"
    r"\s*[<>]=?\s*\d|(?:partial_below|bound|ratio_at_least)\([^()]*,\s*\d+(?:\.\d+)?\)"
    r"|^(?!EXACT_)[A-Z_]*(?:THRESHOLD|_MATCH|FUZZY|SIMILAR)[A-Z_]*\s*=\s*\d", re.M)  # EXACT_: vector search sizes


def test_fuzzy_bars_are_declared_once() -> None:
    """Every fuzzy comparison names its purpose's bar in fuzzy.py (docs/architecture.md, "One
    declaration"), never a number of its own."""
    found = [f"{path.relative_to(PACKAGE)}: {m.group(0)}" for _, path in _modules() if path.name != "fuzzy.py"
             for m in _FUZZY_NUMBER.finditer(path.read_text(encoding="utf-8"))]
    assert not found, "fuzzy bars written as numbers (use workspace_memory.fuzzy):\n" + "\n".join(found)


def test_public_names() -> None:
    import workspace_memory.api as api

    assert sorted(workspace_memory.__all__) == ["Memory", "MemoryError_", "RecallRequest", "__version__"]
    assert sorted(api.__all__) == ["Memory", "RECALL_EMBED_BUDGET", "RecallRequest"]
    assert workspace_memory.Memory is api.Memory
    assert workspace_memory.RecallRequest is api.RecallRequest
    for name in workspace_memory.__all__:
        assert getattr(workspace_memory, name) is not None
