"""Spell Casting's log lines, from two successive observations of one seat (or a spectator).

Everything in this game is public; the lines retell the actions the seat saw
(the observation's ``recent`` list): disks taken, held, used and put back,
figures and components moved, each push of a chain, then arrivals on the inner
ring, whose turn it is and the end.
"""

from __future__ import annotations

from typing import Any

from henge.core import Observation, seat_name

_SETUP = ("deal components", "deal figures")


def _verb(who: str, plain: str, third: str) -> str:
    return f"{who} {plain if who == 'you' else third}"


def narrate(before: Observation | None, after: Observation) -> list[str]:
    """Returns what happened between two observations, in the words of the table."""
    if before is None:
        return []
    if after["phase"] in _SETUP:
        return []
    lines: list[str] = []
    if before["phase"] in _SETUP:
        lines.append("the components and figures are placed by the cards turned")
    new_actions = _new_actions(before, after)
    for seat, text in new_actions:
        line = _action_line(before, after, seat, text)
        if line:
            lines.append(line)
    for seat, (old, new) in enumerate(zip(before["inner_counts"], after["inner_counts"], strict=True)):
        if new > old:
            lines.append(f"{seat_name(after, seat)}: {new} of {after['target']} components on the inner ring")
    if after["phase"] == "over" and before["phase"] != "over":
        lines.append(f"the game is over: {after['result']}")
        winners = " and ".join(seat_name(after, s) for s in after["winners"] or [])
        lines.append(f"{winners} {'win' if winners == 'you' or ' and ' in winners else 'wins'}")
    elif after["turn_player"] != before["turn_player"] and after["phase"] != "over":
        lines.append(f"{seat_name(after, after['turn_player'])} to play")
    return lines


def _whose(obs: Observation, seat: Any) -> str:
    if seat is None:
        return "a"
    return "your" if seat == obs["seat"] else f"seat {seat}'s"


def _owner(obs: Observation, ring: str, number: int) -> str:
    return _whose(obs, obs["rings"][ring][number - 1])


def _new_actions(before: Observation, after: Observation) -> list[tuple[int, str]]:
    """Returns the player actions taken between the two observations (from the ``recent`` list)."""
    old = [(r["seat"], r["action"]) for r in before["recent"]]
    new = [(r["seat"], r["action"]) for r in after["recent"]]
    for k in range(len(new), -1, -1):  # the longest end of old that new starts with
        if k <= len(old) and new[:k] == old[len(old) - k :]:
            return new[k:]
    return new


def _action_line(before: Observation, obs: Observation, seat: int, text: str) -> str | None:
    who = seat_name(obs, seat)
    words = text.split()
    verb = words[0]
    if verb == "take":
        return (
            _verb(who, "take", "takes")
            + (" a private disk from " if words[1] == "mine" else " a disk from ")
            + words[-1]
        )
    if verb == "hold":
        return _verb(who, "hold", "holds") + f" a disk from {words[1]} off the board"
    if verb == "place":
        return _verb(who, "put", "puts") + f" a disk into {words[1]}"
    if verb == "figure":
        return _verb(who, "move", "moves") + f" the {words[1]} figure {words[2]} {words[3]}"
    if verb in ("pull", "push"):
        owner = _owner(before, words[1], int(words[2]))
        way = "in" if verb == "pull" else "out"
        return _verb(who, verb, verb + "es") + f" {owner} component on {' '.join(words[1:3])} {way}"
    if verb == "move":
        owner = _owner(before, words[1], int(words[2]))
        return _verb(who, "move", "moves") + f" {owner} component on {words[1]} {words[2]} {words[3]}"
    if verb == "displace":
        chain = before.get("chain") or {}
        owner = _whose(obs, chain.get("component"))
        return _verb(who, "push", "pushes") + f" {owner} component off {chain.get('from', '?')}: {' '.join(words[1:])}"
    if verb == "done":
        return _verb(who, "stop", "stops") + (" taking disks" if obs["phase"] == "use" else " using disks")
    return None
