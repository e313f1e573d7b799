"""First Druid: what a search knows of the game: the position evaluation (``evaluate``) and the
search's settings (``SEARCH``); no ``belief``, so ISMCTS samples uniformly."""

from __future__ import annotations

import math

from henge import box
from henge.core import State

GAMES = ("first_druid",)
"""The games whose rules this evaluation was written for."""
OPTIONS: tuple[str, ...] = ("colours", "hand_limit")
"""The options the evaluation understands: it reads scores, druids and hand sizes, whatever the seats'
colours; a hand limit shows in the hand sizes."""

SEARCH = {"iterations": 100, "rollout_depth": 6, "guided_rollout": True}
"""ismcts here: six decisions played as this player would before the evaluation (a
selection pays off only once the rivals have picked), 100 iterations, and the usual 40
determinizations. Drawing one replays the game's whole history (up to about 5 ms late in
a game), so the first decision of a turn, which draws all 40, takes up to about half a second; 10
determinizations and 4-decision rollouts answered three times faster there, but lost
more games than a fair share to these settings (docs/performance.md, "Strength")."""

_RING = box.RING_SPACES
_CARD_POINTS = 0.4
"""Points a card in hand is worth at the end."""
_CONTACT_POINTS = 0.15
"""Points a round in contact (drawing) is worth over a round out of it."""


def evaluate(state: State) -> list[float]:
    """Returns each seat's chance of winning, from its score now and what it can still add.

    Each seat's final score is projected as its score now, plus its cards in
    hand (and on the table, for the active seat), plus the draws it will
    make in the rounds left if its druid stays level with the neutral figure
    (a druid the neutral passed draws nothing, and falls further behind),
    plus the extra draws of the trilithons it owns. The chances are a
    softmax of the projections whose spread narrows as the end approaches.
    """
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    obs = state.observation(None)
    n = obs["players"]
    pos = obs["druids"]
    left = max(0, 60 - obs["round"])
    race = 2 * (_RING - max(pos))
    rounds = max(1.0, min(left, race))
    owners = [t["owner"] for t in obs["trilithons"]]
    number = obs["time"]["number"]
    cards = list(obs["hand_sizes"])
    if obs["turn_seat"] is not None:
        cards[obs["turn_seat"]] += len(obs["table"])
    night = obs["time"]["phase"] == "night"
    projected = []
    for seat in range(n):
        lead = pos[seat] - number
        if lead >= 1 or (lead == 0 and night):
            contact = 1.0
        elif lead == 0:
            contact = 0.5  # the neutral reaches the next number at the end of this round
        else:
            contact = -0.3 * min(3, -lead)
        extra = _CONTACT_POINTS * contact * rounds + 0.1 * rounds * owners.count(seat)
        projected.append(obs["scores"][seat] + _CARD_POINTS * cards[seat] + extra)
    temperature = 1.0 + 0.12 * rounds
    top = max(projected)
    weights = [math.exp((p - top) / temperature) for p in projected]
    total = sum(weights)
    return [w / total for w in weights]


OPENSPIEL_SECONDS = {3: 0.138, 4: 0.150, 5: 0.199}
"""Processor seconds per decision with a choice of ``ismcts`` at its default settings, by player count:
the budget that gives OpenSpiel's ISMCTS equal time (``openspiel-ismcts``). Made by
``python -m henge.bench_openspiel --bots ismcts --decisions 200 --games 4 --players N``, over about 200
decisions each; measure again when the search or its settings here change."""
