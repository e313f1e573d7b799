"""The Spell Casting rule-based player and evaluation: rules of thumb on crafted positions, whole games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from spell_casting_positions import spell_casting_position

import henge
from henge.core import State, make_decision
from henge.games.spell_casting import bot as heuristic
from henge.games.spell_casting import search

CUPS = ("in1", "in2", "in3", "out1", "out2", "out3")
FIGURES = ("white", "blue", "green", "yellow", "red", "gray")
PARK = [f"{ring} {m}" for ring in ("outer", "coloured", "middle") for m in range(12, 29, 2)]
"""Where the components not named in a position wait: sections 2 and 3, apart, off the figures' numbers."""


def position(board: dict[str, int], **fields: Any) -> State:
    """Returns seat 0's turn of three players (phase 'take'); components not named in ``board`` wait on ``PARK``."""
    return spell_casting_position(3, board=board, park=PARK, **fields)


def choice(state: State) -> str:
    decision = make_decision(state, state.current_player(), random.Random(0), samples=False)
    return state.action_to_string(heuristic.choose(decision))


def test_it_pulls_its_own_component_from_the_middle_ring_onto_its_figures_stone():
    state = position({"middle 13": 0}, figures={"white": "13 day"}, energy=(6, 0, 0, 1, 1, 1))
    assert choice(state) == "take out1"
    for text in ("take out1", "take out2", "take out3", "done"):
        state.apply_text(text)
    assert choice(state) == "pull middle 13 day"


def test_it_brings_a_figure_onto_its_component_and_then_pulls_it_in():
    state = position({"coloured 5": 0}, figures={"white": "3 night"}, energy=(0, 3, 3, 3, 0, 0))
    for text in ("take out1", "take out1", "take out1", "done"):
        state.apply_text(text)
    assert choice(state) == "figure white 5 right"  # 3 night (stone 4) to 5 day (stone 9)
    state.apply_text("figure white 5 right")
    assert choice(state) == "pull coloured 5"


def test_it_pushes_a_rivals_component_out_with_a_figure():
    state = position({"middle 7": 1}, figures={"gray": "7 night"}, energy=(0, 4, 4, 1, 0, 0))
    state.apply_text("take out1")
    state.apply_text("done")
    assert choice(state) == "push middle 7"


def test_action_a_pushes_its_own_component_in_with_a_rivals():
    # moving blue's outer 4 onto white's outer 5 displaces white: white goes in, to coloured 5
    state = position({"outer 4": 1, "outer 5": 0}, energy=(1, 4, 4, 0, 0, 0))
    assert choice(state) == "take in1"
    state.apply_text("take in1")
    state.apply_text("done")
    assert choice(state) == "move outer 4 right"
    state.apply_text("move outer 4 right")
    assert choice(state) == "displace in"


def test_a_rivals_displaced_component_goes_out():
    state = position({"coloured 4": 0, "coloured 5": 1}, energy=(1, 4, 4, 0, 0, 0))
    for text in ("take in1", "done", "move coloured 4 right"):
        state.apply_text(text)
    assert choice(state) == "displace out"


def test_with_nothing_worth_doing_it_holds_two_disks():
    # every figure on 5 night: no component in section 1, and one move (1, 5 or 20) brings none onto one
    state = position({}, figures=dict.fromkeys(FIGURES, "5 night"), energy=(6, 0, 0, 3, 0, 0))
    assert choice(state).startswith("hold")


def test_it_places_its_private_disk_where_it_can_use_it():
    state = position(
        {"middle 13": 0, "middle 3": 0}, figures={"white": "3 night", "gray": "13 day"}, energy=(0, 3, 3, 1, 1, 1)
    )
    for text in ("take out1", "take out2", "take out3", "done", "pull middle 13 day"):
        state.apply_text(text)
    assert state.observation(0)["phase"] == "place private disk"
    assert choice(state) == "place out1"  # next turn it pulls middle 3 onto 3 night


def play_game(players: int, seed: int, bots: list[str], variant: str = "standard") -> tuple[list[float], int]:
    state = henge.load("spell_casting", players, variant=variant).new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if bots[seat] == "heuristic":
            action = heuristic.choose(make_decision(state, seat, rng, samples=False))
            assert action in legal
        else:
            action = rng.choice(legal)
        state.apply_action(action)
        decisions += 1
    return state.returns(), decisions


@pytest.mark.parametrize(("players", "variant"), [(3, "standard"), (4, "standard"), (3, "short"), (4, "short")])
def test_only_legal_actions_over_whole_games_and_games_end_quickly(players: int, variant: str):
    for seed in range(2):
        returns, decisions = play_game(players, seed, ["heuristic"] * players, variant)
        assert sum(returns) == pytest.approx(1.0)
        assert decisions < 2000
    play_game(players, 7, ["heuristic", *["random"] * (players - 1)], variant)


def test_it_beats_random_players():
    wins = 0.0
    for seed in range(6):
        seats = ["random"] * 3
        seats[seed % 3] = "heuristic"
        returns, _ = play_game(3, seed, seats)
        wins += returns[seed % 3]
    assert wins >= 5


