"""The package's shape: data flows one way through the layers, and the public names stay put.

The layer order is written down once, here. Every import in the package (at the top of a module,
inside a function, or under TYPE_CHECKING) must go to the module's own layer or one below it;
within a layer, only to the module's own package (recall/ and reflect/ never import each other).
"""

from __future__ import annotations

import ast
from pathlib import Path

import workspace_memory

PACKAGE = Path(workspace_memory.__file__).parent

# Lowest first. A name is the first part of a module path under workspace_memory.
LAYERS: list[tuple[str, ...]] = [
    ("errors", "clock", "tokens", "locks", "files", "endpoints", "timeparse", "timepoints", "timelang",
     "mcp_stdio", "values", "limits", "binds", "cancel"),  # base: import nothing above (mcp_stdio: the stdio streams)
    ("markdown",),  # parse, retain grammar, frontmatter
    ("workspace",),  # layout, config, the writes people see, file events
    ("agent",),  # core memory blocks, trigger recall, the flush prompt
    ("facts",),  # the domain: Fact, entities, supersession, text matching
    ("embed",),  # providers
    ("index",),  # the store boundary and the stores
    ("recall", "reflect", "doctor", "spaces"),  # the pipelines, side by side (spaces: index --estimate, batch jobs)
    ("api",),  # Memory, assembled from the parts above
    ("ui", "mcp_server"),  # shells over api: the web page, the MCP tools (served by `memory ui` / `memory mcp`)
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


def _imports(module: str, path: Path) -> list[tuple[int, str]]:
    """(line, imported module under workspace_memory, "" for the root) of every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    here = module.split(".") if module else []
    base = here if is_package else here[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - (node.level - 1)]
                target = ".".join(anchor + ([node.module] if node.module else []))
                names = [target] if node.module else [f"{target}.{a.name}".strip(".") for a in node.names]
                found += [(node.lineno, n) for n in names]
            elif node.module and node.module.split(".")[0] == "workspace_memory":
                found.append((node.lineno, node.module.partition(".")[2]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "workspace_memory":
                    found.append((node.lineno, alias.name.partition(".")[2]))
    return found


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
            if not other or other == top:
                continue
            same_layer = RANK[other] == RANK[top]
            if RANK[other] > RANK[top] or (same_layer and RANK[top] != 0):
                wrong.append(f"{path.relative_to(PACKAGE)}:{line}: {module} imports {target}")
    assert not wrong, "imports against the layer order:\n" + "\n".join(wrong)


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


def test_the_checker_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    sample = tmp_path / "engine.py"
    sample.write_text("from ..api import Memory\n\ndef f():\n    from ...workspace_memory import x\n"
                      "    from ..reflect.run import reflect\n")
    found = [t for _, t in _imports("recall.engine", sample)]
    assert "api" in found and "reflect.run" in found


def test_public_names() -> None:
    import workspace_memory.api as api

    assert sorted(workspace_memory.__all__) == ["Memory", "MemoryError_", "RecallRequest", "__version__"]
    assert sorted(api.__all__) == ["Memory", "RECALL_EMBED_BUDGET", "RecallRequest"]
    assert workspace_memory.Memory is api.Memory
    assert workspace_memory.RecallRequest is api.RecallRequest
    for name in workspace_memory.__all__:
        assert getattr(workspace_memory, name) is not None
