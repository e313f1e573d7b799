"""Stonerush, a racing game by Tom Van 't veld, for 3-5 players.

Rule set: *Stonerush*, from the Stonehenge Anthology. Rulings
G1-G7 and S1-S8 apply; ``docs/games/stonerush.md`` documents them and the
edition's other readings.

A turn is a short series of decisions (G2): ``play X`` lays one card at a
time on the table (face up, so public at once), ``done`` ends the play and
moves the druid; then ``discard X`` until at most two cards are left and
``done`` keeps the rest; then chance draws the hand back up to four.

What each seat knows (G6): every event goes into the record, public but for
the card a seat is dealt or draws, which only that seat reads. Every decision
is public, so the only things a seat cannot see are the other trilithon cards
and the cards the other seats drew. The draw pile's contents are known every
time it is filled (the deck at the start, the face-up discard pile at each
reshuffle), so the hidden draws fall into independent groups, one per filling
of the pile; :meth:`StonerushState.resample_from_infostate` re-draws each group
exactly (see there and the docs page).
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import cython

from henge import box
from henge.core import (
    CHANCE,
    TERMINAL,
    Deferred,
    Event,
    Game,
    GameInfo,
    Option,
    check,
    load_cards,
    load_int,
    made,
    scaled_returns,
)

if not cython.compiled:  # compiled, the base is the extension type cimported in rules.pxd
    from henge.core.state import State

TRACKS: tuple[int, ...] = tuple(range(10, 31))
"""Designer option ``track``: the space that ends the race on the sarsen stones (S7 names 30)."""
_BLUESTONES = 19
"""S8: the bluestones variant races on the 19 stones of the horseshoe."""
HANDS: tuple[int, ...] = (3, 4, 5, 6)
"""Designer option ``hand``: the cards a hand is dealt and drawn back up to (S6 names four)."""
_HAND = 4
_KEEP = cython.declare(cython.int, 2)
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_ROUND_CAP = cython.declare(cython.int, 100)
"""G4: rounds of turns; random play never comes near it (docs/games/stonerush.md)."""
_LAST_PLAYS = cython.declare(cython.int, 8)

DECK: tuple[int, ...] = tuple(
    sorted(box.number_cards(day=True, night=False) + box.number_cards(day=False, night=True, numbers=range(1, 13)))
)
"""S1: the 30 day cards and the night cards 1..12 (42 cards)."""
TRILITHONS: tuple[int, ...] = box.TRILITHON_CARDS
DRUIDS: tuple[str, ...] = box.PLAYER_COLOURS
"""S2: all five druids race, whatever the player count."""

# Player actions: play card c (c), discard card c (65 + c), done (130).
_DISCARD = cython.declare(cython.int, box.DECK_SIZE)
DONE = 2 * box.DECK_SIZE
_PLAYER_TEXTS = tuple(f"play {t}" for t in box.CARD_TEXT) + tuple(f"discard {t}" for t in box.CARD_TEXT) + ("done",)
# Chance outcomes: draw card c (c), seat k starts (65 + k).
_START = cython.declare(cython.int, box.DECK_SIZE)
_CHANCE_TEXTS = tuple(f"draw {t}" for t in box.CARD_TEXT) + tuple(f"start seat {k}" for k in range(5))

# Phases.
DEAL_TRILITHONS, DEAL_HANDS, CHOOSE_START, PLAY, DISCARD, DRAW, OVER = range(7)
_PHASE_NAMES = ("deal trilithons", "deal hands", "choose start", "play", "discard", "draw", "over")
_SETUP = (DEAL_TRILITHONS, DEAL_HANDS, CHOOSE_START)
# The phases and ``done`` as the rules compare them: C ints where the module is compiled (the same values).
_DEALING_TRILITHONS = cython.declare(cython.int, DEAL_TRILITHONS)
_DEALING_HANDS = cython.declare(cython.int, DEAL_HANDS)
_CHOOSING_START = cython.declare(cython.int, CHOOSE_START)
_PLAYING = cython.declare(cython.int, PLAY)
_DISCARDING = cython.declare(cython.int, DISCARD)
_DRAWING = cython.declare(cython.int, DRAW)
_OVER = cython.declare(cython.int, OVER)
_DONE = cython.declare(cython.int, DONE)
_AT_CHANCE = cython.declare(cython.int, CHANCE)
_AT_END = cython.declare(cython.int, TERMINAL)

# The private constants and tables are C ints and tuples where the module is compiled (the same values).
_COLOUR = cython.declare(tuple, box.CARD_COLOUR)
_IS_DAY = cython.declare(tuple, box.CARD_IS_DAY)
_BLACK = cython.declare(cython.int, box.BLACK)
_TEXT = cython.declare(tuple, box.CARD_TEXT)
_IN_DECK = frozenset(DECK)
_FIRST_FILL: tuple[int, ...] = (0,) * box.DECK_SIZE
"""Every card entered the draw pile at its first filling (the deck); indexed by card id."""
_NO_PUSHES: tuple[int, ...] = (0,) * 5
_PLAYS = cython.declare(tuple, tuple(f"plays {text}" for text in _TEXT))
_DISCARDS = cython.declare(tuple, tuple(f"discards {text}" for text in _TEXT))
_VERBS = ("is dealt", "draws")
_DRAW_TEXTS: tuple[tuple[tuple[str, tuple[Mapping[int, str], ...]], ...], ...] = tuple(
    tuple(
        (f"seat {seat} {verb} a card", tuple({seat: f"seat {seat} {verb} {text}"} for text in _TEXT))
        for seat in range(5)
    )
    for verb in _VERBS
)
"""The record's texts of a deal or draw (G6), by verb and seat: every seat's, and per card the
drawer's own (shared, never changed)."""


