"""Who knows which card in First Druid (G3, G6, FD2, FD13, FD15): views, observation, resampling.

**Views.** Every seat remembers all it saw (G6). A *view* keeps, for one pair of eyes and
for each place a hidden card can be in (a seat's holding, hand and face-down bid together;
the draw pile), the bitmask of the cards that may be there. There is a view per seat
(everything it saw), one for a spectator (public events only) and one per pair of seats
(public events and the drains between the two: what each knows the other saw). A view
changes only on events its eyes see:

* a card drawn: the drawer knows it; for everyone else, any card that may be in the pile
  may now be in the drawer's holding;
* a card drained (FD13): taker and victim know which; for everyone else, any card that may
  be in the victim's holding may now be in the taker's (G6: a card known in the victim's
  hand is then in the victim's or the taker's);
* a card shown (given in an offer, traded, played, discarded, bid and revealed, turned):
  everyone knows where it is; the cards an offer asks for are not in the offering hand;
* a holding or pile that everyone sees empty holds nothing (so a card known in a victim's
  one-card hand is certainly the taker's); a refilled pile holds the old discard pile.

**The trail.** Each applied action leaves an entry (what it was, with its cards), and so do
a few automatic events (the pile refilled, the bids revealed, a turn begun). A state appends
its entries to a list of its own (``trail_tail``); a clone first freezes that list into a
block chained to the blocks before (``trail``), which both then share, as they share the
record.

**Resampling** (see :func:`resample` and ``docs/games/first_druid.md``) rebuilds a legal
history in which the seat saw exactly what it saw, and replays it.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from henge import box
from henge.core import IllegalActionError, made, replayed_record
from henge.games.first_druid.actions import (
    ACCEPT,
    ASK,
    BID,
    DISCARD_PHASE,
    DRAIN,
    GIVE,
    HAND_LIMIT,
    MAX_OFFERS,
    OFFER,
    OVER,
    PHASE_NAMES,
    ROUND_CAP,
    SEND,
    STAGE_NAMES,
    TEXT,
    TURN,
    TURNS,
    WILD_BASE,
    WITHDRAW,
)

if TYPE_CHECKING:
    from henge.games.first_druid.rules import FirstDruidState

# --- views ---------------------------------------------------------------------------------
#
# The views are packed into one integer (immutable, so clones share it): place ``p`` of view
# ``o`` is the mask of the cards that may be there, at bits ``(o * (n + 1) + p) * DECK_SIZE``
# onwards. A card shown face up leaves every view and place in one ``&`` with a mask made
# once per seat count (a list of masks would take one operation per view and place).
# :func:`unpack` gives the list for the readers (observation, JSON).

_W = box.DECK_SIZE
"""Bits per place in the packed views: one per card."""
_FULL = (1 << _W) - 1

_LAYOUTS: dict[int, tuple[int, dict[tuple[int, int], int]]] = {}


def _layout(n: int) -> tuple[int, dict[tuple[int, int], int]]:
    """Returns the number of views (seats, the spectator, the pairs) and each pair's view."""
    cached = _LAYOUTS.get(n)
    if cached is None:
        pairs: dict[tuple[int, int], int] = {}
        k = n + 1
        for x in range(n):
            for y in range(x + 1, n):
                pairs[(x, y)] = pairs[(y, x)] = k
                k += 1
        cached = _LAYOUTS[n] = (k, pairs)
    return cached


class _Masks:
    """The masks over the packed views of an ``n``-seat game, made once per seat count."""

    __slots__ = ("clear", "count", "everywhere", "keep", "place", "places", "row", "row_ones")

    def __init__(self, n: int) -> None:
        self.count = count = _layout(n)[0]
        self.places = places = n + 1
        ones = (1 << count * places * _W) - 1

        def at(o: int, p: int) -> int:
            return 1 << (o * places + p) * _W

        self.everywhere: tuple[int, ...] = tuple(sum(at(o, p) for o in range(count)) for p in range(places))
        """Per place: its first bit in every view (times a mask: that mask there in every view)."""
        self.place: tuple[int, ...] = tuple(m * _FULL for m in self.everywhere)
        """Per place: all of it, in every view."""
        self.clear: tuple[int, ...] = tuple(ones ^ m for m in self.place)
        """Per place: everything but that place, in every view."""
        self.row_ones: tuple[int, ...] = tuple(sum(at(o, p) for p in range(places)) for o in range(count))
        """Per view: the first bit of each of its places."""
        self.row: tuple[int, ...] = tuple(m * _FULL for m in self.row_ones)
        """Per view: all of its places."""
        every_place = sum(self.everywhere)
        self.keep: tuple[int, ...] = tuple(ones ^ (every_place << c) for c in range(_W))
        """Per card: everything but that card, in every view and place."""


_MASKS: dict[int, _Masks] = {n: _Masks(n) for n in range(3, 6)}
"""Per seat count (the game's 3-5 seats): its masks."""


def view_count(n: int) -> int:
    """Returns how many views a game of ``n`` seats keeps: n seats, a spectator, n(n-1)/2 pairs."""
    return _layout(n)[0]


def view_names(n: int) -> list[str]:
    """Returns each view's name, in order: ``seat 0``.., ``spectator``, ``seats 0+1``.."""
    names = [f"seat {x}" for x in range(n)] + ["spectator"]
    names += [f"seats {x}+{y}" for x in range(n) for y in range(x + 1, n)]
    return names


def unpack(n: int, views: int) -> list[int]:
    """Returns the packed ``views`` as a list: the mask of each place of each view, view by view."""
    return [views >> i * _W & _FULL for i in range(view_count(n) * (n + 1))]


def pack(masks: list[int]) -> int:
    """Returns the packed views of a list as :func:`unpack` gives it."""
    views = 0
    for i, m in enumerate(masks):
        views |= m << i * _W
    return views


