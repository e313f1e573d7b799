"""The PettingZoo adapter: PettingZoo's own checks for every game and player count, seeding, the
dead-agent protocol, the illegal-action convention, masks, observations and leaks, drawings and
bad input."""

from __future__ import annotations

import random
import warnings

import pytest
from conftest import config_id, game_configs

pettingzoo_test = pytest.importorskip("pettingzoo.test")
np = pytest.importorskip("numpy")

import henge  # noqa: E402
from henge.adapters import pettingzoo as henge_pettingzoo  # noqa: E402
from henge.agents import RandomAgent, make_decision  # noqa: E402
from henge.core import plugin  # noqa: E402
from henge.records import agent_rng, play  # noqa: E402

CONFIGS = [c for c in game_configs() if plugin(c[0]).encoder is not None]
"""Every game with a tensor encoding, at every player count and variant."""
GAMES = sorted({c[0] for c in CONFIGS})
CYCLES = 150
"""Cycles (a step of every agent) of PettingZoo's checks per configuration: a few hundred steps
reach every phase of a round; a whole game of Spell Casting under random play runs to thousands,
so the end of every game is checked by test_a_whole_game_ends_with_the_returns_and_dead_steps."""
PETTINGZOO_EXEMPTS_ITS_OWN = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
"""Warnings api_test gives any environment whose observation is a dict with an action mask: it
exempts its own classic games by name."""


def _env(config, **kwargs):
    game_id, players, options = config
    return henge_pettingzoo.env(game_id, players=players, **options, **kwargs)


