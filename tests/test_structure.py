"""The shape of the package: no module too long to read, and no circle of modules.

Which package may import which is written as import-linter contracts in pyproject.toml; these
are the two rules the contracts cannot say. Both read the import graph import-linter builds
(grimp's), which holds every import, those under ``if TYPE_CHECKING:`` and inside functions too.
"""

from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "henge"
MAX_LINES = 500
LONGER = {
    "henge/games/druid_olympics/rules.py": "the rules module, rewritten for the compiled engine next",
    "henge/games/fightin/rules.py": "the rules module, rewritten for the compiled engine next",
    "henge/games/first_druid/rules.py": "the rules module, rewritten for the compiled engine next",
    "henge/games/spell_casting/rules.py": "the rules module, rewritten for the compiled engine next",
    "henge/games/stonerush/rules.py": "the rules module, rewritten for the compiled engine next",
    # Compiled modules whose helpers are C functions (cython.cfunc): Cython calls those directly only
    # from the module that defines them, so splitting the module would make each call a Python call.
    "henge/core/state.py": "the compiled State and its C fields; Game beside it",
    "henge/games/fightin/events.py": "the events' steps, called directly from the compiled step runner",
    "henge/games/first_druid/bot.py": "the rule-based player's plan search, C helpers in one module",
    "henge/games/spell_casting/bot.py": "the rule-based player's model board, a compiled class, with its C helpers",
    "henge/server/tables.py": "the live table, split by concern with the server's limits",
    "henge/server/app.py": "the web app, split by concern with the server's limits",
}
"""The modules allowed over :data:`MAX_LINES`, each with the reason."""


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_in_henge_is_over_500_lines_but_the_listed_ones():
    long = {str(path.relative_to(ROOT)): _lines(path) for path in PACKAGE.rglob("*.py") if _lines(path) > MAX_LINES}
    unlisted = {name: count for name, count in long.items() if name not in LONGER}
    assert not unlisted, f"modules over {MAX_LINES} lines: {unlisted}; split them by subject"


def test_every_listed_exception_still_exists():
    for name in LONGER:
        assert (ROOT / name).is_file(), f"{name} is listed as allowed over {MAX_LINES} lines but is gone"


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Returns every circle of modules in ``graph``: its strongly connected parts of two or more."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        # Tarjan's algorithm, iterative: (module, position in its edges).
        work = [(root, 0)]
        while work:
            module, at = work.pop()
            if at == 0:
                index[module] = low[module] = len(index)
                stack.append(module)
                on_stack.add(module)
            targets = edges.get(module, [])
            if at < len(targets):
                work.append((module, at + 1))
                target = targets[at]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == module:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_no_circle_of_modules_type_only_ones_included():
    graph = grimp.build_graph("henge", cache_dir=None)
    assert cycles(graph) == []


def test_the_circle_finder_finds_a_circle():
    graph = grimp.ImportGraph()
    for module in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(module)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert cycles(graph) == [["a.x", "a.y", "a.z"]]