def _mask(cards: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def initial_views(n: int, deck: tuple[int, ...]) -> int:
    """Returns the views before the deal: every card in the pile."""
    return _MASKS[n].everywhere[n] * _mask(deck)


def default_views(state: FirstDruidState) -> int:
    """Returns the views of a position given without its history: each seat knows its own
    holding; every other hidden card may be in any non-empty holding or the pile."""
    n = state.n
    places = n + 1
    held = [_mask(state.hands[h] + state.bids[h]) for h in range(n)]
    pile = _mask(state.draw)
    hidden = pile
    for m in held:
        hidden |= m
    views = [0] * (view_count(n) * places)
    for o in range(view_count(n)):
        own = held[o] if o < n else 0
        others = hidden & ~own
        base = o * places
        for p in range(n):
            if p == o:
                views[base + p] = own
            elif held[p]:
                views[base + p] = others
        if pile:
            views[base + n] = others
    return pack(views)


def _remove(state: FirstDruidState, card: int) -> None:
    state.views &= _MASKS[state.n].keep[card]


def clear_empty(state: FirstDruidState, seat: int) -> None:
    """A holding everyone sees empty holds nothing, in every view."""
    if not state.hands[seat] and not state.bids[seat]:
        state.views &= _MASKS[state.n].clear[seat]


def _clear_pile(state: FirstDruidState) -> None:
    if not state.draw:
        state.views &= _MASKS[state.n].clear[state.n]


def note_draw(state: FirstDruidState, seat: int, card: int) -> None:
    """A card drawn from the pile: only the drawer sees which (G3)."""
    n = state.n
    masks = _MASKS[n]
    views = state.views
    views ^= views & (masks.row_ones[seat] << card)  # the drawer knows where the card is now
    # In every other view the drawer's holding may now hold what the pile might have held.
    gained = (views & masks.place[n]) >> (n - seat) * _W
    gained ^= gained & masks.row[seat]
    views |= gained | 1 << ((seat * masks.places + seat) * _W + card)
    state.views = views if state.draw else views & masks.clear[n]  # an empty pile holds nothing


def note_turned(state: FirstDruidState, card: int) -> None:
    """A card turned face up from the pile (FD8)."""
    _remove(state, card)
    _clear_pile(state)


def note_drain(state: FirstDruidState, taker: int, victim: int, card: int) -> None:
    """FD13, G6: taker and victim see the card; everyone else sees only that one moved."""
    n = state.n
    masks = _MASKS[n]
    pair = _layout(n)[1][(taker, victim)]
    seeing = masks.row[taker] | masks.row[victim] | masks.row[pair]
    views = state.views
    # Every other view: the taker's holding may now hold what the victim's might have held.
    victims = views & masks.place[victim]
    victims ^= victims & seeing
    shift = (taker - victim) * _W
    views |= (victims << shift) if shift > 0 else (victims >> -shift)
    # The seeing views: the card is in the taker's holding and nowhere else.
    rows = masks.row_ones[taker] | masks.row_ones[victim] | masks.row_ones[pair]
    views ^= views & (rows << card)
    state.views = views | (masks.everywhere[taker] & seeing) << card
    clear_empty(state, victim)


def note_gone(state: FirstDruidState, seat: int, card: int, *, clear: bool = True) -> None:
    """A card leaves ``seat``'s holding face up (played, discarded, a bid revealed)."""
    _remove(state, card)
    if clear:
        clear_empty(state, seat)


def note_bids_shown(state: FirstDruidState, bids: tuple[tuple[int, ...], ...]) -> None:
    """FD9: every bid (``bids``, per seat) is shown as it leaves its bidder's holding; a holding
    left empty holds nothing."""
    masks = _MASKS[state.n]
    views = state.views
    for bid in bids:
        for c in bid:
            views &= masks.keep[c]
    hands = state.hands
    for seat, held in enumerate(state.bids):
        if not held and not hands[seat]:
            views &= masks.clear[seat]
    state.views = views


def _note_shown(state: FirstDruidState, card: int, seat: int) -> None:
    """Everyone sees ``card`` in ``seat``'s holding."""
    masks = _MASKS[state.n]
    state.views = (state.views & masks.keep[card]) | (masks.everywhere[seat] << card)


def note_offer(state: FirstDruidState, a: int, give: list[int], ask: list[int]) -> None:
    """FD2, FD15: a sent offer shows its given cards in the offering hand and tells that the
    cards it asks for are not there (an offer never asks for the offerer's own cards)."""
    for c in give:
        _note_shown(state, c, a)
    views = state.views
    state.views = views ^ (views & _MASKS[state.n].everywhere[a] * _mask(ask))


def note_trade(state: FirstDruidState, a: int, b: int, give: list[int], ask: list[int]) -> None:
    """FD2: an accepted trade is public; everyone knows where the cards went."""
    for c in give:
        _note_shown(state, c, b)
    for c in ask:
        _note_shown(state, c, a)


def note_refill(state: FirstDruidState) -> None:
    """The discard pile became the draw pile: everyone knows what is in it."""
    masks = _MASKS[state.n]
    state.views = (state.views & masks.clear[state.n]) | masks.everywhere[state.n] * _mask(state.draw)


def _row(views: int, view: int, places: int) -> list[int]:
    """Returns one view's masks, place by place, from the packed ``views`` (a reader that needs
    a few views takes them so rather than unpacking all of them)."""
    bits = views >> view * places * _W & ((1 << places * _W) - 1)
    return [bits >> p * _W & _FULL for p in range(places)]


def _only(row: list[int], place: int) -> int:
    """Returns the cards the view (its masks ``row``) places in ``place`` and nowhere else."""
    mask = row[place]
    if not mask:
        return 0
    others = 0
    for q, other in enumerate(row):
        if q != place:
            others |= other
    return mask & ~others


def _onlies(row: list[int]) -> list[int]:
    """Returns :func:`_only` of every place of the view (its masks ``row``), in one pass."""
    after = [0] * (len(row) + 1)  # after[p]: the places from p on
    for p in range(len(row) - 1, -1, -1):
        after[p] = after[p + 1] | row[p]
    found = []
    before = 0
    for p, mask in enumerate(row):
        found.append(mask & ~(before | after[p + 1]))
        before |= mask
    return found


# --- the observation -------------------------------------------------------------------------


def _cards(mask: int) -> list[str]:
    """Returns the texts of the cards in ``mask``, by card id (lowest bit first)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(TEXT[low.bit_length() - 1])
        mask ^= low
    return found


def _seat_check(state: FirstDruidState, player: int | None) -> None:
    if player is not None and (isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.n):
        raise ValueError(f"seats run 0..{state.n - 1}, not {player!r}")


def composing(state: FirstDruidState) -> bool:
    """True while the active seat puts an offer together (nothing of it is public yet, FD15)."""
    return state.phase == TURN and state.offer_to >= 0


def observation(state: FirstDruidState, player: int | None) -> dict[str, Any]:
    """Returns what seat ``player`` (None: a spectator) knows; see docs/games/first_druid.md."""
    _seat_check(state, player)
    n = state.n
    places = n + 1
    number = state.neutral // 2 + 1
    seat = -1 if player is None else player
    me = n if player is None else player
    over = state.phase == OVER
    contest = None
    if state.contest:
        colour = box.colour_index(state.contest)
        contest = {
            "number": state.contest,
            "colour": box.COLOURS[colour],
            "element_seat": state.seat_of[colour] if colour != box.BLACK else None,
            "bid_sizes": [len(b) for b in state.bids],
            "bid": None if player is None else sorted(TEXT[c] for c in state.bids[player]),
        }
    last = None
    if state.last_contest:
        space, bids, values, winner, placed = state.last_contest
        last = {
            "number": space,
            "colour": box.colour_of(space),
            "bids": [[TEXT[c] for c in b] for b in bids],
            "values": list(values),
            "winner": None if winner < 0 else winner,
            "placed": placed,
        }
    log = []
    for text, taker, victim, card in state.log:
        if card >= 0 and seat in (taker, victim):
            text = text.replace("a card", TEXT[card])
        log.append(text)
    active = state.active()
    author = seat == active
    hidden_offer = composing(state) and not author  # FD15: an unmade offer shows nothing
    made = state.offers if author else state.offers - state.withdrawn - (1 if composing(state) else 0)
    views = state.views
    mine = _row(views, me, places)
    spectator = mine if player is None else _row(views, n, places)
    shown = _onlies(spectator)[:n]
    either = []
    seen = twice = 0  # the cards the view places somewhere; those it places in two places or more
    for mask in mine:
        twice |= seen & mask
        seen |= mask
    doubt = twice & ~mine[n]  # in two hands or more, and not known to be out of play
    while doubt:
        low = doubt & -doubt
        doubt ^= low
        c = low.bit_length() - 1
        either.append({"card": TEXT[c], "seats": [q for q in range(places) if mine[q] & low]})
    known_by = None
    if player is not None:
        pairs = _layout(n)[1]
        known_by = [
            [] if x == player else _cards(_only(_row(views, pairs[(x, player)], places), player) & ~shown[player])
            for x in range(n)
        ]
    obs: dict[str, Any] = {
        "game": "first_druid",
        "seat": player,
        "players": n,
        "colours": [box.COLOURS[c] for c in state.colours],
        "phase": PHASE_NAMES[state.phase],
        "stage": STAGE_NAMES[state.stage],
        "current_player": state.current_player(),
        "round": state.neutral + 1,
        "round_cap": ROUND_CAP,
        "time": {"number": number, "phase": "day" if state.neutral % 2 else "night"},
        "day_colour": box.colour_of(number),
        "element_card": TEXT[state.element] if state.element >= 0 else None,
        "turned": [TEXT[c] for c in state.turned],
        "first_player": state.first,
        "turn_seat": active if state.stage == TURNS else None,
        "druids": list(state.pos),
        "in_contact": [not state.behind(s) for s in range(n)],
        "hand": None if player is None else sorted(TEXT[c] for c in state.hands[player]),
        "wild": None if player is None else TEXT[WILD_BASE + state.colours[player]],
        "hand_sizes": [len(h) for h in state.hands],
        "draw_pile": len(state.draw),
        "discard_pile": [TEXT[c] for c in state.discard],
        "bluestones": list(state.clans),
        "spirits": [None if s < 0 else s for s in state.spirits],
        "trilithons": [
            {"sections": min(3, max(0, state.sections - 3 * t)), "owner": None if o < 0 else o}
            for t, o in enumerate(state.owners)
        ],
        "altar": list(state.altar),
        "disks_left": [state.disks_left(s) for s in range(n)],
        "bars_left": [state.bars_left(s) for s in range(n)],
        "table": [TEXT[c] for c in state.table],
        "wild_number": state.table_wild or None,
        "acted": state.acted,
        "offers_made": made,
        "offer": None
        if state.offer_to < 0 or hidden_offer
        else {
            "from": active,
            "to": state.offer_to,
            "give": [TEXT[c] for c in state.give],
            "ask": [TEXT[c] for c in state.ask],
        },
        "drains_pending": list(state.drains),
        "discard_owed": len(state.hands[state.player]) - state.hand_limit if state.phase == DISCARD_PHASE else 0,
        "contest": contest,
        "last_contest": last,
        "shown_cards": [_cards(m) for m in shown],
        "known_cards": [[] if h == seat else _cards(only) for h, only in enumerate(_onlies(mine)[:n])],
        "known_by": known_by,
        "either_or": either,
        "log": log,
        "scores": state.scores(),
        "winners": list(state.winners) if over else None,
        "result": state.reason if over else None,
    }
    if state.hand_limit != HAND_LIMIT:  # the designer option: only where it is not the text's ten
        obs["hand_limit"] = state.hand_limit
    return obs


# --- the trail ---------------------------------------------------------------------------------

(
    T_DRAW,
    T_TURN,
    T_DRAIN,
    T_PICK,
    T_EFFECT,
    T_OFFER,
    T_GIVE,
    T_ASK,
    T_WITHDRAW,
    T_SEND,
    T_ANSWER,
    T_END,
    T_DISCARD,
    T_BID,
    T_SEAL,
    T_REFILL,
    T_REVEAL,
    T_BEGIN,
) = range(18)

Entry = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]
"""(kind, action id or -1 for an automatic event, actor, a card or seat, two card lists)."""


class Trail:
    """A frozen block of trail entries, oldest first, linked to the block before."""

    __slots__ = ("actions", "entries", "parent", "plans")

    def __init__(self, parent: Trail | None, entries: tuple[Entry, ...]) -> None:
        self.parent = parent
        self.entries = entries
        self.actions: int = (parent.actions if parent is not None else 0) + sum(1 for e in entries if e[1] >= 0)
        """The action entries (the others are automatic events) of this block and the blocks before."""
        self.plans: dict[int, _Plan] | None = None  # resampling's, for the trail ending here

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The whole trail as one flat list, so a long one pickles without deep recursion (the
        # resampling plans cached on it are left behind: they are made again when needed).
        return _trail, (_entries(self),)


def _trail(entries: list[Entry]) -> Trail | None:
    """Returns the trail made of ``entries``, oldest first (how a pickled trail is rebuilt)."""
    return Trail(None, tuple(entries)) if entries else None


def freeze(state: FirstDruidState) -> Trail | None:
    """Moves the state's own trail entries into a new block (to share it) and returns the trail."""
    tail = state.trail_tail
    if tail:
        state.trail = Trail(state.trail, tuple(tail))
        state.trail_tail = []
    return state.trail


def push(
    state: FirstDruidState,
    kind: int,
    action: int,
    actor: int,
    a: int = -1,
    b: tuple[int, ...] = (),
    c: tuple[int, ...] = (),
) -> None:
    """Appends an entry to the state's trail (an action when ``action`` >= 0)."""
    state.trail_tail.append((kind, action, actor, a, b, c))


def _entries(head: Trail | None) -> list[Entry]:
    blocks = []
    node = head
    while node is not None:
        blocks.append(node.entries)
        node = node.parent
    return [entry for block in reversed(blocks) for entry in block]


# --- resampling ----------------------------------------------------------------------------------
#
# The seat's record fixes every action it saw; what it did not see is re-drawn: another seat's
# draws, the drains it took no part in, the face-down bids of the contest still running, and
# another seat's offers until they are sent (FD15). The steps of the history (the "skeleton")
# keep the visible actions as they were and mark the hidden ones.
#
# The hidden steps are then played out on an abstract table before any card is named: a card
# another seat draws unseen is a *token* of the deck it came from (every card in that deck that
# no seat saw drawn, turned or shown since is alike to it); a drain takes one item (token or
# card known to be there) of the victim's hand. When a seat shows a card (plays, discards, bids,
# offers, trades it, or it is drained before the seat's eyes) that was not known to be in its
# hand, one of its tokens of that card's deck becomes that card. At the end, the tokens left
# are dealt the cards of their decks that were never seen again. Choices are made only among
# the items that keep the rest possible: a card known in a hand must still reach where it is
# seen next (its "reach", from a backward pass over the hidden steps), and every seat must keep
# enough tokens of each deck for the cards it shows later (counted against the draws and
# drains still to come). A run that still meets a dead end is discarded whole; the named
# history is replayed from the start, and the last check is the seat's record itself, so a
# returned state is always one the seat cannot tell from the real one.
#
# Speed: the plan is made once per position and seat and cached on the trail, and so is what
# the choices consult that depends only on it (what a seat still owes of each deck for the
# tokens it holds, which deck a shown card came from, the steps that change the table), so the
# many samples a search draws at one decision share that work. None of it changes a draw.

_FIXED, _COMPOSE, _HDRAW, _HDRAIN, _HBID, _AUTO = range(6)
_TRIES = 2000
_CHOICES = 400
"""How many drain choices one run may try (taking back those that lead nowhere)."""


class _Retry(Exception):
    """This run met a dead end: start again."""


class _Dead(Exception):
    """This branch of a run met a dead end: take back the last choice."""


class _Stretch:
    """Where a card is between two anchors: from ``start`` (after that step) in place ``place``
    to ``end`` (before that step) in place ``goal`` (None: the present, anywhere)."""

    __slots__ = ("changes", "end", "goal", "place", "points", "start")

    def __init__(self, start: int, place: int, end: int, goal: int | None) -> None:
        self.start = start
        self.place = place
        self.end = end
        self.goal = goal
        self.points: list[int] | None = None  # positions where reach changes, ascending
        self.changes: list[int] = []  # reach before each of those positions


class _Plan:
    """What one seat's record fixes: the skeleton, each card's stretches, the decks, and what
    each seat must show later from each deck."""

    __slots__ = (
        "compose_now",
        "current",
        "deck_of",
        "demands",
        "drains",
        "drains_into",
        "draws_before",
        "draws_in",
        "everywhere",
        "keep",
        "last_begin",
        "live",
        "notins",
        "owed",
        "pools",
        "record",
        "refills",
        "seat",
        "seen_from",
        "sent",
        "slots",
        "steps",
        "stretches",
        "wanted",
    )

    def __init__(self) -> None:
        self.steps: list[tuple[int, Entry]] = []
        self.stretches: list[list[_Stretch]] = []
        self.notins: list[list[tuple[int, int]]] = []  # per card: (step, seat it is not in)
        self.slots: list[list[int]] = []  # per seat: its hidden draws
        self.drains: list[tuple[int, int, int]] = []  # hidden drains: (step, victim, taker)
        self.drains_into: list[list[int]] = []  # per seat: hidden drains it takes by
        self.refills: list[int] = []
        self.everywhere = 0  # every place a card out of the seat's sight may be
        self.pools: list[list[int]] = []  # per deck: its cards no seat saw leave it
        self.deck_of: dict[tuple[int, int], int] = {}  # (card, its stretch's start) -> deck
        self.demands: list[list[list[int]]] = []  # per seat and deck: when it shows such a card
        self.draws_in: list[list[list[int]]] = []  # per seat and deck: its hidden draws
        self.draws_before: list[list[list[int]]] = []  # per seat, deck and demand: draws before it
        self.current = -1  # the other seat whose turn is under way, or -1
        self.last_begin = 0  # the step at which that turn began
        self.sent = 0  # the offers it sent in it
        self.compose_now = False  # whether it may be putting an offer together now
        self.record: list[list[Any]] | None = None  # the seat's record, read once
        self.live: list[tuple[int, int, Entry, int]] | None = None  # the steps that change the abstract table
        self.seat = -1  # whose record it is
        self.owed: dict[tuple[int, int, int, int], tuple[int, ...]] = {}  # what _owed found
        self.wanted: dict[tuple[int, int, tuple[int, ...]], list[int] | None] = {}  # what _wanted found
        self.keep: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}  # what _keep found
        self.seen_from: dict[tuple[int, int], int] = {}  # what _deck_of found


