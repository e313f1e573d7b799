"""Fightin' an' Drinkin' an' Stealin'!: the set-up, the three events and scoring, as steps.

The state runs automatic steps (``run``) until it needs a chance outcome or a
decision. A step either moves on, sets up a chance node, or asks a seat to
choose (``_ask``); a choice with one option is made for the seat at once and a
choice with none is skipped, so only real choices become decisions (G2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from henge import box
from henge.core import Event
from henge.games.fightin.parts import (
    AUTO,
    BLUE,
    CHOOSE,
    COLOURS,
    DEAL,
    DISCARD_BASE,
    DISCARD_HIGHEST,
    DISCARD_MONSTER,
    DISCARD_OTHER,
    DISCARD_OWN,
    DONE,
    DRAW,
    DRINK,
    DROP_BASE,
    DROP_COLOUR,
    EVENTS,
    FIGHT,
    FLIP,
    GONAGAL,
    GREEN,
    HAND,
    KILL,
    KILL_BASE,
    NAME_BASE,
    NAME_COLOUR,
    NO_EVENT,
    NOUNS,
    OVER,
    OWNER,
    PLACE_BASE,
    PLAY,
    RED,
    ROUND_CAP,
    SCARPER,
    SCARPER_BASE,
    STEAL,
    STEAL_AWARDS,
    STEAL_COLOUR_BASE,
    STEAL_FROM_BASE,
    STOCK_PER_COLOUR,
    TAKE_YELLOW,
    TAKE_YELLOWS,
    TITLES,
    WHITE,
    YELLOW,
)

if TYPE_CHECKING:
    from henge.games.fightin.rules import FightinState

_NUMBER = box.CARD_NUMBER
_TRILITHONS_FROM = box.TRILITHON_CARD_BASE  # the trilithon cards are the cards from here on
_COLOUR = box.CARD_COLOUR
_TEXT = box.CARD_TEXT
_STOPPED = 99  # ``taken`` once a steal is over
_PLACES: tuple[str, ...] = tuple(f"places a card face down at {where}" for where in TITLES)
_PLACED: tuple[tuple[tuple[Mapping[int, str], ...], ...], ...] = tuple(
    tuple(tuple({seat: f"places {_TEXT[c]} face down at {where}"} for c in range(box.DECK_SIZE)) for where in TITLES)
    for seat in (0, 1)
)
"""The record's texts of a placement (G6): every seat's, and the owner's own (shared, never changed)."""
_TURNED_OVER: tuple[tuple[str, ...], ...] = tuple(tuple(f"turns over {n} {text}" for text in _TEXT) for n in NOUNS)
_SHOWN: tuple[tuple[str, ...], ...] = tuple(tuple(f"seat {seat} {text}" for text in _TEXT) for seat in (0, 1))
# The texts of the commonest moves and notes, made once (by event, seat, colour or card as they vary).
_DISCARDS: tuple[tuple[str, ...], ...] = tuple(tuple(f"discards {noun} {text}" for text in _TEXT) for noun in NOUNS)
_SCARPERS: tuple[str, ...] = tuple(f"sends thief {text} to scarper" for text in _TEXT)
_SCARPERS_OFF: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"seat {seat}'s thief {text} scarpers off" for text in _TEXT) for seat in (0, 1)
)
_TAKES_YELLOW: tuple[str, ...] = tuple(f"takes a yellow award from stock with thief {text}" for text in _TEXT)
_TAKES_YELLOW_LINE: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"seat {seat}'s thief {text} takes a yellow award from stock" for text in _TEXT) for seat in (0, 1)
)
_RANKED: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"the {place} thief is seat {OWNER[c]}'s {_TEXT[c]}" for c in range(box.DECK_SIZE))
    for place in ("highest", "second-highest")
)
_KILLS: tuple[str, ...] = tuple(f"kills {text}" for text in _TEXT)
_EARNS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(f"seat {seat} earns {n} {colour}" for n in range(STOCK_PER_COLOUR + 1)) for colour in COLOURS)
    for seat in (0, 1)
)
"""``seat N earns K colour`` by seat, colour and count (never more than a colour's whole stock, F10)."""
_ROUND_STARTS: tuple[str, ...] = tuple(f"round {n}" for n in range(ROUND_CAP + 1))
_LAWYER_SPACES: tuple[str, ...] = tuple(f"{n} ({box.colour_of(n)})" if n else "" for n in range(31))
"""Each space of the Big Lawyer's track (1..30) with its colour, as the log names it."""


# -- values ---------------------------------------------------------------------


def value(state: FightinState, card: int) -> int:
    """F3: a player's card is worth its number, or 0 under its owner's Wee Lawyer of its colour."""
    return _values(state)[card]


