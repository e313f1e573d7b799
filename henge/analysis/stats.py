"""The figures of an analysis and their 95% intervals, as pure functions of the games' rows.

Proportions (a seat's win share, capped games, shared wins) get Wilson score intervals; means
(length, rounds, lead changes, the decided point, a game's own numbers) get a percentile
bootstrap over games with a generator seeded from the analysis seed and the figure's name, so the
same games give the same intervals. A lead is read from a position evaluation (each seat's
chance of winning): the leaders of a position are the seats whose evaluation is the highest.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from henge.tournament import bootstrap_interval, win_shares

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975."""
TIE = 1e-9
"""Evaluations this close count as equal."""


def wilson(successes: float, trials: int, *, z: float = Z95) -> tuple[float, float]:
    """Returns the Wilson score interval of a proportion (``successes`` may be fractional: shared wins)."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], seed: int, name: str) -> tuple[float, float, float]:
    """Returns (mean, low, high): the mean and its 95% percentile bootstrap interval (whole values
    resampled, 2000 times, from a generator seeded by ``seed`` and ``name``)."""
    if not values:
        return (math.nan, math.nan, math.nan)
    rng = random.Random(f"henge/analysis/{seed}/{name}")
    low, high = bootstrap_interval([(float(v), 1.0) for v in values], rng)
    return (sum(values) / len(values), low, high)


def leaders(values: Sequence[float]) -> frozenset[int]:
    """Returns the seats whose evaluation is the highest (within :data:`TIE`)."""
    best = max(values)
    return frozenset(seat for seat, value in enumerate(values) if value >= best - TIE)


def lead_changes(points: Sequence[frozenset[int]]) -> int:
    """Returns how often the lead passed from one seat to another: positions with a single leader
    are compared in turn, ties are passed over."""
    changes = 0
    last: int | None = None
    for found in points:
        if len(found) != 1:
            continue
        (seat,) = found
        if last is not None and seat != last:
            changes += 1
        last = seat
    return changes


def decided_at(points: Sequence[tuple[float, frozenset[int]]], winners: Iterable[int], players: int) -> float:
    """Returns the fraction of the game (in actions) from which the eventual winners stayed ahead.

    ``points`` are (fraction of the game, leaders) in order; a position counts as ahead when its
    leaders are all winners and not every seat leads. The game's end counts as ahead, so the
    result is that of the first position of the last unbroken run ahead, or 1.0 if the last
    position before the end was not.
    """
    won = frozenset(winners)
    found = 1.0
    for fraction, ahead in reversed(points):
        if not (ahead <= won and len(ahead) < players):
            break
        found = fraction
    return found


def proportion(successes: float, trials: int) -> dict[str, float]:
    """Returns a proportion with its Wilson interval, as a row."""
    low, high = wilson(successes, trials)
    return {"count": successes, "games": trials, "rate": successes / trials if trials else math.nan} | {
        "low": low,
        "high": high,
    }


def numeric(values: Sequence[float], seed: int, name: str) -> dict[str, float]:
    """Returns the mean with its bootstrap interval, the median, the extremes and the count."""
    mean, low, high = mean_interval(values, seed, name)
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = (
        math.nan
        if not ordered
        else ordered[middle]
        if len(ordered) % 2
        else (ordered[middle - 1] + ordered[middle]) / 2
    )
    return {
        "mean": mean,
        "low": low,
        "high": high,
        "median": median,
        "min": ordered[0] if ordered else math.nan,
        "max": ordered[-1] if ordered else math.nan,
        "count": len(ordered),
    }


def summarize(rows: Sequence[Mapping[str, Any]], players: int, seed: int) -> dict[str, Any]:
    """Returns every figure of an analysis from its games' rows (see the module docstring)."""
    games = len(rows)
    shares = [win_shares(row["returns"]) for row in rows]
    seats = []
    positions = []
    for seat in range(players):
        wins = sum(s[seat] for s in shares)
        seats.append({"seat": seat} | proportion(wins, games))
        wins = sum(s[row["order"][seat]] for s, row in zip(shares, rows, strict=True))
        positions.append({"position": seat} | proportion(wins, games))
    winners = [sum(1 for x in s if x > 0) for s in shares]
    outcomes = {
        "outright": proportion(sum(1 for w in winners if w == 1), games),
        "shared": proportion(sum(1 for w in winners if 1 < w < players), games),
        "draw": proportion(sum(1 for w in winners if w == players), games),
    }
    capped_values = [row["capped"] for row in rows if row.get("capped") is not None]
    summary: dict[str, Any] = {
        "games": games,
        "fair_share": 1.0 / players,
        "seats": seats,
        "positions": positions,
        "outcomes": outcomes,
        "capped": proportion(sum(capped_values), len(capped_values)) if capped_values else None,
        "length": numeric([row["length"] for row in rows], seed, "length"),
        "rounds": numeric([row["rounds"] for row in rows], seed, "rounds"),
    }
    for name in ("lead_changes", "decided_at"):
        values = [row[name] for row in rows if row.get(name) is not None]
        summary[name] = numeric(values, seed, name) if values else None
    summary["agents"] = _agents(rows, shares)
    numbers: dict[str, dict[str, float]] = {}
    categories: dict[str, dict[str, dict[str, float]]] = {}
    for name in figure_names(rows):
        present = [row["figures"][name] for row in rows if name in row["figures"]]
        if all(isinstance(v, int | float) for v in present):
            numbers[name] = numeric([float(v) for v in present], seed, f"figure/{name}")
        else:
            counts: dict[str, int] = {}
            for value in present:
                counts[str(value)] = counts.get(str(value), 0) + 1
            categories[name] = {key: proportion(counts[key], len(present)) for key in sorted(counts)}
    summary["figures"] = {"numbers": numbers, "categories": categories}
    return summary


def figure_names(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Returns the names of the games' own figures, in the order they first appear."""
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row["figures"]))
    return list(names)


def _agents(rows: Sequence[Mapping[str, Any]], shares: Sequence[Sequence[float]]) -> list[dict[str, Any]]:
    """Returns each agent's win share per seat it held, with a Wilson interval over its seats."""
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row["agents"]))
    found = []
    for agent in names:
        seats = 0
        wins = 0.0
        for row, share in zip(rows, shares, strict=True):
            for seat, name in enumerate(row["agents"]):
                if name == agent:
                    seats += 1
                    wins += share[seat]
        found.append({"agent": agent, "seats": seats} | proportion(wins, seats))
    return found
