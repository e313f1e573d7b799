"""Druid Olympics: a rule-based player.

The player races: it moves with the card that brings its runner furthest
along (measured in the turns still needed to reach the altar, so a turn lost
on a block counts against a move and a rival block still ahead counts as the
turns it will cost), pays extra cards on the coloured ring when they carry it
past the bars in its way, enters the horseshoe at the end with fewer blocks,
and in the horseshoe plays the fewest cards that reach the most stones,
keeping its high cards. A player that cannot move lays a block with its cards
to draw afresh (a full hand draws nothing). In the blocking round it blocks the runners
most likely to win: a bar or disk just ahead of them (its own never stop
itself, so it may lie ahead of it too), a trilithon only where it lies behind
its own runner, a bluestone trilithon only against a rival about to win. It
never pays a block with the card it means to move with.

It knows the course as a player does: the geometry, the block placements
and how a runner moves come from :mod:`henge.games.druid_olympics.board`, a
public fact of the board. It reads only its observation, and measures runners
with the turns they still need, as the evaluation of
:mod:`henge.games.druid_olympics.search` does.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import cython

from henge import box
from henge.core import Decision
from henge.games.druid_olympics import board
from henge.games.druid_olympics.board import ENDS, NEED_ALL, PATHS, PIECES, SPACES, TARGETS
from henge.games.druid_olympics.search import MEAN_CARD, POINTS_PER_MOVE, moves_left, odds, path_ahead, points_ahead

GAMES = ("druid_olympics",)
"""The games whose rules this player was written for."""
OPTIONS: tuple[str, ...] = ("horseshoe_sum",)
"""The options it understands: the horseshoe's card sum is read from the observation (``horseshoe_sum``)."""

cython.declare(BLUESTONE=cython.int, COLOURED=cython.int, EMPTY=cython.int, HORSESHOE=cython.int)
cython.declare(INNER=cython.int, NUMBERED=cython.int, TRILITHON=cython.int, _TRI_CARD=cython.int)
BLUESTONE, COLOURED, EMPTY = board.BLUESTONE, board.COLOURED, board.EMPTY
HORSESHOE, INNER, NUMBERED, TRILITHON = board.HORSESHOE, board.INNER, board.NUMBERED, board.TRILITHON

_TRI_CARD = box.TRILITHON_CARD_BASE
_NUMBER = box.CARD_NUMBER
_COLOUR = box.CARD_COLOUR
_CARD = {text: card for card, text in enumerate(box.CARD_TEXT)}
_COLOURS = box.PLAYER_COLOURS


def _cover(obs: dict[str, Any]) -> list[int]:
    """Returns the course's block list (``board.py``) from the observation's blocks."""
    cover = [EMPTY] * SPACES
    for block in obs["blocks"]:
        piece = block["piece"]
        code = block["owner"] if block["owner"] is not None else TRILITHON + _COLOURS.index(piece.split()[1])
        cover[board.parse_space(block["space"])] = code
    return cover


# --- the rule-based player ---------------------------------------------------------------------


_OBSTACLE = {(False, False): 0.8, (False, True): 1.8, (True, False): 0.1, (True, True): 0.6}
"""Turns a rival block ahead on the rings costs, by (numbered or inner ring, trilithon).

On the coloured ring a bar is passed only with an extra card of the destination
colour, so it mostly costs the lost turn of ending on it: counted at 0.8 (a
trilithon 1.8), ending on the block nearest ahead, which must be crossed anyway,
scores no worse than staying put (a move gains at least one space, 1/4.5 of a
move). On the numbered and inner rings a bar costs one step, a trilithon its
span and two steps (cards too short end on it).
"""