_VALUES: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Every card's value, by who holds each colour's Wee Lawyer (3**5 ways at most; each made when first met)."""


def _values(state: FightinState) -> tuple[int, ...]:
    """Returns value() of every card (indexed by card) under the Wee Lawyers as they stand (F3)."""
    key = tuple(state.wee)
    values = _VALUES.get(key)
    if values is None:
        wee = state.wee
        values = _VALUES[key] = tuple(
            [
                0 if colour < 5 and wee[colour] == owner else number
                for number, colour, owner in zip(_NUMBER, _COLOUR, OWNER, strict=True)
            ]
        )
    return values


def _total(values: tuple[int, ...], cards: list[int]) -> int:
    """Returns the summed values of ``cards``, each read from ``values`` (see _values)."""
    total = 0
    for card in cards:
        total += values[card]
    return total


def monster_values(monsters: list[int]) -> list[int]:
    """F4: a trilithon card counts 0 and doubles the other monster card's number."""
    values = [0 if m >= _TRILITHONS_FROM else _NUMBER[m] for m in monsters]
    if len(monsters) == 2:
        first, second = monsters[0] >= _TRILITHONS_FROM, monsters[1] >= _TRILITHONS_FROM  # which are trilithons
        if first and not second:
            values[1] *= 2
        elif second and not first:
            values[0] *= 2
    return values


def _multiplier(state: FightinState) -> int:
    return 2 if state.round == state.rounds else 1  # the seventh (last) round is worth double


def _from_stock(state: FightinState, colour: int, count: int) -> int:
    """Takes up to ``count`` awards of a colour from stock; F10: what the stock lacks is not given."""
    count = min(count, state.stock[colour])
    state.stock[colour] -= count
    return count


def _give(state: FightinState, seat: int, colour: int, count: int) -> None:
    """Gives a seat ``count`` awards of a colour from stock."""
    count = _from_stock(state, colour, count)
    if count:
        state.awards[seat * 5 + colour] += count
        _note(state, _EARNS[seat][colour][count])


def _discard(state: FightinState, card: int) -> None:
    """Moves one of a seat's board cards to its owner's discard pile (loot goes back to stock)."""
    owner = OWNER[card]
    cards = state.board[state.event * 2 + owner]  # where cards leave the board: the event being resolved
    if card in cards:
        cards.remove(card)
    else:  # (not in play) wherever else the seat's events hold it
        for pile in state.board[owner::2]:
            if card in pile:
                pile.remove(card)
                break
    state.discards[owner].append(card)
    loot = state.loot
    at = card * 5
    if loot[at] or loot[at + 1] or loot[at + 2] or loot[at + 3] or loot[at + 4]:
        for colour in range(5):
            count = loot[at + colour]
            if count:
                state.stock[colour] += count
                loot[at + colour] = 0


def _loot_count(state: FightinState, card: int) -> int:
    at = card * 5
    return sum(state.loot[at : at + 5])


def _move_loot(state: FightinState, source: int, target: int) -> None:
    loot = state.loot
    for colour in range(5):
        loot[target * 5 + colour] += loot[source * 5 + colour]
        loot[source * 5 + colour] = 0


# -- the record (G6) and the log ---------------------------------------------------------


def _note(state: FightinState, text: str) -> None:
    """A public line of the table, the rules' doing (actor -1): the log and every seat's record."""
    state.log = (state.log, text)  # state.log_line(text)
    state._log = Event(state._log, -1, text, None)


def _act(state: FightinState, seat: int, text: str, line: str | None = None) -> None:
    """A seat's public move: ``text`` in the record (the entry names the seat), ``line`` in the
    log (default: ``seat N`` and the text); no line for a move the log does not tell."""
    state._log = Event(state._log, seat, text, None)
    if line != "":
        state.log = (state.log, (seat, text) if line is None else line)  # (seat, text): "seat N text"


# -- driving ----------------------------------------------------------------------


def run(state: FightinState) -> None:
    """Runs automatic steps until a chance node, a decision or the end."""
    state.phase = AUTO
    while state.phase == AUTO:
        _STEPS[state.step](state)


def _chance(state: FightinState, phase: int, seat: int, after: int) -> None:
    """Sets up a chance node; its outcomes are the legal set, computed here once."""
    state.phase = phase
    state.player = seat
    state.step = after
    state._legal = state._chance_actions()


def _ask(state: FightinState, kind: int, seat: int, after: int) -> None:
    """Asks ``seat`` to choose; with one option it is chosen at once, with none skipped."""
    state.kind = kind
    state.player = seat
    state.step = after
    legal = options(state)
    if len(legal) > 1:
        state.phase = CHOOSE
        state._legal = legal  # the decision's legal set: computed once
        return
    if legal:
        effect(state, legal[0])
    state.kind = -1


