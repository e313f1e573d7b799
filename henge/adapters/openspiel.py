"""OpenSpiel adapter: every henge game as a ``pyspiel`` game named ``henge_<id>``.

    import pyspiel
    from henge.adapters import openspiel
    openspiel.register_all()
    game = pyspiel.load_game("henge_stonerush", {"players": 4})
    # or, with henge's own error messages: openspiel.load_game("stonerush", 4)

Parameters: ``players`` and each of the game's options (``variant`` ...).

What a seat sees, in OpenSpiel's terms:

* ``information_state_string(player)``: henge's digest of the seat's perfect-recall
  record (``State.information_state_string``): short, cached, and equal for two states
  exactly when the seat saw the same (ISMCTS keys its tree on it);
* ``observation_string(player)``: the JSON of ``State.observation(player)``;
* ``observation_tensor`` / ``information_state_tensor``: fixed-size float32 vectors from
  the game's encoder (the ``encoder`` module its descriptor names; the layouts are in
  ``docs/games/<id>.md``, section "Tensor encoding"). A game without an encoder offers
  strings only.

The adapter's state is a thin wrapper around a henge state. Python callers clone it with
henge's own ``State.clone()``; OpenSpiel's C++ clone deep-copies the wrapper's ``__dict__``,
which holds nothing but that henge state (whose deep copy is its clone). Serialization
pickles the henge state as its JSON (its history, replayed on loading), never its
record chain. ``resample_from_infostate`` takes OpenSpiel's sampler protocol: a callable
returning a float in [0, 1), called once for a seed.
"""

from __future__ import annotations

import json
import math
import numbers
import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel

import henge
from henge.core import Game, State, plugin

_PREFIX = "henge_"
_SEED_SCALE = 2**53


def _encoder(game_id: str) -> ModuleType | None:
    """Returns the game's tensor encoding module, or None if its descriptor names none."""
    return plugin(game_id).load_encoder()


def _game_type(game_class: type[Game], has_tensors: bool) -> Any:
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
        provides_information_state_string=True,
        provides_information_state_tensor=has_tensors,
        provides_observation_string=True,
        provides_observation_tensor=has_tensors,
        parameter_specification=parameters,
    )


