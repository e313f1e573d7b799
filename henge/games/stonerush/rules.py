"""Stonerush, a racing game by Tom Van 't veld, for 3-5 players.

Rule set: *Stonerush*, from the Stonehenge Anthology. Rulings
G1-G5 and S1-S8 apply; ``docs/games/stonerush.md`` documents them and the
edition's other readings.

A turn is a short series of decisions (G2): ``play X`` lays one card at a
time on the table (face up, so public at once), ``done`` ends the play and
moves the druid; then ``discard X`` until at most two cards are left and
``done`` keeps the rest; then chance draws the hand back up to four.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from henge import box
from henge.engine import (
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    Option,
    State,
    check,
    load_cards,
    load_int,
)

_TRACK_END = {"standard": 30, "bluestones": 19}
_HAND = 4
_KEEP = 2
_ROUND_CAP = 100  # G4: rounds of turns; random play never comes near it (docs/games/stonerush.md)
_LAST_PLAYS = 8

DECK: tuple[int, ...] = tuple(
    sorted(box.number_cards(day=True, night=False) + box.number_cards(day=False, night=True, numbers=range(1, 13)))
)
"""S1: the 30 day cards and the night cards 1..12 (42 cards)."""
TRILITHONS: tuple[int, ...] = box.TRILITHON_CARDS
DRUIDS: tuple[str, ...] = box.PLAYER_COLOURS
"""S2: all five druids race, whatever the player count."""

# Player actions: play card c (c), discard card c (65 + c), done (130).
_DISCARD = box.DECK_SIZE
DONE = 2 * box.DECK_SIZE
_PLAYER_TEXTS = tuple(f"play {t}" for t in box.CARD_TEXT) + tuple(f"discard {t}" for t in box.CARD_TEXT) + ("done",)
# Chance outcomes: draw card c (c), seat k starts (65 + k).
_START = box.DECK_SIZE
_CHANCE_TEXTS = tuple(f"draw {t}" for t in box.CARD_TEXT) + tuple(f"start seat {k}" for k in range(5))

# Phases.
DEAL_TRILITHONS, DEAL_HANDS, CHOOSE_START, PLAY, DISCARD, DRAW, OVER = range(7)
_PHASE_NAMES = ("deal trilithons", "deal hands", "choose start", "play", "discard", "draw", "over")

_COLOUR = box.CARD_COLOUR
_IS_DAY = box.CARD_IS_DAY
_BLACK = box.BLACK
_IN_DECK = frozenset(DECK)


class StonerushState(State):
    """A Stonerush position: five druids on the track, hands, piles and secret trilithon cards."""

    __slots__ = (
        "discard",
        "draw",
        "end",
        "hands",
        "last_plays",
        "n",
        "phase",
        "played",
        "player",
        "pos",
        "reason",
        "start",
        "trilithon",
        "turns",
        "winners",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.n: int = game.num_players
        self.end: int = _TRACK_END[game.options["variant"]]
        self.pos: list[int] = [1] * 5
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.draw: list[int] = list(DECK)
        self.discard: list[int] = []
        self.played: list[int] = []
        self.trilithon: list[int] = [-1] * self.n  # colour index per seat, -1 until dealt
        self.phase: int = DEAL_TRILITHONS
        self.player: int = 0  # the seat being dealt to, or the seat to move
        self.start: int = -1
        self.turns: int = 0
        self.last_plays: tuple[tuple[int, tuple[int, ...], int, int, int], ...] = ()
        self.winners: tuple[int, ...] = ()
        self.reason: str = ""

    # -- the public API hooks ------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == PLAY or phase == DISCARD:
            return self.player
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def _legal_actions(self) -> list[int]:
        hand = self.hands[self.player]
        if self.phase == DISCARD:
            legal = sorted(c + _DISCARD for c in hand)
            if len(hand) <= _KEEP:
                legal.append(DONE)
            return legal
        colour = _BLACK
        for card in self.played:
            if _COLOUR[card] != _BLACK:
                colour = _COLOUR[card]
                break
        if colour == _BLACK:  # S3: nothing or only black laid so far, so any card may join
            legal = sorted(hand)
        else:
            legal = sorted(c for c in hand if _COLOUR[c] == colour or _COLOUR[c] == _BLACK)
        if self.played:
            legal.append(DONE)
        return legal

    uniform_chance = True  # G1: every deal, draw and start is uniform

    def _chance_actions(self) -> list[int]:
        phase = self.phase
        if phase == DEAL_TRILITHONS:
            dealt = set(self.trilithon)
            return [box.TRILITHON_CARD_BASE + k for k in range(5) if k not in dealt]
        if phase == CHOOSE_START:
            return [_START + k for k in range(self.n)]
        return self.draw  # kept sorted

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            if action == DONE:
                self._resolve_play()
            else:
                self.hands[self.player].remove(action)
                self.played.append(action)
        elif phase == DISCARD:
            if action == DONE:
                self._end_discards()
            else:
                card = action - _DISCARD
                hand = self.hands[self.player]
                hand.remove(card)
                self.discard.append(card)
                if not hand:  # nothing left to keep: no choice remains
                    self._end_discards()
        elif phase == DEAL_TRILITHONS:
            self.trilithon[self.player] = action - box.TRILITHON_CARD_BASE
            self.player += 1
            if self.player == self.n:
                self.player = 0
                self.phase = DEAL_HANDS
        elif phase == CHOOSE_START:
            self.start = self.player = action - _START
            self.phase = PLAY
        else:  # a draw, at the deal or at the end of a turn
            self.draw.remove(action)
            hand = self.hands[self.player]
            hand.append(action)
            if phase == DEAL_HANDS:
                if len(hand) == _HAND:
                    self.player += 1
                    if self.player == self.n:
                        self.phase = CHOOSE_START
            elif len(hand) == _HAND:
                self._next_turn()
            else:
                self._refill_draw_pile()

    def _copy(self) -> StonerushState:
        new = StonerushState.__new__(StonerushState)
        new.game = self.game
        new.n = self.n
        new.end = self.end
        new.pos = self.pos[:]
        new.hands = [h[:] for h in self.hands]
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
        return new

    # -- phase handlers ----------------------------------------------------------

    def _resolve_play(self) -> None:
        played = self.played
        colour = _BLACK
        net = 0
        for card in played:
            if _COLOUR[card] != _BLACK:
                colour = _COLOUR[card]
            net += 1 if _IS_DAY[card] else -1  # S4: every card counts its sun or moon
        before = after = self.pos[colour] if colour != _BLACK else 0
        if colour != _BLACK and net:  # S3: black alone moves nobody; S4: net 0 moves nobody
            after = self._move(colour, net)
        self.last_plays = (self.last_plays + ((self.player, tuple(played), colour, before, after),))[-_LAST_PLAYS:]
        self.discard.extend(played)  # S6: played cards go to the discard pile first
        self.played = []
        if colour != _BLACK and after == self.end:  # S7: the game ends the moment a druid arrives
            self._finish_race(colour)
        elif self.hands[self.player]:
            self.phase = DISCARD
        else:
            self._end_discards()

    def _move(self, druid: int, net: int) -> int:
        """Moves a druid by a net number of spaces with the limits (S4) and bumps (S5)."""
        pos = self.pos
        end = self.end
        start = pos[druid]
        target = min(start + net, end) if net > 0 else max(start + net, 1)
        if target != start:
            step = 1 if net > 0 else -1
            others = [p for d, p in enumerate(pos) if d != druid]
            while 1 < target < end and target in others:
                target += step
            pos[druid] = target
        return pos[druid]

    def _end_discards(self) -> None:
        self.phase = DRAW
        self._refill_draw_pile()

    def _refill_draw_pile(self) -> None:
        """S6: an empty draw pile is replaced by the (shuffled) discard pile when a card is needed."""
        if not self.draw:
            self.draw = sorted(self.discard)
            self.discard = []

    def _next_turn(self) -> None:
        self.turns += 1
        if self.turns >= _ROUND_CAP * self.n:  # G4
            self._finish_at_cap()
            return
        self.player = (self.player + 1) % self.n
        self.phase = PLAY

    def _finish_race(self, colour: int) -> None:
        holders = [seat for seat in range(self.n) if self.trilithon[seat] == colour]
        if holders:
            self.winners = tuple(holders)
            self.reason = f"the {DRUIDS[colour]} druid reached {self.end}; seat {holders[0]} holds its trilithon card"
        else:
            self._finish_furthest(f"the {DRUIDS[colour]} druid reached {self.end}, which nobody holds")
        self.phase = OVER

    def _finish_at_cap(self) -> None:
        self._finish_furthest(f"the round cap of {_ROUND_CAP} rounds was reached")
        self.phase = OVER

    def _finish_furthest(self, why: str) -> None:
        """S7: the player whose own druid stands furthest along wins; equal distance shares."""
        own = [self.pos[self.trilithon[seat]] for seat in range(self.n)]
        best = max(own)
        self.winners = tuple(seat for seat in range(self.n) if own[seat] == best)
        self.reason = f"{why}; the furthest own druid stands on {best}"

    # -- hidden information --------------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) can see at the table (G3)."""
        if player is not None and not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        over = self.phase == OVER
        texts = box.CARD_TEXT
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
        }
        return obs

    def resample_from_infostate(self, player: int, rng: random.Random) -> StonerushState:
        """Returns a state where the other hands, the draw pile and the other trilithon cards
        are re-drawn at random from what ``player`` cannot see (G3)."""
        if not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        new = self._copy()
        new._history = []  # the real history would tell when hidden cards were drawn
        new._legal = None
        others = [seat for seat in range(self.n) if seat != player]
        pool = list(self.draw)
        for seat in others:
            pool.extend(self.hands[seat])
        rng.shuffle(pool)
        at = 0
        for seat in others:
            size = len(self.hands[seat])
            new.hands[seat] = pool[at : at + size]
            at += size
        new.draw = sorted(pool[at:])
        if self.phase != OVER:
            unseen = [k for k in range(5) if k != self.trilithon[player]]
            rng.shuffle(unseen)
            for seat in others:
                if self.trilithon[seat] >= 0:
                    new.trilithon[seat] = unseen.pop()
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        texts = box.CARD_TEXT
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
        }

    def _load(self, fields: Mapping[str, Any]) -> None:
        n = self.n
        check(fields["phase"] in _PHASE_NAMES, f"phase must be one of {', '.join(_PHASE_NAMES)}")
        self.phase = _PHASE_NAMES.index(fields["phase"])
        self.player = load_int(fields["player"], 0, n, "player")
        self.start = load_int(fields["start"], -1, n - 1, "start")
        self.turns = load_int(fields["turns"], 0, _ROUND_CAP * n, "turns")
        druids = fields["druids"]
        check(isinstance(druids, list) and len(druids) == 5, "druids: five positions (white..red)")
        self.pos = [load_int(p, 1, self.end, "druid position") for p in druids]
        hands = fields["hands"]
        check(isinstance(hands, list) and len(hands) == n, f"hands: one list per seat ({n})")
        self.hands = [_cards(h, "hand") for h in hands]
        check(all(len(h) <= _HAND for h in self.hands), "a hand holds at most four cards")
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
        self.last_plays = tuple(
            (
                load_int(s, 0, n - 1, "last play seat"),
                tuple(_cards(cs, "last play")),
                load_int(col, 0, 5, "last play colour"),
                load_int(b, 0, self.end, "last play from"),
                load_int(a, 0, self.end, "last play to"),
            )
            for s, cs, col, b, a in fields["last_plays"]
        )
        self.winners = tuple(load_int(w, 0, n - 1, "winner") for w in fields["winners"])
        self.reason = str(fields["reason"])
        check((self.phase == OVER) == bool(self.winners), "winners are named exactly when the game is over")
        if self.phase in (PLAY, DISCARD):
            check(0 <= self.player < n and min(self.trilithon) >= 0, "a turn needs every trilithon card dealt")


def _cards(values: Any, name: str) -> list[int]:
    return load_cards(values, name, _IN_DECK, "the 42 Stonerush cards (1d..30d, 1n..12n)")


class Stonerush(Game):
    """Stonerush for 3-5 players; option ``variant`` is ``standard`` or ``bluestones`` (S8)."""

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
        ),
        round_cap=_ROUND_CAP,
    )
    state_class = StonerushState
    player_action_texts = _PLAYER_TEXTS
    chance_action_texts = _CHANCE_TEXTS

    def max_game_length(self) -> int:
        # Set-up: n trilithon cards, 4n cards, the start; a turn: k plays + done, d discards
        # + done, k + d <= 4 draws.
        return 5 * self.num_players + 1 + _ROUND_CAP * self.num_players * 10
