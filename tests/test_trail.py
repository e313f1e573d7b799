"""The core trail of hidden events (henge.core.Trail): a state's own entries frozen into a
block its clones share, read back oldest first, counted, with a memo that is never pickled,
and a long chain pickled flat (no deep recursion)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import henge
from henge.core import Trail, freeze_trail, trail_entries


class Keeper:
    """The least a state keeps of a trail."""

    def __init__(self) -> None:
        self.trail: Trail | None = None
        self.trail_tail: list[Any] = []


def test_a_freeze_makes_a_block_both_share_and_each_goes_on_with_its_own():
    state = Keeper()
    assert freeze_trail(state) is None  # nothing yet: no block
    state.trail_tail += [(0, 1), (1, -1)]
    head = freeze_trail(state, lambda entries: sum(1 for e in entries if e[1] >= 0))
    assert head is state.trail and not state.trail_tail
    assert freeze_trail(state) is head  # nothing new: the same block
    copy = Keeper()
    copy.trail = head
    state.trail_tail.append((2, 5))
    copy.trail_tail.append((3, 6))
    assert trail_entries(freeze_trail(state)) == [(0, 1), (1, -1), (2, 5)]
    assert trail_entries(copy.trail, copy.trail_tail) == [(0, 1), (1, -1), (3, 6)]
    assert head.length == 2 and head.count == 1
    assert state.trail is not None and state.trail.parent is head and state.trail.length == 3


def test_a_long_trail_pickles_flat_without_its_memo():
    state = Keeper()
    for i in range(20_000):  # a block per entry: far past the recursion limit if pickled as a chain
        state.trail_tail.append((i,))
        freeze_trail(state, len)
    head = state.trail
    assert head is not None
    head.memo = {0: "derived"}
    again = pickle.loads(pickle.dumps(head))
    assert again.parent is None and again.memo is None
    assert trail_entries(again) == trail_entries(head) and again.length == again.count == 20_000


def test_a_druid_olympics_state_pickles_with_its_trail_and_resamples_alike():
    game = henge.load("druid_olympics", 3)
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal() and state.move_number() < 150:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        if state.move_number() % 9 == 0:
            state = state.clone()
    again = pickle.loads(pickle.dumps(state))
    assert again.trail_tail is not None
    for seat in range(3):
        expected = state.resample_from_infostate(seat, random.Random(seat)).to_json()
        assert again.resample_from_infostate(seat, random.Random(seat)).to_json() == expected
