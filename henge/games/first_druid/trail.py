"""The trail of a First Druid game: the entries of the record of every action and hidden event
that the resampler (``resample``) replays, kept as the core's trail (``henge.core.Trail``).

Each applied action leaves an entry (what it was, with its cards), and so do a few automatic
events (the pile refilled, the bids revealed, a turn begun). A state appends its entries to a
list of its own (``trail_tail``); a clone first freezes that list into a block chained to the
blocks before (``trail``), which both then share, as they share the record. Each block counts
its actions, so that the resampler can tell a trail that covers the state's whole history.
"""

from __future__ import annotations

from collections.abc import Sequence

from henge.core import Trail, Trailed, freeze_trail

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


def actions(entries: Sequence[Entry]) -> int:
    """Returns how many of ``entries`` are actions (the others are automatic events)."""
    return sum(1 for e in entries if e[1] >= 0)


def freeze(state: Trailed) -> Trail | None:
    """Moves the state's own trail entries into a new block (to share it) and returns the trail."""
    return freeze_trail(state, actions)


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
