"""OpenSpiel adapter: every henge game as a ``pyspiel`` game named ``henge_<id>``.

    import pyspiel
    from henge.adapters import openspiel
    openspiel.register_all()
    game = pyspiel.load_game("henge_stonerush", {"players": 4})

Parameters: ``players`` and each of the game's options (``variant`` ...).
Observations are the JSON of ``State.observation(player)``; the adapter's
state wraps a henge state and delegates every call to it.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import henge
from henge.engine import Game, State

_PREFIX = "henge_"


def _game_type(game_class: type[Game]) -> Any:
    info = game_class.info
    parameters: dict[str, Any] = {"players": info.min_players}
    for option in info.options:
        parameters[option.name] = option.default
    utility = pyspiel.GameType.Utility.GENERAL_SUM
    if info.utility_sum == 0.0:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    elif info.utility_sum is not None:
        utility = pyspiel.GameType.Utility.CONSTANT_SUM
    return pyspiel.GameType(
        short_name=_PREFIX + info.id,
        long_name=f"henge {info.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if info.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=parameters,
    )


class HengeOpenSpielGame(pyspiel.Game):
    """A henge game seen through OpenSpiel's Game interface."""

    game_id = ""
    """Set on the per-game subclass that register_all makes."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_id = self.game_id
        cls = henge.game_class(game_id)
        params = dict(params or {})
        players = int(params.pop("players", cls.info.min_players))
        self.henge_game = henge.load(game_id, players, **params)
        info = cls.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.henge_game.num_distinct_actions(),
            max_chance_outcomes=self.henge_game.max_chance_outcomes(),
            num_players=players,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            utility_sum=info.utility_sum if info.utility_sum is not None else None,
            max_game_length=self.henge_game.max_game_length(),
        )
        all_params = {"players": players, **self.henge_game.options}
        super().__init__(_game_type(cls), game_info, all_params)

    def new_initial_state(self) -> HengeOpenSpielState:
        """Returns the initial state."""
        return HengeOpenSpielState(self, self.henge_game.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """Returns an observer giving each seat's observation as JSON."""
        return _Observer()


class HengeOpenSpielState(pyspiel.State):
    """A henge state seen through OpenSpiel's State interface."""

    def __init__(self, game: HengeOpenSpielGame, state: State) -> None:
        super().__init__(game)
        self.henge_state = state

    def current_player(self) -> int:
        return self.henge_state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.henge_state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.henge_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.henge_state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.henge_state.game.action_text(int(action), chance=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return self.henge_state.is_terminal()

    def returns(self) -> list[float]:
        return self.henge_state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HengeOpenSpielState:
        """Returns a state with what ``player_id`` cannot see re-drawn (uses henge's resampler)."""
        import random

        seed = int(
            probability_sampler([(i, 1.0 / 2**20) for i in range(2**20)]) if callable(probability_sampler) else 0
        )
        sample = self.henge_state.resample_from_infostate(player_id, random.Random(seed))
        return HengeOpenSpielState(self.get_game(), sample)

    def __str__(self) -> str:
        return json.dumps(self.henge_state.to_json()["state"], sort_keys=True)


class _Observer:
    """Observation strings: the JSON of a seat's observation (no tensor)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: HengeOpenSpielState, player: int) -> None:
        """Nothing to set: there is no tensor."""

    def string_from(self, state: HengeOpenSpielState, player: int) -> str:
        """Returns the seat's observation as JSON."""
        return json.dumps(state.henge_state.observation(player), sort_keys=True)


def register_all() -> list[str]:
    """Registers every henge game with pyspiel (idempotent); returns the OpenSpiel names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game_id in henge.list_games():
        name = _PREFIX + game_id
        names.append(name)
        if name in registered:
            continue
        # pyspiel needs a class here: a plain function as factory crashes the interpreter at exit.
        class_name = f"HengeOpenSpielGame_{game_id}"
        game_type = type(class_name, (HengeOpenSpielGame,), {"game_id": game_id, "__module__": __name__})
        globals()[class_name] = game_type
        pyspiel.register_game(_game_type(henge.game_class(game_id)), game_type)
    return names
