"""The bot ``policy:PATH.npz``: the committed trained policy beats random by a decided match, it plays the
argmax of its documented network over the legal actions, and a file for another game or of the wrong shape
is refused with a clear error before play."""

from __future__ import annotations

import functools
import json
import random
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")
from henge.agents import check_agent, make_agent, make_decision  # noqa: E402
from henge.agents.policy import load_policy, save_policy  # noqa: E402
from henge.cli import main  # noqa: E402
from henge.core import (  # noqa: E402
    load,
    plugin,
    seat_tensor,
)
from henge.records import agent_rng, play, sample_chance  # noqa: E402
from henge.tournament import decided_match  # noqa: E402

POLICY = Path(__file__).resolve().parents[1] / "examples" / "policies" / "fightin_2p_ppo.npz"
SPEC = f"policy:{POLICY}"


@functools.cache
def _file(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return {key: data[key] for key in data.files}


def _documented_logits(path: Path, observation: dict) -> np.ndarray:
    """The network as the module docstring documents it, read straight from the file: the game's encoder
    writes the tensor named by ``encoding``, then ``act(h @ w + b)`` layer by layer, the last linear."""
    data = _file(path)
    encoder = plugin(str(data["game"])).load_encoder()
    h = np.asarray(getattr(encoder, f"{data['encoding']}_tensor")(observation), dtype=np.float64)
    act = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}[str(data["activation"])]
    layers = int(data["layers"])
    for i in range(layers):
        h = h @ data[f"w{i}"].astype(np.float64) + data[f"b{i}"].astype(np.float64)
        if i < layers - 1:
            h = act(h)
    return h


def _decisions(game_id: str, players: int, seeds: range, *, seat_agents: str = "random"):
    """Yields (state, decision) at every decision with a choice of seeded games played by random players."""
    game = load(game_id, players)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        mover = make_agent(seat_agents)
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:
                state.apply_action(sample_chance(state, rng))
                continue
            decision = make_decision(state, player, agent_rng(seed, player), samples=False)
            if len(decision.legal_actions) > 1:
                yield state, decision
            state.apply_action(mover.choose(decision))


def _write(path: Path, **arrays) -> Path:
    np.savez(path, **arrays)
    return path


def _tiny(path: Path, game_id: str, players: int, *, inputs: int | None = None, outputs: int | None = None) -> Path:
    """Saves a one-hidden-layer policy for a game, of the game's sizes unless told otherwise."""
    game = load(game_id, players)
    inputs = inputs or plugin(game_id).load_encoder().information_state_shape(players, game.options)[0]
    outputs = outputs or game.num_distinct_actions()
    rng = np.random.default_rng(3)
    save_policy(
        path,
        game_id=game_id,
        players=players,
        options=dict(game.options),
        encoding="information_state",
        activation="relu",
        weights=[rng.normal(size=(inputs, 8)), rng.normal(size=(8, outputs))],
        biases=[rng.normal(size=8), rng.normal(size=outputs)],
    )
    return path


# --- the committed policy ------------------------------------------------------------------------


def test_the_committed_policy_beats_random_by_a_decided_match():
    """The sequential test of ``henge tournament fightin --agents policy:...,random --until-decided``:
    the confidence sequence for its mean return per game lies wholly above the fair share 1/2."""
    result = decided_match("fightin", 2, SPEC, "random", seed=0, alpha=0.05, cap_blocks=100)
    assert result.decision == "above", result.line()
    assert result.low > 0.5 and result.blocks < 100


def test_the_committed_file_says_what_it_was_trained_for():
    policy = load_policy(str(POLICY))
    assert (policy.game_id, policy.players, policy.options) == ("fightin", 2, {})
    assert (policy.encoding, policy.activation) == ("information_state", "tanh")
    assert [w.shape for w in policy.weights] == [(2184, 64), (64, 64), (64, 447)]
    assert "MaskablePPO" in policy.about and "examples/train_ppo.py" in policy.about


