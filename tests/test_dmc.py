"""Deep Monte-Carlo self-play and the bot ``dmc``: a short run's loss falls and its weights play legal games;
the same seed gives the same weights, resumed or not; the bot decides from its seat's information alone (and
the check that says so catches a planted leak); it plays only where it has weights."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")
from positions import decision_points  # noqa: E402

import henge  # noqa: E402
import henge.agents.policy as policy_module  # noqa: E402
from henge.agents import check_agent, make_agent, make_decision  # noqa: E402
from henge.agents.dmc import shipped, weights_for  # noqa: E402
from henge.agents.dmc_train import Settings, Trainer, resume, train  # noqa: E402
from henge.cli import main  # noqa: E402
from henge.core import State, seat_tensor  # noqa: E402
from henge.records import play  # noqa: E402
from henge.tournament import decided_match  # noqa: E402

TINY = Settings("fightin", 2, seed=5, hidden=16, games=4, epochs=2, batch=64, lr=3e-3, epsilon=0.2)
"""A network and rounds small enough for a test: a round is four games of Fightin', two players."""


def _params(trainer: Trainer) -> list[np.ndarray]:
    return [*trainer.net.params(), *trainer.moments, *trainer.squares]


def _same(a: Trainer, b: Trainer) -> bool:
    return (a.step, a.rounds, a.games_played, a.samples) == (b.step, b.rounds, b.games_played, b.samples) and all(
        np.array_equal(x, y) for x, y in zip(_params(a), _params(b), strict=True)
    )


# --- learning -------------------------------------------------------------------------------------


def test_a_short_run_lowers_the_loss_on_games_it_has_not_fit_and_its_weights_play_legal_games(tmp_path):
    trainer = Trainer.new(TINY)
    held = Trainer.new(Settings("fightin", 2, seed=99, games=8, hidden=16))  # other games, another seed
    samples = held.play_round()
    before = trainer.loss(*samples)
    train(trainer, rounds=24)
    after = trainer.loss(*samples)
    assert after < 0.7 * before, (before, after)
    assert trainer.games_played == 96 and trainer.step > 24
    path = tmp_path / "tiny.npz"
    trainer.save_policy(path)
    bot = make_agent(f"dmc:{path}")
    for seed in range(3):
        record = play(henge.load("fightin", 2), [bot, make_agent("random")], seed=seed)
        assert henge.replay(record)[-1].is_terminal()  # an illegal action would have raised


def test_the_gradient_is_the_loss_s_own():
    """The hand-written backward pass against finite differences of the loss."""
    trainer = Trainer.new(Settings("fightin", 2, seed=1, hidden=6, games=1))
    xs, actions, targets = trainer.play_round()
    xs, actions, targets = xs[:5].astype(np.float64), actions[:5], targets[:5]
    net = trainer.net
    net.weights = [w.astype(np.float64) for w in net.weights]
    net.biases = [b.astype(np.float64) for b in net.biases]
    q, inputs = net.forward(xs)
    grad = np.zeros_like(q)
    rows = np.arange(5)
    grad[rows, actions] = 2.0 * (q[rows, actions] - targets) / 5
    grads = net.backward(inputs, grad)
    rng = np.random.default_rng(0)
    for param, g in zip(net.params(), grads, strict=True):
        for _ in range(4):
            at = tuple(int(rng.integers(n)) for n in param.shape)
            old = param[at]
            param[at] = old + 1e-6
            up = trainer.loss(xs, actions, targets)
            param[at] = old - 1e-6
            down = trainer.loss(xs, actions, targets)
            param[at] = old
            assert abs((up - down) / 2e-6 - g[at]) < 1e-5 * max(1.0, abs(g[at]))


def test_the_same_seed_gives_the_same_weights_and_another_seed_others():
    a, b = Trainer.new(TINY), Trainer.new(TINY)
    train(a, rounds=3)
    train(b, rounds=3)
    assert _same(a, b)
    c = Trainer.new(Settings(**{**TINY.__dict__, "seed": 6}))
    train(c, rounds=3)
    assert not np.array_equal(a.net.weights[0], c.net.weights[0])


