"""A First Druid position's fields and the questions asked of them: what the rules
(``rules``) and their helpers (``knowledge``, ``observation``, ``scoring``, ``combinations``,
``fields``, ``resample``) read and write.

The state class in ``rules`` derives from :class:`Position` and adds the moves; the helpers
take a :class:`Position`, so none of them imports the rules back.
"""

from __future__ import annotations

from typing import Any

import cython

from henge.core import Trail
from henge.core.state import State
from henge.games.first_druid.trail import Entry


@cython.auto_pickle(False)
@cython.cclass
class Position(State):
    """A First Druid position: time, druids, hands, the board's pieces and who knows which card
    (``FirstDruidState.__init__`` says what each field holds)."""

    __slots__ = (
        "acted",
        "allowed",
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
        "hand_limit",
        "hands",
        "last_contest",
        "log",
        "n",
        "neutral",
        "offer_to",
        "offering",
        "offers",
        "opening",
        "owners",
        "phase",
        "picked",
        "player",
        "pos",
        "reason",
        "refreshed",
        "rooted",
        "seat_of",
        "sections",
        "spirits",
        "stage",
        "table",
        "table_wild",
        "trail",
        "trail_tail",
        "turn",
        "turned",
        "views",
        "winners",
        "withdrawn",
    )

    if not cython.compiled:  # compiled: the C fields declared in position.pxd
        acted: bool
        allowed: list[int]
        altar: list[int]
        ask: list[int]
        bidder: int
        bids: list[list[int]]
        clans: list[int]
        colours: tuple[int, ...]
        contest: int
        deck: tuple[int, ...]
        discard: list[int]
        drains: list[int]
        draw: list[int]
        draw_count: int
        draw_seat: int
        element: int
        ending: bool
        first: int
        give: list[int]
        hand_limit: int
        hands: list[list[int]]
        last_contest: tuple[Any, ...]
        log: tuple[tuple[str, int, int, int], ...]
        n: int
        neutral: int
        offer_to: int
        offering: tuple[int, ...]
        offers: int
        opening: tuple[tuple[Any, ...], tuple[int, ...]] | None
        owners: list[int]
        phase: int
        picked: tuple[tuple[Any, ...], tuple[int, ...]] | None
        player: int
        pos: list[int]
        reason: str
        refreshed: int
        rooted: bool
        seat_of: tuple[int, ...]
        sections: int
        spirits: list[int]
        stage: int
        table: list[int]
        table_wild: int
        trail: Trail | None
        trail_tail: list[Entry]
        turn: int
        turned: list[int]
        views: int
        winners: tuple[int, ...]
        withdrawn: int

    def active(self) -> int:
        """Returns the seat whose turn it is (the round's first player during the additional turn)."""
        return (self.first + self.turn) % self.n

    def disks_left(self, seat: int) -> int:
        """Returns the disks still in a seat's stock (FD10)."""
        return 10 - self.clans.count(seat) - self.owners.count(seat)

    def bars_left(self, seat: int) -> int:
        """Returns the bars still in a seat's stock (FD10)."""
        return 10 - self.spirits.count(seat) - self.altar.count(seat)

    @cython.locals(i=cython.Py_ssize_t)
    def top_spirit(self) -> int:
        """Returns the index of the highest-numbered spirit bar on the outer ring, or -1 (FD11)."""
        spirits = self.spirits
        for i in range(len(spirits) - 1, -1, -1):  # the last bar of any seat
            if spirits[i] != -1:
                return i
        return -1

    def behind(self, seat: int) -> bool:
        """FD5: the neutral figure's number is ahead of the seat's druid (no deck draws)."""
        return self.neutral // 2 + 1 > self.pos[seat]

    def board_changed(self) -> None:
        """Forgets what the board (clans, spirits, altar, trilithons) allowed each seat (see
        ``combinations._allowed``): called whenever a piece is placed or changes hands."""
        self.allowed = [-1] * self.n
