"""Spell Casting's own figures for the analysis (``henge analyze``, docs/analysis.md): the share of
turns spent on action a (one inside cup), b (outside cups) and c (hold two), and of turns passed.

A turn's action is fixed by its first take (``take``/``take mine`` from an inside cup: a; from an
outside cup: b; ``hold``: c); a turn with no take is a pass. Shares are over every seat's turns,
and over the winner's own (``winner_share_*``; a shared win pools its winners' turns).
"""

from __future__ import annotations

from collections.abc import Sequence

from henge.core import Game
from henge.games.spell_casting import board as sb
from henge.games.spell_casting.rules import NO_ACTION, TAKE, SpellCastingState

ACTIONS: tuple[str, ...] = ("a", "b", "c", "pass")


def turn_action(action: int) -> str:
    """Returns the action (a, b, c or pass) that a turn's first take, or its pass, starts."""
    if action == sb.PASS:
        return "pass"
    if action >= sb.HOLD:
        return "c"
    cup = action - (sb.TAKE_MINE if action >= sb.TAKE_MINE else sb.TAKE)
    return "a" if cup < 3 else "b"


def game_metrics(game: Game, history: Sequence[int], returns: Sequence[float]) -> dict[str, float | str]:
    """Returns the figures of a finished game (its whole history replayed)."""
    state = game.new_initial_state()
    assert isinstance(state, SpellCastingState)
    n = game.num_players
    counts = [dict.fromkeys(ACTIONS, 0) for _ in range(n)]
    for action in history:
        seat = state.current_player()
        starts = action < sb.PLACE or action == sb.PASS  # a turn's first take or hold, or its pass
        if seat >= 0 and state.phase == TAKE and state.kind == NO_ACTION and starts:
            counts[seat][turn_action(action)] += 1
        state.apply_action(action)
    assert state.is_terminal(), "a finished Spell Casting game"
    capped = max(state.inner) < state.target  # SC8: else a spell was cast
    figures: dict[str, float | str] = {
        "rounds": game.info.round_cap if capped else state.turns // n + 1,
        "capped": int(capped),
    }
    turns = sum(sum(c.values()) for c in counts)
    mine = {kind: sum(counts[seat][kind] for seat in state.winners) for kind in ACTIONS}
    own_turns = sum(mine.values())
    for kind in ACTIONS:
        figures[f"share_{kind}"] = sum(c[kind] for c in counts) / turns if turns else 0.0
    for kind in ACTIONS:
        figures[f"winner_share_{kind}"] = mine[kind] / own_turns if own_turns else 0.0
    return figures
