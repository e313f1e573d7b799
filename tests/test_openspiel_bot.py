"""``openspiel-ismcts``: OpenSpiel's ISMCTSBot at a henge seat, fair, legal, timed, evaluation only."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import time

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.ismcts")

from conftest import shipped_games
from positions import decision_points

import henge
from henge.adapters import openspiel_bot
from henge.agents import agent_names, check_agent, heuristics, make_agent, make_decision
from henge.agents.heuristics import NOTHING
from henge.core import State, plugin
from henge.tournament import MatchConfig, TournamentConfig, run

GAMES = henge.list_games()
HIDDEN = [g for g in GAMES if henge.game_class(g).info.hidden_information]
COUNTED = "openspiel-ismcts:simulations=4"
"""A search bounded by a count alone, so its choices depend only on the seeds."""


def _decision_points(game_id: str, players: int, seed: int, every: int, most: int) -> list[State]:
    """Returns states at every ``every``-th decision with a choice of a random game, ``most`` at most."""
    return decision_points(game_id, players, seed, every, most)


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_ismcts_plays_legal_actions_in_every_game(game_id):
    players = henge.game_class(game_id).info.min_players
    points = _decision_points(game_id, players, seed=5, every=3, most=2)
    for step, (spec, state) in enumerate(
        zip(("openspiel-ismcts:simulations=3", "openspiel-ismcts:seconds=0.01"), points, strict=True)
    ):
        agent = make_agent(spec, evaluation=True)
        decision = make_decision(state, state.current_player(), random.Random(step), samples=True)
        assert agent.choose(decision) in decision.legal_actions
        assert agent.last_simulations >= openspiel_bot.MIN_SIMULATIONS


@pytest.mark.parametrize("game_id", HIDDEN)
def test_openspiel_ismcts_decides_alike_in_states_that_differ_only_in_what_its_seat_cannot_see(game_id):
    info = henge.game_class(game_id).info
    players = min(max(3, info.min_players), info.max_players)
    differed = 0
    for step, state in enumerate(_decision_points(game_id, players, seed=11, every=7, most=3)):
        seat = state.current_player()
        twin = state.resample_from_infostate(seat, random.Random(step))
        differed += twin.to_json()["state"] != state.to_json()["state"]
        choices = []
        for real in (state, twin):
            decision = make_decision(real, seat, random.Random(step), samples=True)
            agent = make_agent(COUNTED, evaluation=True)
            choices.append((agent.choose(decision), decision.rng.random()))
        assert choices[0] == choices[1], f"decided differently at step {step}"
    assert differed > 0, "the twins never differed: the test proved nothing"


def test_openspiel_ismcts_searches_samples_of_the_seat_and_never_the_real_state():
    state = _decision_points("stonerush", 3, seed=2, every=5, most=3)[-1]
    seat = state.current_player()
    decision = make_decision(state, seat, random.Random(0), samples=True)
    assert not any(isinstance(v, State) for v in vars(decision).values())
    agent = make_agent(COUNTED, evaluation=True)
    assert agent.needs_samples and not getattr(agent, "cheats", False)
    searched: list[str] = []
    plain = decision._sampler
    assert plain is not None

    def sampler(rng: random.Random) -> State:
        sample = plain(rng)
        searched.append(sample.information_state_string(seat))
        return sample

    decision._sampler = sampler
    agent.choose(decision)
    assert searched == [state.information_state_string(seat)]


def test_openspiel_ismcts_respects_its_processor_time_budget():
    state = _decision_points("fightin", 2, seed=1, every=3, most=2)[-1]
    agent = make_agent("openspiel-ismcts:seconds=0.05", evaluation=True)
    spent = []
    for k in range(3):
        decision = make_decision(state, state.current_player(), random.Random(k), samples=True)
        cpu = time.process_time()
        agent.choose(decision)
        spent.append(time.process_time() - cpu)
        assert agent.last_simulations > openspiel_bot.MIN_SIMULATIONS
    assert 0.03 < sum(spent) / len(spent) < 0.08
    counted = make_agent("openspiel-ismcts:simulations=5", evaluation=True)
    counted.choose(make_decision(state, state.current_player(), random.Random(0), samples=True))
    assert counted.last_simulations == 5


def test_openspiel_ismcts_settings_are_parsed_and_bad_ones_named():
    agent = make_agent("openspiel-ismcts:simulations=50:seconds=0.2:c=1.5:rollouts=2", evaluation=True)
    assert isinstance(agent, openspiel_bot.OpenSpielISMCTSAgent)
    assert (agent.simulations, agent.seconds, agent.exploration, agent.rollouts) == (50, 0.2, 1.5, 2)
    assert isinstance(agent.simulations, int) and isinstance(agent.rollouts, int)
    assert agent.name == "openspiel-ismcts:simulations=50:seconds=0.2:c=1.5:rollouts=2"
    assert agent.budget("stonerush", 3) == (50, 0.2)
    plain = make_agent("openspiel-ismcts", evaluation=True)
    assert plain.name == "openspiel-ismcts"
    assert (plain.exploration, plain.rollouts) == (openspiel_bot.DEFAULT_EXPLORATION, 1)
    assert plain.budget("stonerush", 3) == (None, search_seconds("stonerush")[3])
    assert plain.budget("stonerush", 5) == (None, search_seconds("stonerush")[5])
    assert plain.budget("fightin", 3) == (None, search_seconds("fightin")[2])  # the nearest count
    assert plain.budget("no_such_game", 3) == (None, openspiel_bot.DEFAULT_SECONDS)
    assert make_agent("openspiel-ismcts:simulations=9", evaluation=True).budget("fightin", 2) == (9, None)
    with pytest.raises(ValueError, match="settings: simulations, seconds, c, rollouts"):
        make_agent("openspiel-ismcts:iterations=5", evaluation=True)
    with pytest.raises(ValueError, match="must be a number"):
        make_agent("openspiel-ismcts:simulations=many", evaluation=True)
    with pytest.raises(ValueError, match="at least 2"):
        make_agent("openspiel-ismcts:simulations=1", evaluation=True)
    with pytest.raises(ValueError, match="positive"):
        make_agent("openspiel-ismcts:seconds=0", evaluation=True)


def search_seconds(game_id):
    return plugin(game_id).load_search().OPENSPIEL_SECONDS


def test_every_shipped_game_names_its_equal_time_at_every_player_count():
    for game_id in shipped_games():
        info = plugin(game_id).game_class().info
        assert sorted(search_seconds(game_id)) == list(range(info.min_players, info.max_players + 1)), game_id


def test_a_game_names_its_own_equal_time_in_its_search_part(monkeypatch):
    """A game's search part names ``OPENSPIEL_SECONDS`` (player count to seconds), read at the nearest
    player count; a game that names none gets the default."""
    assert openspiel_bot.equal_seconds("first_druid", 4) == search_seconds("first_druid")[4]
    own = dataclasses.replace(heuristics.knowledge("stonerush"), openspiel_seconds={3: 0.5, 5: 0.7})
    monkeypatch.setattr(heuristics, "knowledge", lambda game_id: own if game_id == "stonerush" else NOTHING)
    assert [openspiel_bot.equal_seconds("stonerush", n) for n in (3, 4, 5)] == [0.5, 0.5, 0.7]
    assert make_agent("openspiel-ismcts", evaluation=True).budget("stonerush", 5) == (None, 0.7)
    assert openspiel_bot.equal_seconds("fightin", 2) == openspiel_bot.DEFAULT_SECONDS  # here it names none


def test_openspiel_ismcts_plays_only_in_evaluations():
    assert "openspiel-ismcts" not in agent_names()
    with pytest.raises(ValueError, match="only in evaluations"):
        make_agent("openspiel-ismcts")
    with pytest.raises(ValueError, match="only in evaluations"):
        check_agent("openspiel-ismcts", "stonerush")
    TournamentConfig("stonerush", 3, ("ismcts", "openspiel-ismcts"), games=6).validate()
    MatchConfig("stonerush", 3, "ismcts", ("openspiel-ismcts",)).validate()


def test_openspiel_ismcts_plays_a_tournament_game_reproducibly():
    config = TournamentConfig("fightin", 2, ("openspiel-ismcts:simulations=2", "random"), games=1, seed=4)
    first, second = run(config), run(config)
    assert first[0]["lineup"] == list(config.agents) and first[0]["decisions"][0] > 10
    assert (first[0]["returns"], first[0]["length"]) == (second[0]["returns"], second[0]["length"])


def test_without_openspiel_the_bot_says_what_to_install(monkeypatch):
    openspiel_bot._openspiel.cache_clear()
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    try:
        with pytest.raises(openspiel_bot.MissingOpenSpiel, match=r"pip install 'henge\[openspiel\]'"):
            make_agent("openspiel-ismcts", evaluation=True)
        with pytest.raises(ValueError, match="pyspiel"):
            TournamentConfig("stonerush", 3, ("ismcts", "openspiel-ismcts"), games=6).validate()
    finally:
        openspiel_bot._openspiel.cache_clear()


def test_the_bots_module_does_not_import_openspiel():
    code = "import sys, henge.agents; print(sorted(m for m in ('pyspiel', 'open_spiel') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