def _rooted_trail(state: FirstDruidState) -> Trail | None:
    """Returns the trail of the state's whole history, rebuilt by replay for a loaded state."""
    trail = freeze(state)
    if state.rooted and (trail.actions if trail is not None else 0) == state.move_number():
        return trail
    again = state.game.new_initial_state()
    try:
        for action in state.history():
            again.apply_action(action)
    except IllegalActionError:
        again = None  # type: ignore[assignment]
    if again is None or again._fields() != state._fields():
        raise ValueError(
            "first_druid: this position was loaded without the history that reached it, so no seat's "
            "record exists to resample from; load it with its history (G6, G7)"
        )
    state.trail = freeze(again)  # type: ignore[arg-type]
    state.trail_tail = []
    state.rooted = True
    return state.trail


def _plan(state: FirstDruidState, seat: int) -> _Plan:
    head = _rooted_trail(state)
    if head is not None and head.plans is not None and seat in head.plans:
        return head.plans[seat]
    plan = _build_plan(state, seat, _entries(head))
    if head is not None:
        node = head.parent
        while node is not None:  # the plans of earlier positions serve nothing now: let them go
            node.plans = None
            node = node.parent
        if head.plans is None:
            head.plans = {}
        head.plans[seat] = plan
    return plan


def _build_plan(state: FirstDruidState, s: int, entries: list[Entry]) -> _Plan:
    n = state.n
    pile = n
    plan = _Plan()
    plan.seat = s
    last_reveal = max((i for i, e in enumerate(entries) if e[0] == T_REVEAL), default=-1)
    steps: list[tuple[int, Entry]] = []
    for i, e in enumerate(entries):
        kind, actor = e[0], e[2]
        if kind == T_DRAW:
            steps.append((_FIXED if actor == s else _HDRAW, e))
        elif kind == T_DRAIN:
            steps.append((_FIXED if s in (actor, e[3]) else _HDRAIN, e))
        elif kind in (T_OFFER, T_GIVE, T_ASK, T_WITHDRAW):
            if actor == s:
                steps.append((_FIXED, e))
        elif kind == T_SEND:
            steps.append((_FIXED if actor == s else _COMPOSE, e))
        elif kind == T_BID:
            steps.append((_FIXED if actor == s or i < last_reveal else _HBID, e))
        elif kind in (T_REFILL, T_REVEAL, T_BEGIN):
            steps.append((_AUTO, e))
        else:
            steps.append((_FIXED, e))
    plan.steps = steps
    size = len(steps)

    # anchors: per card, its stretches between the moments the seat knows where it is
    public = -1
    start = [-1] * box.DECK_SIZE
    place = [public] * box.DECK_SIZE
    for c in state.deck:
        place[c] = pile
    stretches: list[list[_Stretch]] = [[] for _ in range(box.DECK_SIZE)]
    notins: list[list[tuple[int, int]]] = [[] for _ in range(box.DECK_SIZE)]
    slots: list[list[int]] = [[] for _ in range(n)]
    drains: list[tuple[int, int, int]] = []
    refills: list[int] = []
    begins: list[int] = []
    seen_in_deck: list[set[int]] = [set()]  # per deck: cards seen leaving it (drawn by the seat, turned)

    def anchor(c: int, pos: int, where: int) -> None:
        if place[c] != public:
            stretches[c].append(_Stretch(start[c], place[c], pos, where))
        place[c] = public

    def after(c: int, pos: int, where: int) -> None:
        start[c] = pos
        place[c] = where

    pools = [set(state.deck)]
    for pos, (code, e) in enumerate(steps):
        kind, action, actor, a, b, cs = e
        if code == _HDRAW:
            slots[actor].append(pos)
        elif code == _HDRAIN:
            drains.append((pos, a, actor))  # victim, taker
        elif code == _AUTO:
            if kind == T_REFILL:
                refills.append(pos)
                pools.append(set(b))
                seen_in_deck.append(set())
                for c in b:
                    after(c, pos, pile)
            elif kind == T_BEGIN:
                begins.append(pos)
        elif code == _COMPOSE:
            for c in b:
                anchor(c, pos, actor)
                after(c, pos, actor)
            for c in cs:
                notins[c].append((pos, actor))
        elif code == _FIXED:
            if kind == T_DRAW:
                anchor(a, pos, pile)
                after(a, pos, actor)
                seen_in_deck[-1].add(a)
            elif kind == T_TURN:
                anchor(a, pos, pile)
                seen_in_deck[-1].add(a)
            elif kind == T_DRAIN:
                anchor(b[0], pos, a)
                after(b[0], pos, actor)
            elif kind in (T_PICK, T_DISCARD, T_BID):
                anchor(a, pos, actor)
            elif kind == T_ANSWER and action == ACCEPT:
                for c in b:
                    anchor(c, pos, a)
                    after(c, pos, actor)
                for c in cs:
                    anchor(c, pos, actor)
                    after(c, pos, a)
    for c in range(box.DECK_SIZE):
        if place[c] != public:
            stretches[c].append(_Stretch(start[c], place[c], size, None))
    plan.stretches = stretches
    plan.notins = notins
    plan.slots = slots
    plan.drains = drains
    plan.refills = refills
    everywhere = 1 << pile
    for h in range(n):
        if h != s:
            everywhere |= 1 << h
    plan.everywhere = everywhere

    # the decks: what each holds that no seat saw leave it; what each seat shows later from each
    plan.pools = [sorted(pool - seen) for pool, seen in zip(pools, seen_in_deck, strict=True)]
    starts = [-1, *refills]
    deck_of: dict[tuple[int, int], int] = {}  # (card, the stretch's start) -> deck, for cards out of a pile
    demands: list[list[list[int]]] = [[[] for _ in starts] for _ in range(n)]
    for c in range(box.DECK_SIZE):
        for st in stretches[c]:
            if st.place == pile and st.goal is not None and st.goal != pile:
                deck = starts.index(st.start)
                deck_of[(c, st.start)] = deck
                demands[st.goal][deck].append(st.end)
    for per_seat in demands:
        for lst in per_seat:
            lst.sort()
    plan.deck_of = deck_of
    plan.demands = demands
    plan.draws_in = [[[e for e in slots[h] if _deck_at(refills, e) == k] for k in range(len(starts))] for h in range(n)]
    plan.draws_before = [
        [[bisect_left(plan.draws_in[h][k], end) for end in demands[h][k]] for k in range(len(starts))] for h in range(n)
    ]
    plan.drains_into = [[d for d, _, t in drains if t == h] for h in range(n)]

    # the turn under way, if another seat's: its unmade offers are re-drawn (FD15)
    plan.current = -1
    plan.last_begin = begins[-1] if begins else size
    plan.sent = 0
    plan.compose_now = False
    active = state.active()
    if state.stage == TURNS and not state.ending and state.phase != OVER and active != s and begins:
        plan.current = active
        plan.sent = sum(1 for code, e in steps[plan.last_begin :] if code == _COMPOSE)
        others = any(state.hands[k] for k in range(n) if k != active)
        plan.compose_now = (
            state.phase == TURN and not state.table and bool(state.hands[active]) and others and plan.sent < MAX_OFFERS
        )
    return plan


