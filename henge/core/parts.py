"""The parts of a game, each a typed interface (a :class:`typing.Protocol`), and the check of a part
against its interface.

A :class:`~henge.core.GamePlugin` names each part of its game by module (``bot="bot"``) or by
function (``narrator="narrate:narrate"``); only the rules are required. A part is imported when a
layer first asks for it (``GamePlugin.load_bot`` ...) and checked then against its interface here:
every required member present, callable, and taking the number of positional parameters the
interface gives (:func:`mismatch`). Optional members (``settled``, ``belief``, ``SEARCH``, ``GAMES``,
``OPTIONS`` ...) are checked only where a part has them.

==============  ==================  ============================================================
plugin field    interface           what it is
==============  ==================  ============================================================
``game``        :class:`RulesPart`  the :class:`~henge.core.Game` subclass (checked as one)
``bot``         :class:`PlayerPart` the rule-based player
``search``      :class:`SearchPart` what a search knows of the game (:class:`SearchExtras` too)
``encoder``     :class:`EncoderPart` the fixed-size tensors of a seat's observation
``narrator``    :class:`NarratorPart` a seat's log lines
``terminal``    :class:`DrawingPart` the terminal drawing
``preview``     :class:`PreviewPart` what a legal action will do, from the observation alone
``metrics``     :class:`MetricsPart` a finished game's own figures for the analysis
==============  ==================  ============================================================

A module is written as the interface's methods without ``self``: a bot module's
``def choose(decision)`` is :meth:`PlayerPart.choose`. A part named by function is the
interface's ``__call__``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import FunctionType, MethodType
from typing import Any, Protocol

from henge.core.decision import Decision
from henge.core.info import GameInfo
from henge.core.state import Game, State


class RulesPart(Protocol):
    """The rules (``game="rules:Stonerush"``): the :class:`~henge.core.Game` subclass itself."""

    info: GameInfo

    def __call__(self, players: int, **options: Any) -> Game:
        """Returns the game for ``players`` seats with ``options``."""
        ...


class PlayerPart(Protocol):
    """The rule-based player (``bot``): a small, readable player that reads only the decision."""

    def choose(self, decision: Decision) -> int:
        """Returns one of ``decision.legal_actions``."""
        ...


class WrittenFor(Protocol):
    """What a hand-written part (a rule-based player, a search's evaluation) was written for, where it says.

    A part carries its own reading of the rules; a rule it was not written for leaves it playing as
    before. ``henge analyze``, ``henge sweep`` and ``henge tournament`` read these to warn when a run
    changes an option a part does not understand or plays a game it was not written for."""

    GAMES: tuple[str, ...]
    """The ids of the games whose rules it was written for."""
    OPTIONS: tuple[str, ...]
    """The options of those games it understands: it reads them, or plays their effect correctly.
    Every option it leaves out is one it plays as if at its standard value."""


class PlayerExtras(WrittenFor, Protocol):
    """The optional members of a rule-based player, checked where it has them."""


class SearchPart(Protocol):
    """What a search knows of the game (``search``): a position evaluation.

    Search bots only ever hold states sampled from their seat's information set (or, for
    ``mcts-cheat``, the real one), so reading a state here gives away nothing."""

    def evaluate(self, state: State) -> list[float]:
        """Returns each seat's chance of winning from a full state, in [0, 1]."""
        ...


class SearchExtras(WrittenFor, Protocol):
    """The optional members of a search part, checked where it has them (``GAMES`` and ``OPTIONS`` too)."""

    SEARCH: Mapping[str, Any]
    """Settings of ``ismcts`` that suit the game (its budget, its rollouts), over the search's defaults."""
    OPENSPIEL_SECONDS: Mapping[int, float]
    """Processor seconds per decision with a choice of ``ismcts`` at its default settings, by player
    count: the budget that gives OpenSpiel's ISMCTS equal time."""

    def settled(self, state: State) -> bool:
        """Returns True where the evaluation compares the seats fairly (a search plays on to such a position)."""
        ...

    def belief(self, observation: dict[str, Any]) -> Callable[[State], float] | None:
        """Returns, from what the seat saw, the weight in [0, 1] of a sampled state (None: uniform samples)."""
        ...


