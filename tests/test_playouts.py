"""Whole games played by the one driver with the random and the rule-based player (henge.core.playouts)."""

from __future__ import annotations

import random

import pytest

import henge
from henge.core import CHANCE, TERMINAL, advance, playouts, random_chooser, rule_chooser
from henge.records import play_record


@pytest.mark.parametrize("game_id", ["fightin", "stonerush", "first_druid", "druid_olympics", "spell_casting"])
def test_playouts_are_the_games_the_agents_play_at_the_same_seeds(game_id: str) -> None:
    game = henge.load(game_id, 3 if game_id != "fightin" else 2)
    lineups = {"random": "random", "rule": "heuristic"}
    for kind, agent in lineups.items():
        count = 1 if kind == "rule" and game_id in ("first_druid", "spell_casting") else 2
        for played in playouts(game, count, seed=40, players=kind, records=True):
            record = play_record(game, [agent] * game.num_players, seed=played.seed)
            assert played.record == record
            assert played.returns == record.returns
            assert played.length == len(record.actions)
            assert 0 < played.decisions < played.length or game_id == "spell_casting"


def test_playouts_seat_each_player_kind_and_count_what_they_did() -> None:
    game = henge.load("stonerush", 3)
    mixed = playouts(game, 2, seed=7, players=["rule", "random", "random"])
    assert [p.seed for p in mixed] == [7, 8]
    assert all(p.record is None for p in mixed)
    again = playouts(game, 2, seed=7, players=["rule", "random", "random"], records=True)
    assert [(p.returns, p.length, p.decisions) for p in mixed] == [(p.returns, p.length, p.decisions) for p in again]
    for played in again:
        assert played.record is not None
        assert played.record.agents == ["heuristic", "random", "random"]
        chance = sum(1 for text in played.record.texts or [] if text.startswith("deal") or "draw" in text)
        assert played.decisions <= played.length - chance or chance == 0
    assert playouts(game, 0) == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"count": -1}, "count must be a whole number of games"),
        ({"count": True}, "count must be a whole number of games"),
        ({"count": 1, "players": "ismcts"}, "one of random, rule"),
        ({"count": 1, "players": ["random", "random"]}, "needs 3 players, not 2"),
    ],
)
def test_playouts_refuse_what_they_cannot_play(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        playouts(henge.load("stonerush", 3), **kwargs)  # type: ignore[arg-type]


def test_rule_chooser_names_the_games_there_are() -> None:
    with pytest.raises(ValueError, match="unknown game 'no_such_game'; games: "):
        rule_chooser("no_such_game", random.Random(1))


def test_advance_stops_after_the_decisions_asked_for() -> None:
    game = henge.load("fightin", 2)
    state = game.new_initial_state()
    choosers = {seat: random_chooser(random.Random(seat)) for seat in range(2)}
    seat = advance(state, random.Random(3), choosers, decisions=5)
    assert seat >= 0 and state.current_player() == seat
    decisions = [a for a, actor in zip(state.history(), _actors(game, state.history()), strict=True) if actor >= 0]
    assert len(decisions) == 5
    assert advance(state, random.Random(4), choosers) == TERMINAL


def _actors(game: henge.Game, actions: list[int]) -> list[int]:
    state = game.new_initial_state()
    actors = []
    for action in actions:
        actor = state.current_player()
        actors.append(CHANCE if actor == CHANCE else actor)
        state.apply_action(action)
    return actors
