"""The terminal drawing of Fightin' an' Drinkin' an' Stealin'! works from observations alone."""

from __future__ import annotations

import io
import random

from rich.console import Console

import henge
from henge.games.fightin import terminal as terminal


def _text(renderable) -> str:
    console = Console(file=io.StringIO(), width=140, record=True, color_system="truecolor")
    console.print(renderable)
    return console.export_text()


def test_render_shows_hand_events_awards_and_hides_face_down_cards():
    game = henge.load("fightin")
    rng = random.Random(7)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.3:
            for seat in (0, 1, None):
                obs = state.observation(seat)
                shown = _text(terminal.render(obs))
                assert "Fightin'" in shown and "Stealin'" in shown and "Big Lawyer on" in shown
                if seat is None:
                    assert "Your hand" not in shown
                else:
                    assert all(card in shown for card in obs["hand"])
                    other = obs["events"]["fightin"]["face_down"][1 - seat]
                    if other is not None:
                        assert "[?]" in shown
                prompt = terminal.describe_decision(obs)
                assert prompt and "None" not in prompt
                checked += 1
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.random() * len(actions))])
    final = _text(terminal.render(state.observation(0)))
    assert "final scores" in final and terminal.describe_decision(state.observation(0)) == "the game is over"
    assert checked > 20


def test_describe_decision_names_the_decision():
    game = henge.load("fightin")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert terminal.describe_decision(state.observation(0)) == (
        "choose your fighter for the Fightin' event (played face down)"
    )
    assert terminal.describe_decision(state.observation(1)).startswith("seat 0 is deciding: choose their fighter")
    obs = state.observation(0)
    obs.update(decision="discard own", event="fightin")
    assert terminal.describe_decision(obs) == "choose your fighter to discard"
