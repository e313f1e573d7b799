"""First Druid's state fields as JSON, and their validation when loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henge import box
from henge.core import check, load_int
from henge.games.first_druid import scoring
from henge.games.first_druid.actions import (
    ANSWER,
    BID_PHASE,
    CONTEST,
    DEAL,
    DISCARD_PHASE,
    DRAIN_PHASE,
    DRAW_PHASE,
    ELEMENT,
    HAND_LIMIT,
    LOG_LENGTH,
    MAX_OFFERS,
    OVER,
    PHASE_NAMES,
    REFRESH,
    SECTIONS,
    SETUP,
    STAGE_NAMES,
    TEXT,
    TURN,
    TURNS,
    WILD_BASE,
)
from henge.games.first_druid.knowledge import default_views, pack, unpack, view_names

if TYPE_CHECKING:
    from henge.games.first_druid.position import Position

_LIMIT_WORDS = {5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
"""The hand limit in words, for the load checks' messages (HAND_LIMITS)."""


def _texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in cards]


def _mask_texts(mask: int) -> list[str]:
    return [TEXT[c] for c in range(box.DECK_SIZE) if mask >> c & 1]


def dump(state: Position) -> dict[str, Any]:
    """Returns every field of the state (secrets included)."""
    n = state.n
    places = n + 1
    views = unpack(n, state.views)
    last = None
    if state.last_contest:
        space, bids, values, winner, placed = state.last_contest
        last = {"number": space, "bids": [_texts(b) for b in bids], "values": list(values), "winner": winner}
        last["placed"] = placed
    return {
        "phase": PHASE_NAMES[state.phase],
        "stage": STAGE_NAMES[state.stage],
        "player": state.player,
        "neutral": state.neutral,
        "first": state.first,
        "turn": state.turn,
        "ending": state.ending,
        "element": TEXT[state.element] if state.element >= 0 else None,
        "turned": _texts(state.turned),
        "druids": list(state.pos),
        "hands": [_texts(h) for h in state.hands],
        "bids": [_texts(b) for b in state.bids],
        "draw_pile": sorted(_texts(state.draw)),
        "discard_pile": _texts(state.discard),
        "table": _texts(state.table),
        "wild_number": state.table_wild,
        "bluestones": list(state.clans),
        "spirits": list(state.spirits),
        "sections": state.sections,
        "trilithon_owners": list(state.owners),
        "altar": list(state.altar),
        "acted": state.acted,
        "offers": state.offers,
        "withdrawn": state.withdrawn,
        "offer_to": state.offer_to,
        "give": _texts(state.give),
        "ask": _texts(state.ask),
        "drains": list(state.drains),
        "draw_seat": state.draw_seat,
        "draw_count": state.draw_count,
        "refreshed": state.refreshed,
        "contest": state.contest,
        "bidder": state.bidder,
        "last_contest": last,
        "knowledge": {
            name: [" ".join(_mask_texts(views[o * places + p])) for p in range(places)]
            for o, name in enumerate(view_names(n))
        },
        "log": [[text, taker, victim, TEXT[card] if card >= 0 else None] for text, taker, victim, card in state.log],
        "winners": list(state.winners),
        "reason": state.reason,
    }


def _bool(value: Any, name: str) -> bool:
    check(isinstance(value, bool), f"{name} must be true or false")
    return bool(value)


def _list(value: Any, name: str, length: int | None = None) -> list[Any]:
    check(isinstance(value, list), f"{name} must be a list")
    if length is not None:
        check(len(value) == length, f"{name} must have {length} entries")
    return list(value)


def _cards(value: Any, name: str, deck: tuple[int, ...]) -> list[int]:
    texts = _list(value, name)
    check(all(isinstance(t, str) for t in texts), f"{name} must be a list of card texts")
    cards = [box.parse_card(t) for t in texts]
    check(all(c in deck for c in cards), f"{name}: only the 60 number cards and the players' trilithon cards")
    return cards


def _names(phases: tuple[int, ...]) -> str:
    return ", ".join(PHASE_NAMES[p] for p in phases)


