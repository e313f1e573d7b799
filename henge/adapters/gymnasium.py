"""Gymnasium adapter: one learning seat against henge's bots, for every game with a tensor encoding.

    import gymnasium
    import henge.adapters.gymnasium  # registers the ids below

    env = gymnasium.make("henge/Stonerush-v0", players=4, seat=2, opponents="heuristic")
    observation, info = env.reset(seed=7)
    while True:
        action = policy(observation, info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

Ids: ``henge/<Name>-v0``, the game id in CamelCase (``henge/Stonerush-v0``,
``henge/Fightin-v0``, ``henge/DruidOlympics-v0``, ``henge/FirstDruid-v0``,
``henge/SpellCasting-v0``, and one for every other installed game with an encoder;
:func:`env_id`). Keyword arguments: ``players`` (default: the game's fewest), ``seat`` (the
learner's, default 0), ``opponents`` (one bot name for every other seat, or one name per
other seat in seat order, default ``"random"``; a name is anything ``henge.agents.make_agent``
builds, settings included: ``"ismcts:iterations=200"``; an object with ``choose(decision)``
is played as it is) and ``options`` (the game's options, e.g. ``{"variant": "bluestones"}``).

* The observation is the learner's information state tensor (float32, unbounded Box; see
  :mod:`henge.adapters.views`), read from ``State.observation(seat)`` alone. The action space
  is ``Discrete(num_distinct_actions)``; ``info["action_mask"]`` (int8, 1 for each legal
  action) comes with every reset and step (all 0 once the episode is over).
* The other seats are played by the bots as in a tournament: each is handed only a
  ``Decision`` of its own seat (its observation, its legal actions, its own generator and a
  sampler of states consistent with its view), never the state. Chance events and the bots'
  turns are played inside ``reset`` and ``step`` until the learner is to move or the game is
  over. Bots named by a string are made anew at every reset.
* Reward: 0 until the end, then the learner's ``State.returns()`` (G4: 1 split among the
  winners); ``info["returns"]`` then holds every seat's. ``truncated`` is always False:
  every game ends within its round cap.
* Seeding: ``reset(seed=s)`` plays the game ``henge.records.play`` plays with seed ``s``
  (chance and each bot's generator drawn from it) when the learner chooses what that
  seat's agent would; ``reset()`` without a seed draws the next game's seed from the
  environment's ``np_random``, so a seeded reset followed by unseeded ones is reproducible.
* An illegal action (an integer id that is not legal now, out of range included) never
  touches the game: the episode ends (``terminated``), the reward is the game's lowest
  return (``GameInfo.min_utility``) and ``info["illegal_action"]`` is True, as PettingZoo's
  classic games end an episode on an illegal move. Anything but an integer raises ValueError.
* ``render_mode="ansi"``: ``render()`` returns the game's terminal drawing as plain text, as
  the learner's seat sees it.
* A game that ends before the learner's first decision (no rule set of the anthology does)
  comes back from ``reset`` with an all-0 mask; the first step then ends the episode with
  the learner's return, whatever the action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import henge
from henge.adapters.views import SeatView, as_action, check_render_mode, load_game
from henge.agents import Agent, check_agent, is_cheating, make_agent
from henge.core import Chooser, State, advance, agent_rng, chance_rng, plugin
from henge.records import chooser

SEED_BITS = 62
"""The width of a game seed drawn for ``reset()`` without one."""
NAMESPACE = "henge"


def env_id(game_id: str) -> str:
    """Returns the Gymnasium id of a game: ``henge/<GameIdInCamelCase>-v0``."""
    return f"{NAMESPACE}/{''.join(part.capitalize() for part in game_id.split('_'))}-v0"


def _opponent_specs(opponents: Any, game_id: str, count: int) -> list[Any]:
    """Returns one bot spec or agent per other seat; raises ValueError naming what is allowed."""
    if isinstance(opponents, str):
        specs: list[Any] = [opponents] * count
    elif isinstance(opponents, Sequence):
        specs = list(opponents)
        if len(specs) != count:
            raise ValueError(f"{game_id} with {count + 1} players needs {count} opponents, not {len(specs)}")
    else:
        raise ValueError(f"opponents is a bot name or a list of {count} (one per other seat), not {opponents!r}")
    for spec in specs:
        if isinstance(spec, str):
            check_agent(spec, game_id)
        elif not callable(getattr(spec, "choose", None)) or is_cheating(spec):
            raise ValueError(f"an opponent is a bot name or a fair agent with choose(decision), not {spec!r}")
    return specs


class HengeEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a henge game, the others played by bots (see the module docstring)."""

    # Gymnasium declares metadata an attribute of the instance, and reads it from the class in make().
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str | Agent] = "random",
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode)
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise ValueError(f"options is a dict of the game's options, not {options!r}")
        self.game = load_game(game_id, players, options)
        count = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
            raise ValueError(f"seat must be 0..{count - 1} for {count} players, not {seat!r}")
        self.seat = seat
        self._specs = _opponent_specs(opponents, self.game.info.id, count - 1)
        self.view = SeatView(self.game)
        self.render_mode = render_mode
        self.observation_space = self.view.observation_space()
        self.action_space = spaces.Discrete(self.view.actions)
        self.game_seed: int | None = None
        """The seed of the game in progress (``henge.records.play`` plays the same game with it)."""
        self._state: State | None = None
        self._bots: dict[int, Chooser] = {}
        self._chance = random.Random()
        self._over = False

    @property
    def henge_state(self) -> State:
        """The henge state being played (the whole truth: for tests and analysis, never for a policy)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a game and plays chance and the bots up to the learner's first decision."""
        if options:
            raise ValueError(f"reset takes no options (the game's are set when the env is made), not {options!r}")
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**SEED_BITS))
        self.game_seed = game_seed
        self._chance = chance_rng(game_seed)
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self._bots = {
            s: chooser(make_agent(spec) if isinstance(spec, str) else spec, agent_rng(game_seed, s))
            for s, spec in zip(others, self._specs, strict=True)
        }
        self._state = self.game.new_initial_state()
        self._over = False
        self._advance()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Applies the learner's action, then chance and the bots until the learner's next decision."""
        state = self.henge_state
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        chosen = as_action(action)
        info: dict[str, Any]
        if state.is_terminal():
            info = self._info()
        elif chosen not in state.legal_actions():
            self._over = True
            return self._observation(), float(self.game.info.min_utility), True, False, self._info(illegal=True)
        else:
            state.apply_action(chosen)
            self._advance()
            info = self._info()
        if not state.is_terminal():
            return self._observation(), 0.0, False, False, info
        self._over = True
        return self._observation(), float(state.returns()[self.seat]), True, False, info

    def _advance(self) -> None:
        """Plays chance events and the bots' decisions until the learner is to move or the game is over."""
        advance(self.henge_state, self._chance, self._bots)

    def _observation(self) -> np.ndarray:
        return self.view.tensor(self.henge_state, self.seat)

    def _info(self, *, illegal: bool = False) -> dict[str, Any]:
        state = self.henge_state
        live = not (self._over or state.is_terminal())
        info: dict[str, Any] = {"action_mask": self.view.mask(state, self.seat if live else None)}
        if illegal:
            info["illegal_action"] = True
        if state.is_terminal():
            info["returns"] = state.returns()
        return info

    def render(self) -> str | None:
        """Returns the drawing of what the learner's seat sees (``ansi``), or None without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; make the env with render_mode='ansi'")
            return None
        return self.view.drawing(self.henge_state, self.seat)


def register_all() -> list[str]:
    """Registers every installed game with a tensor encoding under :func:`env_id` (idempotent); returns the ids."""
    ids = []
    for game_id in henge.list_games():
        if plugin(game_id).encoder is None:
            continue
        name = env_id(game_id)
        ids.append(name)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=f"{__name__}:HengeEnv", kwargs={"game_id": game_id})
    return ids


register_all()
