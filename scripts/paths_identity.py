"""Digests of what every game does, for comparing the compiled path with the pure-Python path.

Run it twice, once as installed (compiled) and once with ``HENGE_PURE=1``, and compare the two outputs
line by line; equal lines mean the two paths behaved identically on those games::

    .venv/bin/python scripts/paths_identity.py > compiled.txt
    HENGE_PURE=1 .venv/bin/python scripts/paths_identity.py > pure.txt
    diff compiled.txt pure.txt

For each game and player count it prints:

* ``views``: the first ``--steps`` steps of ``--view-games`` seeded random games: at every step the
  legal actions and their texts (or the chance outcomes), every seat's and a spectator's observation,
  information state and its string, the encoder's tensors, the state's JSON; every tenth step a
  resampled state per seat;
* ``random``: the actions and returns of ``--games`` whole random games (:func:`henge.core.playouts`);
* ``rule``: the same of ``--rule-games`` games of the rule-based player at every seat.

The first line says which path ran. ``--games 2000`` is the benchmark-sized check; the suite runs a
small one (tests/test_compiled.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

import henge
from henge.core import engine_path, playouts, plugin


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _views(game: henge.Game, seed: int, steps: int) -> str:
    """Returns the digest of every view of the first ``steps`` steps of a seeded random game."""
    encoder = plugin(game.info.id).load_encoder()
    rng = random.Random(seed)
    views = hashlib.sha256()
    state = game.new_initial_state()
    seats: list[int | None] = [*range(game.num_players), None]
    for step in range(steps + 1):
        views.update(_digest(state.to_json()).encode())
        views.update(_digest([state.current_player(), state.legal_actions(), state.legal_action_texts()]).encode())
        views.update(_digest(state.chance_outcomes()).encode())
        for seat in seats:
            observation = state.observation(seat)
            views.update(_digest(observation).encode())
            views.update(_digest([state.information_state(seat), state.information_state_string(seat)]).encode())
            if encoder is not None and seat is not None:
                views.update(_digest(list(encoder.observation_tensor(observation))).encode())
                views.update(_digest(list(encoder.information_state_tensor(observation))).encode())
            if seat is not None and step % 10 == 0 and state.current_player() >= 0:
                sample = state.resample_from_infostate(seat, random.Random(seed * 1000 + step * 10 + seat))
                views.update(_digest(sample.to_json()).encode())
        if state.is_terminal() or step == steps:
            views.update(_digest(state.returns()).encode())
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    return views.hexdigest()[:16]


def _games(game: henge.Game, count: int, players: str) -> str:
    played = playouts(game, count, seed=0, players=players, records=True)
    return _digest([(p.record.actions if p.record else None, p.returns, p.length, p.decisions) for p in played])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game_ids", nargs="*", metavar="GAME", help="the games (default: all)")
    parser.add_argument("--steps", type=int, default=300, help="steps of each views game [300]")
    parser.add_argument("--view-games", type=int, default=1, help="views games per game and count [1]")
    parser.add_argument("--games", type=int, default=10, help="random games per game and count [10]")
    parser.add_argument("--rule-games", type=int, default=2, help="rule-based games per game and count [2]")
    args = parser.parse_args(argv)
    print(f"engine: {engine_path().split(' (')[0]}", flush=True)
    for game_id in args.game_ids or henge.list_games():
        info = henge.game_class(game_id).info
        for players in range(info.min_players, info.max_players + 1):
            game = henge.load(game_id, players)
            for seed in range(args.view_games):
                print(f"{game_id} {players}p views seed={seed} {_views(game, seed, args.steps)}", flush=True)
            print(f"{game_id} {players}p random games={args.games} {_games(game, args.games, 'random')}", flush=True)
            if args.rule_games:
                digest = _games(game, args.rule_games, "rule")
                print(f"{game_id} {players}p rule games={args.rule_games} {digest}", flush=True)


if __name__ == "__main__":
    main()
