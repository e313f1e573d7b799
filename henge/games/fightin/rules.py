"""Fightin' an' Drinkin' an' Stealin'!, a humor game by Evan Shultz, for 2 players.

Rule set: *Fightin' an' Drinkin' an' Stealin'!*, from the Stonehenge Anthology. Rulings
G1-G5 and F1-F15 apply; ``docs/games/fightin.md`` documents them and the
edition's other readings.

Each round both seats place one hand card face down at each event, seat 0
first (F2), as three decisions (``fighter X``, ``drinker X``, ``thief X``).
Then the Fightin', Drinkin' and Stealin' events resolve in turn; every choice
the text gives a player (a discard, a kill on a tie, a steal, which thief
scarpers, the colour named on black, the best colour dropped at scoring) is a
decision of that player. A choice with a single option is made for the
player; a choice with none is skipped. The event handlers live in
:mod:`henge.games.fightin.events`, seat views and JSON in
:mod:`henge.games.fightin.view`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from henge import box
from henge.engine import CHANCE, TERMINAL, Game, GameInfo, State, uniform
from henge.games.fightin import events as events
from henge.games.fightin import view as view
from henge.games.fightin.parts import (
    CHANCE_TEXTS,
    CHOOSE,
    DEAL,
    DEAL_BASE,
    DECKS,
    DRAW,
    DRAW_BASE,
    FLIP_BASE,
    GONAGAL,
    LAWYER_START,
    LOG_LINES,
    MAX_GAME_LENGTH,
    MONSTER_DECK,
    OVER,
    PLAYER_TEXTS,
    ROUND_CAP,
    STOCK_PER_COLOUR,
)


class FightinState(State):
    """A position: three events with each seat's cards, the monsters, awards, lawyers, hands and decks."""

    __slots__ = (
        "altar",
        "awards",
        "board",
        "decks",
        "discards",
        "down",
        "dropped",
        "event",
        "gonagal",
        "habeas",
        "hands",
        "high",
        "kind",
        "lawyer",
        "lead",
        "log",
        "loot",
        "monster_deck",
        "monster_discards",
        "monsters",
        "phase",
        "player",
        "round",
        "scores",
        "second",
        "step",
        "stock",
        "taken",
        "wee",
        "winners",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.phase: int = DEAL
        self.step: int = events.DEALS
        self.kind: int = -1  # the pending decision (CHOOSE), else -1
        self.player: int = 0  # the seat being dealt to, drawing or deciding
        self.event: int = 0  # the event being dealt to, placed at or resolved (3: none)
        self.round: int = 0  # 0 during set-up, then 1..7
        self.hands: list[list[int]] = [[], []]
        self.decks: list[list[int]] = [list(DECKS[0]), list(DECKS[1])]
        self.board: list[list[int]] = [[] for _ in range(6)]  # face-up cards, index event * 2 + seat
        self.down: list[int] = [-1] * 6  # the face-down newcomer, index event * 2 + seat
        self.monsters: list[int] = []
        self.monster_deck: list[int] = list(MONSTER_DECK)
        self.discards: list[list[int]] = [[], []]
        self.monster_discards: list[int] = []
        self.loot: list[int] = [0] * (60 * 5)  # awards riding on thief card c: loot[c * 5 + colour]
        self.awards: list[int] = [0] * 10  # awards[seat * 5 + colour]
        self.stock: list[int] = [STOCK_PER_COLOUR] * 5  # F10
        self.altar: int = 0  # blue awards on the altar stone
        self.lawyer: int = LAWYER_START  # the Big Lawyer's space
        self.wee: list[int] = [-1] * 5  # holder of each colour's Wee Lawyer, -1 for nobody
        self.gonagal: int = -1  # seat whose Gonagal works in the event being resolved
        self.lead: int = -1  # champion, biggest drinker's owner or the Gonagal's owner
        self.high: int = -1  # Stealin': the highest thief card, -1 for none
        self.second: int = -1  # Stealin': the second-highest thief card
        self.taken: int = 0  # awards taken by the current steal so far (99: stopped)
        self.habeas: list[int] = [0, 0]  # 1 if that seat was Habeascorpusized this round
        self.dropped: list[int] = [-1, -1]  # colour each seat dropped at scoring
        self.scores: tuple[int, ...] = ()  # final scores in half awards
        self.winners: tuple[int, ...] = ()
        self.log: tuple[str, ...] = ()

    # -- the public API hooks ------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == CHOOSE:
            return self.player
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def _legal_actions(self) -> list[int]:
        return events.options(self)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        # The decks are kept sorted by card id, so the outcomes come out sorted.
        phase = self.phase
        if phase == DEAL:  # F1: a Gonagal dealt face up goes back; so the deal is uniform over the rest
            gonagal = GONAGAL[self.player]
            return uniform([c + DEAL_BASE for c in self.decks[self.player] if c != gonagal])
        if phase == DRAW:
            return uniform([c + DRAW_BASE for c in self.decks[self.player]])
        return uniform([c + FLIP_BASE for c in self.monster_deck])

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == CHOOSE:
            events.effect(self, action)
        elif phase == DEAL:
            card = action - DEAL_BASE
            self.decks[self.player].remove(card)
            self.board[self.event * 2 + self.player].append(card)
        elif phase == DRAW:
            card = action - DRAW_BASE
            self.decks[self.player].remove(card)
            self.hands[self.player].append(card)
        else:
            card = action - FLIP_BASE
            self.monster_deck.remove(card)
            self.monsters.append(card)
            if self.round:
                self.log_line(f"the next monster is {box.CARD_TEXT[card]}")
        self.kind = -1
        events.run(self)

    def _copy(self) -> FightinState:
        new = FightinState.__new__(FightinState)
        new.game = self.game
        new.phase = self.phase
        new.step = self.step
        new.kind = self.kind
        new.player = self.player
        new.event = self.event
        new.round = self.round
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.decks = [self.decks[0][:], self.decks[1][:]]
        new.board = [cards[:] for cards in self.board]
        new.down = self.down[:]
        new.monsters = self.monsters[:]
        new.monster_deck = self.monster_deck[:]
        new.discards = [self.discards[0][:], self.discards[1][:]]
        new.monster_discards = self.monster_discards[:]
        new.loot = self.loot[:]
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
        return new

    def log_line(self, text: str) -> None:
        """Appends a public line to the game log (never a face-down card)."""
        self.log = (self.log + (text,))[-LOG_LINES:]

    # -- hidden information --------------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) can see at the table (G3)."""
        return view.observation(self, player)

    def resample_from_infostate(self, player: int, rng: random.Random) -> FightinState:
        """Returns a state where the other seat's hand, face-down cards and deck are re-drawn
        from the cards that ``player`` cannot see (G3); everything else is public or a set."""
        if player not in (0, 1):
            raise ValueError(f"seats run 0..1, not {player}")
        new = self._copy()
        new._history = []  # the real history would tell which hidden cards were drawn
        new._legal = None
        other = 1 - player
        slots = [e * 2 + other for e in range(3) if self.down[e * 2 + other] >= 0]
        pool = self.hands[other] + self.decks[other] + [self.down[i] for i in slots]
        rng.shuffle(pool)
        size = len(self.hands[other])
        new.hands[other] = pool[:size]
        for at, slot in enumerate(slots):
            new.down[slot] = pool[size + at]
        new.decks[other] = sorted(pool[size + len(slots) :])
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        return view.fields(self)

    def _load(self, fields: Mapping[str, Any]) -> None:
        view.load(self, fields)


class Fightin(Game):
    """Fightin' an' Drinkin' an' Stealin'! for 2 players; no options."""

    info = GameInfo(
        id="fightin",
        name="Fightin' an' Drinkin' an' Stealin'!",
        min_players=2,
        max_players=2,
        version="1.0.0",
        rule_text="Fightin' an' Drinkin' an' Stealin'!, a humor game by Evan Shultz (the Stonehenge Anthology)",
        summary="two clans of wee folk fight monsters, out-drink and rob each other over seven rounds",
        options=(),
        round_cap=ROUND_CAP,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
    )
    state_class = FightinState
    player_action_texts = PLAYER_TEXTS
    chance_action_texts = CHANCE_TEXTS

    def max_game_length(self) -> int:
        return MAX_GAME_LENGTH
