"""The OpenSpiel adapter: OpenSpiel's own checks and bots, tensors, leaks, resampling and clones."""

from __future__ import annotations

import copy
import json
import math
import random
import re
import time
from pathlib import Path

import pytest
from conftest import config_id, game_configs

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
from open_spiel.python import observation  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import henge  # noqa: E402
from henge import box  # noqa: E402
from henge.adapters import openspiel  # noqa: E402
from henge.core import plugin  # noqa: E402

openspiel.register_all()

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"
ENCODED = ("stonerush", "fightin", "druid_olympics", "first_druid", "spell_casting")
"""The anthology's games: each names an encoder."""
HIDDEN = ("stonerush", "fightin", "druid_olympics", "first_druid")
"""The games with hidden information: hands (ISMCTS); spell_casting is open once chance acts (MCTS)."""
FEWEST = {game_id: henge.game_class(game_id).info.min_players for game_id in ENCODED}


def _load(game_id: str, players: int | None = None):
    return pyspiel.load_game(f"henge_{game_id}", {"players": players or FEWEST[game_id]})


def _step(state, rng: random.Random) -> None:
    if state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, weights)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _random_history(game, seed: int) -> list[int]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        _step(state, rng)
    return state.history()


def _replayed(game, history: list[int]):
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _positions(game, seed: int, count: int) -> list:
    """Returns ``count`` decision states spread over one random game (the set-up excluded)."""
    history = _random_history(game, seed)
    states = []
    state = game.new_initial_state()
    marks = {int(len(history) * (k + 1) / (count + 1)) for k in range(count)}
    for index, action in enumerate(history):
        if index >= min(marks) and not state.is_chance_node():
            states.append(state.clone())
            marks.discard(min(marks))
            if not marks:
                break
        state.apply_action(action)
    return states


def _late_decision(game, seed: int, fraction: float):
    """Returns the first decision state at ``fraction`` of a random game or after."""
    history = _random_history(game, seed)
    state = _replayed(game, history[: int(len(history) * fraction)])
    rng = random.Random(seed)
    while state.is_chance_node():
        _step(state, rng)
    assert not state.is_terminal()
    return state


def _layout(game_id: str, players: int, information_state: bool) -> dict[str, tuple[int, int]]:
    """Returns each slice's (start, length) of a game's encoding."""
    encoder = plugin(game_id).load_encoder()
    pieces = (encoder.information_state_layout if information_state else encoder.observation_layout)(players, {})
    layout, at = {}, 0
    for name, shape in pieces:
        layout[name] = (at, math.prod(shape))
        at += math.prod(shape)
    return layout


# --- OpenSpiel's own checks ----------------------------------------------------------------


def _one_config_per_game() -> list[tuple[str, int, dict[str, object]]]:
    """The fewest players of each game in its standard form: OpenSpiel's simulation test checks every
    node of a whole game (tensors included), so every count and variant would take minutes; the
    other counts and variants pass the same checks in tests/test_conformance.py."""
    chosen: dict[str, tuple[str, int, dict[str, object]]] = {}
    for config in game_configs():
        if config[2].get("variant", "standard") == "standard":
            chosen.setdefault(config[0], config)
    return list(chosen.values())


@pytest.mark.slow
@pytest.mark.parametrize("config", _one_config_per_game(), ids=config_id)
def test_pyspiel_random_sim_test(config):
    game_id, players, options = config
    game = pyspiel.load_game(f"henge_{game_id}", {"players": players, **options})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", ENCODED)
def test_game_type_tells_what_the_adapter_provides(game_id):
    kind = _load(game_id).get_type()
    assert kind.provides_information_state_string
    assert kind.provides_observation_string
    assert kind.provides_observation_tensor
    assert kind.provides_information_state_tensor


def test_a_game_without_encoder_offers_strings_only():
    game_ids = [g for g in henge.list_games() if plugin(g).encoder is None]
    if not game_ids:
        pytest.skip("every installed game names an encoder")
    game = pyspiel.load_game(f"henge_{game_ids[0]}")
    kind = game.get_type()
    assert kind.provides_information_state_string and kind.provides_observation_string
    assert not kind.provides_observation_tensor and not kind.provides_information_state_tensor
    state = game.new_initial_state()
    assert state.information_state_string(0) == state.henge_state.information_state_string(0)


# --- OpenSpiel's bots play through the adapter ------------------------------------------------


