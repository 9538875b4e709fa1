"""The package's import graph: no cycles at module level, and the layers point down."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "poissonnier_tui"


def module_graph() -> dict[str, set[str]]:
    """Each ``poissonnier_tui`` module -> the package modules it imports when it is imported
    (imports inside functions and ``if TYPE_CHECKING:`` blocks are left out; ``from pkg
    import sub`` of a submodule counts as importing ``pkg.sub``)."""
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for n in ast.walk(node):
                if isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
                    subs = {f"{n.module}.{a.name}" for a in n.names} & modules.keys()
                    deps |= subs or {n.module}
                elif isinstance(n, ast.Import):
                    deps |= {a.name for a in n.names}
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles() -> None:
    graph = module_graph()
    assert "poissonnier_tui.hosting.tables" in graph  # the graph is the real one
    assert "poissonnier_tui.hosting.persistence" in graph["poissonnier_tui.hosting.tables"]
    assert cycles(graph) == []


def test_a_made_up_cycle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_hosting_client_and_arena_know_no_particular_game() -> None:
    """Logs, replay, tables, the headless client and the arena reach a game only through the
    registry, and logs never import the table builder or the LAN side."""
    graph = module_graph()
    for name, deps in graph.items():
        if name.startswith(("poissonnier_tui.hosting", "poissonnier_tui.client",
                            "poissonnier_tui.arena")):  # fmt: skip
            assert not {d for d in deps if d.startswith("poissonnier_tui.games.")}, name
    persistence = graph["poissonnier_tui.hosting.persistence"]
    assert not persistence & {"poissonnier_tui.hosting.tables", "poissonnier_tui.hosting.lan"}