class _Plan:
    """What a seat's record fixes about the hidden chance outcomes of a history; built once per
    state and seat by :meth:`StonerushState._plan_for`.

    ``trilithons``: (step, seat, event) of each trilithon card dealt to another seat, unless the
    cards were revealed; ``colours``: the colours those may be. ``draws``: per hidden draw step,
    (seat, verb, event), the verb as its index in ``_VERBS``. ``fills``: one entry per filling of
    the draw pile: per seat, the steps of its hidden draws from that pile and the cards it was next
    seen to lay or discard (each with how many of those draws came before that moment), then the
    cards of that pile never seen again, sorted. ``events``: the record of the history, oldest first.
    """

    __slots__ = ("colours", "draws", "events", "fills", "trilithons")

    def __init__(self) -> None:
        self.trilithons: list[tuple[int, int, int]] = []
        self.colours: list[int] = []
        self.draws: dict[int, tuple[int, int, int]] = {}
        self.fills: list[tuple[list[tuple[list[int], list[tuple[int, int]]]], list[int]]] = []
        self.events: list[Event] = []


@cython.auto_pickle(False)
@cython.cclass
class StonerushState(State):
    """A Stonerush position: five druids on the track, hands, piles and secret trilithon cards.

    Compiled, it is an extension type whose fields (named in ``__slots__``) and rule methods are
    declared in ``rules.pxd``; every method stays overridable by a subclass written in Python."""

    __slots__ = (
        "_plan",
        "discard",
        "discarded",
        "draw",
        "end",
        "filled",
        "fills",
        "hand_size",
        "hands",
        "last_plays",
        "n",
        "phase",
        "played",
        "player",
        "pos",
        "pushed",
        "reason",
        "start",
        "trilithon",
        "turns",
        "winners",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.n: int = game.num_players
        self.end: int = track_end(game.settings)
        self.hand_size: int = game.settings["hand"]
        self.pos: list[int] = [1] * 5
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.draw: list[int] = list(DECK)
        self.discard: list[int] = []
        self.played: list[int] = []
        self.trilithon: list[int] = [-1] * self.n  # colour index per seat, -1 until dealt
        self.phase: int = _DEALING_TRILITHONS
        self.player: int = 0  # the seat being dealt to, or the seat to move
        self.start: int = -1
        self.turns: int = 0
        self.last_plays: tuple[tuple[int, tuple[int, ...], int, int, int], ...] = ()
        self.winners: tuple[int, ...] = ()
        self.reason: str = ""
        # What every seat has seen, in summary (public): the net spaces each seat moved each
        # druid, the cards each seat discarded (as text), and when each card last entered the draw pile.
        self.pushed: tuple[tuple[int, ...], ...] = (_NO_PUSHES,) * self.n
        self.discarded: tuple[tuple[str, ...], ...] = ((),) * self.n
        self.fills: int = 0  # how often the draw pile was filled from the discard pile
        self.filled: tuple[int, ...] = _FIRST_FILL  # per card id: the filling it last entered
        self._plan: tuple[int, int, _Plan] | None = None  # resampling's reading of the history, cached

    # -- the public API hooks ------------------------------------------------

    @cython.locals(phase=cython.int)
    def current_player(self) -> int:
        phase = self.phase
        if phase == _PLAYING or phase == _DISCARDING:
            return self.player
        if phase == _OVER:
            return _AT_END
        return _AT_CHANCE

    @cython.locals(hand=list, legal=list, played=list, colour=cython.int, card=cython.int, card_colour=cython.int)
    def _legal_actions(self) -> list[int]:
        hand = self.hands[self.player]
        if self.phase == _DISCARDING:
            legal = [c + _DISCARD for c in sorted(hand)]
            if len(hand) <= _KEEP:
                legal.append(_DONE)
            return legal
        played = self.played
        colour = _play_colour(played)
        if colour == _BLACK:  # S3: nothing or only black laid so far, so any card may join
            legal = sorted(hand)
        else:
            legal = []
            for card in hand:
                card_colour = _COLOUR[card]
                if card_colour == colour or card_colour == _BLACK:
                    legal.append(card)
            legal.sort()
        if played:
            legal.append(_DONE)
        return legal

    uniform_chance = True  # G1: every deal, draw and start is uniform

    def _chance_actions(self) -> list[int]:
        phase = self.phase
        if phase == _DEALING_TRILITHONS:
            dealt = set(self.trilithon)
            return [box.TRILITHON_CARD_BASE + k for k in range(5) if k not in dealt]
        if phase == _CHOOSING_START:
            return [_START + k for k in range(self.n)]
        return self.draw  # kept sorted

    @cython.locals(phase=cython.int, seat=cython.int, card=cython.int, hand=list, draw=list, discarded=list)
    def _apply(self, action: int) -> None:
        phase = self.phase
        seat = self.player
        if phase == _PLAYING:
            if action == _DONE:
                self._resolve_play()
            else:
                self.hands[seat].remove(action)
                self.played.append(action)
                self._log = Event(self._log, seat, _PLAYS[action], None)
        elif phase == _DISCARDING:
            hand = self.hands[seat]
            if action == _DONE:
                self._log = Event(self._log, seat, f"keeps {len(hand)} card{'' if len(hand) == 1 else 's'}", None)
                self._end_discards()
            else:
                card = action - _DISCARD
                hand.remove(card)
                self.discard.append(card)
                discarded = list(self.discarded)
                discarded[seat] += (_TEXT[card],)
                self.discarded = tuple(discarded)
                self._log = Event(self._log, seat, _DISCARDS[card], None)
                if not hand:  # nothing left to keep: no choice remains
                    self._end_discards()
        elif phase == _DEALING_TRILITHONS:
            colour = action - box.TRILITHON_CARD_BASE
            self.trilithon[seat] = colour
            self._record(CHANCE, f"seat {seat} is dealt a trilithon card", {seat: _dealt_trilithon(seat, colour)})
            self.player += 1
            if self.player == self.n:
                self.player = 0
                self.phase = _DEALING_HANDS
        elif phase == _CHOOSING_START:
            self.start = self.player = action - _START
            self.phase = _PLAYING
            self._record(CHANCE, f"seat {self.start} starts")
        else:  # a draw, at the deal or at the end of a turn
            draw = self.draw
            del draw[_sorted_index(draw, action)]  # the draw pile is kept sorted
            hand = self.hands[seat]
            hand.append(action)
            public, private = _DRAW_TEXTS[phase == _DRAWING][seat]
            self._log = Event(self._log, CHANCE, public, private[action])
            if phase == _DEALING_HANDS:
                if len(hand) == self.hand_size:
                    self.player += 1
                    if self.player == self.n:
                        self.phase = _CHOOSING_START
            elif len(hand) == self.hand_size:
                self._next_turn()
            elif not self.draw:
                self._refill_draw_pile()

    @cython.annotation_typing(True)
    def _copy(self) -> StonerushState:
        cls = type(self)
        new: StonerushState = StonerushState.__new__(StonerushState) if cls is StonerushState else cls.__new__(cls)
        new.game = self.game
        new.n = self.n
        new.end = self.end
        new.hand_size = self.hand_size
        new.pos = self.pos[:]
        hands: list = []
        hand: list
        for hand in self.hands:
            hands.append(hand[:])
        new.hands = hands
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.played = self.played[:]
        new.trilithon = self.trilithon[:]
        new.phase = self.phase
        new.player = self.player
        new.start = self.start
        new.turns = self.turns
        new.last_plays = self.last_plays
        new.winners = self.winners
        new.reason = self.reason
        new.pushed = self.pushed
        new.discarded = self.discarded
        new.fills = self.fills
        new.filled = self.filled
        new._plan = None
        return new

    # -- phase handlers ----------------------------------------------------------

    @cython.locals(
        played=list,
        pushed=list,
        seat=cython.int,
        colour=cython.int,
        card=cython.int,
        net=cython.int,
        before=cython.int,
        after=cython.int,
    )
    def _resolve_play(self) -> None:
        played = self.played
        seat = self.player
        colour = _play_colour(played)
        net = 0
        for card in played:
            net += 1 if _IS_DAY[card] else -1  # S4: every card counts its sun or moon
        before = after = self.pos[colour] if colour != _BLACK else 0
        if colour != _BLACK and net:  # S3: black alone moves nobody; S4: net 0 moves nobody
            after = self._move(colour, net)
        self.last_plays = (self.last_plays + ((seat, tuple(played), colour, before, after),))[-_LAST_PLAYS:]
        if colour == _BLACK:
            text = "ends the play: no druid moves"
        elif after == before:
            text = f"ends the play: the {DRUIDS[colour]} druid stays on {before}"
        else:
            text = f"ends the play: the {DRUIDS[colour]} druid moves from {before} to {after}"
            pushed = list(self.pushed)
            mine = list(pushed[seat])
            mine[colour] += after - before
            pushed[seat] = tuple(mine)
            self.pushed = tuple(pushed)
        self._log = Event(self._log, seat, text, None)
        self.discard.extend(played)  # S6: played cards go to the discard pile first
        self.played = []
        if colour != _BLACK and after == self.end:  # S7: the game ends the moment a druid arrives
            self._finish()
        elif self.hands[seat]:
            self.phase = _DISCARDING
        else:
            self._end_discards()

    @cython.locals(pos=list, end=cython.int, start=cython.int, target=cython.int, step=cython.int)
    def _move(self, druid: int, net: int) -> int:
        """Moves a druid by a net number of spaces with the limits (S4) and bumps (S5)."""
        pos = self.pos
        end = self.end
        start = pos[druid]
        target = min(start + net, end) if net > 0 else max(start + net, 1)
        if target != start:
            step = 1 if net > 0 else -1
            while 1 < target < end and _taken(pos, druid, target):
                target += step
            pos[druid] = target
        return pos[druid]

    def _end_discards(self) -> None:
        self.phase = _DRAWING
        if not self.draw:
            self._refill_draw_pile()

    def _refill_draw_pile(self) -> None:
        """S6: the empty draw pile is replaced by the (shuffled) discard pile when a card is needed."""
        self.fills += 1
        filled = list(self.filled)
        for card in self.discard:
            filled[card] = self.fills
        self.filled = tuple(filled)
        self.draw = sorted(self.discard)
        self.discard = []
        self._record(CHANCE, f"the discard pile is shuffled into a new draw pile of {len(self.draw)} cards")

    def _next_turn(self) -> None:
        self.turns += 1
        if self.turns >= _ROUND_CAP * self.n:  # G4
            self._finish()
            return
        self.player = (self.player + 1) % self.n
        self.phase = _PLAYING

    def _finish(self) -> None:
        """Ends the game (a druid arrived, or the round cap): S7 names the winners."""
        self.winners, self.reason = self._result()
        self.phase = _OVER
        self._record_end()

    def _result(self) -> tuple[tuple[int, ...], str]:
        """S7: the winners and why, from the druids and the trilithon cards (a druid on the last
        space ended the race; else the round cap did)."""
        arrived = [d for d in range(5) if self.pos[d] == self.end]
        if arrived:
            colour = arrived[0]
            holders = tuple([seat for seat in range(self.n) if self.trilithon[seat] == colour])
            why = f"the {DRUIDS[colour]} druid reached {self.end}"
            if holders:
                return holders, f"{why}; seat {holders[0]} holds its trilithon card"
            why += ", which nobody holds"
        else:
            why = f"the round cap of {_ROUND_CAP} rounds was reached"
        own = [self.pos[self.trilithon[seat]] for seat in range(self.n)]
        best = max(own)  # S7: the player whose own druid stands furthest along; equal distance shares
        return tuple([seat for seat in range(self.n) if own[seat] == best]), (
            f"{why}; the furthest own druid stands on {best}"
        )

    def _record_end(self) -> None:
        """The trilithon cards are revealed to everyone (S7)."""
        cards = ", ".join([f"seat {seat} T-{DRUIDS[t]}" for seat, t in enumerate(self.trilithon)])
        won = " and ".join([f"seat {seat}" for seat in self.winners])
        self._record(CHANCE, f"the game is over: {self.reason}; trilithon cards: {cards}; {won} won")

    # -- hidden information --------------------------------------------------------

    def progress(self) -> list[float] | None:
        """Each seat's standing by the rules' count: how far its own druid (its trilithon card's
        colour) has come of the way from space 1 to the end of the track (0 before the deal); once
        the game is over, the returns."""
        if self.phase == _OVER:
            return scaled_returns(self)
        way = float(self.end - 1)
        return [0.0 if own < 0 else (self.pos[own] - 1) / way for own in self.trilithon]

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) can see at the table (G3) and knows (G6)."""
        if player is not None and not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        over = self.phase == OVER
        texts = _TEXT
        obs: dict[str, Any] = {
            "game": "stonerush",
            "seat": player,
            "players": self.n,
            "variant": self.game.options["variant"],
            "track_end": self.end,
            "phase": _PHASE_NAMES[self.phase],
            "current_player": self.current_player(),
            "starting_player": self.start,
            "turn": self.turns,
            "round": self.turns // self.n + 1,
            "round_cap": _ROUND_CAP,
            "druids": {DRUIDS[d]: self.pos[d] for d in range(5)},
            "hand": None if player is None else sorted(texts[c] for c in self.hands[player]),
            "trilithon": None if player is None or self.trilithon[player] < 0 else DRUIDS[self.trilithon[player]],
            "hand_sizes": [len(h) for h in self.hands],
            "draw_pile": len(self.draw),
            "discard_pile": [texts[c] for c in self.discard],
            "in_play": [texts[c] for c in self.played],
            "last_plays": [
                {
                    "seat": seat,
                    "cards": [texts[c] for c in cards],
                    "druid": None if colour == _BLACK else DRUIDS[colour],
                    "from": before,
                    "to": after,
                }
                for seat, cards, colour, before, after in self.last_plays
            ],
            "trilithons": [DRUIDS[t] for t in self.trilithon] if over else None,
            "winners": list(self.winners) if over else None,
            "result": self.reason if over else None,
            "pushed": [{"white": p[0], "blue": p[1], "green": p[2], "yellow": p[3], "red": p[4]} for p in self.pushed],
            "discarded": [list(cards) for cards in self.discarded],
            "hidden_cards": self._hidden_cards(player),
        }
        return obs

    @cython.locals(
        filled=tuple, seen=set, groups=dict, held=dict, group=list, hand=list, card=cython.int, seat=cython.int
    )
    def _hidden_cards(self, player: int | None) -> list[dict[str, Any]]:
        """G6: where the cards ``player`` cannot see lie, as far as it knows. One group per filling
        of the draw pile: the cards that went into it and were not seen since, with how many of
        them each hand holds and how many are still in the pile; within a group every placement is
        equally likely. (A group's counts follow from the draws and plays every seat saw.)"""
        filled = self.filled
        seen = set(self.discard)
        seen.update(self.played)
        if player is not None:
            seen.update(self.hands[player])
        groups: dict[int, list[str]] = {}
        for card in DECK:
            if card not in seen:
                group = groups.get(filled[card])
                if group is None:
                    groups[filled[card]] = [_TEXT[card]]
                else:
                    group.append(_TEXT[card])
        held = {fill: [0] * self.n for fill in groups}
        for seat, hand in enumerate(self.hands):
            if seat != player:
                for card in hand:
                    held[filled[card]][seat] += 1
        return [
            {
                "cards": groups[fill],
                "hands": held[fill],
                "draw_pile": len(self.draw) if fill == self.fills else 0,
            }
            for fill in sorted(groups)
        ]

    @cython.locals(
        actions=list,
        kept=list,
        draws=dict,
        private=dict,
        pile=list,
        open_steps=list,
        pool=list,
        slots=list,
        firsts=list,
        at=cython.Py_ssize_t,
        before=cython.Py_ssize_t,
        step=cython.Py_ssize_t,
        seat=cython.int,
    )
    def resample_from_infostate(self, player: int, rng: random.Random) -> StonerushState:
        """Returns a state reached by a legal history in which ``player`` saw exactly what it saw.

        Every decision is public, so a consistent history keeps every action but the hidden
        chance outcomes: the other seats' trilithon cards (until they are revealed) and the cards
        the other seats drew. The draw pile's contents are public each time it is filled, so its
        cards are matched to that filling's hidden draws: a card a seat was next seen to lay or
        discard goes to one of that seat's draws before that moment, chosen at random among those
        still free in order of the deadlines (which are nested per seat, so every matching is
        equally likely); the cards never seen again fill the remaining draws at random, the rest
        stay in the pile. Every consistent history is equally likely (the pile sizes are public).
        The state is the one the new history reaches (built directly: the seats' hands are the
        cards they drew and were not seen to lay, in the order drawn) with the record rewritten
        where a hidden draw or deal changed, so it is right for every seat. The random choices
        depend only on what ``player`` knows (canonical resampling).
        """
        self._check_seat(player)
        if not self.move_number() and (self.phase != DEAL_TRILITHONS or self.player != 0):  # loaded without its history
            return self._resample_present(player, rng)
        plan = self._plan_for(player)
        actions = self.history()
        new = self._copy()
        private: dict[int, Mapping[int, str]] = {}
        colours = rng.sample(plan.colours, len(plan.trilithons))
        for (step, seat, event), colour in zip(plan.trilithons, colours, strict=True):
            actions[step] = box.TRILITHON_CARD_BASE + colour
            new.trilithon[seat] = colour
            private[event] = {seat: _dealt_trilithon(seat, colour)}
        draws = plan.draws
        kept: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        pile: list[int] = []
        # A plain generator draws the same numbers through its getrandbits, without the calls through Python.
        bits = rng.getrandbits if type(rng) is _EXACT_RANDOM else None
        for seats, free in plan.fills:
            open_steps: list[int] = []
            for slots, firsts in seats:
                pool: list[int] = []
                at = 0
                for before, card in firsts:
                    pool.extend(slots[at:before])
                    at = before
                    if bits is None:
                        step = rng.choice(pool)
                        pool.remove(step)
                    else:
                        if not pool:
                            raise IndexError("Cannot choose from an empty sequence")
                        step = pool.pop(_below(bits, len(pool)))  # the steps in a pool are distinct
                    actions[step] = card
                open_steps += pool
                open_steps += slots[at:]
            open_steps.sort()
            pile = list(free)
            if bits is None:
                rng.shuffle(pile)
            else:
                _shuffle(bits, pile)
            for step, card in zip(open_steps, pile, strict=False):
                actions[step] = card
                kept[draws[step][0]].append((step, card))  # never seen again: still in that hand
            del pile[: len(open_steps)]  # the last filling's rest is the draw pile
        for step, (seat, verb, event) in draws.items():  # the drawer's own text of the card now drawn (shared)
            private[event] = _DRAW_TEXTS[verb][seat][1][actions[step]]
        for seat in range(self.n):
            if seat != player:
                new.hands[seat] = [card for _, card in sorted(kept[seat])]
        new.draw = sorted(pile)
        new._set_history(actions)
        new._legal = None
        new._log = Deferred(partial(_rewritten, plan.events, private))  # made only if it is read
        return new

    def _plan_for(self, player: int) -> _Plan:
        """Reads the history once per seat (replaying it): which chance outcomes were hidden from
        ``player``, what filled the pile each time, and when each card was next seen."""
        cached = self._plan
        if cached is not None and cached[0] == player and cached[1] == self.move_number():
            return cached[2]
        plan = _Plan()
        scratch = self.game.new_initial_state()
        assert isinstance(scratch, StonerushState)
        piles: list[Sequence[int]] = [DECK]
        starts = [-1]  # the step at whose end each pile was filled
        hidden: list[list[tuple[int, int]]] = [[]]  # per pile: (step, seat) of each hidden draw
        own: list[set[int]] = [set()]  # per pile: the cards ``player`` drew from it
        shown: dict[int, list[tuple[int, int]]] = {}  # card -> (step, seat) each time it was laid or discarded
        events = 0
        for step, action in enumerate(self.history()):
            phase = scratch.phase
            seat = scratch.player
            if phase == DEAL_TRILITHONS:
                if seat != player:
                    plan.trilithons.append((step, seat, events))
            elif phase == DEAL_HANDS or phase == DRAW:
                if seat == player:
                    own[-1].add(action)
                else:
                    hidden[-1].append((step, seat))
                    plan.draws[step] = (seat, 0 if phase == DEAL_HANDS else 1, events)  # the verb's index in _VERBS
            elif phase == PLAY and action != DONE:
                shown.setdefault(action, []).append((step, seat))
            elif phase == DISCARD and action != DONE:
                shown.setdefault(action - _DISCARD, []).append((step, seat))
            fills = scratch.fills
            log = made(scratch._log)
            scratch._apply(action)
            node = made(scratch._log)
            while node is not log and node is not None:
                events += 1
                node = made(node.parent)
            if scratch.fills != fills:
                piles.append(tuple(scratch.draw))
                starts.append(step)
                hidden.append([])
                own.append(set())
        for pile, start, draws, mine in zip(piles, starts, hidden, own, strict=True):
            firsts: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
            free = []
            for card in pile:
                if card in mine:
                    continue
                seen = shown.get(card, [])
                at = bisect_right(seen, (start, self.n))  # the first time it was seen after the filling
                if at < len(seen):
                    when, seat = seen[at]
                    firsts[seat].append((when, card))
                else:
                    free.append(card)
            seats = []
            for seat in range(self.n):
                slots = [step for step, who in draws if who == seat]
                deadlines = [(bisect_left(slots, when), card) for when, card in sorted(firsts[seat])]
                seats.append((slots, deadlines))
            plan.fills.append((seats, free))
        if self.phase == OVER:  # the trilithon cards were revealed to everyone
            plan.trilithons = []
        else:
            plan.colours = [k for k in range(5) if k != self.trilithon[player]]
        node = made(scratch._log)
        while node is not None:
            plan.events.append(node)
            node = made(node.parent)
        plan.events.reverse()
        self._plan = (player, self.move_number(), plan)
        return plan

    def _resample_present(self, player: int, rng: random.Random) -> StonerushState:
        """For a position loaded without its history: re-draws what ``player`` cannot see from the
        present view alone (the same groups of unseen cards, the same counts per hand)."""
        new = self._copy()
        new._set_history(())
        new._legal = None
        new._log = None
        filled = self.filled
        seen = set(self.discard) | set(self.played) | set(self.hands[player])
        for fill in sorted({filled[c] for c in DECK if c not in seen}):
            cards = [c for c in DECK if c not in seen and filled[c] == fill]
            rng.shuffle(cards)
            for seat in range(self.n):
                if seat != player:
                    hand = new.hands[seat]
                    for index, card in enumerate(hand):
                        if filled[card] == fill:
                            hand[index] = cards.pop()
            if fill == self.fills:
                new.draw = sorted(cards)
        if self.phase != OVER:
            others = [seat for seat in range(self.n) if seat != player and self.trilithon[seat] >= 0]
            colours = rng.sample([k for k in range(5) if k != self.trilithon[player]], len(others))
            for seat, colour in zip(others, colours, strict=True):
                new.trilithon[seat] = colour
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        texts = _TEXT
        return {
            "phase": _PHASE_NAMES[self.phase],
            "player": self.player,
            "start": self.start,
            "turns": self.turns,
            "druids": list(self.pos),
            "hands": [[texts[c] for c in hand] for hand in self.hands],
            "draw_pile": sorted(texts[c] for c in self.draw),
            "discard_pile": [texts[c] for c in self.discard],
            "in_play": [texts[c] for c in self.played],
            "trilithons": [DRUIDS[t] if t >= 0 else None for t in self.trilithon],
            "last_plays": [[s, [texts[c] for c in cs], col, b, a] for s, cs, col, b, a in self.last_plays],
            "winners": list(self.winners),
            "reason": self.reason,
            "pushed": [list(pushes) for pushes in self.pushed],
            "discarded": [list(cards) for cards in self.discarded],
            "fills": self.fills,
            "filled": {texts[c]: self.filled[c] for c in DECK},
        }

    def _load(self, fields: Mapping[str, Any]) -> None:
        """Sets the fields and checks every invariant of a reachable position (G7)."""
        n = self.n
        end = self.end
        check(fields["phase"] in _PHASE_NAMES, f"phase must be one of {', '.join(_PHASE_NAMES)}")
        phase = self.phase = _PHASE_NAMES.index(fields["phase"])
        player = self.player = load_int(fields["player"], 0, n, "player")
        start = self.start = load_int(fields["start"], -1, n - 1, "start")
        turns = self.turns = load_int(fields["turns"], 0, _ROUND_CAP * n, "turns")
        druids = fields["druids"]
        check(isinstance(druids, list) and len(druids) == 5, "druids: five positions (white..red)")
        pos = self.pos = [load_int(p, 1, end, "druid position") for p in druids]
        hands = fields["hands"]
        check(isinstance(hands, list) and len(hands) == n, f"hands: one list per seat ({n})")
        self.hands = [_cards(h, "hand") for h in hands]
        self.draw = sorted(_cards(fields["draw_pile"], "draw_pile"))
        self.discard = _cards(fields["discard_pile"], "discard_pile")
        self.played = _cards(fields["in_play"], "in_play")
        every = [c for h in self.hands for c in h] + self.draw + self.discard + self.played
        check(sorted(every) == sorted(DECK), "every one of the 42 Stonerush cards must be in exactly one place")
        tri = fields["trilithons"]
        check(isinstance(tri, list) and len(tri) == n, f"trilithons: one per seat ({n})")
        self.trilithon = [-1 if t is None else DRUIDS.index(t) if t in DRUIDS else -2 for t in tri]
        dealt = [t for t in self.trilithon if t != -1]
        check(-2 not in dealt and len(set(dealt)) == len(dealt), "trilithons: distinct player colours or null")
        plays = fields["last_plays"]
        check(isinstance(plays, list) and len(plays) <= _LAST_PLAYS, f"last_plays: a list of at most {_LAST_PLAYS}")
        self.last_plays = tuple(self._load_play(play) for play in plays)
        winners = fields["winners"]
        check(isinstance(winners, list), "winners: a list of seats")
        self.winners = tuple(load_int(w, 0, n - 1, "winner") for w in winners)
        check(isinstance(fields["reason"], str), "reason: a text")
        self.reason = fields["reason"]
        self._load_summary(fields)
        self._check_turn(phase, player, start, turns)
        self._check_druids(phase, pos)

    def _load_play(self, play: Any) -> tuple[int, tuple[int, ...], int, int, int]:
        check(isinstance(play, list) and len(play) == 5, "a last play is [seat, cards, colour, from, to]")
        seat, texts, colour, before, after = play
        cards = tuple(_cards(texts, "last play"))
        check(bool(cards), "a last play lays at least one card")
        check(load_int(colour, 0, 5, "last play colour") == _play_colour(cards), "a last play's colour is its cards'")
        low = 0 if colour == _BLACK else 1
        high = 0 if colour == _BLACK else self.end
        return (
            load_int(seat, 0, self.n - 1, "last play seat"),
            cards,
            colour,
            load_int(before, low, high, "last play from"),
            load_int(after, low, high, "last play to"),
        )

    def _load_summary(self, fields: Mapping[str, Any]) -> None:
        """The public tallies: pushes, discards and the fillings of the draw pile."""
        n = self.n
        pushed = fields["pushed"]
        check(isinstance(pushed, list) and len(pushed) == n, f"pushed: one list of five per seat ({n})")
        bound = (self.end - 1) * _ROUND_CAP
        rows = []
        for row in pushed:
            check(isinstance(row, list) and len(row) == 5, "pushed: five net moves per seat (white..red)")
            rows.append(tuple(load_int(x, -bound, bound, "pushed") for x in row))
        self.pushed = tuple(rows)
        for druid in range(5):
            moved = sum(row[druid] for row in rows)
            check(moved == self.pos[druid] - 1, f"pushed: the {DRUIDS[druid]} druid's moves must add up to its space")
        discarded = fields["discarded"]
        check(isinstance(discarded, list) and len(discarded) == n, f"discarded: one list per seat ({n})")
        self.discarded = tuple(tuple(_TEXT[c] for c in _cards(cards, "discarded")) for cards in discarded)
        self.fills = load_int(fields["fills"], 0, self.turns + 1, "fills")
        filled = fields["filled"]
        check(
            isinstance(filled, Mapping) and sorted(filled) == sorted(_TEXT[c] for c in DECK),
            "filled: the filling of the draw pile each of the 42 cards last entered",
        )
        table = list(_FIRST_FILL)
        for card in DECK:
            table[card] = load_int(filled[_TEXT[card]], 0, self.fills, "filled")
        self.filled = tuple(table)
        check(
            all(table[c] == self.fills for c in self.draw), "filled: the draw pile holds cards of its last filling only"
        )

    def _check_turn(self, phase: int, player: int, start: int, turns: int) -> None:
        """The phase, the seat, the turn counter and the hand sizes fit each other (G7)."""
        n = self.n
        full = self.hand_size
        word = _WORDS[full]
        sizes = [len(h) for h in self.hands]
        dealt = [t >= 0 for t in self.trilithon]
        over = phase == OVER
        check(over == bool(self.winners), "winners are named exactly when the game is over")
        check(over == bool(self.reason), "a reason is given exactly when the game is over")
        if phase in _SETUP:
            check(start == -1 and turns == 0, "before the first turn: start is -1 and turns 0")
            check(not self.discard and not self.played, "before the first turn nothing is laid or discarded")
            check(not self.last_plays and self.fills == 0, "before the first turn nobody has played")
            check(not any(self.discarded), "before the first turn nobody has discarded")
            if phase == DEAL_TRILITHONS:
                check(player < n, "the trilithon deal is at a seat")
                check(dealt == [k < player for k in range(n)], "trilithon cards are dealt in seat order")
                check(not any(sizes), "no number card is dealt before the trilithon cards")
                return
            check(all(dealt), "every trilithon card is dealt before the number cards")
            if phase == DEAL_HANDS:
                check(player < n and sizes[player] < full, f"the card deal is at a seat short of {word} cards")
                want = [full if k < player else 0 for k in range(n)]
                check(
                    all(sizes[k] == want[k] for k in range(n) if k != player),
                    f"the deal gives {word} cards to each seat in seat order",
                )
            else:
                check(player == n, "choosing the start: player is the seat count")
                check(all(size == full for size in sizes), f"every hand holds {word} cards when the start is chosen")
            return
        check(all(dealt), "every trilithon card is dealt")
        check(start >= 0 and player < n, "a turn needs a starting seat and a seat to move")
        check(
            all(sizes[k] == full for k in range(n) if k != player), f"every seat but the one to move holds {word} cards"
        )
        capped = over and all(p != self.end for p in self.pos)
        if capped:
            check(turns == _ROUND_CAP * n, "a game over without a druid on the last space ended at the round cap")
            check(player == (start + turns - 1) % n, "the seat to move fits the start and the turns")
            check(sizes[player] == full, "the round cap ends a game after the last draw")
        else:
            check(turns < _ROUND_CAP * n, "turns run below the round cap")
            check(player == (start + turns) % n, "the seat to move fits the start and the turns")
        if phase == PLAY:
            check(sizes[player] + len(self.played) == full, f"the hand and the cards laid make {word}")
            colours = {_COLOUR[c] for c in self.played} - {_BLACK}
            check(len(colours) <= 1, "the cards laid are of one colour (and black)")
            return
        check(not self.played, "cards are laid only while playing")
        if phase == DISCARD:
            check(1 <= sizes[player] <= full - 1, f"discarding: one to {_WORDS[full - 1]} cards in hand")
        elif phase == DRAW:
            check(sizes[player] < full, f"drawing: fewer than {word} cards in hand")
            check(bool(self.draw), "drawing: the draw pile is never empty (it is filled when a card is needed)")
        elif not capped:
            check(sizes[player] < full, f"a race ends after a play: fewer than {word} cards in hand")
        if over:
            winners, _ = self._result()
            check(self.winners == winners, f"the winners must be seats {list(winners)} (S7)")

    def _check_druids(self, phase: int, pos: list[int]) -> None:
        ahead = [p for p in pos if p > 1]
        check(len(set(ahead)) == len(ahead), "druids share only space 1 (S5)")
        if phase in _SETUP:
            check(all(p == 1 for p in pos), "every druid starts on space 1")
        if phase != OVER:
            check(self.end not in pos, f"a druid on space {self.end} ends the game")


@cython.ccall
@cython.returns(cython.int)
@cython.locals(card=cython.int, colour=cython.int)
def _play_colour(cards: Sequence[int]) -> int:
    """Returns the colour of a play: its first coloured card's, or black (S3)."""
    for card in cards:
        colour = _COLOUR[card]
        if colour != _BLACK:
            return colour
    return _BLACK


@cython.cfunc
@cython.returns(cython.Py_ssize_t)
@cython.locals(cards=list, card=cython.int, low=cython.Py_ssize_t, high=cython.Py_ssize_t, middle=cython.Py_ssize_t)
def _sorted_index(cards: list[int], card: int) -> int:
    """Returns where ``card`` goes in the sorted list ``cards`` (``bisect_left``: before any equal card),
    by a search over C ints where the module is compiled."""
    if not cython.compiled:
        return bisect_left(cards, card)
    low = 0
    high = len(cards)
    while low < high:
        middle = (low + high) // 2
        if cython.cast(cython.int, cards[middle]) < card:
            low = middle + 1
        else:
            high = middle
    return low


@cython.cfunc
@cython.returns(cython.bint)
@cython.locals(pos=list, druid=cython.int, space=cython.int, other=cython.int)
def _taken(pos: list[int], druid: int, space: int) -> bool:
    """Whether a druid other than ``druid`` stands on ``space`` (S5)."""
    for other in range(5):  # noqa: SIM110 (a loop over C ints where compiled, not a generator)
        if other != druid and pos[other] == space:
            return True
    return False


_EXACT_RANDOM = random.Random
"""Resampling draws with this generator's own method where ``rng`` is exactly one (see :func:`_below`)."""


@cython.cfunc
@cython.returns(cython.Py_ssize_t)
@cython.locals(n=cython.Py_ssize_t, k=cython.int, m=cython.Py_ssize_t, r=cython.Py_ssize_t)
def _below(bits: Callable[[int], int], n: int) -> int:
    """Returns a number in [0, n) (n > 0) drawn as ``random.Random`` draws it for ``choice`` and
    ``shuffle`` (``_randbelow_with_getrandbits``): as many bits as ``n`` has, again until below
    ``n``; ``bits`` is the generator's ``getrandbits``. The same numbers from the same state, without
    the calls through Python."""
    if cython.compiled:
        k = 0
        m = n
        while m:
            k += 1
            m >>= 1
    else:
        k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


@cython.cfunc
@cython.locals(items=list, i=cython.Py_ssize_t, j=cython.Py_ssize_t)
def _shuffle(bits: Callable[[int], int], items: list[Any]) -> None:
    """Shuffles ``items`` in place as ``random.Random.shuffle`` does with the generator of ``bits``."""
    for i in range(len(items) - 1, 0, -1):
        j = _below(bits, i + 1)
        items[i], items[j] = items[j], items[i]


def _dealt_trilithon(seat: int, colour: int) -> str:
    """The text only ``seat`` reads of the trilithon card it is dealt."""
    return f"seat {seat} is dealt T-{DRUIDS[colour]}"


def _rewritten(events: list[Event], private: Mapping[int, Mapping[int, str]]) -> Event | None:
    """Returns the record ``events`` (oldest first) with the private texts of some entries replaced;
    the entries before the first change are shared."""
    if not private:
        return events[-1] if events else None
    first = min(private)
    node = events[first - 1] if first else None
    for index in range(first, len(events)):
        event = events[index]
        node = Event(node, event.actor, event.public, private.get(index, event.private))
    return node


def _cards(values: Any, name: str) -> list[int]:
    return load_cards(values, name, _IN_DECK, "the 42 Stonerush cards (1d..30d, 1n..12n)")


def track_end(settings: Mapping[str, Any]) -> int:
    """Returns the last space of the track: stone 19 in the bluestones variant (S8), else the
    ``track`` option's space of the sarsen stones (30 in the standard game)."""
    return _BLUESTONES if settings["variant"] == "bluestones" else int(settings["track"])


class Stonerush(Game):
    """Stonerush for 3-5 players; option ``variant`` is ``standard`` or ``bluestones`` (S8).

    Designer options (``docs/games/stonerush.md``, "Designer options"): ``track`` ends the race
    on sarsen stone 10..30 instead of 30 (standard variant only), ``hand`` deals and draws hands
    of 3..6 cards instead of 4. At their standard values neither is written in records.
    """

    info = GameInfo(
        id="stonerush",
        name="Stonerush",
        min_players=3,
        max_players=5,
        version="1.0.0",
        rule_text="Stonerush, a racing game by Tom Van 't veld (the Stonehenge Anthology)",
        summary="race the five druids around the circle; your secret colour wins",
        options=(
            Option("variant", ("standard", "bluestones"), "standard", "bluestones: race on the 19 bluestones (S8)"),
            Option(
                "track",
                TRACKS,
                30,
                "the sarsen stone that ends the race (S4, S5, S7 with this space for 30); standard variant only",
                recorded_at_default=False,
            ),
            Option(
                "hand",
                HANDS,
                _HAND,
                "the cards each hand is dealt and drawn back up to (S6: four); at most two are kept",
                recorded_at_default=False,
            ),
        ),
        round_cap=_ROUND_CAP,
    )
    state_class = StonerushState
    player_action_texts = _PLAYER_TEXTS
    chance_action_texts = _CHANCE_TEXTS

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        if self.settings["variant"] == "bluestones" and self.settings["track"] != 30:
            raise ValueError(
                "stonerush: option track sets the length of the standard variant's track; "
                "the bluestones variant always races on the 19 bluestones (S8)"
            )

    def max_game_length(self) -> int:
        # Set-up: n trilithon cards, h cards a hand, the start; a turn: k plays + done, d discards
        # + done, k + d <= h draws.
        hand = self.settings["hand"]
        return (1 + hand) * self.num_players + 1 + _ROUND_CAP * self.num_players * (2 * hand + 2)
