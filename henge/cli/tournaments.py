"""The commands that play many games between bots: tournament (or a decided match), analyze, sweep."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

import henge
from henge.analysis.command import analysis_flags
from henge.cli.common import OPTION_HELP, _console, _options


@click.command(name="tournament")
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
    from henge.agents.blind import blind_spots
    from henge.analysis.command import echo_warnings

    warnings = blind_spots(game_id, config.agents, options)
    echo_warnings(warnings)
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
    data = tournament.report(config, results, workers=workers) | {"warnings": warnings}
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
    from henge.agents.blind import blind_spots
    from henge.analysis.command import echo_warnings

    echo_warnings(blind_spots(game_id, (config.focal, *config.opponents), options))
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


@click.command(name="analyze")
@click.argument("game_id", metavar="GAME")
@analysis_flags
def analyze_command(game_id: str, **flags: Any) -> None:
    """Play many seeded games and write report.html (win share by seat, length, rounds, the round cap, leads,
    the game's own figures, with 95% intervals) and games.csv, one row per game (docs/analysis.md)."""
    from henge.analysis.command import run_analyze

    run_analyze(game_id, **flags)


@click.command(name="sweep")
@click.argument("game_id", metavar="GAME")
@analysis_flags
def sweep_command(game_id: str, **flags: Any) -> None:
    """Run the analysis at every value of an option (--option K=V1,V2,...) and compare the figures in one
    report.html, each value's games in NAME=VALUE/games.csv (docs/analysis.md)."""
    from henge.analysis.command import run_sweep

    run_sweep(game_id, **flags)
