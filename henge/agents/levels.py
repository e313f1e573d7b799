"""The levels a person plays against: named, ordered configurations of the project's bots.

A level is not a new player: it is one of the bots with settings, documented here and in
``docs/agents.md``, where its place on each game's ladder is measured (decided matches between
neighbouring levels). A level may think less or err on purpose; it never sees more than its seat.
Levels are for games with a rule-based player (the five games of the box); a game without one is
played by the bots that need nothing but its rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from henge.core import Decision

RULES_ONLY = "rules-search"
"""The bot that plays any game from its rules alone (nothing hand-written): offered where a game has no
levels, and suggested where a hand-written player does not know a run's rules."""


@dataclass(frozen=True)
class Level:
    """A named level: the bot that plays it (a spec) in every game, or in one game its own."""

    name: str
    plays: str
    """One line on how it plays, as the lobby shows it."""
    spec: str
    """The bot and settings that play it."""
    games: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """A game's own spec where it differs (keyed by game id)."""

    def spec_for(self, game_id: str) -> str:
        """Returns the spec of the bot that plays this level in ``game_id``."""
        return self.games.get(game_id, self.spec)


LEVELS: tuple[Level, ...] = (
    Level(
        name="beginner",
        plays="plays by rules of thumb but often makes a random move; short games, easy to beat",
        spec="heuristic:err=0.3",
        # A random move in Spell Casting often wastes a turn: fewer of them keep its games as short as
        # the rule-based players' own (docs/agents.md, "Levels").
        games=MappingProxyType({"spell_casting": "heuristic:err=0.15"}),
    ),
    Level(
        name="casual",
        plays="plays each game's rules of thumb at once, never a random move",
        spec="heuristic",
    ),
    Level(
        name="strong",
        plays="searches sampled futures from what its seat knows, guided by the rules of thumb",
        spec="ismcts",
        # Named outright where they differ from the game's own defaults (Druid Olympics and First Druid
        # 100 iterations, Spell Casting 50): the ladder's matches were played with these settings. At
        # 100 iterations Druid Olympics' search was level with its guide at 4 and 5 players.
        games=MappingProxyType(
            {
                "druid_olympics": "ismcts:iterations=300",
                "first_druid": "ismcts:iterations=100",
                "spell_casting": "ismcts:iterations=100",
            }
        ),
    ),
)
"""The levels, weakest first."""

_BY_NAME = {level.name: level for level in LEVELS}


def level_names() -> list[str]:
    """Returns the levels' names, weakest first."""
    return [level.name for level in LEVELS]


def level(name: str) -> Level:
    """Returns the level of that name; raises ValueError naming the levels."""
    found = _BY_NAME.get(name)
    if found is None:
        raise ValueError(f"unknown level {name!r}; levels: {', '.join(_BY_NAME)}")
    return found


class LevelAgent:
    """Plays a level: in each game, the bot its level names for that game (made on its first decision)."""

    def __init__(self, chosen: Level, make: Any) -> None:
        self.level = chosen
        self.name = chosen.name
        self._make = make
        self._agents: dict[str, Any] = {}
        kinds = {make(spec).needs_samples for spec in (chosen.spec, *chosen.games.values())}
        if len(kinds) != 1:
            raise ValueError(f"level {chosen.name}: its bots must all sample or none")
        self.needs_samples: bool = kinds.pop()

    def choose(self, decision: Decision) -> int:
        """Returns the action of the level's bot for the decision's game."""
        game_id = decision.game_id
        agent = self._agents.get(game_id)
        if agent is None:
            agent = self._agents[game_id] = self._make(self.level.spec_for(game_id))
        chosen: int = agent.choose(decision)
        return chosen
