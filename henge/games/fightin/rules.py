"""Fightin' an' Drinkin' an' Stealin'!, a humor game by Evan Shultz, for 2 players.

Rule set: *Fightin' an' Drinkin' an' Stealin'!*, from the Stonehenge Anthology. Rulings
G1-G7 and F1-F16 apply; ``docs/games/fightin.md`` documents them and the
edition's other readings.

Each round both seats place one hand card face down at each event, seat 0
first (F2), as three decisions (``fighter X``, ``drinker X``, ``thief X``).
Then the Fightin', Drinkin' and Stealin' events resolve in turn; every choice
the text gives a player (a discard, a kill on a tie, a steal, which thief
scarpers, the colour named on black, the best colour dropped at scoring) is a
decision of that player. A choice with a single option is made for the
player; a choice with none is skipped. The rule modules beside this one:
``actions`` (the cards, phases, steps and action tables), ``table`` (card
values, awards and the record), ``choices`` (the decisions), ``events`` (the
set-up and the events, as steps), ``scoring``, ``observation`` (seat views)
and ``fields`` (the state as JSON).

Every event a seat perceives goes into the record (G6): the deals, draws
(the card only for its drawer) and monster flips, every move (a face-down
card only for its owner), every card turned over and the rules' results.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core import (
    CHANCE,
    TERMINAL,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    Option,
    Trail,
    scaled_returns,
    trail_entries,
)
from henge.games.fightin import fields as state_fields
from henge.games.fightin import observation

# The phases and action bases the public API hooks compare and count with: C ints where compiled.
cython.declare(
    SHARE_ALL=cython.int,
    SHARE_BOARD=cython.int,
    SHARE_DECKS=cython.int,
    SHARE_MONSTERS=cython.int,
    CHOOSE=cython.int,
    DEAL=cython.int,
    DEAL_BASE=cython.int,
    DRAW=cython.int,
    DRAW_BASE=cython.int,
    FLIP_BASE=cython.int,
    OVER=cython.int,
)
from henge.games.fightin.actions import (  # noqa: E402
    CHANCE_TEXTS,
    CHOOSE,
    DEAL,
    DEAL_BASE,
    DEALS,
    DECKS,
    DRAW,
    DRAW_BASE,
    FLIP_BASE,
    GONAGAL,
    LAWYER_START,
    MONSTER_DECK,
    OVER,
    PLACE_BASE,
    PLAY,
    PLAYER_TEXTS,
    ROUND_CAP,
    ROUNDS,
    SHARE_ALL,
    SHARE_BOARD,
    SHARE_DECKS,
    SHARE_MONSTERS,
    STOCK_PER_COLOUR,
    TITLES,
    max_game_length,
)
from henge.games.fightin.choices import effect, options  # noqa: E402
from henge.games.fightin.events import run  # noqa: E402
from henge.games.fightin.position import Entry, _own, _points  # noqa: E402

if not cython.compiled:  # compiled, rules.pxd cimports Position (the class it derives from)
    from henge.games.fightin.position import Position

_DRAWS: tuple[str, ...] = ("seat 0 draws a card", "seat 1 draws a card")
_DRAWN_TEXTS: tuple[tuple[Mapping[int, str], ...], ...] = tuple(
    tuple({seat: f"seat {seat} draws {box.CARD_TEXT[c]}"} for c in range(box.DECK_SIZE)) for seat in (0, 1)
)
"""The record's texts of a draw (G6): every seat's, and the drawer's own (shared, never changed)."""
_NEXT_MONSTER: tuple[str, ...] = tuple(f"the next monster is {text}" for text in box.CARD_TEXT)

_DECK_DRAWS: tuple[tuple[int, ...], ...] = tuple(tuple(c + DRAW_BASE for c in deck) for deck in DECKS)
"""The outcomes of a draw from each seat's whole deck."""


