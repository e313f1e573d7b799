"""Plays the strength table as decided matches, resumably, and prints it as Markdown.

Every game at every player count, three pairings: ``ismcts`` against ``heuristic``, ``ismcts``
against ``random`` and ``heuristic`` against ``random``. Each match puts the first agent in one seat
against the second in every other seat (``focal_seats=1``: a block is one game per seat, so its
fair share is 1/players) and runs until the confidence sequence decides, or its cap of blocks.
Results go to ``results/decided/`` after every block; running the script again resumes each match
where it stopped, so the table survives a stopped process.

Usage:
    python scripts/strength_table.py play [--only GAME] [--players N] [--pairing ismcts,heuristic] [--cap N]
                                          [--workers W]
    python scripts/strength_table.py table          # the Markdown table of what is in results/decided/
    python scripts/strength_table.py head-to-head   # the table of ismcts against OpenSpiel's ISMCTSBot

The head-to-head matches are played by ``henge tournament`` (see docs/agents.md) into
``results/decided/GAME_Np_ismcts_vs_openspiel-ismcts_seed1.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import henge
from henge.tournament import decided_match

RESULTS = Path("results/decided")
PAIRINGS = [("heuristic", "random"), ("ismcts", "random"), ("ismcts", "heuristic")]
CAPS = {("heuristic", "random"): 60, ("ismcts", "random"): 12, ("ismcts", "heuristic"): 12}
"""Blocks at most per match: a search match costs far more per block, and two cores must finish the table."""


SEARCH = "ismcts:iterations=100"
"""The search bot as the table plays it: a third of its default 300 iterations, so that two cores finish
the table in an hour; its default settings are stronger still."""


def spec(name: str) -> str:
    """Returns the bot spec a pairing's name stands for."""
    return SEARCH if name == "ismcts" else name


def path_of(game_id: str, players: int, focal: str, opponent: str) -> Path:
    name = "_vs_".join(spec(n).replace(":", "-").replace("=", "") for n in (focal, opponent))
    return RESULTS / f"{game_id}_{players}p_{name.replace('_vs_', 'x1_vs_', 1)}_seed0.json"


def configurations(
    only: str | None, pairing: str | None, players_only: int | None = None
) -> list[tuple[str, int, str, str]]:
    chosen = []
    for focal, opponent in PAIRINGS:
        if pairing is not None and pairing != f"{focal},{opponent}":
            continue
        for game_id in henge.list_games():
            if only is not None and game_id != only:
                continue
            info = henge.game_class(game_id).info
            for players in range(info.min_players, info.max_players + 1):
                if players_only is None or players == players_only:
                    chosen.append((game_id, players, focal, opponent))
    return chosen


def play(args: argparse.Namespace) -> None:
    for game_id, players, focal, opponent in configurations(args.only, args.pairing, args.players):
        out = path_of(game_id, players, focal, opponent)
        out.parent.mkdir(parents=True, exist_ok=True)
        cap = args.cap or CAPS[focal, opponent]
        start = time.monotonic()
        result = decided_match(
            game_id,
            players,
            spec(focal),
            spec(opponent),
            focal_seats=1,
            seed=0,
            cap_blocks=cap,
            workers=args.workers,
            out=out,
            resume=True,
        )
        print(f"{result.line()} [{time.monotonic() - start:.0f} s here]", flush=True)


def table(_args: argparse.Namespace) -> None:
    head = "| game | players | pairing | decision | blocks | games | mean return per seat | 95% CS per seat"
    print(head + " | fair share | cpu s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game_id, players, focal, opponent in configurations(None, None):
        path = path_of(game_id, players, focal, opponent)
        if not path.exists():
            continue
        status = json.loads(path.read_text())["status"]
        per = status["seats_per_game"]
        low, high = status["interval"]
        decision = {"above": "**above**", "below": "below", "undecided": "undecided at cap"}.get(
            status["decision"], status["decision"]
        )
        print(
            f"| {game_id} | {players} | {spec(focal)} vs {opponent} | {decision} | {status['blocks']} "
            f"| {status['games']} "
            f"| {status['mean'] / per:.3f} | {low / per:.3f}-{high / per:.3f} | {status['fair_share'] / per:.3f} "
            f"| {status['cpu_seconds']:.1f} |"
        )


def head_to_head(_args: argparse.Namespace) -> None:
    print("| game | players | decision | blocks | games | ismcts mean return per game | 95% CS | fair share ", end="")
    print("| ismcts s/decision | OpenSpiel s/decision | cpu s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game_id in henge.list_games():
        info = henge.game_class(game_id).info
        for players in range(info.min_players, info.max_players + 1):
            path = RESULTS / f"{game_id}_{players}p_ismcts_vs_openspiel-ismcts_seed1.json"
            if not path.exists():
                continue
            data = json.loads(path.read_text())
            status = data["status"]
            per_decision = {a["agent"]: a["cpu_seconds_per_decision"] for a in data["agents"]}
            low, high = status["interval"]
            decision = {"above": "**above**", "below": "below", "undecided": "undecided at cap"}.get(
                status["decision"], status["decision"]
            )
            print(
                f"| {game_id} | {players} | {decision} | {status['blocks']} | {status['games']} "
                f"| {status['mean']:.3f} | {low:.3f}-{high:.3f} | {status['fair_share']:.3f} "
                f"| {per_decision['ismcts']:.3f} | {per_decision['openspiel-ismcts']:.3f} "
                f"| {status['cpu_seconds']:.0f} |"
            )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play")
    playing.add_argument("--only")
    playing.add_argument("--pairing")
    playing.add_argument("--players", type=int, help="only this player count")
    playing.add_argument("--cap", type=int)
    playing.add_argument("--workers", type=int, default=1)
    playing.set_defaults(run=play)
    commands.add_parser("table").set_defaults(run=table)
    commands.add_parser("head-to-head").set_defaults(run=head_to_head)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
