"""``henge analyze`` and ``henge sweep``: their flags, every check of the input before any game is
played, the progress bar and the files written (henge/cli/ registers the commands)."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from henge.core import GameInfo, Option, game_class

FlagFunction = Callable[..., Any]
SHOWN_VALUES = 12
"""Allowed values listed in an error, at most."""


def analysis_flags(function: FlagFunction) -> FlagFunction:
    """Adds the flags ``henge analyze`` and ``henge sweep`` share."""
    flags = [
        click.option("--players", "-n", type=int, default=None, help="Seats per game (default: the game's fewest)."),
        click.option("--variant", "-v", default=None, help="A variant of the game (the same as --option variant=V)."),
        click.option(
            "--option",
            "-o",
            "option_texts",
            multiple=True,
            metavar="K=V",
            help="A game option (repeatable); `henge sweep` takes K=V1,V2,... and compares the values. "
            "docs/analysis.md lists the options.",
        ),
        click.option(
            "--agents",
            "-a",
            default=None,
            help="Comma list of bots whose seats rotate (default: heuristic, or random where a game has none).",
        ),
        click.option("--games", "-g", type=int, default=200, show_default=True, help="Games to play."),
        click.option("--workers", "-w", type=int, default=None, help="Worker processes (default: one per core)."),
        click.option(
            "--ray",
            "ray_address",
            default=None,
            metavar="ADDRESS",
            help="Play the games as Ray tasks: 'auto' joins this machine's Ray instance or starts one; "
            "else the address of a cluster.",
        ),
        click.option("--seed", type=int, default=0, show_default=True, help="Seed: same seed, same games and figures."),
        click.option(
            "--out",
            "out_dir",
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            help="Folder for report.html and the CSV files (default: results/analysis/...).",
        ),
        click.option("--skill-trace", is_flag=True, help="Also play ismcts at growing iteration budgets (slow)."),
        click.option(
            "--budgets",
            default=None,
            metavar="N,N,...",
            help="With --skill-trace: the iteration budgets [default: 10,30,100,300].",
        ),
        click.option(
            "--trace-games",
            type=int,
            default=None,
            help="With --skill-trace: games per budget, rounded up to whole turns of the seats [default: 20].",
        ),
    ]
    for flag in reversed(flags):
        function = flag(function)
    return function


# --- checks --------------------------------------------------------------------------------------


def _values_text(option: Option) -> str:
    values = option.values
    if (
        len(values) > 2
        and all(type(v) is int for v in values)
        and list(values) == list(range(values[0], values[-1] + 1))
    ):
        return f"{values[0]}..{values[-1]}"
    shown = ", ".join(str(v) for v in values[:SHOWN_VALUES])
    return shown if len(values) <= SHOWN_VALUES else f"{shown}, ... ({len(values)} in all)"


def game_info(game_id: str) -> GameInfo:
    """Returns a game's metadata; an unknown game is a usage error naming the games."""
    try:
        return game_class(game_id).info
    except ValueError as error:
        raise click.UsageError(str(error)) from None


def _option(info: GameInfo, name: str) -> Option:
    for option in info.options:
        if option.name == name:
            return option
    known = "; ".join(f"{o.name} ({_values_text(o)})" for o in info.options) or "none"
    raise click.BadParameter(f"{info.id} has no option {name!r}; options: {known}", param_hint="--option")


def option_value(info: GameInfo, name: str, text: str) -> Any:
    """Returns the value of option ``name`` written ``text`` (the one whose ``str`` it is)."""
    option = _option(info, name)
    for value in option.values:
        if str(value) == text:
            return value
    raise click.BadParameter(
        f"option {name} of {info.id} takes {_values_text(option)}, not {text!r}", param_hint="--option"
    )


