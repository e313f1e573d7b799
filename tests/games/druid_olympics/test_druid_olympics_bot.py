"""The Druid Olympics rule-based player and position evaluation."""

from __future__ import annotations

import random
from typing import Any

import pytest
from druid_olympics_positions import druid_olympics_position

import henge
from henge.agents import make_agent
from henge.agents.heuristics import known
from henge.core import State, make_decision
from henge.games.druid_olympics import bot as heuristic
from henge.games.druid_olympics import search
from henge.records import play

GAME = "druid_olympics"


def position(**fields: Any) -> State:
    """Returns a crafted three-player position on the third turn; cards not in a hand lie in the draw pile."""
    return druid_olympics_position(3, turn=3, **fields)


def choice(state: State) -> str:
    decision = make_decision(state, state.current_player(), random.Random(0), samples=False)
    action = heuristic.choose(decision)
    assert action in decision.legal_actions
    return decision.text(action)


OTHERS = [["24n", "24d", "25n"], ["25d", "26n", "26d"]]


# --- moving --------------------------------------------------------------------------------


def test_moves_with_the_card_that_goes_furthest():
    state = position(
        phase="move", runners=["numbered 3", "coloured 1", "coloured 1"], hands=[["5n", "20d", "12n"], *OTHERS]
    )
    assert choice(state) == "move 20d"


def test_does_not_end_its_move_on_a_rivals_bar():
    # 20 steps from numbered 1 end on the bar on numbered 21 (a lost turn); 18 steps do not.
    state = position(
        phase="move",
        runners=["numbered 1", "coloured 1", "coloured 1"],
        hands=[["20d", "18n", "3n"], *OTHERS],
        bars=[None, "numbered 21", None],
    )
    assert choice(state) == "move 18n"


def test_enters_the_horseshoe_at_the_end_without_a_trilithon():
    state = position(
        phase="move",
        runners=["inner 30 night", "coloured 1", "coloured 1"],
        hands=[["5n", "2d", "3n"], *OTHERS],
        trilithons={"red": "bluestones 1-3"},
    )
    state.apply_text("move 5n")
    assert choice(state) == "enter stone 19"


def test_in_the_horseshoe_keeps_a_high_card_it_does_not_need():
    # From bluestone 9 (entered at 1) two points reach the altar: 8 and 12 do it, and 27 is kept.
    state = position(
        phase="move",
        runners=["bluestone 9", "coloured 1", "coloured 1"],
        ends=[1, None, None],
        hands=[["8n", "12n", "27d"], *OTHERS],
    )
    assert choice(state) == "move 8n"
    state.apply_text("move 8n")
    assert choice(state) == "move 12n"
    state.apply_text("move 12n")
    assert choice(state) == "done"
    state.apply_text("done")
    assert state.is_terminal() and state.returns()[0] == 1.0


def test_in_the_horseshoe_plays_low_cards_that_bring_nothing_to_draw_afresh():
    state = position(
        phase="move",
        runners=["bluestone 2", "coloured 1", "coloured 1"],
        ends=[1, None, None],
        hands=[["2n", "3d", "T-blue"], *OTHERS],
    )
    assert choice(state) == "move 2n"
    state.apply_text("move 2n")
    assert choice(state) == "move 3d"


def test_moves_past_a_bar_rather_than_end_on_it():
    # 2 ends on the bar on numbered 12 and 3 falls one step short of passing it: 4 gets past.
    state = position(
        phase="move",
        runners=["numbered 10", "coloured 1", "coloured 1"],
        hands=[["2n", "3d", "4n"], *OTHERS],
        bars=[None, "numbered 12", None],
    )
    assert choice(state) == "move 4n"


def test_crosses_the_bars_ahead_on_the_coloured_ring_rather_than_wait_for_a_pair():
    # Every card ends on the bar on coloured 5 or 6 (a lost turn): staying put keeps the full hand
    # and the same choice next turn, so ending on the bar it must cross anyway is the move.
    state = position(
        phase="move",
        runners=["coloured 4", "coloured 1", "coloured 4"],
        hands=[["6n", "12n", "T-blue"], *OTHERS],
        bars=["coloured 3", "coloured 5", "coloured 6"],
    )
    assert choice(state) in ("move 6n", "move 12n")


def test_stays_put_rather_than_walk_onto_a_trilithon():
    # Every card ends on the red trilithon over inner 1 night .. 2 day (two lost turns).
    state = position(
        phase="move",
        runners=["numbered 28", "coloured 1", "coloured 1"],
        hands=[["3n", "4d", "5n"], *OTHERS],
        trilithons={"red": "inner 1 night"},
    )
    assert choice(state) == "pass"


# --- blocking ------------------------------------------------------------------------------


def test_blocks_the_leader_just_ahead_on_the_coloured_ring():
    # Seat 1 leads on coloured 10: every move of it passes coloured 11 (red, like 29d).
    state = position(
        runners=["coloured 3", "coloured 10", "coloured 2"],
        hands=[["14n", "29d", "28d"], *OTHERS],
    )
    assert choice(state) == "bar on coloured 11"


def test_never_lays_a_trilithon_in_its_own_way():
    # A trilithon on numbered 10 or inner 1 night would lie ahead of its own runner on numbered 5.
    state = position(
        runners=["numbered 5", "numbered 3", "coloured 1"],
        hands=[["T-red", "10d", "1n"], *OTHERS],
    )
    chosen = choice(state)
    if chosen.startswith("trilithon red on numbered"):
        assert int(chosen.split()[-1]) < 5  # behind the own runner
    else:
        assert not chosen.startswith("trilithon")


