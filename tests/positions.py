"""Games walked at random, for the generic suites; each game's own position builders are beside its tests
(``tests/games/<id>/<id>_positions.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import henge
from henge.core import CHANCE, Game, State, sample_chance


def random_game(game: Game, rng: random.Random) -> list[State]:
    """Returns every state of one random game (a henge game, or an OpenSpiel one: the same calls), from
    the first to the last: chance outcomes drawn by their weights, legal actions uniformly."""
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def random_walk(game_id: str, players: int, seed: int) -> Iterator[State]:
    """Yields the state of a seeded random game at every step, the same object moved on after each
    (the last time over): every action, chance outcomes included, drawn uniformly."""
    rng = random.Random(seed)
    state = henge.load(game_id, players).new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        legal = state.legal_actions()  # at a chance node, the outcomes
        state.apply_action(legal[rng.randrange(len(legal))])


def random_move(state: State, rng: random.Random) -> None:
    """Applies one action drawn uniformly with ``rng``: a chance outcome at a chance node, else a legal action."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])


def decision_points(game_id: str, players: int, seed: int, every: int, most: int | None = None) -> list[State]:
    """Returns copies of the state at every ``every``-th decision with a choice of a seeded random game
    (``most`` at most): chance drawn by its weights, decisions uniformly, one draw each."""
    state = henge.load(game_id, players).new_initial_state()
    rng = random.Random(seed)
    points: list[State] = []
    count = 0
    while not state.is_terminal() and (most is None or len(points) < most):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            if count % every == 0:
                points.append(state.clone())
            count += 1
        state.apply_action(legal[int(rng.random() * len(legal))])
    return points