_DISCARDS_FROM_BOARD = frozenset([DISCARD_OWN, DISCARD_OTHER, DISCARD_HIGHEST])


def options(state: FightinState) -> tuple[int, ...]:
    """Returns the sorted actions of the pending decision (the commonest decisions first)."""
    kind = state.kind
    seat = state.player
    if kind == PLAY:
        base = PLACE_BASE + state.event * 60
        return tuple([base + c for c in sorted(state.hands[seat])])
    if kind in _DISCARDS_FROM_BOARD:
        cards = state.board[state.event * 2 + (1 - seat if kind == DISCARD_OTHER else seat)]
        if kind == DISCARD_HIGHEST and cards:
            values = _values(state)
            top = max([values[c] for c in cards])
            cards = [c for c in cards if values[c] == top]
        return tuple([DISCARD_BASE + c for c in sorted(cards)])
    if kind == SCARPER:
        return tuple([SCARPER_BASE + c for c in sorted(state.board[STEAL * 2 + seat])])
    if kind == TAKE_YELLOWS:
        return (TAKE_YELLOW, DONE) if state.stock[YELLOW] else (DONE,)
    if kind == STEAL_AWARDS:
        return _steal_options(state, seat)
    if kind == KILL or kind == DISCARD_MONSTER:
        monsters = state.monsters
        if state.gonagal < 0:  # F4: the lowest (kill) or the highest (clobbered) by value
            worth = monster_values(monsters)
            aim = min(worth) if kind == KILL else max(worth)
            monsters = [m for m, v in zip(monsters, worth, strict=True) if v == aim]
        base = KILL_BASE if kind == KILL else DISCARD_BASE
        return tuple([base + m for m in sorted(monsters)])
    if kind == NAME_COLOUR:  # F16: a colour whose Wee Lawyer the caught player does not hold
        return tuple([NAME_BASE + colour for colour in range(5) if state.wee[colour] != 1 - seat])
    if kind == DROP_COLOUR:
        points = _points(state, seat)
        top = max(points)
        return tuple([DROP_BASE + colour for colour in range(5) if points[colour] == top])
    return ()


def _steal_options(state: FightinState, seat: int) -> tuple[int, ...]:
    other = 1 - seat
    loot = state.loot
    laden = [c for c in state.board[STEAL * 2 + other] if any(loot[c * 5 : c * 5 + 5])]
    if laden:  # the loot of one opposing thief, while nothing is taken yet
        legal = sorted([STEAL_FROM_BASE + c for c in laden]) if state.taken == 0 else []
    else:  # else awards straight from the opponent
        awards = state.awards
        legal = [STEAL_COLOUR_BASE + colour for colour in range(5) if awards[other * 5 + colour]]
    legal.append(DONE)
    return tuple(legal)


def effect(state: FightinState, action: int) -> None:
    """Carries out the chosen option of the pending decision (the commonest decisions first)."""
    kind = state.kind
    seat = state.player
    if kind == PLAY:
        event = state.event
        card = action - PLACE_BASE - event * 60
        state.hands[seat].remove(card)
        state.down[event * 2 + seat] = card
        if state.trail is not None:
            state.trail.append((seat, state.round, event, card))
        state._log = Event(state._log, seat, _PLACES[event], _PLACED[seat][event][card])
    elif kind in _DISCARDS_FROM_BOARD:
        card = action - DISCARD_BASE
        _discard(state, card)
        _act(state, seat, _DISCARDS[state.event][card])
    elif kind == SCARPER:
        card = action - SCARPER_BASE
        _act(state, seat, _SCARPERS[card], _SCARPERS_OFF[seat][card])
        _deposit(state, card)
        _discard(state, card)
    elif kind == TAKE_YELLOWS:
        if action == DONE:
            _act(state, seat, f"takes {'no more yellow awards' if state.taken else 'no yellow award'}", "")
            state.taken = _STOPPED
        else:
            state.taken += 1
            state.stock[YELLOW] -= 1
            state.loot[state.second * 5 + YELLOW] += 1
            _act(state, seat, _TAKES_YELLOW[state.second], _TAKES_YELLOW_LINE[seat][state.second])
    elif kind == STEAL_AWARDS:
        _steal(state, seat, action)
    elif kind == KILL:
        _kill(state, seat, action - KILL_BASE)
    elif kind == DISCARD_MONSTER:
        card = action - DISCARD_BASE
        state.monsters.remove(card)
        state.monster_discards.append(card)
        _act(state, seat, f"discards monster {_TEXT[card]}")
    elif kind == NAME_COLOUR:
        _act(state, seat, f"names {COLOURS[action - NAME_BASE]}", "")
        _take_wee_lawyer(state, 1 - seat, action - NAME_BASE)
    elif kind == DROP_COLOUR:
        state.dropped[seat] = action - DROP_BASE
        _act(state, seat, f"drops {COLOURS[action - DROP_BASE]}")


