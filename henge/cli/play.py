"""The commands that show the games and play them in the terminal: games, play, replay."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.table import Table

import henge
from henge.agents import check_agent, first_opponent, level_names
from henge.cli.common import OPTION_HELP, _console, _options
from henge.core import engine_path, game_problems


@click.command()
def games() -> None:
    """List the games with their player counts, variants and other options (--option NAME=VALUE)."""
    table = Table("game", "name", "players", "variants", "version", "about")
    knobs: list[str] = []
    for game_id in henge.list_games():
        info = henge.game_class(game_id).info
        players = (
            f"{info.min_players}" if info.min_players == info.max_players else f"{info.min_players}-{info.max_players}"
        )
        table.add_row(game_id, info.name, players, ", ".join(map(str, info.variants)), info.version, info.summary)
        own = [f"{o.name} {o.range_text()} (standard {o.default})" for o in info.options if not o.recorded_at_default]
        if own:
            knobs.append(f"  {game_id}: {'; '.join(own)}")
    console = _console()
    console.print(table)
    if knobs:
        console.print("Options (--option NAME=VALUE):", *knobs, sep="\n", highlight=False)
    console.print(f"Engine: {engine_path()}", highlight=False)
    for problem in game_problems():  # an installed game package that cannot be used, by name
        click.echo(f"not listed: {problem}", err=True)


@click.command(name="play")
@click.argument("game_id", metavar="GAME")
@click.option("--players", "-n", type=int, default=None, help="Number of players (default: the game's fewest).")
@click.option("--seat", "-s", type=int, default=0, show_default=True, help="Your seat, 0 to players-1.")
@click.option(
    "--bots",
    "-b",
    default=None,
    help=f"Level or bot for the other seats, or a comma list of one per seat; levels: {', '.join(level_names())} "
    "(docs/agents.md) [default: the lowest level].",
)
@click.option("--seed", type=int, default=None, help="Seed of the chance events (default: a fresh random one).")
@click.option("--variant", "-v", default=None, help="A variant of the game (see `henge games`).")
@click.option("--option", "-o", "option_texts", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Save the game record (JSON) here.",
)
def play_command(
    game_id: str,
    players: int | None,
    seat: int,
    bots: str | None,
    seed: int | None,
    variant: str | None,
    option_texts: tuple[str, ...],
    record_path: Path | None,
) -> None:
    """Play GAME in the terminal, you at one seat against bots at the others."""
    from henge.terminal.app import QuitGame, play_in_terminal

    console = _console()
    try:
        game = henge.load(game_id, players, **_options(game_id, variant, option_texts))
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if not 0 <= seat < game.num_players:
        raise click.BadParameter(f"seats run 0 to {game.num_players - 1}", param_hint="--seat")
    if bots is None:
        bots = first_opponent(game_id)
    bot_list = [b.strip() for b in bots.split(",") if b.strip()]
    for name in bot_list:
        try:  # an unknown bot or an evaluation-only one is refused here, saying which bots there are
            check_agent(name, game_id, players=game.num_players, options=dict(game.options))
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--bots") from None
    if not bot_list:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    if len(bot_list) > 1 and len(bot_list) != game.num_players - 1:
        raise click.BadParameter(
            f"give one bot for all seats or one per other seat ({game.num_players - 1})", param_hint="--bots"
        )
    try:
        record = play_in_terminal(console, game, seat=seat, bots=bot_list, seed=seed)
    except (KeyboardInterrupt, EOFError, QuitGame):
        console.print("\n[bold]Game abandoned.[/]")
        sys.exit(130)
    if record_path is not None:
        record_path.write_text(json.dumps(record, indent=1))
        console.print(f"record saved to {record_path}")


@click.command(name="replay")
@click.argument("record_path", metavar="RECORD.json", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step", type=int, default=None, help="Show this one step and stop.")
def replay_command(record_path: Path, step: int | None) -> None:
    """Step through a finished game with everything revealed."""
    from henge.terminal.app import show_replay

    console = _console()
    try:
        record = json.loads(record_path.read_text())
        show_replay(console, record, step=step)
    except json.JSONDecodeError as error:
        raise click.UsageError(f"{record_path} is not JSON: {error}") from None
    except ValueError as error:
        raise click.UsageError(f"{record_path}: {error}") from None
    except (KeyboardInterrupt, EOFError):
        console.print()
