"""Druid Olympics' quick ways against the plain computation: the block placements a hand can pay
for (set operations on tables made once) against a reading of D8 target by target, the covered
spaces a state keeps as it plays, the cards that can pay for a block, the payment a coloured
move asks for, a ring walk over an open stretch, and the runners' texts."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from positions import random_walk

import henge
from henge import box
from henge.games.druid_olympics import board, placements
from henge.games.druid_olympics.board import EMPTY, TARGETS, TRILITHON
from henge.games.druid_olympics.rules import _PLACEMENTS, _TARGET, DruidOlympicsState

GAME = "druid_olympics"


def random_states(n: int, seed: int) -> Iterator[DruidOlympicsState]:
    """Yields the state of a seeded random game of ``n`` seats at every step (see random_walk)."""
    for state in random_walk(GAME, n, seed):
        assert isinstance(state, DruidOlympicsState)
        yield state


def plain_targets(hand: list[int], cover: list[int], seat: int) -> list[int]:
    """Returns the placements ``seat`` can pay for with ``hand`` and that are open to it, target by
    target (D8): the cards pay for it (a trilithon's own card laid first, a three-bluestone one
    with both other cards), and every space under it is empty or holds that same piece."""
    found = []
    for index, target in enumerate(TARGETS):
        if target.colour >= 0:
            card = box.TRILITHON_CARD_BASE + target.colour
            if card not in hand or (target.need == board.NEED_ALL and len(hand) < 3):
                continue
            rest = [c for c in hand if c != card]
            paid = bool(board.completions(target, rest, [card]))
            same = TRILITHON + target.colour
        else:
            paid = bool(board.completions(target, hand, []))
            same = seat
        if paid and all(cover[space] in (EMPTY, same) for space in target.spaces):
            found.append(_TARGET + index)
    return found


def random_board(rng: random.Random, n: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Returns a block list with trilithons, bars and disks placed at random, and where they lie."""
    cover = [EMPTY] * board.SPACES
    bars, disks, trilithons = [-1] * n, [-1] * n, [-1] * 5
    for colour in range(5):
        if rng.random() < 0.6:
            index = rng.choice([i for i, t in enumerate(TARGETS) if t.colour == colour])
            if all(cover[s] == EMPTY for s in TARGETS[index].spaces):
                trilithons[colour] = index
                for space in TARGETS[index].spaces:
                    cover[space] = TRILITHON + colour
    for seat in range(n):
        for held, low, high in ((bars, 0, board.INNER), (disks, board.INNER, board.SPACES)):
            space = rng.randrange(low, high)
            if rng.random() < 0.8 and cover[space] == EMPTY:
                held[seat] = space
                cover[space] = seat
    return cover, bars, disks, trilithons


def random_hand(rng: random.Random) -> list[int]:
    """Returns up to three cards, often with a trilithon card, in no particular order."""
    pool = list(range(box.DECK_SIZE)) if rng.random() < 0.5 else rng.sample(range(60), 6) + list(range(60, 65))
    return rng.sample(pool, rng.randint(0, 3))


def test_block_targets_are_the_placements_D8_allows_one_by_one():
    rng = random.Random(7)
    trilithon_hands = 0
    for _ in range(1500):
        n = rng.randint(3, 5)
        cover, bars, disks, trilithons = random_board(rng, n)
        covered = placements.covered_spaces(cover)
        for seat in range(n):
            hand = random_hand(rng)
            trilithon_hands += any(c >= box.TRILITHON_CARD_BASE for c in hand)
            expected = plain_targets(hand, cover, seat)
            assert _PLACEMENTS.targets(hand, covered, (bars[seat], disks[seat]), trilithons) == expected
    assert trilithon_hands > 1000


@pytest.mark.parametrize("n", [3, 5])
def test_blocking_decisions_list_the_placements_D8_allows(n):
    blocks = 0
    for state in random_states(n, seed=n):
        assert state.covered == placements.covered_spaces(state.cover)  # kept as pieces move
        if state.phase == 2:  # BLOCK
            blocks += 1
            seat = state.player
            expected = [0, *plain_targets(state.hands[seat], state.cover, seat)]  # pass, then the places
            assert state.legal_actions() == expected
    assert blocks > 100