@pytest.mark.parametrize("game_id", HIDDEN)
def test_openspiel_ismcts_plays_hidden_information_games(game_id):
    game = _load(game_id)
    state = _late_decision(game, seed=11, fraction=0.85)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(2))
    rng = random.Random(3)
    decisions = 0
    while decisions < 3 and not state.is_terminal():
        if state.is_chance_node():
            _step(state, rng)
            continue
        before = state.move_number()
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        assert state.move_number() == before + 1
        decisions += 1
    assert decisions == 3 or state.is_terminal()


def test_openspiel_mcts_plays_spell_casting():
    game = _load("spell_casting")
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = _late_decision(game, seed=5, fraction=0.95)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=evaluator, random_state=np.random.RandomState(2))
    rng = random.Random(3)
    decisions = 0
    while decisions < 2 and not state.is_terminal():
        if state.is_chance_node():
            _step(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 2 or state.is_terminal()


# --- strings ------------------------------------------------------------------------------------


def test_adapter_observation_is_the_seats_json():
    game = pyspiel.load_game("henge_stonerush", {"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    text = state.observation_string(seat)
    assert f'"seat": {seat}' in text
    assert '"hand": [' in text
    assert json.loads(text) == json.loads(json.dumps(state.henge_state.observation(seat)))
    assert pyspiel.State.observation_string(state, seat) == text  # the C++ path says the same


@pytest.mark.parametrize("game_id", ENCODED)
def test_information_state_string_is_henges_digest(game_id):
    game = _load(game_id)
    for state in _positions(game, seed=1, count=3):
        for seat in range(game.num_players()):
            digest = state.henge_state.information_state_string(seat)
            assert state.information_state_string(seat) == digest
            assert pyspiel.State.information_state_string(state, seat) == digest  # what C++ callers read
        assert state.information_state_string() == state.information_state_string(state.current_player())


def test_openspiels_observers_name_the_slices_and_a_public_observer_shows_no_hand():
    game = _load("stonerush")
    state = _positions(game, seed=8, count=1)[0]
    seat = state.current_player()
    own = observation.make_observation(game)
    own.set_from(state, seat)
    assert list(own.dict) == list(_layout("stonerush", 3, information_state=False))
    assert own.tensor.tolist() == state.observation_tensor(seat)
    public_type = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    public = observation.make_observation(game, public_type)
    public.set_from(state, seat)
    assert not public.dict["hand"].any() and own.dict["hand"].sum() == len(state.henge_state.observation(seat)["hand"])
    assert json.loads(public.string_from(state, seat)) == json.loads(json.dumps(state.henge_state.observation(None)))
    recall = observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    recall.set_from(state, seat)
    assert recall.string_from(state, seat) == state.information_state_string(seat)
    assert recall.tensor.tolist() == state.information_state_tensor(seat)
    with pytest.raises(ValueError, match="private_info"):
        observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, public_info=False))


# --- tensors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ENCODED)
def test_tensors_have_a_fixed_size_and_finite_values(game_id):
    info = henge.game_class(game_id).info
    encoder = plugin(game_id).load_encoder()
    for players in range(info.min_players, info.max_players + 1):
        game = _load(game_id, players)
        observation_size = encoder.OBSERVATION_SHAPE(players, {})[0]
        information_size = encoder.INFORMATION_STATE_SHAPE(players, {})[0]
        assert game.observation_tensor_shape() == [observation_size]
        assert game.information_state_tensor_shape() == [information_size]
        history = _random_history(game, seed=players)
        states = [game.new_initial_state(), *_positions(game, seed=players, count=4), _replayed(game, history)]
        assert states[-1].is_terminal()
        for state in states:
            for seat in range(players):
                observed = state.observation_tensor(seat)
                known = state.information_state_tensor(seat)
                assert len(observed) == observation_size and len(known) == information_size
                assert all(math.isfinite(v) for v in known)
                assert known[:observation_size] == observed  # the information state starts with the observation


@pytest.mark.parametrize("game_id", ENCODED)
def test_card_places_share_out_every_card_and_the_own_hand_is_visible(game_id):
    game = _load(game_id)
    players = game.num_players()
    observation_layout = _layout(game_id, players, information_state=False)
    start, length = _layout(game_id, players, information_state=True)["card_places"]
    places = plugin(game_id).load_encoder().places(players)
    assert length == 65 * len(places)
    width = len(places)
    for state in _positions(game, seed=2, count=4):
        for seat in range(players):
            known = state.information_state_tensor(seat)
            rows = [known[start + width * c : start + width * (c + 1)] for c in range(65)]
            assert all(abs(sum(row) - 1.0) < 1e-6 and min(row) >= 0.0 for row in rows), "each card's shares add to 1"
            if game_id == "spell_casting":
                assert all(row.count(1.0) == 1 for row in rows), "nothing is hidden: one place per card"
                continue  # its "hand" is the public disks taken this turn
            own = [i for i, name in enumerate(places) if name.startswith("hand") and name.endswith(f"seat {seat}")]
            hand = sorted(box.parse_card(t) for t in state.henge_state.observation(seat)["hand"])
            at, size = observation_layout["hand"]
            shown = state.observation_tensor(seat)[at : at + size]
            assert [c for c in range(65) if shown[c]] == hand
            assert all(rows[c][own[0]] == 1.0 for c in hand), "the own hand's cards are known to be there"
            others = [i for i, name in enumerate(places) if name.startswith("hand") and i != own[0]]
            assert not any(rows[c][i] for c in hand for i in others)
            observed = state.henge_state.observation(seat)
            counts = {f"hand of seat {k}": size for k, size in enumerate(observed["hand_sizes"])}
            counts["draw pile"] = observed.get("draw_pile")
            for k, size in enumerate(observed.get("deck_sizes") or ()):  # fightin
                counts[f"deck of seat {k}"] = size
                counts[f"face down by seat {k}"] = sum(
                    e["face_down"][k] is not None for e in observed["events"].values()
                )
            for i, name in enumerate(places):  # each place holds as many cards as its shares add up to
                if name in counts:
                    assert sum(row[i] for row in rows) == pytest.approx(counts[name]), name
            for group in observed.get("hidden_cards") or observed.get("unseen") or ():
                for text in group["cards"]:  # an unseen card: each hand's share of its group, and the pile's
                    row = rows[box.parse_card(text)]
                    assert row[places.index("draw pile")] == pytest.approx(group["draw_pile"] / len(group["cards"]))
                    for k, count in enumerate(group["hands"]):
                        assert row[places.index(f"hand of seat {k}")] == pytest.approx(count / len(group["cards"]))


@pytest.mark.parametrize("game_id", HIDDEN)
def test_seat_0_sees_nothing_it_cannot_know(game_id):
    """A leak test: states differing only in what seat 0 cannot see look the same to seat 0."""
    game = _load(game_id)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    differed = 0
    for state in _positions(game, seed=3, count=8):
        for _ in range(2):
            other = state.resample_from_infostate(0, sampler)
            assert other.observation_string(0) == state.observation_string(0)
            assert other.information_state_string(0) == state.information_state_string(0)
            assert other.observation_tensor(0) == state.observation_tensor(0)
            assert other.information_state_tensor(0) == state.information_state_tensor(0)
            if other.observation_tensor(1) != state.observation_tensor(1):
                differed += 1  # seat 1's hand was re-drawn: the resample hid something real
    assert differed, "no resample changed what seat 1 sees: the test would catch no leak"


@pytest.mark.parametrize("game_id", ENCODED)
def test_the_docs_tables_give_every_slice(game_id):
    """docs/games/<id>.md, section "Tensor encoding": one row per slice, starts and lengths in n."""
    text = (DOCS / f"{game_id}.md").read_text(encoding="utf-8")
    assert "\n## Tensor encoding\n" in text, f"{game_id}: no Tensor encoding section"
    section = text.split("\n## Tensor encoding\n", 1)[1].split("\n## ", 1)[0]
    tables = {}
    for title in ("Observation tensor", "Information state tensor"):
        part = section.split(f"\n### {title}\n", 1)[1].split("\n### ", 1)[0]
        rows = [line for line in part.splitlines() if re.match(r"\|\s*[0-9n]", line)]
        tables[title] = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]
    info = henge.game_class(game_id).info
    for players in range(info.min_players, info.max_players + 1):
        observed = _layout(game_id, players, information_state=False)
        known = _layout(game_id, players, information_state=True)
        size = sum(length for _, length in observed.values())
        expected = {
            "Observation tensor": list(observed.items()),
            "Information state tensor": [("observation", (0, size))]
            + [(name, span) for name, span in known.items() if name not in observed],
        }
        for title, slices in expected.items():
            documented = [
                (row[2].strip("`"), (_evaluate(row[0], players), _evaluate(row[1], players))) for row in tables[title]
            ]
            assert documented == slices, f"{game_id}, {players} players: the {title} table is not the layout"


