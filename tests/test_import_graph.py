"""The package's modules import one another without cycles: at import time (the
statements at a module's top level) and, for the pairs the engine-internals review
named, not even inside functions (``cli.py`` and the ``_cli_*`` modules share
``_cli_common``; ``game/state_io.py`` finds the hand's constructor on the class)."""

from __future__ import annotations

import ast
from pathlib import Path

import triple_draw

ROOT = Path(triple_draw.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = ("triple_draw", *p.relative_to(ROOT).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def _imports(path: Path, name: str, known: set[str], *, top_only: bool) -> set[str]:
    """The package's modules that ``path`` imports (at its top level, or anywhere)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # imports for the type checker only (`if TYPE_CHECKING:`) are never run
    tree.body = [
        n
        for n in tree.body
        if not (isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    ]
    nodes = tree.body if top_only else list(ast.walk(tree))
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    got: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            got.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in known:
                    got.add(sub)
                elif base in known:
                    got.add(base)
    got.discard(name)
    return got


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return [*stack[stack.index(n) :], n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_module_of_the_package_imports_itself_back_at_import_time() -> None:
    mods = _modules()
    known = set(mods)
    graph = {m: _imports(p, m, known, top_only=True) for m, p in mods.items()}
    # a package's __init__ importing its own submodules is how packages are built
    for m in graph:
        graph[m] = {n for n in graph[m] if not m.startswith(n + ".")}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cli_and_the_hand_documents_have_no_cycle_even_inside_functions() -> None:
    mods = _modules()
    known = set(mods)
    for a, b in (
        ("triple_draw.cli", "triple_draw._cli_analysis"),
        ("triple_draw.cli", "triple_draw._cli_histories"),
        ("triple_draw.cli", "triple_draw._cli_review"),
        ("triple_draw.game.hand", "triple_draw.game.state_io"),
    ):
        ab = b in _imports(mods[a], a, known, top_only=False)
        ba = a in _imports(mods[b], b, known, top_only=False)
        assert not (ab and ba), f"{a} and {b} import each other"


def test_test_modules_do_not_import_each_other() -> None:
    """Shared test helpers live in conftest.py (and server_util.py), never in a test
    module another one imports: each test file runs alone, in any order or worker."""
    tests = Path(__file__).resolve().parent
    names = {p.stem for p in tests.glob("test_*.py")}
    for p in sorted(tests.glob("test_*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "") in names:
                raise AssertionError(f"{p.name} imports the test module {node.module}")
            if isinstance(node, ast.Import):
                bad = [a.name for a in node.names if a.name in names]
                assert not bad, f"{p.name} imports the test module {bad[0]}"