def test_covered_spaces_survive_a_clone_and_a_json_round_trip():
    game = henge.load(GAME, 4)
    checked = 0
    for state in random_states(4, seed=11):
        if state.move_number() % 37 == 0 and any(c != EMPTY for c in state.cover):
            checked += 1
            clone = state.clone()
            assert isinstance(clone, DruidOlympicsState)
            loaded = game.state_from_json(state.to_json())
            assert isinstance(loaded, DruidOlympicsState)
            assert clone.covered == loaded.covered == placements.covered_spaces(state.cover) != 0
    assert checked > 10


def test_paying_cards_are_the_cards_of_every_way_to_pay():
    rng = random.Random(3)
    for _ in range(20000):
        target = rng.choice(TARGETS)
        hand = random_hand(rng)
        table = [c for c in rng.sample(range(box.DECK_SIZE), rng.randint(0, 2)) if c not in hand]
        options = board.completions(target, hand, table)
        expected = None if options == [()] else sorted({c for option in options for c in option})
        assert board.paying_cards(target, hand, table) == expected


def test_coloured_need_sums_the_costs_of_the_coloured_way():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(3, 5)
        cover = random_board(rng, n)[0]
        for start in range(board.NUMBERED - 1):
            for colour in range(6):
                seat = rng.randrange(n)
                destination, way = board.coloured_way(cover, seat, start, colour)
                need = sum(board.extra_cost(cover[s], seat) for s in way)
                assert board.coloured_need(cover, seat, start, colour) == (destination, need)


def plain_ring_walk(cover: list[int], seat: int, start: int, steps: int, end: int) -> int:
    """``board.ring_walk`` one step at a time (D3, D5, D6): without the walk over an open stretch."""
    position, left = start, steps
    exempt = cover[start] if cover[start] >= TRILITHON else EMPTY
    while left > 0:
        ahead = position + 1
        if ahead == board.HORSESHOE:
            if not end:
                return board.NEED_END
            first = cover[board.BLUESTONE + board.PATHS[end][0]]
            return board.HORSESHOE if left >= (3 if first >= TRILITHON else 1) else position
        code = cover[ahead]
        if code != EMPTY and code == exempt:
            position, left = ahead, left - 1
            continue
        exempt = EMPTY
        extra = board.extra_cost(code, seat)
        if not extra:
            position, left = ahead, left - 1
            continue
        span = 1
        while code >= TRILITHON and ahead + span < board.HORSESHOE and cover[ahead + span] == code:
            span += 1
        beyond = ahead + span
        if beyond == board.HORSESHOE:
            if not end:
                return board.NEED_END if left >= span + extra + 1 else ahead
            first = cover[board.BLUESTONE + board.PATHS[end][0]]
            beyond_cost = 3 if first >= TRILITHON else 1
        else:
            beyond_cost = 1
        if left < span + extra + beyond_cost:
            return ahead
        position, left = beyond - 1, left - span - extra
    return position


def test_ring_walk_is_the_walk_step_by_step():
    rng = random.Random(9)
    clear = 0
    for _ in range(400):
        n = rng.randint(3, 5)
        cover = random_board(rng, n)[0] if rng.random() < 0.7 else [EMPTY] * board.SPACES
        for _ in range(20):
            start, steps = rng.randrange(board.NUMBERED - 1, board.HORSESHOE), rng.randint(1, 30)
            seat, end = rng.randrange(n), rng.choice((0, *board.ENDS))
            clear += cover[start + 1 : start + steps + 1].count(EMPTY) == steps
            walked = board.ring_walk(cover, seat, start, steps, end)
            assert walked == plain_ring_walk(cover, seat, start, steps, end)
    assert clear > 1000


def test_runner_texts_are_the_runner_text_of_every_progress():
    for end, texts in board.RUNNER_TEXTS.items():
        last = board.HORSESHOE if end == 0 else board.ALTAR + 1
        assert texts == tuple(board.runner_text(p, end) for p in range(last))
