"""Three-card draw, a small example game for 2-4 players (not one of the anthology's).

The deck is the twenty number cards 1-10, day and night. Each seat is dealt three
cards. On a turn a seat either draws (the card is a chance node) and then discards
one of its four cards face up, or (from the second round on) knocks; once a seat has
knocked, every other seat has one last turn, to draw or to stand. The highest sum of
numbers in hand wins; ties share (G4). Knocking is forced when the draw pile is empty,
and the game also ends at the round cap.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from henge import box
from henge.core import CHANCE, TERMINAL, Game, GameInfo, State, check, load_cards, load_int

DECK: tuple[int, ...] = box.number_cards(numbers=range(1, 11))
"""The 20 number cards 1n..10d: their ids are 0..19."""
_IN_DECK = frozenset(DECK)
_HAND = 3
_ROUND_CAP = 6  # G4: rounds of turns without a knock

# Player actions: discard card c (c, 0..19), draw (20), knock (21), stand (22).
DRAW, KNOCK, STAND = len(DECK), len(DECK) + 1, len(DECK) + 2
_PLAYER_TEXTS = tuple(f"discard {box.CARD_TEXT[c]}" for c in DECK) + ("draw", "knock", "stand")
_SEEN_TEXTS = tuple(f"discards {box.CARD_TEXT[c]}" for c in DECK) + ("draws", "knocks", "stands")
"""What every seat reads of each decision in its record (G6)."""
# Chance outcomes: card c comes off the draw pile (c, 0..19), at the deal or a draw.
_CHANCE_TEXTS = tuple(f"draw {box.CARD_TEXT[c]}" for c in DECK)

DEAL, TURN, DRAWING, DISCARD, OVER = range(5)
_PHASES = ("deal", "turn", "drawing", "discard", "over")


def _texts(cards: list[int]) -> list[str]:
    return [box.CARD_TEXT[c] for c in cards]


def _sum(cards: list[int]) -> int:
    return sum(box.CARD_NUMBER[c] for c in cards)


class ThreeCardState(State):
    """A position: the hands, the draw pile (a set: draws are uniform), the face-up discards."""

    __slots__ = ("discards", "draw", "hands", "knocker", "n", "phase", "player", "reason", "turns", "winners")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.n: int = game.num_players
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.draw: list[int] = list(DECK)  # kept sorted
        self.discards: list[int] = []
        self.phase: int = DEAL
        self.player: int = 0  # the seat being dealt to, or the seat to move (G5: seat 0 first)
        self.turns: int = 0
        self.knocker: int = -1
        self.winners: tuple[int, ...] = ()
        self.reason: str = ""

    def current_player(self) -> int:
        if self.phase in (TURN, DISCARD):
            return self.player
        return TERMINAL if self.phase == OVER else CHANCE

    def _legal_actions(self) -> list[int]:
        if self.phase == DISCARD:
            return sorted(self.hands[self.player])
        legal = [DRAW] if self.draw else []
        if self.knocker >= 0:
            legal.append(STAND)
        elif self.turns >= self.n or not self.draw:  # nobody knocks in the first round
            legal.append(KNOCK)
        return legal

    uniform_chance = True  # G1: every card of the draw pile is as likely

    def _chance_actions(self) -> list[int]:
        return self.draw

    def _apply(self, action: int) -> None:
        seat = self.player
        if self.phase in (DEAL, DRAWING):  # G6: every seat sees that a card is drawn, only the drawer which
            verb = f"seat {seat} {'is dealt' if self.phase == DEAL else 'draws'}"
            self._record(CHANCE, f"{verb} a card", {seat: f"{verb} {box.CARD_TEXT[action]}"})
            self.draw.remove(action)
            hand = self.hands[seat]
            hand.append(action)
            hand.sort()
            if self.phase == DRAWING:
                self.phase = DISCARD
            elif len(hand) == _HAND:
                self.player = (seat + 1) % self.n
                if self.player == 0:
                    self.phase = TURN
            return
        self._record(seat, _SEEN_TEXTS[action])  # G6: every decision is seen by all
        if action == DRAW:
            self.phase = DRAWING
        elif action in (KNOCK, STAND):
            if action == KNOCK:
                self.knocker = seat
            self._next_turn()
        else:
            self.hands[seat].remove(action)
            self.discards.append(action)
            self._next_turn()

    def _next_turn(self) -> None:
        self.turns += 1
        self.player = (self.player + 1) % self.n
        self.phase = TURN
        if self.player == self.knocker:
            self._finish(f"seat {self.knocker} knocked and every other seat had a last turn")
        elif self.knocker < 0 and self.turns >= _ROUND_CAP * self.n:
            self._finish(f"the round cap of {_ROUND_CAP} rounds was reached")

    def _finish(self, why: str) -> None:
        for seat, hand in enumerate(self.hands):  # G6: every hand is shown at the end
            self._record(seat, f"shows {' '.join(_texts(sorted(hand)))}")
        sums = [_sum(hand) for hand in self.hands]
        self.winners = tuple(seat for seat in range(self.n) if sums[seat] == max(sums))
        self.reason = f"{why}; the highest sum is {max(sums)}"
        self.phase = OVER

    def _copy(self) -> ThreeCardState:
        new = type(self).__new__(type(self))  # a subclass (a designer's rule change) copies as itself
        new.game = self.game
        new.n = self.n
        new.hands = [hand[:] for hand in self.hands]
        new.draw = self.draw[:]
        new.discards = self.discards[:]
        new.phase = self.phase
        new.player = self.player
        new.turns = self.turns
        new.knocker = self.knocker
        new.winners = self.winners
        new.reason = self.reason
        return new

    # -- hidden information (G3) ---------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) sees: its own hand, and what is public."""
        if player is not None and not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        over = self.phase == OVER
        return {
            "game": "threecard",
            "seat": player,
            "players": self.n,
            "phase": _PHASES[self.phase],
            "current_player": self.current_player(),
            "round": self.turns // self.n + 1,
            "round_cap": _ROUND_CAP,
            "hand": None if player is None else _texts(sorted(self.hands[player])),
            "hand_sizes": [len(hand) for hand in self.hands],
            "draw_pile": len(self.draw),
            "discard_pile": _texts(self.discards),
            "knocked": None if self.knocker < 0 else self.knocker,
            "hands": [_texts(sorted(hand)) for hand in self.hands] if over else None,
            "sums": [_sum(hand) for hand in self.hands] if over else None,
            "winners": list(self.winners) if over else None,
            "result": self.reason if over else None,
        }

    def resample_from_infostate(self, player: int, rng: random.Random) -> ThreeCardState:
        """Returns a state ``player`` cannot tell from this one (G3, G6): the other hands re-dealt at
        random from the cards it has not seen (the rest is the draw pile), replayed from a history in
        which it saw exactly what it saw. Which steps deal a card to which seat and what each seat
        discards are public; which card came in at which of another seat's steps is drawn again.
        ``rng`` only picks among things the seat cannot tell apart (bots' canonical states need it)."""
        if not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        history = self._history
        slots: list[list[int]] = [[] for _ in range(self.n)]  # the steps dealing a card to each seat
        discards: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]  # (step, card) of each seat
        for step in range(min(len(history), _HAND * self.n)):
            slots[step // _HAND].append(step)
        step, seat = _HAND * self.n, 0
        while step < len(history):
            if history[step] == DRAW:  # a turn of three steps: draw, the card drawn, the discard
                if step + 1 < len(history):
                    slots[seat].append(step + 1)
                if step + 2 < len(history):
                    discards[seat].append((step + 2, history[step + 2]))
                step += 3
            else:  # knock or stand
                step += 1
            seat = (seat + 1) % self.n
        others = [seat for seat in range(self.n) if seat != player]
        pool = self.draw + [card for seat in others for card in self.hands[seat]]
        rng.shuffle(pool)
        actions = list(history)
        for seat in others:
            if self.phase == OVER:  # every hand is shown at the end
                hand = self.hands[seat][:]
                rng.shuffle(hand)
            else:
                hand, pool = pool[: len(self.hands[seat])], pool[len(self.hands[seat]) :]
            free = slots[seat][:]
            for when, card in discards[seat]:  # a discarded card came in before it went out
                slot = rng.choice([s for s in free if s < when])
                free.remove(slot)
                actions[slot] = card
            for slot, card in zip(free, hand, strict=True):
                actions[slot] = card
        new = cast(ThreeCardState, self.game.new_initial_state())
        for action in actions:
            new.apply_action(action)
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        return {
            "phase": _PHASES[self.phase],
            "player": self.player,
            "turns": self.turns,
            "knocker": self.knocker,
            "hands": [_texts(hand) for hand in self.hands],
            "draw_pile": _texts(self.draw),
            "discard_pile": _texts(self.discards),
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def _load(self, fields: Mapping[str, Any]) -> None:
        n = self.n
        check(fields["phase"] in _PHASES, f"phase must be one of {', '.join(_PHASES)}")
        self.phase = _PHASES.index(fields["phase"])
        self.player = load_int(fields["player"], 0, n - 1, "player")
        self.turns = load_int(fields["turns"], 0, (_ROUND_CAP + 1) * n, "turns")
        self.knocker = load_int(fields["knocker"], -1, n - 1, "knocker")
        hands = fields["hands"]
        check(isinstance(hands, list) and len(hands) == n, f"hands: one list per seat ({n})")
        self.hands = [sorted(_cards(hand, "hand")) for hand in hands]
        self.draw = sorted(_cards(fields["draw_pile"], "draw_pile"))
        self.discards = _cards(fields["discard_pile"], "discard_pile")
        every = [card for hand in self.hands for card in hand] + self.draw + self.discards
        check(sorted(every) == list(DECK), "every one of the 20 cards must be in exactly one place")
        sizes = [len(hand) for hand in self.hands]
        if self.phase == DEAL:  # the seats before the one being dealt to hold three cards, those after none
            dealt = sizes[self.player]
            order = [_HAND] * self.player + [dealt] + [0] * (n - self.player - 1)
            check(dealt < _HAND and sizes == order, "the deal fills the hands in seat order")
        else:  # three cards each, four while a seat discards
            held = [_HAND + (self.phase == DISCARD and seat == self.player) for seat in range(n)]
            check(sizes == held, "every hand holds three cards, four while its seat discards")
        self.winners = tuple(load_int(w, 0, n - 1, "winner") for w in fields["winners"])
        self.reason = str(fields["reason"])
        check((self.phase == OVER) == bool(self.winners), "winners are named exactly when the game is over")
        sums = [_sum(hand) for hand in self.hands]
        best = tuple(seat for seat in range(n) if sums[seat] == max(sums))
        check(self.phase != OVER or self.winners == best, "the winners are the seats with the highest sum")


def _cards(values: Any, name: str) -> list[int]:
    return load_cards(values, name, _IN_DECK, "the number cards 1n..10d")


class ThreeCard(Game):
    """Three-card draw for 2-4 players."""

    info = GameInfo(
        id="threecard",
        name="Three-card draw",
        min_players=2,
        max_players=4,
        version="0.1.0",
        rule_text="Three-card draw, an example game of the henge plugin contract (tests/plugins)",
        summary="draw and discard for the highest sum of three cards; knock to end",
        options=(),
        round_cap=_ROUND_CAP,
    )
    state_class = ThreeCardState
    player_action_texts = _PLAYER_TEXTS
    chance_action_texts = _CHANCE_TEXTS

    def max_game_length(self) -> int:
        # The deal, then at most three actions (draw, the card drawn, the discard) per turn.
        return _HAND * self.num_players + 3 * (_ROUND_CAP + 1) * self.num_players
