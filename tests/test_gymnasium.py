"""The Gymnasium adapter: Gymnasium's own checker for every game and player count, the ids, seeding,
the bots' view, the illegal-action convention, masks and observations, drawings and bad input."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path

import pytest
from conftest import config_id, game_configs

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import henge  # noqa: E402
from henge.adapters import gymnasium as henge_gymnasium  # noqa: E402
from henge.agents import Decision, RandomAgent, make_decision  # noqa: E402
from henge.core import plugin  # noqa: E402
from henge.records import agent_rng, play  # noqa: E402

CONFIGS = [c for c in game_configs() if plugin(c[0]).encoder is not None]
"""Every game with a tensor encoding, at every player count and variant."""
GAMES = sorted({c[0] for c in CONFIGS})
IDS = {
    "stonerush": "henge/Stonerush-v0",
    "fightin": "henge/Fightin-v0",
    "druid_olympics": "henge/DruidOlympics-v0",
    "first_druid": "henge/FirstDruid-v0",
    "spell_casting": "henge/SpellCasting-v0",
}
UNBOUNDED = re.compile(
    r"A Box observation space (minimum|maximum) value is -?infinity\. This is probably too (low|high)\."
)
"""check_env's warnings for an unbounded observation space: the encoders declare no bounds (a count
can pass 1, a net move can be negative), so the box is unbounded on purpose."""


def _make(game_id: str, **kwargs):
    return gymnasium.make(IDS[game_id], **kwargs)


def _fewest(game_id: str) -> int:
    return henge.game_class(game_id).info.min_players


def _encoded(env, seat: int):
    state = env.unwrapped.henge_state
    values = plugin(state.game.info.id).load_encoder().information_state_tensor(state.observation(seat))
    return np.asarray(values, dtype=np.float32)


# --- registration and Gymnasium's own checker ----------------------------------------------------


def test_importing_the_adapter_registers_an_id_per_encoded_game():
    assert sorted(henge_gymnasium.register_all()) == sorted(IDS.values())
    assert {henge_gymnasium.env_id(g) for g in GAMES} == set(IDS.values())
    assert all(i in gymnasium.registry for i in IDS.values())
    assert "henge/Threecard-v0" not in gymnasium.registry  # a game without an encoder gets no id


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_gymnasium_check_env(config):
    """Gymnasium's check_env (it steps unmasked random actions: the illegal-action convention ends those
    episodes), with no warning but the unbounded box's."""
    game_id, players, options = config
    env = _make(game_id, players=players, options=options, opponents="heuristic")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    messages = {str(w.message).removeprefix("\x1b[33mWARN: ").removesuffix("\x1b[0m") for w in caught}
    assert {m for m in messages if not UNBOUNDED.fullmatch(m)} == set()


def test_spaces_come_from_the_encoder_and_the_game():
    env = _make("stonerush", players=4, options={"variant": "bluestones"})
    (size,) = plugin("stonerush").load_encoder().information_state_shape(4, {"variant": "bluestones"})
    assert env.observation_space.shape == (size,) and env.observation_space.dtype == np.float32
    assert env.action_space.n == henge.load("stonerush", 4).num_distinct_actions()


