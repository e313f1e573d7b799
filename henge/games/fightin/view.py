"""Fightin' an' Drinkin' an' Stealin'!: what each seat sees (G3) and the state as JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from henge import box
from henge.engine import check, load_int
from henge.games.fightin import events as events
from henge.games.fightin.parts import (
    CHOOSE,
    COLOURS,
    DEAL,
    DECKS,
    DRAW,
    DROP_COLOUR,
    EVENTS,
    FLIP,
    GONAGAL,
    HAND,
    KIND_NAMES,
    LOG_LINES,
    MONSTER_DECK,
    NO_EVENT,
    OVER,
    OWNER,
    PHASE_NAMES,
    PLAY,
    ROUND_CAP,
    STEAL,
    STEAL_AWARDS,
    STOCK_PER_COLOUR,
    TAKE_YELLOWS,
)

if TYPE_CHECKING:
    from henge.games.fightin.rules import FightinState

_TEXT = box.CARD_TEXT
HIDDEN = "hidden"
"""Stands for a face-down card the viewer may not see."""


def _colours(counts: list[int]) -> dict[str, int]:
    return dict(zip(COLOURS, counts, strict=True))


def _loot(state: FightinState) -> dict[str, dict[str, int]]:
    loot = state.loot
    thieves = state.board[STEAL * 2] + state.board[STEAL * 2 + 1]
    return {_TEXT[c]: _colours(loot[c * 5 : c * 5 + 5]) for c in thieves if any(loot[c * 5 : c * 5 + 5])}


def observation(state: FightinState, player: int | None) -> dict[str, Any]:
    """Returns what seat ``player`` (None: a spectator) can see at the table (G3)."""
    if player is not None and player not in (0, 1):
        raise ValueError(f"seats run 0..1, not {player}")
    over = state.phase == OVER
    choosing = state.phase == CHOOSE
    board = {}
    for event, name in enumerate(EVENTS):
        face_down: list[str | None] = []
        for seat in (0, 1):
            card = state.down[event * 2 + seat]
            face_down.append(None if card < 0 else _TEXT[card] if seat == player else HIDDEN)
        board[name] = {
            "cards": [[_TEXT[c] for c in state.board[event * 2 + seat]] for seat in (0, 1)],
            "face_down": face_down,
        }
    return {
        "game": "fightin",
        "seat": player,
        "players": 2,
        "phase": PHASE_NAMES[state.phase],
        "current_player": state.current_player(),
        "round": state.round,
        "round_cap": ROUND_CAP,
        "event": EVENTS[state.event] if state.event < NO_EVENT else None,
        "decision": KIND_NAMES[state.kind] if choosing else None,
        "events": board,
        "monsters": [_TEXT[c] for c in state.monsters],
        "monster_deck": len(state.monster_deck),
        "monster_discards": [_TEXT[c] for c in state.monster_discards],
        "altar": state.altar,
        "big_lawyer": {"space": state.lawyer, "colour": box.colour_of(state.lawyer)},
        "loot": _loot(state),
        "awards": [_colours(state.awards[seat * 5 : seat * 5 + 5]) for seat in (0, 1)],
        "stock": _colours(state.stock),
        "wee_lawyers": {colour: (None if s < 0 else s) for colour, s in zip(COLOURS, state.wee, strict=True)},
        "gonagal": None if state.gonagal < 0 else state.gonagal,
        "lead": None if state.lead < 0 else state.lead,
        "highest_thief": None if state.high < 0 else _TEXT[state.high],
        "second_thief": None if state.second < 0 else _TEXT[state.second],
        "hand": None if player is None else [_TEXT[c] for c in sorted(state.hands[player])],
        "hand_sizes": [len(h) for h in state.hands],
        "deck_sizes": [len(d) for d in state.decks],
        "discards": [[_TEXT[c] for c in pile] for pile in state.discards],
        "log": list(state.log),
        "dropped": [None if c < 0 else COLOURS[c] for c in state.dropped] if over else None,
        "scores": [s / 2 for s in state.scores] if over else None,
        "winners": list(state.winners) if over else None,
    }


def fields(state: FightinState) -> dict[str, Any]:
    """Returns the full state (secrets included) as JSON fields."""
    return {
        "phase": PHASE_NAMES[state.phase],
        "step": events.STEP_NAMES[state.step],
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
        "log": list(state.log),
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


def load(state: FightinState, fields: Mapping[str, Any]) -> None:
    """Sets the state from JSON fields, validating them; raises StateFormatError if bad."""
    state.phase = _name(fields["phase"], PHASE_NAMES, "phase")
    state.step = _name(fields["step"], events.STEP_NAMES, "step")
    state.kind = _name(fields["kind"], KIND_NAMES, "kind", optional=True)
    check((state.phase == CHOOSE) == (state.kind >= 0), "a decision kind is named exactly in phase choose")
    state.player = load_int(fields["player"], 0, 1, "player")
    state.event = load_int(fields["event"], 0, NO_EVENT, "event")
    state.round = load_int(fields["round"], 0, ROUND_CAP, "round")
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


def _load_awards(state: FightinState, fields: Mapping[str, Any]) -> None:
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


def _load_context(state: FightinState, fields: Mapping[str, Any]) -> None:
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
    state.log = tuple(log)
    # The step and the pending decision must have what they work on.
    check(state.step not in events.NEEDS_LEAD or state.lead >= 0, "this step needs the lead seat")
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
        check(bool(events.options(state)), "the pending decision has no option")
    elif state.phase == DEAL:
        check(state.event < NO_EVENT, "a deal goes to an event")
        check(any(c != GONAGAL[state.player] for c in state.decks[state.player]), "nothing left to deal")
    elif state.phase == DRAW:
        check(bool(state.decks[state.player]), "a draw needs a card in the deck")
    elif state.phase == FLIP:
        check(bool(state.monster_deck), "a flip needs a card in the monster deck")
