"""First Druid, a Stonehenge racing game by Stephen Thomson and Ian McDonald, for 3-5 players.

Rule set: *First Druid*, from the Stonehenge Anthology. Rulings
G1-G5 and FD1-FD13 apply; ``docs/games/first_druid.md`` documents them and the
edition's other readings.

A round is one turn of each player, starting with the player of the day's
element, then the additional turn: the neutral figure moves one inner stone,
everyone draws a card, and after each day the spirits are contested with
sealed bids. A turn is a series of decisions (G2): combinations are laid one
card at a time (``pick 7d`` ... then ``build``), trade offers are built card
by card (``offer seat 2``, ``give 7d``, ``ask 13n``, ``send offer``) and
answered by the other player, and ``end turn`` (or ``pass``, the inactive
turn) closes it.

Split by noun: ``actions`` (action tables, phases),
``combinations`` (which picks and effects are legal),
``board`` (altar, trilithons, spirit contest, score),
``knowledge`` (who knows which card: observation, resampling)
and ``fields`` (JSON).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from henge import box
from henge.engine import CHANCE, TERMINAL, Game, GameInfo, Option, State, uniform
from henge.games.first_druid import board, knowledge
from henge.games.first_druid import fields as field_io
from henge.games.first_druid.actions import (
    ACCEPT,
    ADVANCE,
    ALTAR,
    ANSWER,
    ASK,
    BID,
    BID_PHASE,
    BUILD,
    BUILD_ONLY,
    CHANCE_PHASES,
    CHANCE_TEXTS,
    CLAN,
    COLOUR_CHOICES,
    CONTEST,
    CONVERT_CLAN,
    CONVERT_SPIRIT,
    CYCLE,
    DEAL,
    DECLINE,
    DISCARD,
    DISCARD_PHASE,
    DRAIN,
    DRAIN_PHASE,
    DRAW,
    DRAW_PHASE,
    ELEMENT,
    GIVE,
    HAND_LIMIT,
    LOG_LENGTH,
    OFFER,
    OVER,
    PASS,
    PICK_WILD,
    PLAYER_TEXTS,
    REFRESH,
    ROUND_CAP,
    SEAL,
    SEND,
    SETUP,
    TAKE_OVER,
    TEXT,
    TURN,
    TURN_CARD,
    TURNS,
    WILD_BASE,
    seat_colours,
)
from henge.games.first_druid.combinations import turn_actions


class FirstDruidState(State):
    """A First Druid position: time, druids, hands, the board's pieces and who knows which card."""

    __slots__ = (
        "acted",
        "altar",
        "ask",
        "bidder",
        "bids",
        "clans",
        "colours",
        "contest",
        "deck",
        "discard",
        "drains",
        "draw",
        "draw_count",
        "draw_seat",
        "element",
        "ending",
        "first",
        "give",
        "hands",
        "last_contest",
        "log",
        "n",
        "neutral",
        "offer_to",
        "offers",
        "owners",
        "phase",
        "player",
        "pos",
        "priv",
        "pub",
        "reason",
        "refreshed",
        "seat_of",
        "sections",
        "spirits",
        "stage",
        "table",
        "table_wild",
        "turn",
        "turned",
        "winners",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.n = game.num_players
        self.colours: tuple[int, ...] = seat_colours(n, game.options["colours"])
        seat_of = [-1] * 6
        for seat, colour in enumerate(self.colours):
            seat_of[colour] = seat
        self.seat_of: tuple[int, ...] = tuple(seat_of)
        self.deck: tuple[int, ...] = box.NUMBER_CARDS + tuple(sorted(WILD_BASE + c for c in self.colours))
        self.phase = DRAW_PHASE  # the deal: five cards to each seat in turn
        self.stage = SETUP
        self.player = 0
        self.neutral = 0  # inner stone index: 0 is 1 night, 59 is 30 day
        self.first = 0
        self.turn = 0
        self.ending = False
        self.element = -1
        self.turned: list[int] = []
        self.pos = [1] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.bids: list[list[int]] = [[] for _ in range(n)]
        self.draw: list[int] = list(self.deck)
        self.discard: list[int] = []
        self.table: list[int] = []
        self.table_wild = 0
        self.clans: list[int] = []
        self.spirits = [-1] * box.RING_SPACES
        self.sections = 0
        self.owners = [-1] * box.TRILITHON_SPACES
        self.altar: list[int] = []
        self.acted = False
        self.offers = 0
        self.offer_to = -1
        self.give: list[int] = []
        self.ask: list[int] = []
        self.drains: list[int] = []
        self.draw_seat = 0
        self.draw_count = DEAL
        self.refreshed = 0
        self.contest = 0
        self.bidder = 0
        self.last_contest: tuple[Any, ...] = ()
        self.pub = [0] * n  # bitmask of cards every seat knows a seat holds
        self.priv = [0] * (n * n)  # priv[o * n + h]: cards seat o alone (with h) knows h holds
        self.log: tuple[tuple[str, int, int, int], ...] = ()
        self.winners: tuple[int, ...] = ()
        self.reason = ""

    # -- the public API hooks ------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in CHANCE_PHASES:
            return CHANCE
        return self.player

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        p = self.player
        hand = self.hands[p]
        if phase == TURN:
            return turn_actions(self, p, hand)
        if phase == DISCARD_PHASE:
            return sorted(DISCARD + c for c in hand)
        if phase == BID_PHASE:
            if self.bids[p]:
                return sorted(BID + c for c in hand) + [SEAL]
            return [PASS] + sorted(BID + c for c in hand)
        # ANSWER (FD2): accepting needs every named card; declining is always open.
        if all(c in hand for c in self.ask):
            return [ACCEPT, DECLINE]
        return [DECLINE]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == DRAIN_PHASE:
            return uniform(sorted(DRAIN + c for c in self.hands[self.drains[0]]))
        base = TURN_CARD if phase == ELEMENT else DRAW
        return uniform(sorted(base + c for c in self.draw))

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == TURN:
            self._apply_turn(action)
        elif phase == DRAW_PHASE:
            self.draw.remove(action)
            self.hands[self.draw_seat].append(action)
            self.draw_count -= 1
            self._settle()
        elif phase == DRAIN_PHASE:
            self._drain(action - DRAIN)
        elif phase == DISCARD_PHASE:
            card = action - DISCARD
            self.hands[self.player].remove(card)
            self.discard.append(card)
            self._lose(self.player, card)
            self._settle()
        elif phase == ANSWER:
            self._answer(action == ACCEPT)
        elif phase == BID_PHASE:
            self._bid(action)
        else:
            self._turn_element(action - TURN_CARD)

    def _copy(self) -> FirstDruidState:
        new = FirstDruidState.__new__(FirstDruidState)
        new.game = self.game
        new.n = self.n
        new.colours = self.colours
        new.seat_of = self.seat_of
        new.deck = self.deck
        new.phase = self.phase
        new.stage = self.stage
        new.player = self.player
        new.neutral = self.neutral
        new.first = self.first
        new.turn = self.turn
        new.ending = self.ending
        new.element = self.element
        new.turned = self.turned[:]
        new.pos = self.pos[:]
        new.hands = [h[:] for h in self.hands]
        new.bids = [b[:] for b in self.bids]
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.table = self.table[:]
        new.table_wild = self.table_wild
        new.clans = self.clans[:]
        new.spirits = self.spirits[:]
        new.sections = self.sections
        new.owners = self.owners[:]
        new.altar = self.altar[:]
        new.acted = self.acted
        new.offers = self.offers
        new.offer_to = self.offer_to
        new.give = self.give[:]
        new.ask = self.ask[:]
        new.drains = self.drains[:]
        new.draw_seat = self.draw_seat
        new.draw_count = self.draw_count
        new.refreshed = self.refreshed
        new.contest = self.contest
        new.bidder = self.bidder
        new.last_contest = self.last_contest
        new.pub = self.pub[:]
        new.priv = self.priv[:]
        new.log = self.log
        new.winners = self.winners
        new.reason = self.reason
        return new

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) knows at the table (G3, FD13)."""
        return knowledge.observation(self, player)

    def resample_from_infostate(self, player: int, rng: random.Random) -> FirstDruidState:
        """Returns a state with every card hidden from ``player`` re-drawn consistently (G3, FD13)."""
        return knowledge.resample(self, player, rng)

    def _fields(self) -> dict[str, Any]:
        return field_io.dump(self)

    def _load(self, fields: Mapping[str, Any]) -> None:
        field_io.load(self, fields)

    # -- a turn ------------------------------------------------------------------

    def active(self) -> int:
        """Returns the seat whose turn it is (the round's first player during the additional turn)."""
        return (self.first + self.turn) % self.n

    def disks_left(self, seat: int) -> int:
        """Returns the disks still in a seat's stock (FD10)."""
        return 10 - self.clans.count(seat) - self.owners.count(seat)

    def bars_left(self, seat: int) -> int:
        """Returns the bars still in a seat's stock (FD10)."""
        return 10 - self.spirits.count(seat) - self.altar.count(seat)

    def top_spirit(self) -> int:
        """Returns the index of the highest-numbered spirit bar on the outer ring, or -1 (FD11)."""
        for i in range(len(self.spirits) - 1, -1, -1):
            if self.spirits[i] >= 0:
                return i
        return -1

    def behind(self, seat: int) -> bool:
        """FD5: the neutral figure's number is ahead of the seat's druid (no deck draws)."""
        return self.neutral // 2 + 1 > self.pos[seat]

    def _apply_turn(self, action: int) -> None:
        p = self.player
        if action < ADVANCE:
            if action < PICK_WILD:
                card = action
            else:
                card = WILD_BASE + self.colours[p]
                self.table_wild = action - PICK_WILD + 1
            self.hands[p].remove(card)
            self.table.append(card)
            self._lose(p, card)
        elif action < OFFER:
            self._resolve(p, action)
        elif action < GIVE:
            self.offers += 1
            self.offer_to = action - OFFER
        elif action < ASK:
            self.give.append(action - GIVE)
            self.pub[p] |= 1 << (action - GIVE)  # the offer shows the card in this hand
        elif action < SEND:
            self.ask.append(action - ASK)
        elif action == SEND:
            self.phase = ANSWER
            self.player = self.offer_to
        else:  # END_TURN or PASS
            self.ending = True
            if action == PASS:  # FD3: the inactive turn draws 1 + trilithons owned
                self.draw_seat = p
                self.draw_count = 1 + self.owners.count(p)
                self._note(f"seat {p} takes the inactive turn")
            self._settle()

    def _resolve(self, p: int, action: int) -> None:
        played = " ".join(TEXT[c] if c < WILD_BASE else f"{TEXT[c]}={self.table_wild}" for c in self.table)
        self.discard.extend(self.table)
        self.table = []
        self.table_wild = 0
        self.acted = True
        what = ""
        if action == ADVANCE:
            self.pos[p] += 1
            what = f"advances to {self.pos[p]}"
        elif action == CLAN:
            self.clans.append(p)
            what = f"wins a clan on bluestone {len(self.clans)}"
        elif action == ALTAR:
            self.altar.append(p)
            what = "dresses the altar"
            if len(self.altar) == self.n:
                what += board.complete_altar(self)
        elif action == BUILD or action == BUILD_ONLY:
            what = board.build(self, p, action == BUILD)
        elif action == CONVERT_CLAN:
            what = f"converts the clan of seat {self.clans[-1]}"
            self.clans[-1] = p
        elif action == CONVERT_SPIRIT:
            top = self.top_spirit()
            what = f"converts the spirit of seat {self.spirits[top]} on space {top + 1}"
            self.spirits[top] = p
        else:
            t = action - TAKE_OVER
            what = f"takes over trilithon {t + 1} from seat {self.owners[t]}"
            self.owners[t] = p
        self._note(f"seat {p} plays {played} and {what}")
        if max(self.pos) >= box.RING_SPACES:  # FD7: after every effect of the play
            self._finish(f"a druid reached {box.RING_SPACES}")
            return
        self._settle()

    def _drain(self, card: int) -> None:
        victim = self.drains.pop(0)
        taker = self.active()
        self.hands[victim].remove(card)
        self.hands[taker].append(card)
        knowledge.note_drain(self, taker, victim, card)
        self._note(f"seat {taker} drains a card from seat {victim}", taker, victim, card)
        self._settle()

    def _answer(self, accept: bool) -> None:
        a = self.active()
        b = self.offer_to
        offer = (
            f"seat {a} offers seat {b} {' '.join(TEXT[c] for c in self.give)} for {' '.join(TEXT[c] for c in self.ask)}"
        )
        if accept:
            knowledge.note_trade(self, a, b, self.give, self.ask)
            for c in self.give:
                self.hands[a].remove(c)
                self.hands[b].append(c)
            for c in self.ask:
                self.hands[b].remove(c)
                self.hands[a].append(c)
            self.acted = True
        self._note(offer + (": accepted" if accept else ": declined"))
        self.offer_to = -1
        self.give = []
        self.ask = []
        self._settle()

    # -- the round -------------------------------------------------------------------

    def _settle(self) -> None:
        """Runs pending drains, draws and hand-limit discards, then moves the round on."""
        n = self.n
        while True:
            if self.drains:
                if self.hands[self.drains[0]]:
                    self.phase = DRAIN_PHASE
                    return
                self.drains.pop(0)
                continue
            if self.draw_count:
                if self.stage != SETUP and self.behind(self.draw_seat):  # FD5
                    self.draw_count = 0
                    continue
                self._refill()
                if not self.draw:
                    self.draw_count = 0
                    continue
                self.phase = DRAW_PHASE
                return
            active = self.active()
            for i in range(n):
                seat = (active + i) % n
                if len(self.hands[seat]) > HAND_LIMIT:
                    self.phase = DISCARD_PHASE
                    self.player = seat
                    return
            stage = self.stage
            if stage == TURNS:
                if not self.ending:
                    self.phase = TURN
                    self.player = active
                    return
                self.turn += 1
                if self.turn < n:
                    self._begin_turn()
                    return
                if not self._additional_turn():
                    return
            elif stage == REFRESH:
                self.refreshed += 1
                if self.refreshed < n:
                    self.draw_seat = (self.first + self.refreshed) % n
                    self.draw_count = 1
                    continue
                if self.contest:
                    self.stage = CONTEST
                    self.bidder = 0
                    self.phase = BID_PHASE
                    self.player = self.first
                else:
                    self._start_round()
                return
            else:  # SETUP: the deal, seat by seat
                if self.draw_seat < n - 1:
                    self.draw_seat += 1
                    self.draw_count = DEAL
                    continue
                self._start_round()
                return

    def _refill(self) -> None:
        """The discard pile becomes the deck when the deck is empty (draws pick uniformly, G1)."""
        if not self.draw:
            self.draw = self.discard
            self.discard = []

    def _start_round(self) -> None:
        """FD8: the player of the day's colour starts; else cards are turned until one matches."""
        self.stage = TURNS
        self.turn = 0
        if self.neutral % 2 == 0:
            seat = self.seat_of[box.colour_index(self.neutral // 2 + 1)]
            if seat < 0:
                self._refill()
                if self.draw:
                    self.phase = ELEMENT
                    return
                seat = self.first  # unreachable: 11 cards match each seat and hands hold at most 10 each
            self.first = seat
        self._begin_turn()

    def _turn_element(self, card: int) -> None:
        self.draw.remove(card)
        seat = self.seat_of[box.CARD_COLOUR[card]]  # FD8: a trilithon card by its dot; black never
        if seat < 0:
            self.turned.append(card)  # set aside face up until a card matches
            self._refill()
            if self.draw:
                return
            seat = self.first  # unreachable, as in _start_round
        else:
            self.element = card
        self.discard.extend(self.turned)
        self.turned = []
        self.first = seat
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.acted = False
        self.ending = False
        self.offers = 0
        self.offer_to = -1
        self.give = []
        self.ask = []
        self.phase = TURN
        self.player = self.active()

    def _additional_turn(self) -> bool:
        """The neutral figure moves; returns False if that ends the game (FD7)."""
        if self.neutral == box.INNER_STONES - 1:
            self._finish("the neutral figure would move past 30 day")
            return False
        number = self.neutral // 2 + 1
        self.neutral += 1
        self.contest = 0
        if self.neutral % 2 == 0:  # from n day to n+1 night: the element card goes, spirits are contested
            if self.element >= 0:
                self.discard.append(self.element)
                self.element = -1
            self.contest = number
        self.stage = REFRESH
        self.refreshed = 0
        self.draw_seat = self.first
        self.draw_count = 1
        return True

    def _bid(self, action: int) -> None:
        p = self.player
        if BID <= action < SEAL:
            card = action - BID
            self.hands[p].remove(card)
            self.bids[p].append(card)
            return
        self.bidder += 1
        if self.bidder < self.n:
            self.player = (self.first + self.bidder) % self.n
            return
        self.bidder = 0
        self._note(board.reveal(self))
        self._start_round()

    def scores(self) -> list[int]:
        """FD7: the druid's number plus 1 + 2 + 3 ... per unbroken run of clans and of spirits."""
        return board.scores(self)

    def _finish(self, why: str) -> None:
        scores = self.scores()
        best = max(scores)
        self.winners = tuple(s for s in range(self.n) if scores[s] == best)
        self.reason = f"{why}; the best score is {best}"
        self.phase = OVER

    # -- helpers ---------------------------------------------------------------------

    def _lose(self, seat: int, card: int) -> None:
        """A card leaves the seat's hand face up: nobody knows it there any more."""
        knowledge.note_gone(self, seat, card)

    def _note(self, text: str, taker: int = -1, victim: int = -1, card: int = -1) -> None:
        self.log = (*self.log, (text, taker, victim, card))[-LOG_LENGTH:]


def _max_length(n: int) -> int:
    """A true bound on the number of actions (see docs/games/first_druid.md, "Length")."""
    # Per turn: at most 10 + 4 * 10 drained + 3 * 10 traded cards pass through the active
    # hand: each is picked, resolved and discarded at most once (240); 3 offers of at most
    # 10 + 10 cards, offer, send and answer (69); 40 drains; the receivers' discards (30);
    # the inactive turn's 6 draws, 6 discards and the end (13).
    turn = 240 + 69 + 40 + 30 + 13
    # Per round: n turns, up to 65 cards turned, n refresh draws and discards, bids of at
    # most 10 cards plus the seal.
    round_ = n * turn + 65 + 2 * n + 11 * n
    return DEAL * n + ROUND_CAP * round_


class FirstDruid(Game):
    """First Druid for 3-5 players; option ``colours`` gives each seat its colour (FD1)."""

    info = GameInfo(
        id="first_druid",
        name="First Druid",
        min_players=3,
        max_players=5,
        version="1.0.0",
        rule_text="First Druid, a racing game by Stephen Thomson and Ian McDonald (the Stonehenge Anthology)",
        summary="race your druid round the circle while winning clans, spirits, trilithons and the altar",
        options=(
            Option(
                "colours",
                COLOUR_CHOICES,
                CYCLE,
                "each seat's colour, e.g. 'red,blue,white'; 'cycle' gives seat i the i-th of white, blue, "
                "green, yellow, red (FD1)",
            ),
        ),
        round_cap=ROUND_CAP,
    )
    state_class = FirstDruidState
    player_action_texts = PLAYER_TEXTS
    chance_action_texts = CHANCE_TEXTS

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        chosen = self.options["colours"]
        if chosen != CYCLE and len(chosen.split(",")) != players:
            raise ValueError(f"first_druid: option colours names {len(chosen.split(','))} colours for {players}")

    def max_game_length(self) -> int:
        return _max_length(self.num_players)