@cython.cclass
class _View:
    """What the player reads from its observation, in course terms (its fields are C fields when compiled)."""

    obs = cython.declare(dict, visibility="public")
    seat = cython.declare(cython.int, visibility="public")
    cover = cython.declare(list, visibility="public")
    ends = cython.declare(list, visibility="public")
    progress = cython.declare(list, visibility="public")
    hand = cython.declare(list, visibility="public")
    table = cython.declare(list, visibility="public")
    point_sum = cython.declare(object, visibility="public")
    obstacles = cython.declare(list, visibility="public")
    best_moves = cython.declare(dict, visibility="public")
    ahead = cython.declare(dict, visibility="public")
    vacated = cython.declare(dict, visibility="public")
    left = cython.declare(dict, visibility="public")
    entry = cython.declare(object, visibility="public")

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.seat = obs["seat"]
        self.cover = _cover(obs)
        self.ends = [int(r["entered_at"].split()[1]) if r["entered_at"] else None for r in obs["runners"]]
        self.progress = [r["progress"] for r in obs["runners"]]
        self.hand = [_CARD[t] for t in obs["hand"]]
        self.table = [_CARD[t] for t in obs["table"]]
        self.point_sum = obs.get("horseshoe_sum", board.POINT_SUM)  # named only where not D4's 10
        self.obstacles = self._obstacles()
        self.best_moves = {}
        """``_best_ring_move`` by hand: a blocking decision prices many payments with the same few hands."""
        self.ahead = {}
        """``points_ahead`` on this cover by seat, for a runner short of the horseshoe (where on the
        rings it stands does not matter): a move's score asks it of every card."""
        self.vacated = {}
        """By piece (bar or disk): the rivals' delay the player's own piece stops costing when it moves."""
        self.left = {}
        """``moves_left`` by seat and progress, for a runner whose hand is not counted (a move's score asks
        it of the same start for every card and payment)."""
        self.entry = None
        """``_best_end``, once asked: the horseshoe end the player would enter at on this cover."""

    @cython.locals(seat=cython.int, space=cython.int, code=cython.int, trilithon=cython.bint, cover=list, found=list)
    def _obstacles(self) -> list[tuple[int, float]]:
        """Returns the first space of each rival block on the rings (a trilithon once per ring) and its cost."""
        found = []
        cover = self.cover
        seat = self.seat
        for space in range(HORSESHOE):
            code = cover[space]
            if code == EMPTY or code == seat:  # no extra cost (board.extra_cost)
                continue
            trilithon = code >= TRILITHON
            if trilithon and space != COLOURED and space != NUMBERED and cover[space - 1] == code:
                continue  # the same trilithon's earlier space counts it
            found.append((space, _OBSTACLE[space >= NUMBERED, trilithon]))
        return found

    @cython.locals(progress=cython.int)
    def obstacles_ahead(self, progress: int) -> float:
        """Returns the turns the rival blocks ahead of ``progress`` on the rings cost the player."""
        return sum([cost for space, cost in self.obstacles if space > progress])

    def moves_left(self, seat: int, progress: int, hand: list[int] | None, cover: list[int] | None = None) -> float:
        key = None
        if hand is None and cover is None:
            key = (seat, progress)
            known = self.left.get(key)
            if known is not None:
                return known
        if cover is None and progress < HORSESHOE:
            ahead = self.ahead.get(seat)
            if ahead is None:
                ahead = self.ahead[seat] = points_ahead(self.cover, seat, progress, self.ends[seat])
        else:
            cover = self.cover if cover is None else cover
            ahead = points_ahead(cover, seat, progress, self.ends[seat])
        left = moves_left(progress, ahead, hand, self.point_sum)
        if key is not None:
            self.left[key] = left
        return left

    def chances(self) -> list[float]:
        times = []
        for r in self.obs["runners"]:
            seat = r["seat"]
            hand = self.hand if seat == self.seat else None
            times.append(self.moves_left(seat, r["progress"], hand) + r["lost_turns"] + (1 if r["skipping"] else 0))
        return odds(times)


def choose(decision: Decision) -> int:
    """Returns the rule-based player's action."""
    obs = decision.observation
    view = _View(obs)
    phase = obs["phase"]
    actions = decision.by_text()
    if phase == "block":
        text = _choose_block(view, actions)
    elif phase == "block cards":
        text = _choose_payment(view, actions)
    elif phase == "move":
        text = _choose_move(view, actions)
    elif phase == "pay":
        text = _choose_pay(view, actions)
    else:
        text = _choose_end(view, actions)
    return actions[text]


# Moving.


