"""Regenerates the golden playthroughs in tests/golden/: one seeded random game per game.

A changed golden file means a behaviour change: review the diff, and bump the
game's version in its GameInfo if the rules' behaviour changed.

    .venv/bin/python scripts/regenerate_golden.py [GAME ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import henge

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
SEED = 20261121


def golden(game_id: str) -> dict[str, object]:
    """Returns the golden playthrough of a game: its record and its final state."""
    info = henge.game_class(game_id).info
    game = henge.load(game_id, info.min_players)
    record = henge.play(game, ["random"] * game.num_players, seed=SEED)
    final = henge.replay(record)[-1]
    return {"record": record, "final_state": final.to_json()["state"], "final_observation": final.observation(None)}


def main(game_ids: list[str]) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game_id in game_ids or henge.list_games():
        path = GOLDEN / f"{game_id}.json"
        path.write_text(json.dumps(golden(game_id), indent=1, sort_keys=True) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