def _deck_at(refills: list[int], pos: int) -> int:
    """Returns which deck (0: the first; k: after the k-th refill) the draw pile is at ``pos``."""
    return bisect_left(refills, pos)


def _compute_reach(plan: _Plan, c: int, st: _Stretch) -> None:
    """Fills ``st.points``/``st.changes``: the places from which card ``c`` can still meet its
    next anchor (and the asks on the way), before each step of the stretch."""
    deck_bit = 1 << (len(plan.slots))
    reach = plan.everywhere if st.goal is None else 1 << st.goal
    points = [st.end]
    changes = [reach]
    cur = st.end
    drains = plan.drains
    dpos = [d[0] for d in drains]
    di = bisect_left(dpos, cur) - 1
    refills = plan.refills
    ri = bisect_left(refills, cur) - 1
    notins = [x for x in plan.notins[c] if st.start < x[0] < st.end]
    ni = len(notins) - 1
    slots = plan.slots
    while True:
        best = st.start
        what = 0
        if di >= 0 and dpos[di] > best:
            best, what = dpos[di], 1
        if ri >= 0 and refills[ri] > best:
            best, what = refills[ri], 2
        if ni >= 0 and notins[ni][0] > best:
            best, what = notins[ni][0], 3
        if not reach & deck_bit:
            for h, pos_list in enumerate(slots):
                if reach >> h & 1:
                    k = bisect_left(pos_list, cur) - 1
                    if k >= 0 and pos_list[k] > best:
                        best, what = pos_list[k], 4
        if what == 0:
            break
        before = reach
        if what == 1:
            _, victim, taker = drains[di]
            if reach >> taker & 1:
                reach |= 1 << victim
            di -= 1
        elif what == 2:
            reach &= ~deck_bit
            ri -= 1
        elif what == 3:
            reach &= ~(1 << notins[ni][1])
            ni -= 1
        else:
            reach |= deck_bit
        if reach != before:
            points.append(best)
            changes.append(reach)
        cur = best
    points.reverse()
    changes.reverse()
    st.points = points
    st.changes = changes


