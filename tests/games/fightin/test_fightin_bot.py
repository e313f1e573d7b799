"""The Fightin' an' Drinkin' an' Stealin'! rule-based player and evaluation."""

from __future__ import annotations

import random
from typing import Any

from fightin_positions import fightin_position
from positions import random_move

import henge
from henge import box
from henge.core import Decision, State, make_decision
from henge.games.fightin import bot as fightin
from henge.games.fightin import search

GAME = henge.load("fightin")
COLOURS = box.PLAYER_COLOURS


def position(**fields: Any) -> State:
    """The shared scenario position (a round's first placement); a hand of fewer than five comes
    with an empty deck (F12: a draw fills a hand to five while the deck holds cards), the other
    cards of the seats in their discard piles, as the seventh round finds them (G7)."""
    if "decks" not in fields and any(len(hand) < 5 for hand in fields["hands"]):
        fields["decks"] = ([], [])
    return fightin_position(**fields)


def decide(state: State) -> str:
    """Returns the text of the heuristic's choice in ``state``."""
    decision = make_decision(state, state.current_player(), random.Random(0), samples=False)
    return decision.text(fightin.choose(decision))


def placements(state: State) -> list[str]:
    """Lets the heuristic place seat 0's three cards; returns its placements."""
    placed = []
    while state.current_player() == 0 and state.observation(0)["decision"] == "place":
        text = decide(state)
        placed.append(text)
        state.apply_text(text)
    return placed


def crafted(obs: dict[str, Any], texts: list[str], **fields: Any) -> str:
    """Returns the heuristic's choice among ``texts`` with the observation's fields replaced."""
    view = {**obs, **fields}
    decision = Decision("fightin", view["seat"], view, list(range(len(texts))), texts, random.Random(0))
    return texts[fightin.choose(decision)]


HANDS = (["5d", "7d", "8d", "9d", "10d"], ["5n", "7n", "8n", "9n", "10n"])


# -- placing: the rules of thumb ------------------------------------------------------------


def test_a_pair_that_always_beats_the_monsters_fights_with_the_cheapest_card_that_does():
    state = position(hands=(["29d", "27d", "5d", "7d", "8d"], HANDS[1]), fight=(["28d"], ["2n"]), monsters=("6d",))
    # 28 + 8 = 36 beats 6 and any second monster (at most 30): the 29 and 27 are kept for better uses.
    assert placements(state) == ["fighter 8d", "drinker 27d", "thief 5d"]


def test_a_pair_that_cannot_win_leaves_the_contest_to_the_opponent():
    state = position(hands=(["29d", "27d", "5d", "7d", "8d"], HANDS[1]), fight=(["2d"], ["28n"]), monsters=("30d",))
    placed = placements(state)
    assert placed[0] in ("fighter 5d", "fighter 7d", "fighter 8d")


def test_a_drinker_that_brings_the_drinks_to_fifty_and_stays_biggest_takes_the_altar():
    state = position(hands=(["29d", "22d", "5d", "7d", "8d"], HANDS[1]), drink=(["20d"], ["3n"]), altar=3)
    assert placements(state)[1] == "drinker 22d"


def test_the_gonagal_goes_where_it_wins_most():
    # Four reds already: a fight's red would be the best colour, dropped; the altar's blues count.
    state = position(hands=(["1d", "5d", "7d"], HANDS[1][:3]), round=7, altar=2, awards=([0, 0, 0, 0, 4], [0] * 5))
    assert placements(state) == ["fighter 5d", "drinker 1d"]


def test_a_thief_stays_below_the_big_lawyer():
    state = position(hands=(["29d", "27d", "5d", "7d", "8d"], HANDS[1]), lawyer=10)
    thief = placements(state)[-1]
    assert search.card_number(thief.split()[1]) < 10


# -- the other decisions, on crafted observations ---------------------------------------------


def _observation(**fields: Any) -> dict[str, Any]:
    state = position(hands=(["10d", "11d", "13d", "14d", "16d"], HANDS[1]), **fields)
    return state.observation(0)


def test_scarper_with_the_richest_thief():
    obs = _observation(steal=(["20d", "9d"], ["4n"]), loot={"20d": [0, 0, 0, 2, 0]})
    assert crafted(obs, ["scarper 9d", "scarper 20d"], decision="scarper", event="stealin") == "scarper 20d"


def test_steal_the_richest_loot():
    obs = _observation(steal=(["28d"], ["15n", "22n"]), loot={"15n": [0, 0, 0, 1, 0], "22n": [1, 0, 0, 2, 0]})
    texts = ["steal from 15n", "steal from 22n", "done"]
    assert crafted(obs, texts, decision="steal", event="stealin", highest_thief="28d") == "steal from 22n"


def test_steal_an_award_that_counts_not_the_opponents_best_colour():
    obs = _observation(steal=(["28d"], ["15n"]), awards=([0, 0, 1, 0, 0], [0, 1, 0, 0, 4]), round=7)
    texts = ["steal blue", "steal red", "done"]
    assert crafted(obs, texts, decision="steal", event="stealin", highest_thief="28d") == "steal blue"


