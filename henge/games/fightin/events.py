"""Fightin' an' Drinkin' an' Stealin'!: the set-up, the rounds and the three events, as steps.

The state runs automatic steps (``run``, over every step of the game: those
of scoring are in :mod:`henge.games.fightin.scoring`) until it needs a chance
outcome or a decision. A step either moves on, sets up a chance node, or asks
a seat to choose (:mod:`henge.games.fightin.choices`).
"""

from __future__ import annotations

import cython

from henge import box
from henge.core import Event

# The steps' numbers and the other constants they count with: C ints where this module is compiled.
cython.declare(
    SHARE_BOARD=cython.int,
    SHARE_LOOT=cython.int,
    AUTO=cython.int,
    BLUE=cython.int,
    DEAL=cython.int,
    DEALS=cython.int,
    DISCARD_HIGHEST=cython.int,
    DISCARD_MONSTER=cython.int,
    DISCARD_OTHER=cython.int,
    DISCARD_OWN=cython.int,
    DRAW=cython.int,
    DRAWS=cython.int,
    DRINK=cython.int,
    DRINK_GONAGAL_END=cython.int,
    DRINK_GREEN=cython.int,
    DRINK_OTHER_DISCARDS=cython.int,
    DRINK_PASSED_OUT=cython.int,
    DRINK_START=cython.int,
    DRINK_TIE=cython.int,
    FIGHT=cython.int,
    FIGHT_CLOBBER_MONSTER=cython.int,
    FIGHT_CLOBBERED=cython.int,
    FIGHT_GONAGAL_DISCARD=cython.int,
    FIGHT_GONAGAL_END=cython.int,
    FIGHT_GONAGAL_KILL=cython.int,
    FIGHT_KILLED=cython.int,
    FIGHT_OTHER_DISCARDS=cython.int,
    FIGHT_RESOLVE=cython.int,
    FIGHT_START=cython.int,
    FIGHT_TIE=cython.int,
    FLIP=cython.int,
    GREEN=cython.int,
    HAND=cython.int,
    KILL=cython.int,
    NAME_COLOUR=cython.int,
    NO_EVENT=cython.int,
    PLACES=cython.int,
    PLAY=cython.int,
    RED=cython.int,
    ROUND_CAP=cython.int,
    ROUND_END=cython.int,
    SCARPER=cython.int,
    SCORE=cython.int,
    START_ROUND=cython.int,
    STEAL=cython.int,
    STEAL_AWARDS=cython.int,
    STEAL_GONAGAL_END=cython.int,
    STEAL_HIGH=cython.int,
    STEAL_LAWYER=cython.int,
    STEAL_SCARPER=cython.int,
    STEAL_SCARPER_OTHER=cython.int,
    STEAL_SECOND=cython.int,
    STEAL_START=cython.int,
    STEAL_WEE_LAWYER=cython.int,
    TAKE_YELLOWS=cython.int,
    WHITE=cython.int,
    YELLOW=cython.int,
)
from henge.games.fightin.actions import (  # noqa: E402
    AUTO,
    BLUE,
    DEAL,
    DEALS,
    DISCARD_HIGHEST,
    DISCARD_MONSTER,
    DISCARD_OTHER,
    DISCARD_OWN,
    DRAW,
    DRAWS,
    DRINK,
    DRINK_GONAGAL_END,
    DRINK_GREEN,
    DRINK_OTHER_DISCARDS,
    DRINK_PASSED_OUT,
    DRINK_START,
    DRINK_TIE,
    EVENTS,
    FIGHT,
    FIGHT_CLOBBER_MONSTER,
    FIGHT_CLOBBERED,
    FIGHT_GONAGAL_DISCARD,
    FIGHT_GONAGAL_END,
    FIGHT_GONAGAL_KILL,
    FIGHT_KILLED,
    FIGHT_OTHER_DISCARDS,
    FIGHT_RESOLVE,
    FIGHT_START,
    FIGHT_TIE,
    FLIP,
    GONAGAL,
    GREEN,
    HAND,
    KILL,
    NAME_COLOUR,
    NO_EVENT,
    NOUNS,
    OWNER,
    PLACES,
    PLAY,
    RED,
    ROUND_CAP,
    ROUND_END,
    SCARPER,
    SCORE,
    SHARE_BOARD,
    SHARE_LOOT,
    START_ROUND,
    STEAL,
    STEAL_AWARDS,
    STEAL_GONAGAL_END,
    STEAL_HIGH,
    STEAL_LAWYER,
    STEAL_SCARPER,
    STEAL_SCARPER_OTHER,
    STEAL_SECOND,
    STEAL_START,
    STEAL_WEE_LAWYER,
    TAKE_YELLOWS,
    WHITE,
    YELLOW,
)
from henge.games.fightin.choices import _ask, _chance  # noqa: E402
from henge.games.fightin.position import (  # noqa: E402
    _deposit,
    _discard,
    _from_stock,
    _give,
    _loot_count,
    _move_loot,
    _multiplier,
    _note,
    _own,
    _take_wee_lawyer,
    _total,
    _values,
    monster_values,
)