def _reach(plan: _Plan, c: int, st: _Stretch, pos: int) -> int:
    """Returns the places (bitmask: seats, then the pile) from which card ``c`` of stretch ``st``
    can still meet its next anchor, just before step ``pos``."""
    if st.points is None:
        _compute_reach(plan, c, st)
    points = st.points
    assert points is not None
    return st.changes[bisect_left(points, pos)]


def _deck_of(plan: _Plan, c: int, pos: int) -> int:
    """Returns the deck card ``c``, seen at step ``pos``, came from unseen (-1: none)."""
    key = (c, pos)
    deck = plan.seen_from.get(key)
    if deck is None:
        deck = plan.seen_from[key] = plan.deck_of.get((c, _stretch_at(plan, c, pos).start), -1)
    return deck


def _stretch_at(plan: _Plan, c: int, pos: int) -> _Stretch:
    """Returns card ``c``'s stretch around step ``pos`` (out of sight there, or seen there again)."""
    for st in plan.stretches[c]:
        if st.start < pos <= st.end:
            return st
    raise _Dead  # not where the record leaves it


def resample(state: FirstDruidState, player: int, rng: random.Random) -> FirstDruidState:
    """Returns a state reached by a legal history in which ``player`` saw exactly what it saw
    in ``state`` (its record is equal), every card hidden from it re-drawn (G3, G6)."""
    _seat_check(state, player)
    if player is None:
        raise ValueError("resampling is for a seat, not a spectator")
    plan = _plan(state, player)
    target = plan.record
    if target is None:
        target = plan.record = state.information_state(player)
    for _ in range(_TRIES):
        try:
            cards = _play_out(state, plan, rng)
            new = _name(state, plan, player, rng, cards)
        except _Retry:
            continue
        if _same_record(new, player, target):
            new._log = replayed_record(new.game, new.history())  # made again only if read
            return new
    raise RuntimeError(f"first_druid: no history consistent with seat {player}'s record was found")


