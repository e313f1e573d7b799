"""Tournaments: many games between bots, seats rotated fairly, played in parallel, summarised.

**Seats.** With ``k`` agents at ``n`` seats every agent sits ``n // k``
times at each table, the ``n % k`` extra seats going to every subset of
agents in turn, and every distinct arrangement of those seats is played
(:func:`lineups`). A cycle of all lineups puts every agent in every seat
equally often. All games of one cycle share a seed, so the same deal is
played from every seat (the draws after the deal differ as play does).

**Reproducible.** Game ``i`` plays lineup ``i mod L`` with a seed drawn from
the tournament seed and ``i // L``; bots are made afresh for every game and
draw only from their seat's generator. The same seed and arguments give the
same games whatever the number of worker processes (only the timings
differ).

**Figures** per agent (:func:`summarize`): seats played, wins (a win shared
by ``m`` seats counts ``1/m`` to each), win rate per seat with a 95%
percentile bootstrap interval (whole games resampled, so seats of one game
stay together), mean return, an Elo rating fitted to every game
(:func:`elo_ratings`), and seconds per decision.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rich import box
from rich.table import Table

from henge.agents import Decision, check_agent, is_cheating, make_agent
from henge.engine import State, load
from henge.records import play

RESULTS_FORMAT = "henge-tournament"
BOOTSTRAP_RESAMPLES = 2000
ELO_BASE = 1500.0


@dataclass(frozen=True)
class TournamentConfig:
    """What a tournament plays: the game, its seats, the agents, how many games and the seed."""

    game_id: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        """Raises ValueError if the game, seats, agents or number of games are wrong."""
        load(self.game_id, self.players, **self.options)
        if not self.agents:
            raise ValueError("name at least one agent")
        if len(set(self.agents)) != len(self.agents):
            raise ValueError("name each agent once")
        for spec in self.agents:
            check_agent(spec, self.game_id, evaluation=True)
        if self.games < 1:
            raise ValueError(f"play at least one game, not {self.games}")


def lineups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Returns every seat assignment of a balanced rotation (see the module docstring), in a fixed order."""
    k = len(agents)
    base, extra = divmod(players, k)
    found: list[tuple[str, ...]] = []
    for lucky in itertools.combinations(range(k), extra):
        seats: list[str] = []
        for index, agent in enumerate(agents):
            seats.extend([agent] * (base + (index in lucky)))
        found.extend(sorted(set(itertools.permutations(seats)), key=lambda p: [agents.index(a) for a in p]))
    return found


def game_seed(seed: int, cycle: int) -> int:
    """Returns the seed of every game of one rotation cycle."""
    return random.Random(f"henge/tournament/{seed}/{cycle}").getrandbits(62)


def win_shares(returns: Sequence[float]) -> list[float]:
    """Returns each seat's share of the win: the seats with the best return share 1."""
    best = max(returns)
    top = [r == best for r in returns]
    share = 1.0 / sum(top)
    return [share if t else 0.0 for t in top]