def _mask(value: Any, name: str, deck: tuple[int, ...]) -> int:
    mask = 0
    for c in _cards(value, name, deck):
        mask |= 1 << c
    return mask


def load(state: Position, fields: Mapping[str, Any]) -> None:
    """Sets every field from JSON and checks the documented invariants (G7): every card in
    exactly one place, pieces within their stocks, phases, stages, counters and the offer
    fitting each other, and every view's knowledge true of the position."""
    n = state.n
    deck = state.deck
    check(fields["phase"] in PHASE_NAMES, f"phase must be one of {', '.join(PHASE_NAMES)}")
    check(fields["stage"] in STAGE_NAMES, f"stage must be one of {', '.join(STAGE_NAMES)}")
    state.phase = PHASE_NAMES.index(fields["phase"])
    state.stage = STAGE_NAMES.index(fields["stage"])
    state.player = load_int(fields["player"], 0, n - 1, "player")
    state.neutral = load_int(fields["neutral"], 0, box.INNER_STONES - 1, "neutral")
    state.first = load_int(fields["first"], 0, n - 1, "first")
    state.turn = load_int(fields["turn"], 0, n, "turn")
    state.ending = _bool(fields["ending"], "ending")
    element = fields["element"]
    state.element = -1 if element is None else _cards([element], "element", deck)[0]
    state.turned = _cards(fields["turned"], "turned", deck)
    state.pos = [load_int(p, 1, box.RING_SPACES, "druid") for p in _list(fields["druids"], "druids", n)]
    state.hands = [_cards(h, "hand", deck) for h in _list(fields["hands"], "hands", n)]
    state.bids = [_cards(b, "bid", deck) for b in _list(fields["bids"], "bids", n)]
    state.draw = sorted(_cards(fields["draw_pile"], "draw_pile", deck))  # kept sorted (no order is modelled)
    state.discard = _cards(fields["discard_pile"], "discard_pile", deck)
    state.table = _cards(fields["table"], "table", deck)
    state.table_wild = load_int(fields["wild_number"], 0, 30, "wild_number")
    every = state.draw + state.discard + state.table + state.turned + [c for h in state.hands + state.bids for c in h]
    if state.element >= 0:
        every.append(state.element)
    check(sorted(every) == sorted(deck), "every card of the deck must be in exactly one place")
    state.clans = [load_int(s, 0, n - 1, "bluestone owner") for s in _list(fields["bluestones"], "bluestones")]
    check(len(state.clans) <= box.BLUESTONES, "there are 19 bluestones")
    state.spirits = [
        load_int(s, -1, n - 1, "spirit owner") for s in _list(fields["spirits"], "spirits", box.RING_SPACES)
    ]
    state.sections = load_int(fields["sections"], 0, SECTIONS, "sections")
    owners = _list(fields["trilithon_owners"], "trilithon_owners", box.TRILITHON_SPACES)
    state.owners = [load_int(s, -1, n - 1, "trilithon owner") for s in owners]
    check(all(o < 0 or state.sections >= 3 * t + 3 for t, o in enumerate(state.owners)), "only a capstone is owned")
    state.altar = [load_int(s, 0, n - 1, "altar bar") for s in _list(fields["altar"], "altar")]
    check(len(state.altar) < n, "a full altar is cleared at once (FD12)")
    check(all(state.disks_left(s) >= 0 and state.bars_left(s) >= 0 for s in range(n)), "10 disks and 10 bars each")
    state.acted = _bool(fields["acted"], "acted")
    state.offers = load_int(fields["offers"], 0, MAX_OFFERS, "offers")
    state.withdrawn = load_int(fields["withdrawn"], 0, MAX_OFFERS, "withdrawn")
    state.offer_to = load_int(fields["offer_to"], -1, n - 1, "offer_to")
    state.give = _cards(fields["give"], "give", deck)
    state.ask = _cards(fields["ask"], "ask", deck)
    state.drains = [load_int(s, 0, n - 1, "drain victim") for s in _list(fields["drains"], "drains")]
    state.draw_seat = load_int(fields["draw_seat"], 0, n - 1, "draw_seat")
    state.draw_count = load_int(fields["draw_count"], 0, max(DEAL, 1 + box.TRILITHON_SPACES), "draw_count")
    state.refreshed = load_int(fields["refreshed"], 0, n, "refreshed")
    state.contest = load_int(fields["contest"], 0, box.RING_SPACES - 1, "contest")
    state.bidder = load_int(fields["bidder"], 0, n - 1, "bidder")
    _load_contest(state, fields["last_contest"])
    _load_log(state, fields["log"])
    state.winners = tuple(load_int(w, 0, n - 1, "winner") for w in _list(fields["winners"], "winners"))
    state.reason = fields["reason"]
    check(isinstance(state.reason, str), "reason must be text")
    _check_stage(state)
    _check_turn(state)
    _check_round(state)
    knowledge = fields["knowledge"]
    state.views = default_views(state) if knowledge is None else _load_views(state, knowledge)
    _check_views(state)
    state.trail = None
    state.trail_tail = []
    state.rooted = False


