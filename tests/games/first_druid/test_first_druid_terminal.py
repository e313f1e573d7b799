"""First Druid's terminal drawing works from observations alone and shows the key content."""

from __future__ import annotations

import random

from rich.console import Console

import henge
from henge import box
from henge.games.first_druid import terminal as drawing


def _text(renderable: object) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_render_shows_the_board_hand_and_offers_from_random_play():
    game = henge.load("first_druid", 4)
    rng = random.Random(8)
    state = game.new_initial_state()
    seen_offer = False
    steps = 0
    while not state.is_terminal():
        seat = state.current_player()
        if steps % 97 == 0 or (not seen_offer and seat >= 0 and state.observation(seat)["offer"]):
            for view in (seat if seat >= 0 else 0, None):
                obs = state.observation(view)
                text = _text(drawing.render(obs))
                assert "First Druid" in text and "bluestones" in text and "trilithons" in text and "altar" in text
                assert drawing.describe_decision(obs)
                if view is not None:
                    assert "your hand" in text
                    hand = obs["hand"]
                    if hand and not hand[0].startswith("T-"):
                        assert hand[0][:-1] in text
                else:
                    assert "your hand" not in text
                if obs["offer"] is not None:
                    seen_offer = True
                    assert "offer:" in text
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.random() * len(actions))])
        steps += 1
    final = state.observation(0)
    assert "game over" in _text(drawing.render(final))
    assert drawing.describe_decision(final) == "the game is over"
    assert seen_offer


def test_describe_decision_names_the_decision():
    game = henge.load("first_druid", 3)
    state = game.new_initial_state()
    for card in range(15):
        state.apply_text(f"draw {box.CARD_TEXT[card]}")
    assert drawing.describe_decision(state.observation(0)).startswith("your turn")
    assert drawing.describe_decision(state.observation(1)) == "seat 0 is deciding"