# -- set-up and rounds -----------------------------------------------------------------


def _deals(state: FightinState) -> None:
    """F1: each seat deals one card face up to each event, seat 0 first."""
    for seat in (0, 1):
        for event in range(3):
            if not state.board[event * 2 + seat]:
                state.event = event
                _chance(state, DEAL, seat, DEALS)
                return
    state.event = NO_EVENT
    state.step = DRAWS


def _draws(state: FightinState) -> None:
    """F12: each seat draws up to five, or all its deck holds; seat 0 first."""
    for seat in (0, 1):
        if len(state.hands[seat]) < HAND and state.decks[seat]:
            _chance(state, DRAW, seat, DRAWS)
            return
    if state.round == 0:
        _chance(state, FLIP, 0, START_ROUND)  # the first monster
    else:
        state.step = START_ROUND


def _start_round(state: FightinState) -> None:
    state.round += 1
    _note(state, _ROUND_STARTS[state.round])
    state.step = PLACES


def _places(state: FightinState) -> None:
    """F2: seat 0 then seat 1 places one hand card face down at each event, in event order."""
    hands = state.hands
    for seat in (0, 1):
        if hands[seat]:
            slots = state.down[seat::2]  # the seat's face-down card at each event, -1 where none yet
            if -1 in slots:
                state.event = slots.index(-1)
                _ask(state, PLAY, seat, PLACES)
                return
    state.step = FIGHT_START


def _reveal(state: FightinState, event: int) -> None:
    """Turns the event's newcomers face up and finds a working Gonagal (F13, F3)."""
    state.event = event
    state.lead = -1
    down = state.down
    gonagals = []
    shown = []
    for seat in (0, 1):
        at = event * 2 + seat
        card = down[at]
        if card < 0:
            continue
        down[at] = -1
        state.board[at].append(card)
        shown.append(_SHOWN[seat][card])
        state._log = Event(state._log, seat, _TURNED_OVER[event][card], None)
        if card == GONAGAL[seat] and state.wee[WHITE] != seat:  # F3: under the white Wee Lawyer it is a 0
            gonagals.append(seat)
    state.gonagal = gonagals[0] if len(gonagals) == 1 else -1  # F13: two Gonagals cancel
    state.log = (state.log, f"{EVENTS[event]}: {', '.join(shown) or 'no newcomers'} turned over")  # log only
    if len(gonagals) == 2:
        _note(state, "two Gonagals cancel out")
    elif gonagals:
        _note(state, f"seat {gonagals[0]}'s Gonagal plays the pipes")


def _end_gonagal(state: FightinState) -> None:
    """F14: the working Gonagal is the card discarded at the end of its event."""
    seat = state.gonagal
    _discard(state, GONAGAL[seat])
    state.gonagal = -1


# -- Fightin' ----------------------------------------------------------------------------


def _fight_start(state: FightinState) -> None:
    _reveal(state, FIGHT)
    if state.gonagal >= 0:  # F14: the next monster is flipped for the Gonagal
        state.lead = state.gonagal
        _chance(state, FLIP, state.lead, FIGHT_GONAGAL_KILL)
        return
    values = _values(state)
    sums = (_total(values, state.board[FIGHT * 2]), _total(values, state.board[FIGHT * 2 + 1]))
    if sums[0] == sums[1]:  # F4: each discards their highest fighter; no monster is flipped
        _note(state, f"the fighters tie at {sums[0]}: nobody fights the monsters")
        _ask(state, DISCARD_HIGHEST, 0, FIGHT_TIE)
        return
    state.lead = 0 if sums[0] > sums[1] else 1
    _note(state, f"seat {state.lead}'s fighters ({sums[state.lead]}) fight the monsters")
    _chance(state, FLIP, state.lead, FIGHT_RESOLVE)


def _fight_tie(state: FightinState) -> None:
    _ask(state, DISCARD_HIGHEST, 1, DRINK_START)


def _fight_resolve(state: FightinState) -> None:
    lead = state.lead
    fighters = _total(_values(state), state.board[FIGHT * 2 + lead])
    monsters = sum(monster_values(state.monsters))
    if fighters >= monsters:
        _note(state, f"{fighters} against {monsters}: seat {lead} kills a monster")
        _ask(state, KILL, lead, FIGHT_KILLED)
    else:
        _note(state, f"{fighters} against {monsters}: seat {lead}'s fighters get clobbered")
        _ask(state, DISCARD_OWN, 1 - lead, FIGHT_CLOBBERED)


