"""Turns and reveals, defined once in the engine: what undo, pacing and the server's views build on."""

from __future__ import annotations

import random

import pytest

import henge
from henge.core import CHANCE, IllegalActionError, State, Step, Turn, latest_turns, open_turn, steps_of, turns

GAMES = henge.list_games()


def test_turns_split_at_other_seats_chance_and_reveals() -> None:
    steps = [
        Step(CHANCE),
        Step(0),
        Step(0),
        Step(1),
        Step(1, reveal=True),
        Step(1),
        Step(CHANCE),
        Step(1),
        Step(0, reveal=True),
    ]
    assert turns(steps) == [Turn(0, 1, 3), Turn(1, 3, 5), Turn(1, 5, 6), Turn(1, 7, 8), Turn(0, 8, 9)]


def test_open_turn_counts_only_the_seat_to_moves_unrevealed_run() -> None:
    assert open_turn([Step(1), Step(0), Step(0)], 0) == 2
    assert open_turn([Step(1), Step(0), Step(0)], 1) == 0
    assert open_turn([Step(0), Step(CHANCE)], 0) == 0
    assert open_turn([Step(0), Step(0, reveal=True)], 0) == 0
    assert open_turn([Step(0, reveal=True), Step(0), Step(0)], 0) == 2
    assert open_turn([], 0) == 0


def _increment(before: State, after: State, seat: int | None) -> list[list[object]]:
    old = before.information_state(seat)
    new = after.information_state(seat)
    assert new[: len(old)] == old  # perfect recall: a record only grows
    return new[len(old) :]


def _walk(game_id: str, players: int, seed: int, limit: int = 400) -> list[tuple[State, int]]:
    """Returns (state, decision) pairs along a random game."""
    game = henge.load(game_id, players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    pairs = []
    while not state.is_terminal() and len(pairs) < limit:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        action = rng.choice(state.legal_actions())
        pairs.append((state.clone(), action))
        state.apply_action(action)
    return pairs


@pytest.mark.parametrize("game_id", GAMES)
def test_reveals_agrees_with_the_information_states(game_id: str) -> None:
    """A decision is not a reveal exactly when every seat's record grows only by entries of the
    actor's own move that the others read as the spectator does, or that only the actor reads."""
    info = henge.game_class(game_id).info
    seen = {True: 0, False: 0}
    for seed in range(3):
        for state, action in _walk(game_id, info.min_players, seed):
            actor = state.current_player()
            after = state.clone()
            after.apply_action(action)
            public = _increment(state, after, None)
            own_move = all(entry[0] == actor for entry in public)
            for seat in range(state.game.num_players):
                grown = _increment(state, after, seat)
                own_move = own_move and all(entry[0] == actor for entry in grown)
                if seat != actor:
                    own_move = own_move and grown == public
            assert state.reveals(action) == (not own_move), state.action_to_string(action)
            seen[state.reveals(action)] += 1
    assert seen[False] > 0
    if game_id != "spell_casting":  # everything is public there: only chance tells anything new
        assert seen[True] > 0


def test_reveals_leaves_the_state_alone_and_refuses_what_is_not_a_decision() -> None:
    state, action = _walk("fightin", 2, 0, limit=1)[0]
    before = state.history()
    state.reveals(action)
    assert state.history() == before
    with pytest.raises(IllegalActionError):
        state.reveals(10_000)
    chance = henge.load("stonerush", 3).new_initial_state()
    assert chance.is_chance_node()
    with pytest.raises(IllegalActionError, match="only a seat's decision"):
        chance.reveals(0)


def _first(game_id: str, players: int, prefix: str, *, reveal: bool) -> str | None:
    for seed in range(6):
        for state, action in _walk(game_id, players, seed):
            text = state.action_to_string(action)
            if text.startswith(prefix) and state.reveals(action) == reveal:
                return text
    return None


def test_fightin_sealed_plays_first_hidden_second_resolves() -> None:
    """The first of two sealed plays tells the other seat only that a card was placed; a move that
    makes the rules resolve the events (a reveal) ends its turn."""
    assert _first("fightin", 2, "fighter", reveal=False) is not None
    assert _first("fightin", 2, "discard", reveal=True) is not None


def test_first_druid_offer_building_is_private_and_not_a_reveal() -> None:
    for prefix in ("offer", "give", "ask", "withdraw", "send"):
        assert _first("first_druid", 3, prefix, reveal=False) is not None, prefix
    for state, action in _walk("first_druid", 3, 0):
        if state.action_to_string(action).startswith(("give", "ask", "withdraw")):
            assert not state.reveals(action)


def test_spell_casting_has_no_reveals() -> None:
    for state, action in _walk("spell_casting", 3, 1, limit=300):
        assert not state.reveals(action)


def test_stonerush_card_plays_are_one_turn_until_the_play_ends() -> None:
    """Playing cards and ending the play are one turn of one seat, with no reveal inside it."""
    pairs = _walk("stonerush", 3, 4)
    steps = []
    for state, action in pairs:
        steps.append(Step(state.current_player(), state.reveals(action)))
    spans = turns(steps)
    assert any(span.end - span.start >= 2 for span in spans)
    for span in spans:
        assert {steps[i].actor for i in range(span.start, span.end)} == {span.seat}
        assert not any(steps[i].reveal for i in range(span.start, span.end - 1))


@pytest.mark.parametrize("game_id", ["fightin", "first_druid"])
def test_steps_of_replays_a_history_into_actors_and_reveals(game_id: str) -> None:
    game = henge.load(game_id, henge.game_class(game_id).info.min_players)
    rng = random.Random(5)
    state = game.new_initial_state()
    expected = []
    while not state.is_terminal() and len(expected) < 300:
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            expected.append(Step(CHANCE))
        else:
            action = rng.choice(state.legal_actions())
            expected.append(Step(state.current_player(), state.reveals(action)))
        state.apply_action(action)
    found = steps_of(game, state.history())
    assert found == expected
    assert any(step.reveal for step in found) and any(step.actor == CHANCE for step in found)


@pytest.mark.parametrize("game_id", GAMES)
def test_information_state_newest_reads_only_the_last_entries(game_id: str) -> None:
    """The server judges each step's record from its newest entries alone (a long game stays linear)."""
    pairs = _walk(game_id, henge.game_class(game_id).info.min_players, 7, limit=120)
    state, _action = pairs[-1]
    for seat in [None, *range(state.game.num_players)]:
        whole = state.information_state(seat)
        for newest in (0, 1, 5, len(whole), len(whole) + 3):
            assert state.information_state(seat, newest=newest) == whole[max(0, len(whole) - newest) :]


def test_latest_turns_reads_back_the_turns_that_turns_finds() -> None:
    for game_id in GAMES:
        game = henge.load(game_id, henge.game_class(game_id).info.min_players)
        for seed in range(2):
            history = [state.history() for state, _ in _walk(game_id, game.num_players, seed, limit=200)][-1]
            steps = steps_of(game, history)
            for end in (len(steps), len(steps) // 2, 1, 0):
                assert list(latest_turns(steps, end)) == list(reversed(turns(steps[:end]))), (game_id, end)
