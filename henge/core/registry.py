"""The plugin contract (:class:`GamePlugin`) and the registry of installed games.

Games are found through the ``henge.games`` entry-point group, so the core imports none.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata, resources
from types import ModuleType
from typing import Any, cast

from henge.core.parts import PARTS, mismatch, written
from henge.core.state import Game

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
    them, so listing the games imports no drawing, bot or narrator; each is checked against its
    interface (:mod:`henge.core.parts`) when first loaded. Only ``game`` is required; a layer
    falls back on its generic part where a game names none.
    """

    id: str
    """The game id, as written in records, on the command line and in addresses."""
    package: str
    """The Python package holding the parts, e.g. ``henge.games.stonerush``."""
    game: str
    """``module:Class`` of the :class:`Game` subclass, e.g. ``rules:Stonerush``."""
    bot: str | None = None
    """Module of the rule-based player: ``choose(decision) -> action``."""
    search: str | None = None
    """Module of what a search knows of the game: ``evaluate(state)``, optionally ``settled``, ``belief``,
    ``SEARCH`` and ``OPENSPIEL_SECONDS`` (:class:`~henge.core.parts.SearchPart`, :mod:`henge.agents.heuristics`)."""
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

    def load_part(self, part: str) -> Any:
        """Returns the part the plugin names in its field ``part`` (``"bot"``, ``"narrator"`` ...), or None
        where it names none.

        The part is imported and checked against its interface (:mod:`henge.core.parts`) the first
        time it is asked for; a part that is missing, fails to import or does not match its
        interface raises :class:`PluginError` naming the game and the part."""
        if part not in PARTS:
            raise ValueError(f"{part!r} is no part a plugin names; parts: {', '.join(PARTS)}")
        reference = getattr(self, part)
        if reference is None:
            return None
        key = (self, part)
        if key not in _loaded_parts:
            _loaded_parts[key] = self._checked(part, reference)
        return _loaded_parts[key]

    def _checked(self, part: str, reference: str) -> Any:
        module_name, _, attribute = reference.partition(":")
        where = f"{self.package}.{module_name}"
        said = f"game {self.id!r}: its {part} part {where}"
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as error:
            if error.name is not None and (where == error.name or where.startswith(f"{error.name}.")):
                raise PluginError(f"{said} is missing: there is no module {where}") from error
            raise PluginError(f"{said} could not be loaded: {type(error).__name__}: {error}") from error
        except Exception as error:  # a foreign package's failure, named with the part it broke
            raise PluginError(f"{said} could not be loaded: {type(error).__name__}: {error}") from error
        if attribute and not hasattr(module, attribute):
            raise PluginError(f"{said} has no {written(part, attribute)}")
        found = getattr(module, attribute) if attribute else module
        problem = mismatch(part, found, attribute or None)
        if problem is not None:
            raise PluginError(f"{said} {problem}")
        return found

    def load_bot(self) -> ModuleType | None:
        """Returns the rule-based player's module (:class:`~henge.core.parts.PlayerPart`), or None."""
        return cast(ModuleType | None, self.load_part("bot"))

    def load_search(self) -> ModuleType | None:
        """Returns the search knowledge's module (:class:`~henge.core.parts.SearchPart`), or None."""
        return cast(ModuleType | None, self.load_part("search"))

    def load_narrator(self) -> Callable[[Any, Any], list[str]] | None:
        """Returns the narrator (:class:`~henge.core.parts.NarratorPart`), or None."""
        return cast(Callable[[Any, Any], list[str]] | None, self.load_part("narrator"))

    def load_terminal(self) -> ModuleType | None:
        """Returns the terminal drawing's module (:class:`~henge.core.parts.DrawingPart`), or None."""
        return cast(ModuleType | None, self.load_part("terminal"))

    def load_preview(self) -> Callable[[Any, int, str], str | None] | None:
        """Returns the game's preview function (:class:`~henge.core.parts.PreviewPart`), or None."""
        return cast(Callable[[Any, int, str], str | None] | None, self.load_part("preview"))

    def load_encoder(self) -> ModuleType | None:
        """Returns the tensor encoding's module (:class:`~henge.core.parts.EncoderPart`), or None."""
        return cast(ModuleType | None, self.load_part("encoder"))

    def load_metrics(self) -> Callable[[Game, Sequence[int], Sequence[float]], dict[str, float | str]] | None:
        """Returns the game's own figures for the analysis (:class:`~henge.core.parts.MetricsPart`), or None."""
        return cast(
            Callable[[Game, Sequence[int], Sequence[float]], dict[str, float | str]] | None, self.load_part("metrics")
        )

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


_loaded_parts: dict[tuple[GamePlugin, str], Any] = {}
"""The parts loaded and checked so far, by plugin and field (forgotten by :func:`reload_games`)."""


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
    _loaded_parts.clear()


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
