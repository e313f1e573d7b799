"""Who knows which card in First Druid (G3, G6, FD13, FD15): the views.

Every seat remembers all it saw (G6). A *view* keeps, for one pair of eyes and
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

What a seat sees built from them is in ``observation``; the record of hidden events in
``trail``; drawing a state from a seat's information set in ``resample``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henge import box

if TYPE_CHECKING:
    from henge.games.first_druid.position import Position

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


def layout(n: int) -> tuple[int, dict[tuple[int, int], int]]:
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
        self.count = count = layout(n)[0]
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
    return layout(n)[0]


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


def default_views(state: Position) -> int:
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


def _remove(state: Position, card: int) -> None:
    state.views &= _MASKS[state.n].keep[card]


def clear_empty(state: Position, seat: int) -> None:
    """A holding everyone sees empty holds nothing, in every view."""
    if not state.hands[seat] and not state.bids[seat]:
        state.views &= _MASKS[state.n].clear[seat]


def _clear_pile(state: Position) -> None:
    if not state.draw:
        state.views &= _MASKS[state.n].clear[state.n]


def note_draw(state: Position, seat: int, card: int) -> None:
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


def note_turned(state: Position, card: int) -> None:
    """A card turned face up from the pile (FD8)."""
    _remove(state, card)
    _clear_pile(state)


def note_drain(state: Position, taker: int, victim: int, card: int) -> None:
    """FD13, G6: taker and victim see the card; everyone else sees only that one moved."""
    n = state.n
    masks = _MASKS[n]
    pair = layout(n)[1][(taker, victim)]
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


def note_gone(state: Position, seat: int, card: int, *, clear: bool = True) -> None:
    """A card leaves ``seat``'s holding face up (played, discarded, a bid revealed)."""
    _remove(state, card)
    if clear:
        clear_empty(state, seat)


def note_bids_shown(state: Position, bids: tuple[tuple[int, ...], ...]) -> None:
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


def _note_shown(state: Position, card: int, seat: int) -> None:
    """Everyone sees ``card`` in ``seat``'s holding."""
    masks = _MASKS[state.n]
    state.views = (state.views & masks.keep[card]) | (masks.everywhere[seat] << card)


def note_offer(state: Position, a: int, give: list[int], ask: list[int]) -> None:
    """FD2, FD15: a sent offer shows its given cards in the offering hand and tells that the
    cards it asks for are not there (an offer never asks for the offerer's own cards)."""
    for c in give:
        _note_shown(state, c, a)
    views = state.views
    state.views = views ^ (views & _MASKS[state.n].everywhere[a] * _mask(ask))


def note_trade(state: Position, a: int, b: int, give: list[int], ask: list[int]) -> None:
    """FD2: an accepted trade is public; everyone knows where the cards went."""
    for c in give:
        _note_shown(state, c, b)
    for c in ask:
        _note_shown(state, c, a)


def note_refill(state: Position) -> None:
    """The discard pile became the draw pile: everyone knows what is in it."""
    masks = _MASKS[state.n]
    state.views = (state.views & masks.clear[state.n]) | masks.everywhere[state.n] * _mask(state.draw)


def view_row(views: int, view: int, places: int) -> list[int]:
    """Returns one view's masks, place by place, from the packed ``views`` (a reader that needs
    a few views takes them so rather than unpacking all of them)."""
    bits = views >> view * places * _W & ((1 << places * _W) - 1)
    return [bits >> p * _W & _FULL for p in range(places)]


def only_in(row: list[int], place: int) -> int:
    """Returns the cards the view (its masks ``row``) places in ``place`` and nowhere else."""
    mask = row[place]
    if not mask:
        return 0
    others = 0
    for q, other in enumerate(row):
        if q != place:
            others |= other
    return mask & ~others


def only_in_each(row: list[int]) -> list[int]:
    """Returns :func:`only_in` of every place of the view (its masks ``row``), in one pass."""
    after = [0] * (len(row) + 1)  # after[p]: the places from p on
    for p in range(len(row) - 1, -1, -1):
        after[p] = after[p + 1] | row[p]
    found = []
    before = 0
    for p, mask in enumerate(row):
        found.append(mask & ~(before | after[p + 1]))
        before |= mask
    return found
