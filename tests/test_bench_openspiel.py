"""`henge bench --against-openspiel`: henge's games and OpenSpiel's hearts in one loop."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

import henge
from henge import compiled
from henge.bench_openspiel import against_hearts, clone_us, decision_seconds, late_state, playout, playout_readme
from henge.bench_openspiel import main as equal_time_main
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


def test_the_equal_time_measurement_times_each_bot_on_the_same_positions(capsys):
    """``python -m henge.bench_openspiel`` times the bots' decisions with a choice, each on the same positions."""
    first = decision_seconds("heuristic", "fightin", 2, decisions=4, seed=2)
    assert len(first) >= 4 and all(t >= 0 for t in first)  # whole turns: at least as many as asked
    assert len(decision_seconds("random", "fightin", 2, decisions=4, seed=2)) == len(first)
    equal_time_main(["fightin", "--bots", "random,openspiel-ismcts:simulations=2", "--decisions", "2"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| fightin |")]
    assert [row.split(" | ")[2] for row in rows] == ["random", "openspiel-ismcts:simulations=2"]
    assert all(int(row.split(" | ")[3]) >= 2 for row in rows)


def test_no_bot_module_imports_the_measurement():
    """The measurement imports the bots and the adapter's bot; neither imports it back."""
    code = "import sys, henge.agents, henge.adapters.openspiel_bot; print('henge.bench_openspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_whole_playouts_race_hearts_lean_loop_in_one_run():
    out = CliRunner().invoke(main, ["bench", "fightin", "--playouts", "-t", "0.4", "-r", "1", "--json"])
    assert out.exit_code == 0, out.output
    (result,) = json.loads(out.output)
    assert result["game"] == "fightin" and result["players"] == 2
    assert result["engine"] == compiled.engine_path()
    for kind in ("random", "rule"):
        assert result[f"{kind} games"] >= 1
        assert result[f"{kind} decisions/s"] > 0 and result[f"{kind} actions/s"] > result[f"{kind} decisions/s"]
        assert result[f"{kind} ratio"] == pytest.approx(
            result[f"{kind} decisions/s"] / result["hearts lean decisions/s"]
        )
    shown = CliRunner().invoke(main, ["bench", "fightin", "--playouts", "-t", "0.2", "-r", "1"])
    assert shown.exit_code == 0 and "Engine: " in shown.output and "whole playouts" in shown.output