def _load_contest(state: Position, last: Any) -> None:
    n = state.n
    if last is None:
        state.last_contest = ()
        return
    check(isinstance(last, Mapping), "last_contest must be an object or null")
    space = load_int(last["number"], 1, box.RING_SPACES - 1, "last_contest number")
    bids = tuple(tuple(_cards(b, "last_contest bid", state.deck)) for b in _list(last["bids"], "bids", n))
    values = tuple(load_int(v, 0, 30 * HAND_LIMIT, "last_contest value") for v in _list(last["values"], "values", n))
    winner = load_int(last["winner"], -1, n - 1, "last_contest winner")
    state.last_contest = (space, bids, values, winner, _bool(last["placed"], "last_contest placed"))


def _load_log(state: Position, log: Any) -> None:
    n = state.n
    entries = []
    for entry in _list(log, "log"):
        item = _list(entry, "log entry", 4)
        check(isinstance(item[0], str), "a log entry starts with its text")
        card = -1 if item[3] is None else _cards([item[3]], "log card", state.deck)[0]
        entries.append(
            (item[0], load_int(item[1], -1, n - 1, "log seat"), load_int(item[2], -1, n - 1, "log seat"), card)
        )
    check(len(entries) <= LOG_LENGTH, f"the log keeps {LOG_LENGTH} entries")
    state.log = tuple(entries)


def _load_views(state: Position, knowledge: Any) -> int:
    n = state.n
    names = view_names(n)
    check(
        isinstance(knowledge, Mapping) and sorted(knowledge) == sorted(names),
        f"knowledge must be null or an object with the views {', '.join(names)}",
    )
    views = []
    for name in names:
        places = _list(knowledge[name], f"knowledge of {name}", n + 1)
        for text in places:
            check(isinstance(text, str), f"knowledge of {name}: a place holds a text of cards")
            views.append(_mask(text.split(), f"knowledge of {name}", state.deck))
    return pack(views)