def test_evaluate_is_a_chance_in_0_1_and_ranks_a_winning_position_above_a_losing_one():
    winning = position({"inner 1 night": 0, "inner 2 night": 0, "inner 3 night": 0, "middle 4": 0})
    losing = position({"inner 1 night": 1, "inner 2 night": 1, "inner 3 night": 1, "middle 4": 1})
    for state in (winning, losing, position({})):
        values = search.evaluate(state)
        assert len(values) == 3 and all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(1.0)
    assert search.evaluate(winning)[0] > 0.8 > search.evaluate(losing)[0]
    assert search.evaluate(winning)[0] > search.evaluate(position({}))[0] > search.evaluate(losing)[0]


def test_evaluate_gives_the_returns_at_the_end():
    state = position(
        {"inner 1 night": 0, "inner 2 night": 0, "inner 3 night": 0, "middle 4": 0},
        figures={"white": "4 day"},
        energy=(0, 4, 4, 1, 0, 0),
    )
    for text in ("take out1", "done", "pull middle 4 day"):
        state.apply_text(text)
    assert state.is_terminal()
    assert search.evaluate(state) == [1.0, 0.0, 0.0]


def _plain_progress(board: Any) -> list[float]:
    """Each seat's progress by a pass over every cell, in cell order."""
    numbers = {name: stone // 2 for name, stone in board.figures.items()}
    aligned = [{numbers[f] for f in board.usable[s] if f in numbers} for s in range(board.n)]
    prog = [0.0] * board.n
    for c, s in enumerate(board.cells):
        if s >= 0:
            prog[s] += (0.0, 1.0, 2.2)[c // 30] + (0.45 if c % 30 in aligned[s] else 0.0) if c < 90 else 7.0
    return prog


def _seeded_decisions(players: int, seed: int) -> list[Any]:
    """Returns the decisions (two or more legal actions) of a game the rule-based player plays at every seat."""
    state = henge.load("spell_casting", players).new_initial_state()
    rng = random.Random(seed)
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        decision = make_decision(state, state.current_player(), rng, samples=False)
        if len(decision.legal_actions) > 1:
            decisions.append(decision)
        state.apply_action(heuristic.choose(decision))
    return decisions


def test_the_progress_kept_with_the_board_is_that_of_a_pass_over_every_cell():
    """The model keeps each seat's progress and works it out again only for the seats a move touched:
    after any use, chain of displacements or figure move it equals, to the last bit, a pass over every cell."""
    checked = 0
    for decision in _seeded_decisions(4, 2)[::3]:
        board = heuristic._Board(decision.observation)
        seat = decision.seat
        assert board.progress() == _plain_progress(board)
        uses = board.uses_a(checked % 3) + board.uses_b(seat, [1, 1, 1])
        for text in uses:
            trial = board.copy()
            trial.apply_use(text, seat)
            assert trial.progress() == _plain_progress(trial), text
            checked += 1
        assert board.progress() == _plain_progress(board)  # the trials left it as it was
    assert checked > 1000


def test_a_remembered_answer_is_the_answer_worked_out_afresh():
    decisions = _seeded_decisions(3, 4)
    heuristic._ANSWERS.clear()
    first = [heuristic.choose(d) for d in decisions]
    again = [heuristic.choose(d) for d in decisions]  # from memory
    assert first == again == [heuristic._choose(d) for d in decisions]


def test_past_its_patience_it_leaves_a_cycle_of_repeated_turns():
    """On this seed the three rule-based players start round 11 as they started round 9 and, played
    deterministically, repeat those two rounds until the round cap; restless, they finish the game."""
    game = henge.load("spell_casting", 3)
    state = game.new_initial_state()
    for action in henge.play(game, ["heuristic"] * 3, seed=33)["actions"]:
        state.apply_action(action)
    assert heuristic._PATIENCE < state.observation(None)["round"] < 200


def test_games_of_rule_based_players_never_stall_to_the_round_cap():
    """Seeds 0-29 at 3 players: played deterministically, 3 of these games (5, 19 and 26) repeated
    the same turns to the cap of 1000 rounds; restless, every one ends within 200 rounds."""
    game = henge.load("spell_casting", 3)
    for seed in range(30):
        state = game.new_initial_state()
        for action in henge.play(game, ["heuristic"] * 3, seed=seed)["actions"]:
            state.apply_action(action)
        assert state.observation(None)["round"] < 200, seed


@pytest.mark.parametrize(("turns", "answers"), [(3 * 49, 1), (3 * 50, 4)])
def test_it_starts_to_choose_at_random_only_past_its_patience(turns: int, answers: int):
    """At round 50 a decision has one answer, whatever the generator; at round 51 about a third of its
    answers are drawn from every legal action."""
    state = position({"middle 13": 0, "middle 3": 0}, figures={"white": "3 night"}, turns=turns)
    assert state.observation(0)["round"] == turns // 3 + 1
    chosen = [heuristic.choose(make_decision(state, 0, random.Random(seed), samples=False)) for seed in range(300)]
    assert len(set(chosen)) >= answers
    assert set(chosen) <= set(state.legal_actions())
    if answers > 1:
        usual = heuristic._choose(make_decision(state, 0, random.Random(0), samples=False))
        assert 0.5 < chosen.count(usual) / len(chosen) < 0.9
