"""Plays the levels' ladder as decided matches, measures their game lengths, and prints the tables.

Every game at every player count: each level plays one seat against the level below it in every other
seat (``focal_seats=1``), as a decided match stopped by its confidence sequence or at its cap. A rung
is the match of the two levels' bots as each plays that game (``henge.agents.LEVELS``); a match of the
same two bots already in ``results/decided/`` (the strength table's) is the rung's result, and new ones
go to ``results/ladder/``, written after every block, so running the script again resumes them.
Ratings are on one scale: ``casual`` (the rule-based player) is 1500, and each rung adds the Elo
difference fitted to its games (every pair of seats of the two bots, :func:`henge.tournament.elo_ratings`).

Lengths: the median number of actions of a game the level plays against itself (every seat; seeds
0..N-1), against the rule-based players' own self-play. A search level's self-play costs minutes a
game, so its length is measured over fewer games (``--search-games``).

Usage:
    python scripts/ladder.py play [--only GAME] [--players N] [--rung LEVEL] [--cap N] [--workers W]
    python scripts/ladder.py lengths [--only GAME] [--games N] [--search-games N]
    python scripts/ladder.py table          # the Markdown table of what results/ladder and results/decided hold
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import henge
from henge.agents import LEVELS, RULES_ONLY, make_agent
from henge.records import play as play_game
from henge.tournament import decided_match, elo_ratings, pairwise_scores

RESULTS = Path("results/ladder")
DECIDED = Path("results/decided")
LENGTHS = RESULTS / "lengths.json"
CAP = {"casual": 200, "strong": 30}
"""Blocks at most per rung, by the upper level: a search's block costs minutes, the rule-based player's a second."""
ANCHOR = "casual"
ANCHOR_RATING = 1500.0


def counts(only: str | None, players: int | None) -> list[tuple[str, int]]:
    chosen = []
    for game_id in ("stonerush", "fightin", "druid_olympics", "first_druid", "spell_casting"):
        if only is not None and game_id != only:
            continue
        info = henge.game_class(game_id).info
        for n in range(info.min_players, info.max_players + 1):
            if players is None or n == players:
                chosen.append((game_id, n))
    return chosen


def rungs() -> list[tuple[str, str]]:
    """Returns each level with the level below it, weakest first."""
    return [(LEVELS[k].name, LEVELS[k - 1].name) for k in range(1, len(LEVELS))]


def spec(level_name: str, game_id: str) -> str:
    return next(level for level in LEVELS if level.name == level_name).spec_for(game_id)


def _name(spec_text: str) -> str:
    return spec_text.replace(":", "-").replace("=", "")


def find(game_id: str, players: int, focal: str, opponent: str) -> Path | None:
    """Returns the results file of the one-seat match of ``focal`` against ``opponent``, if one was played."""
    own = RESULTS / f"{game_id}_{players}p_{_name(focal)}x1_vs_{_name(opponent)}.json"
    if own.exists():
        return own
    for path in sorted(DECIDED.glob(f"{game_id}_{players}p_*.json")):
        config = json.loads(path.read_text()).get("config", {})
        if (
            config.get("focal") == focal
            and config.get("opponents") == [opponent]
            and config.get("focal_seats") == 1
            and not config.get("options")
        ):
            return path
    return None


def play(args: argparse.Namespace) -> None:
    for game_id, players in counts(args.only, args.players):
        for upper, lower in rungs():
            if args.rung is not None and upper != args.rung:
                continue
            focal, opponent = spec(upper, game_id), spec(lower, game_id)
            found = find(game_id, players, focal, opponent)
            out = found or RESULTS / f"{game_id}_{players}p_{_name(focal)}x1_vs_{_name(opponent)}.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            start = time.monotonic()
            result = decided_match(
                game_id,
                players,
                focal,
                opponent,
                focal_seats=1,
                seed=0,
                cap_blocks=args.cap or CAP[upper],
                workers=args.workers,
                out=out,
                resume=True,
            )
            print(f"{upper} over {lower}: {result.line()} [{time.monotonic() - start:.0f} s here]", flush=True)


def _self_play_lengths(game_id: str, players: int, agent: str, games: int) -> list[int]:
    game = henge.load(game_id, players)
    return [len(play_game(game, [make_agent(agent) for _ in range(players)], seed=s)["actions"]) for s in range(games)]


def lengths(args: argparse.Namespace) -> None:
    known: dict[str, Any] = json.loads(LENGTHS.read_text()) if LENGTHS.exists() else {}
    for game_id, players in counts(args.only, None):
        key = f"{game_id}/{players}"
        entry = known.setdefault(key, {})
        for name in ("heuristic", *(level.name for level in LEVELS)):
            bot = name if name == "heuristic" else spec(name, game_id)
            searching = make_agent(bot).needs_samples
            wanted = args.search_games if searching else args.games
            if entry.get(name, {}).get("bot") == bot and entry[name]["games"] >= wanted:
                continue  # measured already, with the bot that plays it now
            start = time.process_time()
            found = _self_play_lengths(game_id, players, bot, wanted)
            entry[name] = {"bot": bot, "games": wanted, "median": statistics.median(found), "lengths": found}
            seconds = time.process_time() - start
            print(f"{key} {name} ({bot}): median {entry[name]['median']} over {wanted} [{seconds:.0f} cpu s]")
            RESULTS.mkdir(parents=True, exist_ok=True)
            LENGTHS.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")


def rung_difference(path: Path) -> float:
    """Returns the Elo difference of a one-seat match's focal bot over its opponent, fitted to its games."""
    data = json.loads(path.read_text())
    focal, opponent = data["config"]["focal"], data["config"]["opponents"][0]
    games = [game for block in data["blocks"] for game in block["games"]]
    ratings = elo_ratings([focal, opponent], pairwise_scores(games))
    return ratings[focal] - ratings[opponent]


