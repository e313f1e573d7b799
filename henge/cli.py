"""The ``henge`` command line: list games, play in the terminal or the browser, replay records, benchmark."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

import henge
from henge.agents import check_agent
from henge.analysis.command import analysis_flags, parse_options
from henge.core import game_problems


def _console() -> Console:
    return Console(highlight=False)


def _options(game_id: str, variant: str | None, texts: Sequence[str] = ()) -> dict[str, Any]:
    """Returns the game's options from ``--variant`` and ``--option NAME=VALUE`` (each checked)."""
    if variant is None and not texts:
        return {}
    try:
        info = henge.game_class(game_id).info
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    return parse_options(info, texts, variant)


OPTION_HELP = (
    "A rule option as NAME=VALUE, repeatable, e.g. track=20 (each game's options: `henge games`, and the "
    '"Designer options" of its docs page).'
)


@click.group()
@click.version_option(henge.__version__, prog_name="henge")
def main() -> None:
    """henge: the Stonehenge Anthology's games in Python."""


@main.command()
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
    for problem in game_problems():  # an installed game package that cannot be used, by name
        click.echo(f"not listed: {problem}", err=True)


@main.command(name="play")
@click.argument("game_id", metavar="GAME")
@click.option("--players", "-n", type=int, default=None, help="Number of players (default: the game's fewest).")
@click.option("--seat", "-s", type=int, default=0, show_default=True, help="Your seat, 0 to players-1.")
@click.option(
    "--bots",
    "-b",
    default="random",
    show_default=True,
    help="Bot for the other seats, or a comma list of one per seat.",
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
    bots: str,
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


@main.command(name="replay")
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


@main.command(name="bench")
@click.argument("game_ids", metavar="[GAME]...", nargs=-1)
@click.option(
    "--seconds",
    "-t",
    type=float,
    default=None,
    help="Seconds of random play per game [default: 10]; with --bots, seconds per game and bot [default: 60].",
)
@click.option(
    "--repeats", "-r", type=int, default=5, show_default=True, help="Runs per game; figures are their medians."
)
@click.option("--bots", is_flag=True, help="Time the bots' decisions instead (ismcts and heuristic, default settings).")
@click.option(
    "--decisions",
    "-d",
    type=int,
    default=None,
    help="With --bots: timed decisions per game and bot [default: 300 for ismcts, 3000 for heuristic].",
)
@click.option("--seed", type=int, default=1, show_default=True, help="With --bots: the first game seed.")
@click.option(
    "--against-openspiel",
    is_flag=True,
    help="Race each game against OpenSpiel's C++ hearts in one loop, alternating (--seconds each, 4 x --repeats "
    "slices), and time clone() early and late.",
)
@click.option(
    "--server",
    is_flag=True,
    help="Load-test a served henge instead: people acting at --tables tables while search bots think at two "
    "more, for --seconds [default: 30] (henge serve on a fresh SQLite database and a loopback port).",
)
@click.option("--tables", type=click.IntRange(min=1, max=200), default=8, show_default=True, help="With --server.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_command(
    game_ids: tuple[str, ...],
    seconds: float | None,
    repeats: int,
    bots: bool,
    decisions: int | None,
    seed: int,
    against_openspiel: bool,
    server: bool,
    tables: int,
    as_json: bool,
) -> None:
    """Measure engine speed on uniformly random games (medians of repeated runs), or the bots' decision times."""
    from henge.bench import BOT_AGENTS, bench_bots, bench_game, bots_table, table

    ids = list(game_ids) or henge.list_games()
    for game_id in ids:
        if game_id not in henge.list_games():
            raise click.BadParameter(f"unknown game {game_id!r}; games: {', '.join(henge.list_games())}")
    if seconds is None:
        seconds = 60.0 if bots else 30.0 if server else 10.0
    if seconds <= 0 or repeats < 1 or (decisions is not None and decisions < 1):
        raise click.BadParameter("--seconds must be positive, --repeats and --decisions at least 1")
    if against_openspiel:
        _bench_against_openspiel(ids, seconds, repeats, as_json)
        return
    if server:
        _bench_server(seconds, tables, as_json)
        return
    if bots:
        results = [
            bench_bots(game_id, agent, seconds=seconds, decisions=decisions, seed=seed)
            for game_id in ids
            for agent in BOT_AGENTS
        ]
        if as_json:
            click.echo(json.dumps(results, indent=1))
        else:
            _console().print(bots_table(results))
        return
    results = [bench_game(game_id, seconds=seconds, repeats=repeats) for game_id in ids]
    if as_json:
        click.echo(json.dumps(results, indent=1))
    else:
        _console().print(table(results))


def _bench_server(seconds: float, tables: int, as_json: bool) -> None:
    from rich.table import Table

    from henge.server.load import serve_and_load

    if seconds > 60:
        raise click.BadParameter("a server load test runs 60 seconds at most", param_hint="--seconds")
    figures = serve_and_load(seconds=seconds, tables=tables, search_tables=2, seed=1)
    if as_json:
        click.echo(json.dumps(figures, indent=1))
        return
    shown = Table("figure", "value", title="henge serve under load (loopback, SQLite)")
    for key, value in figures.items():
        shown.add_row(key.replace("_", " "), str(value))
    _console().print(shown)


def _bench_against_openspiel(ids: list[str], seconds: float, repeats: int, as_json: bool) -> None:
    from henge import bench_openspiel

    try:
        results = [bench_openspiel.against_hearts(game_id, seconds=seconds, slices=4 * repeats) for game_id in ids]
    except bench_openspiel.MissingOpenSpiel as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps(results, indent=1))
    else:
        _console().print(bench_openspiel.table(results))


