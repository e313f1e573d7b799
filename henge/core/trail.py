"""The record of hidden events a game's resampler replays, as frozen blocks shared by clones (:class:`Trail`).

A game whose resampler needs more than the history (which card a hidden draw took, which card
went face down, when a pile was reshuffled) keeps a trail: entries, tuples the game defines,
appended in order as its rules run. A state appends its entries to a list of its own
(``trail_tail``), which is frozen into a block chained to the blocks before (``trail``); its
clones share the blocks, so a clone costs the same at any move number. A game freezes its
list in one of two ways:

* at each clone (:func:`freeze_trail` in its ``_copy``): the head block then ends at the state,
  so the game may cache on it (:attr:`Trail.memo`) what it derived from the trail, for every
  sample drawn at that position;
* when the list holds :data:`TRAIL_BLOCK` entries, a clone copying the shorter list: no block
  is made by a clone, the cheaper way where a search clones far more often than it appends
  and nothing is cached on a block.

A history of actions (:class:`henge.core.history.Past`) is a chain of the second kind, of ints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import cython

TRAIL_BLOCK = 64
"""Entries per frozen block of a trail frozen when its list fills (see the module's docstring)."""


@cython.trashcan(True)
@cython.cclass
class Trail:
    """A frozen block of trail entries, oldest first, chained to the block before (``parent``).

    Compiled, it is an extension type whose fields are the ones named in ``__slots__``; a long
    chain is freed without deep recursion on either path."""

    __slots__ = ("count", "entries", "length", "memo", "parent")
    if cython.compiled and not TYPE_CHECKING:  # the fields of the compiled class
        parent = cython.declare(object, visibility="public")
        entries = cython.declare(object, visibility="public")
        length = cython.declare(object, visibility="public")
        count = cython.declare(object, visibility="public")
        memo = cython.declare(object, visibility="public")

    def __init__(self, parent: Trail | None, entries: tuple[Any, ...], count: int = 0) -> None:
        self.parent = parent
        self.entries = entries
        self.length: int = len(entries) + (parent.length if parent is not None else 0)
        """The entries of this block and the blocks before."""
        self.count: int = count + (parent.count if parent is not None else 0)
        """The entries a game counts (see :func:`freeze_trail`) of this block and the blocks before."""
        self.memo: Any = None
        """What a game derived from the trail ending here (never pickled: made again when needed)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The whole trail as one flat block, so a long one pickles without deep recursion.
        return _trail, (trail_entries(self), self.count)


def _trail(flat: list[Any], count: int = 0) -> Trail | None:
    """Returns the trail made of the entries ``flat``, oldest first (how a pickled trail is rebuilt)."""
    return Trail(None, tuple(flat), count) if flat else None


class Trailed(Protocol):
    """What keeps a trail: a state's shared blocks and its own entries since its last clone."""

    trail: Trail | None
    trail_tail: list[Any]


def freeze_trail(state: Trailed, count: Callable[[Sequence[Any]], int] | None = None) -> Trail | None:
    """Moves the state's own entries into a new block (to share it) and returns the trail.

    ``count``, if given, says how many of a block's entries the game counts (kept as
    :attr:`Trail.count`, e.g. the entries that are actions, against the history's length)."""
    tail = state.trail_tail
    if tail:
        state.trail = Trail(state.trail, tuple(tail), count(tail) if count is not None else 0)
        state.trail_tail = []
    return state.trail


def trail_entries(head: Trail | None, tail: Sequence[Any] = ()) -> list[Any]:
    """Returns every entry of the trail ending in block ``head``, then ``tail``, oldest first."""
    blocks = []
    node = head
    while node is not None:
        blocks.append(node.entries)
        node = node.parent
    flat = [entry for block in reversed(blocks) for entry in block]
    if tail:
        flat.extend(tail)
    return flat