def test_the_docs_table_of_sizes_is_the_encoders():
    """docs/research.md tables every game's observation and action sizes at each player count."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "research.md").read_text()
    rows = set()
    for game_id, players, options in CONFIGS:
        env = henge_gymnasium.HengeEnv(game_id, players=players, options=options)
        encoder = plugin(game_id).load_encoder()
        (observation,) = encoder.observation_shape(players, env.game.options)
        size = env.observation_space.shape[0]
        rows.add(f"| `{game_id}` | {players} | {size} | {observation} | {env.action_space.n} |")
    missing = sorted(row for row in rows if row not in page.splitlines())
    assert not missing, "docs/research.md should have these rows:\n" + "\n".join(missing)
    for game_id in GAMES:
        assert f"| `{game_id}` | `{IDS[game_id]}` | `henge_{game_id}_v0` |" in page


# --- seeding, bots and whole games -----------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seed_plays_the_game_henge_plays_with_it(game_id):
    """reset(seed=s) draws chance and each bot's generator as henge.records.play does: a learner that
    chooses what a random agent would at its seat plays the record's game, and gets its return."""
    players, seat, seed = _fewest(game_id), 1, 4
    lineup = ["heuristic"] * players
    lineup[seat] = "random"
    record = play(henge.load(game_id, players), lineup, seed=seed)
    env = _make(game_id, players=players, seat=seat, opponents="heuristic")
    _, info = env.reset(seed=seed)
    state = env.unwrapped.henge_state
    learner, rng = RandomAgent(), agent_rng(seed, seat)
    rewards = []
    terminated = False
    while not terminated:
        assert state.current_player() == seat
        assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
        action = learner.choose(make_decision(state, seat, rng, samples=False))
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        rewards.append(reward)
    assert state.history() == record["actions"]
    assert rewards[-1] == record["returns"][seat] and not any(rewards[:-1])
    assert info["returns"] == record["returns"]
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_reset_without_a_seed_is_reproducible_after_a_seeded_one():
    def games(env) -> list[list[int]]:
        found = []
        env.reset(seed=21)
        for _ in range(3):
            found.append(env.unwrapped.henge_state.history())
            env.reset()
        return found

    first = games(_make("stonerush", players=4, opponents="random"))
    second = games(_make("stonerush", players=4, opponents="random"))
    assert first == second
    assert len({tuple(g) for g in first}) == 3


def test_the_bots_are_handed_only_a_decision_of_their_own_seat():
    """Bots play as in a tournament: a Decision with their seat's observation, never the state."""
    seen: list[tuple[int, Decision]] = []

    class Spy:
        name = "spy"
        needs_samples = False

        def choose(self, decision):
            seen.append((decision.seat, decision))
            return decision.legal_actions[0]

    env = _make("stonerush", players=3, seat=2, opponents=[Spy(), "random"])
    env.reset(seed=8)
    state = env.unwrapped.henge_state
    for _ in range(20):
        env.step(state.legal_actions()[0])
    assert seen and all(type(d) is Decision for _, d in seen)
    assert {s for s, _ in seen} == {0}
    assert all(d.game_id == "stonerush" and set(d.observation) >= {"seat", "hand"} for _, d in seen)
    assert all(d.observation["seat"] == 0 for _, d in seen)


def test_a_search_bot_by_name_with_settings_plays_from_samples():
    env = _make("fightin", opponents="ismcts:iterations=8:worlds=2")
    _, info = env.reset(seed=3)
    for _ in range(6):
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not terminated
    assert env.unwrapped.henge_state.current_player() == 0


# --- observations, masks, leaks ---------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_the_observation_is_the_encoded_view_of_the_learners_seat(game_id):
    players = _fewest(game_id)
    seat = players - 1
    env = _make(game_id, players=players, seat=seat, opponents="random")
    observation, info = env.reset(seed=12)
    state = env.unwrapped.henge_state
    rng = random.Random(12)
    for step in range(60):
        assert np.array_equal(observation, _encoded(env, seat))
        assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
        assert info["action_mask"].dtype == np.int8
        if step % 20 == 0 and state.game.info.hidden_information:
            # G3: redrawing what the learner cannot see changes nothing it is shown.
            sample = state.resample_from_infostate(seat, rng)
            assert np.array_equal(env.unwrapped.view.tensor(sample, seat), observation)
            assert np.array_equal(env.unwrapped.view.mask(sample, seat), info["action_mask"])
        observation, _, terminated, _, info = env.step(rng.choice(state.legal_actions()))
        if terminated:
            break


# --- illegal and malformed actions ------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_an_illegal_action_ends_the_episode_with_the_lowest_return_and_leaves_the_game(game_id):
    env = _make(game_id, players=_fewest(game_id), opponents="random")
    observation, info = env.reset(seed=2)
    state = env.unwrapped.henge_state
    for _ in range(10):
        observation, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    before = state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert state.to_json() == before
    assert terminated and not truncated
    assert reward == henge.game_class(game_id).info.min_utility
    assert info["illegal_action"] is True
    assert not info["action_mask"].any()
    assert np.array_equal(after, observation)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("action", [-1, 10**6])