def _same_record(state: FirstDruidState, seat: int, record: list[list[Any]]) -> bool:
    """True if the seat's record in ``state`` is ``record`` (as ``information_state`` gives it):
    the entries compared newest first, without making their list or their digest."""
    i = len(record)
    node = made(state._log)
    while node is not None:
        private = node.private
        text = private.get(seat) if private is not None else None
        if text is None:
            text = node.public
        if text is not None:
            i -= 1
            if i < 0:
                return False
            actor, seen = record[i]
            if seen != text or actor != node.actor:
                return False
        node = made(node.parent)
    return i == 0


_Saved = tuple[list[list[int]], int, list[int], int, int]
_NO_BANS: frozenset[int] = frozenset()
"""A token's bans until its hand is first asked for a card (most never are)."""


class _Table:
    """The abstract table of one run: each other seat's hand as items (a card known to be
    there, or a token: ``-1 - k`` for token ``k``), and the tokens' decks, bans and cards."""

    def __init__(self, plan: _Plan, n: int, rng: random.Random) -> None:
        self.plan = plan
        self.n = n
        self.rng = rng
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.token_deck: list[int] = []
        self.token_card: list[int] = []  # -1 until the token is named
        self.banned: list[set[int] | frozenset[int]] = []  # cards a token cannot be (its hand asked for them)
        self.bans: list[tuple[int, int]] = []  # the bans in the order they came (to take back)
        self.deck = 0

    def save(self) -> _Saved:
        return ([h[:] for h in self.hands], len(self.token_deck), self.token_card[:], len(self.bans), self.deck)

    def restore(self, saved: _Saved) -> None:
        hands, count, cards, bans, deck = saved
        for h, old in zip(self.hands, hands, strict=True):
            h[:] = old
        del self.token_deck[count:]
        del self.banned[count:]
        self.token_card[:] = cards
        while len(self.bans) > bans:
            k, card = self.bans.pop()
            banned = self.banned[k] if k < count else None
            if isinstance(banned, set):  # a ban made it one
                banned.discard(card)
        self.deck = deck

    def ban(self, k: int, card: int) -> None:
        banned = self.banned[k]
        if card not in banned:
            if isinstance(banned, set):
                banned.add(card)
            else:  # _NO_BANS
                self.banned[k] = {card}
            self.bans.append((k, card))

    def take(self, seat: int, card: int, pos: int, keep: bool = False) -> int:
        """Finds ``card`` in the seat's hand (naming a token of its deck if need be); removes it
        unless ``keep``, and returns the item it was."""
        hand = self.hands[seat]
        if card in hand:
            if not keep:
                hand.remove(card)
            return card
        x = self.name_token(hand, card, _deck_of(self.plan, card, pos))
        if keep:
            hand.append(card)
        return x

    def name_token(self, hand: list[int], card: int, deck: int) -> int:
        """Names as ``card`` a token of ``deck`` (-1: none can be) in ``hand``, any not banned
        from it, each as likely; takes it out of the hand and returns it."""
        if deck < 0:
            raise _Dead
        token_deck = self.token_deck
        banned = self.banned
        options = [x for x in hand if x < 0 and token_deck[-1 - x] == deck and card not in banned[-1 - x]]
        if not options:
            raise _Dead
        x = self.rng.choice(sorted(options))
        self.token_card[-1 - x] = card
        hand.remove(x)
        return x

    def holding(self, seat: int) -> list[int]:
        """Returns the seat's tokens per deck."""
        have = [0] * len(self.plan.pools)
        for x in self.hands[seat]:
            if x < 0:
                have[self.token_deck[-1 - x]] += 1
        return have


def _owed(plan: _Plan, seat: int, deck: int, have: int, pos: int) -> tuple[int, ...]:
    """Returns by when drains into the seat must have brought it tokens of ``deck`` (one entry
    per token), holding ``have`` of them after step ``pos``: its own draws of that deck cover
    what they can of the cards it shows later."""
    later = plan.demands[seat][deck]
    if not later or later[-1] <= pos:
        return ()
    k = bisect_left(later, pos + 1)
    spare = have - bisect_left(plan.draws_in[seat][deck], pos + 1)
    key = (seat, deck, k, spare)  # all the answer depends on
    owed = plan.owed.get(key)
    if owed is None:
        before = plan.draws_before[seat][deck]
        found: list[int] = []
        most = 0
        for j in range(k, len(later)):
            need = j - k + 1 - spare - before[j]
            if need > most:
                found += [later[j]] * (need - most)
                most = need
        owed = plan.owed[key] = tuple(found)
    return owed


def _fits(plan: _Plan, seat: int, owed: Iterable[tuple[int, ...]], drains_from: int) -> bool:
    """True if the drains into the seat from step ``drains_from`` on, one token each, can bring
    what ``owed`` (per deck) asks in time (earliest deadline first)."""
    every = sorted(end for lst in owed for end in lst)
    if not every:
        return True
    into = plan.drains_into[seat]
    base = bisect_left(into, drains_from)
    return all(bisect_left(into, end) - base >= j for j, end in enumerate(every, 1))


def _owing(plan: _Plan, seat: int, pos: int) -> list[int]:
    """Returns the decks of which the seat still shows cards after step ``pos``."""
    return [d for d, later in enumerate(plan.demands[seat]) if later and later[-1] > pos]