@main.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", "-p", type=int, default=8000, show_default=True, help="Port to listen on (0: any free port).")
@click.option(
    "--db",
    default="sqlite:///henge.db",
    show_default=True,
    help="Database URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/NAME.",
)
@click.option(
    "--bot-delay", type=float, default=0.8, show_default=True, help="Seconds a bot pauses before each of its turns."
)
@click.option("--quiet", "-q", is_flag=True, help="Log only warnings and errors.")
@click.option(
    "--turn-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=120.0,
    show_default=True,
    help="Seconds a person has for a turn at a lobby table before a bot plays for them.",
)
@click.option(
    "--abandon-after",
    type=click.FloatRange(min=0, min_open=True),
    default=86400.0,
    show_default=True,
    help="Seconds with nobody seated and no action before a table is abandoned.",
)
@click.option(
    "--bot-workers",
    type=click.IntRange(min=0, max=64),
    help="Processes the bots think in [default: one core fewer than the machine has, at least 1; "
    "0: in the server's process].",
)
@click.option(
    "--bot-seconds",
    type=click.FloatRange(min=0, max=3600, min_open=True),
    default=10.0,
    show_default=True,
    help="Processor time one bot decision may take; past it the bot plays a drawn legal action.",
)
@click.option("--max-body-bytes", type=click.IntRange(min=1), help="Largest HTTP request body [default: 65536].")
@click.option("--max-message-bytes", type=click.IntRange(min=1), help="Largest WebSocket message [default: 16384].")
@click.option("--max-json-depth", type=click.IntRange(min=1), help="Deepest nesting of JSON [default: 32].")
@click.option(
    "--tables-per-minute",
    type=click.FloatRange(min=0, min_open=True),
    help="New tables a client may create [default: 30].",
)
@click.option("--table-burst", type=click.IntRange(min=1), help="New tables a client may create at once [default: 10].")
@click.option(
    "--actions-per-second",
    type=click.FloatRange(min=0, min_open=True),
    help="WebSocket messages and other writes a client may send [default: 20].",
)
@click.option("--action-burst", type=click.IntRange(min=1), help="Of those, how many at once [default: 60].")
@click.option(
    "--reads-per-second",
    type=click.FloatRange(min=0, min_open=True),
    help="Pages and API reads a client may make [default: 50].",
)
@click.option("--read-burst", type=click.IntRange(min=1), help="Of those, how many at once [default: 200].")
@click.option(
    "--address-share", type=click.IntRange(min=1), help="Clients' worth of each rate one address may use [default: 4]."
)
def serve_command(
    host: str,
    port: int,
    db: str,
    bot_delay: float,
    quiet: bool,
    turn_limit: float,
    abandon_after: float,
    bot_workers: int | None,
    bot_seconds: float,
    **limits: Any,
) -> None:
    """Play in the browser: serve the lobby and the live tables, stored in a database.

    The options from --max-body-bytes on are the limits on one client (docs/web.md, "Limits").
    """
    from sqlalchemy.exc import SQLAlchemyError

    from henge.server import Limits, serve
    from henge.server.store import describe_error, safe_url

    if bot_delay < 0:
        raise click.BadParameter("must be 0 or more", param_hint="--bot-delay")
    names = {"max_body_bytes": "body_bytes", "max_message_bytes": "message_bytes", "max_json_depth": "json_depth"}
    try:
        chosen = Limits(**{names.get(k, k): v for k, v in limits.items() if v is not None})
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    try:
        serve(
            host=host,
            port=port,
            db=db,
            bot_delay=bot_delay,
            quiet=quiet,
            limits=chosen,
            turn_limit=turn_limit,
            abandon_after=abandon_after,
            bot_workers=bot_workers,
            bot_seconds=bot_seconds,
        )
    except (SQLAlchemyError, ImportError) as error:
        hint = " (pip install 'henge[postgres]' for PostgreSQL)" if isinstance(error, ImportError) else ""
        raise click.UsageError(f"cannot open the database {safe_url(db)}: {describe_error(error, db)}{hint}") from None
    except OSError as error:
        raise click.UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    except KeyboardInterrupt:
        pass


