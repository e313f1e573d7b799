"""OpenSpiel's ISMCTS at a henge seat: the evaluation-only bot ``openspiel-ismcts``.

At every decision with a choice the bot takes one state consistent with
what its seat knows (``decision.sample_state()``; it never holds the real
state), wraps it as the OpenSpiel adapter's state
(:class:`henge.adapters.openspiel.HengeOpenSpielState`) and asks
``open_spiel.python.algorithms.ismcts.ISMCTSBot.step`` for the action.
Every simulation of the search re-draws that state's hidden parts through
the adapter's ``resample_from_infostate(seat, sampler)`` with a
``pyspiel.UniformProbabilitySampler``, so the search sees only samples of
the seat's information set. Leaves are valued by OpenSpiel's
``RandomRolloutEvaluator`` (uniformly random play to the end); the UCT
constant is 2, as in OpenSpiel's MCTS example.

**Equal processor time.** OpenSpiel's bot counts simulations
(``max_simulations``). ``TimedISMCTSBot`` (:func:`timed_bot_class`)
replaces only the loop of its ``run_search`` with one that also stops at a
processor-time deadline (selection, expansion, simulation, back-up and the
final policy stay OpenSpiel's own). A simulation is started only while the
processor clock is more than half a mean simulation short of the deadline,
so the time spent per decision is, on average, the budget (but at least
MIN_SIMULATIONS are run, which may take longer). The budget counts from the
moment ``choose`` is called, the sample and its wrapping included. As
henge's ``ismcts`` does, the search holds the cycle collector off.

By default the budget is the game's equal time (:func:`equal_seconds`): the
mean processor seconds of henge's ``ismcts``, with its default settings,
per decision with a choice, measured by ``python -m henge.bench_openspiel``.
Each game names its own in its search part (``OPENSPIEL_SECONDS``, player
count to seconds, read through :func:`henge.agents.heuristics.knowledge`), at
the nearest player count measured; :data:`DEFAULT_SECONDS` otherwise. Both
bots answer a decision with a single legal action at once, so their mean
seconds per decision match where they face like decisions; a tournament's
results file records both, per agent, to check it.

Settings (``openspiel-ismcts:seconds=0.2:c=1.4``): ``simulations``
(OpenSpiel's ``max_simulations``), ``seconds`` (processor seconds per
decision), ``c`` (the UCT constant), ``rollouts`` (random rollouts per
leaf). With neither ``simulations`` nor ``seconds`` the budget is the
game's equal time; ``simulations`` alone is a count without a clock, so
play depends only on the seeds (with a time budget it also depends on the
machine's speed); both stop at whichever comes first.

The bot's generators (numpy's ``RandomState`` for the search and the
rollouts, the sampler's seed) are drawn from ``decision.rng``, so a game
played by simulations is reproducible. OpenSpiel (``pip install
'henge[openspiel]'``) is imported only when a bot is made; without it,
making one raises :class:`MissingOpenSpiel`, a ``ValueError`` that says
what to install.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from henge.agents import heuristics
from henge.core import Decision

NAME = "openspiel-ismcts"
DEFAULT_EXPLORATION = 2.0
"""The UCT constant of OpenSpiel's MCTS example (``uct_c``)."""
MIN_SIMULATIONS = 2
"""The first simulation only opens the root; the second makes the first choice at it."""

DEFAULT_SECONDS = 0.25
"""The budget in a game that names no equal time for any player count."""


class MissingOpenSpiel(ValueError):
    """OpenSpiel's Python package (``pyspiel``) is not installed."""


