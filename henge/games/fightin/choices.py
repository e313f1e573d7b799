"""Fightin' an' Drinkin' an' Stealin'!: the decisions the rules ask of a seat, their options and effects.

A step asks a seat to choose (``_ask``) or sets up a chance node (``_chance``); a choice with one
option is made for the seat at once and a choice with none is skipped, so only real choices become
decisions (G2).
"""

from __future__ import annotations

from collections.abc import Mapping

import cython

from henge import box
from henge.core import Event

# The constants the decisions compare and count with: C ints where this module is compiled.
cython.declare(
    SHARE_LOOT=cython.int,
    SHARE_MONSTERS=cython.int,
    CHOOSE=cython.int,
    DISCARD_BASE=cython.int,
    DISCARD_HIGHEST=cython.int,
    DISCARD_MONSTER=cython.int,
    DISCARD_OTHER=cython.int,
    DISCARD_OWN=cython.int,
    DONE=cython.int,
    DROP_BASE=cython.int,
    DROP_COLOUR=cython.int,
    KILL=cython.int,
    KILL_BASE=cython.int,
    NAME_BASE=cython.int,
    NAME_COLOUR=cython.int,
    PLACE_BASE=cython.int,
    PLAY=cython.int,
    SCARPER=cython.int,
    SCARPER_BASE=cython.int,
    STEAL=cython.int,
    STEAL_AWARDS=cython.int,
    STEAL_COLOUR_BASE=cython.int,
    STEAL_FROM_BASE=cython.int,
    TAKE_YELLOW=cython.int,
    TAKE_YELLOWS=cython.int,
    YELLOW=cython.int,
)
from henge.games.fightin.actions import (  # noqa: E402
    CHOOSE,
    COLOURS,
    DISCARD_BASE,
    DISCARD_HIGHEST,
    DISCARD_MONSTER,
    DISCARD_OTHER,
    DISCARD_OWN,
    DONE,
    DROP_BASE,
    DROP_COLOUR,
    KILL,
    KILL_BASE,
    NAME_BASE,
    NAME_COLOUR,
    NOUNS,
    PLACE_BASE,
    PLAY,
    SCARPER,
    SCARPER_BASE,
    SHARE_LOOT,
    SHARE_MONSTERS,
    STEAL,
    STEAL_AWARDS,
    STEAL_COLOUR_BASE,
    STEAL_FROM_BASE,
    TAKE_YELLOW,
    TAKE_YELLOWS,
    TITLES,
    YELLOW,
)
from henge.games.fightin.position import (  # noqa: E402
    _act,
    _deposit,
    _discard,
    _give,
    _move_loot,
    _multiplier,
    _own,
    _points,
    _take_wee_lawyer,
    _values,
    monster_values,
)

if not cython.compiled:  # compiled, choices.pxd cimports Position
    from henge.games.fightin.position import Position

_COLOUR = box.CARD_COLOUR
_TEXT = box.CARD_TEXT
_STOPPED = 99  # ``taken`` once a steal is over
_PLACES: tuple[str, ...] = tuple(f"places a card face down at {where}" for where in TITLES)
_PLACED: tuple[tuple[tuple[Mapping[int, str], ...], ...], ...] = tuple(
    tuple(tuple({seat: f"places {_TEXT[c]} face down at {where}"} for c in range(box.DECK_SIZE)) for where in TITLES)
    for seat in (0, 1)
)
"""The record's texts of a placement (G6): every seat's, and the owner's own (shared, never changed)."""
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
_KILLS: tuple[str, ...] = tuple(f"kills {text}" for text in _TEXT)


@cython.locals(state=Position)
def _chance(state: Position, phase: int, seat: int, after: int) -> None:
    """Sets up a chance node; its outcomes are the legal set, computed here once."""
    state.phase = phase
    state.player = seat
    state.step = after
    state._legal = state._chance_actions()


@cython.locals(state=Position)
def _ask(state: Position, kind: int, seat: int, after: int) -> None:
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


