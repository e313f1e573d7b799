"""First Druid's rule-based player and evaluation: rules of thumb on crafted positions, whole games, strength."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

import henge
from henge import box
from henge.agents import make_agent
from henge.agents.ismcts import sample_chance
from henge.core import State, make_decision
from henge.games.first_druid import bot as fd
from henge.games.first_druid import search

GAME = "first_druid"


def position(n: int = 3, **fields: Any) -> State:
    """Returns a crafted position: a turn of seat 0 on 1 night unless ``fields`` say otherwise."""
    game = henge.load(GAME, n)
    data = game.new_initial_state().to_json()
    state = data["state"]
    state.update(phase="turn", stage="turns", player=0, first=0, turn=0, draw_count=0, draw_seat=0)
    state["hands"] = [[] for _ in range(n)]
    state["knowledge"] = None  # a position given without its history: each seat knows its own hand
    state.update(fields)
    placed = {c for key in ("hands", "bids") for h in state[key] for c in h} | set(state["table"])
    number = state["neutral"] // 2 + 1
    colours = game.new_initial_state().colours
    if state["stage"] != "turns":
        pass  # during the refresh and the contest, the first player is the ended round's
    elif box.colour_index(number) in colours:  # FD8, G7: the first player is the day colour's seat
        state.setdefault("first", 0)
        if "first" not in fields:
            state["first"] = colours.index(box.colour_index(number))
    elif state["element"] is None:  # else an element card of the first player's colour lies out
        state["element"] = next(
            box.CARD_TEXT[c]
            for c in box.NUMBER_CARDS
            if box.CARD_COLOUR[c] == colours[state["first"]] and box.CARD_TEXT[c] not in placed
        )
    if "player" not in fields and state["phase"] == "turn":
        state["player"] = (state["first"] + state["turn"]) % n
    deck = [box.CARD_TEXT[c] for c in game.new_initial_state().deck]
    state["draw_pile"] = [t for t in deck if t not in placed]
    return game.state_from_json(data)


def choice(state: State, seed: int = 0) -> str:
    decision = make_decision(state, state.current_player(), random.Random(seed), samples=False)
    return decision.text(fd.choose(decision))


def follow(state: State, steps: int) -> list[str]:
    """Plays the heuristic's choices for ``steps`` decisions of the same seat; returns their texts."""
    done = []
    for _ in range(steps):
        text = choice(state)
        done.append(text)
        state.apply_text(text)
    return done


def test_advances_first_when_level_with_the_neutral_figure():
    state = position(hands=[["5n", "20d", "9n"], ["2d"], ["3d"]])
    assert follow(state, 2) == ["pick 5n", "advance"]  # the cheapest night card that reaches 1
    assert follow(state, 2) == ["pick 9n", "advance"]  # one space ahead is still worth a small card
    assert choice(state) == "end turn"  # 20d is a day card


def test_wins_a_clan_that_extends_its_own_run():
    state = position(druids=[5, 5, 5], bluestones=[1, 0, 0], hands=[["13d", "18n", "2n"], ["2d"], ["3d"]])
    assert follow(state, 3) == ["pick 18n", "pick 13d", "clan"]
    assert state.observation(0)["bluestones"] == [1, 0, 0, 0]


def test_converts_a_rivals_clan_that_ends_the_row():
    state = position(druids=[5, 5, 5], bluestones=[0, 0, 2], hands=[["4n", "5d", "6n"], ["2d"], ["3d"]])
    assert follow(state, 4) == ["pick 6n", "pick 5d", "pick 4n", "convert clan"]
    assert state.observation(0)["bluestones"] == [0, 0, 0]


def test_passes_to_draw_when_no_combination_is_worth_its_cards():
    state = position(druids=[5, 5, 5], neutral=1, hands=[["2n", "7n"], ["2d"], ["3d"]])
    assert choice(state) == "pass"


def test_bids_for_a_spirit_of_its_own_element():
    hands = [["20n", "9d", "3d", "T-blue"], ["2d"], ["3n"]]
    state = position(phase="bid", stage="contest", contest=1, neutral=2, hands=hands)
    assert follow(state, 3) == ["bid 20n", "bid 9d", "seal bid"]


def test_does_not_bid_on_a_rivals_element():
    hands = [["20n", "9d", "3d", "14n"], ["2d"], ["3n"]]
    state = position(phase="bid", stage="contest", contest=2, neutral=4, hands=hands)
    assert choice(state) == "pass"


def test_last_bidder_takes_an_unclaimed_spirit_cheaply():
    hands = [["5d"], ["2d"], ["4n", "22d", "9d"]]  # space 4 is yellow: nobody's element with three players
    state = position(phase="bid", stage="contest", contest=4, neutral=8, player=2, bidder=2, hands=hands)
    assert follow(state, 2) == ["bid 4n", "seal bid"]