def _kill(state: FightinState, seat: int, card: int) -> None:
    state.monsters.remove(card)
    state.monster_discards.append(card)
    _act(state, seat, _KILLS[card])
    if box.is_trilithon_card(card):  # the bonus award of the trilithon card's colour
        _give(state, seat, _COLOUR[card], _multiplier(state))


def _fight_killed(state: FightinState) -> None:
    _give(state, state.lead, RED, _multiplier(state))
    _ask(state, DISCARD_OWN, state.lead, FIGHT_OTHER_DISCARDS)


def _fight_other_discards(state: FightinState) -> None:
    _ask(state, DISCARD_OWN, 1 - state.lead, DRINK_START)


def _fight_clobbered(state: FightinState) -> None:
    _ask(state, DISCARD_OTHER, 1 - state.lead, FIGHT_CLOBBER_MONSTER)


def _fight_clobber_monster(state: FightinState) -> None:
    _give(state, 1 - state.lead, WHITE, _multiplier(state))
    _ask(state, DISCARD_MONSTER, 1 - state.lead, DRINK_START)


def _fight_gonagal_kill(state: FightinState) -> None:
    _ask(state, KILL, state.lead, FIGHT_GONAGAL_DISCARD)


def _fight_gonagal_discard(state: FightinState) -> None:
    _ask(state, DISCARD_OTHER, state.lead, FIGHT_GONAGAL_END)


def _fight_gonagal_end(state: FightinState) -> None:
    _give(state, state.lead, RED, _multiplier(state))
    _give(state, state.lead, WHITE, _multiplier(state))
    _end_gonagal(state)
    state.step = DRINK_START


# -- Drinkin' ----------------------------------------------------------------------------


def _drink_start(state: FightinState) -> None:
    state.altar += _from_stock(state, BLUE, _multiplier(state))  # F14: served before anything else
    _reveal(state, DRINK)
    if state.gonagal >= 0:
        state.lead = state.gonagal
        _ask(state, DISCARD_OTHER, state.lead, DRINK_GONAGAL_END)
        return
    values = _values(state)
    drinkers = [(values[c], seat) for seat in (0, 1) for c in state.board[DRINK * 2 + seat]]
    top, lead = max(drinkers)  # the biggest drinker and its owner
    if (top, 1 - lead) in drinkers:  # F5: both players hold the biggest drinker
        _note(state, f"a tie for biggest drinker at {top}; the awards stay on the altar")
        _ask(state, DISCARD_HIGHEST, 0, DRINK_TIE)
        return
    state.lead = lead
    total = _total(values, state.board[DRINK * 2]) + _total(values, state.board[DRINK * 2 + 1])
    if total < 50:
        _note(state, f"{total} drinks: buy another round")
        _ask(state, DISCARD_OWN, lead, DRINK_OTHER_DISCARDS)
    elif total <= 60:
        _note(state, f"{total} drinks: seat {lead}'s biggest drinker wins {state.altar} blue")
        state.awards[lead * 5 + BLUE] += state.altar
        state.altar = 0
        _ask(state, DISCARD_OWN, lead, DRINK_OTHER_DISCARDS)
    else:
        _note(state, f"{total} drinks: seat {lead}'s biggest drinker passes out")
        state.stock[BLUE] += state.altar
        state.altar = 0
        _ask(state, DISCARD_HIGHEST, lead, DRINK_PASSED_OUT)


def _drink_tie(state: FightinState) -> None:
    _ask(state, DISCARD_HIGHEST, 1, STEAL_START)


def _drink_other_discards(state: FightinState) -> None:
    _ask(state, DISCARD_OWN, 1 - state.lead, STEAL_START)


def _drink_passed_out(state: FightinState) -> None:
    _ask(state, DISCARD_OWN, 1 - state.lead, DRINK_GREEN)


def _drink_green(state: FightinState) -> None:
    _give(state, 1 - state.lead, GREEN, _multiplier(state))
    state.step = STEAL_START


def _drink_gonagal_end(state: FightinState) -> None:
    lead = state.lead
    _note(state, f"seat {lead}'s Gonagal takes {state.altar} blue from the altar")
    state.awards[lead * 5 + BLUE] += state.altar
    state.altar = 0
    _give(state, lead, GREEN, _multiplier(state))
    _end_gonagal(state)
    state.step = STEAL_START


# -- Stealin' ----------------------------------------------------------------------------


