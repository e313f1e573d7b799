"""The public State API every game implements and every other layer uses.

The names follow OpenSpiel's Python State API so adapters stay thin. A game
package subclasses :class:`Game` and :class:`State`, declares a :class:`GameInfo`,
and offers itself through a :class:`GamePlugin` in the ``henge.games`` entry-point
group; the registry finds games there, so this module imports none.

Rules never touch a random number generator (RULINGS G1): every shuffle, deal
and draw is a chance node whose outcomes the caller samples.
"""

from __future__ import annotations

import hashlib
import importlib
import numbers
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import metadata, resources
from itertools import chain, repeat
from types import ModuleType
from typing import Any, ClassVar

from henge import box

CHANCE = -1
"""``current_player()`` at a chance node."""
TERMINAL = -4
"""``current_player()`` once the game is over."""

JSON_FORMAT = "henge-state"


class IllegalActionError(ValueError):
    """An action (id or text) that is not legal in the current state; the state is unchanged."""


class StateFormatError(ValueError):
    """Malformed or inconsistent state JSON."""


@dataclass(frozen=True)
class Option:
    """One game option: its allowed values (its whole range: nothing else is accepted, and a
    value must have the type of the values, so ``20`` and ``"20"`` differ) and its default."""

    name: str
    values: tuple[Any, ...]
    default: Any
    doc: str = ""
    recorded_at_default: bool = True
    """False for a designer's knob added to a published rule set: at its default the option is
    left out of :attr:`Game.options`, so game records and state JSON of the standard game stay
    exactly as they were before the knob existed; :attr:`Game.settings` always holds it."""

    def allows(self, value: Any) -> bool:
        """Returns whether ``value`` is one of the option's values, of the same type."""
        return any(value == v and type(value) is type(v) for v in self.values)

    def range_text(self) -> str:
        """Returns the allowed values as text: ``10..30`` for a run of integers, else listed."""
        values = self.values
        run = len(values) > 2 and all(type(v) is int for v in values)
        if run and list(values) == list(range(values[0], values[0] + len(values))):
            return f"{values[0]}..{values[-1]}"
        return ", ".join(str(v) for v in values)


