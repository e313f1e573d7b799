"""A tournament's figures: bootstrap intervals, pairwise scores, Elo ratings, the summary and its table."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from rich import box
from rich.table import Table

from henge.tournament.games import RESULTS_FORMAT, TournamentConfig, lineups, win_shares

BOOTSTRAP_RESAMPLES = 2000
ELO_BASE = 1500.0


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
