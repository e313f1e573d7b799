"""What every seat knows, exactly (G3, G6): information states and exact resampling, for every game.

``state.information_state(seat)`` is the seat's whole perfect-recall record;
``state.resample_from_infostate(seat, rng)`` must return a state that a legal history
reaches (its ``history()`` replays to it) and in which the seat saw exactly what it saw.
Two generic tests hold every game to that:

1. from random positions, for every seat, each resample replays from the start to the
   same state and the same record, and over many resamples the hidden parts vary;
2. on small positions, where the consistent worlds can be enumerated by brute force (a
   search over every history, kept while the seat's record stays a prefix of the real
   one), the resampler's support is exactly that set.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import config_id, game_configs
from positions import random_game

import henge
from henge.core import Deferred, Event, State, made

CONFIGS = game_configs()


def _key(state: State) -> str:
    """The whole position (secrets included), history left out: one world."""
    return json.dumps(state.to_json()["state"], sort_keys=True)


def _replayed(state: State) -> State:
    again = state.game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again


def _after_setup(states: list[State]) -> int:
    """Returns the index of the first state after the first decision of a seat."""
    for index, state in enumerate(states):
        if not state.is_chance_node() and not state.is_terminal():
            return index + 1
    return len(states)


Resampler = Callable[[State, int, random.Random], State]


def _resample(state: State, seat: int, rng: random.Random) -> State:
    return state.resample_from_infostate(seat, rng)


def _checked_resamples(state: State, seat: int, rng: random.Random, resample: Resampler, count: int = 12) -> set[str]:
    """Checks ``count`` resamples for ``seat`` (each replays to itself, the seat saw the same) and
    returns the distinct worlds among them."""
    game_id = state.game.info.id
    record = state.information_state(seat)
    digest = state.information_state_string(seat)
    worlds = set()
    for index in range(count):
        sample = resample(state, seat, rng)
        if index == 0:  # every seat's record (a resampler may make it only when read), and a clone's
            _same_records(sample, seat)
        again = _replayed(sample)
        assert _key(again) == _key(sample), f"{game_id}: the resample's history does not reach it"
        assert again.information_state(seat) == record, f"{game_id}: seat {seat} would have seen otherwise"
        assert sample.information_state(seat) == record
        assert sample.information_state_string(seat) == digest
        assert sample.legal_actions() == state.legal_actions() or sample.current_player() != seat
        worlds.add(_key(sample))
    return worlds


def _same_records(sample: State, seat: int) -> None:
    """Checks that every seat's record in ``sample``, and in a clone one action on, is the one
    its history gives (read first on the clone, so that a record made on reading is made there)."""
    later = sample.clone()
    if not later.is_terminal():
        later.apply_action(later.legal_actions()[0])
    for state in (later, sample):
        again = _replayed(state)
        for s in [None, *range(state.game.num_players)]:
            assert state.information_state(s) == again.information_state(s), (
                f"{state.game.info.id}: a sample's record for {s} is not its history's (resampled for {seat})"
            )


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_G6_every_resample_replays_to_a_state_where_the_seat_saw_the_same(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    hidden = game.info.hidden_information
    rng = random.Random(f"{game_id}-{players}-{options}")
    states = random_game(game, rng)
    start = _after_setup(states)
    picks = sorted(rng.sample(range(start, len(states) - 1), k=min(4, len(states) - 1 - start)))
    picks += [0, start - 1]  # the first state and the seat's first decision too
    varied = certain = 0
    for index in picks:
        state = states[index]
        for seat in range(players):
            worlds = _checked_resamples(state, seat, rng, _resample)
            if not hidden:
                assert worlds == {_key(state)}, f"{game_id}: nothing is hidden, yet the resample differs"
            elif index >= start:
                varied += len(worlds) > 1
                certain += len(worlds) == 1
    if hidden:
        # Late in a game a seat may know everything (in Fightin' after the last draw), so a few
        # positions may have one world; a resampler that returns the real state has none that vary.
        assert varied >= 3 * certain, f"{game_id}: resamples vary at {varied} positions, never at {certain}"


def _consistent_worlds(state: State, seat: int, budget: int) -> dict[str, State] | None:
    """Returns every world (by :func:`_key`) a legal history of the same length reaches in which
    ``seat`` saw exactly what it saw in ``state``; None if the search passes ``budget`` nodes."""
    target = state.information_state(seat)
    length = state.move_number()
    worlds: dict[str, State] = {}
    stack = [state.game.new_initial_state()]
    nodes = 0
    while stack:
        node = stack.pop()
        if node.move_number() == length:
            if node.information_state(seat) == target:
                worlds.setdefault(_key(node), node)
            continue
        for action in node.legal_actions():
            child = node.clone()
            child.apply_action(action)
            nodes += 1
            if nodes > budget:
                return None
            seen = child.information_state(seat)
            if seen == target[: len(seen)]:
                stack.append(child)
    return worlds


def _small_positions(game: henge.Game, rng: random.Random) -> list[tuple[State, int, dict[str, State]]]:
    """Returns (state, seat, its consistent worlds) at the deepest early steps of a random game
    where a brute-force search still finds every world (at most a few hundred)."""
    states = random_game(game, rng)
    found = []
    for seat in range(game.num_players):
        best = None
        for index in range(1, min(len(states), 40)):
            worlds = _consistent_worlds(states[index], seat, budget=6000)
            if worlds is None or len(worlds) > 200:
                break
            if len(worlds) > 1:
                best = (states[index], seat, worlds)
        if best is not None:
            found.append(best)
    return found


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_G6_the_resampler_reaches_every_consistent_world_and_no_other(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    rng = random.Random(f"support-{game_id}-{players}-{options}")
    positions = _small_positions(game, rng)
    if not game.info.hidden_information:
        assert positions == [], f"{game_id} hides nothing, yet a seat has more than one consistent world"
        return
    assert positions, f"{game_id}: no early position with a few consistent worlds to check"
    for state, seat, worlds in positions:
        _check_support(state, seat, worlds, rng, _resample)


def _check_support(state: State, seat: int, worlds: dict[str, State], rng: random.Random, resample: Resampler) -> None:
    game_id = state.game.info.id
    seen: set[str] = set()
    for _ in range(25 * len(worlds)):
        key = _key(resample(state, seat, rng))
        assert key in worlds, f"{game_id}: seat {seat} is given a world it knows is impossible"
        seen.add(key)
    missing = len(worlds) - len(seen)
    assert not missing, f"{game_id}: {missing} of {len(worlds)} consistent worlds never resampled for seat {seat}"


def test_the_resampling_checks_catch_a_planted_resampler():
    """Both checks fail on a resampler that returns the real state, or deals a card the seat knows elsewhere."""
    game = henge.load("stonerush", 3)
    rng = random.Random(3)
    states = random_game(game, rng)
    state = states[_after_setup(states) - 1]  # the first decision, right after the deal

    def real(state: State, seat: int, rng: random.Random) -> State:
        return state.clone()

    def swapped(state: State, seat: int, rng: random.Random) -> State:
        # The seat's first card (Stonerush deals n trilithon cards, then 4 cards a seat) trades
        # places with the next seat's first card.
        history = state.resample_from_infostate(seat, rng).history()
        mine, theirs = 3 + 4 * seat, 3 + 4 * ((seat + 1) % 3)
        history[mine], history[theirs] = history[theirs], history[mine]
        again = state.game.new_initial_state()
        for action in history:
            again.apply_action(action)
        return again

    assert len(_checked_resamples(state, 0, rng, real)) == 1  # never varies: the first test's bar fails
    assert len(_checked_resamples(state, 0, rng, _resample)) > 1
    with pytest.raises(AssertionError, match="would have seen otherwise"):
        _checked_resamples(state, 0, rng, swapped)
    small, seat, worlds = _small_positions(game, rng)[0]
    _check_support(small, seat, worlds, rng, _resample)
    with pytest.raises(AssertionError, match="consistent worlds never resampled"):
        _check_support(small, seat, worlds, rng, real)


def _record_shape(record: Any) -> None:
    assert isinstance(record, list)
    for entry in record:
        assert isinstance(entry, list) and len(entry) == 2
        actor, text = entry
        assert isinstance(actor, int) and actor >= -1
        assert isinstance(text, str) and text


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_G6_records_are_json_shared_by_clones_and_grow_by_appending(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    states = random_game(game, random.Random(f"record-{game_id}-{players}"))
    previous: list[list[Any] | None] = [None] * (players + 1)
    for state in states[:: max(1, len(states) // 30)] + [states[-1]]:
        for slot, seat in enumerate([*range(players), None]):
            record = state.information_state(seat)
            _record_shape(record)
            assert json.loads(json.dumps(record)) == record
            before = previous[slot]
            if before is not None:
                assert record[: len(before)] == before, "a record never forgets or rewrites what it held"
            previous[slot] = record
    last = states[-1]
    copy = last.clone()
    assert copy.information_state_string(0) == last.information_state_string(0)
    # A long record pickles (bots and tournaments send states to worker processes) and comes back equal.
    again = pickle.loads(pickle.dumps(last))
    for seat in [*range(players), None]:
        assert again.information_state(seat) == last.information_state(seat)
        assert again.information_state_string(seat) == last.information_state_string(seat)
    with pytest.raises(ValueError, match="seats run"):
        last.information_state(players)


def test_a_deferred_record_is_made_once_and_only_when_read():
    """A resampler may hand over its rewritten record unmade: a search that never reads it never pays."""
    game = henge.load("stonerush", 3)
    state = random_game(game, random.Random(11))[60]
    calls = []

    def make() -> Event | None:
        calls.append(1)
        return made(state._log)

    copy = state.clone()
    copy._log = Deferred(make)
    child = copy.clone()
    child.apply_action(child.legal_actions()[0])  # appends to the unmade record
    assert calls == []
    assert copy.information_state(1) == state.information_state(1)
    assert copy.information_state_string(2) == state.information_state_string(2)
    before = state.information_state(0)
    assert child.information_state(0)[: len(before)] == before
    assert len(child.information_state(None)) > len(state.information_state(None))
    assert pickle.loads(pickle.dumps(child)).information_state(None) == child.information_state(None)
    assert calls == [1]