def test_do_not_steal_when_the_award_would_bring_the_big_lawyer_onto_the_thief():
    # The Big Lawyer on 28: one award on the thieves moves him to 27, and the 27 thief is caught.
    obs = _observation(steal=(["27d"], ["15n"]), awards=([0] * 5, [0, 1, 0, 0, 0]), lawyer=28)
    texts = ["steal blue", "done"]
    assert crafted(obs, texts, decision="steal", event="stealin", highest_thief="27d") == "done"


def test_throw_out_the_opponents_richest_thief():
    obs = _observation(steal=(["4d"], ["15n", "22n"]), loot={"15n": [0, 0, 0, 1, 0]})
    texts = ["discard 15n", "discard 22n"]
    assert crafted(obs, texts, decision="discard other", event="stealin") == "discard 15n"


def test_keep_the_higher_fighter():
    obs = _observation(fight=(["9d", "23d"], ["2n"]))
    texts = ["discard 9d", "discard 23d"]
    assert crafted(obs, texts, decision="discard own", event="fightin") == "discard 9d"


def test_kill_a_trilithon_card_for_its_bonus():
    obs = _observation(monsters=("30d",))
    texts = ["kill 30d", "kill T-green"]
    assert crafted(obs, texts, decision="kill", event="fightin", monsters=["30d", "T-green"]) == "kill T-green"


def test_name_the_wee_lawyer_that_hurts_the_opponent_most():
    # The opponent's blues are not their best colour: halving them costs most.
    obs = _observation(awards=([1, 1, 1, 1, 1], [0, 3, 0, 0, 5]), round=6)
    texts = [f"name {c}" for c in COLOURS]
    assert crafted(obs, texts, decision="name colour", event="stealin") == "name blue"


# -- whole games --------------------------------------------------------------------------------


def _play(agents: list[Any], seed: int) -> list[float]:
    """Plays a game, checking that every choice of the heuristic is legal; returns the returns."""
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    rngs = [random.Random(seed * 2 + s) for s in (0, 1)]
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            continue
        decision = make_decision(state, seat, rngs[seat], samples=False)
        if agents[seat] == "heuristic":
            action = fightin.choose(decision)
            assert action in decision.legal_actions
        else:
            action = decision.legal_actions[int(rngs[seat].random() * len(decision.legal_actions))]
        value = search.evaluate(state)
        assert all(0.0 <= v <= 1.0 for v in value) and abs(sum(value) - 1.0) < 1e-9
        state.apply_action(action)
    return state.returns()


def test_the_heuristic_plays_only_legal_actions_over_whole_games():
    for seed in range(6):
        _play(["heuristic", "heuristic"], seed)
        _play(["heuristic", "random"], seed)


def test_the_heuristic_beats_random():
    wins = 0.0
    for seed in range(20):
        seat = seed % 2
        agents = ["heuristic", "random"] if seat == 0 else ["random", "heuristic"]
        wins += _play(agents, 100 + seed)[seat]
    assert wins >= 16


def test_evaluate_ranks_a_winning_position_above_a_losing_one():
    ahead = position(hands=HANDS, round=6, awards=([3, 3, 3, 3, 3], [1, 0, 1, 0, 0]))
    behind = position(hands=HANDS, round=6, awards=([1, 0, 1, 0, 0], [3, 3, 3, 3, 3]))
    value_ahead, value_behind = search.evaluate(ahead), search.evaluate(behind)
    assert value_ahead[0] > 0.8 > 0.2 > value_behind[0]
    assert value_ahead[0] > value_ahead[1]
    assert all(0.0 <= v <= 1.0 for v in value_ahead + value_behind)


def test_evaluate_is_the_result_at_the_end():
    state = GAME.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        random_move(state, rng)
    assert search.evaluate(state) == state.returns()


def test_a_decision_depends_only_on_what_the_seat_knows():
    state = position(hands=(["29d", "27d", "5d", "7d", "8d"], HANDS[1]))
    other = state.resample_from_infostate(0, random.Random(9))
    assert other.observation(0) == state.observation(0)
    assert decide(other) == decide(state)


def test_a_remembered_answer_is_the_answer_worked_out_afresh():
    """``choose`` remembers its answers by what they depend on, and each ``_Table`` the score changes
    it has worked out: both give what working everything out afresh gives."""
    decisions = []
    for seed in range(4):
        state = GAME.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                random_move(state, rng)
                continue
            decision = make_decision(state, state.current_player(), random.Random(seed), samples=False)
            if len(decision.legal_actions) > 1:
                decisions.append(decision)
            state.apply_action(fightin.choose(decision))
    fightin._ANSWERS.clear()
    first = [fightin.choose(d) for d in decisions]
    assert first == [fightin.choose(d) for d in decisions] == [fightin._choose(d) for d in decisions]
    table = search.Reckoning(decisions[-1].observation)
    gains = [[0, 1, 0, 2, 0], [1, 0, 0, 0, 0]]
    wee = [1, None, 0, None, None]
    for args in ((gains,), (gains, wee), (gains, None, 0.5), (gains, wee, 0.25)):
        fresh = search.Reckoning(decisions[-1].observation)
        assert table.outcome(*args) == table.outcome(*args) == fresh.outcome(*args)
