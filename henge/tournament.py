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

**Decided matches** (:func:`decided_match`) play a focal agent against one
or more opponents in blocks, one block being every seat arrangement once,
until an anytime-valid confidence sequence for the focal agent's mean return
per game (:class:`BettingConfidenceSequence`) lies wholly above or below its
fair share, or until a cap. The results file is rewritten after every block,
so a stopped match resumes where it stood.
"""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import os
import random
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table

from henge.agents import Decision, check_agent, is_cheating, make_agent
from henge.core import State, load
from henge.records import play_record

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
            check_agent(spec, self.game_id, evaluation=True, players=self.players, options=self.options)
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
    keep_actions: bool = False
    """Whether the result keeps the game's actions (the analysis replays them; a tournament does not)."""


def play_game(task: _Task) -> dict[str, Any]:
    """Plays one game of a tournament; returns its result with per-seat timings (and its ``actions``
    when the task keeps them).

    ``game_cpu_seconds`` is the processor time of the whole game in its process (rules, bots and set-up).
    """
    cpu = time.process_time()
    game = load(task.game_id, task.players, **task.options)
    seats = [_Timed(make_agent(spec, evaluation=True)) for spec in task.lineup]
    record = play_record(game, seats, seed=task.seed)
    return {
        "index": task.index,
        "seed": task.seed,
        "lineup": list(task.lineup),
        "returns": record.returns,
        "length": len(record.actions),
        "decisions": [s.decisions for s in seats],
        "seconds": [s.seconds for s in seats],
        "cpu_seconds": [s.cpu_seconds for s in seats],
        "longest": [s.longest for s in seats],
        "game_cpu_seconds": time.process_time() - cpu,
    } | ({"actions": record.actions} if task.keep_actions else {})


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
    with _players(workers) as play_all:
        return _play_games(play_all, tasks(config), on_game)


@contextmanager
def _players(workers: int) -> Iterator[Callable[[list[_Task]], Iterator[dict[str, Any]]]]:
    """Yields a function that plays tasks here (one worker) or in a pool of processes, results in any order."""
    if workers <= 1:
        yield lambda todo: map(play_game, todo)
        return
    with multiprocessing.get_context().Pool(workers) as pool:
        yield lambda todo: pool.imap_unordered(play_game, todo, chunksize=1)


