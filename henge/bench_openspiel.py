"""Engine speed against OpenSpiel's C++ hearts, driven by the very same Python loop.

``henge bench --against-openspiel`` plays uniformly random games of each henge
game and of OpenSpiel's ``hearts`` (C++, through ``pyspiel``) with one Python
loop, alternating the two in short slices in one process, so both share
whatever else the machine is doing. Two loops are timed, each the same for
both games:

* the lean loop (:func:`playout`, as ``henge bench`` plays): ``current_player``,
  ``legal_actions`` or ``chance_outcomes``, a pick with one ``random()``,
  ``apply_action``; the loop costs little, so the ratio shows the engines;
* the README's loop (:func:`playout_readme`): ``is_terminal``,
  ``is_chance_node``, ``rng.choices`` over the outcomes, ``rng.choice`` over
  the legal actions, as a user writes it.

It reports decisions (player actions) and actions (chance outcomes too) per
second and their ratios to hearts, and the microseconds of ``clone()`` early
in a game (move 50) and late (move 3,000, or the second-to-last move of the
longest of a few random games where none runs that long).

``python -m henge.bench_openspiel`` (:func:`main`) times bots instead: the processor seconds per
decision of henge's ``ismcts``, which are the budget that gives OpenSpiel's ISMCTS
(``openspiel-ismcts``) equal time (a game's ``OPENSPIEL_SECONDS``), and of that bot at its budget,
on the same positions.

``pyspiel`` is imported only when this runs (the ``openspiel`` extra).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from rich.table import Table

import henge
from henge.agents import heuristics, make_agent
from henge.bench import bench_players
from henge.core import engine_path, make_decision, playouts, sample_chance

CHANCE = -1
TERMINAL = -4
"""``current_player()`` at a chance node and at the end, in henge and in OpenSpiel alike."""

EARLY_MOVE = 50
LATE_MOVE = 3000
_LONGEST_OF = 8
"""Random games played to find a late move where no game reaches LATE_MOVE."""
_CLONES = 2000
_CLONE_PASSES = 7


class MissingOpenSpiel(RuntimeError):
    """OpenSpiel's Python package (``pyspiel``) is not installed."""


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise MissingOpenSpiel(
            "`henge bench --against-openspiel` needs OpenSpiel's Python package (pyspiel): "
            "pip install 'henge[openspiel]'"
        ) from None
    return pyspiel


def playout(state: Any, rng: random.Random) -> tuple[int, int]:
    """Plays ``state`` to its end uniformly at random; returns (decisions, chance actions).

    The same loop for a henge state and a pyspiel state: both follow OpenSpiel's names."""
    decisions = chances = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return decisions, chances
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            r = rng.random()
            action = outcomes[-1][0]
            for outcome, probability in outcomes:
                r -= probability
                if r < 0:
                    action = outcome
                    break
            chances += 1
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            decisions += 1
        state.apply_action(action)


def playout_readme(state: Any, rng: random.Random) -> tuple[int, int]:
    """Plays ``state`` to its end as the README's loop does; returns (decisions, chance actions)."""
    decisions = chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            chances += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions, chances


