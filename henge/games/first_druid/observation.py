"""What a seat sees in First Druid (G3, G6, FD13, FD15): the observation dict built for a seat
from the state and its views (``knowledge``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from henge import box
from henge.games.first_druid.actions import (
    DISCARD_PHASE,
    HAND_LIMIT,
    OVER,
    PHASE_NAMES,
    ROUND_CAP,
    STAGE_NAMES,
    TEXT,
    TURN,
    TURNS,
    WILD_BASE,
)
from henge.games.first_druid.knowledge import layout, only_in, only_in_each, view_row
from henge.games.first_druid.scoring import scores

if TYPE_CHECKING:
    from henge.games.first_druid.position import Position


def _cards(mask: int) -> list[str]:
    """Returns the texts of the cards in ``mask``, by card id (lowest bit first)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(TEXT[low.bit_length() - 1])
        mask ^= low
    return found


def seat_check(state: Position, player: int | None) -> None:
    if player is not None and (isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.n):
        raise ValueError(f"seats run 0..{state.n - 1}, not {player!r}")


def composing(state: Position) -> bool:
    """True while the active seat puts an offer together (nothing of it is public yet, FD15)."""
    return state.phase == TURN and state.offer_to >= 0


def observation(state: Position, player: int | None) -> dict[str, Any]:
    """Returns what seat ``player`` (None: a spectator) knows; see docs/games/first_druid.md."""
    seat_check(state, player)
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
    mine = view_row(views, me, places)
    spectator = mine if player is None else view_row(views, n, places)
    shown = only_in_each(spectator)[:n]
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
        pairs = layout(n)[1]
        known_by = [
            [] if x == player else _cards(only_in(view_row(views, pairs[(x, player)], places), player) & ~shown[player])
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
        "known_cards": [[] if h == seat else _cards(only) for h, only in enumerate(only_in_each(mine)[:n])],
        "known_by": known_by,
        "either_or": either,
        "log": log,
        "scores": scores(state),
        "winners": list(state.winners) if over else None,
        "result": state.reason if over else None,
    }
    if state.hand_limit != HAND_LIMIT:  # the designer option: only where it is not the text's ten
        obs["hand_limit"] = state.hand_limit
    return obs