def _verdict(path: Path | None) -> str:
    """Returns a match's cell: its decision, the focal bot's mean return per seat with its 95% sequence
    against the fair share, and its blocks ("not played" without a match)."""
    if path is None:
        return "not played"
    status = json.loads(path.read_text())["status"]
    per = status["seats_per_game"]
    word = {
        "above": "**above**",
        "below": "below",
        "undecided": "undecided at cap",
        "running": "stopped, resumable",
    }.get(status["decision"], status["decision"])
    low, high, fair = (x / per for x in (*status["interval"], status["fair_share"]))
    return f"{word} ({status['mean'] / per:.3f}, {low:.3f}-{high:.3f} vs {fair:.3f}; {status['blocks']} blocks)"


def table(_args: argparse.Namespace) -> None:
    measured: dict[str, Any] = json.loads(LENGTHS.read_text()) if LENGTHS.exists() else {}
    names = [level.name for level in LEVELS]
    head = "| game | players | " + " | ".join(f"{n} rating" for n in names)
    head += " | " + " | ".join(f"{upper} over {lower}" for upper, lower in rungs())
    head += " | median length: " + ", ".join(names) + " (× rule-based self-play)"
    head += f" | {RULES_ONLY} over random | {RULES_ONLY} against casual |"
    print(head)
    print("|---" * (2 + len(names) + len(rungs()) + 3) + "|")
    for game_id, players in counts(None, None):
        ratings: dict[str, float | None] = dict.fromkeys(names)
        ratings[ANCHOR] = ANCHOR_RATING
        verdicts = []
        differences: dict[tuple[str, str], float] = {}
        for upper, lower in rungs():
            path = find(game_id, players, spec(upper, game_id), spec(lower, game_id))
            verdicts.append(_verdict(path))
            if path is not None:
                differences[upper, lower] = rung_difference(path)
        at = names.index(ANCHOR)
        for k in range(at + 1, len(names)):
            step = differences.get((names[k], names[k - 1]))
            below = ratings[names[k - 1]]
            ratings[names[k]] = None if step is None or below is None else below + step
        for k in range(at - 1, -1, -1):
            step = differences.get((names[k + 1], names[k]))
            above = ratings[names[k + 1]]
            ratings[names[k]] = None if step is None or above is None else above - step
        lengths_text = "-"
        entry = measured.get(f"{game_id}/{players}", {})
        if "heuristic" in entry:
            base = entry["heuristic"]["median"]
            parts = []
            for n in names:
                if n in entry:
                    parts.append(f"{entry[n]['median']:g} ({entry[n]['median'] / base:.2f}, {entry[n]['games']} games)")
                else:
                    parts.append("-")
            lengths_text = "; ".join(parts)
        rating_cells = " | ".join("-" if r is None else f"{r:.0f}" for r in ratings.values())
        searches = [_verdict(find(game_id, players, RULES_ONLY, other)) for other in ("random", spec(ANCHOR, game_id))]
        row = [game_id, str(players), rating_cells, *verdicts, lengths_text, *searches]
        print("| " + " | ".join(row) + " |")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play")
    playing.add_argument("--only")
    playing.add_argument("--players", type=int)
    playing.add_argument("--rung", help="only the rung of this level over the one below")
    playing.add_argument("--cap", type=int)
    playing.add_argument("--workers", type=int, default=1)
    playing.set_defaults(run=play)
    measuring = commands.add_parser("lengths")
    measuring.add_argument("--only")
    measuring.add_argument("--games", type=int, default=40)
    measuring.add_argument("--search-games", type=int, default=2)
    measuring.set_defaults(run=lengths)
    commands.add_parser("table").set_defaults(run=table)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
