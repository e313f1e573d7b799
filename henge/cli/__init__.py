"""The ``henge`` command line: list games, play in the terminal or the browser, replay records, benchmark.

The commands live in modules by subject: ``play`` (games, play, replay), ``bench``, ``serve`` and
``tournaments`` (tournament, analyze, sweep), ``train``; this module is the group that gathers them.
"""

from __future__ import annotations

import click

import henge
from henge.cli.bench import bench_command
from henge.cli.play import games, play_command, replay_command
from henge.cli.serve import serve_command
from henge.cli.tournaments import analyze_command, sweep_command, tournament_command
from henge.cli.train import train_command
from henge.core import warn_if_pure


@click.group()
@click.version_option(henge.__version__, prog_name="henge")
def main() -> None:
    """henge: the Stonehenge Anthology's games in Python."""
    warn_if_pure()  # once, where the engine was installed without its compiled modules


for command in (
    games,
    play_command,
    replay_command,
    bench_command,
    serve_command,
    tournament_command,
    analyze_command,
    sweep_command,
    train_command,
):
    main.add_command(command)

__all__ = ["main"]