def test_a_resumed_run_ends_with_the_weights_of_an_uninterrupted_one(tmp_path):
    whole = train(Trainer.new(TINY), rounds=4)
    first = train(Trainer.new(TINY), rounds=2, checkpoint=tmp_path / "run.npz")
    again = resume(tmp_path / "run.npz")
    assert _same(first, again)
    train(again, rounds=4)
    assert _same(whole, again)


def test_henge_train_writes_weights_and_a_checkpoint_it_resumes_from(tmp_path):
    runner = CliRunner()
    common = ["train", "fightin", "--players", "2", "--hidden", "8", "--games", "2", "--seed", "3"]
    whole, part = tmp_path / "whole.npz", tmp_path / "part.npz"
    assert runner.invoke(main, [*common, "--rounds", "3", "--out", str(whole)]).exit_code == 0
    assert runner.invoke(main, [*common, "--rounds", "2", "--keep", "1", "--out", str(part)]).exit_code == 0
    assert (tmp_path / "part_r1.npz").exists() and (tmp_path / "part_r2.npz").exists()
    result = runner.invoke(main, [*common, "--rounds", "3", "--resume", "--out", str(part)])
    assert result.exit_code == 0, result.output
    with np.load(whole) as a, np.load(part) as b:
        assert all(np.array_equal(a[k], b[k]) for k in ("w0", "b0", "w1", "w2", "b2"))
    refused = runner.invoke(main, [*common, "--out", str(part)])
    assert refused.exit_code != 0 and "budget" in refused.output


# --- the bot --------------------------------------------------------------------------------------


def test_dmc_plays_only_where_it_has_weights_and_names_them():
    assert ("fightin", 2) in shipped()
    check_agent("dmc", "fightin", players=2)
    with pytest.raises(ValueError, match=r"no weights for stonerush; games with weights: fightin 2p"):
        check_agent("dmc", "stonerush")
    with pytest.raises(ValueError, match=r"no weights for fightin at 3 players; games with weights: fightin 2p"):
        check_agent("dmc", "fightin", players=3)
    assert weights_for("fightin") == weights_for("fightin", 2)


def test_the_shipped_weights_beat_random_by_a_decided_match():
    result = decided_match("fightin", 2, "dmc", "random", seed=0, alpha=0.05, cap_blocks=100)
    assert result.decision == "above", result.line()


def _decision_points(players: int, seed: int, every: int) -> list[State]:
    return decision_points("fightin", players, seed, every)


def _unalike(spec: str, seen: dict) -> list[int]:
    """The steps at which the bot decides differently in a state and in a twin that differs only in what
    the seat to move cannot see (the check of tests/test_agents.py, RULINGS G3); ``seen["state"]`` is the
    real state a decision is made in, for a planted leak to read."""
    steps, differed = [], 0
    for seed in range(3):
        for step, state in enumerate(_decision_points(2, seed=seed, every=5)[:20]):
            seat = state.current_player()
            twin = state.resample_from_infostate(seat, random.Random(step))
            differed += twin.to_json()["state"] != state.to_json()["state"]
            choices = []
            for real in (state, twin):
                seen["state"] = real
                agent = make_agent(spec)
                choices.append(agent.choose(make_decision(real, seat, random.Random(step), samples=False)))
            if choices[0] != choices[1]:
                steps.append(step)
    assert differed > 0, "the twins never differed: the check proved nothing"
    return steps


def test_G3_dmc_decides_alike_in_states_that_differ_only_in_what_its_seat_cannot_see_and_a_leak_is_caught(
    monkeypatch,
):
    assert _unalike("dmc", {}) == []
    seen: dict = {}

    def leaky(game_id, observation, *, encoding="information_state"):
        """The seat's tensor plus the other seat's: its hidden hand, read from the real state."""
        other = 1 - observation["seat"]
        mine = seat_tensor(game_id, observation, encoding=encoding)
        return mine + seat_tensor(game_id, seen["state"].observation(other), encoding=encoding)

    monkeypatch.setattr(policy_module, "seat_tensor", leaky)
    assert _unalike("dmc", seen) != []
