"""wkparse's imports run one way and form no cycle (issue 22).

Read statically from the package's source (every `import`, at the top, inside a function or
under TYPE_CHECKING alike): a lazy import still ties two modules together. The layers, lowest
first, follow the pipeline: text -> AST, then the models of SimAI and AICB, then findings and
facts, then their renderings, then the commands and the public API. A module may import its
own layer or a lower one, never a higher one; `benchmarks/` never imports `tests/`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "wkparse"
#: top-level names of wkparse (modules and subpackages), lowest layer first; `wkparse` is the
#: package's own `__init__` (the public API)
LAYERS: tuple[frozenset[str], ...] = (
    frozenset(
        {
            "resources",
            "record",
            "i18n",
            "atomic",
            "heap",
            "terminal",
            "cpp",
            "digits",
            "encoding",
            "grammar",
            "ast",
            "diagnostics",
            "columns",
            "body",
            "row_shapes",
            "bulk",
            "row_reader",
            "syntax",
            "parse",
            "format",
            "catalog",
            "translated_pages",
            "concepts",
            "locale",
        }
    ),
    frozenset({"models"}),
    frozenset(
        {"config", "checks", "engine", "fix", "discover", "explanation", "difference", "threads"}
    ),
    frozenset({"render"}),
    frozenset({"commands", "cli", "plain_help", "__main__", "wkparse", "api", "lsp"}),
)


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The wkparse modules `name` imports (`from pkg import sub` names the submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for a in node.names:
                sub = f"{module}.{a.name}"
                if sub in MODULES:
                    found.add(sub)
                elif module in MODULES:
                    found.add(module)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "wkparse"
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"{module}: add its top-level name to a layer in {__file__}")


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(GRAPH):
        if root in index:
            continue
        work = [(root, iter(sorted(GRAPH[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(GRAPH[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_module_has_a_layer() -> None:
    for module in MODULES:
        _layer(module)


def test_no_import_cycle() -> None:
    assert _cycles() == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_upward_import(module: str) -> None:
    assert _upward(module) == [], f"{module} imports a higher layer"


def _upward(module: str) -> list[str]:
    return sorted(m for m in GRAPH[module] if _layer(m) > _layer(module))


def test_the_check_sees_a_cycle_and_an_upward_import() -> None:
    """The checks above would catch what issue 22 found (bulk <-> row_reader, ast -> simai)."""
    saved = {k: set(v) for k, v in GRAPH.items()}
    try:
        GRAPH["wkparse.bulk"].add("wkparse.row_reader")
        GRAPH["wkparse.row_reader"].add("wkparse.bulk")
        assert ["wkparse.bulk", "wkparse.row_reader"] in _cycles()
        GRAPH["wkparse.ast"].add("wkparse.models.simai.tokens")
        assert _upward("wkparse.ast") == ["wkparse.models.simai.tokens"]
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def test_benchmarks_do_not_import_tests() -> None:
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            assert not [n for n in names if n == "tests" or n.startswith("tests.")], path.name


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if m == "wkparse.api" or m.startswith("wkparse.lsp"))
)
def test_the_api_and_the_server_stand_beside_the_commands(module: str) -> None:
    """The Python API and the language server use the layers below them, never the
    command-line layer they stand beside (reading a file, explaining it: issue 33)."""
    assert not [m for m in _imports(module, MODULES[module]) if m.startswith("wkparse.commands")]
