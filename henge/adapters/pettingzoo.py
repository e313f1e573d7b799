"""PettingZoo adapter: every henge game with a tensor encoding as a PettingZoo AEC environment.

    from henge.adapters import pettingzoo
    env = pettingzoo.env("stonerush", players=4, variant="bluestones")
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(observation)
        env.step(action)

As PettingZoo's classic games are: ``env(...)`` is ``raw_env(...)`` inside PettingZoo's
``OrderEnforcingWrapper`` (an error for stepping before ``reset``), and the agents are
``player_0`` .. ``player_<n-1>``, one per seat.

* Observations: ``{"observation": float32 array, "action_mask": int8 array}``, each agent's
  own view: its information state tensor (:mod:`henge.adapters.views`) read from
  ``State.observation(seat)`` alone, and a mask of its legal actions (all 0 for an agent
  that is not to move or whose game is over).
* Chance (deals, draws, cards turned) is never an agent: ``step`` samples every chance event that
  follows an action, and ``reset`` the set-up's, from a generator of the game's seed. A
  seed plays the game ``henge.records.play`` plays with that seed when the agents choose
  the same actions; ``reset()`` without a seed draws the next game's seed from the last
  seed given (or from the system at first).
* Rewards: 0 until the game is over, then each seat's ``State.returns()`` (G4's shared
  win: 1 split among the winners), given once; every agent is then terminated and must be
  stepped with ``None``, as PettingZoo's dead-agent protocol asks. No agent is truncated:
  every game ends within its round cap. (A game over before its first decision, which no
  rule set of the anthology is, gives its returns at ``reset``.)
* An illegal action (an integer id that is not legal for the agent to move, out of range
  included) never touches the game: the episode ends at once, the agent that sent it gets
  the game's lowest return (``GameInfo.min_utility``), every other agent 0, and the
  offender's info has ``illegal_action: True`` (PettingZoo's classic games end an episode
  on an illegal move in the same way). Anything but an integer raises ValueError.
* ``render_mode="ansi"``: ``render()`` returns the game's terminal drawing as plain text,
  as the agent to move sees it (a spectator's once the game is over).
* ``reset(options=...)`` is accepted and ignored (PettingZoo's own check passes an
  arbitrary dict); the game's options are fixed when the environment is made.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from henge.adapters.views import SeatView, as_action, check_render_mode, load_game
from henge.core import State, advance, chance_rng

SEED_BITS = 62
"""The width of a game seed drawn for ``reset()`` without one."""


def agent_name(seat: int) -> str:
    """Returns the PettingZoo name of a seat's agent."""
    return f"player_{seat}"


class HengeAECEnv(AECEnv):
    """One henge game as a PettingZoo AEC environment (see the module docstring)."""

    # PettingZoo declares metadata an attribute of the instance: each environment names its game.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi"],
        "name": "henge",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, game_id: str, players: int | None = None, render_mode: str | None = None, **options: Any):
        super().__init__()
        check_render_mode(render_mode)
        self.game = load_game(game_id, players, options)
        self.view = SeatView(self.game)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"henge_{self.game.info.id}_v0"}
        count = self.game.num_players
        self.possible_agents = [agent_name(seat) for seat in range(count)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict({"observation": self.view.observation_space(), "action_mask": self.view.mask_space()})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.view.actions) for agent in self.possible_agents}
        self._seeds = random.Random(secrets.randbits(SEED_BITS))
        self._chance = random.Random()
        self.game_seed: int | None = None
        """The seed of the game in progress (``henge.records.play`` plays the same game with it)."""
        self._state: State | None = None

    @property
    def henge_state(self) -> State:
        """The henge state being played (the whole truth: for tests and analysis, never for an agent)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Returns the agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Returns the agent's action space: one id per action of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a game: chance sampled from ``seed`` (or the next seed drawn), up to the first decision."""
        if seed is not None:
            game_seed = int(seed)
            self._seeds = random.Random(game_seed)
        else:
            game_seed = self._seeds.getrandbits(SEED_BITS)
        self.game_seed = game_seed
        self._chance = chance_rng(game_seed)
        self._state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._advance()
        if self._state.is_terminal():  # over before any decision (no rule set of the anthology is)
            self.agent_selection = self.agents[0]
            self._give_returns()
            self._accumulate_rewards()
        else:
            self.agent_selection = agent_name(self._state.current_player())

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Returns the agent's own view: its information state tensor and its action mask."""
        state = self.henge_state
        seat = self._seat[agent]
        alive = agent in self.terminations and not self.terminations[agent]
        return {
            "observation": self.view.tensor(state, seat),
            "action_mask": self.view.mask(state, seat if alive else None),
        }

    def step(self, action: Any) -> None:
        """Applies the agent's action and every chance event after it; ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: send an action id; None is only for a finished agent")
        chosen = as_action(action)
        state = self.henge_state
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if chosen not in state.legal_actions():
            self._end_illegal(agent)
        else:
            state.apply_action(chosen)
            self._advance()
            if state.is_terminal():
                self._give_returns()
            else:
                self.agent_selection = agent_name(state.current_player())
        self._accumulate_rewards()

    def _give_returns(self) -> None:
        """Rewards every agent with its seat's return and terminates them all (the game is over)."""
        for seat, value in enumerate(self.henge_state.returns()):
            self.rewards[agent_name(seat)] = float(value)
        self.terminations = dict.fromkeys(self.agents, True)

    def _end_illegal(self, agent: str) -> None:
        """Ends the episode on an illegal action; the game itself is not touched."""
        self.rewards[agent] = float(self.game.info.min_utility)
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {**self.infos[agent], "illegal_action": True}

    def _advance(self) -> None:
        """Samples chance events until a seat is to move or the game is over."""
        advance(self.henge_state, self._chance, {})

    def render(self) -> str | None:
        """Returns the drawing of what the agent to move sees (``ansi``); warns and returns None without a mode."""
        if self.render_mode is None:
            logger.warn("render() was called without a render_mode; make the env with render_mode='ansi'")
            return None
        state = self.henge_state
        seat = state.current_player()
        return self.view.drawing(state, seat if seat >= 0 else None)

    def close(self) -> None:
        """Holds nothing to release."""


def raw_env(game_id: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> HengeAECEnv:
    """Returns the environment without PettingZoo's wrapper."""
    return HengeAECEnv(game_id, players, render_mode, **options)


def env(game_id: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> AECEnv:
    """Returns the game ``game_id`` for ``players`` seats (default: its fewest) with its options, as
    PettingZoo's classic games come: in ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(raw_env(game_id, players, render_mode, **options))