def test_offers_a_rivals_trilithon_card_for_a_card_that_completes_a_clan():
    state = position(druids=[5, 5, 5], neutral=1, hands=[["20n", "T-blue"], ["2d", "7n"], ["3d"]])
    assert follow(state, 4) == ["offer seat 1", "give T-blue", "ask 11d", "send offer"]


def test_accepts_its_own_trilithon_card_and_never_gives_it_away():
    state = position(  # 2 night: the blue seat 1 plays, seat 0 answers
        hands=[["2d", "17n"], ["T-white", "9n"], ["3d"]],
        neutral=2,
        druids=[2, 2, 2],
        turn=0,
        offers=1,
        offer_to=0,
        give=["T-white"],
        ask=["2d"],
        phase="answer",
        player=0,
    )
    assert choice(state) == "accept"
    state = position(
        hands=[["T-white", "17n"], ["20d", "9n"], ["3d"]],
        neutral=2,
        druids=[2, 2, 2],
        offers=1,
        offer_to=0,
        give=["20d"],
        ask=["T-white"],
        phase="answer",
        player=0,
    )
    assert choice(state) == "decline"


def test_discards_its_least_useful_card():
    hand = ["T-white", "T-blue", "30d", "29n", "28d", "27n", "26d", "25n", "24d", "23n", "12d"]
    state = position(phase="discard", hands=[hand, ["2n"], ["3n"]])
    assert choice(state) == "discard T-blue"


def test_evaluate_ranks_a_winning_position_above_a_losing_one():
    spirits = [0] * 6 + [-1] * 24
    ahead = position(druids=[27, 20, 20], neutral=50, bluestones=[0, 0, 0, 1], spirits=spirits)
    values = search.evaluate(ahead)
    assert all(0.0 <= x <= 1.0 for x in values) and abs(sum(values) - 1.0) < 1e-9
    assert values[0] > 0.8 and values[0] > values[1]
    behind = position(druids=[20, 27, 20], neutral=50, bluestones=[1, 1, 1, 0], spirits=[1] * 6 + [-1] * 24)
    assert search.evaluate(behind)[0] < values[0]
    assert search.evaluate(behind)[1] > search.evaluate(behind)[0]


def _decisions(state: State, rng: random.Random, limit: int | None = None) -> Iterator[int]:
    """Yields the seat to act at each of ``state``'s first ``limit`` decisions (all of them without a limit).

    Chance outcomes are drawn with ``rng``; the caller applies the seat's action before the next is asked for.
    """
    count = 0
    while not state.is_terminal() and (limit is None or count < limit):
        seat = state.current_player()
        if seat < 0:
            state.apply_action(sample_chance(state, rng))
            continue
        yield seat
        count += 1


def _play(players: int, agents: list[Any], seed: int) -> State:
    state = henge.load(GAME, players).new_initial_state()
    rng = random.Random(seed)
    for seat in _decisions(state, rng):
        decision = make_decision(state, seat, random.Random(rng.random()), samples=False)
        action = agents[seat].choose(decision)
        assert action in decision.legal_actions
        state.apply_action(action)
    values = search.evaluate(state)
    assert values == state.returns()
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_only_legal_actions_over_whole_games(players):
    agents = [make_agent("heuristic") for _ in range(players)]
    _play(players, agents, seed=players)
    mixed = [make_agent("heuristic" if seat % 2 else "random") for seat in range(players)]
    _play(players, mixed, seed=10 + players)


def test_evaluate_stays_in_range_along_a_game():
    state = henge.load(GAME, 4).new_initial_state()
    agent = make_agent("heuristic")
    for steps, seat in enumerate(_decisions(state, random.Random(3), limit=400)):
        values = search.evaluate(state)
        assert len(values) == 4 and all(0.0 <= x <= 1.0 for x in values)
        state.apply_action(agent.choose(make_decision(state, seat, random.Random(steps), samples=False)))


def test_same_decision_whatever_the_hidden_cards():
    state = henge.load(GAME, 3).new_initial_state()
    agent = make_agent("heuristic")
    for checked, seat in enumerate(_decisions(state, random.Random(5), limit=150)):
        twin = state.resample_from_infostate(seat, random.Random(checked))
        a = agent.choose(make_decision(state, seat, random.Random(1), samples=False))
        b = agent.choose(make_decision(twin, seat, random.Random(1), samples=False))
        assert a == b
        state.apply_action(a)


