"""Per-game knowledge for bots: a rule-based player and what a search knows of the game.

A game's descriptor names its parts (:mod:`henge.core.parts`, checked when first loaded):

* ``bot``, the rule-based player (``henge/games/<id>/bot.py`` for the games that ship
  with henge): ``choose(decision) -> int``, a small, readable player that reads only the
  decision (the seat's observation, the legal actions and the bot's generator);
* ``search``, what a search knows of the game (``search.py``):

  * ``evaluate(state) -> list[float]``: each seat's chance of winning from a full state, used
    by the search bots at the end of a truncated rollout. Search bots only ever hold states
    sampled from their seat's information set (or, for ``mcts-cheat``, the real one), so
    reading a state here gives away nothing.
  * optionally ``settled(state) -> bool``: True where the evaluation compares the seats fairly
    (Druid Olympics: at the start of a turn, when every runner has had as many moves). A search
    plays its rollouts on to such a position before it reads the evaluation (``ismcts``'s
    ``settle``).
  * optionally ``SEARCH``: settings of ``ismcts`` that suit the game (its budget, its rollouts),
    over the search's defaults;
  * optionally ``belief(observation) -> weigh``: from what the seat saw, a function giving a
    sampled state a weight in [0, 1] in proportion to how likely the seat's observations would
    be if it were the truth (e.g. rivals mostly push their own druids forward). ``ismcts`` keeps
    samples in proportion to it.
  * optionally ``OPENSPIEL_SECONDS``: the processor seconds per decision of ``ismcts`` by player
    count, the budget that gives OpenSpiel's ISMCTS equal time (``openspiel-ismcts``).

  A game that names no ``search`` module may keep these in its bot module.

Both parts are written by hand, so each may say what it was written for: ``GAMES``, the ids of the
games whose rules it knows, and ``OPTIONS``, the options it understands (it reads them, or plays their
effect correctly). A :class:`Knowledge` carries them as :class:`WrittenFor`; :mod:`henge.agents.blind`
warns from them when a run changes a rule a part does not know.

A search reads all of it as one :class:`Knowledge`, resolved once per game (:func:`knowledge`).
Bot and search modules never import their game's rules: they know the rules as a player does
and read states through the public State API alone (import contracts in pyproject.toml say so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from henge.core import Decision, GamePlugin, PluginError, State, list_games, plugin

Guide = Callable[[Decision], int]
Evaluator = Callable[[State], list[float]]
Settled = Callable[[State], bool]
Belief = Callable[[State], float]
BeliefMaker = Callable[[dict[str, Any]], Belief | None]


@dataclass(frozen=True)
class WrittenFor:
    """What one hand-written part says it was written for (its ``GAMES`` and ``OPTIONS``; None: it does not say)."""

    part: str
    """``bot`` (the rule-based player) or ``search`` (the position evaluation)."""
    module: str
    """The module it is, e.g. ``henge.games.stonerush.bot``."""
    games: tuple[str, ...] | None
    options: tuple[str, ...] | None


@dataclass(frozen=True, eq=False)
class Knowledge:
    """What a search knows of one game, read once from its plugin's parts (see the module)."""

    guide: Guide | None = None
    """The rule-based player (its bot's ``choose``), which guides a search; None for a game without one."""
    evaluate: Evaluator | None = None
    """The position evaluation; None: a search plays out to the end."""
    settled: Settled | None = None
    """Where the evaluation may be read; None: anywhere."""
    belief: BeliefMaker | None = None
    """From a seat's observation, the weight it gives sampled states (or None); None: uniform samples."""
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The game's own search settings (``SEARCH``), over the search's defaults."""
    openspiel_seconds: Mapping[int, float] = field(default_factory=lambda: MappingProxyType({}))
    """Processor seconds per decision of ``ismcts`` by player count (``OPENSPIEL_SECONDS``); empty: unknown."""
    guide_written_for: WrittenFor | None = None
    """What the rule-based player says it was written for; None for a game without one."""
    evaluate_written_for: WrittenFor | None = None
    """What the part holding the evaluation says it was written for; None for a game without an evaluation."""


NOTHING = Knowledge()
"""The knowledge of a game without a rule-based player or a search part (or of no game at all)."""


def knowledge(game_id: str) -> Knowledge:
    """Returns what a search knows of ``game_id``, resolved once per game; nothing for an unknown game.

    Raises :class:`~henge.core.PluginError` where a part the game names is missing or does not
    match its interface."""
    try:
        descriptor = plugin(game_id)
    except PluginError:
        raise
    except ValueError:  # no such game
        return NOTHING
    return _knowledge(descriptor)


@cache
def _knowledge(descriptor: GamePlugin) -> Knowledge:
    bot = descriptor.load_bot()
    search = descriptor.load_search()
    if search is None:  # a game whose bot module still holds what a search knows
        search = bot
    if bot is None and search is None:
        return NOTHING
    return Knowledge(
        guide=None if bot is None else bot.choose,
        evaluate=getattr(search, "evaluate", None),
        settled=getattr(search, "settled", None),
        belief=getattr(search, "belief", None),
        settings=MappingProxyType(dict(getattr(search, "SEARCH", {}))),
        openspiel_seconds=MappingProxyType(dict(getattr(search, "OPENSPIEL_SECONDS", {}))),
        guide_written_for=None if bot is None else _written_for("bot", bot, "choose"),
        evaluate_written_for=(
            None
            if getattr(search, "evaluate", None) is None
            else _written_for("search" if search is not bot else "bot", search, "evaluate")
        ),
    )


def _written_for(part: str, module: Any, function: str) -> WrittenFor:
    games = getattr(module, "GAMES", None)
    options = getattr(module, "OPTIONS", None)
    where = getattr(getattr(module, function, None), "__module__", None)  # a part may re-export another's
    return WrittenFor(
        part=part,
        module=where if isinstance(where, str) else getattr(module, "__name__", repr(module)),
        games=None if games is None else tuple(games),
        options=None if options is None else tuple(options),
    )


def known() -> list[str]:
    """Returns the games that have a rule-based player."""
    return [g for g in list_games() if plugin(g).bot is not None]


def has_heuristic(game_id: str) -> bool:
    """Returns True if ``game_id`` has a rule-based player (its parts are not loaded to tell)."""
    return game_id in list_games() and plugin(game_id).bot is not None


def chooser(game_id: str) -> Guide:
    """Returns the rule-based player of a game; raises ValueError naming the games that have one."""
    guide = knowledge(game_id).guide
    if guide is None:
        raise ValueError(f"no heuristic player for {game_id!r}; games with one: {', '.join(known())}")
    return guide


def evaluator(game_id: str) -> Evaluator | None:
    """Returns the position evaluation of a game, or None where there is none."""
    return knowledge(game_id).evaluate
