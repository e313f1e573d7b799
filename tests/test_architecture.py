"""Arrows point one way: the rules core does no I/O and depends on nothing above it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "henge"
CORE = [PACKAGE / "box.py", PACKAGE / "engine.py", *sorted((PACKAGE / "games").glob("*.py"))]
CORE_MAY_IMPORT = {"henge.box", "henge.engine", "henge.games", "__future__"}
STDLIB_ALLOWED = {"random", "collections", "dataclasses", "typing", "itertools", "numbers", "math", "functools", "enum"}
NO_IO_CALLS = {"print", "open", "input"}


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


def test_rules_core_imports_only_the_core_and_plain_stdlib():
    for path in CORE:
        for name in _imports(path):
            top = name.split(".")[0]
            ok = top in STDLIB_ALLOWED or any(name == m or name.startswith(m + ".") for m in CORE_MAY_IMPORT)
            assert ok, f"{path.name} imports {name}: the rules core stays pure"


def test_rules_core_does_no_io():
    for path in CORE:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in NO_IO_CALLS, f"{path.name} calls {node.func.id}()"


def test_layers_above_use_only_the_public_api_not_game_modules():
    above = [p for p in PACKAGE.rglob("*.py") if p not in CORE and p.parent.name != "games"]
    assert above
    for path in above:
        for name in _imports(path):
            assert not name.startswith("henge.games"), f"{path.relative_to(PACKAGE)} imports {name}"


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
