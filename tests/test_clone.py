"""clone() costs the same at any move number, and a clone and its original stay independent.

A state keeps its history as frozen blocks shared by its clones plus a short list of the
actions since the last block, and its record (G6) as an append-only chain shared the same
way; so a clone copies no more at move 3,000 than at move 50. These tests hold every game
to that without timing anything: what a clone shares and how much memory it takes, and
that diverging clones each replay, from the start, to exactly their own state, record
and legal actions.
"""

from __future__ import annotations

import gc
import pickle
import random
import tracemalloc

import pytest
from conftest import config_id, game_configs

import henge
from henge.core import State
from henge.core.history import HISTORY_BLOCK

CONFIGS = game_configs()


def _step(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, weights)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _random_states(game: henge.Game, rng: random.Random) -> list[State]:
    """Returns every state of one random game, from the first to the last."""
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        _step(state, rng)
        states.append(state.clone())
    return states


def _clone_bytes(state: State) -> int:
    """Returns the bytes a clone of ``state`` allocates (deterministic, unlike its time)."""
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        copy = state.clone()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del copy
    return after - before


def _assert_replays(state: State) -> None:
    """``state`` is exactly what its history reaches from the start: fields, record, options."""
    again = state.game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.history() == state.history()
    assert again.move_number() == state.move_number() == len(state.history())
    assert again.to_json() == state.to_json()
    for seat in [*range(state.game.num_players), None]:
        assert again.information_state(seat) == state.information_state(seat)
        assert again.information_state_string(seat) == state.information_state_string(seat)
        assert again.observation(seat) == state.observation(seat)
    assert again.legal_actions() == state.legal_actions()
    assert again.chance_outcomes() == state.chance_outcomes()


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_clone_shares_the_history_and_the_record_and_copies_no_more_late_than_early(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    states = _random_states(game, random.Random(f"clone-{config_id(config)}"))
    early = states[min(50, len(states) - 1)]
    for state in (early, states[len(states) // 2], states[-1]):
        copy = state.clone()
        assert copy._past is state._past, "the frozen blocks of the history are shared, not copied"
        assert copy._log is state._log, "the record is shared, not copied"
        assert len(copy._recent) < HISTORY_BLOCK and copy._recent == state._recent
        assert copy._recent is not state._recent
        assert copy.history() == state.history()
    # What a clone allocates does not grow with the history (a copied history of n actions
    # would add 8 bytes per action).
    late = states[-1]
    allowed = _clone_bytes(early) + 2048
    assert _clone_bytes(late) <= allowed, f"a clone at move {late.move_number()} allocates more than at move 50"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_diverging_clones_each_replay_to_their_own_state_and_record(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    rng = random.Random(f"diverge-{config_id(config)}")
    states = _random_states(game, rng)
    # Fork where the next action fills a block of the history, and at a random move.
    boundary = [s for s in states if len(s._recent) == HISTORY_BLOCK - 1 and not s.is_terminal()]
    forks = [s for s in (boundary[len(boundary) // 2] if boundary else None, rng.choice(states[:-1])) if s]
    for fork in forks:
        original = fork.clone()
        prefix = original.history()
        before = [original.information_state(seat) for seat in [*range(players), None]]
        copy = original.clone()
        options_now = original.legal_actions()
        first, second = options_now[0], options_now[-1]  # two different actions where there are two
        original.apply_action(first)
        copy.apply_action(second)
        # Play both on, alternately, past the next block or two of the history.
        for _ in range(2 * HISTORY_BLOCK + 3):
            for state in (original, copy):
                if not state.is_terminal():
                    _step(state, rng)
        assert original.history()[: len(prefix) + 1] == [*prefix, first]
        assert copy.history()[: len(prefix) + 1] == [*prefix, second]
        for state in (original, copy):
            _assert_replays(state)
        # The fork itself is untouched by either.
        assert fork.history() == prefix
        assert [fork.information_state(seat) for seat in [*range(players), None]] == before


@pytest.mark.parametrize("game_id", ["spell_casting", "stonerush"])
def test_a_long_history_survives_pickling_json_and_loading(game_id):
    game = henge.load(game_id, 3)
    states = _random_states(game, random.Random(7))
    last = states[-1]
    assert last.move_number() > 3 * HISTORY_BLOCK
    again = pickle.loads(pickle.dumps(last))
    assert again.history() == last.history()
    assert again.move_number() == last.move_number()
    loaded = game.state_from_json(last.to_json())
    assert loaded.history() == last.history()
    assert loaded._history == tuple(last.history())  # the read-only view plugins use
    copy = loaded.clone()
    copy._history = last.history()[:100]
    assert copy.history() == last.history()[:100] and copy.move_number() == 100
    assert loaded.history() == last.history()
