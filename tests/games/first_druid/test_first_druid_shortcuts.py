"""First Druid's kept work against the plain computation: the legal actions an action hands
over or a state keeps (offers, picks, what the board allows each seat), the packed views of
who may hold which card, the trail a clone shares with its original, and what a seat's
resampling plan keeps."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from positions import random_walk

import henge
from henge import records
from henge.core import trail_entries
from henge.games.first_druid import combinations, knowledge, scoring
from henge.games.first_druid import trail as trail_of
from henge.games.first_druid.rules import FirstDruidState

GAME = "first_druid"


def random_states(n: int, seed: int) -> Iterator[FirstDruidState]:
    """Yields the state of a seeded random game of ``n`` seats at every step (see random_walk)."""
    for state in random_walk(GAME, n, seed):
        assert isinstance(state, FirstDruidState)
        yield state


def plain_legal_actions(state: FirstDruidState) -> list[int]:
    """Returns the legal actions worked out afresh: a clone with nothing handed over or kept."""
    fresh = state.clone()
    assert isinstance(fresh, FirstDruidState)
    fresh._legal = None
    fresh.offering = ()
    fresh.opening = None
    fresh.picked = None
    fresh.allowed = [-1] * fresh.n
    return fresh.legal_actions()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_legal_actions_handed_over_or_kept_are_the_plain_ones(n):
    decisions = kept = 0
    for state in random_states(n, seed=n):
        for seat in range(n):  # what the board allows each seat, kept until a piece moves
            assert combinations._allowed(state, seat) == combinations._work_out_allowed(state, seat)
        if state.current_player() < 0:
            continue
        decisions += 1
        kept += state._legal is not None  # handed over by the action before
        assert state.legal_actions() == plain_legal_actions(state)
    assert decisions > 200 and kept > 50


# --- the views, packed and as a plain list of masks ---------------------------------------------


def _column(views: list[int], n: int, place: int) -> range:
    return range(place, len(views), n + 1)


def _plain_clear_empty(state: FirstDruidState, views: list[int], seat: int) -> None:
    if not state.hands[seat] and not state.bids[seat]:
        for i in _column(views, state.n, seat):
            views[i] = 0


def _plain_draw(state: FirstDruidState, views: list[int], seat: int, card: int) -> None:
    n = state.n
    base = seat * (n + 1)
    for i in range(base, base + n + 1):
        views[i] &= ~(1 << card)
    own = views[base + seat] | 1 << card
    for i in _column(views, n, seat):
        views[i] |= views[i - seat + n]
    views[base + seat] = own
    if not state.draw:
        for i in _column(views, n, n):
            views[i] = 0


def _plain_turned(state: FirstDruidState, views: list[int], card: int) -> None:
    views[:] = [m & ~(1 << card) for m in views]
    if not state.draw:
        for i in _column(views, state.n, state.n):
            views[i] = 0


def _plain_drain(state: FirstDruidState, views: list[int], taker: int, victim: int, card: int) -> None:
    n = state.n
    places = n + 1
    seeing = {taker, victim, knowledge.layout(n)[1][(taker, victim)]}
    for o in range(knowledge.view_count(n)):
        base = o * places
        if o in seeing:
            for p in range(places):
                views[base + p] &= ~(1 << card)
            views[base + taker] |= 1 << card
        else:
            views[base + taker] |= views[base + victim]
    _plain_clear_empty(state, views, victim)


def _plain_gone(state: FirstDruidState, views: list[int], seat: int, card: int, *, clear: bool = True) -> None:
    views[:] = [m & ~(1 << card) for m in views]
    if clear:
        _plain_clear_empty(state, views, seat)


def _plain_shown(state: FirstDruidState, views: list[int], card: int, seat: int) -> None:
    views[:] = [m & ~(1 << card) for m in views]
    for i in _column(views, state.n, seat):
        views[i] |= 1 << card


def _plain_offer(state: FirstDruidState, views: list[int], a: int, give: list[int], ask: list[int]) -> None:
    for c in give:
        _plain_shown(state, views, c, a)
    for c in ask:
        for i in _column(views, state.n, a):
            views[i] &= ~(1 << c)


def _plain_trade(state: FirstDruidState, views: list[int], a: int, b: int, give: list[int], ask: list[int]) -> None:
    for c in give:
        _plain_shown(state, views, c, b)
    for c in ask:
        _plain_shown(state, views, c, a)


def _plain_refill(state: FirstDruidState, views: list[int]) -> None:
    pile = 0
    for c in state.draw:
        pile |= 1 << c
    for i in _column(views, state.n, state.n):
        views[i] = pile


def _plain_bids_shown(state: FirstDruidState, views: list[int], bids: tuple[tuple[int, ...], ...]) -> None:
    for bid in bids:
        for c in bid:
            views[:] = [m & ~(1 << c) for m in views]
    for seat in range(state.n):
        _plain_clear_empty(state, views, seat)


PLAIN: dict[str, Callable[..., None]] = {
    "note_draw": _plain_draw,
    "note_turned": _plain_turned,
    "note_drain": _plain_drain,
    "note_gone": _plain_gone,
    "note_offer": _plain_offer,
    "note_trade": _plain_trade,
    "note_refill": _plain_refill,
}


@pytest.mark.parametrize("n", [3, 5])
def test_the_packed_views_change_as_a_list_of_masks_would(n, monkeypatch):
    seen: dict[str, int] = {}

    def checked(name: str, packed: Callable[..., None], plain: Callable[..., None]) -> Callable[..., None]:
        def run(state: FirstDruidState, *args: Any, **kwargs: Any) -> None:
            expected = knowledge.unpack(state.n, state.views)
            plain(state, expected, *args, **kwargs)
            packed(state, *args, **kwargs)
            assert knowledge.unpack(state.n, state.views) == expected, name
            assert knowledge.pack(expected) == state.views
            seen[name] = seen.get(name, 0) + 1

        return run

    for name, plain in PLAIN.items():
        monkeypatch.setattr(knowledge, name, checked(name, getattr(knowledge, name), plain))
    monkeypatch.setattr(scoring, "note_bids_shown", checked("bids", scoring.note_bids_shown, _plain_bids_shown))
    for seed in range(3):
        for _ in random_states(n, seed):
            pass
    assert {"note_draw", "note_turned", "note_gone", "note_offer", "note_refill", "bids"} <= set(seen)


@pytest.mark.parametrize("n", [3, 5])
def test_a_views_row_and_its_lone_places_are_those_of_the_unpacked_views(n):
    """The observation reads only the views it needs, one row at a time, and finds the cards
    each view places in one place only in one pass."""
    count = knowledge.view_count(n)
    places = n + 1
    rows = alone = 0
    for step, state in enumerate(random_states(n, seed=n)):
        if step % 11:
            continue
        views = knowledge.unpack(n, state.views)
        for view in range(count):
            row = knowledge.view_row(state.views, view, places)
            assert row == views[view * places : (view + 1) * places]
            lone = knowledge.only_in_each(row)
            assert lone == [knowledge.only_in(row, place) for place in range(places)]
            rows += 1
            alone += any(lone)
    assert rows > 30 * count and alone > rows // 2


# --- the trail -------------------------------------------------------------------------------------


def trail(state: FirstDruidState) -> list[trail_of.Entry]:
    return trail_entries(trail_of.freeze(state))


def replayed(state: FirstDruidState) -> FirstDruidState:
    again = state.game.new_initial_state()
    assert isinstance(again, FirstDruidState)
    for action in state.history():
        again.apply_action(action)
    return again


def test_a_clone_shares_the_trail_so_far_and_each_goes_on_with_its_own():
    rng = random.Random(11)
    for step, state in enumerate(random_states(4, seed=11)):
        if step == 300:
            original = state.clone()
            break
    assert isinstance(original, FirstDruidState) and not original.is_terminal()
    copy = original.clone()
    assert isinstance(copy, FirstDruidState)
    assert copy.trail is original.trail and not copy.trail_tail and not original.trail_tail
    for _ in range(40):
        for state in (original, copy):
            if not state.is_terminal():
                legal = state.legal_actions() or [a for a, _ in state.chance_outcomes()]
                state.apply_action(legal[rng.randrange(len(legal))])
    assert original.history() != copy.history()
    for state in (original, copy):
        assert trail(state) == trail(replayed(state))
        again = pickle.loads(pickle.dumps(state))
        assert trail(again) == trail(state)


# --- resampling: what a seat's plan keeps -------------------------------------------------------


def _late_positions(n: int, seed: int) -> Iterator[FirstDruidState]:
    """Yields positions a third, two thirds and nine tenths into a seeded game of rule-based
    players (many drains, trades and refills behind them)."""
    game = henge.load(GAME, n)
    moves = records.play(game, ["heuristic"] * n, seed=seed)["actions"]
    for share in (0.33, 0.66, 0.9):
        state = game.new_initial_state()
        for action in moves[: int(len(moves) * share)]:
            state.apply_action(action)
        assert isinstance(state, FirstDruidState)
        yield state


@pytest.mark.parametrize("n", [4, 5])
def test_resampling_with_a_kept_plan_draws_what_a_fresh_plan_draws(n):
    """A seat's plan keeps answers for the walk (what a seat owes of each deck for the tokens it
    holds, the decks a taker needs and a victim can spare, the deck a shown card came from): a
    search drawing many samples at one position draws exactly what it would with none kept."""
    draws = 0
    for seed in range(2):
        for state in _late_positions(n, seed):
            for seat in range(n):
                kept = random.Random(seat)
                fresh = random.Random(seat)
                for _ in range(4):
                    with_kept = state.resample_from_infostate(seat, kept).history()
                    trail = trail_of.freeze(state)
                    assert trail is not None
                    plans = trail.memo
                    trail.memo = None  # made again, with nothing kept
                    assert state.resample_from_infostate(seat, fresh).history() == with_kept
                    trail.memo = plans
                    draws += 1
    assert draws == 2 * 3 * n * 4