def _play_games(
    play_all: Callable[[list[_Task]], Iterator[dict[str, Any]]],
    todo: list[_Task],
    on_game: Callable[[dict[str, Any]], None] | None,
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for result in play_all(todo):
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


# --- decided matches ----------------------------------------------------------------------

DECIDED_FORMAT = "henge-decided-match"
DECIDED_VERSION = 1
DEFAULT_CAP_BLOCKS = 100
_BISECTIONS = 40


class ResumeError(ValueError):
    """A results file that cannot be resumed (or must not be overwritten), with the reason."""


class BettingConfidenceSequence:
    """An anytime-valid confidence sequence for the mean of i.i.d. observations in [0, 1], by betting.

    The hedged capital process with predictable plug-in bets of Waudby-Smith and Ramdas, "Estimating
    means of bounded random variables by betting" (2023; arXiv:2010.09686). For every candidate
    mean ``m`` in [0, 1] two gamblers start with capital 1, one betting that the mean lies above ``m``
    and one that it lies below::

        K+_t(m) = prod_{i <= t} (1 + l+_i(m) (X_i - m)),    K-_t(m) = prod_{i <= t} (1 - l-_i(m) (X_i - m)),
        K_t(m)  = max(K+_t(m), K-_t(m)) / 2,

    with bets fixed before ``X_i`` is seen (``c``: ``truncation``, 1/2 by default)::

        l_i     = sqrt(2 log(2 / alpha) / (s2_{i-1} i log(1 + i))),
        l+_i(m) = min(l_i, c / m),    l-_i(m) = min(l_i, c / (1 - m)),
        mu_i    = (1/2 + sum_{j <= i} X_j) / (i + 1),    s2_i = (1/4 + sum_{j <= i} (X_j - mu_j)^2) / (i + 1),

    so ``s2_0 = 1/4``. The confidence sequence is the running intersection::

        C_t = {m : K_s(m) < 1 / alpha for every s <= t}.

    Why it holds: at the true mean every factor has expectation 1 given the past and is at least
    ``1 - c > 0``, so ``(K+_t + K-_t) / 2`` is a nonnegative martingale that starts at 1, and by Ville's
    inequality it (and ``K_t``, never larger) ever reaches ``1 / alpha`` with probability at most
    ``alpha``. Hence ``C_t`` holds the
    true mean at every ``t`` at once with probability at least ``1 - alpha``, and so at any stopping
    time, however it was chosen (a fixed-sample interval, bootstrap or normal, does not survive being
    checked after every observation). ``K+`` falls and ``K-`` rises with ``m``, so every ``C_t`` is an
    interval; its ends are found by bisection (:attr:`low` and :attr:`high`; ``intervals=False`` skips
    this). A point named in ``watch`` has its two capitals kept step by step, and :meth:`verdict` says
    whether, and which way, it has left the sequence: the test that decides a match.
    """

    def __init__(
        self,
        alpha: float = 0.05,
        *,
        truncation: float = 0.5,
        watch: Sequence[float] = (),
        intervals: bool = True,
    ) -> None:
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must lie strictly between 0 and 1, not {alpha}")
        if not 0.0 < truncation < 1.0:
            raise ValueError(f"truncation must lie strictly between 0 and 1, not {truncation}")
        for m in watch:
            if not 0.0 <= m <= 1.0:
                raise ValueError(f"a watched mean must lie in [0, 1], not {m}")
        self.alpha = alpha
        self.truncation = truncation
        self._threshold = math.log(2.0 / alpha)  # K+ / 2 >= 1 / alpha, and the same for K-
        self._observations: list[float] = []
        self._bets: list[float] = []
        self._sum = 0.0
        self._squares = 0.0
        self._variance = 0.25
        self._watched: dict[float, list[float]] = {float(m): [0.0, 0.0] for m in watch}
        self._verdicts: dict[float, str | None] = dict.fromkeys(self._watched)
        self._intervals = intervals
        self.low = 0.0
        """The lower end of the running intersection."""
        self.high = 1.0
        """The upper end of the running intersection."""

    @property
    def count(self) -> int:
        """Returns how many observations were seen."""
        return len(self._observations)

    @property
    def mean(self) -> float:
        """Returns the mean of the observations (nan before the first)."""
        return self._sum / self.count if self.count else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """Returns the running intersection (``low``, ``high``)."""
        return (self.low, self.high)

    def next_bet(self) -> float:
        """Returns the plug-in bet ``l_t`` for the next observation, from the observations before it."""
        t = self.count + 1
        return math.sqrt(2.0 * math.log(2.0 / self.alpha) / (self._variance * t * math.log1p(t)))

    def _up(self, bet: float, m: float) -> float:
        return bet if m <= 0.0 else min(bet, self.truncation / m)

    def _down(self, bet: float, m: float) -> float:
        return bet if m >= 1.0 else min(bet, self.truncation / (1.0 - m))

    def log_capital(self, m: float) -> tuple[float, float]:
        """Returns ``(log K+_t(m), log K-_t(m))`` over every observation so far."""
        return self._log_up(m), self._log_down(m)

    def _history(self) -> Iterator[tuple[float, float]]:
        return zip(self._observations, self._bets, strict=True)

    def _log_up(self, m: float) -> float:
        return math.fsum(math.log1p(self._up(bet, m) * (x - m)) for x, bet in self._history())

    def _log_down(self, m: float) -> float:
        return math.fsum(math.log1p(-self._down(bet, m) * (x - m)) for x, bet in self._history())

    def update(self, x: float) -> None:
        """Takes the next observation, which must lie in [0, 1]."""
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"observations must lie in [0, 1], not {x}")
        bet = self.next_bet()
        self._observations.append(x)
        self._bets.append(bet)
        for m, capital in self._watched.items():
            capital[0] += math.log1p(self._up(bet, m) * (x - m))
            capital[1] += math.log1p(-self._down(bet, m) * (x - m))
            if self._verdicts[m] is None:
                if capital[0] >= self._threshold:
                    self._verdicts[m] = "above"
                elif capital[1] >= self._threshold:
                    self._verdicts[m] = "below"
        t = self.count
        self._sum += x
        self._squares += (x - (0.5 + self._sum) / (t + 1)) ** 2
        self._variance = (0.25 + self._squares) / (t + 1)
        if self._intervals:
            self._narrow()

    def _narrow(self) -> None:
        """Moves the running ends inwards where this step's interval is narrower (bisection)."""
        if self._log_up(self.low) >= self._threshold:  # K+(1) <= 1, so the end lies below 1
            self.low = self._edge(self._log_up, 1.0, self.low)
        if self._log_down(self.high) >= self._threshold:  # K-(0) <= 1, so the end lies above 0
            self.high = self._edge(self._log_down, 0.0, self.high)

    def _edge(self, log_capital: Callable[[float], float], inside: float, outside: float) -> float:
        """Returns, by bisection, the end of the interval between ``inside`` (kept) and ``outside``
        (rejected: its capital reached the threshold)."""
        for _ in range(_BISECTIONS):
            middle = (inside + outside) / 2
            if log_capital(middle) >= self._threshold:
                outside = middle
            else:
                inside = middle
        return outside

    def verdict(self, m: float) -> str | None:
        """Returns ``"above"`` or ``"below"`` once the mean is known to lie above or below a watched ``m``."""
        if m not in self._verdicts:
            raise KeyError(f"{m} is not watched")
        return self._verdicts[m]