def test_it_plays_the_argmax_of_the_documented_network_over_the_legal_actions_only():
    agent = make_agent(SPEC)
    seen = 0
    for _, decision in _decisions("fightin", 2, range(3)):
        logits = _documented_logits(POLICY, decision.observation)
        best = max(decision.legal_actions, key=lambda a: (logits[a], -a))
        chosen = agent.choose(decision)
        assert chosen in decision.legal_actions
        assert chosen == best, (chosen, best, decision.legal_texts)
        seen += 1
    assert seen > 50
    # The mask matters: somewhere the network rates an illegal action above every legal one.
    assert any(
        int(np.argmax(_documented_logits(POLICY, d.observation))) not in d.legal_actions
        for _, d in _decisions("fightin", 2, range(1))
    )


def test_its_tensor_is_the_gymnasium_environments_observation():
    gymnasium = pytest.importorskip("gymnasium")
    import henge.adapters.gymnasium as henge_gymnasium

    env = gymnasium.make(henge_gymnasium.env_id("fightin"), seat=1)
    observation, info = env.reset(seed=11)
    state = env.unwrapped.henge_state
    decision = make_decision(state, 1, random.Random(0), samples=False)
    assert np.array_equal(seat_tensor("fightin", decision.observation), observation)
    assert np.flatnonzero(info["action_mask"]).tolist() == decision.legal_actions
    logits = make_agent(SPEC).scores(decision)
    assert np.allclose(logits, _documented_logits(POLICY, decision.observation), atol=1e-4)


def test_it_answers_a_single_legal_action_at_once_and_uses_no_randomness():
    agent = make_agent(SPEC)
    _, decision = next(_decisions("fightin", 2, range(1)))
    first = agent.choose(decision)
    decision.rng = random.Random(12345)
    assert agent.choose(decision) == first  # greedy: the generator plays no part
    decision.legal_actions, decision.legal_texts = [decision.legal_actions[-1]], [decision.legal_texts[-1]]
    assert agent.choose(decision) == decision.legal_actions[0]


def test_a_whole_game_through_the_records_player():
    record = play(load("fightin", 2), [SPEC, "random"], seed=5)
    assert record["agents"][0] == SPEC
    assert sorted(record["returns"]) in ([0.0, 1.0], [0.5, 0.5])


# --- refusals ------------------------------------------------------------------------------------


def test_a_file_for_another_game_is_refused_before_play():
    with pytest.raises(ValueError, match=r"is a policy for fightin, not stonerush"):
        check_agent(SPEC, "stonerush", players=3)
    result = CliRunner().invoke(main, ["tournament", "stonerush", "-n", "3", "--agents", f"{SPEC},random"])
    assert result.exit_code == 2 and "is a policy for fightin, not stonerush" in result.output
    # and at play, where no check came first
    _, decision = next(_decisions("stonerush", 3, range(1)))
    with pytest.raises(ValueError, match=r"is a policy for fightin, not stonerush"):
        make_agent(SPEC).choose(decision)


def test_a_file_for_another_player_count_is_refused(tmp_path):
    spec = f"policy:{_tiny(tmp_path / 'stonerush3.npz', 'stonerush', 3)}"
    check_agent(spec, "stonerush", players=3)
    with pytest.raises(ValueError, match=r"was trained for 3 players, not 4"):
        check_agent(spec, "stonerush", players=4)
    _, decision = next(_decisions("stonerush", 4, range(1)))
    with pytest.raises(ValueError, match=r"wrong shape: its first layer takes 1680 values; .* has 1838"):
        make_agent(spec).choose(decision)


def test_a_file_for_other_options_is_refused(tmp_path):
    spec = f"policy:{_tiny(tmp_path / 'stonerush3.npz', 'stonerush', 3)}"
    variant = next(o for o in load("stonerush", 3).info.options if o.name == "variant")
    other = next(v for v in variant.values if v != variant.default)
    with pytest.raises(ValueError, match=r"was trained with options"):
        check_agent(spec, "stonerush", players=3, options={"variant": other})


