"""First Druid, a Stonehenge racing game by Stephen Thomson and Ian McDonald, for 3-5 players.

Rule set: *First Druid*, from the Stonehenge Anthology. Rulings
G1-G7 and FD1-FD15 apply; ``docs/games/first_druid.md`` documents them and the
edition's other readings.

A round is one turn of each player, starting with the player of the day's
element, then the additional turn: the neutral figure moves one inner stone,
everyone draws a card, and after each day the spirits are contested with
sealed bids. A turn is a series of decisions (G2): combinations are laid one
card at a time (``pick 7d`` ... then ``build``), trade offers are built card
by card (``offer seat 2``, ``give 7d``, ``ask 13n``, ``send offer``, or
``withdraw offer``: nobody else sees an offer until it is sent, FD15) and
answered by the other player, and ``end turn`` (or ``pass``, the inactive
turn) closes it. Every event goes into the record each seat reads (G6), with
the cards a seat did not see left out of its text.

Split by noun: ``position`` (the state's fields and the questions asked of them),
``actions`` (action tables, phases),
``combinations`` (which picks and effects are legal),
``scoring`` (altar, trilithons, spirit contest, score),
``knowledge`` (who knows which card: the views),
``observation`` (what a seat sees), ``trail`` (the record of hidden events),
``resample`` with ``skeleton`` and ``tokens`` (drawing a state from a seat's information set)
and ``fields`` (JSON).
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core import CHANCE, TERMINAL, Event, Game, GameInfo, Option, freeze_trail, scaled_returns
from henge.games.first_druid import fields as field_io
from henge.games.first_druid import knowledge, observation, resample, scoring, trail
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
    END_TURN,
    GIVE,
    HAND_LIMIT,
    HAND_LIMITS,
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
    WITHDRAW,
    seat_colours,
)
from henge.games.first_druid.combinations import offer_actions, opening_actions, turn_actions
from henge.games.first_druid.position import Position
from henge.games.first_druid.trail import (
    T_ANSWER,
    T_ASK,
    T_BEGIN,
    T_BID,
    T_DISCARD,
    T_DRAIN,
    T_DRAW,
    T_EFFECT,
    T_END,
    T_GIVE,
    T_OFFER,
    T_PICK,
    T_REFILL,
    T_REVEAL,
    T_SEAL,
    T_SEND,
    T_TURN,
    T_WITHDRAW,
    push,
)

_DRAWS: tuple[str, ...] = tuple(f"seat {seat} draws a card" for seat in range(5))
_DRAWN_TEXTS: tuple[tuple[Mapping[int, str], ...], ...] = tuple(
    tuple({seat: f"seat {seat} draws {TEXT[c]}"} for c in range(box.DECK_SIZE)) for seat in range(5)
)
"""The record's texts of a draw (G6): every seat's, and the drawer's own (shared, never changed)."""
_PICKS: tuple[str, ...] = tuple(f"picks {TEXT[c]}" for c in range(box.DECK_SIZE))
_WILD_PICKS: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"picks {TEXT[WILD_BASE + colour]} as {v}" for v in range(box.NUMBERS.stop)) for colour in range(5)
)
"""Per colour and number named (1..30): the record's text of a wild pick."""
_DISCARDS: tuple[str, ...] = tuple(f"discards {TEXT[c]}" for c in range(box.DECK_SIZE))
_OFFER_STARTS: tuple[tuple[Mapping[int, str], ...], ...] = tuple(
    tuple({seat: f"starts an offer to seat {k}"} for k in range(5)) for seat in range(5)
)
_OFFER_GIVES: tuple[tuple[Mapping[int, str], ...], ...] = tuple(
    tuple({seat: f"puts {TEXT[c]} in the offer"} for c in range(box.DECK_SIZE)) for seat in range(5)
)
_OFFER_ASKS: tuple[tuple[Mapping[int, str], ...], ...] = tuple(
    tuple({seat: f"asks for {TEXT[c]} in the offer"} for c in range(box.DECK_SIZE)) for seat in range(5)
)
_WITHDRAWALS: tuple[Mapping[int, str], ...] = tuple({seat: "withdraws the offer"} for seat in range(5))
_BIDS: tuple[tuple[Mapping[int, str], ...], ...] = tuple(
    tuple({seat: f"bids {TEXT[c]} face down"} for c in range(box.DECK_SIZE)) for seat in range(5)
)
"""The record's texts of the commonest moves, private ones (FD9, FD15) per seat (shared, never changed)."""
_SEATED = sum(1 << phase for phase in range(OVER) if phase not in CHANCE_PHASES)
"""The phases where a seat is to move (a bit set)."""
_INACTIVE: tuple[str, ...] = tuple(f"seat {seat} takes the inactive turn" for seat in range(5))


