"""First Druid's state fields as JSON, and their validation when loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henge import box
from henge.engine import check, load_int
from henge.games.first_druid.actions import (
    ANSWER,
    BID_PHASE,
    CHANCE_PHASES,
    DISCARD_PHASE,
    DRAIN_PHASE,
    DRAW_PHASE,
    ELEMENT,
    HAND_LIMIT,
    LOG_LENGTH,
    MAX_OFFERS,
    OVER,
    PHASE_NAMES,
    SECTIONS,
    STAGE_NAMES,
    TEXT,
    TURN,
    WILD_BASE,
)

if TYPE_CHECKING:
    from henge.games.first_druid.rules import FirstDruidState


def _texts(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [TEXT[c] for c in cards]


def _mask_texts(mask: int) -> list[str]:
    return [TEXT[c] for c in range(box.DECK_SIZE) if mask >> c & 1]


def dump(state: FirstDruidState) -> dict[str, Any]:
    """Returns every field of the state (secrets included)."""
    n = state.n
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
        "shown_cards": [_mask_texts(m) for m in state.pub],
        "private_cards": [[_mask_texts(state.priv[o * n + h]) for h in range(n)] for o in range(n)],
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


def _mask(value: Any, name: str, deck: tuple[int, ...]) -> int:
    mask = 0
    for c in _cards(value, name, deck):
        mask |= 1 << c
    return mask


def load(state: FirstDruidState, fields: Mapping[str, Any]) -> None:
    """Sets every field from JSON, checking ranges, card conservation and the phase's needs."""
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
    state.draw = _cards(fields["draw_pile"], "draw_pile", deck)
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
    state.offer_to = load_int(fields["offer_to"], -1, n - 1, "offer_to")
    state.give = _cards(fields["give"], "give", deck)
    state.ask = _cards(fields["ask"], "ask", deck)
    state.drains = [load_int(s, 0, n - 1, "drain victim") for s in _list(fields["drains"], "drains")]
    state.draw_seat = load_int(fields["draw_seat"], 0, n - 1, "draw_seat")
    state.draw_count = load_int(fields["draw_count"], 0, 1 + box.TRILITHON_SPACES, "draw_count")
    state.refreshed = load_int(fields["refreshed"], 0, n, "refreshed")
    state.contest = load_int(fields["contest"], 0, box.RING_SPACES - 1, "contest")
    state.bidder = load_int(fields["bidder"], 0, n - 1, "bidder")
    _load_contest(state, fields["last_contest"])
    shown = _list(fields["shown_cards"], "shown_cards", n)
    state.pub = [_mask(m, "shown_cards", deck) for m in shown]
    private = _list(fields["private_cards"], "private_cards", n)
    state.priv = [_mask(m, "private_cards", deck) for row in private for m in _list(row, "private_cards", n)]
    _load_log(state, fields["log"])
    state.winners = tuple(load_int(w, 0, n - 1, "winner") for w in _list(fields["winners"], "winners"))
    state.reason = fields["reason"]
    check(isinstance(state.reason, str), "reason must be text")
    _check_consistency(state)


def _load_contest(state: FirstDruidState, last: Any) -> None:
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


def _load_log(state: FirstDruidState, log: Any) -> None:
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


def _check_consistency(state: FirstDruidState) -> None:
    n = state.n
    phase = state.phase
    active = state.active()
    held = []
    for h in range(n):
        mask = 0
        for c in state.hands[h] + state.bids[h]:
            mask |= 1 << c
        held.append(mask)
    check(all(state.pub[h] & ~held[h] == 0 for h in range(n)), "shown cards must be held by that seat")
    check(
        all(
            state.priv[o * n + h] & ~held[h] == 0 and (o != h or not state.priv[o * n + h])
            for o in range(n)
            for h in range(n)
        ),
        "privately known cards must be held by that seat",
    )
    wild = WILD_BASE + state.colours[active]
    check(
        all(c < WILD_BASE or c == wild for c in state.table), "only number cards and the own trilithon card are played"
    )
    check((wild in state.table) == (state.table_wild > 0), "wild_number is named exactly when the wild card is played")
    if phase not in (DISCARD_PHASE, DRAW_PHASE, DRAIN_PHASE):
        check(all(len(h) <= HAND_LIMIT for h in state.hands), "a hand holds at most ten cards")
    if state.offer_to >= 0:
        check(state.offer_to != active and phase in (TURN, ANSWER), "an offer goes from the active seat to another")
        check(all(c in state.hands[active] for c in state.give), "offered cards must be in the offering hand")
        check(len(set(state.give)) == len(state.give) and len(set(state.ask)) == len(state.ask), "no card twice")
    else:
        check(not state.give and not state.ask, "give and ask belong to an offer")
    check(any(state.bids) <= (state.contest > 0), "bids are made only in a spirit contest")
    check((phase == OVER) == bool(state.winners), "winners are named exactly when the game is over")
    if phase == TURN:
        check(state.player == active and state.turn < n, "the active seat plays a turn")
    elif phase == ANSWER:
        check(state.player == state.offer_to and bool(state.give) and bool(state.ask), "a sent offer is answered")
    elif phase == DISCARD_PHASE:
        check(len(state.hands[state.player]) > HAND_LIMIT, "only a seat above ten cards discards")
    elif phase == BID_PHASE:
        check(state.contest > 0 and state.player == (state.first + state.bidder) % n, "bids go in turn order")
    elif phase == DRAIN_PHASE:
        check(bool(state.drains) and bool(state.hands[state.drains[0]]), "a drain takes from a non-empty hand")
    elif phase in CHANCE_PHASES:
        check(bool(state.draw), "a card is drawn or turned from a non-empty deck")
        check(phase == ELEMENT or state.draw_count > 0, "a draw is owed")