class _Timed:
    """Wraps an agent to count its decisions and time them."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name: str = agent.name
        self.needs_samples: bool = agent.needs_samples
        self.cheats: bool = is_cheating(agent)
        self.decisions = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.longest = 0.0

    def _timed(self, call: Callable[[], int]) -> int:
        start = time.perf_counter()
        cpu = time.process_time()
        action = call()
        spent = time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu
        self.decisions += 1
        self.seconds += spent
        self.longest = max(self.longest, spent)
        return action

    def choose(self, decision: Decision) -> int:
        return self._timed(lambda: self.agent.choose(decision))

    def choose_with_state(self, decision: Decision, state: State) -> int:
        return self._timed(lambda: self.agent.choose_with_state(decision, state))


@dataclass(frozen=True)
class _Task:
    index: int
    game_id: str
    players: int
    options: dict[str, Any]
    lineup: tuple[str, ...]
    seed: int


def play_game(task: _Task) -> dict[str, Any]:
    """Plays one game of a tournament; returns its result with per-seat timings."""
    game = load(task.game_id, task.players, **task.options)
    seats = [_Timed(make_agent(spec, evaluation=True)) for spec in task.lineup]
    record = play(game, seats, seed=task.seed)
    return {
        "index": task.index,
        "seed": task.seed,
        "lineup": list(task.lineup),
        "returns": record["returns"],
        "length": len(record["actions"]),
        "decisions": [s.decisions for s in seats],
        "seconds": [s.seconds for s in seats],
        "cpu_seconds": [s.cpu_seconds for s in seats],
        "longest": [s.longest for s in seats],
    }


def tasks(config: TournamentConfig) -> list[_Task]:
    """Returns the games of a tournament, in order."""
    table = lineups(config.agents, config.players)
    return [
        _Task(
            i,
            config.game_id,
            config.players,
            dict(config.options),
            table[i % len(table)],
            game_seed(config.seed, i // len(table)),
        )
        for i in range(config.games)
    ]


def run(
    config: TournamentConfig,
    *,
    workers: int = 1,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Plays every game of a tournament in ``workers`` processes; returns the results in game order."""
    config.validate()
    todo = tasks(config)
    results: list[dict[str, Any]] = []
    if workers <= 1:
        for task in todo:
            results.append(play_game(task))
            if on_game is not None:
                on_game(results[-1])
    else:
        with multiprocessing.get_context().Pool(workers) as pool:
            for result in pool.imap_unordered(play_game, todo, chunksize=1):
                results.append(result)
                if on_game is not None:
                    on_game(result)
    results.sort(key=lambda r: r["index"])
    return results


# --- statistics ---------------------------------------------------------------------


def bootstrap_interval(
    samples: Sequence[tuple[float, float]],
    rng: random.Random,
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    level: float = 0.95,
) -> tuple[float, float]:
    """Returns the percentile bootstrap interval of sum(wins) / sum(seats) over (wins, seats) per game."""
    if not samples:
        return (math.nan, math.nan)
    count = len(samples)
    wins = [w for w, _ in samples]
    seats = [s for _, s in samples]
    games = range(count)
    rates = []
    for _ in range(resamples):
        picks = rng.choices(games, k=count)
        rates.append(sum([wins[i] for i in picks]) / sum([seats[i] for i in picks]))
    rates.sort()
    tail = (1.0 - level) / 2
    low = rates[round(tail * (resamples - 1))]
    high = rates[round((1.0 - tail) * (resamples - 1))]
    return (low, high)


def pairwise_scores(results: Sequence[dict[str, Any]]) -> dict[tuple[str, str], tuple[float, float]]:
    """Returns {(a, b): (score of a against b, comparisons)} from every pair of seats of different agents.

    Two seats compare by their win shares: a winner scores 1 against a loser,
    seats sharing a win score 1/2 each, and two losers are not compared.
    """
    table: dict[tuple[str, str], list[float]] = {}
    for result in results:
        shares = win_shares(result["returns"])
        lineup = result["lineup"]
        for i, j in itertools.permutations(range(len(lineup)), 2):
            a, b = lineup[i], lineup[j]
            both = shares[i] + shares[j]
            if a == b or both == 0:
                continue
            entry = table.setdefault((a, b), [0.0, 0.0])
            entry[0] += shares[i] / both
            entry[1] += 1
    return {pair: (score, games) for pair, (score, games) in table.items()}


def elo_ratings(
    agents: Sequence[str], scores: dict[tuple[str, str], tuple[float, float]], *, prior: float = 1.0
) -> dict[str, float]:
    """Returns Elo ratings (mean 1500) fitted by maximum likelihood to pairwise scores (Bradley-Terry).

    The chance that ``a`` scores against ``b`` is ``1 / (1 + 10 ** ((R_b - R_a) / 400))``. Fitted with
    Hunter's MM iterations, independent of game order. ``prior`` adds that many drawn games to every
    pair that met, so an agent that never lost still gets a finite rating.
    """
    wins = dict.fromkeys(agents, 0.0)
    met: dict[tuple[str, str], float] = {}
    for (a, b), (score, games) in scores.items():
        wins[a] += score + prior / 2
        met[(a, b)] = games + prior
    strength = dict.fromkeys(agents, 1.0)
    for _ in range(10_000):
        new = {}
        for a in agents:
            denominator = sum(games / (strength[a] + strength[b]) for (x, b), games in met.items() if x == a)
            new[a] = wins[a] / denominator if denominator else strength[a]
        mean_log = sum(math.log(s) for s in new.values()) / len(new)
        new = {a: s / math.exp(mean_log) for a, s in new.items()}
        change = max(abs(new[a] - strength[a]) for a in agents)
        strength = new
        if change < 1e-12:
            break
    return {a: ELO_BASE + 400.0 * math.log10(strength[a]) for a in agents}