def _play_out(state: FirstDruidState, plan: _Plan, rng: random.Random) -> dict[int, int]:
    """Plays the hidden steps out on an abstract table; returns the card of each hidden step.

    A drain's choice that leads to a dead end later is taken back (depth first, the other
    choices in random order) within a budget of choices; past it, the run is given up."""
    table = _Table(plan, state.n, rng)
    chosen: dict[int, int] = {}  # hidden step -> item moved (a card, or a token to name later)
    token_step: dict[int, int] = {}  # hidden draw step -> its token
    budget = [_CHOICES]
    live = plan.live
    if live is None:
        live = plan.live = _live_steps(plan)
    if not _walk(table, plan, live, 0, chosen, token_step, budget):
        raise _Retry
    cards: dict[int, int] = {}
    for pos, k in token_step.items():
        cards[pos] = table.token_card[k]
    for pos, x in chosen.items():
        cards[pos] = x if x >= 0 else table.token_card[-1 - x]
    return cards


_DRAW, _DRAIN, _BID, _COMPOSE_STEP, _REFILL, _SEEN_DRAIN, _SHOWN, _TRADE = range(8)
"""What a step does on the abstract table (see :func:`_live_steps`)."""


def _live_steps(plan: _Plan) -> list[tuple[int, int, Entry, int]]:
    """Returns the steps that change the abstract table, as (what it does, step, entry, and for
    a card another seat shows, the deck it came from if it was not known in that hand: -1 if
    none can be): the others (the plan's seat's own moves, turns beginning and ending, effects...)
    leave the table as it is."""
    s = plan.seat
    live = []
    for pos, (code, e) in enumerate(plan.steps):
        kind, action, actor = e[0], e[1], e[2]
        if code == _HDRAW:
            live.append((_DRAW, pos, e, -1))
        elif code == _HDRAIN:
            live.append((_DRAIN, pos, e, -1))
        elif code == _HBID:
            live.append((_BID, pos, e, -1))
        elif code == _COMPOSE:
            live.append((_COMPOSE_STEP, pos, e, -1))
        elif code == _AUTO:
            if kind == T_REFILL:
                live.append((_REFILL, pos, e, -1))
        elif kind == T_DRAIN:  # before the seat's eyes
            live.append((_SEEN_DRAIN, pos, e, -1))
        elif kind in (T_PICK, T_DISCARD, T_BID) and actor != s:
            try:
                deck = _deck_of(plan, e[3], pos)
            except _Dead:  # the card is not where the record leaves it: no token can be it
                deck = -1
            live.append((_SHOWN, pos, e, deck))
        elif kind == T_ANSWER and action == ACCEPT:
            live.append((_TRADE, pos, e, -1))
    return live


def _walk(
    table: _Table,
    plan: _Plan,
    live: list[tuple[int, int, Entry, int]],
    start: int,
    chosen: dict[int, int],
    token_step: dict[int, int],
    budget: list[int],
) -> bool:
    """Plays the live steps from ``start`` on; True once every token is named."""
    hands = table.hands
    rng = table.rng
    token_deck = table.token_deck  # the table's lists change in place only, so these stay its
    token_card = table.token_card
    banned = table.banned
    s = plan.seat
    try:
        for i in range(start, len(live)):
            what, pos, e, deck = live[i]
            _, _, actor, a, b, cs = e
            if what == _DRAW:  # a new token of the deck
                k = len(token_deck)
                token_deck.append(table.deck)
                token_card.append(-1)
                banned.append(_NO_BANS)
                hands[actor].append(-1 - k)
                token_step[pos] = k
            elif what == _DRAIN:
                options = _drain_items(table, plan, a, actor, pos)
                rng.shuffle(options)
                for x in options:
                    budget[0] -= 1
                    if budget[0] < 0:
                        raise _Retry
                    saved = table.save()
                    hands[a].remove(x)
                    hands[actor].append(x)
                    chosen[pos] = x
                    if _walk(table, plan, live, i + 1, chosen, token_step, budget):
                        return True
                    table.restore(saved)
                return False
            elif what == _BID:
                x = rng.choice(sorted(hands[actor]))  # the contest still runs: nothing is shown after
                hands[actor].remove(x)
                chosen[pos] = x
            elif what == _COMPOSE_STEP:
                for c in b:
                    table.take(actor, c, pos, keep=True)
                for c in cs:
                    if c in hands[actor]:
                        return False
                    for x in hands[actor]:
                        if x < 0:
                            table.ban(-1 - x, c)
            elif what == _REFILL:
                table.deck += 1
            elif what == _SEEN_DRAIN:
                card = b[0]
                if a != s:
                    table.take(a, card, pos)
                if actor != s:
                    hands[actor].append(card)
            elif what == _SHOWN:  # table.take(actor, a, pos), the deck known
                hand = hands[actor]
                if a in hand:
                    hand.remove(a)
                    continue
                # table.name_token(hand, a, deck), inlined: where the walk backtracks most this
                # is its commonest step, and the call cost a tenth of the walk's time there
                if deck < 0:
                    raise _Dead
                options = [x for x in hand if x < 0 and token_deck[-1 - x] == deck and a not in banned[-1 - x]]
                if not options:
                    raise _Dead
                options.sort()
                x = rng.choice(options)
                token_card[-1 - x] = a
                hand.remove(x)
            else:  # _TRADE
                author, target = a, actor
                for c in b:
                    if author != s:
                        table.take(author, c, pos)
                    if target != s:
                        hands[target].append(c)
                for c in cs:
                    if target != s:
                        table.take(target, c, pos)
                    if author != s:
                        hands[author].append(c)
        _name_tokens(table, plan)
    except _Dead:
        return False
    return True


def _drain_items(table: _Table, plan: _Plan, victim: int, taker: int, pos: int) -> list[int]:
    """Returns the items a hidden drain may take (any item of the victim's hand, each as
    likely, that keeps the rest possible), sorted."""
    theirs = tuple(table.holding(taker))
    key = (pos, taker, theirs)
    if key in plan.wanted:
        wanted = plan.wanted[key]
    else:
        wanted = plan.wanted[key] = _wanted(plan, taker, theirs, pos)
    if wanted is not None and not wanted:
        return []
    mine = tuple(table.holding(victim))
    key = (pos, victim, mine)
    keep = plan.keep.get(key)
    if keep is None:
        keep = plan.keep[key] = _keep(plan, victim, mine, pos)
    forced = []
    allowed = []
    token_deck = table.token_deck
    nxt = pos + 1
    for x in table.hands[victim]:
        if x < 0:
            deck = token_deck[-1 - x]
            if deck in keep and (wanted is None or deck in wanted):
                allowed.append(x)
            continue
        st = _stretch_at(plan, x, pos)
        reach = _reach(plan, x, st, nxt) if st.goal is not None or plan.notins[x] else -1
        if not reach >> victim & 1:
            forced.append(x)
        if reach >> taker & 1 and wanted is None:
            allowed.append(x)
    if forced:
        return forced if len(forced) == 1 and forced[0] in allowed else []
    return sorted(allowed)