def _rank(state: FightinState) -> tuple[int, int]:
    """F6: the highest and second-highest thief cards (-1 where tied thieves cancel)."""
    values = _values(state)
    thieves = state.board[STEAL * 2] + state.board[STEAL * 2 + 1]
    levels = [values[c] for c in thieves]
    places = []
    for v in sorted(set(levels), reverse=True)[:2]:
        places.append(thieves[levels.index(v)] if levels.count(v) == 1 else -1)
    places += [-1] * (2 - len(places))
    return places[0], places[1]


def _steal_start(state: FightinState) -> None:
    _reveal(state, STEAL)
    state.taken = 0
    if state.gonagal >= 0:
        _steal_gonagal(state)
        return
    state.high, state.second = _rank(state)
    if state.high >= 0:
        _note(state, _RANKED[0][state.high])
    if state.second >= 0:
        _note(state, _RANKED[1][state.second])
    state.step = STEAL_HIGH


def _steal(state: FightinState, seat: int, action: int) -> None:
    thief = _TEXT[state.high]
    if action == DONE:
        _act(state, seat, "steals nothing more" if state.taken else "steals nothing", "")
        state.taken = _STOPPED
    elif action >= STEAL_COLOUR_BASE:  # one award straight from the opponent (two in round 7)
        colour = action - STEAL_COLOUR_BASE
        state.awards[(1 - seat) * 5 + colour] -= 1
        state.loot[state.high * 5 + colour] += 1
        state.taken += 1
        line = f"seat {seat}'s thief {thief} steals a {COLOURS[colour]} award"
        _act(state, seat, f"steals a {COLOURS[colour]} award with thief {thief}", line)
    else:
        card = action - STEAL_FROM_BASE
        line = f"seat {seat}'s thief {thief} steals the loot of {_TEXT[card]}"
        _act(state, seat, f"steals the loot of {_TEXT[card]} with thief {thief}", line)
        _move_loot(state, card, state.high)
        state.taken = _STOPPED


def _steal_high(state: FightinState) -> None:
    if state.high >= 0 and state.taken < _multiplier(state):
        _ask(state, STEAL_AWARDS, OWNER[state.high], STEAL_HIGH)
    else:
        state.taken = 0
        state.step = STEAL_SECOND


def _steal_second(state: FightinState) -> None:
    if state.second >= 0 and state.taken < _multiplier(state):
        _ask(state, TAKE_YELLOWS, OWNER[state.second], STEAL_SECOND)
    else:
        state.taken = 0
        state.step = STEAL_LAWYER


def _move_lawyer(state: FightinState) -> None:
    """F8: one space down per award on the thieves; 1 wraps to 30."""
    loot = state.loot
    moves = sum([sum(loot[c * 5 : c * 5 + 5]) for c in state.board[STEAL * 2] + state.board[STEAL * 2 + 1]])
    state.lawyer = (state.lawyer - 1 - moves) % 30 + 1
    _note(state, f"the Big Lawyer moves {moves} to {_LAWYER_SPACES[state.lawyer]}")


def _steal_lawyer(state: FightinState) -> None:
    state.high = state.second = -1  # the steals are over
    _move_lawyer(state)
    # F15: the Habeascorpus test on card values (F3).
    values = _values(state)
    lawyer = state.lawyer
    caught = [(values[c], c) for c in state.board[STEAL * 2] + state.board[STEAL * 2 + 1] if values[c] >= lawyer]
    if caught:
        low = min(caught)[0]
        lowest = [c for v, c in caught if v == low]
        most = max([_loot_count(state, c) for c in lowest])
        for card in lowest:
            if _loot_count(state, card) == most:
                state.habeas[OWNER[card]] = 1
                _note(state, f"seat {OWNER[card]}'s thief {_TEXT[card]} is Habeascorpusized")
                _discard(state, card)  # its awards go back to stock
    state.step = STEAL_SCARPER


def _steal_scarper(state: FightinState) -> None:
    if not state.habeas[0]:
        _ask(state, SCARPER, 0, STEAL_SCARPER_OTHER)
    else:
        state.step = STEAL_SCARPER_OTHER


def _steal_scarper_other(state: FightinState) -> None:
    if not state.habeas[1]:
        _ask(state, SCARPER, 1, STEAL_WEE_LAWYER)
    else:
        state.step = STEAL_WEE_LAWYER


def _deposit(state: FightinState, card: int) -> None:
    loot = state.loot
    at = card * 5
    if loot[at] or loot[at + 1] or loot[at + 2] or loot[at + 3] or loot[at + 4]:
        awards = state.awards
        owner = OWNER[card] * 5
        for colour in range(5):
            awards[owner + colour] += loot[at + colour]
            loot[at + colour] = 0


def _take_wee_lawyer(state: FightinState, seat: int, colour: int) -> None:
    state.wee[colour] = seat
    _note(state, f"seat {seat} takes the {COLOURS[colour]} Wee Lawyer")


