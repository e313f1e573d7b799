"""Druid Olympics' own figures for the analysis (``henge analyze``, docs/analysis.md): lost turns
per race (D6).

Read from the game's public record: a runner that ends its own move on a block owes one or two
turns ("ends on a block ... and loses N turn(s)"), and each turn it then sits out is written
"loses turn N". Turns still owed when the race ends were never lost, so they are not counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from henge.core import Game
from henge.games.druid_olympics.board import ALTAR
from henge.games.druid_olympics.rules import DruidOlympicsState


def game_metrics(game: Game, history: Sequence[int], returns: Sequence[float]) -> dict[str, float | str]:
    """Returns the figures of a finished game (its whole history replayed)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    assert isinstance(state, DruidOlympicsState) and state.is_terminal(), "a finished Druid Olympics race"
    lost = [0] * state.n
    landings = 0
    for actor, text in state.information_state(None):
        if actor < 0:
            continue
        if text.startswith("loses turn "):
            lost[actor] += 1
        elif text.startswith("ends on a block on "):
            landings += 1
    winners = state.winners
    return {
        "rounds": state.turn,
        "capped": int(ALTAR not in state.pos),  # D9: a runner on the altar stone ends the race
        "lost_turns": sum(lost),
        "lost_turns_winner": sum(lost[seat] for seat in winners) / len(winners),
        "block_landings": landings,
    }