def _evaluate(expression: str, n: int) -> int:
    python = re.sub(r"(\d)\s*n", r"\1*n", expression.replace("×", "*"))
    assert re.fullmatch(r"[0-9n+*() ]+", python), expression
    return int(eval(python, {"__builtins__": {}}, {"n": n}))


# --- the sampler protocol ----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", HIDDEN)
def test_resample_takes_openspiels_sampler_and_calls_it_once(game_id):
    game = _load(game_id)
    state = _positions(game, seed=4, count=1)[0]
    seat = state.current_player()
    sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.legal_actions() == state.legal_actions()
    calls = []

    def sampler():
        calls.append(1)
        return 0.375

    started = time.perf_counter()
    first = state.resample_from_infostate(seat, sampler)
    second = state.resample_from_infostate(seat, sampler)
    elapsed = time.perf_counter() - started
    assert len(calls) == 2, "one call of the sampler per resample: a seed, never a list"
    assert str(first) == str(second), "the same float gives the same world"
    assert first.information_state_string(seat) == state.information_state_string(seat)
    assert elapsed < 1.0, f"two resamples took {elapsed:.2f} s"
    assert state.resample_from_infostate(seat, random.Random(1)).information_state_string(seat) == (
        state.information_state_string(seat)
    )
    assert state.resample_from_infostate(seat, None).information_state_string(seat) == (
        state.information_state_string(seat)
    )
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        state.resample_from_infostate(seat, lambda: 7.0)
    with pytest.raises(TypeError, match="callable"):
        state.resample_from_infostate(seat, [(0, 1.0)])


