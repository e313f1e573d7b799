"""The bench command: the speed of the rules, of the bots, of the server, against OpenSpiel."""

from __future__ import annotations

import json

import click
from rich.table import Table

import henge
from henge.agents import check_agent, level_names, levels_for
from henge.cli.common import _console
from henge.core import engine_path


@click.command(name="bench")
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
@click.option(
    "--bots",
    is_flag=True,
    help="Time the bots' decisions instead: every level, and the bots --agents names, at the largest player count.",
)
@click.option(
    "--agents",
    "agent_specs",
    default=None,
    help="With --bots: a comma list of levels and bots to time [default: the levels, then rules-search].",
)
@click.option(
    "--decisions",
    "-d",
    type=int,
    default=None,
    help="With --bots: timed decisions per game and bot [default: 300 for a search, 3000 for another].",
)
@click.option("--seed", type=int, default=1, show_default=True, help="With --bots: the first game seed.")
@click.option(
    "--against-openspiel",
    is_flag=True,
    help="Race each game against OpenSpiel's C++ hearts in one loop, alternating (--seconds each, 4 x --repeats "
    "slices), and time clone() early and late.",
)
@click.option(
    "--playouts",
    is_flag=True,
    help="Play whole games in compiled code (henge.core.playouts: random, then the rule-based player at every "
    "seat) against hearts' lean loop, alternating (--seconds each, 4 x --repeats slices).",
)
@click.option(
    "--environments",
    is_flag=True,
    help="Time random play through the PettingZoo environment (steps and episodes per processor second) and "
    "one seat's tensor instead.",
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
    agent_specs: str | None,
    decisions: int | None,
    seed: int,
    against_openspiel: bool,
    playouts: bool,
    environments: bool,
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
    if not as_json:
        _console().print(f"Engine: {engine_path()}", highlight=False)
    if against_openspiel or playouts:
        _bench_against_openspiel(ids, seconds, repeats, as_json, playouts=playouts)
        return
    if server:
        _bench_server(seconds, tables, as_json)
        return
    if environments:
        from henge.bench import bench_environment, environments_table

        figures = [bench_environment(game_id, seconds=seconds, repeats=repeats) for game_id in ids]
        if as_json:
            click.echo(json.dumps(figures, indent=1))
        else:
            _console().print(environments_table(figures))
        return
    if bots:
        chosen = BOT_AGENTS if agent_specs is None else tuple(a.strip() for a in agent_specs.split(",") if a.strip())
        timed: list[tuple[str, str]] = []
        for game_id in ids:
            for agent in chosen:
                if agent_specs is None and agent in level_names() and not levels_for(game_id):
                    continue  # by default, a game without levels times its bots alone
                try:
                    check_agent(agent, game_id)
                except ValueError as error:
                    raise click.BadParameter(str(error), param_hint="--agents") from None
                timed.append((game_id, agent))
        results = [
            bench_bots(game_id, agent, seconds=seconds, decisions=decisions, seed=seed) for game_id, agent in timed
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


def _bench_against_openspiel(ids: list[str], seconds: float, repeats: int, as_json: bool, *, playouts: bool) -> None:
    from henge import bench_openspiel

    measure = bench_openspiel.playouts_against_hearts if playouts else bench_openspiel.against_hearts
    try:
        results = [measure(game_id, seconds=seconds, slices=4 * repeats) for game_id in ids]
    except bench_openspiel.MissingOpenSpiel as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps(results, indent=1))
    elif playouts:
        _console().print(bench_openspiel.playouts_table(results))
    else:
        _console().print(bench_openspiel.table(results))
