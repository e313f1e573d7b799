"""An analysis: its settings, its games and its figures; a sweep runs one analysis per option value.

Games are tournament tasks (:func:`henge.tournament.tasks`): seats rotate so that every agent
sits in every seat equally often over each full rotation, and game ``i`` of a rotation cycle
takes its seed from the analysis seed and the cycle. Search bots play on iteration budgets
alone (``seconds=none``), never on a clock, so the same seed gives the same games and figures
whatever the number of workers or the backend.

The skill trace plays ``ismcts`` at growing iteration budgets in one seat (each seat in turn)
against the default agent in every other seat, as blocks of a decided match
(:func:`henge.tournament.block_tasks`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from henge.agents import heuristics
from henge.agents.blind import blind_spots, evaluation_blind_spot
from henge.analysis.run import Job, execute
from henge.analysis.stats import proportion, summarize
from henge.core import load
from henge.tournament import (
    MatchConfig,
    TournamentConfig,
    block_tasks,
    lineups,
    match_lineups,
    tasks,
    win_shares,
)

DEFAULT_BUDGETS: tuple[int, ...] = (10, 30, 100, 300)
"""Iteration budgets of the skill trace."""
DEFAULT_TRACE_GAMES = 20
"""Games per budget of the skill trace (rounded up to whole turns of the seats)."""
SEARCH_BOTS = ("ismcts", "mcts-cheat")


def default_agent(game_id: str) -> str:
    """Returns the rule-based player where the game has one, else ``random``."""
    return "heuristic" if heuristics.has_heuristic(game_id) else "random"


def budgeted(spec: str) -> str:
    """Returns a bot name that plays on its iteration budget alone: a search bot gets
    ``seconds=none`` (its processor-time cap would make play depend on the machine's speed);
    raises ValueError for one given a time cap."""
    name, *settings = spec.split(":")
    if name not in SEARCH_BOTS:
        return spec
    for setting in settings:
        key, _, value = setting.partition("=")
        if key == "seconds":
            if value.lower() != "none":
                raise ValueError(
                    f"{spec}: an analysis plays search bots on iteration budgets only, so that a seed gives "
                    "the same games on any machine; drop seconds= (iterations=N sets the budget)"
                )
            return spec
    return f"{spec}:seconds=none"


def trace_bot(budget: int) -> str:
    """Returns the name of the skill trace's search bot at an iteration budget."""
    return f"ismcts:iterations={budget}:seconds=none"


@dataclass(frozen=True)
class AnalysisConfig:
    """What an analysis plays: the game and its options, the agents, how many games, the seed, and
    the skill trace's budgets (none: no trace) and games per budget."""

    game_id: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    budgets: tuple[int, ...] = ()
    trace_games: int = DEFAULT_TRACE_GAMES

    def tournament(self) -> TournamentConfig:
        """Returns the tournament whose games this analysis plays."""
        return TournamentConfig(
            game_id=self.game_id,
            players=self.players,
            agents=tuple(budgeted(a) for a in self.agents),
            games=self.games,
            seed=self.seed,
            options=dict(self.options),
        )

    def validate(self) -> None:
        """Raises ValueError if the game, its options, the seats, the agents, the games or the trace are wrong."""
        self.tournament().validate()
        for budget in self.budgets:
            if budget < 1:
                raise ValueError(f"a skill trace budget is at least one iteration, not {budget}")
        if self.budgets and self.trace_games < 1:
            raise ValueError(f"a skill trace plays at least one game per budget, not {self.trace_games}")

    def trace_match(self, budget: int) -> MatchConfig:
        """Returns the skill trace's match at one budget: the search bot in one seat, the default agent in the rest."""
        return MatchConfig(
            game_id=self.game_id,
            players=self.players,
            focal=trace_bot(budget),
            opponents=(default_agent(self.game_id),),
            focal_seats=1,
            seed=self.seed,
            options=dict(self.options),
        )

    def jobs(self, run: int = 0) -> list[Job]:
        """Returns the games to play: the analysis's own, then the skill trace's, budget by budget."""
        found = [Job("", task, run) for task in tasks(self.tournament())]
        for budget in self.budgets:
            match = self.trace_match(budget)
            table = match_lineups(match)
            blocks = math.ceil(self.trace_games / len(table))
            found.extend(Job(match.focal, t, run) for b in range(blocks) for t in block_tasks(match, b, table))
        return found

    def lineup(self) -> list[str]:
        """Returns every bot the analysis plays: its agents, and the skill trace's search and default agent."""
        found = list(self.agents)
        if self.budgets:
            found += [trace_bot(self.budgets[0]), default_agent(self.game_id)]
        return found

    def warnings(self, swept: Sequence[str] = ()) -> list[str]:
        """Returns a warning per bot whose hand-written part does not know this run's rules: an option set
        to other than its standard value (or ``swept``) it does not declare, or a game it was not written
        for (:func:`henge.agents.blind.blind_spots`); and one where the evaluation the lead figures are read
        with does not (:func:`henge.agents.blind.evaluation_blind_spot`)."""
        found = blind_spots(self.game_id, self.lineup(), self.options, swept)
        lead = evaluation_blind_spot(self.game_id, self.options, swept)
        return found if lead is None else [*found, lead]

    def rotation(self) -> int:
        """Returns how many games make one full rotation of the seats."""
        return len(lineups(self.tournament().agents, self.players))


@dataclass
class Analysis:
    """An analysis played: its settings, its games' rows (and the skill trace's), its figures."""

    config: AnalysisConfig
    rows: list[dict[str, Any]]
    trace_rows: list[dict[str, Any]]
    summary: dict[str, Any]
    skill: list[dict[str, Any]]
    wall_seconds: float
    backend: str
    warnings: list[str] = field(default_factory=list)
    """Bots whose hand-written parts do not know this run's rules (:meth:`AnalysisConfig.warnings`)."""


def skill_trace(config: AnalysisConfig, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Returns the search bot's win share per budget, with a Wilson interval over its games."""
    found = []
    for budget in config.budgets:
        bot = trace_bot(budget)
        games = [row for row in rows if row["label"] == bot]
        wins = sum(
            share
            for row in games
            for seat, share in enumerate(win_shares(row["returns"]))
            if row["agents"][seat] == bot
        )
        found.append({"budget": budget, "bot": bot} | proportion(wins, len(games)))
    return found


def play(
    configs: Sequence[AnalysisConfig],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> list[Analysis]:
    """Plays the games of several analyses together (one pool, one Ray session) and returns each."""
    for config in configs:
        config.validate()
    jobs = [job for run, config in enumerate(configs) for job in config.jobs(run)]
    start = time.perf_counter()
    rows = execute(jobs, workers=workers, ray_address=ray_address, on_row=on_row)
    wall = time.perf_counter() - start
    backend = f"Ray at {ray_address}" if ray_address is not None else f"{workers} worker process(es)"
    found = []
    for run, config in enumerate(configs):
        own = [row for row in rows if row["run"] == run and row["label"] == ""]
        traced = [row for row in rows if row["run"] == run and row["label"] != ""]
        summary = summarize(own, config.players, config.seed)
        analysis = Analysis(config, own, traced, summary, skill_trace(config, traced), wall, backend)
        analysis.warnings = config.warnings()
        found.append(analysis)
    return found


def analyze(
    config: AnalysisConfig,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> Analysis:
    """Plays an analysis's games and returns its figures (see the module docstring)."""
    return play([config], workers=workers, ray_address=ray_address, on_row=on_row)[0]


@dataclass
class Sweep:
    """A sweep played: per knob (an option), the analysis at each of its values."""

    base: AnalysisConfig
    knobs: list[tuple[str, list[tuple[Any, Analysis]]]]
    wall_seconds: float
    backend: str
    warnings: list[str] = field(default_factory=list)
    """Bots whose hand-written parts do not know the rules swept or set (:meth:`AnalysisConfig.warnings`)."""


def sweep_configs(base: AnalysisConfig, knobs: Sequence[tuple[str, Sequence[Any]]]) -> list[AnalysisConfig]:
    """Returns the distinct analyses of a sweep: the base options with one knob at each of its values."""
    found: dict[tuple[tuple[str, str], ...], AnalysisConfig] = {}
    for name, values in knobs:
        for value in values:
            config = replace(base, options={**base.options, name: value})
            found.setdefault(_key(config), config)
    return list(found.values())


def _key(config: AnalysisConfig) -> tuple[tuple[str, str], ...]:
    game = load(config.game_id, config.players, **config.options)
    return tuple(sorted((k, repr(v)) for k, v in getattr(game, "settings", game.options).items()))


def sweep(
    base: AnalysisConfig,
    knobs: Sequence[tuple[str, Sequence[Any]]],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> Sweep:
    """Runs the analysis at every value of each knob (the other options as in ``base``); a value
    shared by two knobs' settings is played once."""
    configs = sweep_configs(base, knobs)
    played = play(configs, workers=workers, ray_address=ray_address, on_row=on_row)
    by_key = {_key(a.config): a for a in played}
    found = []
    for name, values in knobs:
        found.append(
            (name, [(value, by_key[_key(replace(base, options={**base.options, name: value}))]) for value in values])
        )
    wall = played[0].wall_seconds if played else 0.0
    warnings = base.warnings(swept=[name for name, _ in knobs])
    return Sweep(base, found, wall, played[0].backend if played else "", warnings)
