"""A trained network at a seat: the bot ``policy:PATH.npz``.

The file is plain numpy (``numpy.savez``, read with ``allow_pickle=False``), no deep-learning
library needed to play. It holds a multilayer perceptron and what it was trained for:

==============  =========================================================================
key             value
==============  =========================================================================
``format``      ``"henge-policy"``
``version``     ``1``
``game``        the game id, e.g. ``"fightin"``
``players``     the player count it was trained at
``options``     the game's options as JSON text (``"{}"`` for none), keys sorted
``encoding``    its input: ``"observation"`` or ``"information_state"``, the tensor of
                that name from the game's encoder (the plugin's ``encoder`` module, tables
                in ``docs/games/<id>.md``, section "Tensor encoding")
``activation``  ``"tanh"`` or ``"relu"``, applied after every layer but the last
``layers``      the number of layers ``L``
``w0`` ...      ``w{i}``: float32, shape (inputs, outputs) of layer ``i``
``b0`` ...      ``b{i}``: float32, shape (outputs,) of layer ``i``
``about``       optional free text: how it was made
==============  =========================================================================

The first layer takes the encoder's tensor for the game at that player count; the last gives one
logit per action id (``num_distinct_actions``). The policy knows no seat: it plays whichever seat
it is given, from that seat's observation alone, as every fair bot does (RULINGS G3).

**How it plays.** At a decision with a choice it computes the seat's tensor with
:func:`henge.core.seat_tensor` (the function the Gymnasium environment uses for its
observations), runs the network (``h = act(h @ w + b)`` layer by layer, the last without ``act``),
and plays the legal action with the highest logit; the illegal ones are masked out, never played.
It is greedy and deterministic: ties go to the lowest action id, and the decision's generator is
not used. A decision with one legal action is answered at once.

**Refused.** A file that is not such a policy, that has another game, player count or options
than the game played, or whose layer shapes do not chain or do not fit the game's tensor and
actions, raises ``ValueError`` saying what it holds and what was expected:
:func:`henge.agents.check_agent` does it before a tournament or a game starts.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from henge.core import ENCODINGS, Decision, load, plugin, seat_tensor

FORMAT = "henge-policy"
VERSION = 1
ACTIVATIONS = ("tanh", "relu")
_TEXT_KEYS = ("format", "game", "options", "encoding", "activation")


@dataclass(frozen=True)
class Policy:
    """A network read from a policy file, with what it was trained for."""

    path: str
    game_id: str
    players: int
    options: dict[str, Any]
    encoding: str
    activation: str
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    about: str = ""

    @property
    def inputs(self) -> int:
        """Returns the size of the input tensor."""
        return int(self.weights[0].shape[0])

    @property
    def outputs(self) -> int:
        """Returns the number of logits: one per action id."""
        return int(self.weights[-1].shape[1])

    def logits(self, tensor: np.ndarray) -> np.ndarray:
        """Returns the network's logits for one input tensor."""
        if tensor.shape != (self.inputs,):
            raise ValueError(f"{self.path}: the network takes {self.inputs} values, not {tensor.shape}")
        act = np.tanh if self.activation == "tanh" else _relu
        h = tensor.astype(np.float32, copy=False)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = act(h)
        return h

    def check_game(self, game_id: str, players: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Raises ValueError unless this policy fits ``game_id`` (at ``players`` with ``options``, if given)."""
        if game_id != self.game_id:
            raise ValueError(f"{self.path} is a policy for {self.game_id}, not {game_id}")
        if players is not None and players != self.players:
            raise ValueError(f"{self.path} was trained for {self.players} players, not {players}")
        if players is None:
            return
        game = load(game_id, players, **(options or {}))
        if dict(game.options) != self.options:
            raise ValueError(f"{self.path} was trained with options {self.options}, not {dict(game.options)}")
        size = _tensor_size(game_id, self.encoding, players, game.options)
        if size != self.inputs:
            raise ValueError(
                f"{self.path}: wrong shape: its first layer takes {self.inputs} values; "
                f"{game_id}'s {self.encoding} tensor at {players} players has {size}"
            )
        if game.num_distinct_actions() != self.outputs:
            raise ValueError(
                f"{self.path}: wrong shape: its last layer gives {self.outputs} logits; "
                f"{game_id} has {game.num_distinct_actions()} action ids"
            )


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def _tensor_size(game_id: str, encoding: str, players: int, options: Any) -> int:
    encoder = plugin(game_id).load_encoder()
    if encoder is None:
        raise ValueError(f"{game_id} has no tensor encoding, so no policy can play it")
    shape = getattr(encoder, f"{encoding}_shape")(players, options)
    return int(np.prod(shape))


def _text(data: Any, key: str, path: str) -> str:
    value = data[key]
    if value.ndim != 0 or value.dtype.kind != "U":
        raise ValueError(f"{path}: {key!r} must be a text, not an array of {value.dtype} {value.shape}")
    return str(value)


def _whole(data: Any, key: str, path: str) -> int:
    value = data[key]
    if value.ndim != 0 or value.dtype.kind not in "iu":
        raise ValueError(f"{path}: {key!r} must be a whole number, not an array of {value.dtype} {value.shape}")
    return int(value)


def _read(path: str) -> Policy:
    try:
        data = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise ValueError(f"policy: no such file {path!r}") from None
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise ValueError(f"policy: {path} is not a numpy .npz file of weights ({error})") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError(f"policy: {path} is a single numpy array, not a .npz file of weights")
    with data:
        keys = set(data.files)
        if "format" not in keys or _text(data, "format", path) != FORMAT:
            raise ValueError(f"policy: {path} is not a henge policy (its 'format' is not {FORMAT!r})")
        missing = [k for k in (*_TEXT_KEYS, "version", "players", "layers") if k not in keys]
        if missing:
            raise ValueError(f"policy: {path} lacks {', '.join(missing)}")
        version = _whole(data, "version", path)
        if version != VERSION:
            raise ValueError(f"policy: {path} is version {version}; this henge reads version {VERSION}")
        text = {k: _text(data, k, path) for k in _TEXT_KEYS}
        if text["activation"] not in ACTIVATIONS:
            raise ValueError(f"policy: {path}: activation {text['activation']!r}; known: {', '.join(ACTIVATIONS)}")
        if text["encoding"] not in ENCODINGS:
            raise ValueError(f"policy: {path}: encoding {text['encoding']!r}; known: {', '.join(ENCODINGS)}")
        layers = _whole(data, "layers", path)
        names = [f"{p}{i}" for i in range(max(layers, 0)) for p in "wb"]
        if layers < 1 or any(n not in keys for n in names):
            raise ValueError(f"policy: {path} says {layers} layers but lacks some of {', '.join(names) or 'w0, b0'}")
        weights = tuple(np.asarray(data[f"w{i}"], dtype=np.float32) for i in range(layers))
        biases = tuple(np.asarray(data[f"b{i}"], dtype=np.float32) for i in range(layers))
        about = _text(data, "about", path) if "about" in keys else ""
        players = _whole(data, "players", path)
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        if w.ndim != 2 or b.shape != (w.shape[1],):
            raise ValueError(f"policy: {path}: wrong shape: w{i} is {w.shape} and b{i} {b.shape}; need (n, m) and (m,)")
        if i and w.shape[0] != weights[i - 1].shape[1]:
            raise ValueError(
                f"policy: {path}: wrong shape: w{i} takes {w.shape[0]} values but layer {i - 1} gives {b.shape[0]}"
            )
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError(f"policy: {path}: layer {i} holds values that are not finite")
    try:
        options = json.loads(text["options"])
    except ValueError:
        options = None
    if not isinstance(options, dict):
        raise ValueError(f"policy: {path}: 'options' must be a JSON object, not {text['options']!r}")
    return Policy(
        path=path,
        game_id=text["game"],
        players=players,
        options=options,
        encoding=text["encoding"],
        activation=text["activation"],
        weights=weights,
        biases=biases,
        about=about,
    )


@lru_cache(maxsize=16)
def _cached(path: str, stamp: tuple[int, int]) -> Policy:
    return _read(path)


def load_policy(path: str) -> Policy:
    """Returns the policy in a file (read once while the file is unchanged); raises ValueError if it is none."""
    if not path:
        raise ValueError("policy: name the weights file, as policy:PATH.npz")
    try:
        status = os.stat(path)
    except OSError:
        raise ValueError(f"policy: no such file {path!r}") from None
    return _cached(path, (status.st_mtime_ns, status.st_size))


def save_policy(
    path: str | os.PathLike[str],
    *,
    game_id: str,
    players: int,
    options: dict[str, Any],
    encoding: str,
    activation: str,
    weights: list[np.ndarray],
    biases: list[np.ndarray],
    about: str = "",
) -> None:
    """Writes a policy file (the keys of the module docstring) that :func:`load_policy` reads back.

    The file is a zip of ``.npy`` arrays, as ``numpy.savez`` writes, with fixed dates and order, so
    the same weights give the same bytes. The layers are checked as :func:`load_policy` checks them.
    """
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation {activation!r}; known: {', '.join(ACTIVATIONS)}")
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding {encoding!r}; known: {', '.join(ENCODINGS)}")
    if not weights or len(weights) != len(biases):
        raise ValueError(f"give one bias per layer and at least one layer, not {len(weights)} and {len(biases)}")
    arrays: dict[str, np.ndarray] = {
        "format": np.array(FORMAT),
        "version": np.array(VERSION),
        "game": np.array(game_id),
        "players": np.array(players),
        "options": np.array(json.dumps(options, sort_keys=True)),
        "encoding": np.array(encoding),
        "activation": np.array(activation),
        "layers": np.array(len(weights)),
        "about": np.array(about),
    }
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{i}"] = np.ascontiguousarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.ascontiguousarray(b, dtype=np.float32)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as out:
        for key, array in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            entry = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(entry, buffer.getvalue())
    _read(os.fspath(path))  # the same checks as on loading: a bad network is refused here, not at play


class PolicyAgent:
    """Plays the legal action a trained network rates highest (see the module docstring)."""

    needs_samples = False

    def __init__(self, path: str, *, name: str | None = None) -> None:
        self.policy = load_policy(path)
        self.name = name or f"policy:{path}"

    def scores(self, decision: Decision) -> np.ndarray:
        """Returns the network's logits for the seat's tensor at this decision (every action id)."""
        policy = self.policy
        policy.check_game(decision.game_id)
        tensor = seat_tensor(decision.game_id, decision.observation, encoding=policy.encoding)
        if tensor.shape != (policy.inputs,):
            raise ValueError(
                f"{policy.path}: wrong shape: its first layer takes {policy.inputs} values; this "
                f"{decision.game_id} tensor has {tensor.size} (it was trained for {policy.players} players)"
            )
        return policy.logits(tensor)

    def choose(self, decision: Decision) -> int:
        """Returns the legal action with the highest logit (the lowest id among equals)."""
        legal = decision.legal_actions
        if len(legal) == 1:
            self.policy.check_game(decision.game_id)
            return legal[0]
        logits = self.scores(decision)
        if max(legal) >= logits.size:
            top = max(legal)
            raise ValueError(f"{self.policy.path}: action {top} is legal; the network rates ids 0-{logits.size - 1}")
        return int(legal[int(np.argmax(logits[legal]))])