if not cython.compiled:  # compiled, events.pxd cimports Position
    from henge.games.fightin.position import Position
from henge.games.fightin.position import value as value  # noqa: E402  (a card's worth, F3, as the events count it)
from henge.games.fightin.scoring import _finish, _score, _score_other  # noqa: E402

_TEXT = box.CARD_TEXT
_TURNED_OVER: tuple[tuple[str, ...], ...] = tuple(tuple(f"turns over {n} {text}" for text in _TEXT) for n in NOUNS)
_SHOWN: tuple[tuple[str, ...], ...] = tuple(tuple(f"seat {seat} {text}" for text in _TEXT) for seat in (0, 1))
_RANKED: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"the {place} thief is seat {OWNER[c]}'s {_TEXT[c]}" for c in range(box.DECK_SIZE))
    for place in ("highest", "second-highest")
)
_ROUND_STARTS: tuple[str, ...] = tuple(f"round {n}" for n in range(ROUND_CAP + 1))
_LAWYER_SPACES: tuple[str, ...] = tuple(f"{n} ({box.colour_of(n)})" if n else "" for n in range(31))
"""Each space of the Big Lawyer's track (1..30) with its colour, as the log names it."""


@cython.locals(state=Position)
def run(state: Position) -> None:
    """Runs automatic steps until a chance node, a decision or the end."""
    state.phase = AUTO
    if cython.compiled:  # each step called directly (see _run_step)
        while state.phase == AUTO:
            _run_step(state, state.step)
    else:
        while state.phase == AUTO:
            _STEPS[state.step](state)


