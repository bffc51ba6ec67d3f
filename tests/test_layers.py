"""The package layout tells its architecture: imports point downward, no circle of any length, no private reach-ins."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS: list[tuple[str, ...]] = [
    ("lycan.rules", "lycan.stats"),  # pure data and functions; small statistics
    ("lycan.engine", "lycan.terminal"),  # the game; escaping text for terminals
    ("lycan.models", "lycan.data"),  # chat-model backends; viewpoint samples, candidates, datasets
    ("lycan.beliefs", "lycan.value"),  # role posteriors; the value network at play
    ("lycan.render",),  # events in words: for people, for prompts, for explanations
    ("lycan.agents",),  # every player
    ("lycan.conformance", "lycan.env", "lycan.aiwolf", "lycan.voice"),  # built on agents or the engine alone
    ("lycan.store", "lycan.eval", "lycan.arena"),  # records (checked by the conformance kit), metrics, tournaments
    ("lycan.train",),  # training: plays games with the agents
    ("lycan.causal",),  # CaM-Wolf's causal training, on self-play from `lycan.train`
    ("lycan.web",),  # the browser table
    ("lycan.cli",),  # the command line
    ("lycan.__main__",),  # `python -m lycan`
]
"""Each package's layer, lowest first: a package may import its own modules and those of lower layers."""


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")


def _imports() -> dict[str, set[str]]:
    """Every module's imports of other `lycan` modules, type-checking-only and function-level imports included."""
    graph: dict[str, set[str]] = {}
    for path in (SRC / "lycan").rglob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lycan"):
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)  # `from pkg import submodule`
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("lycan"))
        graph[_module(path)] = deps
    return graph


def _layer(module: str) -> int:
    for i, packages in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in packages):
            return i
    raise AssertionError(f"{module} is in no layer: add its package to LAYERS")


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of `graph`: its strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_the_cycle_finder_finds_circles_of_any_length() -> None:
    three = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(three) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_circle_of_imports_of_any_length() -> None:
    graph = _imports()
    modules = set(graph) | {"lycan"}
    assert strongly_connected({m: {d for d in deps if d in modules and d != m} for m, deps in graph.items()}) == []


def test_every_import_points_to_the_same_package_or_a_lower_layer() -> None:
    wrong = []
    for module, deps in _imports().items():
        if module == "lycan":
            continue
        for dep in deps:
            if dep == "lycan" or _package(dep) == _package(module):
                continue
            if _layer(dep) >= _layer(module):
                wrong.append(f"{module} imports {dep} (layer {_layer(dep)} >= {_layer(module)})")
    assert sorted(set(wrong)) == []


def test_rules_and_engine_import_nothing_above_them() -> None:
    allowed = ("lycan.rules", "lycan.engine")
    for module, deps in _imports().items():
        if module.startswith(allowed):
            above = sorted(d for d in deps if not d.startswith(allowed) and d != "lycan")
            assert not above, f"{module} imports {above}"


def test_what_agents_load_at_play_time_imports_no_training() -> None:
    for module, deps in _imports().items():
        if module.startswith(("lycan.agents", "lycan.value")):
            assert not [d for d in deps if d.startswith(("lycan.train", "lycan.causal"))], module


def _private_imports() -> set[tuple[str, str, str]]:
    found = set()
    for path in (SRC / "lycan").rglob("*.py"):
        module = _module(path)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lycan"):
                for alias in node.names:
                    if alias.name.startswith("_") and node.module != module:
                        found.add((module, node.module, alias.name))
    return found


def test_no_module_imports_another_modules_private_name() -> None:
    assert _private_imports() == set(), "import a public name instead (compose a public part)"