def _state_at(game: Any, move: int, seed: int) -> Any:
    """Returns the state after ``move`` actions of a random game (seeded), or None if it ends sooner."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(move):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        state.apply_action(action)
    return None if state.is_terminal() else state


def late_state(game: Any, seed: int = 1) -> tuple[Any, int]:
    """Returns (a state, its move number) at LATE_MOVE of a random game, or else at the
    second-to-last move of the longest of a few random games."""
    longest = (0, seed)
    for k in range(_LONGEST_OF):
        state = _state_at(game, LATE_MOVE, seed + k)
        if state is not None:
            return state, LATE_MOVE
        rng = random.Random(seed + k)
        state = game.new_initial_state()
        length = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[int(rng.random() * len(legal))]
            state.apply_action(action)
            length += 1
        longest = max(longest, (length, seed + k))
    move = max(0, longest[0] - 1)
    return _state_at(game, move, longest[1]), move


def clone_us(state: Any) -> float:
    """Returns the median microseconds of one ``clone()`` of ``state`` over a few passes."""
    passes = []
    for _ in range(_CLONE_PASSES):
        start = time.perf_counter()
        for _ in range(_CLONES):
            state.clone()
        passes.append((time.perf_counter() - start) / _CLONES * 1e6)
    return statistics.median(passes)


def _clone_figures(game: Any) -> dict[str, Any]:
    early = _state_at(game, EARLY_MOVE, 1)
    late, move = late_state(game)
    return {
        "us/clone@early": clone_us(early) if early is not None else None,
        "late_move": move,
        "us/clone@late": clone_us(late) if late is not None else None,
    }


def against_hearts(game_id: str, *, seconds: float = 10.0, slices: int = 20) -> dict[str, Any]:
    """Returns the figures of ``game_id`` and of OpenSpiel's hearts from one interleaved run: per
    loop, ``slices`` slices of ``seconds / slices / 2`` of whole random games of each, alternating."""
    pyspiel = _pyspiel()
    hearts = pyspiel.load_game("hearts")
    players = bench_players(game_id)
    game = henge.load(game_id, players)
    loops = {"": playout, "readme ": playout_readme}
    runners = [(loop, name, source) for loop in loops for name, source in (("", game), ("hearts ", hearts))]
    rngs = {(loop, name): random.Random(12345) for loop, name, _ in runners}
    totals = {(loop, name): [0, 0, 0.0] for loop, name, _ in runners}  # decisions, actions, seconds
    per_slice = seconds / slices / 2
    for k in range(slices):
        order = runners if k % 2 == 0 else runners[::-1]  # each runner first and last as often
        for loop, name, source in order:
            play = loops[loop]
            rng = rngs[loop, name]
            total = totals[loop, name]
            start = time.perf_counter()
            deadline = start + per_slice
            while True:
                d, c = play(source.new_initial_state(), rng)
                total[0] += d
                total[1] += d + c
                now = time.perf_counter()
                if now >= deadline:
                    break
            total[2] += now - start
    result: dict[str, Any] = {"game": game_id, "players": players, "seconds": seconds, "slices": slices}
    for loop, name, _ in runners:
        decisions, actions, spent = totals[loop, name]
        result[f"{name}{loop}decisions/s"] = decisions / spent
        result[f"{name}{loop}actions/s"] = actions / spent
    for loop in loops:
        for what in ("decisions", "actions"):
            result[f"{loop}{what} ratio"] = result[f"{loop}{what}/s"] / result[f"hearts {loop}{what}/s"]
    result.update(_clone_figures(game))
    result["hearts us/clone@early"] = _clone_figures(hearts)["us/clone@early"]
    return result


def playouts_against_hearts(game_id: str, *, seconds: float = 10.0, slices: int = 20) -> dict[str, Any]:
    """Returns whole-playout figures of ``game_id`` (:func:`henge.core.playouts`, the game played to its
    end in compiled code by the random player and by the rule-based player at every seat) beside
    hearts' lean loop, from one interleaved run as :func:`against_hearts` times it."""
    pyspiel = _pyspiel()
    hearts = pyspiel.load_game("hearts")
    players = bench_players(game_id)
    game = henge.load(game_id, players)
    kinds = ["random", "rule"] if heuristics.has_heuristic(game_id) else ["random"]
    hearts_rng = random.Random(12345)
    seeds = dict.fromkeys(kinds, 0)
    totals = {name: [0, 0, 0.0] for name in [*kinds, "hearts"]}  # decisions, actions, seconds
    per_slice = seconds / slices / (len(kinds) + 1)
    names = [*kinds, "hearts"]
    for k in range(slices):
        for name in names if k % 2 == 0 else names[::-1]:
            total = totals[name]
            start = time.perf_counter()
            deadline = start + per_slice
            while True:
                if name == "hearts":
                    d, c = playout(hearts.new_initial_state(), hearts_rng)
                    total[0] += d
                    total[1] += d + c
                else:
                    (played,) = playouts(game, 1, seed=seeds[name], players=name)
                    seeds[name] += 1
                    total[0] += played.decisions
                    total[1] += played.length
                now = time.perf_counter()
                if now >= deadline:
                    break
            total[2] += now - start
    hearts_rate = totals["hearts"][0] / totals["hearts"][2]
    result: dict[str, Any] = {
        "game": game_id,
        "players": players,
        "seconds": seconds,
        "slices": slices,
        "engine": engine_path(),
        "hearts lean decisions/s": hearts_rate,
    }
    for name in kinds:
        decisions, actions, spent = totals[name]
        result[f"{name} games"] = seeds[name]
        result[f"{name} decisions/s"] = decisions / spent
        result[f"{name} actions/s"] = actions / spent
        result[f"{name} ratio"] = decisions / spent / hearts_rate
    return result


def playouts_table(results: list[dict[str, Any]]) -> Table:
    """Returns the whole-playout figures as a Rich table (× hearts: over hearts' lean loop, same run)."""
    out = Table(title="whole playouts in compiled code against OpenSpiel's C++ hearts' lean loop, one core")
    columns = ("game", "seats", "random decisions/s", "× hearts", "rule-based decisions/s", "× hearts", "hearts")
    for column in columns:
        out.add_column(column, justify="left" if column == "game" else "right")
    for r in results:
        rule = "rule decisions/s" in r
        out.add_row(
            r["game"],
            str(r["players"]),
            f"{r['random decisions/s']:,.0f}",
            f"{r['random ratio']:.2f}",
            f"{r['rule decisions/s']:,.0f}" if rule else "-",
            f"{r['rule ratio']:.3f}" if rule else "-",
            f"{r['hearts lean decisions/s']:,.0f}",
        )
    return out


