"""Digests of what every game and bot does on seeded games, for checking that a change of
structure changes no behaviour: run it before and after, and compare the two outputs line by line.

    .venv/bin/python scripts/behaviour_digest.py [--quick] [GAME ...] > digest.txt

For each game and player count it prints one line per kind of digest:

* ``play``: whole seeded games between the rule-based player, the random player and the search
  (at a small budget), as records;
* ``views``: every seat's observation, information state and tensors (where the game has an
  encoder) at every step of a seeded random game, and the state's JSON;
* ``resample``: a resampled state per seat at every tenth step of that game (its JSON).

Equal lines mean equal behaviour for those games; the first differing line names what changed.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import henge
from henge.core import plugin
from henge.records import play


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _encoder(game_id: str) -> Any:
    return plugin(game_id).load_encoder()


def _views(game: henge.Game, seed: int) -> tuple[str, str]:
    record = play(game, ["random"] * game.num_players, seed=seed)
    encoder = _encoder(game.info.id)
    views = hashlib.sha256()
    resamples = hashlib.sha256()
    state = game.new_initial_state()
    for step, action in enumerate([*record["actions"], None]):
        views.update(_digest(state.to_json()).encode())
        for seat in range(game.num_players):
            observation = state.observation(seat)
            views.update(_digest(observation).encode())
            views.update(_digest(state.information_state(seat)).encode())
            if encoder is not None:
                views.update(_digest(list(encoder.observation_tensor(observation))).encode())
                views.update(_digest(list(encoder.information_state_tensor(observation))).encode())
            if step % 10 == 0 and not state.is_terminal() and not state.is_chance_node():
                sample = state.resample_from_infostate(seat, random.Random(seed * 1000 + step * 10 + seat))
                resamples.update(_digest(sample.to_json()).encode())
        if action is not None:
            state.apply_action(action)
    return views.hexdigest()[:16], resamples.hexdigest()[:16]


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    games = [a for a in argv if not a.startswith("--")] or henge.list_games()
    seeds = range(2) if quick else range(4)
    search = "ismcts:iterations=12:worlds=4" if quick else "ismcts:iterations=24:worlds=6"
    for game_id in games:
        info = henge.game_class(game_id).info
        for players in range(info.min_players, info.max_players + 1):
            game = henge.load(game_id, players)
            lineups = [
                ["heuristic"] * players,
                ["random"] * players,
                [search] + ["heuristic"] * (players - 1),
            ]
            for index, lineup in enumerate(lineups):
                records = [play(game, lineup, seed=seed) for seed in seeds]
                print(f"{game_id} {players}p play{index} {_digest(records)}", flush=True)
            for seed in seeds:
                views, resamples = _views(game, seed)
                print(f"{game_id} {players}p views seed={seed} {views}", flush=True)
                print(f"{game_id} {players}p resample seed={seed} {resamples}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