def _wanted(plan: _Plan, taker: int, theirs: tuple[int, ...], pos: int) -> list[int] | None:
    """Returns the decks of which the taker of a hidden drain at step ``pos``, holding ``theirs``
    tokens of each deck, needs a token that only this drain can still bring it (None: it needs
    none; empty: it needs one this drain cannot bring). Only the decks it shows cards of later
    can owe anything."""
    decks = _owing(plan, taker, pos)
    if not decks:
        return None
    nxt = pos + 1
    owed = {d: _owed(plan, taker, d, theirs[d], pos) for d in decks}
    if _fits(plan, taker, owed.values(), nxt):
        return None
    wanted = []
    for d in decks:
        lst = owed[d]
        if lst:
            owed[d] = lst[1:]
            if _fits(plan, taker, owed.values(), nxt):
                wanted.append(d)
            owed[d] = lst
    return wanted


def _keep(plan: _Plan, victim: int, mine: tuple[int, ...], pos: int) -> list[int]:
    """Returns the decks of which the victim of a hidden drain at step ``pos``, holding ``mine``
    tokens of each deck, can give up a token and still show every card it shows later."""
    nxt = pos + 1
    owed = {d: _owed(plan, victim, d, mine[d], pos) for d in _owing(plan, victim, pos)}
    fit: bool | None = None  # whether what the victim owes now fits
    keep = []
    for d in range(len(mine)):
        if mine[d]:
            if d in owed:
                saved = owed[d]
                owed[d] = _owed(plan, victim, d, mine[d] - 1, pos)
                if _fits(plan, victim, owed.values(), nxt):
                    keep.append(d)
                owed[d] = saved
            else:  # it shows no more cards of this deck: one token fewer changes nothing owed
                if fit is None:
                    fit = _fits(plan, victim, owed.values(), nxt)
                if fit:
                    keep.append(d)
    return keep


def _name_tokens(table: _Table, plan: _Plan) -> None:
    """Deals the tokens not named yet the cards of their decks that were never seen again
    (a random matching that respects each token's bans)."""
    rng = table.rng
    named: list[set[int]] = [set() for _ in plan.pools]
    unnamed: list[list[int]] = [[] for _ in plan.pools]
    for k, (deck, c) in enumerate(zip(table.token_deck, table.token_card, strict=True)):
        if c >= 0:
            named[deck].add(c)
        else:
            unnamed[deck].append(k)
    last = len(plan.pools) - 1
    for deck, pool in enumerate(plan.pools):
        seen = named[deck]
        free = [c for c in pool if c not in seen]
        tokens = unnamed[deck]
        if len(tokens) > len(free) or (deck < last and len(tokens) != len(free)):
            raise _Dead
        rng.shuffle(free)
        owner: dict[int, int] = {}
        order = tokens[:]
        rng.shuffle(order)
        for k in order:
            if not _place(table, free, owner, k, set()):
                raise _Dead
        for c, k in owner.items():
            table.token_card[k] = c


def _place(table: _Table, free: list[int], owner: dict[int, int], k: int, seen: set[int]) -> bool:
    """Kuhn's augmenting path: gives token ``k`` one of the ``free`` cards it may be."""
    for c in free:
        if c in table.banned[k] or c in seen:
            continue
        seen.add(c)
        j = owner.get(c, -1)
        if j < 0 or _place(table, free, owner, j, seen):
            owner[c] = k
            return True
    return False


def _name(state: FirstDruidState, plan: _Plan, s: int, rng: random.Random, cards: dict[int, int]) -> FirstDruidState:
    """Replays the skeleton with every hidden card named, and the turn under way's unmade
    offers (FD15); returns the state it reaches."""
    n = state.n
    new = state.game.new_initial_state()
    assert isinstance(new, type(state))

    # the turn under way (FD15): unmade offers of another seat, withdrawn, and one being made now
    compose = plan.compose_now and rng.random() < 0.5
    withdrawn = rng.randint(0, MAX_OFFERS - plan.sent - (1 if compose else 0)) if plan.current >= 0 else 0
    inserted = plan.current < 0

    def moment() -> bool:
        a = plan.current
        return (
            new.phase == TURN
            and new.stage == TURNS
            and new.player == a
            and new.turn == state.turn
            and new.neutral == state.neutral
            and not new.table
            and new.offer_to < 0
            and new.offers < MAX_OFFERS
            and bool(new.hands[a])
            and any(new.hands[k] for k in range(n) if k != a)
        )

    def withdraw_offers() -> None:
        a = plan.current
        for _ in range(withdrawn):
            targets = [k for k in range(n) if k != a and new.hands[k]]
            new._apply_known(OFFER + rng.choice(targets))
            new._apply_known(WITHDRAW)

    apply = new._apply_known  # each action is legal by construction (the record is checked at the end)
    last_begin = plan.last_begin
    for pos, (code, e) in enumerate(plan.steps):
        if not inserted and pos > last_begin and moment():
            withdraw_offers()
            inserted = True
        if code == _FIXED:
            apply(e[1])
            continue
        _, _, actor, a, b, cs = e
        if code == _HDRAW:
            card = cards[pos]
            if card not in new.draw:
                raise _Retry
            apply(card)
        elif code == _HDRAIN:
            if cards[pos] not in new.hands[a]:
                raise _Retry
            apply(DRAIN + cards[pos])
        elif code == _HBID:
            if cards[pos] not in new.hands[actor]:
                raise _Retry
            apply(BID + cards[pos])
        elif code == _COMPOSE:
            apply(OFFER + a)
            for c in b:
                apply(GIVE + c)
            for c in cs:
                apply(ASK + c)
            apply(SEND)
    if not inserted:
        if moment():
            withdraw_offers()
        elif compose:
            raise _Retry
    if compose:
        _compose(new, plan.current, rng)
    if new.phase == TURN and new.table and new.player != s and not new.legal_actions():
        raise _Retry  # the cards picked so far must still make a combination (FD6)
    return new


def _compose(new: FirstDruidState, a: int, rng: random.Random) -> None:
    """Puts together an offer of seat ``a`` not yet sent (FD15): any target, any given cards,
    any asked cards."""
    targets = [k for k in range(new.n) if k != a and new.hands[k]]
    k = rng.choice(targets)
    new._apply_known(OFFER + k)
    hand = sorted(new.hands[a])
    for c in sorted(rng.sample(hand, rng.randint(0, len(hand)))):
        new._apply_known(GIVE + c)
    asks = sorted(x - ASK for x in new.legal_actions() if ASK <= x < SEND)
    count = rng.randint(0, min(len(new.hands[k]), len(asks)))
    for c in sorted(rng.sample(asks, count)):
        new._apply_known(ASK + c)