@dataclass(frozen=True)
class GameInfo:
    """Declarative metadata of a rule set, recorded in every game record."""

    id: str
    name: str
    min_players: int
    max_players: int
    version: str
    rule_text: str
    summary: str
    options: tuple[Option, ...] = ()
    round_cap: int = 0
    hidden_information: bool = True
    """False for a game where every seat sees everything once chance has acted (resampling copies)."""
    min_utility: float = 0.0
    max_utility: float = 1.0
    utility_sum: float | None = 1.0
    """Sum of the returns of every finished game, or None if it varies (general sum)."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def variants(self) -> tuple[Any, ...]:
        """Returns the values of the ``variant`` option, or ``('standard',)``."""
        for option in self.options:
            if option.name == "variant":
                return option.values
        return ("standard",)


def _text_index(texts: Sequence[str]) -> dict[str, int]:
    index: dict[str, int] = {}
    for action, text in enumerate(texts):
        key = text.lower()
        if key in index:
            raise ValueError(f"action text {text!r} is not unique")
        index[key] = action
    return index


class Game:
    """A rule set bound to a player count and options; makes initial states."""

    info: ClassVar[GameInfo]
    state_class: ClassVar[type[State]]
    player_action_texts: ClassVar[tuple[str, ...]]
    """Text of each player action id; a pure function of the id."""
    chance_action_texts: ClassVar[tuple[str, ...]]
    """Text of each chance outcome id; a pure function of the id."""
    _player_index: ClassVar[dict[str, int]]
    _chance_index: ClassVar[dict[str, int]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "player_action_texts" in cls.__dict__:
            cls._player_index = _text_index(cls.player_action_texts)
        if "chance_action_texts" in cls.__dict__:
            cls._chance_index = _text_index(cls.chance_action_texts)

    def __init__(self, players: int, **options: Any) -> None:
        info = self.info
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"{info.id}: players must be an integer, not {players!r}")
        if not info.min_players <= players <= info.max_players:
            raise ValueError(f"{info.id} is for {info.min_players}-{info.max_players} players, not {players}")
        known = {o.name: o for o in info.options}
        for name in options:
            if name not in known:
                allowed = ", ".join(known) or "none"
                raise ValueError(f"{info.id} has no option {name!r}; options: {allowed}")
        resolved: dict[str, Any] = {}
        for name, option in known.items():
            value = options.get(name, option.default)
            if not option.allows(value):
                raise ValueError(f"{info.id}: option {name} must be one of {option.range_text()}, not {value!r}")
            resolved[name] = value
        self.num_players = players
        self.settings: dict[str, Any] = resolved
        """Every option's value, defaults included: what the rules read."""
        self.options: dict[str, Any] = {
            name: value
            for name, value in resolved.items()
            if known[name].recorded_at_default or value != known[name].default
        }
        """The options as records and state JSON write them (see :attr:`Option.recorded_at_default`)."""

    # -- sizes (OpenSpiel's names) --------------------------------------------

    def num_distinct_actions(self) -> int:
        """Returns the number of player action ids."""
        return len(self.player_action_texts)

    def max_chance_outcomes(self) -> int:
        """Returns the number of chance outcome ids."""
        return len(self.chance_action_texts)

    def max_game_length(self) -> int:
        """Returns an upper bound on the number of actions (chance included) in a game."""
        raise NotImplementedError

    # -- states -----------------------------------------------------------------

    def new_initial_state(self) -> State:
        """Returns the state before the first action (usually a chance node of the set-up)."""
        return self.state_class(self)

    def state_from_json(self, data: Any) -> State:
        """Returns the state serialised by :meth:`State.to_json`; raises StateFormatError if bad."""
        if not isinstance(data, Mapping):
            raise StateFormatError(f"a state is a JSON object, not {type(data).__name__}")
        expect = {
            "format": JSON_FORMAT,
            "game": self.info.id,
            "version": self.info.version,
            "players": self.num_players,
            "options": self.options,
        }
        for key, value in expect.items():
            if data.get(key) != value:
                raise StateFormatError(f"state field {key!r} is {data.get(key)!r}; expected {value!r}")
        history = data.get("history")
        if not isinstance(history, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in history):
            raise StateFormatError("state field 'history' must be a list of integer actions")
        fields = data.get("state")
        if not isinstance(fields, Mapping):
            raise StateFormatError("state field 'state' must be an object")
        state = self.state_class(self)
        try:
            state._load(fields)
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise StateFormatError(f"bad {self.info.id} state: {error}") from None
        state._set_history(history)
        if history:
            replayed = self.new_initial_state()
            for step, action in enumerate(history):
                try:
                    replayed.apply_action(action)
                except IllegalActionError as error:
                    raise StateFormatError(f"history step {step} is not legal: {error}") from None
            if replayed._fields() != state._fields():
                raise StateFormatError("the state does not match its history")
            state._log = replayed._log  # what every seat saw, from the replay (G6)
        return state

    # -- action text ------------------------------------------------------------

    def action_text(self, action: int, *, chance: bool = False) -> str:
        """Returns the canonical text of a player action id (or a chance outcome id)."""
        texts = self.chance_action_texts if chance else self.player_action_texts
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(texts):
            kind = "chance outcome" if chance else "action"
            raise IllegalActionError(f"{self.info.id}: no {kind} {action!r}; ids run 0..{len(texts) - 1}")
        return texts[action]

    def parse_action(self, text: str, *, chance: bool = False) -> int:
        """Returns the id of an action text (case and surrounding spaces ignored)."""
        index = self._chance_index if chance else self._player_index
        if not isinstance(text, str):
            raise IllegalActionError(f"an action is written as text, not {type(text).__name__}")
        action = index.get(" ".join(text.split()).lower())
        if action is None:
            raise IllegalActionError(f"{self.info.id}: no action is written {text!r}")
        return action

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"henge.load({self.info.id!r}, players={self.num_players}{options})"