def test_an_out_of_range_id_is_an_illegal_action(action):
    env = _make("fightin")
    env.reset(seed=0)
    before = env.unwrapped.henge_state.to_json()
    _, _, terminated, _, info = env.step(action)
    assert terminated and info["illegal_action"] is True
    assert env.unwrapped.henge_state.to_json() == before


@pytest.mark.parametrize("action", ["3", 2.0, None, np.array([1, 2])])
def test_an_action_that_is_no_integer_is_refused_and_changes_nothing(action):
    env = _make("fightin")
    env.reset(seed=0)
    before = env.unwrapped.henge_state.to_json()
    with pytest.raises(ValueError, match="integer"):
        env.unwrapped.step(action)
    assert env.unwrapped.henge_state.to_json() == before


def test_a_game_over_before_the_learners_first_decision_ends_on_its_first_step():
    """No rule set of the anthology ends before every seat has moved, so the state is swapped for a
    finished one to see the documented behaviour."""
    env = _make("fightin", seat=1).unwrapped
    env.reset(seed=1)
    finished = henge.load("fightin").new_initial_state()
    record = play(henge.load("fightin"), ["random", "random"], seed=1)
    for action in record["actions"]:
        finished.apply_action(action)
    env._state = finished
    _, reward, terminated, _, info = env.step(12345)
    assert terminated and reward == record["returns"][1]
    assert "illegal_action" not in info and info["returns"] == record["returns"]


# --- drawings -------------------------------------------------------------------------------------


def test_ansi_render_is_the_learners_view_in_plain_text():
    env = _make("stonerush", players=3, seat=1, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert isinstance(text, str) and "\x1b" not in text
    assert "you are seat 1" in text
    hand = env.unwrapped.henge_state.observation(1)["hand"]
    assert all(card[:-1] in text for card in hand)


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_id": "chess"}, "unknown game 'chess'; games: "),
        ({"game_id": "threecard"}, "threecard has no tensor encoding; games with one: "),
        ({"game_id": "stonerush", "players": 6}, "stonerush is for 3-5 players, not 6"),
        ({"game_id": "stonerush", "seat": 3}, r"seat must be 0\.\.2 for 3 players, not 3"),
        ({"game_id": "fightin", "seat": -1}, r"seat must be 0\.\.1"),
        ({"game_id": "fightin", "seat": True}, r"seat must be 0\.\.1"),
        ({"game_id": "stonerush", "options": {"variant": "x"}}, "option variant must be one of standard, bluestones"),
        ({"game_id": "stonerush", "options": {"speed": 1}}, "stonerush has no option 'speed'"),
        ({"game_id": "stonerush", "options": "bluestones"}, "options is a dict"),
        (
            {"game_id": "fightin", "opponents": "alphazero"},
            "unknown bot 'alphazero'; levels: beginner, casual, strong; bots: random, heuristic, ismcts",
        ),
        ({"game_id": "fightin", "opponents": "mcts-cheat"}, "mcts-cheat sees hidden information"),
        ({"game_id": "stonerush", "opponents": ["random"]}, "stonerush with 3 players needs 2 opponents, not 1"),
        ({"game_id": "fightin", "opponents": [object()]}, "an opponent is a bot name or a fair agent"),
        ({"game_id": "fightin", "opponents": 3}, "opponents is a bot name or a list of 1"),
        ({"game_id": "fightin", "opponents": "ismcts:speed=3"}, "ismcts: unknown setting 'speed=3'"),
        ({"game_id": "fightin", "render_mode": "human"}, "render_mode must be None or one of ansi"),
    ],
)
def test_bad_input_gets_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        henge_gymnasium.HengeEnv(**kwargs)


def test_bad_input_through_a_registered_id_gets_the_same_error():
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1 for 2 players, not 2"):
        _make("fightin", seat=2)


def test_reset_takes_no_options():
    env = _make("fightin").unwrapped
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(options={"variant": "short"})