@cython.locals(view=_View, card=cython.int, paid=cython.int, seat=cython.int, start=cython.int, after=cython.int)
@cython.locals(cover=list)
def _after_move(view: _View, card: int, paid: int) -> tuple[int, int]:
    """Returns the progress after moving with ``card`` on the rings (paying ``paid`` extra cards), and turns lost."""
    seat, cover = view.seat, view.cover
    start = view.progress[seat]
    if start < NUMBERED - 1:
        after = board.coloured_move(cover, seat, start, _COLOUR[card], paid)
    else:
        end = view.ends[seat] or _best_end(view)
        after = board.ring_walk(cover, seat, start, _NUMBER[card], end)
    if after == start:
        return after, 0
    return after, board.lost_turns(cover[after], False, seat) if after < HORSESHOE else 0


@cython.locals(view=_View)
def _move_score(view: _View, card: int, paid: int = 0) -> float:
    seat = view.seat
    start = view.progress[seat]
    after, lost = _after_move(view, card, paid)
    gain = view.moves_left(seat, start, None) - view.moves_left(seat, after, None)
    return gain + view.obstacles_ahead(start) - view.obstacles_ahead(after) - lost


@cython.locals(view=_View, card=cython.int, colour=cython.int, count=cython.int, c=cython.int)
def _payable(view: _View, card: int) -> int:
    """Returns how many extra cards of ``card``'s colour the hand can pay besides it."""
    colour = _COLOUR[card]
    count = 0
    for c in view.hand:
        if c != card and c < _TRI_CARD and _COLOUR[c] == colour:
            count += 1
    return count


@cython.locals(view=_View, card=cython.int, paid=cython.int, paid_max=cython.int, coloured=cython.bint, cards=list)
def _best_ring_move(view: _View, hand: list[int]) -> tuple[float, int | None]:
    """Returns the best move's score and card (None: staying put is best)."""
    key = tuple(hand)
    known = view.best_moves.get(key)
    if known is not None:
        return known
    best: tuple[float, int | None] = (0.0, None)
    coloured = view.progress[view.seat] < NUMBERED - 1
    cards = [c for c in hand if c < _TRI_CARD]
    cards.sort()
    for card in cards:
        paid_max = _payable(view, card) if coloured else 0
        score = _move_score(view, card, 0)
        for paid in range(1, paid_max + 1):  # the first best, as max() takes it
            paying = _move_score(view, card, paid)
            if paying > score:
                score = paying
        if score > best[0] + 1e-9:
            best = (score, card)
    view.best_moves[key] = best
    return best