def _api_test(env, cycles: int) -> None:
    """Runs PettingZoo's api_test; fails on any warning but those it gives every masked-dict environment."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env, num_cycles=cycles)
    unexpected = {str(w.message) for w in caught} - PETTINGZOO_EXEMPTS_ITS_OWN
    assert not unexpected


def _fewest(game_id: str) -> int:
    return henge.game_class(game_id).info.min_players


def _encoder(game_id: str):
    return plugin(game_id).load_encoder()


def _seat(agent: str) -> int:
    return int(agent.removeprefix("player_"))


def _walk(env, rng: random.Random, steps: int):
    """Steps ``env`` (reset) with random legal actions read from the masks; yields before each step."""
    for _ in range(steps):
        agent = env.agent_selection
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            return
        yield agent, observation
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


# --- PettingZoo's own checks ----------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_test(config):
    """PettingZoo's api_test, with no warning but those it gives every masked-dict environment.

    Not run: ``bombardment_test``, broken upstream in PettingZoo 1.27 (it fails on PettingZoo's
    own example environments); ``parallel_api_test`` and ``parallel_seed_test``, as these are
    turn-based AEC environments (``is_parallelizable`` False), and the latter checks one step only.
    """
    _api_test(_env(config), CYCLES)


def test_pettingzoo_api_test_through_a_whole_game_and_its_dead_steps(monkeypatch):
    """api_test long enough to finish a game (Fightin' ends within 222 actions) and step every
    finished agent out."""
    env = henge_pettingzoo.env("fightin")
    raw = env.unwrapped
    dead_steps = []
    step_out = raw._was_dead_step

    def counted(action):
        dead_steps.append(raw.agent_selection)
        step_out(action)

    monkeypatch.setattr(raw, "_was_dead_step", counted)
    _api_test(env, 200)
    assert sorted(dead_steps) == ["player_0", "player_1"]  # the game ended and both agents stepped out


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_seed_test(config):
    pettingzoo_test.seed_test(lambda: _env(config), num_cycles=CYCLES)


# --- whole games, seeding, chance -------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_ends_with_the_returns_and_dead_steps(game_id):
    """A seed plays the game henge.records.play plays with it (chance sampled inside step, never an
    agent); the returns come once, at the end; every finished agent steps out with None."""
    seed = 3
    players = _fewest(game_id)
    game = henge.load(game_id, players)
    record = play(game, ["random"] * players, seed=seed)
    env = henge_pettingzoo.env(game_id, players=players)
    env.reset(seed=seed)
    state = env.unwrapped.henge_state
    bots = RandomAgent()
    rngs = [agent_rng(seed, k) for k in range(players)]
    while not state.is_terminal():
        agent = env.agent_selection
        seat = _seat(agent)
        assert state.current_player() == seat  # a seat, never chance, is to move at every agent's turn
        assert env.rewards[agent] == 0.0
        env.step(bots.choose(make_decision(state, seat, rngs[seat], samples=False)))
    assert state.history() == record["actions"]
    returns = state.returns()
    assert returns == record["returns"]
    assert all(env.terminations.values()) and not any(env.truncations.values())
    collected = {}
    while env.agents:
        agent = env.agent_selection
        _, reward, termination, _, _ = env.last()
        assert termination
        collected[agent] = reward
        with pytest.raises(ValueError, match="None"):
            env.step(0)
        env.step(None)
    assert collected == {f"player_{k}": returns[k] for k in range(players)}


def test_a_game_over_before_any_decision_gives_its_returns_at_reset(monkeypatch):
    """No rule set of the anthology ends before a decision, so the game's first state is replaced by
    a finished one to see the protocol kept: returns at once, every agent terminated and stepped out."""
    record = play(henge.load("fightin"), ["random", "random"], seed=1)
    env = henge_pettingzoo.env("fightin")
    game = env.unwrapped.game

    def finished():
        state = type(game).new_initial_state(game)
        for action in record["actions"]:
            state.apply_action(action)
        return state

    monkeypatch.setattr(game, "new_initial_state", finished)
    env.reset(seed=1)
    collected = {}
    while env.agents:
        observation, reward, termination, _, _ = env.last()
        assert termination and not observation["action_mask"].any()
        collected[env.agent_selection] = reward
        env.step(None)
    assert collected == {"player_0": record["returns"][0], "player_1": record["returns"][1]}


def test_reset_without_a_seed_continues_from_the_last_seed():
    """reset(seed=s) then reset() twice plays the same games again."""

    def seeds(env) -> list[list[int]]:
        env.reset(seed=11)
        found = []
        for _ in range(3):
            found.append(env.unwrapped.henge_state.history())
            env.reset()
        return found

    first, second = seeds(henge_pettingzoo.env("stonerush")), seeds(henge_pettingzoo.env("stonerush"))
    assert first == second
    assert first[0] != first[1] != first[2]


# --- observations, masks, leaks ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_encode_each_agents_own_view_and_masks_its_legal_actions(game_id):
    players = _fewest(game_id)
    env = henge_pettingzoo.env(game_id, players=players)
    env.reset(seed=5)
    state = env.unwrapped.henge_state
    encoder = _encoder(game_id)
    space = env.observation_space(env.agent_selection)
    for index, (agent, observation) in enumerate(_walk(env, random.Random(5), 120)):
        assert space.contains(observation)
        if index % 10:
            continue
        for other in env.possible_agents:
            seat = _seat(other)
            seen = env.observe(other)
            expected = np.asarray(encoder.information_state_tensor(state.observation(seat)), dtype=np.float32)
            assert seen["observation"].dtype == np.float32
            assert np.array_equal(seen["observation"], expected)
            legal = state.legal_actions() if other == agent else []
            assert np.flatnonzero(seen["action_mask"]).tolist() == legal
            assert seen["action_mask"].dtype == np.int8


@pytest.mark.parametrize("game_id", [g for g in GAMES if henge.game_class(g).info.hidden_information])
def test_redrawing_what_an_agent_cannot_see_leaves_its_observation_unchanged(game_id):
    """G3: each agent's observation is a function of its own view, never of the true state."""
    players = _fewest(game_id)
    env = henge_pettingzoo.env(game_id, players=players)
    env.reset(seed=9)
    raw = env.unwrapped
    rng = random.Random(9)
    changed = 0
    for index, _ in enumerate(_walk(env, rng, 90)):
        if index % 15:
            continue
        state = raw.henge_state
        for agent in env.possible_agents:
            seen = env.observe(agent)
            sample = state.resample_from_infostate(_seat(agent), rng)
            changed += sample.to_json()["state"] != state.to_json()["state"]
            raw._state = sample
            try:
                again = env.observe(agent)
            finally:
                raw._state = state
            assert np.array_equal(again["observation"], seen["observation"])
            assert np.array_equal(again["action_mask"], seen["action_mask"])
    assert changed  # the redraws did change the hidden parts


# --- illegal actions and bad actions ----------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_action_ends_the_episode_with_the_lowest_return_and_leaves_the_game(game_id):
    """PettingZoo's classic convention: the offender gets the game's lowest return, the others 0,
    the episode ends; henge's state is not touched and the offender's info says why."""
    players = _fewest(game_id)
    info = henge.game_class(game_id).info
    env = henge_pettingzoo.env(game_id, players=players)
    env.reset(seed=1)
    for _ in _walk(env, random.Random(1), 30):
        pass
    state = env.unwrapped.henge_state
    before = state.to_json()
    offender = env.agent_selection
    legal = state.legal_actions()
    illegal = next(a for a in range(env.action_space(offender).n) if a not in legal)
    env.step(illegal)
    assert state.to_json() == before
    assert all(env.terminations.values())
    assert env.infos[offender] == {"illegal_action": True}
    assert env.rewards == {a: (info.min_utility if a == offender else 0.0) for a in env.possible_agents}
    for agent in list(env.agents):
        assert env.infos[agent].get("illegal_action", False) == (agent == offender)
    while env.agents:
        observation, _, termination, _, _ = env.last()
        assert termination and not observation["action_mask"].any()
        env.step(None)


@pytest.mark.parametrize("action", [-1, 10**6, np.int64(10**6)])
def test_an_out_of_range_id_is_an_illegal_action(action):
    env = henge_pettingzoo.env("fightin")
    env.reset(seed=2)
    before = env.unwrapped.henge_state.to_json()
    agent = env.agent_selection
    env.step(action)
    assert env.infos[agent]["illegal_action"] is True
    assert env.unwrapped.henge_state.to_json() == before


@pytest.mark.parametrize("action", ["1", 1.5, True, None])
def test_an_action_that_is_no_integer_is_refused_and_changes_nothing(action):
    env = henge_pettingzoo.env("stonerush", players=3)
    env.reset(seed=2)
    before = env.unwrapped.henge_state.to_json()
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert env.unwrapped.henge_state.to_json() == before
    assert not any(env.terminations.values())


def test_numpy_integers_are_actions():
    env = henge_pettingzoo.env("fightin")
    env.reset(seed=4)
    state = env.unwrapped.henge_state
    action = state.legal_actions()[-1]
    at = state.move_number()
    env.step(np.int32(action))
    assert state.history()[at] == action
    assert not any(env.terminations.values())


def test_stepping_before_reset_is_refused():
    env = henge_pettingzoo.env("fightin")
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)


