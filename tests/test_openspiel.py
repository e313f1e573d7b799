"""Every registered game passes OpenSpiel's own random simulation test."""

from __future__ import annotations

import pytest
from conftest import config_id, game_configs

pyspiel = pytest.importorskip("pyspiel")
from henge.adapters import openspiel  # noqa: E402

openspiel.register_all()


@pytest.mark.slow
@pytest.mark.parametrize("config", game_configs(), ids=config_id)
def test_pyspiel_random_sim_test(config):
    game_id, players, options = config
    game = pyspiel.load_game(f"henge_{game_id}", {"players": players, **options})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_adapter_observation_is_the_seats_json():
    game = pyspiel.load_game("henge_stonerush", {"players": 3})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    text = state.observation_string(seat)
    assert f'"seat": {seat}' in text
    assert '"hand": [' in text