class Event:
    """One entry of the append-only record every seat's information state is read from (G6).

    Entries form a chain from the newest back to the first; a clone shares the chain and
    appends its own, so copying a state never copies its record. ``public`` is what every
    seat (and a spectator) reads of the event, or None if they see nothing of it;
    ``private`` gives some seats their own text instead (the card drawn, the card placed
    face down).
    """

    __slots__ = ("_digests", "actor", "parent", "private", "public")

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


class Deferred:
    """A record made only when it is first read: a resampler that rewrites a long record hands
    this over, so a search that never reads the sample's record never pays for it."""

    __slots__ = ("_made", "_make")

    def __init__(self, make: Callable[[], Event | None]) -> None:
        self._make: Callable[[], Event | None] | None = make
        self._made: Event | None = None

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


def replayed_record(game: Game, history: Sequence[int]) -> Deferred:
    """Returns the record of the game ``history`` plays (every action legal), made by replaying
    it only when first read: for a resampler's sample, whose record a search never reads and
    which would otherwise keep thousands of entries for the cycle collector to go over."""
    return Deferred(partial(_replayed_record, game, tuple(history)))


def _replayed_record(game: Game, history: tuple[int, ...]) -> Event | None:
    again = game.new_initial_state()
    for action in history:
        again._apply_known(action)
    return made(again._log)


HISTORY_BLOCK = 64
"""Actions per frozen block of a history (see :class:`Past`)."""


class Past:
    """A frozen block of a history, chained to the blocks before it.

    A state holds its history as a chain of these (every block :data:`HISTORY_BLOCK` actions,
    never changed once made) and a short list of the actions applied since the last block. A
    clone shares the chain and copies only that list, so copying a state costs the same at
    move 50 and at move 5,000; a block is made when the list fills, by the state that filled it.
    """

    __slots__ = ("actions", "length", "parent")

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