@cython.ccall
@cython.locals(state=Position, kind=cython.int, seat=cython.int, event=cython.int, base=cython.int, top=cython.int)
def options(state: Position) -> tuple[int, ...]:
    """Returns the sorted actions of the pending decision (the commonest decisions first)."""
    kind = state.kind
    seat = state.player
    if kind == PLAY:
        event = state.event
        base = PLACE_BASE + event * 60
        return tuple([base + c for c in sorted(state.hands[seat])])
    if kind == DISCARD_OWN or kind == DISCARD_OTHER or kind == DISCARD_HIGHEST:  # a card from the board
        event = state.event
        cards = state.board[event * 2 + (1 - seat if kind == DISCARD_OTHER else seat)]
        if kind == DISCARD_HIGHEST and cards:
            values = _values(state)
            top = max([values[c] for c in cards])
            cards = [c for c in cards if values[c] == top]
        return tuple([DISCARD_BASE + c for c in sorted(cards)])
    if kind == SCARPER:
        return tuple([SCARPER_BASE + c for c in sorted(state.board[STEAL * 2 + seat])])
    if kind == TAKE_YELLOWS:
        if state.stock[YELLOW]:
            return (TAKE_YELLOW, DONE)
        return (DONE,)
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


@cython.cfunc
@cython.locals(state=Position, seat=cython.int, other=cython.int, colour=cython.int, loot=list, awards=list)
def _steal_options(state: Position, seat: int) -> tuple[int, ...]:
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


@cython.ccall
@cython.locals(state=Position, action=cython.int, kind=cython.int, seat=cython.int, event=cython.int, card=cython.int)
def effect(state: Position, action: int) -> None:
    """Carries out the chosen option of the pending decision (the commonest decisions first)."""
    kind = state.kind
    seat = state.player
    if kind == PLAY:
        event = state.event
        card = action - PLACE_BASE - event * 60
        state.hands[seat].remove(card)
        state.down[event * 2 + seat] = card
        trail_tail = state.trail_tail
        if trail_tail is not None:
            trail_tail.append((seat, state.round, event, card))
        state._log = Event(state._log, seat, _PLACES[event], _PLACED[seat][event][card])
    elif kind == DISCARD_OWN or kind == DISCARD_OTHER or kind == DISCARD_HIGHEST:
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
            if state._shared & SHARE_LOOT:
                _own(state, SHARE_LOOT)
            state.loot[state.second * 5 + YELLOW] += 1
            _act(state, seat, _TAKES_YELLOW[state.second], _TAKES_YELLOW_LINE[seat][state.second])
    elif kind == STEAL_AWARDS:
        _steal(state, seat, action)
    elif kind == KILL:
        _kill(state, seat, action - KILL_BASE)
    elif kind == DISCARD_MONSTER:
        card = action - DISCARD_BASE
        if state._shared & SHARE_MONSTERS:
            _own(state, SHARE_MONSTERS)
        state.monsters.remove(card)
        state.monster_discards.append(card)
        _act(state, seat, f"discards monster {_TEXT[card]}")
    elif kind == NAME_COLOUR:
        _act(state, seat, f"names {COLOURS[action - NAME_BASE]}", "")
        _take_wee_lawyer(state, 1 - seat, action - NAME_BASE)
    elif kind == DROP_COLOUR:
        state.dropped[seat] = action - DROP_BASE
        _act(state, seat, f"drops {COLOURS[action - DROP_BASE]}")


@cython.cfunc
@cython.locals(state=Position, seat=cython.int, card=cython.int)
def _kill(state: Position, seat: int, card: int) -> None:
    if state._shared & SHARE_MONSTERS:
        _own(state, SHARE_MONSTERS)
    state.monsters.remove(card)
    state.monster_discards.append(card)
    _act(state, seat, _KILLS[card])
    if box.is_trilithon_card(card):  # the bonus award of the trilithon card's colour
        _give(state, seat, _COLOUR[card], _multiplier(state))


@cython.cfunc
@cython.locals(state=Position, seat=cython.int, action=cython.int, colour=cython.int, card=cython.int)
def _steal(state: Position, seat: int, action: int) -> None:
    thief = _TEXT[state.high]
    if action == DONE:
        _act(state, seat, "steals nothing more" if state.taken else "steals nothing", "")
        state.taken = _STOPPED
    elif action >= STEAL_COLOUR_BASE:  # one award straight from the opponent (two in round 7)
        colour = action - STEAL_COLOUR_BASE
        state.awards[(1 - seat) * 5 + colour] -= 1
        if state._shared & SHARE_LOOT:
            _own(state, SHARE_LOOT)
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