@main.command(name="tournament")
@click.argument("game_id", metavar="GAME")
@click.option("--players", "-n", type=int, default=None, help="Seats per game (default: the game's fewest).")
@click.option(
    "--agents",
    "-a",
    default="ismcts,heuristic,random",
    show_default=True,
    help="Comma list of bots; settings after colons, e.g. ismcts:iterations=1000.",
)
@click.option("--games", "-g", type=int, default=1000, show_default=True, help="Games to play.")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes (default: one per core).")
@click.option("--seed", type=int, default=0, show_default=True, help="Tournament seed: same seed, same games.")
@click.option("--variant", "-v", default=None, help="A variant of the game (see `henge games`).")
@click.option("--option", "-o", "option_texts", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Save the settings, summary and every game (JSON) here; with --until-decided after every block "
    "(default: results/decided/GAME_Np_FOCAL_vs_OPPONENTS_seedS.json).",
)
@click.option(
    "--until-decided",
    is_flag=True,
    help="Play the first agent against the others in blocks of every seat arrangement until a confidence "
    "sequence puts it above or below its fair share, or --cap-blocks.",
)
@click.option(
    "--cap-blocks", type=int, default=100, show_default=True, help="With --until-decided: the most blocks to play."
)
@click.option(
    "--alpha", type=float, default=0.05, show_default=True, help="With --until-decided: 1 - the confidence level."
)
@click.option(
    "--focal-seats",
    type=int,
    default=None,
    help="With --until-decided: the first agent's seats in every game (default: seats shared as in a tournament).",
)
@click.option(
    "--margin",
    type=float,
    default=0.0,
    show_default=True,
    help="With --until-decided: decide against the fair share less this, not the fair share itself "
    "(0.05: is the first agent no worse than the others by more than 0.05?).",
)
@click.option("--resume", is_flag=True, help="With --until-decided: continue the match saved in --out.")
def tournament_command(
    game_id: str,
    players: int | None,
    agents: str,
    games: int,
    workers: int | None,
    seed: int,
    variant: str | None,
    option_texts: tuple[str, ...],
    out_path: Path | None,
    until_decided: bool,
    cap_blocks: int,
    alpha: float,
    focal_seats: int | None,
    margin: float,
    resume: bool,
) -> None:
    """Play bots against each other with rotated seats and report wins, intervals and ratings.

    With --until-decided, play the first agent against the others until the answer is known (see
    docs/agents.md, "Decided matches").
    """
    import os

    source = click.get_current_context().get_parameter_source
    only_decided = [
        f"--{name.replace('_', '-')}"
        for name in ("cap_blocks", "alpha", "focal_seats", "margin", "resume")
        if source(name) is not click.core.ParameterSource.DEFAULT
    ]
    if only_decided and not until_decided:
        verb = "goes" if len(only_decided) == 1 else "go"
        raise click.UsageError(f"{', '.join(only_decided)} {verb} only with --until-decided")
    options = _options(game_id, variant, option_texts)
    if until_decided:
        if source("games") is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--games does not go with --until-decided: it stops when decided or at --cap-blocks")
        _tournament_until_decided(
            game_id, players, agents, workers, seed, options, out_path, cap_blocks, alpha, focal_seats, margin, resume
        )
        return

    from henge import tournament
    from henge.terminal import progress_bar

    try:
        info = henge.game_class(game_id).info
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    config = tournament.TournamentConfig(
        game_id=game_id,
        players=info.min_players if players is None else players,
        agents=tuple(a.strip() for a in agents.split(",") if a.strip()),
        games=games,
        seed=seed,
        options=options,
    )
    try:
        config.validate()
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise click.BadParameter("use at least one worker", param_hint="--workers")
    console = _console()
    console.width = max(console.width, 120)  # the table's columns do not wrap
    cycle = len(tournament.lineups(config.agents, config.players))
    if games % cycle:
        console.print(
            f"[yellow]note: {cycle} seat arrangements make a full rotation; "
            f"{games} games is not a multiple, so seats are not exactly balanced[/]"
        )
    with progress_bar(console) as progress:
        bar = progress.add_task(f"{game_id}, {config.players} players", total=games)
        results = tournament.run(config, workers=workers, on_game=lambda _: progress.advance(bar))
    data = tournament.report(config, results, workers=workers)
    console.print(tournament.table(data))
    if out_path is not None:
        out_path.write_text(json.dumps(data, indent=1))
        console.print(f"results saved to {out_path}")