def summarize(config: TournamentConfig, results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns one row of figures per agent (see the module docstring)."""
    rng = random.Random(f"henge/tournament/{config.seed}/bootstrap")
    ratings = elo_ratings(config.agents, pairwise_scores(results))
    rows = []
    for agent in config.agents:
        per_game: list[tuple[float, float]] = []
        total_return = 0.0
        decisions = 0
        seconds = cpu_seconds = longest = 0.0
        for result in results:
            shares = win_shares(result["returns"])
            seats = [k for k, a in enumerate(result["lineup"]) if a == agent]
            if not seats:
                continue
            per_game.append((sum(shares[k] for k in seats), float(len(seats))))
            total_return += sum(result["returns"][k] for k in seats)
            decisions += sum(result["decisions"][k] for k in seats)
            seconds += sum(result["seconds"][k] for k in seats)
            cpu_seconds += sum(result["cpu_seconds"][k] for k in seats)
            longest = max([longest] + [result["longest"][k] for k in seats])
        seat_count = sum(s for _, s in per_game)
        wins = sum(w for w, _ in per_game)
        low, high = bootstrap_interval(per_game, rng)
        rows.append(
            {
                "agent": agent,
                "games": len(per_game),
                "seats": int(seat_count),
                "wins": wins,
                "win_rate": wins / seat_count if seat_count else math.nan,
                "ci_low": low,
                "ci_high": high,
                "mean_return": total_return / seat_count if seat_count else math.nan,
                "elo": ratings[agent],
                "decisions": decisions,
                "seconds_per_decision": seconds / decisions if decisions else 0.0,
                "cpu_seconds_per_decision": cpu_seconds / decisions if decisions else 0.0,
                "longest_decision": longest,
            }
        )
    return rows


def report(config: TournamentConfig, results: Sequence[dict[str, Any]], *, workers: int) -> dict[str, Any]:
    """Returns the whole tournament as JSON: its settings, the summary and every game."""
    return {
        "format": RESULTS_FORMAT,
        "config": asdict(config) | {"agents": list(config.agents)},
        "workers": workers,
        "lineups": [list(x) for x in lineups(config.agents, config.players)],
        "fair_share": 1.0 / config.players,
        "summary": summarize(config, results),
        "mean_length": sum(r["length"] for r in results) / len(results),
        "games": list(results),
    }


def table(data: dict[str, Any]) -> Table:
    """Returns the summary of a tournament report as a Rich table."""
    config = data["config"]
    title = f"{config['game_id']}, {config['players']} players, {len(data['games'])} games, seed {config['seed']}"
    caption = (
        f"win rate per seat (fair share {data['fair_share']:.3f}); 95% CI: percentile bootstrap over games; "
        "mean score: mean return per seat; Elo: Bradley-Terry fit to every pair of seats; "
        "s/dec: mean wall-clock seconds per decision, cpu s/dec: processor seconds, max s: longest (wall-clock)"
    )
    out = Table(title=title, caption=caption, box=box.SIMPLE_HEAD, padding=(0, 1))
    columns = ("agent", "games", "seats", "wins", "win rate", "95% CI", "mean score", "Elo")
    for column in (*columns, "s/dec", "cpu s/dec", "max s"):
        out.add_column(column, justify="left" if column == "agent" else "right", no_wrap=True)
    for row in data["summary"]:
        out.add_row(
            row["agent"],
            str(row["games"]),
            str(row["seats"]),
            f"{row['wins']:.1f}",
            f"{row['win_rate']:.3f}",
            f"{row['ci_low']:.3f}-{row['ci_high']:.3f}",
            f"{row['mean_return']:.3f}",
            f"{row['elo']:.0f}",
            f"{row['seconds_per_decision']:.4f}",
            f"{row['cpu_seconds_per_decision']:.4f}",
            f"{row['longest_decision']:.3f}",
        )
    return out