@cython.cfunc
@cython.locals(state=Position, step=cython.int)
def _run_step(state: Position, step: int) -> None:
    """Runs step ``step`` as ``_STEPS[step](state)`` does, by direct calls (the commonest steps first)."""
    if step == PLACES:
        _places(state)
    elif step == DRAWS:
        _draws(state)
    elif step == DEALS:
        _deals(state)
    elif step == START_ROUND:
        _start_round(state)
    elif step == FIGHT_START:
        _fight_start(state)
    elif step == FIGHT_TIE:
        _fight_tie(state)
    elif step == FIGHT_RESOLVE:
        _fight_resolve(state)
    elif step == FIGHT_KILLED:
        _fight_killed(state)
    elif step == FIGHT_OTHER_DISCARDS:
        _fight_other_discards(state)
    elif step == FIGHT_CLOBBERED:
        _fight_clobbered(state)
    elif step == FIGHT_CLOBBER_MONSTER:
        _fight_clobber_monster(state)
    elif step == FIGHT_GONAGAL_KILL:
        _fight_gonagal_kill(state)
    elif step == FIGHT_GONAGAL_DISCARD:
        _fight_gonagal_discard(state)
    elif step == FIGHT_GONAGAL_END:
        _fight_gonagal_end(state)
    elif step == DRINK_START:
        _drink_start(state)
    elif step == DRINK_TIE:
        _drink_tie(state)
    elif step == DRINK_OTHER_DISCARDS:
        _drink_other_discards(state)
    elif step == DRINK_PASSED_OUT:
        _drink_passed_out(state)
    elif step == DRINK_GREEN:
        _drink_green(state)
    elif step == DRINK_GONAGAL_END:
        _drink_gonagal_end(state)
    elif step == STEAL_START:
        _steal_start(state)
    elif step == STEAL_HIGH:
        _steal_high(state)
    elif step == STEAL_SECOND:
        _steal_second(state)
    elif step == STEAL_LAWYER:
        _steal_lawyer(state)
    elif step == STEAL_SCARPER:
        _steal_scarper(state)
    elif step == STEAL_SCARPER_OTHER:
        _steal_scarper_other(state)
    elif step == STEAL_WEE_LAWYER:
        _steal_wee_lawyer(state)
    elif step == STEAL_GONAGAL_END:
        _steal_gonagal_end(state)
    elif step == ROUND_END:
        _round_end(state)
    else:  # scoring's steps
        _STEPS[step](state)


# -- set-up and rounds -----------------------------------------------------------------


@cython.ccall
@cython.locals(state=Position)
def _deals(state: Position) -> None:
    """F1: each seat deals one card face up to each event, seat 0 first."""
    for seat in (0, 1):
        for event in range(3):
            if not state.board[event * 2 + seat]:
                state.event = event
                _chance(state, DEAL, seat, DEALS)
                return
    state.event = NO_EVENT
    state.step = DRAWS


@cython.ccall
@cython.locals(state=Position, seat=cython.int)
def _draws(state: Position) -> None:
    """F12: each seat draws up to five, or all its deck holds; seat 0 first."""
    hands = state.hands
    decks = state.decks
    for seat in (0, 1):
        if len(hands[seat]) < HAND and decks[seat]:
            _chance(state, DRAW, seat, DRAWS)
            return
    if state.round == 0:
        _chance(state, FLIP, 0, START_ROUND)  # the first monster
    else:
        state.step = START_ROUND


@cython.ccall
@cython.locals(state=Position)
def _start_round(state: Position) -> None:
    state.round += 1
    _note(state, _ROUND_STARTS[state.round])
    state.step = PLACES


@cython.ccall
@cython.locals(state=Position, seat=cython.int, event=cython.int)
def _places(state: Position) -> None:
    """F2: seat 0 then seat 1 places one hand card face down at each event, in event order."""
    hands = state.hands
    down = state.down  # the face-down card at each event and seat, -1 where none yet
    for seat in (0, 1):
        if hands[seat]:
            for event in (0, 1, 2):
                if down[event * 2 + seat] == -1:
                    state.event = event
                    _ask(state, PLAY, seat, PLACES)
                    return
    state.step = FIGHT_START


@cython.cfunc
@cython.locals(state=Position, event=cython.int, seat=cython.int, at=cython.int, card=cython.int)
def _reveal(state: Position, event: int) -> None:
    """Turns the event's newcomers face up and finds a working Gonagal (F13, F3)."""
    state.event = event
    state.lead = -1
    if state._shared & SHARE_BOARD:
        _own(state, SHARE_BOARD)
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


@cython.cfunc
@cython.locals(state=Position)
def _end_gonagal(state: Position) -> None:
    """F14: the working Gonagal is the card discarded at the end of its event."""
    seat = state.gonagal
    _discard(state, GONAGAL[seat])
    state.gonagal = -1


# -- Fightin' ----------------------------------------------------------------------------


@cython.ccall
@cython.locals(state=Position)
def _fight_start(state: Position) -> None:
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


