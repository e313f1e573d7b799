"""`henge bench --against-openspiel`: henge's games and OpenSpiel's hearts in one loop."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import henge
from henge.bench_openspiel import against_hearts, clone_us, late_state, playout, playout_readme
from henge.cli import main

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("loop", [playout, playout_readme])
def test_both_loops_play_whole_games_of_henge_and_of_hearts(loop):
    for game in (henge.load("fightin", 2), pyspiel.load_game("hearts")):
        state = game.new_initial_state()
        decisions, chances = loop(state, random.Random(3))
        assert state.is_terminal()
        assert decisions > 0 and chances > 0
        assert decisions + chances == len(state.history())


def test_the_late_state_is_as_late_as_a_random_game_goes():
    game = henge.load("fightin", 2)
    state, move = late_state(game)
    assert state is not None and not state.is_terminal()
    assert state.move_number() == move > 100
    assert clone_us(state) > 0


def test_the_figures_of_one_interleaved_run():
    result = against_hearts("stonerush", seconds=0.2, slices=2)
    assert result["game"] == "stonerush" and result["players"] == 4
    for loop in ("", "readme "):
        for what in ("decisions", "actions"):
            assert result[f"{loop}{what}/s"] > 0 and result[f"hearts {loop}{what}/s"] > 0
            assert result[f"{loop}{what} ratio"] == pytest.approx(
                result[f"{loop}{what}/s"] / result[f"hearts {loop}{what}/s"]
            )
    assert result["late_move"] > 50
    assert result["us/clone@early"] > 0 and result["us/clone@late"] > 0 and result["hearts us/clone@early"] > 0


def test_the_command_line_flag():
    out = CliRunner().invoke(main, ["bench", "fightin", "--against-openspiel", "-t", "0.2", "-r", "1", "--json"])
    assert out.exit_code == 0, out.output
    (result,) = json.loads(out.output)
    assert result["game"] == "fightin" and result["decisions ratio"] > 0
