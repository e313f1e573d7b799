"""The public State API every game implements and every other layer uses: :class:`Game` and :class:`State`.

The names follow OpenSpiel's Python State API so adapters stay thin. A game
package subclasses :class:`Game` and :class:`State`, declares a :class:`GameInfo`,
and offers itself through a :class:`GamePlugin` in the ``henge.games`` entry-point
group (:mod:`henge.core.registry`).

Rules never touch a random number generator (RULINGS G1): every shuffle, deal
and draw is a chance node whose outcomes the caller samples.
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import cython

from henge.core.errors import IllegalActionError, StateFormatError
from henge.core.history import HISTORY_BLOCK, Past, _blocks, _flatten
from henge.core.info import GameInfo
from henge.core.outcomes import shared_win, uniform
from henge.core.record import Deferred, made

if not cython.compiled:  # compiled, state.pxd cimports it
    from henge.core.record import Event

CHANCE = -1
"""``current_player()`` at a chance node."""
TERMINAL = -4
"""``current_player()`` once the game is over."""

JSON_FORMAT = "henge-state"

_BLOCK = cython.declare(cython.Py_ssize_t, HISTORY_BLOCK)


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


@cython.auto_pickle(False)
@cython.cclass
class State:
    """A game position. Subclasses implement the underscored hooks; the public API lives here.

    Compiled, it is an extension type whose fields are the ones named in ``__slots__`` (a game's
    subclass is a plain class that adds slots of its own, on either path)."""

    __slots__ = ("_legal", "_log", "_past", "_recent", "game")  # compiled: the fields declared in state.pxd

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

    if not cython.compiled:  # a game's own field (an annotation here would make it a field of the compiled class)
        winners: Sequence[int]
        """The seats that won (G4: they share 1 equally); read once the game is over."""

    def returns(self) -> list[float]:
        """Returns each seat's result: G4's shared win once the game is over, all zero until then.

        A game whose results are not a shared win overrides this."""
        return shared_win(self.game.num_players, self.winners if self.is_terminal() else ())

    def progress(self) -> list[float] | None:
        """Returns each seat's standing by the rules' own count, in [0, 1], higher better; or None.

        A reading of progress that the rules define beside the rules, read from the full state:
        facts of the position (each seat's score share, how far its piece has come of the way it
        has to go), never advice on what to play. Once the game is over it gives the returns
        scaled to [0, 1] (:func:`scaled_returns`). A search that knows nothing else of a game cuts
        its playouts short and reads this there (``rules-search``, :mod:`henge.agents.rules_search`),
        so its play follows any change to the rules. None (the default): the game defines no such
        reading, and a search plays out to the end."""
        return None

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
            p = 1.0 / len(legal)
            return [(a, p) for a in legal]  # as uniform() gives them
        return self._chance_outcomes()

    @cython.locals(recent=list)
    def apply_action(self, action: int) -> None:
        """Applies a legal action; raises IllegalActionError and changes nothing otherwise."""
        if type(action) is not int:
            action = _as_action(action)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if not (_listed(legal, action) if cython.compiled else action in legal):  # Python's own scan when pure
            raise IllegalActionError(self._illegal_message(action))
        self._legal = None  # _apply may set the next legal set where it has computed it anyway
        self._apply(action)
        recent = self._recent
        recent.append(action)
        if len(recent) == _BLOCK:
            self._past = Past(self._past, tuple(recent))
            self._recent = []

    @cython.locals(recent=list)
    def _apply_known(self, action: int) -> None:
        """Applies an action known to be legal, unchecked (a resampler replaying a history it built)."""
        self._legal = None
        self._apply(action)
        recent = self._recent
        recent.append(action)
        if len(recent) == _BLOCK:
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

    @cython.annotation_typing(True)
    def clone(self) -> State:
        """Returns an independent copy (hand-written, no deepcopy). The history's frozen blocks and
        the record are shared, both append-only, so a clone costs the same at any move number."""
        new: State = self._copy()
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
        event = Event.__new__(Event)  # compiled: the type's own allocation, no call of __init__
        event.parent = self._log
        event.actor = actor
        event.public = public
        event.private = private
        event._digests = None
        self._log = event

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

    def __getstate__(self) -> Any:
        """Returns what Python pickles of an instance of a class with slots (on either path: compiled,
        the base's fields are C fields that Python's own reduction would refuse): the instance's
        dict, if any, and each slot that is set, the classes' own from the most derived."""
        slots: dict[str, Any] = {}
        for cls in type(self).__mro__:
            names = cls.__dict__.get("__slots__", ())
            for name in (names,) if isinstance(names, str) else names:
                if name in ("__dict__", "__weakref__"):
                    continue
                if name.startswith("__") and not name.endswith("__") and cls.__name__.lstrip("_"):
                    name = f"_{cls.__name__.lstrip('_')}{name}"
                if hasattr(self, name):
                    slots[name] = getattr(self, name)
        own = getattr(self, "__dict__", None) or None
        return (own, slots) if slots else own

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


_SEARCHED = cython.declare(cython.Py_ssize_t, 8)
"""Compiled, a legal set longer than this is searched by halves (it is sorted) rather than scanned."""
_LARGEST = cython.declare(cython.long, 1 << 62)


@cython.cfunc
@cython.returns(cython.bint)
@cython.locals(size=cython.Py_ssize_t, low=cython.Py_ssize_t, high=cython.Py_ssize_t, middle=cython.Py_ssize_t)
@cython.locals(wanted=cython.long, value=cython.long)
def _listed(legal: Sequence[int], action: int) -> bool:
    """Returns True if ``action`` is in ``legal`` (sorted, as the hooks give it)."""
    size = len(legal)
    if size <= _SEARCHED or type(legal) is not tuple or not -_LARGEST < action < _LARGEST:
        return action in legal
    wanted = action
    low = 0
    high = size
    while low < high:
        middle = (low + high) >> 1
        value = legal[middle]
        if value < wanted:
            low = middle + 1
        else:
            high = middle
    return low < size and legal[low] == wanted


def scaled_returns(state: State) -> list[float]:
    """Returns ``state.returns()`` scaled from the game's utility range to [0, 1]: what a game's
    :meth:`State.progress` gives once the game is over."""
    info = state.game.info
    low = info.min_utility
    span = info.max_utility - low or 1.0
    return [(r - low) / span for r in state.returns()]


def _as_action(action: object) -> int:
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return int(action)
    raise IllegalActionError(f"an action is an integer id, not {action!r}; see legal_actions()")


# --- the plugin contract and the registry ------------------------------------------