@dataclass(frozen=True)
class MatchConfig:
    """A decided match: a focal agent against opponents, in blocks of every seat arrangement.

    ``focal_seats`` None: the agents share the seats as in a tournament (:func:`lineups`); a number: the
    focal agent holds that many seats of every game, in every choice of them, and the opponents share
    the rest in turn. ``margin``: the match decides whether the focal agent's mean lies above or below
    its fair share less this (the *bar*); 0 asks "better or worse than its fair share?", a margin
    such as 0.05 asks "no worse than the others by more than the margin?" (a non-inferiority test:
    a changed bot against the one before it). ``cap_blocks`` may be raised when a match is resumed;
    nothing else may change.
    """

    game_id: str
    players: int
    focal: str
    opponents: tuple[str, ...]
    focal_seats: int | None = None
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    alpha: float = 0.05
    cap_blocks: int = DEFAULT_CAP_BLOCKS
    truncation: float = 0.5
    margin: float = 0.0

    @property
    def agents(self) -> tuple[str, ...]:
        """Returns the focal agent and then the opponents."""
        return (self.focal, *self.opponents)

    def validate(self) -> None:
        """Raises ValueError if the game, seats, agents, level or cap are wrong."""
        game = load(self.game_id, self.players, **self.options)
        info = game.info
        if info.utility_sum != 1.0 or info.min_utility < 0.0 or info.max_utility > 1.0:
            raise ValueError(f"{self.game_id}: a decided match needs returns in [0, 1] that sum to 1")
        if not self.opponents:
            raise ValueError("name at least one opponent")
        if len(set(self.agents)) != len(self.agents):
            raise ValueError("name each agent once")
        for spec in self.agents:
            check_agent(spec, self.game_id, evaluation=True, players=self.players, options=self.options)
        if self.focal_seats is not None and not 1 <= self.focal_seats < self.players:
            raise ValueError(f"the focal agent holds 1 to {self.players - 1} seats, not {self.focal_seats}")
        if not 0.0 < self.alpha < 1.0:
            raise ValueError(f"alpha must lie strictly between 0 and 1, not {self.alpha}")
        if self.cap_blocks < 1:
            raise ValueError(f"play at least one block, not {self.cap_blocks}")
        if not 0.0 < self.truncation < 1.0:
            raise ValueError(f"truncation must lie strictly between 0 and 1, not {self.truncation}")
        fair = fair_share(self.focal, match_lineups(self), self.players)
        if not 0.0 <= self.margin < fair:
            raise ValueError(f"the margin must lie from 0 up to the fair share {fair:.3f}, not {self.margin}")

    def to_json(self) -> dict[str, Any]:
        """Returns the settings as JSON (as the results file holds them)."""
        return asdict(self) | {"opponents": list(self.opponents), "options": dict(self.options)}


def match_lineups(config: MatchConfig) -> list[tuple[str, ...]]:
    """Returns the seat arrangements of one block, in a fixed order."""
    if config.focal_seats is None:
        return lineups(config.agents, config.players)
    rest = lineups(config.opponents, config.players - config.focal_seats)
    found = []
    for places in itertools.combinations(range(config.players), config.focal_seats):
        for others in rest:
            fill = iter(others)
            found.append(tuple(config.focal if seat in places else next(fill) for seat in range(config.players)))
    return found