# --- clones and serialization ------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ENCODED)
def test_clone_is_henges_clone_and_independent(game_id):
    game = _load(game_id)
    history = _random_history(game, seed=5)
    state = _replayed(game, history[: len(history) // 2])
    henge_game = game.new_initial_state().henge_state.game
    assert state.henge_state.game is henge_game
    assert set(vars(state)) == {"_held"}, "OpenSpiel's C++ clone deep-copies every attribute: keep one"
    for copied in (state.clone(), copy.deepcopy(state), pyspiel.State.clone(state)):
        assert type(copied) is type(state)
        assert str(copied) == str(state) and copied.history() == state.history()
        assert copied.move_number() == state.move_number()
        assert copied.henge_state is not state.henge_state
        assert copied.henge_state.game is henge_game, "the henge game is shared, never copied"
        for seat in range(game.num_players()):
            assert copied.information_state_string(seat) == state.information_state_string(seat)
        before = str(state)
        _step(copied, random.Random(1))
        assert str(state) == before and copied.move_number() == state.move_number() + 1


@pytest.mark.parametrize("game_id", ENCODED)
def test_serialization_round_trips_a_long_record(game_id):
    """A record of hundreds of events is too deep to pickle: the adapter pickles the JSON."""
    game = _load(game_id)
    history = _random_history(game, seed=6)
    state = _replayed(game, history[: min(len(history) - 1, 600)])
    text = pyspiel.serialize_game_and_state(game, state)
    _, loaded = pyspiel.deserialize_game_and_state(text)
    assert str(loaded) == str(state) and loaded.history() == state.history()
    for seat in range(game.num_players()):
        assert loaded.information_state_string(seat) == state.information_state_string(seat)


# --- errors ------------------------------------------------------------------------------------------------


def test_a_wrong_player_count_names_the_allowed_range():
    with pytest.raises(ValueError, match="stonerush is for 3-5 players, not 9"):
        pyspiel.load_game("henge_stonerush", {"players": 9})
    with pytest.raises(ValueError, match="3-5 players, not 2"):
        openspiel.load_game("stonerush", 2)


def test_a_wrong_game_id_names_henges_games():
    with pytest.raises(ValueError, match=r"unknown game 'stonehenge'.*stonerush"):
        openspiel.load_game("stonehenge", 3)
    game = openspiel.load_game("fightin")
    assert game.get_type().short_name == "henge_fightin" and game.num_players() == 2