class HengeOpenSpielGame(pyspiel.Game):
    """A henge game seen through OpenSpiel's Game interface."""

    game_id = ""
    """Set on the per-game subclass that register_all makes."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_id = self.game_id
        cls = henge.game_class(game_id)
        params = dict(params or {})
        players = int(params.pop("players", cls.info.min_players))
        self.henge_game = henge.load(game_id, players, **params)
        self.encoder = _encoder(game_id)
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
        super().__init__(_game_type(cls, self.encoder is not None), game_info, all_params)

    def new_initial_state(self) -> HengeOpenSpielState:
        """Returns the initial state."""
        return HengeOpenSpielState(self, self.henge_game.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> HengeObserver:
        """Returns an observer of one seat: strings, and tensors where the game has an encoder.

        ``perfect_recall`` picks the information state (else the observation); ``private_info``
        ``SINGLE_PLAYER`` is the seat's own view, ``NONE`` a spectator's (public information only).
        """
        if isinstance(iig_obs_type, Mapping):
            # OpenSpiel's C++ side asks for the default observer as make_py_observer(params).
            params, iig_obs_type = iig_obs_type, None
        if params:
            raise ValueError(f"{self.henge_game.info.id}: observers take no parameters; got {dict(params)}")
        perfect_recall = False
        private = True
        if iig_obs_type is not None:
            perfect_recall = bool(iig_obs_type.perfect_recall)
            kind = iig_obs_type.private_info
            if not iig_obs_type.public_info or kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError(
                    "henge observers show public information plus one seat's own (private_info SINGLE_PLAYER) "
                    "or public information only (private_info NONE)"
                )
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
        game = self.henge_game
        return HengeObserver(
            self.encoder, game.num_players, game.options, perfect_recall=perfect_recall, private=private
        )


class _Held:
    """The henge state inside an adapter state (the only entry of its ``__dict__``).

    A deep copy is henge's clone (the record is shared, never copied); a pickle is the
    state's JSON, replayed on loading (the record chain is too deep to pickle).
    """

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())

    def __reduce__(self) -> tuple[Callable[[str], _Held], tuple[str]]:
        return _held_from_json, (json.dumps(self.state.to_json()),)


@lru_cache(maxsize=64)
def _henge_game(game_id: str, players: int, options: str) -> Game:
    return henge.load(game_id, players, **json.loads(options))


def _held_from_json(text: str) -> _Held:
    data = json.loads(text)
    game = _henge_game(data["game"], data["players"], json.dumps(data["options"], sort_keys=True))
    return _Held(game.state_from_json(data))


def _seed(sampler: Any) -> random.Random:
    """Returns a generator seeded by one call of OpenSpiel's sampler protocol."""
    if sampler is None:
        return random.Random()
    if isinstance(sampler, random.Random):
        return sampler
    if not callable(sampler):
        raise TypeError(
            f"a resampler takes a callable returning a float in [0, 1) (pyspiel.UniformProbabilitySampler), "
            f"a random.Random or None, not {type(sampler).__name__}"
        )
    value = sampler()
    number = float(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else math.nan
    if not 0.0 <= number <= 1.0:
        raise ValueError(f"the sampler must return a float in [0, 1), not {value!r}")
    return random.Random(int(number * _SEED_SCALE))


class HengeOpenSpielState(pyspiel.State):
    """A henge state seen through OpenSpiel's State interface.

    ``history()`` and ``move_number()`` read the henge state's history, so a state cloned
    or resampled from Python (which OpenSpiel's C++ side cannot give a history) reports
    the same as one cloned by C++; a resample's history is the one henge's resampler
    built, a history the seat cannot tell from the real one.
    """

    def __init__(self, game: Any, state: State) -> None:
        super().__init__(game)
        self._held = _Held(state)

    @property
    def henge_state(self) -> State:
        """The henge state this adapter state wraps."""
        return self._held.state

    def current_player(self) -> int:
        return self._held.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._held.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._held.state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._held.state.game.action_text(int(action), chance=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        return self._held.state.returns()

    def clone(self) -> HengeOpenSpielState:
        """Returns a copy made by henge's own clone (no deep copy, the record shared)."""
        return HengeOpenSpielState(self.get_game(), self._held.state.clone())

    def __deepcopy__(self, memo: dict[int, Any]) -> HengeOpenSpielState:
        return self.clone()

    def history(self) -> list[int]:
        return self._held.state.history()

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self._held.state.history())

    def move_number(self) -> int:
        return self._held.state.move_number()

    def _seat(self, player: int | None) -> int:
        if player is None:
            player = self._held.state.current_player()
        if player < 0 or player >= self._held.state.game.num_players:
            raise ValueError(f"seats run 0..{self._held.state.game.num_players - 1}, not {player}")
        return int(player)

    def information_state_string(self, player: int | None = None) -> str:
        """Returns henge's digest of the seat's perfect-recall record (default: the seat to move)."""
        return self._held.state.information_state_string(self._seat(player))

    def observation_string(self, player: int | None = None) -> str:
        """Returns the JSON of the seat's observation (default: the seat to move)."""
        return json.dumps(self._held.state.observation(self._seat(player)), sort_keys=True)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> HengeOpenSpielState:
        """Returns a state with what ``player_id`` cannot see re-drawn by henge's resampler.

        ``probability_sampler`` follows OpenSpiel's protocol: a callable taking no argument and
        returning a float in [0, 1) (``pyspiel.UniformProbabilitySampler``), called once for a
        seed; a ``random.Random`` is used as it is; None draws a fresh seed.
        """
        sample = self._held.state.resample_from_infostate(self._seat(player_id), _seed(probability_sampler))
        return HengeOpenSpielState(self.get_game(), sample)

    def __str__(self) -> str:
        return json.dumps(self._held.state.to_json()["state"], sort_keys=True)


def _shape_size(shape: Sequence[int]) -> int:
    return math.prod(int(d) for d in shape)


class HengeObserver:
    """One seat's view for OpenSpiel: a string, and a float32 tensor when the game has an encoder.

    ``dict`` names the slices of ``tensor`` (views, no copies) as the encoder's layout lists them.
    """

    def __init__(
        self,
        encoder: ModuleType | None,
        players: int,
        options: Mapping[str, Any],
        *,
        perfect_recall: bool,
        private: bool = True,
    ) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        self.dict: dict[str, np.ndarray] = {}
        self._encode: Callable[[dict[str, Any]], Sequence[float] | np.ndarray] | None = None
        self.tensor: np.ndarray | None = None
        if encoder is None:
            return
        if perfect_recall:
            shape = encoder.INFORMATION_STATE_SHAPE(players, options)
            layout = getattr(encoder, "information_state_layout", None)
            self._encode = getattr(encoder, "information_state_array", encoder.information_state_tensor)
            name = "information_state"
        else:
            shape = encoder.OBSERVATION_SHAPE(players, options)
            layout = getattr(encoder, "observation_layout", None)
            self._encode = getattr(encoder, "observation_array", encoder.observation_tensor)
            name = "observation"
        self.tensor = np.zeros(_shape_size(shape), np.float32)
        pieces = layout(players, options) if layout is not None else ((name, tuple(shape)),)
        at = 0
        for piece, piece_shape in pieces:
            size = _shape_size(piece_shape)
            self.dict[piece] = self.tensor[at : at + size].reshape(piece_shape)
            at += size
        if at != self.tensor.size:
            raise ValueError(f"{encoder.__name__}: the layout's slices add up to {at}, the shape to {self.tensor.size}")

    def _seat(self, player: int) -> int | None:
        return int(player) if self.private else None

    def set_from(self, state: HengeOpenSpielState, player: int) -> None:
        """Writes the seat's tensor (nothing without an encoder): from the encoder's float32 array where it
        makes one, else from its list of floats."""
        if self._encode is None or self.tensor is None:
            return
        values = self._encode(state.henge_state.observation(self._seat(player)))
        if len(values) != self.tensor.size:
            raise ValueError(f"the encoder wrote {len(values)} values; its shape says {self.tensor.size}")
        self.tensor[:] = values

    def string_from(self, state: HengeOpenSpielState, player: int) -> str:
        """Returns the information state digest (perfect recall) or the observation's JSON."""
        henge_state = state.henge_state
        if self.perfect_recall:
            return henge_state.information_state_string(self._seat(player))
        return json.dumps(henge_state.observation(self._seat(player)), sort_keys=True)


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
        has_tensors = _encoder(game_id) is not None
        pyspiel.register_game(_game_type(henge.game_class(game_id), has_tensors), game_type)
    return names


def load_game(game_id: str, players: int | None = None, **options: Any) -> Any:
    """Returns ``pyspiel.load_game("henge_<game_id>", ...)``, registering the games first.

    Unlike OpenSpiel's own message (every game it knows), an unknown id names henge's games;
    a player count out of range names the game's range."""
    info = henge.game_class(game_id).info  # ValueError naming the installed games
    register_all()
    count = info.min_players if players is None else players
    return pyspiel.load_game(_PREFIX + game_id, {"players": count, **options})  # henge checks the count