def table(results: list[dict[str, Any]]) -> Table:
    """Returns the figures as a Rich table (× hearts: the ratio to hearts in the same run)."""
    out = Table(title="random play against OpenSpiel's C++ hearts: one Python loop, alternating, one core")
    columns = (
        "game",
        "seats",
        "decisions/s",
        "× hearts",
        "× hearts (actions)",
        "× hearts (README loop)",
        "µs clone",
        "late µs clone",
    )
    for column in columns:
        out.add_column(column, justify="left" if column == "game" else "right")

    def us(value: float | None, move: int) -> str:
        return "-" if value is None else f"{value:.2f} @{move:,}"

    for r in results:
        out.add_row(
            r["game"],
            str(r["players"]),
            f"{r['decisions/s']:,.0f}",
            f"{r['decisions ratio']:.2f}",
            f"{r['actions ratio']:.2f}",
            f"{r['readme decisions ratio']:.2f}",
            us(r["us/clone@early"], EARLY_MOVE),
            us(r["us/clone@late"], r["late_move"]),
        )
    if results:  # hearts ran beside each game: the median of its runs
        hearts = statistics.median(r["hearts decisions/s"] for r in results)
        clone = statistics.median(r["hearts us/clone@early"] for r in results)
        out.add_row("hearts (C++)", "4", f"{hearts:,.0f}", "1", "1", "1", us(clone, EARLY_MOVE), "")
    return out


# --- equal time: the seconds per decision of henge's ismcts, the budget of OpenSpiel's ------------


def decision_seconds(
    spec: str, game_id: str, players: int, *, decisions: int = 20, games: int = 1, seed: int = 0
) -> list[float]:
    """Returns the processor seconds of ``spec``'s decisions with a choice, at least ``decisions`` of them.

    The positions come from ``games`` games (seeds ``seed``, ``seed + 1`` ...) played by the rule-based
    player at every seat (random where the game has none): turns spread over whole games, taken in a seeded
    random order, each played out by a fresh ``spec`` bot (so a search that keeps its tree between the steps
    of a turn does so), until enough decisions are timed or no turn is left. As in a tournament, the time is
    that of ``choose``, the seat's samples included. The same arguments give the same positions to every bot.
    """
    game = henge.load(game_id, players)
    starts: list[Any] = []
    last_seat = [-1]

    def keep(state: Any, action: int, text: str) -> None:
        seat = state.current_player()
        if seat >= 0 and seat != last_seat[0]:
            starts.append(state.clone())
        if seat >= 0:
            last_seat[0] = seat

    guide = "heuristic" if heuristics.has_heuristic(game_id) else "random"
    for number in range(games):
        last_seat[0] = -1
        henge.play(game, [guide] * players, seed=seed + number, on_action=keep)
    order = list(range(len(starts)))
    random.Random(seed).shuffle(order)
    times: list[float] = []
    for index in order:
        if len(times) >= decisions:
            break
        state = starts[index].clone()
        seat = state.current_player()
        agent = make_agent(spec, evaluation=True)
        rng = random.Random(f"{seed}/{index}")
        while not state.is_terminal() and state.current_player() in (seat, -1):
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            decision = make_decision(state, seat, rng, samples=agent.needs_samples)
            cpu = time.process_time()
            action = agent.choose(decision)
            spent = time.process_time() - cpu
            if len(decision.legal_actions) > 1:
                times.append(spent)
            state.apply_action(action)
    return times


def main(argv: Sequence[str] | None = None) -> None:
    """Prints, per game, the mean processor seconds per decision with a choice of each bot named.

    ``python -m henge.bench_openspiel`` measures henge's ``ismcts`` (its mean is the game's equal time,
    ``OPENSPIEL_SECONDS`` of its search part) and ``openspiel-ismcts`` at its default, equal-time budget,
    on the same positions.
    """
    parser = argparse.ArgumentParser(prog="python -m henge.bench_openspiel", description=main.__doc__)
    parser.add_argument("game_ids", nargs="*", metavar="GAME", help="game ids (default: every game)")
    parser.add_argument("--players", type=int, help="player count (default: each game's least)")
    parser.add_argument("--bots", default="ismcts,openspiel-ismcts", help="bots to time, comma-separated")
    parser.add_argument("--decisions", type=int, default=20, help="decisions with a choice per bot and game")
    parser.add_argument("--games", type=int, default=1, help="games whose turns are the positions timed")
    parser.add_argument("--seed", type=int, default=0, help="the first of those games' seeds")
    args = parser.parse_args(argv)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    print("| game | players | bot | decisions | cpu s/decision (mean) | median | max |")
    print("|---|---|---|---|---|---|---|")
    for game_id in args.game_ids or henge.list_games():
        players = args.players or henge.game_class(game_id).info.min_players
        for bot in bots:
            times = decision_seconds(bot, game_id, players, decisions=args.decisions, games=args.games, seed=args.seed)
            print(
                f"| {game_id} | {players} | {bot} | {len(times)} | {statistics.fmean(times):.4f} "
                f"| {statistics.median(times):.4f} | {max(times):.4f} |"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