class EncoderPart(Protocol):
    """The fixed-size tensors of a seat's observation (``encoder``), for the research adapters.

    The shapes depend on the player count and options alone, never on the position; the tensors
    are read from a seat's observation alone."""

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """Returns the observation tensor's shape, ``(size,)``."""
        ...

    def observation_tensor(self, observation: Mapping[str, Any]) -> Sequence[float]:
        """Returns the observation tensor's values."""
        ...

    def information_state_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """Returns the information state tensor's shape, ``(size,)``."""
        ...

    def information_state_tensor(self, observation: Mapping[str, Any]) -> Sequence[float]:
        """Returns the information state tensor's values."""
        ...


class EncoderExtras(Protocol):
    """The optional members of an encoder: the named slices, and the shapes under their older names."""

    def observation_layout(self, players: int, options: Mapping[str, Any]) -> Sequence[tuple[str, tuple[int, ...]]]:
        """Returns the observation tensor's named slices in order."""
        ...

    def information_state_layout(
        self, players: int, options: Mapping[str, Any]
    ) -> Sequence[tuple[str, tuple[int, ...]]]:
        """Returns the information state tensor's named slices in order."""
        ...

    def OBSERVATION_SHAPE(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """``observation_shape``."""
        ...

    def INFORMATION_STATE_SHAPE(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """``information_state_shape``."""
        ...


class NarratorPart(Protocol):
    """A seat's log lines (``narrator``), from two successive observations of it and nothing else."""

    def __call__(self, before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]: ...


class DrawingPart(Protocol):
    """The terminal drawing (``terminal``) of one seat's observation."""

    def render(self, observation: dict[str, Any]) -> Any:
        """Returns the drawing, a Rich renderable."""
        ...

    def describe_decision(self, observation: dict[str, Any]) -> str:
        """Returns the prompt naming the decision the seat is making."""
        ...


class PreviewPart(Protocol):
    """What a legal action will do (``preview``), from the seat's observation alone (None: its text says it all)."""

    def __call__(self, observation: dict[str, Any], seat: int, action_text: str) -> str | None: ...


class MetricsPart(Protocol):
    """A finished game's own figures for ``henge analyze`` (``metrics``), from its whole history."""

    def __call__(self, game: Game, history: Sequence[int], returns: Sequence[float]) -> dict[str, float | str]: ...


@dataclass(frozen=True)
class Part:
    """One kind of part a plugin may name: its interface, its optional members, and whether it is a function."""

    interface: type
    extras: type | None = None
    function: bool = False
    """Named as ``module:function`` (the interface's ``__call__``), else as a module."""


PARTS: dict[str, Part] = {
    "bot": Part(PlayerPart, PlayerExtras),
    "search": Part(SearchPart, SearchExtras),
    "encoder": Part(EncoderPart, EncoderExtras),
    "narrator": Part(NarratorPart, function=True),
    "terminal": Part(DrawingPart),
    "preview": Part(PreviewPart, function=True),
    "metrics": Part(MetricsPart, function=True),
}
"""The parts a plugin names by module or function, by the name of the plugin's field."""


@dataclass(frozen=True)
class _Parameters:
    """What a function takes, read from its code: enough to say whether a part's function fits."""

    positional: tuple[str, ...]
    required: int
    """The positional parameters without a default (the first ones)."""
    more: bool
    """It takes any number of positional arguments (``*args``)."""
    keywords: tuple[str, ...]
    keywords_required: bool

    @classmethod
    def of(cls, function: Any) -> _Parameters | None:
        """Returns what ``function`` takes (a bound method's ``self`` left out), or None where it cannot tell."""
        skip = 0
        if isinstance(function, MethodType):
            function, skip = function.__func__, 1
        if not isinstance(function, FunctionType):
            return None  # a builtin, a class, an object with __call__: taken on trust
        code = function.__code__
        names = code.co_varnames
        count = code.co_argcount
        keywords = names[count : count + code.co_kwonlyargcount]
        defaults = len(function.__defaults__ or ())
        keyword_defaults = function.__kwdefaults__ or {}
        return cls(
            positional=names[skip:count],
            required=max(count - defaults - skip, 0),
            more=bool(code.co_flags & _VARARGS),
            keywords=keywords,
            keywords_required=any(k not in keyword_defaults for k in keywords),
        )

    def takes(self, wanted: int) -> bool:
        """Returns True if the function can be called with ``wanted`` positional arguments alone."""
        return self.required <= wanted and (self.more or wanted <= len(self.positional)) and not self.keywords_required

    def shown(self, name: str) -> str:
        """Returns the function as written, names only: ``choose(decision)``."""
        starred = ["*args"] if self.more else ["*"] if self.keywords else []
        return f"{name}({', '.join([*self.positional, *starred, *self.keywords])})"


_VARARGS = 0x04
"""The code flag of a function taking ``*args`` (``inspect.CO_VARARGS``)."""


def _own(interface: type) -> list[type]:
    """Returns the interface and the interfaces of this module it extends, the furthest first."""
    return [c for c in reversed(interface.__mro__) if c.__module__ == __name__]


def _members(interface: type) -> dict[str, _Parameters | None]:
    """Returns the interface's members: what a method takes (``self`` left out), None for a value."""
    members: dict[str, _Parameters | None] = {}
    for cls in _own(interface):
        members.update(dict.fromkeys(vars(cls).get("__annotations__", {})))
        for name, value in vars(cls).items():
            if isinstance(value, FunctionType) and (name == "__call__" or not name.startswith("_")):
                members[name] = _Parameters.of(MethodType(value, interface))
    return members


def _value_kind(interface: type, name: str) -> str:
    """Returns how a value member is written: its annotation's text (``Mapping[str, Any]``)."""
    for cls in _own(interface):
        annotation = vars(cls).get("__annotations__", {}).get(name)
        if annotation is not None:
            return str(annotation)
    return ""


def _value_problem(name: str, kind: str, found: Any) -> str | None:
    if kind.startswith("tuple[str"):
        if isinstance(found, tuple) and all(isinstance(item, str) for item in found):
            return None
        return f"has {name} of type {type(found).__name__}, not a tuple of names"
    return None if isinstance(found, Mapping) else f"has {name} of type {type(found).__name__}, not a mapping"


def _member_problem(name: str, wanted: _Parameters | None, found: Any, interface: type | None = None) -> str | None:
    if wanted is None:
        return _value_problem(name, "" if interface is None else _value_kind(interface, name), found)
    if not callable(found):
        return f"has {name} of type {type(found).__name__}, not a function {wanted.shown(name)}"
    takes = _Parameters.of(found)
    if takes is not None and not takes.takes(len(wanted.positional)):
        return f"has {takes.shown(name)}, not {wanted.shown(name)}"
    return None


def mismatch(part: str, found: Any, name: str | None = None) -> str | None:
    """Returns what keeps ``found`` from being the plugin's ``part`` (``"bot"``, ``"narrator"`` ...), or None.

    ``name`` is the function's name for a part named as ``module:function``. The words complete
    a sentence about the part: ``has no choose(decision)``, ``has choose(), not choose(decision)``."""
    kind = PARTS[part]
    if kind.function:
        call = _members(kind.interface)["__call__"]
        assert call is not None
        return _member_problem(name or part, call, found)
    for member, wanted in _members(kind.interface).items():
        if not hasattr(found, member):
            return f"has no {member}" if wanted is None else f"has no {wanted.shown(member)}"
        problem = _member_problem(member, wanted, getattr(found, member), kind.interface)
        if problem is not None:
            return problem
    return None if kind.extras is None else extras_mismatch(part, found)


def extras_mismatch(part: str, found: Any) -> str | None:
    """Returns what is wrong with the optional members ``found`` has of the plugin's ``part``, or None."""
    extras = PARTS[part].extras
    if extras is None:
        return None
    for member, wanted in _members(extras).items():
        if hasattr(found, member):
            problem = _member_problem(member, wanted, getattr(found, member), extras)
            if problem is not None:
                return problem
    return None


def written(part: str, name: str | None = None) -> str:
    """Returns how a part is written, for messages: ``choose(decision)``, ``narrate(before, after)``."""
    kind = PARTS[part]
    members = _members(kind.interface)
    if kind.function:
        call = members["__call__"]
        assert call is not None
        return call.shown(name or part)
    return ", ".join(member if takes is None else takes.shown(member) for member, takes in members.items())