def test_stops_a_rival_about_to_win_with_a_bluestone_trilithon():
    # Seat 1 stands on bluestone 8 (entered at 1); the own runner is far behind.
    state = position(
        runners=["coloured 5", "bluestone 8", "coloured 2"],
        ends=[None, 1, None],
        hands=[["T-blue", "3n", "4d"], *OTHERS],
    )
    assert choice(state) == "trilithon blue on bluestones 8-10"


def test_a_stuck_hand_lays_a_block_to_draw_afresh():
    # Trilithon cards never move a runner, and a full hand draws nothing: without a block the
    # player would hold these three cards, and stay put, turn after turn.
    state = position(
        runners=["coloured 12", "coloured 3", "coloured 2"], hands=[["T-blue", "T-green", "T-red"], *OTHERS]
    )
    assert choice(state) != "pass"
    while state.current_player() == 0 and state.to_json()["state"]["phase"] in ("block", "block cards"):
        state.apply_text(choice(state))
    assert len(state.to_json()["state"]["hands"][0]) < 3


def test_does_not_pay_a_block_with_the_card_it_moves_with():
    state = position(
        runners=["numbered 2", "numbered 4", "coloured 1"],
        hands=[["20d", "12n", "8n"], *OTHERS],
    )
    state.apply_text("bar on numbered 20")
    assert choice(state) == "use 8n"
    state.apply_text("use 8n")
    assert choice(state) == "use 12n"


# --- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_games_of_rule_based_players_end_by_a_runner_reaching_the_altar(players: int):
    # Never by the round cap: rule-based players who all stay put behind each other's bars
    # would leave the cap to name the winner.
    game = henge.load(GAME, players)
    for seed in range(5):
        record = play(game, ["heuristic"] * players, seed=seed)
        final = game.new_initial_state()
        for action in record["actions"]:  # the engine refuses an illegal action
            final.apply_action(action)
        data = final.to_json()["state"]
        assert final.is_terminal() and data["turn"] < game.info.round_cap
        assert data["reason"].endswith("reached the altar stone"), (seed, data["turn"], data["reason"])
        assert data["runners"].count("altar") == 1
        assert data["winners"] == [data["runners"].index("altar")]
        assert record["returns"][data["winners"][0]] == 1.0


def test_beats_random_players():
    games, wins = 36, 0.0
    for seed in range(games):
        agents = ["random"] * 3
        agents[seed % 3] = "heuristic"
        record = play(henge.load(GAME, 3), agents, seed=seed)
        wins += record["returns"][seed % 3]
    assert wins / games >= 0.5  # random play wins a third


def test_registered():
    assert GAME in known()
    assert make_agent("heuristic") is not None


# --- the evaluation ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_settled_exactly_at_the_first_decision_of_every_turn(players: int):
    # Where the search reads the evaluation: every runner has had as many moves. Seats that lose
    # the turn do not block, so the first decision can be a later seat's (rule-based games lose
    # turns often: seen below).
    game = henge.load(GAME, players)
    later_seat = 0
    for seed in range(4):
        record = play(game, ["heuristic"] * players, seed=seed)
        state = game.new_initial_state()
        turn = 0
        for action in record["actions"]:
            if state.current_player() >= 0:
                data = state.to_json()["state"]
                first = data["turn"] != turn
                turn = data["turn"]
                assert search.settled(state) == first, (seed, state.move_number())
                later_seat += first and data["player"] != data["first"]
            else:
                assert not search.settled(state)
            state.apply_action(action)
        assert not search.settled(state)
    assert later_seat > 0


def test_evaluate_gives_chances_and_ranks_the_leader_first():
    state = position(
        phase="move",
        player=1,
        runners=["bluestone 9", "coloured 4", "numbered 2"],
        ends=[1, None, None],
        hands=[["8n", "12n", "27d"], *OTHERS],
    )
    values = search.evaluate(state)
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) == pytest.approx(1.0)
    assert values[0] > 0.8 and values[0] > values[2] > values[1]


def test_evaluate_counts_lost_turns_and_returns_the_result_at_the_end():
    free = position(runners=["inner 10 day", "inner 10 day", "coloured 1"], hands=[["1n"], ["1d"], ["2n"]])
    lost = position(
        runners=["inner 10 day", "inner 10 day", "coloured 1"], hands=[["1n"], ["1d"], ["2n"]], lost=[0, 2, 0]
    )
    assert search.evaluate(lost)[0] > search.evaluate(free)[0]
    won = position(
        phase="move",
        runners=["bluestone 10", "coloured 1", "coloured 1"],
        ends=[1, None, None],
        hands=[["10n", "2n", "3n"], *OTHERS],
    )
    won.apply_text("move 10n")
    won.apply_text("done")
    assert search.evaluate(won) == [1.0, 0.0, 0.0]


def test_evaluate_on_random_states_stays_in_range():
    rng = random.Random(3)
    for players in (3, 4, 5):
        state = henge.load(GAME, players).new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions() if state.current_player() >= 0 else [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(legal))
            values = search.evaluate(state)
            assert len(values) == players and all(0.0 <= v <= 1.0 for v in values)
