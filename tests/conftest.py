"""Shared fixtures: every registered game at every player count and variant."""

from __future__ import annotations

import itertools

import henge


def game_configs() -> list[tuple[str, int, dict[str, object]]]:
    """Returns (game id, players, options) for every game, player count and variant."""
    configs = []
    for game_id in henge.list_games():
        info = henge.game_class(game_id).info
        option_values = [[(o.name, v) for v in o.values] for o in info.options if o.name == "variant"]
        for players in range(info.min_players, info.max_players + 1):
            for combo in itertools.product(*option_values):
                configs.append((game_id, players, dict(combo)))
    return configs


def config_id(config: tuple[str, int, dict[str, object]]) -> str:
    game_id, players, options = config
    return "-".join([game_id, f"{players}p", *(str(v) for v in options.values())])
