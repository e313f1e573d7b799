"""Stonerush's own figures for the analysis (``henge analyze``, docs/analysis.md).

From a finished game: which colour's holder won, and how far the race was won: the spaces the
winner's druid finished ahead of the best druid another seat held, and how far behind it the
other four druids finished on average (an unheld druid may finish ahead: S2 races all five).
"""

from __future__ import annotations

from collections.abc import Sequence

from henge.core import Game
from henge.games.stonerush.rules import DRUIDS, StonerushState


def game_metrics(game: Game, history: Sequence[int], returns: Sequence[float]) -> dict[str, float | str]:
    """Returns the figures of a finished game (its whole history replayed)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    assert isinstance(state, StonerushState) and state.is_terminal(), "a finished Stonerush game"
    n = state.n
    cap = game.info.round_cap
    capped = all(p != state.end for p in state.pos)  # S7: a druid on the last space ends the race
    winners = state.winners
    held = {state.trilithon[seat] for seat in winners}
    best = state.pos[state.trilithon[winners[0]]]  # winners share the furthest own druid (S7)
    rivals = [state.pos[state.trilithon[seat]] for seat in range(n) if seat not in winners]
    others = [state.pos[d] for d in range(5) if d not in held]
    return {
        "rounds": cap if capped else state.turns // n + 1,
        "capped": int(capped),
        "winning_colour": DRUIDS[state.trilithon[winners[0]]] if len(winners) == 1 else "shared",
        "winner_space": best,
        "margin": best - max(rivals) if rivals else 0,
        "others_behind": sum(best - p for p in others) / len(others) if others else 0.0,
    }