def _check_stage(state: Position) -> None:
    """Stages and phases fit each other, and so does the set-up's deal."""
    n = state.n
    phase, stage = state.phase, state.stage
    allowed = {
        SETUP: (DRAW_PHASE,),
        TURNS: (ELEMENT, TURN, ANSWER, DRAIN_PHASE, DRAW_PHASE, DISCARD_PHASE, OVER),
        REFRESH: (DRAW_PHASE, DISCARD_PHASE),
        CONTEST: (BID_PHASE,),
    }[stage]
    check(phase in allowed, f"in the {STAGE_NAMES[stage]} stage the phase is one of {_names(allowed)}")
    if stage == SETUP:
        dealt = [DEAL] * state.draw_seat + [DEAL - state.draw_count] + [0] * (n - state.draw_seat - 1)
        check(
            [len(h) for h in state.hands] == dealt and 1 <= state.draw_count <= DEAL,
            "the deal gives five cards to each seat in turn",
        )
        check(
            state.neutral == 0
            and state.turn == 0
            and state.first == 0
            and not state.discard
            and not state.clans
            and not state.altar
            and state.sections == 0
            and all(p == 1 for p in state.pos)
            and all(s < 0 for s in state.spirits + state.owners)
            and state.element < 0
            and not state.log
            and not state.last_contest,
            "nothing happens before the deal is over",
        )
    if phase == DRAW_PHASE:
        check(bool(state.draw) and state.draw_count > 0, "a draw is owed and the draw pile has cards")
        if stage != SETUP:
            check(not state.behind(state.draw_seat), "a seat the neutral figure has passed draws nothing (FD5)")
        if stage == TURNS:
            check(state.ending and state.draw_seat == state.active(), "only the inactive turn draws during a turn")
        if stage == REFRESH:
            check(
                state.draw_count == 1 and state.draw_seat == (state.first + state.refreshed) % n,
                "the additional turn gives one card to each seat in turn",
            )
    else:
        check(state.draw_count == 0, "cards are owed only while they are drawn")
    if stage == REFRESH:
        check(state.refreshed < n, "the additional turn's draws are under way")
        check(state.contest == (state.neutral // 2 if state.neutral % 2 == 0 else 0), "a contest follows each day")
    if stage == CONTEST:
        check(state.contest > 0 and state.contest == state.neutral // 2, "the contest is for the day just ended (FD9)")
    elif stage != REFRESH:
        check(state.contest == 0 and state.bidder == 0, "a contest runs only after the additional turn")
    check(not any(state.bids) or stage == CONTEST, "bids are made only in a spirit contest")
    if phase == BID_PHASE:
        check(state.player == (state.first + state.bidder) % n, "bids go in turn order")
        later = [(state.first + k) % n for k in range(state.bidder + 1, n)]
        check(all(not state.bids[s] for s in later), "seats after the bidder have not bid yet")
    check((phase == OVER) == bool(state.winners), "winners are named exactly when the game is over")
    if phase == OVER:
        scores = scoring.scores(state)
        best = [s for s in range(n) if scores[s] == max(scores)]
        check(list(state.winners) == best and bool(state.reason), "the winners are the seats with the best score")
    else:
        check(max(state.pos) < box.RING_SPACES, "the game is over once a druid reaches 30 (FD7)")


def _check_turn(state: Position) -> None:
    """The turn under way: who acts, the table, the offer (FD2, FD15), drains and discards."""
    n = state.n
    phase = state.phase
    active = state.active()
    wild = WILD_BASE + state.colours[active]
    check(
        all(c < WILD_BASE or c == wild for c in state.table), "only number cards and the own trilithon card are played"
    )
    check((wild in state.table) == (state.table_wild > 0), "wild_number is named exactly when the wild card is played")
    check(not state.table or (phase == TURN and state.offer_to < 0), "cards are laid on the table only in a turn")
    if phase in (TURN, ANSWER, DRAIN_PHASE):
        check(state.turn < n and not state.ending, "a turn is under way")
    if phase == TURN:
        check(state.player == active, "the active seat plays a turn")
    holding = [len(h) for h in state.hands]
    limit = state.hand_limit
    word = _LIMIT_WORDS[limit]
    if phase == DRAW_PHASE:
        check(all(holding[s] <= limit for s in range(n) if s != state.draw_seat), f"only the drawer is above {word}")
    elif phase == DRAIN_PHASE:
        check(all(holding[s] <= limit for s in range(n) if s != active), f"only the drainer is above {word}")
    elif phase == DISCARD_PHASE:
        before = [(active + k) % n for k in range((state.player - active) % n)]
        check(holding[state.player] > limit, f"only a seat above {word} cards discards")
        check(all(holding[s] <= limit for s in before), "seats discard clockwise from the active seat")
    else:
        check(all(size <= limit for size in holding), f"a hand holds at most {word} cards")
    composing = state.offer_to >= 0
    check(state.offers >= state.withdrawn + (1 if composing else 0), "every offer, withdrawn or not, is counted")
    if state.offers:
        check(
            state.stage == TURNS and not state.ending and phase in (TURN, ANSWER, DRAIN_PHASE, DISCARD_PHASE),
            "offers are counted only while the turn lasts",
        )
    if composing:
        hand = state.hands[active]
        check(state.offer_to != active and phase in (TURN, ANSWER), "an offer goes from the active seat to another")
        check(bool(state.hands[state.offer_to]), "an offer goes to a seat holding cards")
        check(all(c in hand for c in state.give), "offered cards must be in the offering hand")
        check(
            state.give == sorted(set(state.give)) and state.ask == sorted(set(state.ask)),
            "an offer names each card once, in order",
        )
        check(
            not any(c in hand or c in state.discard or c == state.element for c in state.ask),
            "an offer asks only for cards its maker cannot see",
        )
        check(len(state.ask) <= len(state.hands[state.offer_to]), "an offer asks for at most the cards held")
        if phase == ANSWER:
            check(state.player == state.offer_to and bool(state.give) and bool(state.ask), "a sent offer is answered")
    else:
        check(not state.give and not state.ask and phase != ANSWER, "give and ask belong to an offer")
    if state.drains:
        check(phase == DRAIN_PHASE, "drains are taken at once")
        order = [(active + k) % n for k in range(1, n)]
        check(
            all(v in order for v in state.drains)
            and sorted(state.drains, key=order.index) == state.drains
            and len(set(state.drains)) == len(state.drains),
            "drains take from the other seats clockwise, once each (FD13)",
        )
        check(bool(state.hands[state.drains[0]]), "a drain takes from a non-empty hand")
    else:
        check(phase != DRAIN_PHASE, "a drain is owed")


def _check_round(state: Position) -> None:
    """Time, the element card and the first player (FD8)."""
    number = state.neutral // 2 + 1
    day_seat = state.seat_of[box.colour_index(number)]
    check(not state.turned or state.phase == ELEMENT, "cards are set aside only while the element is sought")
    if state.phase == ELEMENT:
        check(
            state.neutral % 2 == 0 and day_seat < 0 and state.element < 0 and state.turn == 0,
            "cards are turned only on a night whose colour no seat has (FD8)",
        )
        check(all(state.seat_of[box.CARD_COLOUR[c]] < 0 for c in state.turned), "a turned card matching a seat stays")
        return
    if state.element >= 0:
        check(
            state.stage != SETUP and day_seat < 0 and state.seat_of[box.CARD_COLOUR[state.element]] >= 0,
            "the element card stays only for a number whose colour no seat has (FD8)",
        )
    if state.stage == TURNS:
        expected = (
            day_seat if day_seat >= 0 else state.seat_of[box.CARD_COLOUR[state.element]] if state.element >= 0 else -1
        )
        check(expected >= 0 and state.first == expected, "the first player is the day's colour or the element card's")


def _check_views(state: Position) -> None:
    """Every view's knowledge is true of the position (each seat knows its own holding)."""
    n = state.n
    places = n + 1
    where = [-1] * box.DECK_SIZE
    for h in range(n):
        for c in state.hands[h] + state.bids[h]:
            where[c] = h
    for c in state.draw:
        where[c] = n
    hidden = 0
    for c in range(box.DECK_SIZE):
        if where[c] >= 0:
            hidden |= 1 << c
    views = unpack(n, state.views)
    for o, name in enumerate(view_names(n)):
        base = o * places
        for p in range(places):
            mask = views[base + p]
            check(not mask & ~hidden, f"knowledge of {name}: a card seen face up is in no hidden place")
            empty = not state.draw if p == n else not (state.hands[p] or state.bids[p])
            check(not (empty and mask), f"knowledge of {name}: an empty place holds nothing")
        for c in range(box.DECK_SIZE):
            if where[c] >= 0:
                check(bool(views[base + where[c]] >> c & 1), f"knowledge of {name}: {TEXT[c]} is where it may be")
        if o < n:
            own = 0
            for c in state.hands[o] + state.bids[o]:
                own |= 1 << c
            check(views[base + o] == own, f"knowledge of {name}: a seat knows its own cards")