def _tournament_until_decided(
    game_id: str,
    players: int | None,
    agents: str,
    workers: int | None,
    seed: int,
    options: dict[str, Any],
    out_path: Path | None,
    cap_blocks: int,
    alpha: float,
    focal_seats: int | None,
    margin: float,
    resume: bool,
) -> None:
    """``henge tournament --until-decided``: a decided match, saved after every block, resumable."""
    import os

    from henge import tournament
    from henge.terminal import progress_bar

    try:
        info = henge.game_class(game_id).info
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    names = tuple(a.strip() for a in agents.split(",") if a.strip())
    if len(names) < 2:
        raise click.UsageError("--until-decided plays the first of --agents against the others: name two or more")
    config = tournament.MatchConfig(
        game_id=game_id,
        players=info.min_players if players is None else players,
        focal=names[0],
        opponents=names[1:],
        focal_seats=focal_seats,
        seed=seed,
        options=options,
        alpha=alpha,
        cap_blocks=cap_blocks,
        margin=margin,
    )
    try:
        config.validate()
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise click.BadParameter("use at least one worker", param_hint="--workers")
    path = out_path if out_path is not None else tournament.default_match_path(config)
    if path.exists() and not resume:
        raise click.UsageError(f"{path} already exists: add --resume to continue its match, or choose another --out")
    per_block = len(tournament.match_lineups(config))
    console = _console()
    level = f"{100 - 100 * alpha:.12g}%"
    with progress_bar(console, time_left=False) as progress:
        bar = progress.add_task(f"{game_id}, {config.players} players: block 1", total=per_block)

        def block_done(result: tournament.MatchResult) -> None:
            low, high = result.interval
            description = (
                f"{game_id}, {config.players} players: block {result.blocks + 1}, "
                f"{level} CS {low:.3f}-{high:.3f} (fair share {result.fair_share:.3f}"
                + (f", bar {result.bar:.3f})" if margin else ")")
            )
            progress.reset(bar, total=per_block, description=description)

        try:
            result = tournament.run_match(
                config,
                workers=workers,
                out=path,
                resume=resume,
                on_game=lambda _: progress.advance(bar),
                on_block=block_done,
            )
        except tournament.ResumeError as error:
            raise click.UsageError(str(error)) from None
        except KeyboardInterrupt:
            progress.stop()
            click.echo(f"stopped: {path} holds every finished block; add --resume to go on", err=True)
            sys.exit(130)
    click.echo(result.line())
    click.echo(f"results saved to {path}")


@main.command(name="analyze")
@click.argument("game_id", metavar="GAME")
@analysis_flags
def analyze_command(game_id: str, **flags: Any) -> None:
    """Play many seeded games and write report.html (win share by seat, length, rounds, the round cap, leads,
    the game's own figures, with 95% intervals) and games.csv, one row per game (docs/analysis.md)."""
    from henge.analysis.command import run_analyze

    run_analyze(game_id, **flags)


@main.command(name="sweep")
@click.argument("game_id", metavar="GAME")
@analysis_flags
def sweep_command(game_id: str, **flags: Any) -> None:
    """Run the analysis at every value of an option (--option K=V1,V2,...) and compare the figures in one
    report.html, each value's games in NAME=VALUE/games.csv (docs/analysis.md)."""
    from henge.analysis.command import run_sweep

    run_sweep(game_id, **flags)


if __name__ == "__main__":
    main()
