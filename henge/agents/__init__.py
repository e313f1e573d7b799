"""Players for every game: bots by name, the levels people play against, and the interface they share.

A level (``beginner``, ``casual``, ``strong``: :mod:`henge.agents.levels`) is one of the bots below with
documented settings, and is named by its word alone. A bot is named by a word, optionally followed by settings:
``ismcts:iterations=1000:c=0.5:depth=4`` (settings: ``iterations``,
``seconds`` a cap in processor seconds, ``c`` the UCT constant, ``depth`` the rollout depth or
``none`` for rollouts to the end, ``baseline`` 1 or 0, ``tries`` the samples
weighed per determinization, ``worlds`` the determinizations per decision,
``reuse`` 1 or 0, ``guide`` the bias towards the rule-based player's choice,
``finish`` the decisions it may take to finish a turn, ``hrollout`` 1 for
rollouts played by the rule-based player, ``settle`` the decisions a rollout may go on for to a
position the game's evaluation compares fairly, 0 for none; see :mod:`henge.agents.ismcts`;
``heuristic:err=0.3`` plays a random legal action at that chance of each decision).
``rules-search:iterations=1000:depth=8`` searches with nothing but the rules and their reading of
progress (settings ``iterations``, ``seconds``, ``c``, ``depth``, ``worlds``, ``mast``, ``reuse``; see
:mod:`henge.agents.rules_search`). ``mcts-cheat`` and
``openspiel-ismcts`` (OpenSpiel's ISMCTS, :mod:`henge.adapters.openspiel_bot`, which needs the optional
OpenSpiel package) are for evaluation only: they are not offered as opponents and ``make_agent`` makes
them only when asked with ``evaluation=True``. A bot that lives outside this package is named by a
reference, ``"module:Class"``, and imported only when one is made, so no module here imports the
adapters. ``policy:PATH.npz`` plays a trained network saved as
plain numpy weights (:mod:`henge.agents.policy`; it needs numpy): it is made by name like the others
but, needing a file, is not in the list of bots offered. ``dmc`` plays the weights henge ships for the game
played, trained by deep Monte-Carlo self-play (:mod:`henge.agents.dmc`), or ``dmc:PATH.npz`` a file of them:
it plays only the games and counts with weights (:func:`check_agent` refuses the others, naming those), so
it too is made by name but not offered.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from henge.agents import heuristics
from henge.agents.base import Agent, CheatingAgent, is_cheating
from henge.agents.heuristic import HeuristicAgent
from henge.agents.ismcts import ISMCTSAgent
from henge.agents.levels import LEVELS, RULES_ONLY, Level, LevelAgent, level, level_names
from henge.agents.mcts_cheat import CheatingMCTSAgent
from henge.agents.random_agent import RandomAgent
from henge.agents.rules_search import RulesSearchAgent
from henge.core import Decision, canonical_state, make_decision

_AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": ISMCTSAgent,
    "rules-search": RulesSearchAgent,
}


def _policy(path: str, name: str) -> Any:
    # numpy is needed only by this bot: imported when one is made.
    try:
        from henge.agents.policy import PolicyAgent
    except ModuleNotFoundError as error:
        raise ValueError(f"policy needs numpy ({error}): pip install numpy") from None
    return PolicyAgent(path, name=name)


DMC = "dmc"
"""The bot that plays weights trained by deep Monte-Carlo self-play: ``dmc`` (the shipped weights for the
game played) or ``dmc:PATH.npz`` (:mod:`henge.agents.dmc`)."""


def _dmc(path: str, name: str) -> Any:
    # numpy is needed only by this bot: imported when one is made.
    try:
        from henge.agents.dmc import DMCAgent
    except ModuleNotFoundError as error:
        raise ValueError(f"dmc needs numpy ({error}): pip install numpy") from None
    return DMCAgent(path, name=name)


_EVALUATION_AGENTS: dict[str, Callable[..., Any] | str] = {
    "mcts-cheat": CheatingMCTSAgent,
    "openspiel-ismcts": "henge.adapters.openspiel_bot:OpenSpielISMCTSAgent",
}
"""The evaluation-only bots: a factory, or the reference ``"module:Class"`` of one imported when it is made
(OpenSpiel's bot is an adapter, with an optional extra)."""
_EVALUATION_ONLY = {
    "mcts-cheat": "sees hidden information and plays only in evaluations, never as an opponent",
    "openspiel-ismcts": "needs OpenSpiel (an optional extra) and plays only in evaluations, never as an opponent",
}
_SEARCH_SETTINGS = {
    "iterations": "iterations",
    "seconds": "seconds",
    "c": "exploration",
    "depth": "rollout_depth",
    "baseline": "baseline",
    "tries": "belief_tries",
    "worlds": "determinizations",
    "reuse": "reuse",
    "guide": "guide",
    "finish": "finish",
    "hrollout": "guided_rollout",
    "settle": "settle",
}
_OPENSPIEL_SETTINGS = {"simulations": "simulations", "seconds": "seconds", "c": "exploration", "rollouts": "rollouts"}
_RULES_SEARCH_SETTINGS = {
    "iterations": "iterations",
    "seconds": "seconds",
    "c": "exploration",
    "depth": "depth",
    "worlds": "worlds",
    "mast": "mast",
    "reuse": "reuse",
}
_SETTINGS: dict[str, dict[str, str]] = {
    "heuristic": {"err": "err"},
    "ismcts": _SEARCH_SETTINGS,
    "rules-search": _RULES_SEARCH_SETTINGS,
    "mcts-cheat": _SEARCH_SETTINGS,
    "openspiel-ismcts": _OPENSPIEL_SETTINGS,
}
_WHOLE_NUMBERS = ("iterations", "depth", "tries", "worlds", "finish", "settle", "simulations", "rollouts")


POLICY = "policy"
"""The name of the bot that plays a trained network: ``policy:PATH.npz``."""


def agent_names() -> list[str]:
    """Returns the names of the bots offered as opponents by name (levels aside: :func:`level_names`)."""
    return list(_AGENTS)


def first_opponent(game_id: str) -> str:
    """Returns the bot a person meets first in ``game_id``: the lowest level, or where the game has no
    rule-based player (a plugin game without one), the search that needs nothing but its rules."""
    return level_names()[0] if heuristics.has_heuristic(game_id) else RULES_ONLY


def levels_for(game_id: str) -> list[str]:
    """Returns the levels that play ``game_id``, weakest first (none for a game without a rule-based player)."""
    return level_names() if heuristics.has_heuristic(game_id) else []


def _setting(name: str, key: str, text: str) -> Any:
    if text.lower() == "none":
        return None
    try:
        if key in ("baseline", "reuse", "hrollout"):
            return bool(int(text))
        return int(text) if key in _WHOLE_NUMBERS else float(text)
    except ValueError:
        raise ValueError(f"{name}: setting {key} must be a number or none, not {text!r}") from None


def make_agent(spec: str, *, evaluation: bool = False) -> Any:
    """Returns a new bot from its name and settings; raises ValueError naming the bots there are.

    ``evaluation=True`` also allows the evaluation-only bots (``mcts-cheat``, ``openspiel-ismcts``).
    """
    name, *settings = spec.split(":")
    if name in level_names():
        if settings:
            raise ValueError(f"{name} is a level: it takes no settings (its bots' settings are in docs/agents.md)")
        return LevelAgent(level(name), make_agent)
    if name == POLICY:
        return _policy(spec.partition(":")[2], spec)
    if name == DMC:
        return _dmc(spec.partition(":")[2], spec)
    factories: dict[str, Callable[..., Any] | str] = {**_AGENTS, **_EVALUATION_AGENTS} if evaluation else {**_AGENTS}
    found = factories.get(name)
    if found is None:
        if name in _EVALUATION_AGENTS:
            raise ValueError(f"{name} {_EVALUATION_ONLY[name]}")
        raise ValueError(
            f"unknown bot {name!r}; levels: {', '.join(level_names())}; "
            f"bots: {', '.join(_AGENTS)}, {POLICY}:FILE.npz, {DMC}"
        )
    allowed = _SETTINGS.get(name, {})
    kwargs: dict[str, Any] = {}
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep or key not in allowed:
            names = ", ".join(allowed) or "none"
            raise ValueError(f"{name}: unknown setting {setting!r}; settings: {names}")
        kwargs[allowed[key]] = _setting(name, key, value)
    if kwargs:
        kwargs["name"] = spec
    return _factory(found)(**kwargs)


def _factory(found: Callable[..., Any] | str) -> Callable[..., Any]:
    """Returns a bot's factory: ``found`` itself, or the class its reference ``"module:Class"`` names."""
    if not isinstance(found, str):
        return found
    module, _, name = found.partition(":")
    factory: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return factory


def check_agent(
    spec: str,
    game_id: str,
    *,
    evaluation: bool = False,
    players: int | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Raises ValueError if the bot ``spec`` cannot be made or cannot play ``game_id``.

    With ``players`` (and ``options``) a trained policy is also checked against the game at that
    player count: the count and options it was trained for, its input and output sizes.
    """
    agent = make_agent(spec, evaluation=evaluation)
    if isinstance(agent, LevelAgent):
        if not heuristics.has_heuristic(game_id):
            raise ValueError(
                f"level {spec} plays games with a rule-based player, and {game_id!r} has none; "
                f"bots for any game: {', '.join(n for n in _AGENTS if n != 'heuristic')}"
            )
        return
    if spec.split(":")[0] == POLICY:
        agent.policy.check_game(game_id, players, options)
    if spec.split(":")[0] == DMC:
        agent.check(game_id, players, options)
    if spec.split(":")[0] == "heuristic" and not heuristics.has_heuristic(game_id):
        raise ValueError(f"no heuristic player for {game_id!r}; games with one: {', '.join(heuristics.known())}")


__all__ = [
    "LEVELS",
    "RULES_ONLY",
    "Agent",
    "CheatingAgent",
    "CheatingMCTSAgent",
    "Decision",
    "HeuristicAgent",
    "ISMCTSAgent",
    "Level",
    "LevelAgent",
    "RandomAgent",
    "RulesSearchAgent",
    "agent_names",
    "canonical_state",
    "check_agent",
    "first_opponent",
    "is_cheating",
    "level",
    "level_names",
    "levels_for",
    "make_agent",
    "make_decision",
]