@cython.ccall
@cython.locals(state=Position)
def _fight_tie(state: Position) -> None:
    _ask(state, DISCARD_HIGHEST, 1, DRINK_START)


@cython.ccall
@cython.locals(state=Position)
def _fight_resolve(state: Position) -> None:
    lead = state.lead
    fighters = _total(_values(state), state.board[FIGHT * 2 + lead])
    monsters = sum(monster_values(state.monsters))
    if fighters >= monsters:
        _note(state, f"{fighters} against {monsters}: seat {lead} kills a monster")
        _ask(state, KILL, lead, FIGHT_KILLED)
    else:
        _note(state, f"{fighters} against {monsters}: seat {lead}'s fighters get clobbered")
        _ask(state, DISCARD_OWN, 1 - lead, FIGHT_CLOBBERED)


@cython.ccall
@cython.locals(state=Position)
def _fight_killed(state: Position) -> None:
    _give(state, state.lead, RED, _multiplier(state))
    _ask(state, DISCARD_OWN, state.lead, FIGHT_OTHER_DISCARDS)


@cython.ccall
@cython.locals(state=Position)
def _fight_other_discards(state: Position) -> None:
    _ask(state, DISCARD_OWN, 1 - state.lead, DRINK_START)


@cython.ccall
@cython.locals(state=Position)
def _fight_clobbered(state: Position) -> None:
    _ask(state, DISCARD_OTHER, 1 - state.lead, FIGHT_CLOBBER_MONSTER)


@cython.ccall
@cython.locals(state=Position)
def _fight_clobber_monster(state: Position) -> None:
    _give(state, 1 - state.lead, WHITE, _multiplier(state))
    _ask(state, DISCARD_MONSTER, 1 - state.lead, DRINK_START)


@cython.ccall
@cython.locals(state=Position)
def _fight_gonagal_kill(state: Position) -> None:
    _ask(state, KILL, state.lead, FIGHT_GONAGAL_DISCARD)


@cython.ccall
@cython.locals(state=Position)
def _fight_gonagal_discard(state: Position) -> None:
    _ask(state, DISCARD_OTHER, state.lead, FIGHT_GONAGAL_END)


@cython.ccall
@cython.locals(state=Position)
def _fight_gonagal_end(state: Position) -> None:
    _give(state, state.lead, RED, _multiplier(state))
    _give(state, state.lead, WHITE, _multiplier(state))
    _end_gonagal(state)
    state.step = DRINK_START


# -- Drinkin' ----------------------------------------------------------------------------


@cython.ccall
@cython.locals(state=Position)
def _drink_start(state: Position) -> None:
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


@cython.ccall
@cython.locals(state=Position)
def _drink_tie(state: Position) -> None:
    _ask(state, DISCARD_HIGHEST, 1, STEAL_START)


@cython.ccall
@cython.locals(state=Position)
def _drink_other_discards(state: Position) -> None:
    _ask(state, DISCARD_OWN, 1 - state.lead, STEAL_START)


@cython.ccall
@cython.locals(state=Position)
def _drink_passed_out(state: Position) -> None:
    _ask(state, DISCARD_OWN, 1 - state.lead, DRINK_GREEN)


@cython.ccall
@cython.locals(state=Position)
def _drink_green(state: Position) -> None:
    _give(state, 1 - state.lead, GREEN, _multiplier(state))
    state.step = STEAL_START


@cython.ccall
@cython.locals(state=Position)
def _drink_gonagal_end(state: Position) -> None:
    lead = state.lead
    _note(state, f"seat {lead}'s Gonagal takes {state.altar} blue from the altar")
    state.awards[lead * 5 + BLUE] += state.altar
    state.altar = 0
    _give(state, lead, GREEN, _multiplier(state))
    _end_gonagal(state)
    state.step = STEAL_START


# -- Stealin' ----------------------------------------------------------------------------