class State:
    """A game position. Subclasses implement the underscored hooks; the public API lives here."""

    __slots__ = ("_legal", "_log", "_past", "_recent", "game")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._past: Past | None = None
        self._recent: list[int] = []
        self._legal: tuple[int, ...] | None = None
        self._log: Event | Deferred | None = None

    @property
    def _history(self) -> tuple[int, ...]:
        """Every action applied so far (read-only; :meth:`history` gives a list, :meth:`move_number`
        the count). Setting it replaces the history (the state's fields are not touched)."""
        return _flatten(self._past, self._recent)

    @_history.setter
    def _history(self, actions: Sequence[int]) -> None:
        self._set_history(actions)

    def _set_history(self, actions: Sequence[int]) -> None:
        """Replaces the history by ``actions`` (the state's fields are not touched)."""
        actions = list(actions)
        self._past = past = _blocks(actions)
        self._recent = actions[past.length :] if past is not None else actions

    # -- hooks for games --------------------------------------------------------

    def current_player(self) -> int:
        """Returns the seat to move, CHANCE or TERMINAL."""
        raise NotImplementedError

    def _legal_actions(self) -> Sequence[int]:
        """Returns the legal player actions, sorted (only called at a decision)."""
        raise NotImplementedError

    uniform_chance: ClassVar[bool] = False
    """True if every chance node's outcomes are equally likely (then define ``_chance_actions``)."""

    def _chance_actions(self) -> Sequence[int]:
        """Returns the chance outcomes, sorted (only at a chance node)."""
        return [a for a, _ in self._chance_outcomes()]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns ``(outcome, probability)`` pairs sorted by outcome (only at a chance node)."""
        return uniform(self._chance_actions())

    def _apply(self, action: int) -> None:
        """Applies a legal action or outcome. Never called with anything illegal.

        Where it has just computed the next decision's legal actions anyway, it may hand them
        over as ``self._legal`` (a sorted tuple, exactly what ``_legal_actions`` would return)."""
        raise NotImplementedError

    def _copy(self) -> State:
        """Returns an independent copy of the game-specific fields (history is copied by clone)."""
        raise NotImplementedError

    winners: Sequence[int]
    """The seats that won (G4: they share 1 equally); read once the game is over."""

    def returns(self) -> list[float]:
        """Returns each seat's result: G4's shared win once the game is over, all zero until then.

        A game whose results are not a shared win overrides this."""
        return shared_win(self.game.num_players, self.winners if self.is_terminal() else ())

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` knows, as a JSON-serialisable dict (None: a spectator)."""
        raise NotImplementedError

    def resample_from_infostate(self, player: int, rng: random.Random) -> State:
        """Returns a full state consistent with what ``player`` knows, hidden parts re-drawn."""
        raise NotImplementedError

    def _fields(self) -> dict[str, Any]:
        """Returns the game-specific fields for JSON (secrets included)."""
        raise NotImplementedError

    def _load(self, fields: Mapping[str, Any]) -> None:
        """Sets the game-specific fields from JSON, validating them; raises on anything bad."""
        raise NotImplementedError

    # -- the public API ---------------------------------------------------------

    def is_terminal(self) -> bool:
        """Returns True once the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Returns True when the next action is a chance outcome."""
        return self.current_player() == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Returns the legal actions (at a chance node: the outcomes), sorted ints."""
        if player is not None and player != self.current_player():
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> tuple[int, ...]:
        player = self.current_player()
        if player == TERMINAL:
            return ()
        if player == CHANCE:
            return tuple(self._chance_actions())
        return tuple(self._legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns ``(outcome, probability)`` pairs at a chance node (probabilities sum to 1)."""
        if self.current_player() != CHANCE:
            return []
        if self.uniform_chance:
            legal = self._legal
            if legal is None:
                legal = self._legal = tuple(self._chance_actions())
            return list(zip(legal, repeat(1.0 / len(legal)), strict=False))  # as uniform() gives them
        return self._chance_outcomes()

    def apply_action(self, action: int) -> None:
        """Applies a legal action; raises IllegalActionError and changes nothing otherwise."""
        if type(action) is not int:
            action = _as_action(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalActionError(self._illegal_message(action))
        self._legal = None  # _apply may set the next legal set where it has computed it anyway
        self._apply(action)
        recent = self._recent
        recent.append(action)
        if len(recent) == HISTORY_BLOCK:
            self._past = Past(self._past, tuple(recent))
            self._recent = []

    def _apply_known(self, action: int) -> None:
        """Applies an action known to be legal, unchecked (a resampler replaying a history it built)."""
        self._legal = None
        self._apply(action)
        recent = self._recent
        recent.append(action)
        if len(recent) == HISTORY_BLOCK:
            self._past = Past(self._past, tuple(recent))
            self._recent = []

    def _illegal_message(self, action: object) -> str:
        player = self.current_player()
        if player == TERMINAL:
            return "the game is over: no action is legal"
        chance = player == CHANCE
        if chance:  # the outcomes would tell what is in a hidden pile: never list them
            return f"{action!r} is not a possible chance outcome here; see chance_outcomes()"
        legal = self._legal or ()
        texts = [self.game.action_text(a) for a in legal]
        shown = ", ".join(texts[:40]) + (f", ... ({len(texts)} in all)" if len(texts) > 40 else "")
        who = f"seat {player}"
        try:
            name = repr(self.game.action_text(action))  # type: ignore[arg-type]
        except IllegalActionError:
            name = repr(action)
        return f"{name} is not legal for {who} now; legal: {shown}"

    def apply_text(self, text: str) -> int:
        """Parses and applies an action written as text; returns its id."""
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def action_to_string(self, action: int) -> str:
        """Returns the canonical text of an action of the actor to move now."""
        return self.game.action_text(action, chance=self.current_player() == CHANCE)

    def string_to_action(self, text: str) -> int:
        """Returns the action id written ``text`` for the actor to move now."""
        chance = self.current_player() == CHANCE
        try:
            return self.game.parse_action(text, chance=chance)
        except IllegalActionError:
            if chance:  # never list chance outcomes: they would tell what a hidden pile holds
                raise IllegalActionError(f"no chance outcome is written {text!r}") from None
            legal = [self.game.action_text(a) for a in self.legal_actions()]
            shown = ", ".join(legal[:40]) + (f", ... ({len(legal)} in all)" if len(legal) > 40 else "")
            raise IllegalActionError(f"no action is written {text!r}; legal now: {shown}") from None

    def legal_action_texts(self) -> list[str]:
        """Returns the texts of the legal actions, in the order of legal_actions()."""
        chance = self.current_player() == CHANCE
        return [self.game.action_text(a, chance=chance) for a in self.legal_actions()]

    def history(self) -> list[int]:
        """Returns every action applied so far, chance outcomes included."""
        return list(_flatten(self._past, self._recent))

    def move_number(self) -> int:
        """Returns how many actions (chance included) were applied."""
        past = self._past
        return len(self._recent) if past is None else past.length + len(self._recent)

    def clone(self) -> State:
        """Returns an independent copy (hand-written, no deepcopy). The history's frozen blocks and
        the record are shared, both append-only, so a clone costs the same at any move number."""
        new = self._copy()
        new._past = self._past
        new._recent = self._recent[:]
        new._legal = self._legal
        new._log = self._log
        return new

    # -- turns and reveals -------------------------------------------------------------

    def reveals(self, action: int) -> bool:
        """Returns True if the decision ``action`` is a *reveal*: applying it adds to the record
        anything besides its actor's own move, that is an entry whose actor is not the seat to
        move (the rules resolving something, a card turned by the game) or an entry with private
        text for another seat. A move seen by all as its actor made it, or private to its actor
        (an offer being built, a card bid face down), is not a reveal. See :func:`turns`.

        Raises IllegalActionError (and changes nothing) if ``action`` is not legal, or if the state
        is at a chance node or over: only decisions are reveals or not."""
        actor = self.current_player()
        if actor < 0:
            raise IllegalActionError("only a seat's decision can be a reveal; no seat is to move")
        after = self.clone()
        after.apply_action(action)
        mark = made(self._log)
        node = made(after._log)
        while node is not None and node is not mark:
            if node.actor != actor:
                return True
            private = node.private
            if private is not None and any(seat != actor for seat in private):
                return True
            node = made(node.parent)
        return False

    # -- what every seat has seen (G6) ----------------------------------------------

    def _record(self, actor: int, public: str | None, private: Mapping[int, str] | None = None) -> None:
        """Appends an event to the record: ``public`` for every seat, ``private`` texts for some."""
        self._log = Event(self._log, actor, public, private)

    def information_state(self, player: int | None, newest: int | None = None) -> list[list[Any]]:
        """Returns seat ``player``'s perfect-recall record (G6) as JSON: ``[actor, text]`` per event it
        saw, oldest first (actor -1: chance). None gives a spectator's record (public events only).
        ``newest`` gives only the last that many entries, read without walking the whole record."""
        self._check_seat(player)
        events: list[list[Any]] = []
        node = made(self._log)
        while node is not None and (newest is None or len(events) < newest):
            text = node.text_for(player)
            if text is not None:
                events.append([node.actor, text])
            node = made(node.parent)
        events.reverse()
        return events

    def information_state_string(self, player: int | None) -> str:
        """Returns a short string equal for two states exactly when their records for ``player`` are
        equal (a digest of :meth:`information_state`, cached along the shared record)."""
        self._check_seat(player)
        head = made(self._log)
        if head is None:
            return "0:"
        count, value = head.digest(player)
        return f"{count}:{value}"

    def _check_seat(self, player: int | None) -> None:
        if player is not None and (
            isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.num_players
        ):
            raise ValueError(f"seats run 0..{self.game.num_players - 1}, not {player!r}")

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    def to_json(self) -> dict[str, Any]:
        """Returns the full state (secrets included: for storage, never for a client)."""
        game = self.game
        return {
            "format": JSON_FORMAT,
            "game": game.info.id,
            "version": game.info.version,
            "players": game.num_players,
            "options": dict(game.options),
            "history": self.history(),
            "state": self._fields(),
        }

    def __str__(self) -> str:
        fields = self._fields()
        return "\n".join(f"{key}: {value}" for key, value in fields.items())


def _as_action(action: object) -> int:
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return int(action)
    raise IllegalActionError(f"an action is an integer id, not {action!r}; see legal_actions()")


# --- the plugin contract and the registry ------------------------------------------

ENTRY_POINT_GROUP = "henge.games"
"""The entry-point group through which installed packages offer games."""
PLUGIN_API = 1
"""The version of the plugin contract this henge reads (:class:`GamePlugin`)."""


class PluginError(ValueError):
    """A game package that cannot be used: it failed to import, or shares its id with another."""


@dataclass(frozen=True)
class GamePlugin:
    """Everything that is one game, named in one place (a ``henge.games`` entry point points at one).

    Parts are named by module (relative to ``package``) and loaded only when a layer asks for
    them, so listing the games imports no drawing, bot or narrator. Only ``game`` is required;
    a layer falls back on its generic part where a game names none.
    """

    id: str
    """The game id, as written in records, on the command line and in addresses."""
    package: str
    """The Python package holding the parts, e.g. ``henge.games.stonerush``."""
    game: str
    """``module:Class`` of the :class:`Game` subclass, e.g. ``rules:Stonerush``."""
    bot: str | None = None
    """Module of the rule-based player: ``choose``, ``evaluate``, optionally ``SEARCH`` and ``belief``."""
    narrator: str | None = None
    """``module:function`` writing a seat's log lines from two successive observations."""
    terminal: str | None = None
    """Module of the terminal drawing: ``render(observation)`` and ``describe_decision(observation)``."""
    board_js: str | None = None
    """File name (in the package) of the browser drawing, a script calling ``Henge.register``."""
    rules_page: str | None = None
    """File name (in the package) of the player-facing rules page, in Markdown."""
    encoder: str | None = None
    """Module of the fixed-size tensor encodings of a seat's observation, for the research
    adapters: ``observation_shape(players, options)`` and ``observation_tensor(observation)``,
    ``information_state_shape(players, options)`` and ``information_state_tensor(observation)``;
    documented in the game's docs page."""
    preview: str | None = None
    """``module:function`` saying what a legal action will do, from the seat's observation alone:
    ``preview(observation, seat, action_text) -> str | None`` (None where the action's text says
    it all). Never computed by applying the action to a state: a preview must tell the seat
    nothing its observation does not."""
    public: tuple[str, ...] = ()
    """Rule modules that are public facts of the board (e.g. a course's geometry): the bot,
    narrator and drawings may import these, and no other module of the rules."""
    metrics: str | None = None
    """``module:function`` giving a finished game's own figures for ``henge analyze``
    (docs/analysis.md): ``metrics(game, history, returns) -> dict[str, float | str]``, from the
    game's whole history (chance included), which it may replay with its own rules. Numbers are
    averaged with intervals, texts counted as categories; ``rounds`` (rounds played) and ``capped``
    (1 if the round cap ended the game, else 0) are read as the game's round count and cap."""
    api_version: int = PLUGIN_API

    def _load(self, reference: str) -> Any:
        module_name, _, attribute = reference.partition(":")
        module = importlib.import_module(f"{self.package}.{module_name}")
        return getattr(module, attribute) if attribute else module

    def game_class(self) -> type[Game]:
        """Returns the game's :class:`Game` subclass."""
        cls = self._load(self.game)
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise PluginError(f"game {self.id!r}: {self.package}.{self.game} is not a henge Game class")
        if cls.info.id != self.id:
            raise PluginError(f"game {self.id!r}: its Game class says its id is {cls.info.id!r}")
        return cls

    def load_bot(self) -> ModuleType | None:
        """Returns the rule-based player's module, or None."""
        return None if self.bot is None else self._load(self.bot)

    def load_narrator(self) -> Callable[[Any, Any], list[str]] | None:
        """Returns the narrator, or None."""
        return None if self.narrator is None else self._load(self.narrator)

    def load_terminal(self) -> ModuleType | None:
        """Returns the terminal drawing's module, or None."""
        return None if self.terminal is None else self._load(self.terminal)

    def load_preview(self) -> Callable[[Any, int, str], str | None] | None:
        """Returns the game's preview function, or None."""
        return None if self.preview is None else self._load(self.preview)

    def load_encoder(self) -> ModuleType | None:
        """Returns the tensor encoding's module, or None."""
        return None if self.encoder is None else self._load(self.encoder)

    def load_metrics(self) -> Callable[[Game, Sequence[int], Sequence[float]], dict[str, float | str]] | None:
        """Returns the game's own figures for the analysis, or None."""
        return None if self.metrics is None else self._load(self.metrics)

    def _text(self, name: str | None) -> str | None:
        if name is None:
            return None
        return resources.files(self.package).joinpath(name).read_text(encoding="utf-8")

    def board_script(self) -> str | None:
        """Returns the browser drawing's script text, or None."""
        return self._text(self.board_js)

    def rules_text(self) -> str | None:
        """Returns the player-facing rules page (Markdown), or None."""
        return self._text(self.rules_page)


class _Registry:
    """The games installed, found once through the entry-point group."""

    def __init__(self) -> None:
        self.plugins: dict[str, GamePlugin] = {}
        self.classes: dict[str, type[Game]] = {}
        self.problems: dict[str, str] = {}
        """Broken entries: the game id (or the entry's name) -> what is wrong, naming the package."""

    def discover(self) -> None:
        found: dict[str, list[tuple[str, GamePlugin]]] = {}
        for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
            package = entry.dist.name if entry.dist is not None else entry.module
            try:
                plugin = entry.load()
                if not isinstance(plugin, GamePlugin):
                    raise PluginError(f"{entry.value} is a {type(plugin).__name__}, not a henge GamePlugin")
                if plugin.api_version != PLUGIN_API:
                    raise PluginError(
                        f"it is written for plugin API {plugin.api_version}; this henge reads {PLUGIN_API}"
                    )
            except Exception as error:  # any failure of a foreign package's import must not stop the others
                self.problems[entry.name] = (
                    f"game {entry.name!r} of package {package!r} could not be loaded: {type(error).__name__}: {error}"
                )
                continue
            found.setdefault(plugin.id, []).append((package, plugin))
        for game_id, entries in found.items():
            if len(entries) > 1:
                packages = " and ".join(repr(p) for p, _ in entries)
                self.problems[game_id] = f"game id {game_id!r} is offered by two packages, {packages}: uninstall one"
            else:
                self.plugins[game_id] = entries[0][1]

    def plugin(self, game_id: str) -> GamePlugin:
        plugin = self.plugins.get(game_id)
        if plugin is not None:
            return plugin
        if game_id in self.problems:
            raise PluginError(self.problems[game_id])
        raise ValueError(f"unknown game {game_id!r}; games: {', '.join(self.plugins)}")

    def game_class(self, game_id: str) -> type[Game]:
        cls = self.classes.get(game_id)
        if cls is None:
            plugin = self.plugin(game_id)
            try:
                cls = plugin.game_class()
            except PluginError:
                raise
            except Exception as error:
                why = f"game {game_id!r} of package {plugin.package!r} could not be loaded"
                raise PluginError(f"{why}: {type(error).__name__}: {error}") from error
            self.classes[game_id] = cls
        return cls


_registry: _Registry | None = None


def _games() -> _Registry:
    global _registry
    if _registry is None:
        registry = _Registry()
        registry.discover()
        _registry = registry
    return _registry


def reload_games() -> None:
    """Forgets the games found so far; the next look-up reads the installed entry points again."""
    global _registry
    _registry = None


def list_games() -> list[str]:
    """Returns the ids of every installed game that loads."""
    return list(_games().plugins)


def game_problems() -> list[str]:
    """Returns one message per installed game package that cannot be used (each names its package)."""
    return list(_games().problems.values())


def plugin(game_id: str) -> GamePlugin:
    """Returns the descriptor of a game: its Game class, bot, narrator and drawings."""
    return _games().plugin(game_id)


def game_class(game_id: str) -> type[Game]:
    """Returns the Game class of a game id; raises ValueError naming the known ids."""
    return _games().game_class(game_id)


def load(game_id: str, players: int | None = None, **options: Any) -> Game:
    """Returns the game ``game_id`` for ``players`` seats (default: its fewest) with options."""
    cls = game_class(game_id)
    return cls(cls.info.min_players if players is None else players, **options)


@dataclass(frozen=True)
class Step:
    """One applied action as turns see it: who took it (CHANCE for a chance outcome) and whether
    it was a reveal (:meth:`State.reveals`; always False for chance)."""

    actor: int
    reveal: bool = False


@dataclass(frozen=True)
class Turn:
    """A turn: ``seat``'s decisions ``steps[start:end]``, a maximal run of one seat's decisions
    with no other seat's decision, chance event or reveal between; a reveal ends its turn."""

    seat: int
    start: int
    end: int


def steps_of(game: Game, history: Sequence[int]) -> list[Step]:
    """Returns the steps of ``history`` (every action, chance outcomes included) replayed from the
    start of ``game``: who took each and whether it was a reveal."""
    state = game.new_initial_state()
    found = []
    for action in history:
        actor = state.current_player()
        found.append(Step(actor, actor >= 0 and state.reveals(action)))
        state.apply_action(action)
    return found


def turns(steps: Sequence[Step]) -> list[Turn]:
    """Returns the turns of a game's steps, oldest first (chance steps belong to none)."""
    found: list[Turn] = []
    start = 0
    for index, step in enumerate(steps):
        if step.actor < 0:
            start = index + 1
            continue
        opened = index == start or steps[index - 1].actor != step.actor or steps[index - 1].reveal
        if opened:
            start = index
            found.append(Turn(step.actor, index, index + 1))
        else:
            found[-1] = Turn(step.actor, start, index + 1)
    return found


def latest_turns(steps: Sequence[Step], end: int | None = None) -> Iterator[Turn]:
    """Yields the turns of ``steps[:end]`` newest first, as :func:`turns` finds them, reading back
    from ``end`` only as far as the caller asks (the latest turns of a long game cost no more)."""
    index = len(steps) if end is None else end
    while index > 0:
        step = steps[index - 1]
        if step.actor < 0:
            index -= 1
            continue
        start = index - 1
        while start > 0 and steps[start - 1].actor == step.actor and not steps[start - 1].reveal:
            start -= 1
        yield Turn(step.actor, start, index)
        index = start


def open_turn(steps: Sequence[Step], to_move: int) -> int:
    """Returns how many of the last ``steps`` are the turn ``to_move`` has in progress: its own
    decisions since the last chance event, other seat's decision or reveal (0 if none). These are
    the steps a seat may take back (undo) and that nobody else sees until the turn ends."""
    count = 0
    for step in reversed(steps):
        if step.actor != to_move or step.reveal:
            break
        count += 1
    return count


def uniform(actions: Sequence[int]) -> list[tuple[int, float]]:
    """Returns uniform chance outcomes over ``actions`` (sorted by the caller)."""
    p = 1.0 / len(actions)
    return [(a, p) for a in actions]


def shared_win(players: int, winners: Sequence[int]) -> list[float]:
    """Returns G4's returns: each winner an equal share of 1, everyone else 0."""
    result = [0.0] * players
    if winners:
        share = 1.0 / len(winners)
        for seat in winners:
            result[seat] = share
    return result


def check(condition: bool, message: str) -> None:
    """Raises StateFormatError with ``message`` unless ``condition`` holds (for _load)."""
    if not condition:
        raise StateFormatError(message)


def load_int(value: Any, low: int, high: int, name: str) -> int:
    """Returns ``value`` if it is an integer in ``low..high`` (not a bool); raises StateFormatError."""
    check(
        isinstance(value, int) and not isinstance(value, bool) and low <= value <= high,
        f"{name} must be an integer in {low}..{high}",
    )
    return int(value)


def load_cards(values: Any, name: str, allowed: Collection[int], allowed_text: str) -> list[int]:
    """Returns the card ids of a JSON list of card texts, each in ``allowed``; raises StateFormatError."""
    check(isinstance(values, list) and all(isinstance(v, str) for v in values), f"{name} must be a list of card texts")
    cards = []
    for text in values:
        try:
            card = box.parse_card(text)
        except ValueError as error:
            raise StateFormatError(f"{name}: {error}") from None
        check(card in allowed, f"{name}: {text} cannot be there; only {allowed_text}")
        cards.append(card)
    return cards


Chooser = Callable[[State], int]