def fair_share(focal: str, table: Sequence[Sequence[str]], players: int) -> float:
    """Returns the focal agent's fair mean return per game over a block: its seats over all seats.

    In a game where it holds ``k`` of ``n`` seats an agent no better than the others wins ``k / n`` of
    the time (returns sum to 1), so over a block the fair share is the mean of ``k / n``.
    """
    return sum(list(lineup).count(focal) for lineup in table) / (len(table) * players)


def block_observation(focal: str, games: Sequence[dict[str, Any]]) -> float:
    """Returns the focal agent's mean return per game over a block's games: its returns summed per game."""
    total = sum(sum(r for a, r in zip(g["lineup"], g["returns"], strict=True) if a == focal) for g in games)
    value = total / len(games)
    if not -1e-9 <= value <= 1.0 + 1e-9:
        raise ValueError(f"a block's mean return of {value} lies outside [0, 1]")
    return min(1.0, max(0.0, value))


def block_tasks(config: MatchConfig, block: int, table: Sequence[tuple[str, ...]] | None = None) -> list[_Task]:
    """Returns the games of one block: every arrangement once, all with the block's seed.

    Numbered and seeded as a tournament's games, so with ``focal_seats`` None the first ``b`` blocks of
    a match are the first ``b`` rotations of ``henge tournament`` with the same agents and seed.
    """
    table = match_lineups(config) if table is None else table
    seed = game_seed(config.seed, block)
    return [
        _Task(block * len(table) + j, config.game_id, config.players, dict(config.options), lineup, seed)
        for j, lineup in enumerate(table)
    ]


def default_match_path(config: MatchConfig) -> Path:
    """Returns ``results/decided/GAME[-OPTIONS]_Np_FOCAL[xK]_vs_OPPONENTS_seedS.json``."""

    def clean(text: Any) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "-", str(text)).strip("-")

    game = "-".join([config.game_id, *(clean(v) for _, v in sorted(config.options.items()))])
    focal = clean(config.focal) + ("" if config.focal_seats is None else f"x{config.focal_seats}")
    rivals = "_".join(clean(o) for o in config.opponents)
    bar = f"_margin{config.margin:g}" if config.margin else ""
    return Path("results") / "decided" / f"{game}_{config.players}p_{focal}_vs_{rivals}{bar}_seed{config.seed}.json"