def _horseshoe_play(view: _View) -> list[int]:
    """Returns the cards to add to the table: those that reach the most stones, keeping the high cards.

    A card kept is worth its number less an average fresh draw, so low cards
    that bring nothing are played anyway, to draw better ones.
    """
    seat = view.seat
    end = view.ends[seat]
    assert end
    start = view.progress[seat]
    numbers = [c for c in view.hand if c < _TRI_CARD]
    laid = sum(_NUMBER[c] for c in view.table)
    best_key: tuple[int, float, int] | None = None
    best: list[int] = []
    for size in range(len(numbers) + 1):
        for subset in combinations(numbers, size):
            total = laid + sum(_NUMBER[c] for c in subset)
            reach = board.horseshoe_walk(view.cover, seat, end, start, total // view.point_sum)
            kept = sum(_NUMBER[c] - MEAN_CARD for c in numbers if c not in subset)
            key = (reach, kept, -size)
            if best_key is None or key > best_key:
                best_key, best = key, list(subset)
    return best


def _choose_move(view: _View, actions: dict[str, int]) -> str:
    seat = view.seat
    stay = "done" if "done" in actions else "pass"
    if view.progress[seat] >= HORSESHOE:
        play = _horseshoe_play(view)
        return f"move {box.CARD_TEXT[play[0]]}" if play else stay
    _, card = _best_ring_move(view, view.hand)
    return stay if card is None else f"move {box.CARD_TEXT[card]}"


def _choose_pay(view: _View, actions: dict[str, int]) -> str:
    card = view.table[0]
    paid = len(view.table) - 1
    payable = [t for t in actions if t.startswith("pay ")]
    best = max(range(paid, paid + len(payable) + 1), key=lambda k: (_move_score(view, card, k), -k))
    return payable[0] if best > paid and payable else "done"


def _best_end(view: _View) -> int:
    if view.entry is None:  # the same on the view's cover every time it is asked
        view.entry = min(ENDS, key=lambda e: (path_ahead(view.cover, view.seat, e), e))
    return view.entry


def _choose_end(view: _View, actions: dict[str, int]) -> str:
    return f"enter stone {_best_end(view)}"


# Blocking.

_BLOCK_THRESHOLD = 0.06
"""A block must be worth this much (in rivals' winning chances delayed, in turns) to be worth its cards."""


@cython.locals(view=_View, seat=cython.int, trilithon=cython.bint, at=cython.int, spaces=tuple)
@cython.locals(k=cython.int, stone=cython.int)
@cython.locals(progress=cython.int, cost=cython.double, space=cython.int, distance=cython.int)
@cython.locals(delay=cython.double, near=cython.double, weight=cython.double)
def _delay(view: _View, seat: int, target: board.Target) -> float:
    """Returns about how many turns a block on ``target``'s spaces costs the runner of ``seat``."""
    trilithon = target.piece >= TRILITHON
    if seat == view.seat and not trilithon:
        return 0.0
    at = view.progress[seat]
    spaces = target.spaces
    if spaces[0] >= HORSESHOE:  # bluestones (space ids 120..138)
        entered = view.ends[seat]
        ends = [entered] if entered else list(ENDS)
        if at < INNER + 30:
            return 0.0
        costs = []
        for end in ends:
            cost = 0.0
            for k, stone in enumerate(PATHS[end]):
                progress = HORSESHOE + k
                if BLUESTONE + stone in spaces and progress > at:
                    cost += (2.0 / POINTS_PER_MOVE) if trilithon else 0.45
            costs.append(cost)
        cost = costs[0]
        if len(costs) > 1 and costs[1] < cost:  # min(costs)
            cost = costs[1]
        return cost * (1.0 if view.ends[seat] else 0.6)
    if at >= HORSESHOE:
        return 0.0
    delay = 0.0
    for space in spaces:
        distance = space - at
        if distance <= 0:
            continue
        if space < NUMBERED and at < NUMBERED - 1:  # the coloured ring: an extra card of that colour
            near = 1.0 if distance <= 6 else 0.4 if distance <= 12 else 0.15
            delay = max(delay, near * (0.9 if trilithon else 0.5))
        elif space >= NUMBERED:
            near = 1.0 if distance <= 30 else 0.4 if distance <= 60 else 0.1
            weight = (0.55 if len(spaces) == 4 else 0.25) if trilithon else 0.12
            delay = max(delay, near * weight)
    return delay


_OWN_WEIGHT_FLOOR = 0.15
_FREED_SLOT = 0.4
"""Turns a hand gains when a trilithon card, which never moves a runner, leaves it for a fresh draw."""
_REFRESH = 0.5
"""Turns a stuck hand gains for each card a block takes from it: a full hand draws nothing, so a
player who cannot move would otherwise hold the same cards, and stay put, turn after turn."""


def _own_weight(chances: list[float], seat: int) -> float:
    """Returns how much a turn of the player's own runner weighs against its rivals' (their chances)."""
    return chances[seat] + _OWN_WEIGHT_FLOOR


@cython.locals(view=_View, value=cython.double, mine=cython.double, seat=cython.int, own=cython.int, piece=cython.int)
def _block_value(view: _View, target: board.Target, chances: list[float], stuck: bool) -> float:
    value = 0.0
    own = view.seat
    for seat in range(len(view.progress)):
        if seat != own:
            value += chances[seat] * _delay(view, seat, target)
    mine = _own_weight(chances, own)
    value -= mine * _delay(view, own, target)
    piece = target.piece
    if piece < TRILITHON:  # the bar or disk leaves its old place
        freed = view.vacated.get(piece)
        if freed is None:
            freed = 0.0
            old = view.obs["runners"][own][PIECES[piece]]
            if old is not None:
                vacated = TARGETS[board.parse_space(old)]  # a bar's or disk's target index is its space's
                freed = sum([chances[s] * _delay(view, s, vacated) for s in range(len(view.progress)) if s != own])
            view.vacated[piece] = freed
        value -= freed
    elif target.need == NEED_ALL:  # a bluestone trilithon: no move this turn
        value -= 0.0 if stuck else mine * 1.0
    else:  # a trilithon card cannot move a runner: laying it frees its place in the hand
        value += mine * _FREED_SLOT
    return value


@cython.locals(view=_View)
def _keep_card(view: _View) -> int | None:
    """Returns the card the player means to move with (None: none in particular)."""
    if view.progress[view.seat] >= HORSESHOE:
        return None
    return _best_ring_move(view, view.hand)[1]


@cython.locals(view=_View)
def _stuck(view: _View, hand: list[int]) -> bool:
    """Returns whether the player cannot move with ``hand``: on the rings no move beats staying put,
    in the horseshoe all its cards together reach no stone."""
    seat = view.seat
    start = view.progress[seat]
    if start < HORSESHOE:
        return _best_ring_move(view, hand)[1] is None
    end = view.ends[seat]
    assert end
    points = sum(_NUMBER[c] for c in hand) // view.point_sum
    return board.horseshoe_walk(view.cover, seat, end, start, points) == start


@cython.locals(view=_View, cost=cython.double)
def _payment_cost(view: _View, cards: tuple[int, ...], keep: int | None, stuck: bool = False) -> float:
    """Returns what paying with ``cards`` costs the player's own race, in turns.

    A stuck player pays with its trilithon cards first: they never move a runner.
    """
    cost = 0.01 * len(cards)
    if stuck:
        cost += 0.02 * len([c for c in cards if c < _TRI_CARD])
    if keep is not None and keep in cards:
        rest = [c for c in view.hand if c not in cards]
        cost += _best_ring_move(view, view.hand)[0] - _best_ring_move(view, rest)[0]
    if view.progress[view.seat] >= INNER + 30:  # near or in the horseshoe, cards are points
        cost += sum([_NUMBER[c] for c in cards if c < _TRI_CARD]) / 10 / POINTS_PER_MOVE * 0.5
    return cost


@cython.locals(view=_View, mine=cython.double, best_value=cython.double, laid=cython.int, refresh=cython.double)
@cython.locals(net=cython.double, paying=cython.double, value=cython.double, k=cython.Py_ssize_t, payments=list)
def _choose_block(view: _View, actions: dict[str, int]) -> str:
    chances = view.chances()
    keep = _keep_card(view)
    stuck = _stuck(view, view.hand)
    mine = _own_weight(chances, view.seat)
    best, best_value = "pass", _BLOCK_THRESHOLD
    refresh = _REFRESH if stuck else 0.0
    for text in actions:
        if text == "pass":
            continue
        target = board.parse_target(text)
        hand = view.hand
        if target.piece >= TRILITHON:
            if _delay(view, view.seat, target) > 0:
                continue  # trilithons block their own layer too: never one in the own way
            hand = [c for c in hand if c != _TRI_CARD + target.colour]
        payments = board.completions(target, hand, [])
        if not payments:
            continue
        laid = 1 if target.piece >= TRILITHON else 0  # the trilithon card
        net = refresh * (laid + len(payments[0])) - _payment_cost(view, payments[0], keep, stuck)
        for k in range(1, len(payments)):  # the first best, as max() takes it
            paying = refresh * (laid + len(payments[k])) - _payment_cost(view, payments[k], keep, stuck)
            if paying > net:
                net = paying
        value = _block_value(view, target, chances, stuck) + net * mine
        if value > best_value:
            best, best_value = text, value
    return best


def _choose_payment(view: _View, actions: dict[str, int]) -> str:
    keep = _keep_card(view)
    stuck = _stuck(view, view.hand + view.table)
    target = board.parse_target(view.obs["target"])
    options = [p for p in board.completions(target, view.hand, view.table) if p]
    legal = {t for t in actions if t.startswith("use ")}
    options = [p for p in options if all(f"use {box.CARD_TEXT[c]}" in legal for c in p)]
    if not options:
        return sorted(legal)[0]
    best = min(options, key=lambda p: (_payment_cost(view, p, keep, stuck), sorted(p)))
    return f"use {box.CARD_TEXT[min(best)]}"
