"""Deep Monte-Carlo self-play training, in numpy alone: the weights the bot ``dmc`` plays.

The method is DouZero's deep Monte-Carlo: a network learns the value of each move, ``Q(x, a)``,
the return the seat to move gets at the end of the game after playing ``a`` where its tensor is
``x``; play is greedy over the legal actions, with no search. Here:

* **Input**: the seat's information-state tensor, :func:`henge.core.seat_tensor` of
  ``State.observation(seat)``, the same tensor every fair bot and the Gymnasium environment see:
  never the full state.
* **Output**: one value per action id (``num_distinct_actions``), the illegal ones masked out when
  choosing. One forward pass rates every legal action of a decision, where an input of the tensor
  joined to a one-hot of the action would take one pass per legal action; and the network is then a
  file of the ``henge-policy`` format (:mod:`henge.agents.policy`), played by the same code.
* **Self-play**: one network plays every seat, epsilon-greedy over the legal actions; each decision
  with a choice is a sample ``(x, a, G)`` with ``G`` the seat's ``State.returns()`` at the end.
* **Learning**: rounds of ``games`` games, then ``epochs`` passes over that round's samples in
  shuffled minibatches, the loss ``mean((Q(x)[a] - G)^2)`` on the action played only, Adam. A
  two-hidden-layer ReLU multilayer perceptron, forward and backward written out below.

**Seeded and resumable.** A round's games and draws come from generators seeded by ``(seed,
round)`` alone, and a checkpoint (written at the end of a round) holds the weights, Adam's moments
and step count, the round and game counters and the settings; so the same seed and the same number
of rounds give the same weights, bit for bit, whether run at once or stopped and resumed. A budget
in processor seconds stops after the round that passes it: how many rounds that is depends on the
machine, so the checkpoint's ``rounds`` is what to repeat.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from henge.agents.policy import save_policy
from henge.core import load, sample_chance, seat_tensor

CHECKPOINT = "henge-dmc-checkpoint"
ENCODING = "information_state"
_BETA1, _BETA2, _EPS = 0.9, 0.999, 1e-8


@dataclass(frozen=True)
class Settings:
    """What a training run is: the game and count, the network's size and the learning's settings."""

    game_id: str
    players: int
    seed: int = 0
    hidden: int = 256
    games: int = 32
    epochs: int = 2
    batch: int = 256
    lr: float = 3e-4
    epsilon: float = 0.1


@dataclass
class Net:
    """A multilayer perceptron: ReLU after every layer but the last."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]

    @classmethod
    def new(cls, sizes: list[int], rng: np.random.Generator) -> Net:
        """Returns a network of layers ``sizes[i] -> sizes[i + 1]``, He-initialised, biases zero."""
        weights = [
            (rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in itertools.pairwise(sizes)
        ]
        biases = [np.zeros(b, np.float32) for b in sizes[1:]]
        return cls(weights, biases)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Returns the outputs for a batch of inputs, and each layer's input (kept for :meth:`backward`)."""
        inputs = []
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            inputs.append(h)
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h, inputs

    def backward(self, inputs: list[np.ndarray], grad: np.ndarray) -> list[np.ndarray]:
        """Returns the gradients (``w0, b0, w1, b1, ...``) given the loss's gradient at the outputs."""
        grads: list[np.ndarray] = []
        for i in range(len(self.weights) - 1, -1, -1):
            h = inputs[i]
            grads[:0] = [h.T @ grad, grad.sum(axis=0)]
            if i:
                grad = (grad @ self.weights[i].T) * (h > 0.0)
        return grads

    def params(self) -> list[np.ndarray]:
        """Returns the parameters in the order of :meth:`backward`'s gradients."""
        return [p for pair in zip(self.weights, self.biases, strict=True) for p in pair]


@dataclass
class Trainer:
    """A training run's whole state: what a checkpoint holds."""

    settings: Settings
    net: Net
    moments: list[np.ndarray]
    squares: list[np.ndarray]
    step: int = 0
    rounds: int = 0
    games_played: int = 0
    samples: int = 0
    seconds: float = 0.0
    last_loss: float = float("nan")

    @classmethod
    def new(cls, settings: Settings) -> Trainer:
        """Returns a fresh run: the network drawn from the seed."""
        game = load(settings.game_id, settings.players)
        size = _input_size(settings.game_id, settings.players)
        sizes = [size, settings.hidden, settings.hidden, game.num_distinct_actions()]
        net = Net.new(sizes, np.random.default_rng([settings.seed, 0xD3C]))
        zeros = [np.zeros_like(p) for p in net.params()]
        return cls(settings, net, zeros, [np.zeros_like(p) for p in zeros])

    def play_round(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Plays this round's self-play games; returns the samples' tensors, actions and returns."""
        s = self.settings
        game = load(s.game_id, s.players)
        rng = np.random.default_rng([s.seed, self.rounds, 1])
        xs: list[np.ndarray] = []
        actions: list[int] = []
        targets: list[float] = []
        for g in range(s.games):
            chance = random.Random(f"{s.seed}/{self.rounds}/{g}")
            state = game.new_initial_state()
            seats: list[int] = []
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(sample_chance(state, chance))
                    continue
                legal = state.legal_actions()
                if len(legal) == 1:
                    state.apply_action(legal[0])
                    continue
                seat = state.current_player()
                x = seat_tensor(s.game_id, state.observation(seat), encoding=ENCODING)
                if rng.random() < s.epsilon:
                    action = legal[int(rng.integers(len(legal)))]
                else:
                    q, _ = self.net.forward(x)
                    action = legal[int(np.argmax(q[legal]))]
                xs.append(x)
                actions.append(action)
                seats.append(seat)
                state.apply_action(action)
            returns = state.returns()
            targets.extend(returns[seat] for seat in seats)
        self.games_played += s.games
        self.samples += len(xs)
        width = _input_size(s.game_id, s.players)
        stacked = np.stack(xs) if xs else np.zeros((0, width), np.float32)
        return stacked, np.asarray(actions, np.int64), np.asarray(targets, np.float32)

    def learn(self, xs: np.ndarray, actions: np.ndarray, targets: np.ndarray) -> float:
        """Fits the round's samples (``epochs`` shuffled passes, Adam); returns the mean loss of the last pass."""
        s = self.settings
        rng = np.random.default_rng([s.seed, self.rounds, 2])
        losses: list[float] = []
        for _ in range(s.epochs):
            losses = []
            order = rng.permutation(len(xs))
            for start in range(0, len(order), s.batch):
                chosen = order[start : start + s.batch]
                losses.append(self.update(xs[chosen], actions[chosen], targets[chosen]))
        return float(np.mean(losses)) if losses else float("nan")

    def loss(self, xs: np.ndarray, actions: np.ndarray, targets: np.ndarray) -> float:
        """Returns the mean squared error of the played actions' values (no update)."""
        q, _ = self.net.forward(xs)
        return float(np.mean((q[np.arange(len(actions)), actions] - targets) ** 2))

    def update(self, xs: np.ndarray, actions: np.ndarray, targets: np.ndarray) -> float:
        """One Adam step on a minibatch; returns its loss before the step."""
        q, inputs = self.net.forward(xs)
        rows = np.arange(len(actions))
        error = q[rows, actions] - targets
        grad = np.zeros_like(q)
        grad[rows, actions] = 2.0 * error / len(actions)
        grads = self.net.backward(inputs, grad)
        self.step += 1
        lr = self.settings.lr * np.sqrt(1.0 - _BETA2**self.step) / (1.0 - _BETA1**self.step)
        for p, g, m, v in zip(self.net.params(), grads, self.moments, self.squares, strict=True):
            m *= _BETA1
            m += (1.0 - _BETA1) * g
            v *= _BETA2
            v += (1.0 - _BETA2) * g * g
            p -= (lr * m / (np.sqrt(v) + _EPS)).astype(np.float32)
        return float(np.mean(error**2))

    def train_round(self) -> float:
        """Plays and learns one round; returns its loss."""
        began = time.process_time()
        self.last_loss = self.learn(*self.play_round())
        self.rounds += 1
        self.seconds += time.process_time() - began
        return self.last_loss

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the checkpoint: weights, Adam's state and the counters (:func:`resume` reads it)."""
        counters = {
            "step": self.step,
            "rounds": self.rounds,
            "games_played": self.games_played,
            "samples": self.samples,
            "seconds": self.seconds,
            "last_loss": self.last_loss,
        }
        arrays: dict[str, np.ndarray] = {
            "format": np.array(CHECKPOINT),
            "settings": np.array(json.dumps(asdict(self.settings), sort_keys=True)),
            "counters": np.array(json.dumps(counters, sort_keys=True)),
        }
        for i, (p, m, v) in enumerate(zip(self.net.params(), self.moments, self.squares, strict=True)):
            arrays[f"p{i}"], arrays[f"m{i}"], arrays[f"v{i}"] = p, m, v
        np.savez(path, **arrays)  # type: ignore[arg-type]  # numpy's stub takes the keywords for allow_pickle

    def save_policy(self, path: str | os.PathLike[str]) -> None:
        """Writes the network as a ``henge-policy`` file (what the bot ``dmc`` plays)."""
        s = self.settings
        about = (
            f"deep Monte-Carlo self-play (henge train): seed {s.seed}, {self.rounds} rounds of {s.games} games "
            f"({self.games_played} games, {self.samples} samples, {self.step} Adam steps), hidden {s.hidden}, "
            f"epsilon {s.epsilon}, lr {s.lr}, {self.seconds:.0f} processor seconds"
        )
        save_policy(
            path,
            game_id=s.game_id,
            players=s.players,
            options=dict(load(s.game_id, s.players).options),
            encoding=ENCODING,
            activation="relu",
            weights=self.net.weights,
            biases=self.net.biases,
            about=about,
        )


def _input_size(game_id: str, players: int) -> int:
    state = load(game_id, players).new_initial_state()
    return int(seat_tensor(game_id, state.observation(0), encoding=ENCODING).size)


def resume(path: str | os.PathLike[str]) -> Trainer:
    """Returns the training run a checkpoint holds; raises ValueError if the file is none."""
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path}: not a training checkpoint ({error})") from None
    with data:
        if "format" not in data.files or str(data["format"]) != CHECKPOINT:
            raise ValueError(f"{path}: not a training checkpoint (no format {CHECKPOINT!r})")
        settings = Settings(**json.loads(str(data["settings"])))
        counters = json.loads(str(data["counters"]))
        count = sum(1 for k in data.files if k.startswith("p"))
        params = [data[f"p{i}"] for i in range(count)]
        moments = [data[f"m{i}"] for i in range(count)]
        squares = [data[f"v{i}"] for i in range(count)]
    net = Net(params[0::2], params[1::2])
    return Trainer(settings, net, moments, squares, **counters)


def train(
    trainer: Trainer,
    *,
    rounds: int | None = None,
    seconds: float | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    every: int = 1,
    report: Callable[[Trainer], Any] | None = None,
) -> Trainer:
    """Trains until ``trainer.rounds`` reaches ``rounds`` or this call has spent ``seconds`` processor
    seconds (after the round that passes it), whichever comes first; writes the checkpoint every
    ``every`` rounds and at the end, and calls ``report`` after each round."""
    if rounds is None and seconds is None:
        raise ValueError("give a budget: rounds, seconds or both")
    began = time.process_time()
    while (rounds is None or trainer.rounds < rounds) and (seconds is None or time.process_time() - began < seconds):
        trainer.train_round()
        if report is not None:
            report(trainer)
        if checkpoint is not None and trainer.rounds % every == 0:
            trainer.save(checkpoint)
    if checkpoint is not None:
        trainer.save(checkpoint)
    return trainer
