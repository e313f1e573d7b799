"""Fightin's own figures for the analysis (``henge analyze``, docs/analysis.md): which event decided
the game.

Every award a seat gains is counted to the event that gave it, read from the game's public record:
an event runs from its newcomers being turned over until the next event's are. Fightin' and
Drinkin' give awards only from stock and the altar (F7-F9 lines "seat N earns", "wins N blue",
"takes N blue from the altar"); everything else that changes a seat's awards happens in Stealin'
(banked loot, awards stolen from the other seat), so Stealin's net is what is left of the final
awards. The deciding event is the one in which the winner gained the most awards more than the
loser; a shared win has none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from henge.core import Game
from henge.games.fightin.actions import EVENTS, NOUNS
from henge.games.fightin.rules import FightinState

_TURNED = re.compile(r"turns over (\w+) ")
_EARNS = re.compile(r"seat (\d) earns (\d+) \w+$")
_ALTAR = re.compile(r"seat (\d)'s (?:biggest drinker wins|Gonagal takes) (\d+) blue")


def event_awards(state: FightinState) -> list[list[int]]:
    """Returns ``awards[event][seat]``: what each seat gained in Fightin', Drinkin' and Stealin'
    over the game (Stealin' net of what was stolen from the seat)."""
    gained = [[0, 0] for _ in EVENTS]
    event = -1
    for actor, text in state.information_state(None):
        if actor >= 0:
            turned = _TURNED.match(text)
            if turned is not None and turned.group(1) in NOUNS:
                event = NOUNS.index(turned.group(1))
            continue
        found = _EARNS.match(text) or _ALTAR.search(text)
        if found is not None:
            if event not in (0, 1):
                raise ValueError(f"an award outside Fightin' and Drinkin': {text!r}")
            gained[event][int(found.group(1))] += int(found.group(2))
    for seat in (0, 1):
        total = sum(state.awards[seat * 5 : seat * 5 + 5])
        gained[2][seat] = total - gained[0][seat] - gained[1][seat]
    return gained


def game_metrics(game: Game, history: Sequence[int], returns: Sequence[float]) -> dict[str, float | str]:
    """Returns the figures of a finished game (its whole history replayed)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    assert isinstance(state, FightinState) and state.is_terminal(), "a finished Fightin' game"
    gained = event_awards(state)
    figures: dict[str, float | str] = {
        "rounds": state.round,
        "capped": 0,  # the seventh round is the rules' own end, never a cap that cuts a game short
        "score_margin": abs(state.scores[0] - state.scores[1]) / 2,
    }
    winner = state.winners[0] if len(state.winners) == 1 else None
    margins = [g[winner] - g[1 - winner] if winner is not None else 0 for g in gained]
    for name, margin in zip(EVENTS, margins, strict=True):
        figures[f"{name}_margin"] = margin
    best = max(margins)
    deciding = [name for name, margin in zip(EVENTS, margins, strict=True) if margin == best]
    if winner is None:
        figures["deciding_event"] = "shared"
    else:
        figures["deciding_event"] = deciding[0] if len(deciding) == 1 else "tie"
    return figures
