"""Golden playthroughs: a recorded game per rule set, so any behaviour change shows in review."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import henge

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("regenerate_golden", ROOT / "scripts" / "regenerate_golden.py")
assert _spec and _spec.loader
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)


@pytest.mark.parametrize("game_id", henge.list_games())
def test_golden_playthrough_is_unchanged(game_id):
    path = regenerate.GOLDEN / f"{game_id}.json"
    assert path.exists(), f"no golden playthrough for {game_id}: run scripts/regenerate_golden.py {game_id}"
    stored = json.loads(path.read_text())
    now = json.loads(json.dumps(regenerate.golden(game_id), sort_keys=True))
    if now["record"]["version"] == stored["record"]["version"]:
        assert now == stored, (
            f"{game_id} plays differently from its golden playthrough at the same version: "
            "bump the game's version if the rules changed, then regenerate"
        )
    else:
        pytest.fail(f"{game_id} is version {now['record']['version']}; regenerate the golden playthrough")