def _split(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise click.BadParameter(f"write an option as NAME=VALUE, not {text!r}", param_hint="--option")
    return name.strip(), value.strip()


def option_values(info: GameInfo, name: str, text: str) -> list[Any]:
    """Returns the values of a comma list ``V1,V2,...`` (a value that itself holds commas, such as
    First Druid's colours, is matched whole first)."""
    option = _option(info, name)
    known = {str(v): v for v in option.values}
    if text in known:
        return [known[text]]
    found: list[Any] = []
    pieces = text.split(",")
    start = 0
    while start < len(pieces):
        for end in range(start + 1, len(pieces) + 1):
            candidate = ",".join(pieces[start:end]).strip()
            if candidate in known:
                found.append(known[candidate])
                start = end
                break
        else:
            option_value(info, name, pieces[start].strip())  # raises, naming the allowed values
    return found


def parse_options(info: GameInfo, texts: Sequence[str], variant: str | None, *, many: bool = False) -> dict[str, Any]:
    """Returns {option: value} (with ``many``: {option: [values]}) from ``--option`` and ``--variant``."""
    found: dict[str, Any] = {}
    pairs = [_split(t) for t in texts]
    if variant is not None:
        if any(name == "variant" for name, _ in pairs):
            raise click.UsageError("give the variant once: --variant or --option variant=..., not both")
        if not any(o.name == "variant" for o in info.options):
            raise click.BadParameter(f"{info.id} has no variants", param_hint="--variant")
        pairs.insert(0, ("variant", variant))
    for name, text in pairs:
        if name in found:
            raise click.BadParameter(f"option {name} is given twice", param_hint="--option")
        found[name] = option_values(info, name, text) if many else option_value(info, name, text)
    return found


def _players(info: GameInfo, players: int | None) -> int:
    if players is None:
        return info.min_players
    if not info.min_players <= players <= info.max_players:
        seats = (
            f"{info.min_players}" if info.min_players == info.max_players else f"{info.min_players}-{info.max_players}"
        )
        raise click.BadParameter(f"{info.id} is for {seats} players, not {players}", param_hint="--players")
    return players


def _budgets(text: str | None) -> tuple[int, ...]:
    from henge.analysis.core import DEFAULT_BUDGETS

    if text is None:
        return DEFAULT_BUDGETS
    try:
        budgets = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise click.BadParameter(
            f"write budgets as whole numbers, e.g. 10,30,100, not {text!r}", param_hint="--budgets"
        ) from None
    if any(b < 1 for b in budgets):
        raise click.BadParameter(f"a budget is at least 1 iteration, not {text!r}", param_hint="--budgets")
    return budgets


def _check_run(flags: dict[str, Any]) -> tuple[int, str | None]:
    """Returns (workers, Ray address) after checking them, and that the plots can be drawn."""
    workers, address = flags["workers"], flags["ray_address"]
    if workers is not None and address is not None:
        raise click.UsageError("--workers and --ray do not go together: play in local processes or on Ray, not both")
    if workers is not None and workers < 1:
        raise click.BadParameter(f"use at least one worker, not {workers}", param_hint="--workers")
    if address is not None:
        from henge.analysis.run import ray_installed

        if not ray_installed():
            raise click.UsageError("--ray needs Ray: pip install 'henge[ray]'")
    if importlib.util.find_spec("matplotlib") is None:
        raise click.UsageError("the report's plots need matplotlib: pip install 'henge[analysis]'")
    return (workers or os.cpu_count() or 1), address


def build_config(game_id: str, flags: dict[str, Any], options: dict[str, Any]) -> Any:
    """Returns the analysis's settings after checking every flag (a usage error says what is allowed)."""
    from henge.analysis.core import DEFAULT_TRACE_GAMES, AnalysisConfig, default_agent

    info = game_info(game_id)
    players = _players(info, flags["players"])
    games = flags["games"]
    if games < 1:
        raise click.BadParameter(f"play at least one game, not {games}", param_hint="--games")
    trace = flags["skill_trace"]
    if not trace and (flags["budgets"] is not None or flags["trace_games"] is not None):
        raise click.UsageError("--budgets and --trace-games go only with --skill-trace")
    trace_games = DEFAULT_TRACE_GAMES if flags["trace_games"] is None else flags["trace_games"]
    if trace_games < 1:
        raise click.BadParameter(f"play at least one game per budget, not {trace_games}", param_hint="--trace-games")
    text = flags["agents"]
    agents = (default_agent(game_id),) if text is None else tuple(a.strip() for a in text.split(",") if a.strip())
    if not agents:
        raise click.BadParameter("name at least one agent", param_hint="--agents")
    config = AnalysisConfig(
        game_id=game_id,
        players=players,
        agents=agents,
        games=games,
        seed=flags["seed"],
        options=options,
        budgets=_budgets(flags["budgets"]) if trace else (),
        trace_games=trace_games,
    )
    check_config(config)
    return config


def check_config(config: Any) -> None:
    """Raises a usage error if the game refuses the options or an agent cannot play."""
    from henge.core import load

    try:
        load(config.game_id, config.players, **config.options)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--option") from None
    try:
        config.validate()
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--agents") from None


def _command(name: str, config: Any, flags: dict[str, Any], options: dict[str, str]) -> str:
    words = ["henge", name, config.game_id, "--players", str(config.players)]
    for key, value in options.items():
        words += ["--option", f"{key}={value}"]
    if flags["agents"] is not None:
        words += ["--agents", ",".join(config.agents)]
    words += ["--games", str(config.games), "--seed", str(config.seed)]
    if config.budgets:
        words += [
            "--skill-trace",
            "--budgets",
            ",".join(map(str, config.budgets)),
            "--trace-games",
            str(config.trace_games),
        ]
    return shlex.join(words)


def _default_out(kind: str, config: Any, extra: str = "") -> Path:
    def clean(text: Any) -> str:
        return re.sub(r"[^A-Za-z0-9._-]+", "-", str(text)).strip("-")

    options = "".join(f"-{clean(k)}{clean(v)}" for k, v in sorted(config.options.items()))
    return Path("results") / kind / f"{config.game_id}{options}{extra}_{config.players}p_seed{config.seed}"


def options_markdown(game_ids: Sequence[str]) -> str:
    """Returns a Markdown table of every option of the games: what a designer can sweep."""
    lines = ["| game | option | values | standard | what it does |", "|---|---|---|---|---|"]
    for game_id in game_ids:
        for option in game_class(game_id).info.options:
            doc = option.doc.replace("|", "\\|")
            lines.append(f"| `{game_id}` | `{option.name}` | {_values_text(option)} | {option.default} | {doc} |")
    return "\n".join(lines)


# --- running -------------------------------------------------------------------------------------


def echo_warnings(warnings: Sequence[str]) -> None:
    """Prints each warning on a line of its own, before any game is played (the report repeats them)."""
    for text in warnings:
        click.echo(f"warning: {text}")


def _progress(total: int, description: str) -> Any:
    from rich.console import Console

    from henge.terminal import progress_bar

    progress = progress_bar(Console(stderr=True))
    progress.add_task(description, total=total)
    return progress


@contextmanager
def _ray_errors() -> Iterator[None]:
    """Turns a Ray cluster that cannot be reached into a usage error (raised before any game starts)."""
    from henge.analysis.run import RayUnavailableError

    try:
        yield
    except RayUnavailableError as error:
        raise click.UsageError(str(error)) from None


def _played(progress: Any) -> Callable[[dict[str, Any]], None]:
    task = progress.task_ids[0]
    return lambda _row: progress.advance(task)


def run_analyze(game_id: str, **flags: Any) -> None:
    """``henge analyze``: checks every flag, plays the games and writes the report and the CSV."""
    from henge.analysis.core import analyze
    from henge.analysis.report import write_analysis

    info = game_info(game_id)
    options = parse_options(info, flags["option_texts"], flags["variant"])
    config = build_config(game_id, flags, options)
    workers, address = _check_run(flags)
    echo_warnings(config.warnings())
    out = flags["out_dir"] or _default_out("analysis", config)
    total = len(config.jobs())
    with _progress(total, f"{game_id}, {config.players} players") as progress, _ray_errors():
        analysis = analyze(config, workers=workers, ray_address=address, on_row=_played(progress))
    texts = {k: str(v) for k, v in options.items()}
    report = write_analysis(analysis, out, _command("analyze", config, flags, texts))
    for key, what in (("seats", "seat"), ("positions", "place in the order of play")):
        shares = ", ".join(f"{s['rate']:.3f} ({s['low']:.3f}-{s['high']:.3f})" for s in analysis.summary[key])
        click.echo(f"win share by {what}, 95% intervals: {shares}")
    click.echo(f"{len(analysis.rows)} games in {analysis.wall_seconds:.1f} s")
    click.echo(f"report: {report}")
    click.echo(f"games: {out / 'games.csv'}")


def run_sweep(game_id: str, **flags: Any) -> None:
    """``henge sweep``: runs the analysis at every value of each option given with several values."""
    from henge.analysis.core import sweep, sweep_configs
    from henge.analysis.report import write_sweep

    info = game_info(game_id)
    given = parse_options(info, flags["option_texts"], flags["variant"], many=True)
    fixed = {name: values[0] for name, values in given.items() if len(values) == 1}
    knobs = [(name, values) for name, values in given.items() if len(values) > 1]
    if not knobs:
        known = "; ".join(f"{o.name} ({_values_text(o)})" for o in info.options) or "none"
        raise click.UsageError(
            f"name an option to sweep with two or more values, as --option NAME=V1,V2; {game_id}'s options: {known}"
        )
    base = build_config(game_id, flags, fixed)
    configs = sweep_configs(base, knobs)
    for config in configs:
        check_config(config)
    workers, address = _check_run(flags)
    echo_warnings(base.warnings(swept=[name for name, _ in knobs]))
    names = "-".join(name for name, _ in knobs)
    out = flags["out_dir"] or _default_out("sweep", base, f"_{names}")
    total = sum(len(c.jobs()) for c in configs)
    with _progress(total, f"{game_id}, {base.players} players, {len(configs)} settings") as progress, _ray_errors():
        result = sweep(base, knobs, workers=workers, ray_address=address, on_row=_played(progress))
    texts = {k: str(v) for k, v in fixed.items()} | {k: ",".join(map(str, v)) for k, v in knobs}
    report = write_sweep(result, out, _command("sweep", base, flags, texts))
    click.echo(f"{len(configs)} settings in {result.wall_seconds:.1f} s")
    click.echo(f"report: {report}")
