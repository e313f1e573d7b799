"""The append-only record of events every seat's information state is read from (G6).

A state appends an :class:`Event` for each action, with what every seat reads of it and what
some seats read instead; a clone shares the chain. A resampler that rewrites a long record hands
over a :class:`Deferred` one, made only when first read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import cython


class _Replayable(Protocol):
    """A state's record hooks as :func:`replayed_record` uses them (the State class has them)."""

    _log: Event | Deferred | None

    def _apply_known(self, action: int) -> None: ...


class _Game(Protocol):
    def new_initial_state(self) -> Any: ...


@cython.trashcan(True)
@cython.freelist(64)
@cython.cclass
class Event:
    """One entry of the append-only record every seat's information state is read from (G6).

    Entries form a chain from the newest back to the first; a clone shares the chain and
    appends its own, so copying a state never copies its record. ``public`` is what every
    seat (and a spectator) reads of the event, or None if they see nothing of it;
    ``private`` gives some seats their own text instead (the card drawn, the card placed
    face down).

    Compiled, it is an extension type (one is made at every action) whose fields are the ones
    named in ``__slots__``; a long chain is freed without deep recursion on either path.
    """

    __slots__ = ("_digests", "actor", "parent", "private", "public")  # compiled: the fields declared in record.pxd

    def __init__(
        self, parent: Event | Deferred | None, actor: int, public: str | None, private: Mapping[int, str] | None
    ) -> None:
        self.parent = parent
        self.actor = actor
        self.public = public
        self.private = private
        self._digests: dict[int | None, tuple[int, str]] | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The whole chain as one flat list: a long record pickles without deep recursion.
        entries = []
        node: Event | None = self
        while node is not None:
            entries.append((node.actor, node.public, node.private))
            node = made(node.parent)
        entries.reverse()
        return _chain, (entries,)

    def text_for(self, seat: int | None) -> str | None:
        """Returns what ``seat`` (None: a spectator) read of this event, or None."""
        private = self.private
        if private is not None and seat is not None:
            text = private.get(seat)
            if text is not None:
                return text
        return self.public

    def digest(self, seat: int | None) -> tuple[int, str]:
        """Returns (entries seen, a digest of them) for ``seat``'s record up to here; cached."""
        pending: list[Event] = []
        node: Event | None = self
        base: tuple[int, str] = (0, "")
        while node is not None:
            cached = node._digests.get(seat) if node._digests is not None else None
            if cached is not None:
                base = cached
                break
            pending.append(node)
            node = made(node.parent)
        count, value = base
        for node in reversed(pending):
            text = node.text_for(seat)
            if text is not None:
                count += 1
                value = hashlib.blake2b(f"{value}|{node.actor}|{text}".encode(), digest_size=12).hexdigest()
            if node._digests is None:
                node._digests = {}
            node._digests[seat] = (count, value)
        return count, value


def _chain(entries: list[tuple[int, str | None, Mapping[int, str] | None]]) -> Event | None:
    """Returns the record made of ``entries``, oldest first (how a pickled record is rebuilt)."""
    node = None
    for actor, public, private in entries:
        node = Event(node, actor, public, private)
    return node


@cython.auto_pickle(False)
@cython.cclass
class Deferred:
    """A record made only when it is first read: a resampler that rewrites a long record hands
    this over, so a search that never reads the sample's record never pays for it."""

    __slots__ = ("_made", "_make")
    if cython.compiled and not TYPE_CHECKING:  # the fields of the compiled class
        _make = cython.declare(object, visibility="public")
        _made = cython.declare(object, visibility="public")

    def __init__(self, make: Callable[[], Event | None]) -> None:
        self._make: Callable[[], Event | None] | None = make
        self._made: Event | None = None

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # As Python pickles an instance of a class with slots (compiled too, where they are C fields).
        return None, {"_made": self._made, "_make": self._make}

    def made(self) -> Event | None:
        """Returns the record's newest entry, making the record the first time."""
        make = self._make
        if make is not None:
            self._made = make()
            self._make = None
        return self._made


def made(node: Event | Deferred | None) -> Event | None:
    """Returns the record entry ``node`` stands for (making a deferred record first)."""
    return node.made() if type(node) is Deferred else node  # type: ignore[return-value]


def replayed_record(game: _Game, history: Sequence[int]) -> Deferred:
    """Returns the record of the game ``history`` plays (every action legal), made by replaying
    it only when first read: for a resampler's sample, whose record a search never reads and
    which would otherwise keep thousands of entries for the cycle collector to go over."""
    return Deferred(partial(_replayed_record, game, tuple(history)))


def _replayed_record(game: _Game, history: tuple[int, ...]) -> Event | None:
    again: _Replayable = game.new_initial_state()
    for action in history:
        again._apply_known(action)
    return made(again._log)