@cython.auto_pickle(False)
@cython.cclass
class FirstDruidState(Position):
    """A First Druid position (its fields and their questions: :class:`Position`) and its moves."""

    __slots__ = ()

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.n = game.num_players
        self.colours = seat_colours(n, game.options["colours"])
        self.hand_limit = game.settings["hand_limit"]  # ten, or the designer option (FD13)
        seat_of = [-1] * 6
        for seat, colour in enumerate(self.colours):
            seat_of[colour] = seat
        self.seat_of = tuple(seat_of)
        self.deck = box.NUMBER_CARDS + tuple(sorted(WILD_BASE + c for c in self.colours))
        self.phase = DRAW_PHASE  # the deal: five cards to each seat in turn
        self.stage = SETUP
        self.player = 0
        self.neutral = 0  # inner stone index: 0 is 1 night, 59 is 30 day
        self.first = 0
        self.turn = 0
        self.ending = False
        self.element = -1
        self.turned = []
        self.pos = [1] * n
        self.hands = [[] for _ in range(n)]
        self.bids = [[] for _ in range(n)]
        self.draw = list(self.deck)  # kept sorted: draws are uniform, no order is modelled
        self.discard = []
        self.table = []
        self.table_wild = 0
        self.clans = []
        self.spirits = [-1] * box.RING_SPACES
        self.sections = 0
        self.owners = [-1] * box.TRILITHON_SPACES
        self.altar = []
        self.acted = False
        self.offers = 0  # offers begun this turn, withdrawn ones included (FD2, FD15)
        self.withdrawn = 0
        self.offer_to = -1
        self.give = []  # kept sorted: the order they were named in is nobody's business
        self.ask = []
        self.offering = ()  # the legal actions while an offer is put together (_offer_step)
        self.opening = None  # those of the last offer begun
        self.drains = []
        self.draw_seat = 0
        self.draw_count = DEAL
        self.refreshed = 0
        self.contest = 0
        self.bidder = 0
        self.last_contest = ()
        self.allowed = [-1] * n  # per seat, what the board allows it: worked out when asked (combinations)
        self.picked = None  # the last picks worked out (combinations)
        self.views = knowledge.initial_views(n, self.deck)  # who may hold which card, per view (G6), packed
        self.trail = None  # what happened, shared by clones (for resampling)...
        self.trail_tail = []  # ...and since this state's last clone (trail.freeze)
        self.rooted = True  # False for a state loaded without its history
        self.log = ()
        self.winners = ()
        self.reason = ""

    # -- the public API hooks ------------------------------------------------

    @cython.locals(phase=cython.int)
    def current_player(self) -> int:
        phase = self.phase
        if _SEATED >> phase & 1:
            return self.player
        return TERMINAL if phase == OVER else CHANCE

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        p = self.player
        hand = self.hands[p]
        if phase == TURN:
            return turn_actions(self, p, hand)
        if phase == DISCARD_PHASE:
            return [DISCARD + c for c in sorted(hand)]
        if phase == BID_PHASE:
            if self.bids[p]:
                return [*[BID + c for c in sorted(hand)], SEAL]
            return [PASS, *[BID + c for c in sorted(hand)]]
        # ANSWER (FD2): accepting needs every named card; declining is always open.
        if all([c in hand for c in self.ask]):
            return [ACCEPT, DECLINE]
        return [DECLINE]

    uniform_chance = True  # G1: every draw, drain and turned card is uniform

    def _chance_actions(self) -> list[int]:
        phase = self.phase
        if phase == DRAW_PHASE:
            return self.draw if DRAW == 0 else [DRAW + c for c in self.draw]  # the outcome is the card
        if phase == DRAIN_PHASE:
            return [DRAIN + c for c in sorted(self.hands[self.drains[0]])]
        return [TURN_CARD + c for c in self.draw]  # ELEMENT

    @cython.locals(phase=cython.int, seat=cython.int, p=cython.int, card=cython.int)
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == TURN:
            self._apply_turn(action)
        elif phase == DRAW_PHASE:
            seat = self.draw_seat
            del self.draw[bisect_left(self.draw, action)]  # the pile is sorted
            self.hands[seat].append(action)
            self.draw_count -= 1
            self._log = Event(self._log, CHANCE, _DRAWS[seat], _DRAWN_TEXTS[seat][action])
            self.trail_tail.append((T_DRAW, action, seat, action, (), ()))
            knowledge.note_draw(self, seat, action)
            self._settle()
        elif phase == DRAIN_PHASE:
            self._drain(action - DRAIN)
        elif phase == DISCARD_PHASE:
            p = self.player
            card = action - DISCARD
            self.hands[p].remove(card)
            self.discard.append(card)
            self._log = Event(self._log, p, _DISCARDS[card], None)
            self.trail_tail.append((T_DISCARD, action, p, card, (), ()))
            knowledge.note_gone(self, p, card)
            self._settle()
        elif phase == ANSWER:
            self._answer(action)
        elif phase == BID_PHASE:
            self._bid(action)
        else:
            self._turn_element(action - TURN_CARD)

    def _copy(self) -> FirstDruidState:
        if type(self) is FirstDruidState:  # (compiled: made directly)
            new = FirstDruidState.__new__(FirstDruidState)
        else:  # a subclass (a variant of the rules) stays one
            new = FirstDruidState.__new__(type(self))
        new.game = self.game
        new.n = self.n
        new.hand_limit = self.hand_limit
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
        new.withdrawn = self.withdrawn
        new.offer_to = self.offer_to
        new.give = self.give[:]
        new.ask = self.ask[:]
        new.offering = self.offering
        new.opening = self.opening
        new.drains = self.drains[:]
        new.draw_seat = self.draw_seat
        new.draw_count = self.draw_count
        new.refreshed = self.refreshed
        new.contest = self.contest
        new.bidder = self.bidder
        new.last_contest = self.last_contest
        new.allowed = self.allowed  # filled in place, replaced when the board changes: shared
        new.picked = self.picked
        new.views = self.views  # an int: shared
        # both share what happened so far, and add their own
        new.trail = freeze_trail(self, trail.actions) if self.trail_tail else self.trail
        new.trail_tail = []
        new.rooted = self.rooted
        new.log = self.log
        new.winners = self.winners
        new.reason = self.reason
        return new

    def progress(self) -> list[float] | None:
        """Each seat's standing by the rules' count: its share of the scores now (FD7; equal shares
        while every score is 0); once the game is over, the returns."""
        if self.phase == OVER:
            return scaled_returns(self)
        scores = self.scores()
        total = sum(scores)
        if total <= 0:
            return [1.0 / self.n] * self.n
        return [max(0, s) / total for s in scores]

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) knows at the table (G3, G6, FD13, FD15)."""
        return observation.observation(self, player)

    def resample_from_infostate(self, player: int, rng: random.Random) -> FirstDruidState:
        """Returns a state reached by a legal history in which ``player`` saw exactly what it saw
        here (equal records), everything hidden from it re-drawn: other seats' draws and the cards
        of drains it took no part in, face-down bids, unsent offers (G3, G6, FD13, FD15). Every
        world its record allows can come out, and no other; the draws depend only on what the
        seat knows and ``rng``."""
        return resample.resample(self, player, rng)

    def _fields(self) -> dict[str, Any]:
        return field_io.dump(self)

    def _load(self, fields: Mapping[str, Any]) -> None:
        field_io.load(self, fields)

    # -- a turn ------------------------------------------------------------------

    def _apply_turn(self, action: int) -> None:
        p = self.player
        if action == END_TURN or action == PASS:  # the commonest decision, first
            self.ending = True
            self.offers = 0
            self.withdrawn = 0
            if action == PASS:  # FD3: the inactive turn draws 1 + trilithons owned
                self._log = Event(self._log, p, "passes: the inactive turn", None)
                self.draw_seat = p
                self.draw_count = 1 + self.owners.count(p)
                self._note(_INACTIVE[p])
            else:
                self._log = Event(self._log, p, "ends the turn", None)
            self.trail_tail.append((T_END, action, p, -1, (), ()))
            self._settle()
        elif action < ADVANCE:
            if action < PICK_WILD:
                card = action
                text = _PICKS[card]
            else:
                colour = self.colours[p]
                card = WILD_BASE + colour
                self.table_wild = action - PICK_WILD + 1
                text = _WILD_PICKS[colour][self.table_wild]
            self._log = Event(self._log, p, text, None)
            self.hands[p].remove(card)
            self.table.append(card)
            self.trail_tail.append((T_PICK, action, p, card, (), ()))
            knowledge.note_gone(self, p, card)
        elif action < OFFER:
            self._resolve(p, action)
        elif action < GIVE:  # FD15: composing an offer is seen by its author alone until it is sent
            k = action - OFFER
            self.offers += 1
            self.offer_to = k
            self._log = Event(self._log, p, None, _OFFER_STARTS[p][k])
            self.trail_tail.append((T_OFFER, action, p, k, (), ()))
            self._legal = self.offering = opening_actions(self, self.hands[p])
        elif action < ASK:
            card = action - GIVE
            insort(self.give, card)  # kept sorted
            self._log = Event(self._log, p, None, _OFFER_GIVES[p][card])
            self.trail_tail.append((T_GIVE, action, p, card, (), ()))
            self._offer_step(action, self.give)
        elif action < SEND:
            card = action - ASK
            insort(self.ask, card)
            self._log = Event(self._log, p, None, _OFFER_ASKS[p][card])
            self.trail_tail.append((T_ASK, action, p, card, (), ()))
            self._offer_step(action, self.ask)
        elif action == SEND:
            k = self.offer_to
            give = " ".join([TEXT[c] for c in self.give])
            ask = " ".join([TEXT[c] for c in self.ask])
            self._record(p, f"offers seat {k} {give} for {ask}")
            push(self, T_SEND, action, p, k, tuple(self.give), tuple(self.ask))
            knowledge.note_offer(self, p, self.give, self.ask)
            self.phase = ANSWER
            self.player = k
        else:  # WITHDRAW (FD15): it still counts as one of the turn's offers
            self.withdrawn += 1
            self.offer_to = -1
            self.give = []
            self.ask = []
            self._log = Event(self._log, p, None, _WITHDRAWALS[p])
            self.trail_tail.append((T_WITHDRAW, action, p, -1, (), ()))

    def _offer_step(self, action: int, side: list[int]) -> None:
        """Hands over the legal actions after a card is given or asked for (``side``: the offer's
        cards given or asked for, the card added). Nothing they depend on but the offer changes
        while it is put together (the hands, the discard pile, the element card), so they are
        the last step's (kept in ``offering``) less ``action``; less every ask once the offer
        asks for as many cards as the target holds; with ``send offer`` once the offer gives
        and asks something, just before ``withdraw offer``."""
        legal = self.offering
        if not legal:  # a state loaded in the middle of an offer: nothing kept yet
            self._legal = self.offering = tuple(offer_actions(self, self.hands[self.player]))
            return
        at = bisect_left(legal, action)  # the ids are in order
        if at == len(legal) or legal[at] != action:
            at = legal.index(action)  # not there: tuple.index's error
        kept = legal[:at] + legal[at + 1 :]
        if action >= ASK and len(self.ask) == len(self.hands[self.offer_to]):
            kept = kept[: bisect_left(kept, ASK)] + kept[bisect_left(kept, SEND) :]  # the asks are a run
        if len(side) == 1 and self.give and self.ask:  # the first card of its side
            kept = (*kept[:-1], SEND, WITHDRAW)
        self._legal = self.offering = kept

    def _resolve(self, p: int, action: int) -> None:
        played = " ".join([TEXT[c] if c < WILD_BASE else f"{TEXT[c]}={self.table_wild}" for c in self.table])
        self.discard.extend(self.table)
        self.table = []
        self.table_wild = 0
        self.acted = True
        if action != ADVANCE:  # the druid's move changes nothing that board_changed forgets
            self.board_changed()
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
                what += scoring.complete_altar(self)
        elif action == BUILD or action == BUILD_ONLY:
            what = scoring.build(self, p, action == BUILD)
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
        self._record(p, what)
        self.trail_tail.append((T_EFFECT, action, p, -1, (), ()))
        if max(self.pos) >= box.RING_SPACES:  # FD7: after every effect of the play
            self._finish(f"a druid reached {box.RING_SPACES}")
            return
        self._settle()

    def _drain(self, card: int) -> None:
        victim = self.drains.pop(0)
        taker = self.active()
        self.hands[victim].remove(card)
        self.hands[taker].append(card)
        seen = f"seat {taker} drains {TEXT[card]} from seat {victim}"  # FD13: taker and victim only
        self._record(CHANCE, f"seat {taker} drains a card from seat {victim}", {taker: seen, victim: seen})
        push(self, T_DRAIN, DRAIN + card, taker, victim, (card,))
        knowledge.note_drain(self, taker, victim, card)
        self._note(f"seat {taker} drains a card from seat {victim}", taker, victim, card)
        self._settle()

    def _answer(self, action: int) -> None:
        accept = action == ACCEPT
        a = self.active()
        b = self.offer_to
        give = " ".join([TEXT[c] for c in self.give])
        ask = " ".join([TEXT[c] for c in self.ask])
        offer = f"seat {a} offers seat {b} {give} for {ask}"
        self._record(b, "accepts" if accept else "declines")
        push(self, T_ANSWER, action, b, a, tuple(self.give), tuple(self.ask))
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

    @cython.locals(n=cython.int, limit=cython.int, active=cython.int, i=cython.int, seat=cython.int, over=cython.bint)
    def _settle(self) -> None:
        """Runs pending drains, draws and hand-limit discards, then moves the round on."""
        n = self.n
        hands = self.hands
        while True:
            if self.drains:
                if self.hands[self.drains[0]]:
                    self.phase = DRAIN_PHASE
                    return
                self.drains.pop(0)
                continue
            if self.draw_count:
                if self.stage == SETUP or self.neutral // 2 + 1 <= self.pos[self.draw_seat]:  # FD5: not behind()
                    if not self.draw:
                        self._refill()
                    if self.draw:
                        self.phase = DRAW_PHASE
                        return
                self.draw_count = 0  # behind the neutral figure, or no card left to draw
            limit = self.hand_limit
            over = False
            for hand in hands:
                if len(hand) > limit:
                    over = True
            if over:
                active = (self.first + self.turn) % n  # self.active()
                for i in range(n):
                    seat = (active + i) % n
                    if len(hands[seat]) > limit:
                        self.phase = DISCARD_PHASE
                        self.player = seat
                        return
            stage = self.stage
            if stage == TURNS:
                if not self.ending:
                    self.phase = TURN
                    self.player = (self.first + self.turn) % n  # self.active()
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
        if not self.draw and self.discard:
            self.draw = sorted(self.discard)
            self.discard = []
            self._record(CHANCE, "the discard pile becomes the draw pile")
            push(self, T_REFILL, -1, -1, -1, tuple(self.draw))
            knowledge.note_refill(self)

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
                seat = self.first  # unreachable: 11 cards match each seat and hands hold at most 10 each (HAND_LIMITS)
            self.first = seat
        self._begin_turn()

    def _turn_element(self, card: int) -> None:
        del self.draw[bisect_left(self.draw, card)]  # the pile is sorted
        self._record(CHANCE, f"turns {TEXT[card]}")
        push(self, T_TURN, TURN_CARD + card, -1, card)
        knowledge.note_turned(self, card)
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
        active = (self.first + self.turn) % self.n  # self.active()
        self.trail_tail.append((T_BEGIN, -1, active, -1, (), ()))
        self.acted = False
        self.ending = False
        self.offers = 0
        self.withdrawn = 0
        self.offer_to = -1
        self.give = []
        self.ask = []
        self.phase = TURN
        self.player = active

    def _additional_turn(self) -> bool:
        """The neutral figure moves; returns False if that ends the game (FD7)."""
        if self.neutral == box.INNER_STONES - 1:
            self._finish("the neutral figure would move past 30 day")
            return False
        number = self.neutral // 2 + 1
        self.neutral += 1
        time = f"{self.neutral // 2 + 1} {'day' if self.neutral % 2 else 'night'}"
        self._record(CHANCE, f"the neutral figure moves to {time}")
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
        if BID <= action < SEAL:  # FD9: face down; the others see that a card was laid
            card = action - BID
            self.hands[p].remove(card)
            self.bids[p].append(card)
            self._log = Event(self._log, p, "bids a card face down", _BIDS[p][card])
            self.trail_tail.append((T_BID, action, p, card, (), ()))
            return
        self._log = Event(self._log, p, "seals the bid" if action == SEAL else "bids nothing", None)
        self.trail_tail.append((T_SEAL, action, p, -1, (), ()))
        self.bidder += 1
        if self.bidder < self.n:
            self.player = (self.first + self.bidder) % self.n
            return
        self.bidder = 0
        shown, outcome = scoring.reveal(self)
        self._record(CHANCE, shown)
        push(self, T_REVEAL, -1, -1)
        self._note(outcome)
        self._start_round()

    def scores(self) -> list[int]:
        """FD7: the druid's number plus 1 + 2 + 3 ... per unbroken run of clans and of spirits."""
        return scoring.scores(self)

    def _finish(self, why: str) -> None:
        scores = self.scores()
        best = max(scores)
        self.winners = tuple([s for s in range(self.n) if scores[s] == best])
        self.reason = f"{why}; the best score is {best}"
        self.phase = OVER
        self.offers = self.withdrawn = 0  # a turn cut short by the end has no offers left to count
        self.offer_to = -1
        self.give = []
        self.ask = []
        self._record(CHANCE, f"the game ends: {self.reason}")

    # -- helpers ---------------------------------------------------------------------

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
    """First Druid for 3-5 players; option ``colours`` gives each seat its colour (FD1).

    Designer option (``docs/games/first_druid.md``, "Designer options"): ``hand_limit``, 5..10,
    the most cards a hand keeps (FD13, FD14); at the text's 10 it is not written in records.
    """

    info = GameInfo(
        id="first_druid",
        name="First Druid",
        min_players=3,
        max_players=5,
        version="1.1.0",
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
            Option(
                "hand_limit",
                HAND_LIMITS,
                HAND_LIMIT,
                "the most cards a hand keeps; above it its holder discards at once (FD13, FD14: ten)",
                recorded_at_default=False,
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
