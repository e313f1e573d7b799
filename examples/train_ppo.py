"""Trains a small policy with MaskablePPO against random players and saves it as plain numpy weights.

The learner plays every seat of one game (one Gymnasium environment per seat,
``henge/<Game>-v0`` from :mod:`henge.adapters.gymnasium`, the other seats played by
``--opponents``), so the policy it saves plays whichever seat it is given. Its actor, a
multilayer perceptron (``--hidden``, tanh, as stable-baselines3 builds it), is written with
:func:`henge.agents.policy.save_policy`; the bot ``policy:PATH.npz`` plays it with numpy alone.
The script checks that the saved network gives the same logits as the trained one, then plays a
decided match of the saved bot against the opponents (``henge tournament GAME --agents
policy:PATH.npz,random --until-decided`` does the same).

Processor only, one thread, seeded: the same arguments give the same weights (the random
generators of Python, numpy and torch, every environment's seeds and torch's deterministic
algorithms all come from ``--seed``). Needs the ``rl`` extra, with torch's CPU build first::

    .venv/bin/pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    .venv/bin/pip install -e '.[rl]'
    nice .venv/bin/python examples/train_ppo.py          # Fightin', 2 players: the committed policy

It is run by hand only, never by the test suite.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import sb3_contrib
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import DummyVecEnv

import henge
import henge.adapters.gymnasium as henge_gymnasium
from henge.agents.policy import load_policy, save_policy
from henge.tournament import decided_match

ENCODING = "information_state"
"""What the environments observe (:mod:`henge.adapters.views`), and so the policy's input."""


class LastMask(gymnasium.Wrapper):
    """Keeps the action mask of the last reset or step for MaskablePPO (``action_masks()``)."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.mask = np.zeros(int(env.action_space.n), dtype=bool)

    def reset(self, **kwargs: Any) -> Any:
        observation, info = self.env.reset(**kwargs)
        self.mask = info["action_mask"].astype(bool)
        return observation, info

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.mask = info["action_mask"].astype(bool)
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Returns the legal actions of the learner's decision now, as booleans."""
        return self.mask


def make_env(game_id: str, players: int, seat: int, opponents: str) -> Any:
    """Returns a function making the environment of one seat (DummyVecEnv makes them)."""

    def build() -> gymnasium.Env:
        env = gymnasium.make(
            henge_gymnasium.env_id(game_id), players=players, seat=seat, opponents=opponents, disable_env_checker=True
        )
        return LastMask(env)

    return build


def actor_layers(model: MaskablePPO) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Returns the actor's weights (inputs, outputs) and biases: its hidden layers, then the action layer."""
    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    hidden = [m for m in policy.mlp_extractor.policy_net if not isinstance(m, torch.nn.Linear)]
    if any(not isinstance(m, torch.nn.Tanh) for m in hidden):
        raise ValueError(f"the actor's activations are {hidden}, not tanh")
    linears.append(policy.action_net)
    weights = [m.weight.detach().numpy().T.copy() for m in linears]
    biases = [m.bias.detach().numpy().copy() for m in linears]
    return weights, biases


def check_export(model: MaskablePPO, path: Path, observations: np.ndarray) -> float:
    """Returns the largest difference between the saved network's logits and the trained one's."""
    policy = load_policy(str(path))
    with torch.no_grad():
        tensor = torch.as_tensor(observations)
        features = model.policy.extract_features(tensor, model.policy.pi_features_extractor)
        expected = model.policy.action_net(model.policy.mlp_extractor.forward_actor(features)).numpy()
    found = np.stack([policy.logits(o) for o in observations])
    return float(np.abs(found - expected).max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="fightin", help="game id (default: fightin)")
    parser.add_argument("--players", type=int, default=None, help="player count (default: the game's fewest)")
    parser.add_argument("--opponents", default="random", help="the bot at the other seats (default: random)")
    parser.add_argument("--steps", type=int, default=300_000, help="learner decisions to train on (default: 300000)")
    parser.add_argument("--hidden", default="64,64", help="hidden layer sizes (default: 64,64)")
    parser.add_argument("--seed", type=int, default=0, help="seed of everything (default: 0)")
    parser.add_argument("--out", type=Path, default=None, help="where to save (default: examples/policies/...)")
    parser.add_argument("--cap-blocks", type=int, default=200, help="the decided match's cap (0: no match)")
    args = parser.parse_args()

    game = henge.load(args.game, args.players)
    players = game.num_players
    hidden = [int(h) for h in args.hidden.split(",")]
    out = args.out or Path(__file__).parent / "policies" / f"{args.game}_{players}p_ppo.npz"

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    set_random_seed(args.seed)
    env = DummyVecEnv([make_env(args.game, players, seat, args.opponents) for seat in range(players)])
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=2048 // players,
        batch_size=256,
        n_epochs=10,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": hidden},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.perf_counter()
    cpu = time.process_time()
    model.learn(total_timesteps=args.steps)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(f"trained {args.steps} steps in {wall:.0f} s ({cpu:.0f} processor seconds)", flush=True)

    weights, biases = actor_layers(model)
    about = (
        f"MaskablePPO (sb3-contrib {sb3_contrib.__version__}, torch {torch.__version__}), {args.steps} steps, "
        f"seed {args.seed}, every seat against {args.opponents}, hidden {args.hidden} tanh: "
        f"examples/train_ppo.py --game {args.game} --players {players} --opponents {args.opponents} "
        f"--steps {args.steps} --hidden {args.hidden} --seed {args.seed}"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    save_policy(
        out,
        game_id=args.game,
        players=players,
        options=dict(game.options),
        encoding=ENCODING,
        activation="tanh",
        weights=weights,
        biases=biases,
        about=about,
    )
    observations = np.stack([env.envs[seat].reset(seed=seat)[0] for seat in range(players)])
    difference = check_export(model, out, observations)
    if difference > 1e-4:
        raise SystemExit(f"the saved network's logits differ from the trained one's by {difference}")
    print(f"saved {out} (logits as trained, to {difference:.1e})", flush=True)
    if args.cap_blocks > 0:
        result = decided_match(
            args.game, players, f"policy:{out}", args.opponents, seed=args.seed, cap_blocks=args.cap_blocks
        )
        print(result.line())
        print(json.dumps({"wall_seconds": round(wall, 1), "decision": result.decision}))


if __name__ == "__main__":
    main()
