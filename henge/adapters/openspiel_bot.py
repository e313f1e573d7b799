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

By default the budget is the game's entry in :data:`EQUAL_SECONDS`: the
mean processor seconds of henge's ``ismcts``, with its default settings,
per decision with a choice, measured by ``python -m
henge.adapters.openspiel_bot`` (:func:`main`). Both bots answer a decision
with a single legal action at once, so their mean seconds per decision
match where they face like decisions; a tournament's results file records
both, per agent, to check it.

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

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from henge.core import Decision

NAME = "openspiel-ismcts"
DEFAULT_EXPLORATION = 2.0
"""The UCT constant of OpenSpiel's MCTS example (``uct_c``)."""
MIN_SIMULATIONS = 2
"""The first simulation only opens the root; the second makes the first choice at it."""

EQUAL_SECONDS: dict[tuple[str, int], float] = {
    ("stonerush", 3): 0.041,
    ("stonerush", 4): 0.053,
    ("stonerush", 5): 0.078,
    ("fightin", 2): 0.140,
    ("druid_olympics", 3): 0.115,
    ("druid_olympics", 4): 0.145,
    ("druid_olympics", 5): 0.171,
    ("first_druid", 3): 0.138,
    ("first_druid", 4): 0.150,
    ("first_druid", 5): 0.199,
    ("spell_casting", 3): 0.063,
    ("spell_casting", 4): 0.110,
}
"""Processor seconds per decision with a choice of henge's ``ismcts`` at its default settings, per game and
player count: the default budget. Made by ``python -m henge.adapters.openspiel_bot --bots ismcts --decisions 200
--games 4 [--players N]`` (see :func:`main`), over about 200 decisions each; measure again when ``ismcts`` changes."""
DEFAULT_SECONDS = 0.25
"""The budget in a game and player count without an entry above: that of its nearest player count, else this."""


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
    """Returns the default budget: the game's entry in EQUAL_SECONDS at the nearest player count measured."""
    counts = [n for g, n in EQUAL_SECONDS if g == game_id]
    if not counts:
        return DEFAULT_SECONDS
    return EQUAL_SECONDS[game_id, min(counts, key=lambda n: (abs(n - players), n))]


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


# --- equal time: the measurement behind EQUAL_SECONDS ---------------------------------------------


def decision_seconds(
    spec: str, game_id: str, players: int, *, decisions: int = 20, games: int = 1, seed: int = 0
) -> list[float]:
    """Returns the processor seconds of ``spec``'s decisions with a choice, at least ``decisions`` of them.

    The positions come from ``games`` games (seeds ``seed``, ``seed + 1`` ...) played by the rule-based
    player at every seat (random where the game has none): turns spread over whole games, taken in a seeded
    random order, each played out by a fresh ``spec`` bot (so a search that keeps its tree between the steps
    of a turn does so), until enough decisions are timed or no turn is left. As in a tournament, the time is
    that of ``choose``, the seat's samples included. The same arguments give the same positions to every bot.
    """
    import henge
    from henge.agents import heuristics, make_agent, make_decision
    from henge.records import play, sample_chance

    game = henge.load(game_id, players)
    starts: list[Any] = []
    last_seat = [-1]

    def keep(state: Any, action: int, text: str) -> None:
        seat = state.current_player()
        if seat >= 0 and seat != last_seat[0]:
            starts.append(state.clone())
        if seat >= 0:
            last_seat[0] = seat

    guide = "heuristic" if heuristics.has_heuristic(game_id) else "random"
    for number in range(games):
        last_seat[0] = -1
        play(game, [guide] * players, seed=seed + number, on_action=keep)
    order = list(range(len(starts)))
    random.Random(seed).shuffle(order)
    times: list[float] = []
    for index in order:
        if len(times) >= decisions:
            break
        state = starts[index].clone()
        seat = state.current_player()
        agent = make_agent(spec, evaluation=True)
        rng = random.Random(f"{seed}/{index}")
        while not state.is_terminal() and state.current_player() in (seat, -1):
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            decision = make_decision(state, seat, rng, samples=agent.needs_samples)
            cpu = time.process_time()
            action = agent.choose(decision)
            spent = time.process_time() - cpu
            if len(decision.legal_actions) > 1:
                times.append(spent)
            state.apply_action(action)
    return times


def main(argv: Sequence[str] | None = None) -> None:
    """Prints, per game, the mean processor seconds per decision with a choice of each bot named.

    ``python -m henge.adapters.openspiel_bot`` measures henge's ``ismcts`` (its mean is the game's
    EQUAL_SECONDS entry) and ``openspiel-ismcts`` at its default, equal-time budget, on the same positions.
    """
    import henge

    parser = argparse.ArgumentParser(prog="python -m henge.adapters.openspiel_bot", description=main.__doc__)
    parser.add_argument("game_ids", nargs="*", metavar="GAME", help="game ids (default: every game)")
    parser.add_argument("--players", type=int, help="player count (default: each game's least)")
    parser.add_argument("--bots", default=f"ismcts,{NAME}", help="bots to time, comma-separated")
    parser.add_argument("--decisions", type=int, default=20, help="decisions with a choice per bot and game")
    parser.add_argument("--games", type=int, default=1, help="games whose turns are the positions timed")
    parser.add_argument("--seed", type=int, default=0, help="the first of those games' seeds")
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    print("| game | players | bot | decisions | cpu s/decision (mean) | median | max |")
    print("|---|---|---|---|---|---|---|")
    for game_id in args.game_ids or henge.list_games():
        players = args.players or henge.game_class(game_id).info.min_players
        for bot in bots:
            times = decision_seconds(bot, game_id, players, decisions=args.decisions, games=args.games, seed=args.seed)
            print(
                f"| {game_id} | {players} | {bot} | {len(times)} | {statistics.fmean(times):.4f} "
                f"| {statistics.median(times):.4f} | {max(times):.4f} |"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