def test_heuristic_beats_random():
    wins = 0.0
    for seed in range(6):
        names = ["heuristic" if seat == seed % 3 else "random" for seat in range(3)]
        state = _play(3, [make_agent(name) for name in names], seed=100 + seed)
        wins += state.returns()[seed % 3]
    assert wins >= 5


def test_narrator_tells_a_seat_only_what_it_saw_in_its_own_words():
    from henge.server.narrate import narrator

    narrate = narrator(GAME)
    state = henge.load(GAME, 3).new_initial_state()
    rng = random.Random(2)
    agent = make_agent("heuristic")
    before = state.observation(1)
    lines: list[str] = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(agent.choose(make_decision(state, seat, random.Random(len(lines)), samples=False)))
        after = state.observation(1)
        lines += narrate(before, after)
        before = after
    text = "\n".join(lines)
    assert "seat 1" not in text and "you play" in text and "you draw" in text
    assert "the neutral figure moves to 2 night" in text and "the game is over" in text


def _plain_best_plan(v: Any) -> Any:
    """The plan search without its shortcuts: every way of adding cards, every effect of each, in order."""

    def effects(numbers: list[int], phased: bool) -> list[tuple[str, float]]:
        found: list[tuple[str, float]] = []
        total, count = sum(numbers), len(numbers)
        if phased and total >= v.pos:
            found.append(("advance", fd._advance_worth(v)))
        summed = count >= 2 and total == 31
        pair = count == 2 and numbers[0] == numbers[1]
        if summed and v.disks > 0 and len(v.clans) < box.BLUESTONES:
            found.append(("clan", fd._run_before(v.clans, len(v.clans), v.me) + 1.3))
        if (summed or pair) and v.bars > 0:
            found.append(("dress altar", fd._altar_worth(v)))
        if pair and v.sections < 3 * box.TRILITHON_SPACES:
            found.append(("build", fd._build_worth(v)))
        ordered = sorted(numbers)
        run = count >= 3 and all(b == a + 1 for a, b in itertools.pairwise(ordered))
        if run and count == 3:
            if v.disks > 0 and v.clans and v.clans[-1] != v.me:
                found.append(("convert clan", fd._convert_clan_worth(v)))
            top = fd._top_spirit(v.spirits)
            if v.bars > 0 and top >= 0 and v.spirits[top] != v.me:
                found.append(("convert spirit", fd._convert_spirit_worth(v)))
        if run and count == 4 and v.disks > 0:
            for t, owner in enumerate(v.owners):
                if owner is not None and owner != v.me:
                    found.append((f"take over {t + 1}", 2.0))
        return found

    wild_card = box.TRILITHON_CARD_BASE
    base = [v.value_of(c) for c in v.table]
    base_phased = all(c >= wild_card or box.CARD_IS_DAY[c] == v.day for c in v.table)
    hand = sorted((c for c in v.hand if c < wild_card), key=lambda c: (-box.CARD_NUMBER[c], c))
    has_wild = v.wild in v.hand and v.wild not in v.table
    best = None
    for size in range(5):
        for cards in itertools.combinations(hand, size):
            nums = base + [box.CARD_NUMBER[c] for c in cards]
            phased = base_phased and all(box.CARD_IS_DAY[c] == v.day for c in cards)
            cost = sum(v.worth(c) for c in cards)
            for w in [None, *(fd._wild_numbers(v, nums) if has_wild else [])]:
                full = nums if w is None else [*nums, w]
                if not full:
                    continue
                for effect, worth in effects(full, phased):
                    net = worth - cost - (0.0 if w is None else 3.0)
                    if best is None or net > best[3] + 1e-9:
                        best = (cards, w, effect, net)
    return best


def test_the_plan_search_passes_over_only_ways_that_could_not_be_kept():
    """``best_plan`` skips the ways whose cost leaves no effect worth enough: it finds the very plan
    (cards, wild number, effect and net worth) that weighing every way of every size finds."""
    checked = 0
    for players, seed in ((3, 1), (5, 3)):
        state = henge.load(GAME, players).new_initial_state()
        agent = make_agent("heuristic")
        for step, seat in enumerate(_decisions(state, random.Random(seed))):
            decision = make_decision(state, seat, random.Random(step), samples=False)
            if decision.observation["phase"] == "turn" and decision.observation["offer"] is None:
                v = fd._View(decision.observation)
                for hand in (v.hand, v.hand[1:]):
                    v.hand = hand
                    plan = fd.best_plan(v)
                    found = None if plan is None else (plan.cards, plan.wild, plan.effect, plan.net)
                    assert found == _plain_best_plan(v)
                    checked += 1
            state.apply_action(agent.choose(decision))
    assert checked > 200