def _steal_wee_lawyer(state: FightinState) -> None:
    state.step = ROUND_END
    if state.habeas[0] == state.habeas[1]:
        return
    caught = 0 if state.habeas[0] else 1
    colour = box.colour_index(state.lawyer)
    if colour == box.BLACK:  # F8, F16: on black the opponent names a colour the caught player lacks
        if all(holder == caught for holder in state.wee):
            _note(state, f"no Wee Lawyer is left for seat {caught}: nothing happens")
            return
        _ask(state, NAME_COLOUR, 1 - caught, ROUND_END)
    else:
        _take_wee_lawyer(state, caught, colour)


def _steal_gonagal(state: FightinState) -> None:
    """F14: the Gonagal takes the opposing loot and its yellow award(s); nobody is caught."""
    lead = state.lead = state.gonagal
    gonagal = GONAGAL[lead]
    for card in state.board[STEAL * 2 + 1 - lead]:
        _move_loot(state, card, gonagal)
    state.loot[gonagal * 5 + YELLOW] += _from_stock(state, YELLOW, _multiplier(state))
    _note(state, f"seat {lead}'s Gonagal carries {_loot_count(state, gonagal)} awards")
    _move_lawyer(state)
    _ask(state, DISCARD_OTHER, lead, STEAL_GONAGAL_END)


def _steal_gonagal_end(state: FightinState) -> None:
    _deposit(state, GONAGAL[state.gonagal])  # F9: its loot goes to its owner as it leaves
    _end_gonagal(state)
    state.step = ROUND_END


def _round_end(state: FightinState) -> None:
    state.event = NO_EVENT
    state.gonagal = state.lead = state.high = state.second = -1
    state.taken = 0
    state.habeas = [0, 0]
    state.step = SCORE if state.round == state.rounds else DRAWS


# -- scoring -----------------------------------------------------------------------------


def _points(state: FightinState, seat: int) -> list[int]:
    """F11: each colour's awards in half awards; a held Wee Lawyer's colour counts half."""
    held = state.awards[seat * 5 : seat * 5 + 5]
    return [count if state.wee[colour] == seat else 2 * count for colour, count in enumerate(held)]


def _score(state: FightinState) -> None:
    _ask(state, DROP_COLOUR, 0, SCORE_OTHER)


def _score_other(state: FightinState) -> None:
    _ask(state, DROP_COLOUR, 1, FINISH)


def _finish(state: FightinState) -> None:
    scores = []
    for seat in (0, 1):
        points = _points(state, seat)
        scores.append(sum(points) - points[state.dropped[seat]])
    state.scores = tuple(scores)
    best = max(scores)
    state.winners = tuple(seat for seat in (0, 1) if scores[seat] == best)
    state.phase = OVER
    _note(state, f"final scores {scores[0] / 2:g} to {scores[1] / 2:g}")


_STEPS = (
    _deals,
    _draws,
    _start_round,
    _places,
    _fight_start,
    _fight_tie,
    _fight_resolve,
    _fight_killed,
    _fight_other_discards,
    _fight_clobbered,
    _fight_clobber_monster,
    _fight_gonagal_kill,
    _fight_gonagal_discard,
    _fight_gonagal_end,
    _drink_start,
    _drink_tie,
    _drink_other_discards,
    _drink_passed_out,
    _drink_green,
    _drink_gonagal_end,
    _steal_start,
    _steal_high,
    _steal_second,
    _steal_lawyer,
    _steal_scarper,
    _steal_scarper_other,
    _steal_wee_lawyer,
    _steal_gonagal_end,
    _round_end,
    _score,
    _score_other,
    _finish,
)
STEP_NAMES: tuple[str, ...] = tuple(f.__name__.lstrip("_").replace("_", " ") for f in _STEPS)
DEALS, DRAWS, START_ROUND, PLACES = range(4)
FIGHT_START, FIGHT_TIE, FIGHT_RESOLVE, FIGHT_KILLED, FIGHT_OTHER_DISCARDS = range(4, 9)
FIGHT_CLOBBERED, FIGHT_CLOBBER_MONSTER, FIGHT_GONAGAL_KILL, FIGHT_GONAGAL_DISCARD, FIGHT_GONAGAL_END = range(9, 14)
DRINK_START, DRINK_TIE, DRINK_OTHER_DISCARDS, DRINK_PASSED_OUT, DRINK_GREEN, DRINK_GONAGAL_END = range(14, 20)
STEAL_START, STEAL_HIGH, STEAL_SECOND, STEAL_LAWYER, STEAL_SCARPER, STEAL_SCARPER_OTHER = range(20, 26)
STEAL_WEE_LAWYER, STEAL_GONAGAL_END, ROUND_END, SCORE, SCORE_OTHER, FINISH = range(26, 32)
NEEDS_LEAD = frozenset(
    [
        *range(FIGHT_RESOLVE, FIGHT_GONAGAL_END + 1),
        *range(DRINK_OTHER_DISCARDS, DRINK_GONAGAL_END + 1),
        STEAL_GONAGAL_END,
    ]
)
"""Steps that need ``lead`` set (checked when a state is loaded)."""