@cache
def _openspiel() -> tuple[Any, Any, Any, Any]:
    """Returns (pyspiel, OpenSpiel's ismcts and mcts modules, henge's adapter); raises MissingOpenSpiel."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from henge.adapters import openspiel
    except ImportError as error:
        raise MissingOpenSpiel(
            f"{NAME} needs OpenSpiel's Python package (pyspiel), which is not installed "
            f"({error}): pip install 'henge[openspiel]'"
        ) from None
    return pyspiel, ismcts, mcts, openspiel


@cache
def timed_bot_class() -> type:
    """Returns :class:`TimedISMCTSBot` (made on first use, since OpenSpiel is imported only then)."""
    pyspiel, ismcts, _, _ = _openspiel()
    base: Any = ismcts.ISMCTSBot

    class TimedISMCTSBot(base):
        """OpenSpiel's ISMCTSBot whose search also stops at a processor-time deadline.

        Only ``run_search``'s loop is new: it runs until ``max_simulations``
        (None: no count) or until the processor clock, less half a mean
        simulation, passes ``deadline`` (None: no clock), and at least
        MIN_SIMULATIONS. The rest of ``run_search`` is OpenSpiel's, but for
        its check that the game has hidden information: a game without any
        is searched alike (every sample is the state itself).
        """

        deadline: float | None = None
        simulations_run = 0

        def run_search(self, state: Any) -> list[tuple[int, float]]:
            self.reset()
            if state.get_game().get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
                raise ValueError("ISMCTS searches sequential games only")
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            root_infostate_key = self.get_state_key(state)
            done = 0
            start = time.process_time()
            while self._max_simulations is None or done < max(self._max_simulations, MIN_SIMULATIONS):
                if self.deadline is not None and done >= MIN_SIMULATIONS:
                    now = time.process_time()
                    if now + (now - start) / done / 2 >= self.deadline:
                        break
                sampled_root_state = self.sample_root_state(state)
                if self.get_state_key(sampled_root_state) != root_infostate_key:
                    raise RuntimeError("a resampled root is not in the seat's information set")
                self.run_simulation(sampled_root_state)
                done += 1
            self.simulations_run = done
            if self._allow_inconsistent_action_sets:
                node = self.filter_illegals(self._root_node, legal_actions)
                return self.get_final_policy(state, node)
            return self.get_final_policy(state, self._root_node)

    return TimedISMCTSBot


@lru_cache(maxsize=32)
def _openspiel_game(game_id: str, players: int, options: str) -> Any:
    return _openspiel()[3].load_game(game_id, players, **json.loads(options))


def equal_seconds(game_id: str, players: int) -> float:
    """Returns the default budget: the game's own figure at the nearest player count measured (its search
    part's ``OPENSPIEL_SECONDS``), else DEFAULT_SECONDS."""
    measured: Mapping[int, float] = heuristics.knowledge(game_id).openspiel_seconds
    if not measured:
        return DEFAULT_SECONDS
    return measured[min(measured, key=lambda n: (abs(n - players), n))]


class OpenSpielISMCTSAgent:
    """OpenSpiel's ISMCTSBot playing one henge seat from samples of its information set (see the module)."""

    needs_samples = True

    def __init__(
        self,
        *,
        name: str = NAME,
        simulations: int | None = None,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollouts: int = 1,
    ) -> None:
        if simulations is not None and simulations < MIN_SIMULATIONS:
            raise ValueError(f"{NAME}: simulations must be at least {MIN_SIMULATIONS}, not {simulations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"{NAME}: seconds must be positive, not {seconds}")
        if exploration < 0:
            raise ValueError(f"{NAME}: c must not be negative, not {exploration}")
        if rollouts is None or rollouts < 1:
            raise ValueError(f"{NAME}: rollouts must be at least 1, not {rollouts}")
        _openspiel()  # MissingOpenSpiel now, not at the first decision
        self.name = name
        self.simulations = simulations
        self.seconds = seconds
        self.exploration = exploration
        self.rollouts = rollouts
        self.last_simulations = 0
        """Simulations run at the last decision searched."""

    def budget(self, game_id: str, players: int) -> tuple[int | None, float | None]:
        """Returns (simulations, seconds) for a decision of this game: the settings, else the equal time."""
        if self.simulations is None and self.seconds is None:
            return None, equal_seconds(game_id, players)
        return self.simulations, self.seconds

    def choose(self, decision: Decision) -> int:
        start = time.process_time()
        if len(decision.legal_actions) == 1:
            return decision.legal_actions[0]
        pyspiel, _, mcts, openspiel = _openspiel()
        import numpy as np

        random_state = np.random.RandomState(decision.rng.getrandbits(32))
        sampler = pyspiel.UniformProbabilitySampler(decision.rng.getrandbits(31), 0.0, 1.0)
        sample = decision.sample_state()
        henge_game = sample.game
        game = _openspiel_game(
            henge_game.info.id, henge_game.num_players, json.dumps(henge_game.options, sort_keys=True)
        )
        simulations, seconds = self.budget(henge_game.info.id, henge_game.num_players)
        bot = timed_bot_class()(
            game,
            mcts.RandomRolloutEvaluator(self.rollouts, random_state),
            self.exploration,
            simulations,
            random_state=random_state,
        )
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
        bot.deadline = None if seconds is None else start + seconds
        collecting = gc.isenabled()
        gc.disable()  # as henge's ismcts does while it searches: the search leaves no cycles behind
        try:
            action = int(bot.step(openspiel.HengeOpenSpielState(game, sample)))
        finally:
            if collecting:
                gc.enable()
        self.last_simulations = bot.simulations_run
        if action not in decision.legal_actions:
            raise RuntimeError(f"{NAME} chose {action}, not a legal action at seat {decision.seat}")
        return action
