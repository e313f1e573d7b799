"""The ``henge train`` command: deep Monte-Carlo self-play (:mod:`henge.agents.dmc_train`)."""

from __future__ import annotations

from pathlib import Path

import click

import henge
from henge.cli.common import _console


@click.command("train")
@click.argument("game_id", type=click.Choice(henge.list_games()))
@click.option("--players", "-n", type=int, default=2, show_default=True, help="Player count.")
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True, help="The weights file it writes.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seeds the network, the games and the draws.")
@click.option("--rounds", type=int, default=None, help="Stop when the run has played this many rounds.")
@click.option(
    "--seconds", type=float, default=None, help="Stop after the round that passes this many processor seconds."
)
@click.option("--resume", is_flag=True, help="Continue from the checkpoint (its settings win over those given).")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None, help="Default: OUT with .ckpt.npz.")
@click.option("--every", type=int, default=10, show_default=True, help="Write the checkpoint every EVERY rounds.")
@click.option("--keep", type=int, default=0, help="Also write the weights every KEEP rounds, as OUT_rROUNDS.npz.")
@click.option("--hidden", type=int, default=256, show_default=True, help="Units in each of the two hidden layers.")
@click.option("--games", type=int, default=32, show_default=True, help="Self-play games per round.")
@click.option("--epochs", type=int, default=2, show_default=True, help="Passes over a round's samples.")
@click.option("--batch", type=int, default=256, show_default=True, help="Minibatch size.")
@click.option("--lr", type=float, default=3e-4, show_default=True, help="Adam's learning rate.")
@click.option("--epsilon", type=float, default=0.1, show_default=True, help="Chance of a random legal move.")
def train_command(
    game_id: str,
    players: int,
    out: str,
    seed: int,
    rounds: int | None,
    seconds: float | None,
    resume: bool,
    checkpoint: str | None,
    every: int,
    keep: int,
    hidden: int,
    games: int,
    epochs: int,
    batch: int,
    lr: float,
    epsilon: float,
) -> None:
    """Train a network by deep Monte-Carlo self-play: the value of each move, no search (needs numpy).

    Writes OUT (weights the bot dmc:OUT plays) and a checkpoint every EVERY rounds and at the end; the same seed and
    the same number of rounds give the same weights, resumed or not.
    """
    try:
        from henge.agents import dmc_train
    except ModuleNotFoundError as error:
        raise click.ClickException(f"training needs numpy ({error}): pip install numpy") from None
    if rounds is None and seconds is None:
        raise click.UsageError("give a budget: --rounds, --seconds or both")
    saved = checkpoint or str(Path(out).with_suffix("")) + ".ckpt.npz"
    if resume:
        try:
            trainer = dmc_train.resume(saved)
        except ValueError as error:
            raise click.ClickException(str(error)) from None
        if (trainer.settings.game_id, trainer.settings.players) != (game_id, players):
            raise click.ClickException(f"{saved} trains {trainer.settings.game_id} at {trainer.settings.players}")
    else:
        settings = dmc_train.Settings(game_id, players, seed, hidden, games, epochs, batch, lr, epsilon)
        trainer = dmc_train.Trainer.new(settings)
    console = _console()
    stem = str(Path(out).with_suffix(""))

    def report(t: dmc_train.Trainer) -> None:
        if keep and t.rounds % keep == 0:
            t.save_policy(f"{stem}_r{t.rounds}.npz")
            console.print(
                f"round {t.rounds}: {t.games_played} games, {t.samples} samples, "
                f"loss {t.last_loss:.4f}, {t.seconds:.0f} processor seconds"
            )

    dmc_train.train(trainer, rounds=rounds, seconds=seconds, checkpoint=saved, every=every, report=report)
    trainer.save_policy(out)
    console.print(
        f"{out}: {trainer.rounds} rounds, {trainer.games_played} games, {trainer.samples} samples, "
        f"loss {trainer.last_loss:.4f}, {trainer.seconds:.0f} processor seconds; checkpoint {saved}"
    )