@cython.ccall
@cython.locals(state=Position)
def _rank(state: Position) -> tuple[int, int]:
    """F6: the highest and second-highest thief cards (-1 where tied thieves cancel)."""
    values = _values(state)
    thieves = state.board[STEAL * 2] + state.board[STEAL * 2 + 1]
    levels = [values[c] for c in thieves]
    places = []
    for v in sorted(set(levels), reverse=True)[:2]:
        places.append(thieves[levels.index(v)] if levels.count(v) == 1 else -1)
    places += [-1] * (2 - len(places))
    return places[0], places[1]


@cython.ccall
@cython.locals(state=Position)
def _steal_start(state: Position) -> None:
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


@cython.ccall
@cython.locals(state=Position)
def _steal_high(state: Position) -> None:
    if state.high >= 0 and state.taken < _multiplier(state):
        _ask(state, STEAL_AWARDS, OWNER[state.high], STEAL_HIGH)
    else:
        state.taken = 0
        state.step = STEAL_SECOND


@cython.ccall
@cython.locals(state=Position)
def _steal_second(state: Position) -> None:
    if state.second >= 0 and state.taken < _multiplier(state):
        _ask(state, TAKE_YELLOWS, OWNER[state.second], STEAL_SECOND)
    else:
        state.taken = 0
        state.step = STEAL_LAWYER


@cython.cfunc
@cython.locals(state=Position)
def _move_lawyer(state: Position) -> None:
    """F8: one space down per award on the thieves; 1 wraps to 30."""
    loot = state.loot
    moves = sum([sum(loot[c * 5 : c * 5 + 5]) for c in state.board[STEAL * 2] + state.board[STEAL * 2 + 1]])
    state.lawyer = (state.lawyer - 1 - moves) % 30 + 1
    _note(state, f"the Big Lawyer moves {moves} to {_LAWYER_SPACES[state.lawyer]}")


@cython.ccall
@cython.locals(state=Position)
def _steal_lawyer(state: Position) -> None:
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


@cython.ccall
@cython.locals(state=Position)
def _steal_scarper(state: Position) -> None:
    if not state.habeas[0]:
        _ask(state, SCARPER, 0, STEAL_SCARPER_OTHER)
    else:
        state.step = STEAL_SCARPER_OTHER


@cython.ccall
@cython.locals(state=Position)
def _steal_scarper_other(state: Position) -> None:
    if not state.habeas[1]:
        _ask(state, SCARPER, 1, STEAL_WEE_LAWYER)
    else:
        state.step = STEAL_WEE_LAWYER


@cython.locals(state=Position)
def _steal_wee_lawyer(state: Position) -> None:
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


@cython.cfunc
@cython.locals(state=Position)
def _steal_gonagal(state: Position) -> None:
    """F14: the Gonagal takes the opposing loot and its yellow award(s); nobody is caught."""
    lead = state.lead = state.gonagal
    gonagal = GONAGAL[lead]
    for card in state.board[STEAL * 2 + 1 - lead]:
        _move_loot(state, card, gonagal)
    if state._shared & SHARE_LOOT:
        _own(state, SHARE_LOOT)
    state.loot[gonagal * 5 + YELLOW] += _from_stock(state, YELLOW, _multiplier(state))
    _note(state, f"seat {lead}'s Gonagal carries {_loot_count(state, gonagal)} awards")
    _move_lawyer(state)
    _ask(state, DISCARD_OTHER, lead, STEAL_GONAGAL_END)


@cython.ccall
@cython.locals(state=Position)
def _steal_gonagal_end(state: Position) -> None:
    _deposit(state, GONAGAL[state.gonagal])  # F9: its loot goes to its owner as it leaves
    _end_gonagal(state)
    state.step = ROUND_END


@cython.ccall
@cython.locals(state=Position)
def _round_end(state: Position) -> None:
    state.event = NO_EVENT
    state.gonagal = state.lead = state.high = state.second = -1
    state.taken = 0
    state.habeas = [0, 0]
    state.step = SCORE if state.round == state.rounds else DRAWS


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