# --- drawings -----------------------------------------------------------------------------------


def test_ansi_render_is_the_terminal_drawing_of_the_agent_to_move_in_plain_text():
    env = henge_pettingzoo.env("stonerush", players=3, render_mode="ansi")
    env.reset(seed=6)
    state = env.unwrapped.henge_state
    seat = state.current_player()
    text = env.render()
    assert isinstance(text, str)
    assert "\x1b" not in text and "[bold" not in text
    assert f"you are seat {seat}" in text
    hand = state.observation(seat)["hand"]
    assert all(card[:-1] in text for card in hand)


def test_render_without_a_mode_warns_and_returns_none():
    env = henge_pettingzoo.env("fightin")
    env.reset(seed=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert env.render() is None
    assert any("render_mode" in str(w.message) for w in caught)


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("chess",), {}, "unknown game 'chess'; games: "),
        (("stonerush",), {"players": 2}, "stonerush is for 3-5 players, not 2"),
        (("fightin",), {"players": "2"}, "players must be an integer"),
        (("stonerush",), {"variant": "blue"}, "option variant must be one of standard, bluestones"),
        (("fightin",), {"speed": 3}, "fightin has no option 'speed'"),
        (("fightin",), {"render_mode": "human"}, "render_mode must be None or one of ansi"),
        (("threecard",), {}, "threecard has no tensor encoding; games with one: "),
    ],
)
def test_bad_input_gets_a_clear_error(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        henge_pettingzoo.env(*args, **kwargs)


def test_spaces_are_one_object_per_agent_and_sized_by_the_encoder():
    env = henge_pettingzoo.env("stonerush", players=4, variant="bluestones")
    encoder = _encoder("stonerush")
    (size,) = encoder.information_state_shape(4, {"variant": "bluestones"})
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space is env.observation_space(agent)
        assert space["observation"].shape == (size,)
        assert env.action_space(agent).n == henge.load("stonerush", 4).num_distinct_actions()
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.metadata["name"] == "henge_stonerush_v0"
