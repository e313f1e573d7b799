"""Arrows point one way: the rules core does no I/O and depends on nothing above it.

Which package may import which is written as import-linter contracts in pyproject.toml
(``lint-imports`` in ``make test``). The checks here are the ones import-linter does not
make: the rules import only a few plain standard modules and do no I/O; every module of a
game package is covered by the contracts; the server never handles a whole state.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from conftest import shipped_games

import henge
from henge.core import plugin

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "henge"
SHIPPED = shipped_games()
EXAMPLE = ROOT / "tests" / "plugins" / "henge_example_threecard"
"""The example game in a package of its own (installed by tests/conftest.py): its rules are held to the same."""
PRESENTATION = {"bot", "search", "narrate", "terminal", "encode", "preview"}
"""The modules of a game package that read observations and states, never the rules."""
ANALYSIS = {"metrics"}
"""The module of a game package that gives a finished game's own figures to the analysis: it may
replay the game with its rules, and no rule module imports it."""
STDLIB_ALLOWED = {
    "random",
    "collections",
    "dataclasses",
    "typing",
    "itertools",
    "numbers",
    "math",
    "functools",
    "enum",
    "bisect",
}
CORE_ALSO = {"importlib", "types", "hashlib", "contextlib", "array"}
"""The registry reads installed entry points and loads a game's parts when asked; records are digested (G6);
the encoder writes a tensor into an array of doubles."""
CORE_LAZY = {"drawing.py": "rich", "encoding.py": "numpy"}
"""The one library a core helper module imports, inside the functions that need it (so importing the core
imports neither): Rich for a terminal drawing's cards, numpy for a seat's tensor as an array."""
COMPILER = {"cython"}
"""Cython's pure-Python mode: C types for the compiled build of a module, no-ops when it runs as Python."""
NO_IO_CALLS = {"print", "open", "input"}


def _game_modules(game_id: str) -> set[str]:
    folder = PACKAGE / "games" / game_id
    return {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}


def _rules_modules(game_id: str) -> set[str]:
    return _game_modules(game_id) - PRESENTATION - ANALYSIS


def _core_files() -> list[Path]:
    files = [PACKAGE / "box.py", PACKAGE / "engine.py", *sorted((PACKAGE / "core").glob("*.py"))]
    for game_id in SHIPPED:
        files += [PACKAGE / "games" / game_id / f"{m}.py" for m in sorted(_rules_modules(game_id))]
    return [*files, EXAMPLE / "rules.py"]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "henge":  # from henge import box
                names.update(f"henge.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
    return names


def _contract(name_start: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["name"].startswith(name_start):
            return contract
    raise AssertionError(f"no import contract named {name_start!r}…")


def _expand(patterns: list[str], game_id: str) -> set[str]:
    prefix = f"henge.games.{game_id}."
    names = set()
    for pattern in patterns:
        pattern = pattern.replace("henge.games.*.", prefix)
        if pattern.startswith(prefix):
            names.add(pattern.removeprefix(prefix))
    return names


def test_the_shipped_games_are_found_through_their_entry_points():
    assert sorted(henge.list_games()) == sorted([*SHIPPED, "threecard"])
    for game_id in SHIPPED:
        assert plugin(game_id).package == f"henge.games.{game_id}"
    assert plugin("threecard").package == EXAMPLE.name  # the test session's example, from its own package


def test_rules_core_imports_only_the_core_and_plain_stdlib():
    core = _core_files()
    assert len(core) > 2 + len(SHIPPED)
    for path in core:
        game = path.parent.name
        own = f"henge.games.{game}"
        for name in _imports(path):
            top = name.split(".")[0]
            ok = (
                top in STDLIB_ALLOWED
                or top in COMPILER
                or (path.parent.name == "core" and top in CORE_ALSO)
                or (path.parent.name == "core" and top == CORE_LAZY.get(path.name))
                or name in ("__future__", "henge.box", "henge.core", "henge.compiled")
                or name.startswith("henge.core.")
                or (path.parent.parent.name == "games" and (name == own or name.startswith(own + ".")))
            )
            assert ok, f"{path.relative_to(ROOT)} imports {name}: the rules core stays pure"


def test_rules_core_does_no_io():
    for path in _core_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in NO_IO_CALLS, f"{path.name} calls {node.func.id}()"


def test_the_import_contracts_cover_every_module_of_every_game():
    """A module added to a game must land on one side of the contracts: rules, or what reads them."""
    rules_side = _contract("The rules of a game")
    readers = _contract("No bot, narrator, drawing, encoding or preview")
    for game_id in SHIPPED:
        rules = _rules_modules(game_id)
        assert _expand(rules_side["source_modules"], game_id) == rules, game_id
        assert _expand(rules_side["forbidden_modules"], game_id) >= ANALYSIS, game_id
        assert _expand(readers["source_modules"], game_id) == PRESENTATION, game_id
        public = set(plugin(game_id).public)
        assert public <= rules, f"{game_id}: public facts {public - rules} are no rule modules"
        assert _expand(readers["forbidden_modules"], game_id) == rules - public, game_id


def test_the_server_never_handles_a_full_state_for_a_client():
    """The web server stores seeds and actions; it never serialises a whole state (secrets and all)
    and never re-draws hidden cards: what leaves it is built from observations."""
    server = PACKAGE / "server"
    sources = sorted(server.rglob("*.py"))
    assert sources
    for path in sources:
        text = path.read_text()
        for forbidden in ("to_json(", "state_from_json(", "resample_from_infostate("):
            assert forbidden not in text, f"{path.relative_to(PACKAGE)} calls {forbidden}"
