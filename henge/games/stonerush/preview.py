"""Stonerush: what a legal action will do, read from the seat's observation alone.

A play moves a druid only when it ends, so ``play X`` says where ``done`` would
then take the druid, and ``done`` where it goes now: the net of suns and moons
(S4), the limits at the first and the last space, and the druids it is bumped past
when it ends on an occupied space (S5), and whether it ends the race (S7).
"""

from __future__ import annotations

from typing import Any

from henge import box


def _move(druids: dict[str, int], druid: str, net: int, last: int) -> tuple[int, int, list[int]]:
    """Returns (from, to, the occupied spaces it is bumped past) of a druid moved by ``net`` (S4, S5)."""
    start = druids[druid]
    target = min(start + net, last) if net > 0 else max(start + net, 1)
    hopped: list[int] = []
    if target != start:
        step = 1 if net > 0 else -1
        others = [p for d, p in druids.items() if d != druid]
        while 1 < target < last and target in others:
            hopped.append(target)
            target += step
    return start, target, hopped


def _play(obs: dict[str, Any], cards: list[int]) -> str:
    """What ending a play of ``cards`` does (S3-S5, S7)."""
    colour = next((box.CARD_COLOUR[c] for c in cards if box.CARD_COLOUR[c] != box.BLACK), box.BLACK)
    if colour == box.BLACK:
        return "black cards only: no druid moves"
    druid = box.COLOURS[colour]
    net = sum(1 if box.CARD_IS_DAY[c] else -1 for c in cards)
    last = obs["track_end"]
    start, target, hopped = _move(obs["druids"], druid, net, last)
    name = f"{druid} druid{' (yours)' if obs.get('trilithon') == druid else ''}"
    if target == start:
        return f"{name} stays on {start}"
    text = f"{name} {start} -> {target}"
    if hopped:
        text += f", bumped past the druid{'s' if len(hopped) > 1 else ''} on {', '.join(map(str, hopped))}"
    if target == last:
        text += ": the race ends"
    return text


def preview(observation: dict[str, Any], seat: int, action_text: str) -> str | None:
    """Returns what ``action_text`` will do for ``seat``, from its observation alone (None: the text says it)."""
    obs = observation
    if obs.get("current_player") != seat or obs.get("phase") != "play":
        return None
    played = [box.parse_card(t) for t in obs["in_play"]]
    if action_text == "done":
        return _play(obs, played)
    word, _, card = action_text.partition(" ")
    if word != "play":
        return None
    return "with done: " + _play(obs, [*played, box.parse_card(card)])
