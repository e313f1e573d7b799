"""Fightin' an' Drinkin' an' Stealin'!: the state as JSON (secrets included), checked as it is loaded (G7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from henge import box
from henge.core import check, load_int
from henge.games.fightin.actions import (
    ASKS,
    CHANCES,
    CHOOSE,
    COLOURS,
    DEAL,
    DEALS,
    DECKS,
    DRAW,
    DROP_COLOUR,
    EVENTS,
    FINISH,
    FLIP,
    GONAGAL,
    GONAGAL_STEPS,
    HAND,
    HIGH,
    KIND_NAMES,
    LAWYER_START,
    LEAD,
    LOG_LINES,
    MONSTER_DECK,
    NAME_COLOUR,
    NAMER,
    NEEDS_LEAD,
    NO_EVENT,
    OTHER,
    OVER,
    OWNER,
    PHASE_NAMES,
    PLAY,
    SCARPER,
    SECOND,
    SHARE_ALL,
    START_ROUND,
    STEAL,
    STEAL_AWARDS,
    STEP_NAMES,
    STOCK_PER_COLOUR,
    TAKE_YELLOWS,
    TWO_MONSTERS,
)
from henge.games.fightin.choices import options
from henge.games.fightin.events import _rank
from henge.games.fightin.observation import _loot, log_lines
from henge.games.fightin.position import Position, _own, _points

_TEXT = box.CARD_TEXT


def fields(state: Position) -> dict[str, Any]:
    """Returns the full state (secrets included) as JSON fields."""
    return {
        "phase": PHASE_NAMES[state.phase],
        "step": STEP_NAMES[state.step],
        "kind": KIND_NAMES[state.kind] if state.kind >= 0 else None,
        "player": state.player,
        "event": state.event,
        "round": state.round,
        "hands": [[_TEXT[c] for c in hand] for hand in state.hands],
        "decks": [sorted(_TEXT[c] for c in deck) for deck in state.decks],
        "board": {name: [[_TEXT[c] for c in state.board[e * 2 + s]] for s in (0, 1)] for e, name in enumerate(EVENTS)},
        "face_down": {
            name: [None if state.down[e * 2 + s] < 0 else _TEXT[state.down[e * 2 + s]] for s in (0, 1)]
            for e, name in enumerate(EVENTS)
        },
        "monsters": [_TEXT[c] for c in state.monsters],
        "monster_deck": sorted(_TEXT[c] for c in state.monster_deck),
        "discards": [[_TEXT[c] for c in pile] for pile in state.discards],
        "monster_discards": [_TEXT[c] for c in state.monster_discards],
        "loot": {name: list(counts.values()) for name, counts in _loot(state).items()},
        "awards": [state.awards[0:5], state.awards[5:10]],
        "stock": list(state.stock),
        "altar": state.altar,
        "lawyer": state.lawyer,
        "wee_lawyers": [None if s < 0 else s for s in state.wee],
        "gonagal": state.gonagal,
        "lead": state.lead,
        "high": None if state.high < 0 else _TEXT[state.high],
        "second": None if state.second < 0 else _TEXT[state.second],
        "taken": state.taken,
        "habeas": list(state.habeas),
        "dropped": [None if c < 0 else COLOURS[c] for c in state.dropped],
        "scores": list(state.scores),
        "winners": list(state.winners),
        "log": log_lines(state),
    }


# -- loading ---------------------------------------------------------------------------


def _name(value: Any, names: tuple[str, ...], name: str, *, optional: bool = False) -> int:
    if optional and value is None:
        return -1
    check(value in names, f"{name} must be one of {', '.join(names)}" + (" or null" if optional else ""))
    return names.index(value)


def _card(value: Any, name: str, *, optional: bool = False) -> int:
    if optional and value is None:
        return -1
    check(isinstance(value, str), f"{name}: a card text such as 13d, 7n or T-red")
    return box.parse_card(value)


def _cards(values: Any, name: str, allowed: tuple[int, ...], size: int = 65) -> list[int]:
    check(isinstance(values, list) and len(values) <= size, f"{name} must be a list of at most {size} card texts")
    cards = [_card(v, name) for v in values]
    check(all(c in allowed for c in cards), f"{name}: a card that cannot be there")
    return cards


def _pair(values: Any, name: str) -> list[Any]:
    check(isinstance(values, list) and len(values) == 2, f"{name} must hold one entry per seat (2)")
    return list(values)


def _counts(values: Any, name: str) -> list[int]:
    check(isinstance(values, list) and len(values) == 5, f"{name} must hold five counts (white..red)")
    return [load_int(v, 0, STOCK_PER_COLOUR, name) for v in values]


def _mapping(value: Any, name: str) -> Mapping[str, Any]:
    check(isinstance(value, Mapping) and set(value) == set(EVENTS), f"{name} must map {', '.join(EVENTS)}")
    return value


def load(state: Position, fields: Mapping[str, Any]) -> None:
    """Sets the state from JSON fields, validating them; raises StateFormatError if bad."""
    _own(state, SHARE_ALL)  # its lists its own, changed in place below (see position._own)
    state.phase = _name(fields["phase"], PHASE_NAMES, "phase")
    state.step = _name(fields["step"], STEP_NAMES, "step")
    state.kind = _name(fields["kind"], KIND_NAMES, "kind", optional=True)
    check((state.phase == CHOOSE) == (state.kind >= 0), "a decision kind is named exactly in phase choose")
    state.player = load_int(fields["player"], 0, 1, "player")
    state.event = load_int(fields["event"], 0, NO_EVENT, "event")
    state.round = load_int(fields["round"], 0, state.rounds, "round")
    state.hands = [_cards(h, "hand", DECKS[s], HAND) for s, h in enumerate(_pair(fields["hands"], "hands"))]
    state.decks = [sorted(_cards(d, "deck", DECKS[s])) for s, d in enumerate(_pair(fields["decks"], "decks"))]
    board = _mapping(fields["board"], "board")
    face_down = _mapping(fields["face_down"], "face_down")
    for e, name in enumerate(EVENTS):
        for s, cards in enumerate(_pair(board[name], f"board {name}")):
            state.board[e * 2 + s] = _cards(cards, f"board {name}", DECKS[s], 2)
        for s, card in enumerate(_pair(face_down[name], f"face_down {name}")):
            state.down[e * 2 + s] = _card(card, f"face_down {name}", optional=True)
            check(state.down[e * 2 + s] in (-1, *DECKS[s]), f"face_down {name}: not a card of seat {s}")
    state.monsters = _cards(fields["monsters"], "monsters", MONSTER_DECK, 2)
    state.monster_deck = sorted(_cards(fields["monster_deck"], "monster_deck", MONSTER_DECK))
    state.monster_discards = _cards(fields["monster_discards"], "monster_discards", MONSTER_DECK)
    state.discards = [_cards(d, "discards", DECKS[s]) for s, d in enumerate(_pair(fields["discards"], "discards"))]
    for seat in (0, 1):
        every = state.hands[seat] + state.decks[seat] + state.discards[seat]
        every += [c for e in range(3) for c in state.board[e * 2 + seat]]
        every += [state.down[e * 2 + seat] for e in range(3) if state.down[e * 2 + seat] >= 0]
        check(sorted(every) == list(DECKS[seat]), f"every card of seat {seat}'s deck must be in exactly one place")
    every = state.monsters + state.monster_deck + state.monster_discards
    check(sorted(every) == list(MONSTER_DECK), "every monster card must be in exactly one place")
    _load_awards(state, fields)
    _load_context(state, fields)


def _load_awards(state: Position, fields: Mapping[str, Any]) -> None:
    thieves = state.board[STEAL * 2] + state.board[STEAL * 2 + 1]
    loot = fields["loot"]
    check(isinstance(loot, Mapping), "loot must map thief cards to five counts")
    state.loot = [0] * 300
    for name, counts in loot.items():
        card = _card(name, "loot")
        check(card in thieves, f"loot: {name} is not a thief in the Stealin' event")
        state.loot[card * 5 : card * 5 + 5] = _counts(counts, "loot")
    awards = _pair(fields["awards"], "awards")
    state.awards = _counts(awards[0], "awards") + _counts(awards[1], "awards")
    state.stock = _counts(fields["stock"], "stock")
    state.altar = load_int(fields["altar"], 0, STOCK_PER_COLOUR, "altar")
    for colour in range(5):
        held = state.stock[colour] + state.awards[colour] + state.awards[5 + colour]
        held += sum(state.loot[c * 5 + colour] for c in thieves) + (state.altar if colour == 1 else 0)
        check(held == STOCK_PER_COLOUR, f"there are {STOCK_PER_COLOUR} {COLOURS[colour]} awards, not {held}")
    state.lawyer = load_int(fields["lawyer"], 1, 30, "lawyer")
    wee = fields["wee_lawyers"]
    check(isinstance(wee, list) and len(wee) == 5, "wee_lawyers: the holder of each colour's (null for nobody)")
    state.wee = [-1 if s is None else load_int(s, 0, 1, "wee lawyer holder") for s in wee]


def _load_context(state: Position, fields: Mapping[str, Any]) -> None:
    state.gonagal = load_int(fields["gonagal"], -1, 1, "gonagal")
    state.lead = load_int(fields["lead"], -1, 1, "lead")
    thieves = state.board[STEAL * 2] + state.board[STEAL * 2 + 1]
    state.high = _card(fields["high"], "high", optional=True)
    state.second = _card(fields["second"], "second", optional=True)
    check(state.high in (-1, *thieves) and state.second in (-1, *thieves), "high, second: thieves on the board")
    state.taken = load_int(fields["taken"], 0, 99, "taken")
    state.habeas = [load_int(h, 0, 1, "habeas") for h in _pair(fields["habeas"], "habeas")]
    state.dropped = [_name(c, COLOURS, "dropped", optional=True) for c in _pair(fields["dropped"], "dropped")]
    scores = fields["scores"]
    check(isinstance(scores, list) and len(scores) in (0, 2), "scores: none, or one per seat")
    state.scores = tuple(load_int(s, 0, 200, "score") for s in scores)
    winners = fields["winners"]
    check(isinstance(winners, list) and len(winners) <= 2, "winners: a list of seats")
    state.winners = tuple(load_int(w, 0, 1, "winner") for w in winners)
    check((state.phase == OVER) == bool(state.winners) == bool(state.scores), "winners are named once it is over")
    log = fields["log"]
    check(isinstance(log, list) and len(log) <= LOG_LINES and all(isinstance(x, str) for x in log), "log: lines")
    state.log = None
    for line in log:
        state.log = (state.log, line)
    # The step and the pending decision must have what they work on.
    _check_stage(state)
    check(state.step not in NEEDS_LEAD or state.lead >= 0, "this step needs the lead seat")
    if state.gonagal >= 0:
        check(
            state.event < NO_EVENT and GONAGAL[state.gonagal] in state.board[state.event * 2 + state.gonagal],
            "a working Gonagal must be on the board of the event being resolved",
        )
    kind = state.kind
    if kind == STEAL_AWARDS:
        check(state.high >= 0 and OWNER[state.high] == state.player, "a steal needs the chooser's highest thief")
    if kind == TAKE_YELLOWS:
        check(state.second >= 0 and OWNER[state.second] == state.player, "a yellow needs the second thief")
    if kind == PLAY:
        check(state.event < NO_EVENT and state.down[state.event * 2 + state.player] < 0, "placing: a free slot")
    elif 0 <= kind != DROP_COLOUR:
        check(state.event < NO_EVENT, "this decision belongs to an event")
    if state.phase == CHOOSE:
        check(len(options(state)) > 1, "a pending decision has two options or more (G2: one is made, none skipped)")
    elif state.phase == DEAL:
        check(state.event < NO_EVENT, "a deal goes to an event")
        check(any(c != GONAGAL[state.player] for c in state.decks[state.player]), "nothing left to deal")
    elif state.phase == DRAW:
        check(bool(state.decks[state.player]), "a draw needs a card in the deck")
    elif state.phase == FLIP:
        check(bool(state.monster_deck), "a flip needs a card in the monster deck")
    _check_cards(state)
    _check_counters(state)


# -- G7: where a state can rest, and what fits it ---------------------------------------------------


def _check_stage(state: Position) -> None:
    """The phase, step, decision, round, event and the seat to act fit each other (actions.ASKS,
    actions.CHANCES); the lead seat and a working Gonagal are named exactly where they apply."""
    phase, step, kind, seat, event, lead = state.phase, state.step, state.kind, state.player, state.event, state.lead
    where = f"{PHASE_NAMES[phase]} at step {STEP_NAMES[step]}"
    who = -1
    if phase == CHOOSE:
        rest = ASKS.get((kind, step))
        where = f"a {KIND_NAMES[kind]} decision at step {STEP_NAMES[step]}"
        check(rest is not None, f"{where} cannot be: that decision never waits there")
        assert rest is not None
        belongs, who = rest
        if kind != PLAY:
            check(event == belongs, f"{where} belongs to event {_event_name(belongs)}, not {_event_name(event)}")
    elif phase == OVER:
        check(step == FINISH, f"a finished game rests at step finish, not {STEP_NAMES[step]}")
        check(event == NO_EVENT, "a finished game has no event under way")
    else:
        belongs = CHANCES.get((phase, step), -2)
        check(belongs != -2, f"{where} cannot be: no chance node waits there")
        if belongs != -1:
            check(event == belongs, f"{where} belongs to event {_event_name(belongs)}, not {_event_name(event)}")
        if phase == FLIP:
            who = 0 if step == START_ROUND else LEAD
    setup = (phase, step) in ((DEAL, DEALS), (FLIP, START_ROUND)) or (phase == DRAW and state.round == 0)
    if setup:
        check(state.round == 0, f"{where} is part of the set-up, in round 0, not round {state.round}")
    else:
        check(state.round >= 1, f"{where} comes once the set-up is done: the round must be 1..{state.rounds}")
    if kind == DROP_COLOUR or phase == OVER:
        check(state.round == state.rounds, f"scoring comes after round {state.rounds}, not round {state.round}")
    if phase == DRAW:
        check(state.round < state.rounds, f"nobody draws after round {state.rounds}")
    needs_lead = who in (LEAD, OTHER)
    check((lead >= 0) == needs_lead, f"{where} {'needs' if needs_lead else 'has no'} lead seat")
    chooser = {
        LEAD: lead,
        OTHER: 1 - lead,
        HIGH: OWNER[state.high] if state.high >= 0 else -1,
        SECOND: OWNER[state.second] if state.second >= 0 else -1,
        NAMER: state.habeas.index(0) if sum(state.habeas) == 1 else -1,
    }.get(who, who)
    if who >= 0:
        check(seat == chooser, f"{where}: seat {chooser} acts, not seat {seat}")
    gonagal = step in GONAGAL_STEPS
    check((state.gonagal >= 0) == gonagal, f"{where} {'needs' if gonagal else 'has no'} working Gonagal")
    check(not gonagal or state.gonagal == lead, "a working Gonagal's owner is the lead seat")


def _event_name(event: int) -> str:
    return EVENTS[event] if 0 <= event < NO_EVENT else "none"


def _check_cards(state: Position) -> None:
    """Hand sizes (F12: five after a draw, or all the deck held; three placements leave two), the
    face-down cards (placed in event order, face down until their event) and the monsters fit the
    stage; the set-up deals one card to each event, seat 0 first, never a Gonagal (F1)."""
    phase, step, kind, event = state.phase, state.step, state.kind, state.event
    hands, decks, down = state.hands, state.decks, state.down

    def full(seat: int) -> bool:  # as a draw leaves a hand: five cards, or all the deck held
        return len(hands[seat]) + sum(c >= 0 for c in down[seat::2]) == HAND or not decks[seat]

    def placed(seat: int) -> bool:  # as three placements leave a hand: two cards, or none left to draw
        return len(hands[seat]) <= HAND - 3 and (len(hands[seat]) == HAND - 3 or not decks[seat])

    if phase == CHOOSE and kind == PLAY:
        opened = 0  # every event waits for its newcomers
    elif phase in (CHOOSE, FLIP) and event < NO_EVENT:
        opened = event + 1  # the events up to this one are turned over
    else:
        opened = 3
    for seat in (0, 1):
        slots = [down[e * 2 + seat] >= 0 for e in range(opened, 3)]
        check(not any(down[e * 2 + seat] >= 0 for e in range(opened)), "a face-down card stays only until its event")
        check(slots == sorted(slots, reverse=True), f"seat {seat} places its face-down cards in event order")
    if state.round == 0:
        _check_setup(state)
    elif phase == DRAW:
        drawer = state.player
        check(len(hands[drawer]) < HAND and bool(decks[drawer]), "a draw fills a hand of fewer than five")
        check(drawer == 0 or full(0), "seat 0 draws up to five before seat 1 draws")
        check(drawer == 1 or placed(1), "seat 1 holds what its placements left until it draws")
    elif phase == CHOOSE and kind == PLAY:
        seat = state.player
        for other in (0, 1):
            check(full(other), f"seat {other} holds five cards (or all its deck held) until it places them")
        placing = [down[e * 2 + seat] >= 0 for e in range(3)]
        check(
            placing == [e < event for e in range(3)], f"seat {seat} places at {EVENTS[event]} after the events before"
        )
        if seat == 1:
            check(not hands[0] or all(c >= 0 for c in down[0::2]), "seat 0 places all three cards first")
        else:
            check(all(c < 0 for c in down[1::2]), "seat 1 places after seat 0")
    else:
        for seat in (0, 1):
            check(placed(seat), f"seat {seat} holds two cards after its placements (fewer once its deck is out)")
            check(
                not hands[seat] or all(down[e * 2 + seat] >= 0 for e in range(opened, 3)),
                "a seat with cards places at every event",
            )
    monsters = 0 if state.round == 0 else 2 if (kind, step) in TWO_MONSTERS and phase == CHOOSE else 1
    check(len(state.monsters) == monsters, f"{monsters} monster card(s) on the board here, not {len(state.monsters)}")


def _check_setup(state: Position) -> None:
    counts = [len(state.board[e * 2 + seat]) for seat in (0, 1) for e in range(3)]  # in the order of the deals
    dealt = counts.index(0) if 0 in counts else 6
    check(counts == [1] * dealt + [0] * (6 - dealt), "the set-up deals one card to each event, seat 0 first")
    if state.phase == DEAL:
        check((state.player, state.event) == divmod(dealt, 3), "the deal goes to the first event without its card")
        check(not any(state.hands), "nobody draws before the deals are done")
    else:
        check(dealt == 6, "the draws come once every event has its card")
        drawer = state.player if state.phase == DRAW else 2
        for seat in (0, 1):
            size = len(state.hands[seat])
            expect = "fewer than five" if seat == drawer else "five" if seat < drawer else "none"
            fits = size < HAND if seat == drawer else size == HAND if seat < drawer else size == 0
            check(fits, f"at set-up seat {seat} holds {expect} cards here, not {size}")
    check(not any(c in GONAGAL for e in range(6) for c in state.board[e]), "F1: a Gonagal is never dealt face up")
    check(
        not state.discards[0] and not state.discards[1] and not state.monster_discards, "nothing is discarded at set-up"
    )
    check(not any(state.awards) and not any(state.loot) and not state.altar, "no awards are given at set-up")
    check(state.lawyer == LAWYER_START and all(s < 0 for s in state.wee), "the lawyers start on 30 and off the board")


def _check_counters(state: Position) -> None:
    """The ranked thieves, the awards taken by a steal, the seats caught, the colours dropped and
    the scores are set exactly where they apply and fit the board."""
    phase, step, kind = state.phase, state.step, state.kind
    if kind in (STEAL_AWARDS, TAKE_YELLOWS):
        check((state.high, state.second) == _rank(state), "the ranked thieves are the board's (F6)")
        limit = 2 if state.round == state.rounds else 1
        check(state.taken < limit, f"a steal takes at most {limit} award(s) this round")
    else:
        check(state.high < 0 and state.second < 0, "thieves are ranked only while the steals are under way")
        check(state.taken == 0, "awards are taken only while a steal is under way")
    if kind == SCARPER:
        check(not state.habeas[state.player], "a Habeascorpusized player does not scarper")
    elif kind == NAME_COLOUR:
        check(sum(state.habeas) == 1, "a Wee Lawyer is named when exactly one player was caught")
        check(box.colour_index(state.lawyer) == box.BLACK, "a Wee Lawyer is named on a black space (F8)")
    else:
        check(not any(state.habeas), "a player is Habeascorpusized only from the Big Lawyer's test to the round's end")
    drops = 2 if phase == OVER else 1 if kind == DROP_COLOUR and step == FINISH else 0
    check(
        all(c >= 0 for c in state.dropped[:drops]) and all(c < 0 for c in state.dropped[drops:]),
        "colours are dropped at scoring, seat 0 first",
    )
    for seat in range(drops):
        points = _points(state, seat)
        check(points[state.dropped[seat]] == max(points), f"seat {seat} drops its best colour (F11)")
    if phase == OVER:
        scores = tuple(sum(_points(state, s)) - _points(state, s)[state.dropped[s]] for s in (0, 1))
        check(state.scores == scores, f"the scores are {scores[0]} and {scores[1]} half awards")
        check(state.winners == tuple(s for s in (0, 1) if scores[s] == max(scores)), "the winners have the best score")
