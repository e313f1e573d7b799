"""The trail of a First Druid game: the record of every action and hidden event that the
resampler (``resample``) replays.

Each applied action leaves an entry (what it was, with its cards), and so do a few automatic
events (the pile refilled, the bids revealed, a turn begun). A state appends its entries to a
list of its own (``trail_tail``); a clone first freezes that list into a block chained to the
blocks before (``trail``), which both then share, as they share the record.
"""

from __future__ import annotations

from typing import Any, Protocol

(
    T_DRAW,
    T_TURN,
    T_DRAIN,
    T_PICK,
    T_EFFECT,
    T_OFFER,
    T_GIVE,
    T_ASK,
    T_WITHDRAW,
    T_SEND,
    T_ANSWER,
    T_END,
    T_DISCARD,
    T_BID,
    T_SEAL,
    T_REFILL,
    T_REVEAL,
    T_BEGIN,
) = range(18)
"""The kinds of trail entries: an action of each kind, or an automatic event (refill, reveal, begin)."""

Entry = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]
"""(kind, action id or -1 for an automatic event, actor, a card or seat, two card lists)."""


class Trail:
    """A frozen block of trail entries, oldest first, linked to the block before."""

    __slots__ = ("actions", "entries", "parent", "plans")

    def __init__(self, parent: Trail | None, entries: tuple[Entry, ...]) -> None:
        self.parent = parent
        self.entries = entries
        self.actions: int = (parent.actions if parent is not None else 0) + sum(1 for e in entries if e[1] >= 0)
        """The action entries (the others are automatic events) of this block and the blocks before."""
        self.plans: dict[int, Any] | None = None  # resampling's plans, for the trail ending here

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The whole trail as one flat list, so a long one pickles without deep recursion (the
        # resampling plans cached on it are left behind: they are made again when needed).
        return _trail, (entries(self),)


def _trail(entries: list[Entry]) -> Trail | None:
    """Returns the trail made of ``entries``, oldest first (how a pickled trail is rebuilt)."""
    return Trail(None, tuple(entries)) if entries else None


class Trailed(Protocol):
    """What keeps a trail: a state's shared blocks and its own entries since its last clone."""

    trail: Trail | None
    trail_tail: list[Entry]


def freeze(state: Trailed) -> Trail | None:
    """Moves the state's own trail entries into a new block (to share it) and returns the trail."""
    tail = state.trail_tail
    if tail:
        state.trail = Trail(state.trail, tuple(tail))
        state.trail_tail = []
    return state.trail


def push(
    state: Trailed,
    kind: int,
    action: int,
    actor: int,
    a: int = -1,
    b: tuple[int, ...] = (),
    c: tuple[int, ...] = (),
) -> None:
    """Appends an entry to the state's trail (an action when ``action`` >= 0)."""
    state.trail_tail.append((kind, action, actor, a, b, c))


def entries(head: Trail | None) -> list[Entry]:
    """Returns every entry of the trail ending in block ``head``, oldest first."""
    blocks = []
    node = head
    while node is not None:
        blocks.append(node.entries)
        node = node.parent
    return [entry for block in reversed(blocks) for entry in block]
