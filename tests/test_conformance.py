"""The conformance suite: every registered game, every player count and variant.

Seeded random playouts check the State API contract at every node: legal
actions, chance probabilities, clones, JSON, determinism, replay, length,
returns, action text, illegal input, and that no seat's view leaks (G3).
"""

from __future__ import annotations

import json
import pickle
import random

import pytest
from conftest import config_id, game_configs, knob_configs, shipped_games

import henge
from henge.core import CHANCE, PARTS, TERMINAL, GamePlugin, IllegalActionError, State, StateFormatError, plugin

CONFIGS = game_configs()
GAMES_PER_CONFIG = 3
KNOB_CONFIGS = knob_configs()
"""Every other value of every designer option, each at one player count (one game each)."""


def _is_deep(step: int) -> bool:
    """Picks the nodes for JSON round trips and resampling: every 7th of the first 200, then every
    97th up to step 1500, then every 1009th (a round trip replays the history, so checking every
    node of a long game would cost the square of its length)."""
    if step < 200:
        return step % 7 == 0
    return step % 97 == 0 if step < 1500 else step % 1009 == 0


def _walk(game: henge.Game, seed: int, visit) -> State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        visit(state, steps, rng)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            action = rng.choices(actions, [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
        assert steps <= game.max_game_length(), "the game ran past its declared maximum length"
    visit(state, steps, rng)
    return state


def _is_sparse(step: int) -> bool:
    """Fewer deep nodes, for the designer options' extra games: every 37th of the first 400, then
    every 401st (the standard games check the densest set)."""
    return step % 37 == 0 if step < 400 else step % 401 == 0


def _check_node(state: State, step: int, rng: random.Random, deep=_is_deep) -> None:
    game = state.game
    n = game.num_players
    player = state.current_player()
    assert player == CHANCE or player == TERMINAL or 0 <= player < n
    legal = state.legal_actions()
    if player == TERMINAL:
        assert legal == [] and state.is_terminal()
        with pytest.raises(IllegalActionError):
            state.apply_action(0)
        return
    assert legal, "no legal action at a non-terminal node"
    assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
    assert state.returns() == [0.0] * n
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(p > 0 for _, p in outcomes)
        assert all(0 <= a < game.max_chance_outcomes() for a in legal)
    else:
        assert state.chance_outcomes() == []
        assert all(0 <= a < game.num_distinct_actions() for a in legal)
    texts = [state.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts), "two legal actions share a text"
    for action, text in zip(legal, texts, strict=True):
        assert state.string_to_action(text) == action
        assert state.string_to_action(f"  {text.upper()} ") == action
    if not deep(step):
        return
    before = state.to_json()
    # An illegal id, a wrong type and an unknown text raise and change nothing.
    illegal = next(a for a in range(max(legal) + 2) if a not in legal)
    for bad in (illegal, -1, "play", 1.5, None):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.string_to_action("no such action")
    assert state.to_json() == before
    # Clones are independent.
    twin = state.clone()
    assert twin.to_json() == before
    twin.apply_action(legal[-1])
    assert state.to_json() == before
    assert state.legal_actions() == legal
    # JSON round trip, through text.
    text = json.dumps(before)
    again = game.state_from_json(json.loads(text))
    assert again.to_json() == before
    assert again.legal_actions() == legal
    # No leak: re-drawing what a seat cannot see changes nothing it sees.
    for seat in range(n):
        seen = state.observation(seat)
        json.dumps(seen)
        sample = state.resample_from_infostate(seat, rng)
        assert sample.observation(seat) == seen, f"seat {seat}'s view changed when its unknowns were re-drawn"
        assert sample.observation(None) == state.observation(None)
        assert sample.current_player() == player
        if player == seat:
            assert sample.legal_actions() == legal
        assert game.state_from_json(sample.to_json()).to_json() == sample.to_json()
    assert state.to_json() == before
    with pytest.raises(ValueError):
        state.observation(n)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_playouts_keep_the_contract(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    for seed in range(GAMES_PER_CONFIG):
        _check_returns(game, _walk(game, seed, _check_node))


def _check_returns(game: henge.Game, final: State) -> None:
    """A finished game pays every seat within the game's bounds, summing to its sum where it has one."""
    returns = final.returns()
    info = game.info
    assert len(returns) == game.num_players
    assert all(info.min_utility <= r <= info.max_utility for r in returns)
    if info.utility_sum is not None:
        assert abs(sum(returns) - info.utility_sum) < 1e-9


@pytest.mark.parametrize("game_id", henge.list_games())
def test_progress_is_none_or_each_seats_standing_in_0_1(game_id):
    """The rules' reading of progress (State.progress): None, or one float in [0, 1] per seat, at every
    node; once over, the returns scaled to [0, 1]. Games that define it are checked moving the right
    way in tests/test_rules_search.py."""
    game = henge.load(game_id, henge.game_class(game_id).info.max_players)
    info = game.info
    n = game.num_players
    read = []

    def visit(state: State, steps: int, rng: random.Random) -> None:
        progress = state.progress()
        read.append(progress is not None)
        if progress is not None:
            assert isinstance(progress, list) and len(progress) == n, progress
            assert all(isinstance(v, float) and 0.0 <= v <= 1.0 for v in progress), progress

    for seed in range(2):
        final = _walk(game, seed, visit)
        progress = final.progress()
        if progress is not None:
            span = info.max_utility - info.min_utility
            assert progress == [(r - info.min_utility) / span for r in final.returns()]
    assert any(read) == (game_id in shipped_games()), "every game henge ships reads its progress"


@pytest.mark.parametrize("config", KNOB_CONFIGS, ids=config_id)
def test_designer_options_keep_the_contract(config):
    """The same checks at every node, for one game with each value of each designer option (the
    standard value is the game above), and G1: every chance event stays uniform."""
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    assert options.items() <= game.options.items(), "a designer option's other values are written in records"

    def visit(state: State, step: int, rng: random.Random) -> None:
        _check_node(state, step, rng, _is_sparse)
        if state.is_chance_node():
            probabilities = {p for _, p in state.chance_outcomes()}
            assert max(probabilities) - min(probabilities) < 1e-12, f"{game_id}: a non-uniform chance event"

    _check_returns(game, _walk(game, 0, visit))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_resampling_redraws_hidden_information(config):
    """The leak check can only fail if resampling really changes something: it must, in a game
    with hidden information; in one without, resampling must change nothing."""
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    changed = 0

    def visit(state: State, step: int, rng: random.Random) -> None:
        nonlocal changed
        if step % 5 == 0 and not state.is_terminal():
            for seat in range(players):
                if state.resample_from_infostate(seat, rng).to_json()["state"] != state.to_json()["state"]:
                    changed += 1

    _walk(game, 11, visit)
    if game.info.hidden_information:
        assert changed > 0
    else:
        assert changed == 0


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_same_seed_same_record_and_replay_reproduces(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    first = henge.play(game, ["random"] * players, seed=1234)
    second = henge.play(game, ["random"] * players, seed=1234)
    assert first == second
    assert henge.play(game, ["random"] * players, seed=1235)["actions"] != first["actions"]
    record = json.loads(json.dumps(first))
    states = henge.replay(record)
    assert len(states) == len(first["actions"]) + 1
    assert states[-1].is_terminal()
    assert states[-1].returns() == first["returns"]
    assert states[-1].history() == first["actions"]
    assert len(first["actions"]) <= game.max_game_length()


@pytest.mark.parametrize("game_id", henge.list_games())
def test_bad_loads_and_bad_json_are_refused_clearly(game_id):
    info = henge.game_class(game_id).info
    with pytest.raises(ValueError, match=f"{info.min_players}-{info.max_players} players"):
        henge.load(game_id, info.max_players + 1)
    with pytest.raises(ValueError, match="no option 'colour'"):
        henge.load(game_id, info.min_players, colour="red")
    game = henge.load(game_id, info.min_players)
    state = game.new_initial_state()
    good = state.to_json()
    for bad in (None, [], {**good, "game": "chess"}, {**good, "history": "abc"}, {**good, "state": 3}):
        with pytest.raises(StateFormatError):
            game.state_from_json(bad)
    broken = json.loads(json.dumps(good))
    broken["state"] = {k: None for k in broken["state"]}
    with pytest.raises(StateFormatError):
        game.state_from_json(broken)
    record = henge.play(game, ["random"] * info.min_players, seed=3)
    final = henge.replay(record)[-1].to_json()
    tampered = json.loads(json.dumps(final))
    tampered["history"] = tampered["history"][:-1]
    with pytest.raises(StateFormatError):
        game.state_from_json(tampered)


NOT_PARTS = {"id", "package", "game", "board_js", "rules_page", "public", "api_version"}
"""The fields of a plugin that name no part checked against an interface: the rules are checked as a
Game class, the browser drawing and the rules page are texts."""


def test_every_part_a_plugin_may_name_has_an_interface():
    assert set(GamePlugin.__dataclass_fields__) - NOT_PARTS == set(PARTS)


@pytest.mark.parametrize("game_id", henge.list_games())
def test_every_named_part_loads_and_matches_its_interface(game_id):
    """Each part a game names is imported and checked against its interface (henge.core.parts) when first
    loaded: a part that is missing or does not match raises PluginError. The parts it does not name stay None."""
    descriptor = plugin(game_id)
    assert descriptor.game_class().info.id == game_id
    for part in PARTS:
        found = descriptor.load_part(part)
        assert (found is None) == (getattr(descriptor, part) is None), part
        assert descriptor.load_part(part) is found  # checked once, then kept
    for text in (descriptor.board_script(), descriptor.rules_text()):
        assert text is None or text.strip()


def test_unknown_game_names_the_games():
    with pytest.raises(ValueError, match="stonerush"):
        henge.load("chess")


@pytest.mark.parametrize("game_id", henge.list_games())
def test_errors_at_chance_nodes_never_list_the_outcomes(game_id):
    """G3: an error message is no window onto a hidden pile."""
    game = henge.load(game_id, henge.game_class(game_id).info.min_players)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node() and len(state.legal_actions()) > 1:
            outcome_texts = state.legal_action_texts()
            illegal = next(a for a in range(game.max_chance_outcomes() + 1) if a not in state.legal_actions())
            with pytest.raises(IllegalActionError) as by_id:
                state.apply_action(illegal)
            with pytest.raises(IllegalActionError) as by_text:
                state.string_to_action("nonsense")
            for error in (by_id, by_text):
                assert not any(text in str(error.value) for text in outcome_texts)
            return
        state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no chance node with several outcomes")


def test_play_accepts_any_object_with_a_choose_method():
    class FirstChoice:
        def choose(self, decision):
            return decision.legal_actions[0]

    game = henge.load("stonerush", 3)
    record = henge.play(game, [FirstChoice(), "random", "random"], seed=4)
    assert record["agents"] == ["FirstChoice", "random", "random"]
    with pytest.raises(ValueError, match="needs 3 agents"):
        henge.play(game, ["random"], seed=4)
    with pytest.raises(ValueError, match="bots: random"):
        henge.play(game, ["genius"] * 3, seed=4)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_G1_every_chance_event_is_uniform_and_the_same_seed_plays_the_same_game(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    chance_nodes = 0

    def visit(state: State, step: int, rng: random.Random) -> None:
        nonlocal chance_nodes
        if state.is_chance_node():
            chance_nodes += 1
            probabilities = {p for _, p in state.chance_outcomes()}
            assert max(probabilities) - min(probabilities) < 1e-12, f"{game_id}: a non-uniform chance event"

    _walk(game, 5, visit)
    assert chance_nodes > 0
    agents = ["random"] * players
    assert henge.play(game, agents, seed=9) == henge.play(game, agents, seed=9)
    assert henge.play(game, agents, seed=9)["actions"] != henge.play(game, agents, seed=10)["actions"]


def _variant(game_id: str) -> type[henge.Game]:
    """Returns a game whose state is a Python subclass of ``game_id``'s, as a designer's rule change
    makes one (named in this module, so that its states pickle)."""
    base = henge.game_class(game_id)
    name = f"Variant_{game_id}"
    state_class = type(name, (base.state_class,), {"__slots__": (), "__module__": __name__})
    game_class = type(f"{name}_game", (base,), {"state_class": state_class, "__module__": __name__})
    globals()[name] = state_class
    globals()[f"{name}_game"] = game_class
    return game_class


@pytest.mark.parametrize("game_id", henge.list_games())
def test_a_designers_subclass_of_the_state_stays_itself_through_clones_resamples_and_loads(game_id):
    """A designer may change a rule by subclassing a game's state in Python: every state the engine
    makes from one of its states (a clone, a resample, a state loaded from JSON, a pickle) is of that
    subclass, so the changed rule holds in the search's copies too, on either path."""
    variant = _variant(game_id)
    game = variant(variant.info.min_players)
    variant_state = variant.state_class
    rng = random.Random(5)
    state = game.new_initial_state()
    seen = 0
    for _ in range(400):
        if state.is_terminal():
            break
        player = state.current_player()
        made = [state.clone(), game.state_from_json(state.to_json()), pickle.loads(pickle.dumps(state))]
        if player >= 0:
            made.append(state.resample_from_infostate(player, rng))
            seen += 1
        for other in made:
            assert type(other) is variant_state, type(other)
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert seen > 0
