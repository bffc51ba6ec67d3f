"""The package layout tells its architecture: imports point downward, and no two modules import each other."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _imports() -> dict[str, set[str]]:
    """Every module's imports of other `lycan` modules, type-checking-only imports included."""
    graph: dict[str, set[str]] = {}
    for path in (SRC / "lycan").rglob("*.py"):
        module = ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lycan"):
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)  # `from pkg import submodule`
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("lycan"))
        graph[module] = deps
    return graph


def test_rules_and_engine_import_nothing_above_them() -> None:
    allowed = ("lycan.rules", "lycan.engine")
    for module, deps in _imports().items():
        if module.startswith(allowed):
            above = sorted(d for d in deps if not d.startswith(allowed) and d != "lycan")
            assert not above, f"{module} imports {above}"


def test_beliefs_import_only_rules_engine_and_models() -> None:
    allowed = ("lycan.rules", "lycan.engine", "lycan.models", "lycan.beliefs")
    for module, deps in _imports().items():
        if module.startswith("lycan.beliefs"):
            above = sorted(d for d in deps if not d.startswith(allowed) and d != "lycan")
            assert not above, f"{module} imports {above}"


def test_no_two_modules_import_each_other() -> None:
    graph = _imports()
    modules = set(graph)
    circles = sorted((a, b) for a, deps in graph.items() for b in deps if b in modules and a < b and a in graph[b])
    assert circles == []


def test_render_builds_on_the_engine_and_beliefs_alone() -> None:
    """Events become English in `lycan.render`, which agents, front ends and training use; its meter reads beliefs."""
    allowed = ("lycan.rules", "lycan.engine", "lycan.beliefs", "lycan.render")
    deps = _imports()["lycan.render"]
    above = sorted(d for d in deps if not d.startswith(allowed) and d != "lycan")
    assert not above, f"lycan.render imports {above}"


def test_causal_training_builds_on_the_layers_below_it() -> None:
    allowed = (
        "lycan.rules",
        "lycan.engine",
        "lycan.beliefs",
        "lycan.models",
        "lycan.agents",
        "lycan.data",
        "lycan.eval.stats",
        "lycan.causal",
        "lycan.render",  # events as English: built on the engine and beliefs
    )
    for module, deps in _imports().items():
        if module.startswith("lycan.causal"):
            above = sorted(d for d in deps if not d.startswith(allowed) and d != "lycan")
            assert not above, f"{module} imports {above}"