# Where a state can rest (G7: a loaded state must be one of these). A decision rests on the step
# that follows it; each (kind, step) names the event it belongs to and who decides: a seat, or
# LEAD (the champion, biggest drinker's owner or working Gonagal's owner), OTHER (the other seat),
# HIGH and SECOND (the owners of the ranked thieves), NAMER (the seat that was not caught).
LEAD, OTHER, HIGH, SECOND, NAMER = range(2, 7)
ASKS: dict[tuple[int, int], tuple[int, int]] = {
    (PLAY, PLACES): (-1, -1),  # any event and seat: checked with the placements
    (DISCARD_HIGHEST, FIGHT_TIE): (FIGHT, 0),
    (DISCARD_HIGHEST, DRINK_START): (FIGHT, 1),
    (DISCARD_HIGHEST, DRINK_TIE): (DRINK, 0),
    (DISCARD_HIGHEST, STEAL_START): (DRINK, 1),
    (DISCARD_HIGHEST, DRINK_PASSED_OUT): (DRINK, LEAD),
    (KILL, FIGHT_KILLED): (FIGHT, LEAD),
    (KILL, FIGHT_GONAGAL_DISCARD): (FIGHT, LEAD),
    (DISCARD_OWN, FIGHT_CLOBBERED): (FIGHT, OTHER),
    (DISCARD_OWN, FIGHT_OTHER_DISCARDS): (FIGHT, LEAD),
    (DISCARD_OWN, DRINK_START): (FIGHT, OTHER),
    (DISCARD_OWN, DRINK_OTHER_DISCARDS): (DRINK, LEAD),
    (DISCARD_OWN, STEAL_START): (DRINK, OTHER),
    (DISCARD_OWN, DRINK_GREEN): (DRINK, OTHER),
    (DISCARD_OTHER, FIGHT_CLOBBER_MONSTER): (FIGHT, OTHER),
    (DISCARD_OTHER, FIGHT_GONAGAL_END): (FIGHT, LEAD),
    (DISCARD_OTHER, DRINK_GONAGAL_END): (DRINK, LEAD),
    (DISCARD_OTHER, STEAL_GONAGAL_END): (STEAL, LEAD),
    (DISCARD_MONSTER, DRINK_START): (FIGHT, OTHER),
    (STEAL_AWARDS, STEAL_HIGH): (STEAL, HIGH),
    (TAKE_YELLOWS, STEAL_SECOND): (STEAL, SECOND),
    (SCARPER, STEAL_SCARPER_OTHER): (STEAL, 0),
    (SCARPER, STEAL_WEE_LAWYER): (STEAL, 1),
    (NAME_COLOUR, ROUND_END): (STEAL, NAMER),
    (DROP_COLOUR, SCORE_OTHER): (NO_EVENT, 0),
    (DROP_COLOUR, FINISH): (NO_EVENT, 1),
}
"""Every decision a state can rest at: (kind, step) -> (event, who decides)."""
CHANCES: dict[tuple[int, int], int] = {
    (DEAL, DEALS): -1,  # the event being dealt to
    (DRAW, DRAWS): NO_EVENT,
    (FLIP, START_ROUND): NO_EVENT,  # the first monster, at set-up
    (FLIP, FIGHT_RESOLVE): FIGHT,
    (FLIP, FIGHT_GONAGAL_KILL): FIGHT,
}
"""Every chance node a state can rest at: (phase, step) -> event."""
GONAGAL_STEPS = frozenset(
    [FIGHT_GONAGAL_KILL, FIGHT_GONAGAL_DISCARD, FIGHT_GONAGAL_END, DRINK_GONAGAL_END, STEAL_GONAGAL_END]
)
"""The steps a state rests at while a Gonagal works (and only then)."""
TWO_MONSTERS = frozenset(
    [(KILL, FIGHT_KILLED), (KILL, FIGHT_GONAGAL_DISCARD), (DISCARD_OWN, FIGHT_CLOBBERED)]
    + [(DISCARD_OTHER, FIGHT_CLOBBER_MONSTER), (DISCARD_MONSTER, DRINK_START)]
)
"""The decisions taken while a fight has two monsters on the board (after the flip, before the kill)."""
