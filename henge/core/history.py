"""A state's history as frozen blocks shared by its clones (:class:`Past`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

import cython

HISTORY_BLOCK = 64
"""Actions per frozen block of a history (see :class:`Past`)."""


@cython.trashcan(True)
@cython.cclass
class Past:
    """A frozen block of a history, chained to the blocks before it.

    A state holds its history as a chain of these (every block :data:`HISTORY_BLOCK` actions,
    never changed once made) and a short list of the actions applied since the last block. A
    clone shares the chain and copies only that list, so copying a state costs the same at
    move 50 and at move 5,000; a block is made when the list fills, by the state that filled it.

    It is a trail (:class:`henge.core.trail.Trail`) of the kind frozen when its list fills, kept
    apart because it is written at the engine's hottest step: a history grows by one int at every action of
    every game, so its block is the least it can be (no count, no memo, which a history never
    needs), it is read as one flat tuple of ints (:func:`_flatten`), and it pickles back into
    the same fixed blocks (:func:`_blocks`) rather than into one.

    Compiled, it is an extension type whose fields are the ones named in ``__slots__``.
    """

    __slots__ = ("actions", "length", "parent")
    if cython.compiled and not TYPE_CHECKING:  # the fields of the compiled class
        parent = cython.declare(object, visibility="public")
        actions = cython.declare(object, visibility="public")
        length = cython.declare(object, visibility="public")

    def __init__(self, parent: Past | None, actions: tuple[int, ...]) -> None:
        self.parent = parent
        self.actions = actions
        self.length: int = len(actions) + (parent.length if parent is not None else 0)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The whole chain as one flat tuple: a long history pickles without deep recursion.
        return _blocks, (_flatten(self, ()),)


def _flatten(past: Past | None, tail: Sequence[int]) -> tuple[int, ...]:
    """Returns the actions of the chain ``past`` followed by ``tail``, oldest first."""
    blocks: list[tuple[int, ...]] = []
    while past is not None:
        blocks.append(past.actions)
        past = past.parent
    if not blocks:
        return tuple(tail)
    blocks.reverse()
    flat = blocks[0] if len(blocks) == 1 else tuple(chain.from_iterable(blocks))
    return flat + tuple(tail) if tail else flat


def _blocks(actions: Sequence[int]) -> Past | None:
    """Returns the chain of whole blocks of ``actions`` (a shorter rest is left out)."""
    past = None
    for start in range(0, len(actions) - HISTORY_BLOCK + 1, HISTORY_BLOCK):
        past = Past(past, tuple(actions[start : start + HISTORY_BLOCK]))
    return past