@cython.auto_pickle(False)
@cython.cclass
class FightinState(Position):
    """A position: three events with each seat's cards, the monsters, awards, lawyers, hands and decks.

    Compiled, it is an extension type (fields and methods declared in rules.pxd and position.pxd); its
    methods stay overridable by a Python subclass on either path. A clone shares the lists the rules
    change seldom until the rules change one (copy on write, see position._own): outside the rules,
    give such a field a new list rather than changing its list in place."""

    __slots__ = ("_known",)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._shared = 0
        self.phase = DEAL
        self.step = DEALS
        self.kind = -1
        self.player = 0
        self.event = 0
        self.round = 0
        self.rounds = game.settings["rounds"]
        self.hands = [[], []]
        self.decks = [list(DECKS[0]), list(DECKS[1])]
        self.deck_draws = list(_DECK_DRAWS)  # kept with the decks (_deal_from_deck)
        self.board = [[] for _ in range(6)]
        self.down = [-1] * 6
        self.monsters = []
        self.monster_deck = list(MONSTER_DECK)
        self.discards = [[], []]
        self.monster_discards = []
        self.loot = [0] * (60 * 5)
        self.awards = [0] * 10
        self.stock = [STOCK_PER_COLOUR] * 5
        self.altar = 0
        self.lawyer = LAWYER_START
        self.wee = [-1] * 5
        self.gonagal = -1
        self.lead = -1
        self.high = -1
        self.second = -1
        self.taken = 0
        self.habeas = [0, 0]
        self.dropped = [-1, -1]
        self.scores = ()
        self.winners = ()
        self.log = None
        self.trail = None
        self.trail_tail = None
        self._known: tuple[object, Trail | None] | None = None  # the resampler's (record, trail) cache

    # -- the public API hooks ------------------------------------------------

    @cython.locals(phase=cython.int)
    def current_player(self) -> int:
        phase = self.phase
        if phase == CHOOSE:
            return self.player
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def _legal_actions(self) -> tuple[int, ...]:
        return options(self)

    uniform_chance = True  # G1: every deal, draw and flip is uniform over its deck

    @cython.locals(phase=cython.int)
    def _chance_actions(self) -> tuple[int, ...]:
        # The decks are kept sorted by card id, so the outcomes come out sorted. The rules hand
        # them over as the legal set when they set up a chance node (choices._chance).
        phase = self.phase
        if phase == DEAL:  # F1: a Gonagal dealt face up goes back; so the deal is uniform over the rest
            gonagal = GONAGAL[self.player]
            return tuple([c + DEAL_BASE for c in self.decks[self.player] if c != gonagal])
        if phase == DRAW:
            return self.deck_draws[self.player]
        return tuple([c + FLIP_BASE for c in self.monster_deck])

    @cython.locals(action=cython.int, phase=cython.int, seat=cython.int, card=cython.int, at=cython.int)
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == CHOOSE:
            effect(self, action)
        elif phase == DRAW:
            seat = self.player
            card = action - DRAW_BASE
            if self._shared & SHARE_DECKS:
                _own(self, SHARE_DECKS)
            self.decks[seat].remove(card)
            deck_draws = self.deck_draws
            draws = deck_draws[seat]  # this draw's outcomes; the next draw's are the rest (see _deal_from_deck)
            at = draws.index(action)
            deck_draws[seat] = draws[:at] + draws[at + 1 :]
            self.hands[seat].append(card)
            trail_tail = self.trail_tail
            if trail_tail is not None:
                trail_tail.append((seat, self.round, -1, card))
            self._log = Event(self._log, CHANCE, _DRAWS[seat], _DRAWN_TEXTS[seat][card])
        elif phase == DEAL:
            seat = self.player
            card = action - DEAL_BASE
            if self._shared & SHARE_BOARD:
                _own(self, SHARE_BOARD)
            self._deal_from_deck(seat, card)
            self.board[self.event * 2 + seat].append(card)
            self._record(CHANCE, f"seat {seat} deals {box.CARD_TEXT[card]} face up to {TITLES[self.event]}")
        else:
            card = action - FLIP_BASE
            if self._shared & SHARE_MONSTERS:
                _own(self, SHARE_MONSTERS)
            self.monster_deck.remove(card)
            self.monsters.append(card)
            if self.round:
                text = _NEXT_MONSTER[card]
                self.log = (self.log, text)
                self._log = Event(self._log, CHANCE, text, None)
            else:  # the narrator tells the first monster from the observation, not the log
                self._record(CHANCE, f"the first monster is {box.CARD_TEXT[card]}")
        self.kind = -1
        run(self)  # the automatic steps, up to the next chance node or decision

    def _deal_from_deck(self, seat: int, card: int) -> None:
        """Takes ``card`` out of the seat's deck, and its draw out of the deck's draw outcomes (as a
        draw does): these are kept with the deck so that a draw does not list the deck again."""
        if self._shared & SHARE_DECKS:
            _own(self, SHARE_DECKS)
        self.decks[seat].remove(card)
        draws = self.deck_draws[seat]
        at = draws.index(card + DRAW_BASE)
        self.deck_draws[seat] = draws[:at] + draws[at + 1 :]

    def _list_deck_draws(self) -> None:
        """Lists each deck's draw outcomes afresh (decks set from outside the rules)."""
        self.deck_draws = [tuple([c + DRAW_BASE for c in deck]) for deck in self.decks]

    @cython.locals(hands=list)
    def _copy(self) -> FightinState:
        cls = type(self)  # a designer's subclass (a rule changed in Python) copies as itself
        new = cython.declare(
            FightinState, FightinState.__new__(FightinState) if cls is FightinState else cls.__new__(cls)
        )
        new.game = self.game
        new.phase = self.phase
        new.step = self.step
        new.kind = self.kind
        new.player = self.player
        new.event = self.event
        new.round = self.round
        new.rounds = self.rounds
        hands = self.hands
        new.hands = [hands[0][:], hands[1][:]]
        new.decks = self.decks  # these shared until one of the two changes them (see position._own)
        new.deck_draws = self.deck_draws
        new.board = self.board
        new.monsters = self.monsters
        new.monster_deck = self.monster_deck
        new.discards = self.discards
        new.monster_discards = self.monster_discards
        new.loot = self.loot
        self._shared = new._shared = SHARE_ALL
        new.down = self.down[:]
        new.awards = self.awards[:]
        new.stock = self.stock[:]
        new.altar = self.altar
        new.lawyer = self.lawyer
        new.wee = self.wee[:]
        new.gonagal = self.gonagal
        new.lead = self.lead
        new.high = self.high
        new.second = self.second
        new.taken = self.taken
        new.habeas = self.habeas[:]
        new.dropped = self.dropped[:]
        new.scores = self.scores
        new.winners = self.winners
        new.log = self.log
        new.trail = None
        new.trail_tail = None
        new._known = None
        return new

    def log_line(self, text: str) -> None:
        """Appends a public line to the game log (never a face-down card); shared by clones."""
        self.log = (self.log, text)

    # -- hidden information --------------------------------------------------------

    def progress(self) -> list[float] | None:
        """Each seat's standing by the rules' count: its share of the two scores as they stand
        (F11: its awards in half awards less its best colour's, or the colour it dropped; equal
        shares while both are 0); once the game is over, the returns."""
        if self.phase == OVER:
            return scaled_returns(self)
        scores = []
        for seat in (0, 1):
            points = _points(self, seat)
            dropped = self.dropped[seat]
            scores.append(sum(points) - (points[dropped] if dropped >= 0 else max(points)))
        total = scores[0] + scores[1]
        if total <= 0:
            return [0.5, 0.5]
        return [scores[0] / total, scores[1] / total]

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) can see at the table (G3)."""
        return observation.observation(self, player)

    def resample_from_infostate(self, player: int, rng: random.Random) -> FightinState:
        """Returns a state reached by a legal history in which seat ``player`` saw exactly what it
        saw here (G3, G6), drawn uniformly from those histories (all equally likely: every draw is
        uniform over a deck whose size is public).

        The other seat's moves the seat could not see are its draws (which card) and its
        placements (which card went face down). Each placement took a card its owner had drawn in
        that round's draw or before: the placements are matched to those draws in turn, each
        uniformly among the draws still free, so every matching is as likely. A placement the
        seat has seen turned over gives its draw that card; the other draws get the cards the
        seat has not seen (the other's hand, face-down cards and deck) in random order. The real
        history is then replayed with those draws and placements and everything else as it was.
        The generator is used only with what the seat knows (the rounds of the draws and
        placements, the placements turned over, the set of unseen cards), in sorted order.

        A state set up from JSON without its history has no record before it was set up; there
        the other seat's hand, face-down cards and deck are re-dealt from its unseen cards."""
        if player not in (0, 1):
            raise ValueError(f"seats run 0..1, not {player}")
        known = self._trail()
        if known is None:
            return self._redeal(player, rng)
        trail: list[Entry] = trail_entries(known)
        other = 1 - player
        draws = [rnd + 1 for seat, rnd, event, _ in trail if seat == other and event < 0]  # the round each serves
        places = [(rnd, event, card) for seat, rnd, event, card in trail if seat == other and event >= 0]
        hidden = [e for e in range(3) if self.down[e * 2 + other] >= 0]  # this round's, still face down
        free = [True] * len(draws)
        source = []  # the draw each placement's card came from
        for rnd, _, _ in places:
            pick = rng.choice([i for i, r in enumerate(draws) if r <= rnd and free[i]])
            free[pick] = False
            source.append(pick)
        drawn = [-1] * len(draws)
        for (rnd, event, card), pick in zip(places, source, strict=True):
            if not (rnd == self.round and event in hidden):  # turned over: the seat saw it
                drawn[pick] = card
        unseen = sorted(self.hands[other] + self.decks[other] + [self.down[e * 2 + other] for e in hidden])
        rest = [i for i, card in enumerate(drawn) if card < 0]
        for i, card in zip(rest, rng.sample(unseen, len(rest)), strict=True):
            drawn[i] = card
        placed = {(rnd, event): drawn[pick] for (rnd, event, _), pick in zip(places, source, strict=True)}
        new = type(self)(self.game)  # a designer's subclass resamples as itself
        draw = 0
        for action in self.history():
            if new.phase == DRAW and new.player == other:
                action = DRAW_BASE + drawn[draw]
                draw += 1
            elif new.phase == CHOOSE and new.kind == PLAY and new.player == other:
                action = PLACE_BASE + new.event * 60 + placed[new.round, new.event]
            new.apply_action(action)
        return new

    def _trail(self) -> Trail | None:
        """Returns the hidden moves of this game (replaying its history once; kept while the
        state does not move), or None if the history does not lead here from the start."""
        known = self._known
        if known is not None and known[0] is self._log:
            return known[1]
        walk = type(self)(self.game)
        tail: list[Entry] = []
        walk.trail_tail = tail
        trail: Trail | None = None
        try:
            for action in self.history():
                walk.apply_action(action)
        except IllegalActionError:
            pass
        else:
            if walk._fields() == self._fields():
                trail = Trail(None, tuple(tail))
        self._known = (self._log, trail)
        return trail

    def _redeal(self, player: int, rng: random.Random) -> FightinState:
        """Re-deals the other seat's hand, face-down cards and deck from its unseen cards (a state
        set up without its history: the record since it was set up is kept)."""
        new = self._copy()
        _own(new, SHARE_DECKS)
        new._set_history(())
        new._legal = None
        new._log = self._log
        other = 1 - player
        slots = [e * 2 + other for e in range(3) if self.down[e * 2 + other] >= 0]
        pool = self.hands[other] + self.decks[other] + [self.down[i] for i in slots]
        rng.shuffle(pool)
        size = len(self.hands[other])
        new.hands[other] = pool[:size]
        for at, slot in enumerate(slots):
            new.down[slot] = pool[size + at]
        new.decks[other] = sorted(pool[size + len(slots) :])
        new._list_deck_draws()
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        return state_fields.fields(self)

    def _load(self, fields: Mapping[str, Any]) -> None:
        state_fields.load(self, fields)
        self._list_deck_draws()


class Fightin(Game):
    """Fightin' an' Drinkin' an' Stealin'! for 2 players.

    Designer option (``docs/games/fightin.md``, "Designer options"): ``rounds``, 3..7, the rounds
    played, the last worth double; at the text's 7 it is not written in records.
    """

    info = GameInfo(
        id="fightin",
        name="Fightin' an' Drinkin' an' Stealin'!",
        min_players=2,
        max_players=2,
        version="1.1.0",
        rule_text="Fightin' an' Drinkin' an' Stealin'!, a humor game by Evan Shultz (the Stonehenge Anthology)",
        summary="two clans of wee folk fight monsters, out-drink and rob each other over seven rounds",
        options=(
            Option(
                "rounds",
                ROUNDS,
                ROUND_CAP,
                "the rounds played, the last worth double (the text: seven, which use up both decks)",
                recorded_at_default=False,
            ),
        ),
        round_cap=ROUND_CAP,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
    )
    state_class = FightinState
    player_action_texts = PLAYER_TEXTS
    chance_action_texts = CHANCE_TEXTS

    def max_game_length(self) -> int:
        return max_game_length(self.settings["rounds"])