@dataclass(frozen=True)
class MatchResult:
    """Where a decided match stands: its decision, the interval and what it cost.

    ``decision``: ``"above"`` or ``"below"`` (the interval lies wholly above or below the bar: the fair
    share less the match's margin, the fair share itself when it has none),
    ``"undecided"`` (the cap was reached first) or ``"running"`` (reported after a block, before the end).
    ``low``, ``high`` and ``mean`` are on the scale of the observations, the focal agent's mean return per
    game; ``seats_per_game`` (its mean seats per game) turns them into rates per seat.
    """

    config: MatchConfig
    decision: str
    low: float
    high: float
    mean: float
    fair_share: float
    bar: float
    """The fair share less the match's margin: the point the decision is about."""
    seats_per_game: float
    blocks: int
    games: int
    cpu_seconds: float
    wall_seconds: float
    data: dict[str, Any] = field(repr=False, compare=False)

    @property
    def interval(self) -> tuple[float, float]:
        return (self.low, self.high)

    def line(self) -> str:
        """Returns the one line that says how the match ended (or stands)."""
        config = self.config
        level = f"{100 - 100 * config.alpha:.12g}%"
        bar = f"its fair share {self.fair_share:.3f}"
        if config.margin:
            bar = f"its fair share less {config.margin:g}, {self.bar:.3f}"
        if self.decision in ("above", "below"):
            head = f"decided: {config.focal} is {self.decision} {bar}"
        elif self.decision == "undecided":
            head = f"undecided at the cap of {config.cap_blocks} blocks: {bar.removeprefix('its ')} is inside"
        else:
            head = f"running: {bar.removeprefix('its ')} is inside"
        per_seat = self.seats_per_game
        return (
            f"{config.game_id}, {config.players} players, {config.focal} vs {', '.join(config.opponents)}: {head}; "
            f"{level} confidence sequence {self.low:.3f}-{self.high:.3f} for its mean return per game "
            f"(mean {self.mean:.3f}; per seat {self.low / per_seat:.3f}-{self.high / per_seat:.3f} "
            f"against {1 / config.players:.3f}); {_count(self.blocks, 'block')}, {_count(self.games, 'game')}, "
            f"{self.cpu_seconds:.1f} processor seconds"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _agent_figures(agents: Sequence[str], games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for agent in agents:
        seats = decisions = 0
        total = cpu = 0.0
        for game in games:
            for k, name in enumerate(game["lineup"]):
                if name == agent:
                    seats += 1
                    total += game["returns"][k]
                    decisions += game["decisions"][k]
                    cpu += game["cpu_seconds"][k]
        rows.append(
            {
                "agent": agent,
                "seats": seats,
                "mean_return_per_seat": total / seats if seats else math.nan,
                "decisions": decisions,
                "cpu_seconds": cpu,
                "cpu_seconds_per_decision": cpu / decisions if decisions else 0.0,
            }
        )
    return rows


class _Match:
    """A decided match as it stands: its blocks and the confidence sequence over them."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.table = match_lineups(config)
        self.fair = fair_share(config.focal, self.table, config.players)
        self.bar = self.fair - config.margin
        self.sequence = BettingConfidenceSequence(config.alpha, truncation=config.truncation, watch=(self.bar,))
        self.blocks: list[dict[str, Any]] = []

    @property
    def open(self) -> bool:
        return self.sequence.verdict(self.bar) is None and len(self.blocks) < self.config.cap_blocks

    @property
    def decision(self) -> str:
        verdict = self.sequence.verdict(self.bar)
        if verdict is not None:
            return verdict
        return "undecided" if len(self.blocks) >= self.config.cap_blocks else "running"

    def add(self, block: dict[str, Any]) -> None:
        self.sequence.update(block["observation"])
        self.blocks.append(block)

    def games(self) -> list[dict[str, Any]]:
        return [game for block in self.blocks for game in block["games"]]

    def result(self) -> MatchResult:
        games = self.games()
        status = {
            "decision": self.decision,
            "blocks": len(self.blocks),
            "games": len(games),
            "mean": self.sequence.mean,
            "interval": list(self.sequence.interval),
            "fair_share": self.fair,
            "bar": self.bar,
            "seats_per_game": self.fair * self.config.players,
            "cpu_seconds": sum(game["game_cpu_seconds"] for game in games),
            "wall_seconds": sum(block["wall_seconds"] for block in self.blocks),
        }
        data = {
            "format": DECIDED_FORMAT,
            "version": DECIDED_VERSION,
            "config": self.config.to_json(),
            "method": "hedged betting confidence sequence, predictable plug-in bets (Waudby-Smith and Ramdas 2023)",
            "lineups": [list(x) for x in self.table],
            "status": status,
            "agents": _agent_figures(self.config.agents, games),
            "blocks": self.blocks,
        }
        return MatchResult(
            config=self.config,
            decision=status["decision"],
            low=self.sequence.low,
            high=self.sequence.high,
            mean=status["mean"],
            fair_share=self.fair,
            bar=self.bar,
            seats_per_game=status["seats_per_game"],
            blocks=status["blocks"],
            games=status["games"],
            cpu_seconds=status["cpu_seconds"],
            wall_seconds=status["wall_seconds"],
            data=data,
        )


def write_json_atomic(path: Path, data: Any) -> None:
    """Writes JSON to a file next to ``path`` and renames it over ``path``: a reader sees the old or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w") as out:
            json.dump(data, out, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _stored_blocks(path: Path, match: _Match) -> list[dict[str, Any]]:
    """Returns the blocks of a results file, after checking that it holds this match."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ResumeError(f"cannot resume from {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != DECIDED_FORMAT:
        raise ResumeError(f"cannot resume from {path}: it is not a decided match ({DECIDED_FORMAT})")
    if data.get("version") != DECIDED_VERSION:
        raise ResumeError(f"cannot resume from {path}: version {data.get('version')}, not {DECIDED_VERSION}")
    stored = data.get("config")
    stored = stored if isinstance(stored, dict) else {}
    stored = {"margin": 0.0, **stored}  # a file written before matches had a margin holds none
    mine = match.config.to_json()
    keys = sorted(set(mine) | set(stored))
    differ = [key for key in keys if key != "cap_blocks" and stored.get(key) != mine.get(key)]
    if differ:
        what = "; ".join(f"{key} {stored.get(key)!r} there, {mine.get(key)!r} here" for key in differ)
        raise ResumeError(f"cannot resume from {path}: it holds a different match ({what})")
    blocks = data.get("blocks")
    if not isinstance(blocks, list):
        raise ResumeError(f"cannot resume from {path}: it holds no list of blocks")
    if len(blocks) > match.config.cap_blocks:
        raise ResumeError(
            f"cannot resume from {path}: it holds {len(blocks)} blocks, more than the cap of {match.config.cap_blocks}"
        )
    for number, block in enumerate(blocks):
        expected = [(t.index, list(t.lineup), t.seed) for t in block_tasks(match.config, number, match.table)]
        try:
            found = [(g["index"], g["lineup"], g["seed"]) for g in block["games"]]
            same = found == expected and block["block"] == number
            same = same and block["observation"] == block_observation(match.config.focal, block["games"])
        except (KeyError, TypeError, ValueError):
            same = False
        if not same:
            raise ResumeError(f"cannot resume from {path}: its block {number} is not this match's")
    return list(blocks)


def decided_match(
    game_id: str,
    players: int,
    focal: str,
    opponents: str | Sequence[str],
    *,
    focal_seats: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    alpha: float = 0.05,
    cap_blocks: int = DEFAULT_CAP_BLOCKS,
    margin: float = 0.0,
    workers: int = 1,
    out: str | Path | None = None,
    resume: bool = False,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    on_block: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Plays ``focal`` against ``opponents`` block by block until the answer is known or the cap is reached.

    One observation per block: the focal agent's mean return per game over the block's games (its
    returns summed over its seats), in [0, 1]. After every block the :class:`BettingConfidenceSequence`
    at level ``1 - alpha`` is updated; the match stops as soon as it lies wholly above or below the fair
    share (:func:`fair_share`) less ``margin``, or after ``cap_blocks`` blocks. A block's games run in ``workers``
    processes. With ``out`` the whole match is written there (atomically) after every block; an
    existing file is refused unless ``resume``, which checks that it holds the same match (only
    ``cap_blocks`` may differ) and plays on from the next block: the result is the one an uninterrupted
    run gives. Resuming a finished match returns its result at once.
    """
    config = MatchConfig(
        game_id=game_id,
        players=players,
        focal=focal,
        opponents=(opponents,) if isinstance(opponents, str) else tuple(opponents),
        focal_seats=focal_seats,
        seed=seed,
        options=dict(options or {}),
        alpha=alpha,
        cap_blocks=cap_blocks,
        margin=margin,
    )
    return run_match(config, workers=workers, out=out, resume=resume, on_game=on_game, on_block=on_block)


def run_match(
    config: MatchConfig,
    *,
    workers: int = 1,
    out: str | Path | None = None,
    resume: bool = False,
    on_game: Callable[[dict[str, Any]], None] | None = None,
    on_block: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Plays a decided match from its settings (see :func:`decided_match`)."""
    config.validate()
    path = None if out is None else Path(out)
    if resume and path is None:
        raise ResumeError("resuming a match needs its results file")
    match = _Match(config)
    if path is not None and path.exists():
        if not resume:
            raise ResumeError(f"{path} already exists: resume the match it holds, or choose another file")
        for block in _stored_blocks(path, match):
            if not match.open:
                raise ResumeError(f"cannot resume from {path}: it goes on after the match ended")
            match.add(block)
    if not match.open:
        if path is not None:
            write_json_atomic(path, match.result().data)
        return match.result()
    with _players(workers) as play_all:
        while match.open:
            number = len(match.blocks)
            todo = block_tasks(config, number, match.table)
            start = time.perf_counter()
            games = _play_games(play_all, todo, on_game)
            block = {
                "block": number,
                "seed": todo[0].seed,
                "observation": block_observation(config.focal, games),
                "cpu_seconds": sum(game["game_cpu_seconds"] for game in games),
                "wall_seconds": time.perf_counter() - start,
                "games": games,
            }
            match.add(block)
            result = match.result()
            if path is not None:
                write_json_atomic(path, result.data)
            if on_block is not None:
                on_block(result)
    return match.result()