@pytest.mark.parametrize(
    ("inputs", "outputs", "message"),
    [
        (2000, None, r"wrong shape: its first layer takes 2000 values; fightin's information_state tensor .* has 2184"),
        (None, 400, r"wrong shape: its last layer gives 400 logits; fightin has 447 action ids"),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused(tmp_path, inputs, outputs, message):
    spec = f"policy:{_tiny(tmp_path / 'bad.npz', 'fightin', 2, inputs=inputs, outputs=outputs)}"
    with pytest.raises(ValueError, match=message):
        check_agent(spec, "fightin", players=2)
    result = CliRunner().invoke(main, ["tournament", "fightin", "--agents", f"{spec},random", "--until-decided"])
    assert result.exit_code == 2 and "wrong shape" in result.output


def _header(**changes):
    base = {
        "format": np.array("henge-policy"),
        "version": np.array(1),
        "game": np.array("fightin"),
        "players": np.array(2),
        "options": np.array("{}"),
        "encoding": np.array("information_state"),
        "activation": np.array("tanh"),
        "layers": np.array(2),
        "w0": np.zeros((2184, 4), np.float32),
        "b0": np.zeros(4, np.float32),
        "w1": np.zeros((4, 447), np.float32),
        "b1": np.zeros(447, np.float32),
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        (_header(w1=np.zeros((5, 447), np.float32)), r"wrong shape: w1 takes 5 values but layer 0 gives 4"),
        (_header(b0=np.zeros(3, np.float32)), r"wrong shape: w0 is \(2184, 4\) and b0 \(3,\)"),
        (_header(layers=np.array(3)), r"says 3 layers but lacks some of"),
        (_header(format=np.array("something else")), r"is not a henge policy"),
        (_header(version=np.array(2)), r"is version 2; this henge reads version 1"),
        (_header(activation=np.array("gelu")), r"activation 'gelu'; known: tanh, relu"),
        (_header(encoding=np.array("pixels")), r"encoding 'pixels'; known: observation, information_state"),
        (_header(options=np.array("[1]")), r"'options' must be a JSON object"),
        (_header(players=None), r"lacks players"),
        (_header(players=np.array("two")), r"'players' must be a whole number"),
        (_header(game=np.array(["fightin"])), r"'game' must be a text"),
        (_header(b1=np.full(447, np.nan, np.float32)), r"layer 1 holds values that are not finite"),
    ],
)
def test_a_malformed_file_is_refused_saying_what_is_wrong(tmp_path, arrays, message):
    path = _write(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ValueError, match=message):
        make_agent(f"policy:{path}")


def test_a_missing_or_foreign_file_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"name the weights file, as policy:PATH.npz"):
        make_agent("policy")
    with pytest.raises(ValueError, match=r"no such file"):
        make_agent(f"policy:{tmp_path / 'absent.npz'}")
    (tmp_path / "text.npz").write_text("not a zip")
    with pytest.raises(ValueError, match=r"is not a numpy .npz file of weights"):
        make_agent(f"policy:{tmp_path / 'text.npz'}")
    np.save(tmp_path / "one.npy", np.zeros(3))
    with pytest.raises(ValueError, match=r"is a single numpy array, not a .npz file"):
        make_agent(f"policy:{tmp_path / 'one.npy'}")
    with pytest.raises(ValueError, match=r"bots: random, heuristic, ismcts, rules-search, policy:FILE.npz"):
        make_agent("policies")


def test_the_policy_is_not_offered_as_an_opponent_without_a_file():
    from henge.agents import agent_names

    assert "policy" not in agent_names()


def test_save_policy_writes_the_same_bytes_for_the_same_weights_and_reads_back(tmp_path):
    first = _tiny(tmp_path / "a.npz", "fightin", 2)
    second = _tiny(tmp_path / "b.npz", "fightin", 2)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    with np.load(first, allow_pickle=False) as data:
        assert json.loads(str(data["options"])) == {} and str(data["format"]) == "henge-policy"
    with pytest.raises(ValueError, match=r"activation 'gelu'"):
        save_policy(
            tmp_path / "c.npz",
            game_id="fightin",
            players=2,
            options={},
            encoding="information_state",
            activation="gelu",
            weights=[np.zeros((2, 2))],
            biases=[np.zeros(2)],
        )


def test_henge_play_takes_a_policy_opponent():
    args = ["play", "fightin", "--bots", SPEC, "--seed", "3"]
    result = CliRunner().invoke(main, args, input="1\n" * 2000, terminal_width=120)
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(main, ["play", "stonerush", "--bots", SPEC])
    assert bad.exit_code == 2 and "is a policy for fightin, not stonerush" in bad.output
