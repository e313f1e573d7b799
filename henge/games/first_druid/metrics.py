"""First Druid's own figures for the analysis (``henge analyze``, docs/analysis.md): which
combinations the winner scored (FD6), and where the winner's score came from (FD7).

Each combination laid ends in its effect, one decision of its player: ``advance`` (cards of the
neutral's phase adding up to the druid's number), ``clan`` (a sum of 31), ``altar`` (a pair or 31),
``build`` (a pair; ``build only`` too), ``convert_clan`` and ``convert_spirit`` (a run of three),
``take_over`` (a run of four). A shared win counts the winners' effects per winner.
``winner_main`` names the effect the winner played most besides advancing (the first in this
order on a tie; ``none`` if only advances).
"""

from __future__ import annotations

from collections.abc import Sequence

from henge import box
from henge.core import Game
from henge.games.first_druid.actions import (
    ADVANCE,
    ALTAR,
    BUILD,
    BUILD_ONLY,
    CLAN,
    CONVERT_CLAN,
    CONVERT_SPIRIT,
    OFFER,
    TAKE_OVER,
)
from henge.games.first_druid.rules import FirstDruidState
from henge.games.first_druid.scoring import run_points

EFFECTS: dict[int, str] = {
    ADVANCE: "advance",
    CLAN: "clan",
    ALTAR: "altar",
    BUILD: "build",
    BUILD_ONLY: "build",
    CONVERT_CLAN: "convert_clan",
    CONVERT_SPIRIT: "convert_spirit",
    **{action: "take_over" for action in range(TAKE_OVER, OFFER)},
}
"""The effect of each action that ends a combination."""
KINDS: tuple[str, ...] = tuple(dict.fromkeys(EFFECTS.values()))


def game_metrics(game: Game, history: Sequence[int], returns: Sequence[float]) -> dict[str, float | str]:
    """Returns the figures of a finished game (its whole history replayed)."""
    state = game.new_initial_state()
    n = game.num_players
    played = [dict.fromkeys(KINDS, 0) for _ in range(n)]
    for action in history:
        seat = state.current_player()
        if seat >= 0 and action in EFFECTS:
            played[seat][EFFECTS[action]] += 1
        state.apply_action(action)
    assert isinstance(state, FirstDruidState) and state.is_terminal(), "a finished First Druid game"
    winners = state.winners
    clans = run_points(state.clans, n)
    spirits = run_points(state.spirits, n)
    figures: dict[str, float | str] = {
        "rounds": state.neutral + 1,
        "capped": int(max(state.pos) < box.RING_SPACES),  # FD7: else a druid reached 30
    }
    for kind in KINDS:
        figures[f"winner_{kind}"] = sum(played[seat][kind] for seat in winners) / len(winners)
    totals = {kind: sum(played[seat][kind] for seat in winners) for kind in KINDS if kind != "advance"}
    most = max(totals.values())
    figures["winner_main"] = "none" if most == 0 else next(kind for kind in totals if totals[kind] == most)
    figures["winner_druid"] = sum(state.pos[seat] for seat in winners) / len(winners)
    figures["winner_clan_points"] = sum(clans[seat] for seat in winners) / len(winners)
    figures["winner_spirit_points"] = sum(spirits[seat] for seat in winners) / len(winners)
    return figures
